// table-controller.js: the table's messages turned into the page's state, one handler per
// message type, the decisions sent, and the turn told each time it comes to the seat.

import { fakeFetch, settle } from "./browser.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import { HANDLERS, TableController } from "../../src/baloot/server/static/table-controller.js";
import { Pacer } from "../../src/baloot/server/static/motion.js";
import { BUBBLE_MS } from "../../src/baloot/server/static/talk.js";

const PLAY = { verb: "play", card: "As", action: "S play As", words: [] };

/** South's view with `toAct` to act (South has a card to play when it is its turn). */
function view(toAct, more = {}) {
  return {
    seat: "S", to_act: toAct, choices: toAct === "S" ? [PLAY] : [], phase: "playing", dealer: "N",
    actions: [], tricks: [], result: null, ...more,
  };
}

/**
 * A controller of table T1 for South's page (`token` null: a spectator's), with a connection
 * that holds what the test says it heard, a pacer that shows each frame at once (a hidden
 * tab), and a page that counts what is asked of it.
 */
function table({ token = "tok", open = true, fetched = fakeFetch(200, {}) } = {}) {
  const sent = [];
  const counts = { card: 0, yourTurn: 0, lastSeconds: 0, handWon: 0, renders: 0, scrolls: 0 };
  const notes = [];
  const later = [];
  const remembered = [];
  const stopped = [];
  const link = {
    status: open ? "open" : "retrying", sheets: {}, claimed: {}, view: null, match: null, seats: null,
    act: (action) => (link.status === "open" ? (sent.push({ type: "act", action }), `a${sent.length}`) : null),
    control: (type, extra) => (link.status === "open" ? (sent.push({ type, ...extra }), `c${sent.length}`) : null),
    stop: (reason) => stopped.push(reason),
  };
  const sounds = Object.fromEntries(["card", "yourTurn", "lastSeconds", "handWon"].map((name) => [name, () => { counts[name] += 1; }]));
  const ctl = new TableController({
    tableId: "T1", token, lang: "en", link,
    giver: { heard() {}, entropyFor: (hand) => `bytes-of-${hand}` },
    page: {
      sounds,
      rememberSeat: (...args) => remembered.push(args),
      moving: (kind, dealer, draw) => draw(),
      scrollTop: () => { counts.scrolls += 1; },
      fetch: fetched.fetch,
      later: (fn, ms) => later.push([fn, ms]),
      log: { info: (note) => notes.push(note) },
    },
  });
  ctl.render = () => { counts.renders += 1; };
  ctl.pacer = new Pacer((kind, message, previous) => ctl.shown(kind, message, previous), () => null);
  let v = 0;
  /** The connection hears `message` (numbered unless it says otherwise), as net.js applies it. */
  const hear = (message, numbered = true) => {
    if (numbered) {
      v += 1;
      message = { v, ...message };
      if (message.view) link.view = message.view;
      if (message.match) link.match = message.match;
      if (message.seats) link.seats = message.seats;
    }
    ctl.heard(message.type, message);
  };
  return { ctl, link, sent, counts, notes, later, remembered, stopped, hear, asked: fetched.asked };
}

test("one handler for each message type of baloot-table/1", () => {
  assert.deepEqual(Object.keys(HANDLERS).sort(),
    ["ack", "deal", "event", "hand-over", "hint", "pong", "reject", "said", "seat", "snapshot"]);
});

test("a message of a type the page does not know is ignored, with a note", () => {
  const { ctl, hear, notes, counts } = table();
  hear({ type: "snapshot", view: view("W"), match: { hand: 1, hands: [] }, seats: {} });
  const state = JSON.stringify(ctl.state);
  const renders = counts.renders;
  hear({ type: "gossip", id: "g1" }, false);
  hear({ type: "rumour", view: view("W") });
  assert.equal(notes.length, 2);
  assert.match(notes[0], /gossip/);
  assert.equal(counts.renders, renders);
  assert.equal(JSON.stringify({ ...ctl.state }), state);
});

test("the turn is told, sound and buzz, each time it comes to the seat", () => {
  const { hear, counts } = table();
  hear({ type: "snapshot", view: view("W"), match: { hand: 1, hands: [] }, seats: {} });
  assert.equal(counts.yourTurn, 0);
  hear({ type: "event", action: "W play Kd", view: view("S") });
  assert.equal(counts.yourTurn, 1);
  hear({ type: "seat", seat: "N", player: "bot:x", connected: false }); // the same turn drawn again
  assert.equal(counts.yourTurn, 1);
  hear({ type: "event", action: "S play As", view: view("E") });
  hear({ type: "event", action: "E play 7s", view: view("N") });
  hear({ type: "event", action: "N play 8s", view: view("W") });
  assert.equal(counts.yourTurn, 1);
  hear({ type: "event", action: "W play 9s", view: view("S") });
  assert.equal(counts.yourTurn, 2);
  hear({ type: "event", action: "S play As", view: view("E") });
  hear({ type: "deal", view: view("S", { phase: "bidding-1" }), match: { hand: 2, hands: [{}] } });
  assert.equal(counts.yourTurn, 3);
  assert.equal(counts.card, 6);
});

test("a reload in the middle of the seat's turn tells it; a spectator is never told", () => {
  const seat = table();
  seat.hear({ type: "snapshot", view: view("S"), match: { hand: 1, hands: [] }, seats: {} });
  assert.equal(seat.counts.yourTurn, 1);
  const spectator = table({ token: null });
  spectator.hear({ type: "snapshot", view: view("S", { seat: null }), match: { hand: 1, hands: [] }, seats: {} });
  spectator.hear({ type: "event", action: "W play 9s", view: view("S", { seat: null }) });
  assert.equal(spectator.counts.yourTurn, 0);
});

test("a snapshot of a seat remembers it; a hand our team won sounds; a deal goes to the top", () => {
  const { hear, counts, remembered } = table();
  hear({ type: "snapshot", view: view("W"), match: { hand: 1, hands: [] }, seats: {} });
  assert.deepEqual(remembered, [["T1", "tok", "S"]]);
  const won = view(null, { phase: "over", result: { score: { NS: 16, EW: 0 } } });
  hear({ type: "hand-over", view: won, match: { hand: 1, hands: [{}] }, sheet: [] });
  assert.equal(counts.handWon, 1);
  const lost = view(null, { phase: "over", result: { score: { NS: 0, EW: 26 } } });
  hear({ type: "hand-over", view: lost, match: { hand: 2, hands: [{}, {}] }, sheet: [] });
  assert.equal(counts.handWon, 1);
  hear({ type: "deal", view: view("W", { phase: "bidding-1" }), match: { hand: 3, hands: [{}, {}] } });
  assert.equal(counts.scrolls, 1);
});

test("a decision is sent once until its answer; our event clears the line", () => {
  const { ctl, hear, sent } = table();
  hear({ type: "snapshot", view: view("S"), match: { hand: 1, hands: [] }, seats: {} });
  ctl.send("S play As");
  ctl.send("S play As");
  assert.deepEqual(sent, [{ type: "act", action: "S play As" }]);
  assert.equal(ctl.state.pending, true);
  hear({ type: "ack", id: "a1" }, false);
  assert.equal(ctl.state.pending, true);
  hear({ type: "event", action: "S play As", view: view("E") });
  assert.equal(ctl.state.pending, false);
  assert.equal(ctl.state.notice, null);
});

test("a decision the socket cannot carry says so, and nothing waits for it", () => {
  const { ctl, hear, sent } = table({ open: false });
  hear({ type: "snapshot", view: view("S"), match: { hand: 1, hands: [] }, seats: {} });
  ctl.send("S play As");
  assert.deepEqual(sent, []);
  assert.equal(ctl.state.pending, false);
  assert.deepEqual(ctl.state.notice, { kind: "not_sent" });
});

test("a reject frees the seat and says why; a time out says what was decided for us", () => {
  const { ctl, hear } = table();
  hear({ type: "snapshot", view: view("S"), match: { hand: 1, hands: [] }, seats: {} });
  ctl.send("S play As");
  const reject = { type: "reject", id: "a1", code: "must_follow", params: { suit: "spades" } };
  hear(reject, false);
  assert.equal(ctl.state.pending, false);
  assert.deepEqual(ctl.state.notice, { kind: "rejected", message: reject });
  const after = view("E");
  hear({ type: "event", action: "S play As", view: after, timeout: true });
  assert.deepEqual(ctl.state.notice, { kind: "timed_out", action: "S play As", view: after });
});

test("a tap on a card that may not be played says the engine's reason", () => {
  const { ctl, hear } = table();
  const refused = { code: "must_follow", params: { suit: "hearts" } };
  hear({ type: "snapshot", view: view("S", { refused: { Kd: refused } }), match: { hand: 1, hands: [] }, seats: {} });
  ctl.explainRefused("As");
  assert.equal(ctl.state.notice, null);
  ctl.explainRefused("Kd");
  assert.deepEqual(ctl.state.notice, { kind: "refused", refused });
});

test("a deal starts afresh: no line, no last trick, nothing pending; its deadline is taken", () => {
  const { ctl, hear } = table();
  hear({ type: "snapshot", view: view("W"), match: { hand: 1, hands: [] }, seats: {} });
  ctl.toggleLast();
  ctl.state.notice = { kind: "not_sent" };
  const deadline = { kind: "turn", seat: "W", at: 5 };
  hear({ type: "deal", view: view("W"), match: { hand: 2, hands: [{}] }, deadline });
  assert.equal(ctl.state.showLast, false);
  assert.equal(ctl.state.notice, null);
  assert.deepEqual(ctl.state.deadline, deadline);
  hear({ type: "seat", seat: "N", player: "bot:x", connected: true, deadline: null });
  assert.equal(ctl.state.deadline, null);
});

test("next carries the seat's bytes for the next deal; undo and claim wait for their answer", () => {
  const { ctl, hear, sent } = table();
  const match = { hand: 1, hands: [{}], fair: { hand: 2, commitment: "c" }, awaiting_next: ["S"] };
  hear({ type: "hand-over", view: view(null, { phase: "over" }), match, sheet: [] });
  ctl.sendControl("next");
  assert.deepEqual(sent.at(-1), { type: "next", entropy: "bytes-of-2" });
  assert.equal(ctl.state.nextSentFor, 1);
  ctl.sendControl("undo");
  assert.equal(ctl.state.pending, true);
  ctl.sendControl("claim");
  assert.equal(sent.at(-1).type, "undo");
  ctl.sendControl("hint");
  assert.equal(sent.at(-1).type, "hint");
});

test("a hint shows its choice at once, then the server's reasons for it", async () => {
  const words = fakeFetch(200, { hint: ["one", "two"] });
  const { ctl, hear, asked } = table({ fetched: words });
  hear({ type: "snapshot", view: view("S"), match: { hand: 1, hands: [] }, seats: {} });
  hear({ type: "hint", id: "h1", action: "S play As", why: [{ key: "k", params: {} }] }, false);
  assert.equal(ctl.state.notice.kind, "hint");
  assert.equal(ctl.state.notice.worded, null);
  await settle();
  assert.equal(ctl.state.notice.worded, "one · two");
  assert.equal(asked.at(-1).url, "/api/words");
  assert.deepEqual(JSON.parse(asked.at(-1).options.body), { lang: "en", sheet: [], hint: [{ key: "k", params: {} }] });
});

test("a finished hand's sheet is worded once, from its hand-over's lines", async () => {
  const words = fakeFetch(200, { sheet: ["worded"] });
  const { ctl, link, hear, asked } = table({ fetched: words });
  const sheet = [{ key: "written", params: { NS: 10, EW: 6 } }];
  link.sheets[1] = sheet;
  hear({ type: "hand-over", view: view(null, { phase: "over" }), match: { hand: 1, hands: [{}] }, sheet });
  hear({ type: "seat", seat: "N", player: "bot:x", connected: true });
  await settle();
  assert.equal(asked.filter((request) => request.url === "/api/words").length, 1);
  assert.deepEqual(ctl.state.worded[1], ["worded"]);
  assert.deepEqual(ctl.state.lines[1], sheet);
});

test("a line said is drawn, and drawn again when its bubble goes", () => {
  const { hear, later } = table();
  hear({ type: "said", seat: "N", text: "hi" });
  assert.equal(later.length, 1);
  assert.equal(later[0][1], BUBBLE_MS + 50);
});

test("the last five seconds of our turn sound once each", () => {
  const { ctl, hear, counts } = table();
  hear({ type: "snapshot", view: view("S"), match: { hand: 1, hands: [] }, seats: {}, deadline: { kind: "turn", seat: "S", at: 10000 } });
  for (let now = 3000; now <= 11000; now += 250) ctl.tick(now); // the page's clock, four times a second
  assert.equal(counts.lastSeconds, 5); // 5, 4, 3, 2, 1
  hear({ type: "event", action: "S play As", view: view("W"), deadline: { kind: "turn", seat: "W", at: 20000 } });
  ctl.tick(16000);
  assert.equal(counts.lastSeconds, 5); // another seat's time
});

test("a table the server does not know, or cannot bring back, is not connected to", async () => {
  const gone = table({ fetched: fakeFetch(404) });
  assert.equal(await gone.ctl.load(), false);
  assert.deepEqual(gone.stopped, ["fatal_4404"]);
  const broken = table({ fetched: fakeFetch(200, { status: "unrestorable" }) });
  assert.equal(await broken.ctl.load(), false);
  assert.deepEqual(broken.stopped, ["fatal_4500"]);
  const known = table({ fetched: fakeFetch(200, { status: "playing", humans: ["S"] }) });
  assert.equal(await known.ctl.load(), true);
  assert.deepEqual(known.ctl.state.info.humans, ["S"]);
  assert.deepEqual(known.remembered, [["T1", "tok"]]);
});
