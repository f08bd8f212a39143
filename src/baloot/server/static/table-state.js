// The table page's state: plain data, and the questions the page asks of it.
//
// The frame shown (view, match, seats) is the pacer's (motion.js), copied here each time it
// shows one; the rest is what the page knows of the table (its description) and of its own
// doings. The connection keeps its own state (net.js: its status, the sheets and claims
// of the hand-overs, the talk): the questions that need it take it as `link`.
// table-controller.js changes the state; table-view.js draws it.

import { PHASE, TEAM, nextSeat, otherTeam, readAction } from "./protocol.js";

/** The state of a table's page before it knows anything. */
export function initialState(tableId, token) {
  return {
    tableId,
    token, // the seat's token, or null for a spectator
    view: null, // the frame shown: its view, match and seats (the pacer's)
    match: null,
    seats: null,
    info: null, // GET /api/tables/ID
    pending: false, // a decision sent, its answer not yet in
    showLast: false,
    notice: null, // the short line under the hand: a reject, a hint… (table-view.js words it)
    nextSentFor: null, // the hand whose "next" we sent
    deadline: null, // the server's deadline as of the frame shown: {kind, seat, at} or null
    worded: {}, // hand number → worded sheet lines
    lines: {}, // hand number → its sheet lines, keyed (from the hand-over or the sheet endpoint)
    wording: {}, // hand number → true once its words were asked for
    fairChecked: {}, // hand number → "verified" / "alone" / "failed": what this page found of its deal's reveal
    lastTick: null, // the seconds left of our turn when the clock last sounded them
  };
}

/** This page's seat, or null for a spectator (or before the first view). */
export function mySeat(state) {
  return state.view ? state.view.seat : null;
}

/** Whether `seat` is one of the table's human seats. */
export function isHumanSeat(state, seat) {
  return !!(state.info && Array.isArray(state.info.humans) && state.info.humans.includes(seat));
}

/** Our team and theirs (a spectator sees from South's side). */
export function usThem(state) {
  const us = TEAM[mySeat(state) || "S"];
  return { us, them: otherTeam(us) };
}

/** Where each seat sits on the felt: ours (South for a spectator) at the bottom. */
export function positions(state) {
  const bottom = mySeat(state) || "S";
  return { bottom, right: nextSeat(bottom, 1), top: nextSeat(bottom, 2), left: nextSeat(bottom, 3) };
}

/** Whether the frame shown is this seat's turn, with something to choose. */
export function myTurn(state) {
  const view = state.view;
  return !!(view && mySeat(state) && view.to_act === mySeat(state) && view.choices.length);
}

/** True when this seat has a decision of its own in the hand in play to take back: undo
 * never crosses a hand-over (which reveals the hand's secret) nor the end of the match. */
export function somethingToUndo(state) {
  const me = mySeat(state);
  if (!me || !state.view || state.view.phase === PHASE.over) return false;
  return state.view.actions.some((action) => readAction(action).seat === me);
}

/** The server's deadline for `seat` (a turn, or the wait before a bot plays for them), as of
 *  the frame shown (the pacer may show a turn after the server has moved on). */
export function seatDeadline(state, seat) {
  const deadline = state.deadline;
  return deadline && deadline.seat === seat && deadline.kind !== "next" ? deadline : null;
}

/** True while the page holds a table but its connection is down: nothing can be sent, so
 *  every control that sends is disabled (the status banner says why) rather than silent; and
 *  who is connected is not known meanwhile. */
export function offline(link) {
  return link.status !== "open";
}

/** True for a finished match no server serves any more (reopened later): its page says what
 *  is left of it, and its talk is closed. */
export function finishedElsewhere(state, link) {
  return link.status === "fatal" && link.fatal === "fatal_4404" && !!state.info && state.info.status === "over";
}

/** Whether the table may be talked at: null, "over" (a finished table no longer served) or
 *  "gone" (no table this page may show). */
export function talkClosed(state, link) {
  if (link.status !== "fatal") return null;
  return finishedElsewhere(state, link) ? "over" : "gone";
}

/** Whom the sheet's sentences are worded for: an Arabic seat's page names the teams لنا and
 *  لهم, as Arabic players do; an English page and a spectator name them by their seats. */
export function sheetSeat(state, lang) {
  return mySeat(state) && lang === "ar" ? { seat: mySeat(state) } : {};
}

/** A finished hand's analysis is shown once its cards are: played out, or the match over. */
export function analysable(hand, match) {
  return hand.outcome === "played" || !!match.winner;
}
