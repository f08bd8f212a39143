// motion.js: the pacer — every frame shown in the order heard, none skipped, a bot's card held
// before the next, a snapshot shown at once in place of what was queued.

import "./browser.mjs";
import { test, mock, afterEach } from "node:test";
import assert from "node:assert/strict";

import { CALL_MS, CARD_MS, DEAL_MS, Pacer, TRICK_MS } from "../../src/baloot/server/static/motion.js";

const view = (n, more = {}) => ({ seat: "S", n, tricks: [], ...more });

/** A pacer, the frames it showed ([kind, its view's n, the view's n shown before]). */
function pacer() {
  const shown = [];
  const made = new Pacer((kind, message, before) => shown.push([kind, made.shown.view && made.shown.view.n, before.view && before.view.n]), () => null);
  return { made, shown };
}

/** The state of a connection after a message: what the pacer copies into a frame. */
const link = (v, seats = null) => ({ view: v, match: { hand: 1 }, seats });

afterEach(() => {
  mock.timers.reset();
  document.hidden = true;
});

test("in a hidden tab every frame is shown as it comes, in order, each after the one before", () => {
  const { made, shown } = pacer();
  made.push("snapshot", { v: 1 }, link(view(1)));
  made.push("event", { v: 2, action: "W play As" }, link(view(2)));
  made.push("event", { v: 3, action: "N play Ks" }, link(view(3)));
  assert.deepEqual(shown, [["snapshot", 1, null], ["event", 2, 1], ["event", 3, 2]]);
  assert.equal(made.busy, false);
  assert.equal(made.mySeat, "S");
});

test("a frame keeps its own copy of the seats", () => {
  const { made } = pacer();
  const seats = { N: { player: "bot:x", connected: true } };
  made.push("seat", { v: 1 }, link(view(1), seats));
  seats.N = { player: "bot:x", connected: false };
  assert.equal(made.shown.seats.N.connected, true);
});

test("how long a frame waits: another seat's card, its call, a deal, a finished trick", () => {
  const { made } = pacer();
  made.push("snapshot", { v: 1 }, link(view(1)));
  const frame = (kind, action, v = view(2)) => ({ kind, message: { action }, view: v });
  assert.equal(made.holdBefore(frame("event", "W play As")), CARD_MS);
  assert.equal(made.holdBefore(frame("event", "W pass")), CALL_MS);
  assert.equal(made.holdBefore(frame("event", "S play As")), 0); // our own: at once
  assert.equal(made.holdBefore({ kind: "seat", message: {}, view: made.shown.view }), 0); // nothing moves
  made.lastKind = "deal";
  assert.equal(made.holdBefore(frame("event", "S pass")), DEAL_MS);
  made.lastKind = "event";
  made.shown = { view: view(3, { tricks: [{ leader: "W", cards: ["As", "Ks", "Qs", "Js"], winner: "W" }] }) };
  const next = view(4, { tricks: [{ leader: "W", cards: ["As", "Ks", "Qs", "Js"], winner: "W" }, { leader: "W", cards: ["7h"], winner: null }] });
  assert.equal(made.holdBefore(frame("event", "W play 7h", next)), TRICK_MS);
  assert.equal(made.holdBefore({ kind: "hand-over", message: {}, view: view(5) }), TRICK_MS);
});

test("in view, a bot's card is held before the next; a snapshot replaces what is queued", async () => {
  document.hidden = false;
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 });
  const { made, shown } = pacer();
  made.push("snapshot", { v: 1 }, link(view(1)));
  made.push("event", { v: 2, action: "W play As" }, link(view(2)));
  made.push("event", { v: 3, action: "N play Ks" }, link(view(3)));
  assert.deepEqual(shown.map(([kind, n]) => n), [1]);
  mock.timers.tick(CARD_MS - 1);
  await Promise.resolve();
  assert.deepEqual(shown.map(([kind, n]) => n), [1]);
  mock.timers.tick(1);
  await Promise.resolve();
  assert.deepEqual(shown.map(([kind, n]) => n), [1, 2]);
  made.push("snapshot", { v: 9 }, link(view(9)));
  assert.deepEqual(shown.map(([kind, n]) => n), [1, 2, 9]);
  mock.timers.tick(CARD_MS);
  await Promise.resolve();
  assert.deepEqual(shown.map(([kind, n]) => n), [1, 2, 9]); // frame 3 went with the snapshot
});
