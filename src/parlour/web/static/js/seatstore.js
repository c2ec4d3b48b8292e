// What this browser keeps of the tables it sat at and made (localStorage): per table and
// seat, the secret the server gave when this browser claimed the seat (with the invite it
// came with); per table it made, the creator's secret. Nothing is kept in private mode:
// the links still work for the session.

const PREFIX = "parlour-seat-";
const seatKey = (table, seat) => `${PREFIX}${table}-${seat}`;
const adminKey = (table) => `parlour-admin-${table}`;
const legacyKey = (table) => `parlour-token-${table}`; // an invite kept by the page before seats were claimed

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // no storage
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* private mode: nothing is kept */ }
}

/** Every seat this browser holds at `table`: [{seat, secret, invite, at}], the latest first. */
export function heldSeats(table) {
  const out = [];
  let keys = [];
  try {
    keys = Object.keys(localStorage);
  } catch {
    return out;
  }
  const head = seatKey(table, "");
  for (const key of keys) {
    const seat = key.startsWith(head) ? key.slice(head.length) : "";
    if (!/^\d+$/.test(seat)) continue;
    try {
      const entry = JSON.parse(read(key));
      if (entry && typeof entry.secret === "string") out.push({ ...entry, seat: Number(seat) });
    } catch { /* a damaged entry is no seat */ }
  }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0));
}

/** The seat this browser claimed with `invite`, or null. */
export function seatForInvite(table, invite) {
  return heldSeats(table).find((e) => e.invite === invite) || null;
}

/** Keep the seat's secret (and the invite it was claimed with), as the latest used. */
export function keepSeat(table, seat, secret, invite) {
  write(seatKey(table, seat), JSON.stringify({ secret, invite: invite || null, at: Date.now() }));
}

export function forgetSeat(table, seat) {
  write(seatKey(table, seat), null);
}

export function legacyInvite(table) {
  return read(legacyKey(table));
}

export function forgetLegacyInvite(table) {
  write(legacyKey(table), null);
}

/** The creator's secret of a table this browser made, or null. */
export function adminSecret(table) {
  return read(adminKey(table));
}

export function keepAdmin(table, secret) {
  write(adminKey(table), secret);
}

/** Forget everything kept of a table (it was closed). */
export function forgetTable(table) {
  for (const entry of heldSeats(table)) forgetSeat(table, entry.seat);
  write(adminKey(table), null);
  forgetLegacyInvite(table);
}
