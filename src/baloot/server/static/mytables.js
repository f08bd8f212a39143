// "My tables": the seats this browser holds, kept in localStorage, so that a closed tab is
// never a lost match. A table's page remembers its seat when it opens with a token; the lobby
// lists them with their state and forgets the ones the server no longer knows.

const STORE_KEY = "baloot.my-tables";
/** The most seats kept: the oldest are forgotten first. */
const MOST = 20;

/** The seats kept, newest first: [{ table, token, at, seat }] (seat: once the table said). */
export function myTables() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(kept) ? kept.filter((entry) => entry && entry.table && entry.token) : [];
  } catch (err) {
    return [];
  }
}

function keep(list) {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(list.slice(0, MOST)));
  } catch (err) {
    // a browser that keeps nothing: nothing to list
  }
}

/** Remembers that this browser holds a seat (its letter, when known) at `table` with
 *  `token`, as the newest. */
export function remember(table, token, seat = null) {
  const kept = myTables();
  const known = kept.find((entry) => entry.table === table && entry.token === token);
  const others = kept.filter((entry) => entry !== known);
  keep([{ table, token, at: Date.now(), seat: seat || (known && known.seat) || null }, ...others]);
}

/** Forgets the seat of `table` held with `token`. */
export function forget(table, token) {
  keep(myTables().filter((entry) => !(entry.table === table && entry.token === token)));
}

/** The page of a kept seat. */
export function seatUrl(entry) {
  return `/t/${encodeURIComponent(entry.table)}?token=${encodeURIComponent(entry.token)}`;
}
