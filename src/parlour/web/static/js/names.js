// How a seat is called on the page: its player's name, with the seat number when two
// players share a name (two "heuristic" bots).

/** "Ada", "heuristic (seat 2)", or "Seat 3" when the message names no players. */
export function seatName(msg, seat) {
  const players = msg.players || [];
  const p = players.find((x) => x.seat === seat);
  if (!p || !p.name) return `Seat ${seat}`;
  const twins = players.filter((x) => x.name === p.name).length > 1;
  return twins ? `${p.name} (seat ${seat})` : p.name;
}
