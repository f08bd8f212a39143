// Inviting a friend to a seat in one tap: which seats a table's creator has to give, which
// friends to offer them to (online first), and what POST /api/invites is sent. No page here:
// the lobby draws it (lobby.js); `node --test tests/js/invite.test.mjs` tests it.

import { LISTED_SEATS } from "./protocol.js";

/** The seat the table's creator takes among the `humans`: South, else the first listed. */
export function creatorSeat(humans) {
  return humans.includes("S") ? "S" : LISTED_SEATS.find((seat) => humans.includes(seat));
}

/** The seats a new table's creator made for other people to join, in the order they are
 *  listed: every human seat of `created` (what POST /api/tables answered) but the creator's
 *  own, each `{ table, seat, token }`. */
export function seatsToGive(created) {
  const seats = (created && created.seats) || {};
  const humans = Object.keys(seats);
  const mine = creatorSeat(humans);
  return LISTED_SEATS.filter((seat) => humans.includes(seat) && seat !== mine && seats[seat].token)
    .map((seat) => ({ table: created.table, seat, token: seats[seat].token }));
}

/** The friends to offer a seat to, from GET /api/friends: friends only (not those asked or
 *  asking, nor the blocked), those online first, then by name. */
export function friendsToInvite(friends) {
  return (friends || [])
    .filter((friend) => friend && friend.state === "friends" && typeof friend.name === "string")
    .sort((a, b) => Number(Boolean(b.online)) - Number(Boolean(a.online))
      || a.name.localeCompare(b.name));
}

/** The body of POST /api/invites that gives `give` (one of seatsToGive) to the friend `name`. */
export function inviteBody(give, name) {
  return { table: give.table, seat: give.seat, token: give.token, friend: name };
}

/** The invitations received that are still to answer, from GET /api/invites, newest first
 *  (as the server lists them); none for an answer that is not one. */
export function receivedInvites(answer) {
  return answer && Array.isArray(answer.received) ? answer.received : [];
}
