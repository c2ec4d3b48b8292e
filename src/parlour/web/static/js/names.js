// How a seat is called on the page: its player's name, with the seat number when two
// players share a name (two "heuristic" bots). The page numbers seats from 1, as the
// server's default names do ("Player 1" sits in the protocol's seat 0).

/** The seat's number as the page shows it: `seatLabel(0)` is "seat 1". */
export function seatLabel(seat) {
  return `seat ${seat + 1}`;
}

/** "Ada", "heuristic (seat 2)", or "Seat 3" when the message names no players. */
export function seatName(msg, seat) {
  const players = msg.players || [];
  const p = players.find((x) => x.seat === seat);
  if (!p || !p.name) return `Seat ${seat + 1}`;
  const twins = players.filter((x) => x.name === p.name).length > 1;
  return twins ? `${p.name} (${seatLabel(seat)})` : p.name;
}
