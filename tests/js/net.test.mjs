// net.js: the table's connection — numbered messages in order, a gap resynced, the clock,
// reconnection with a growing pause, the fatal closes and the move to another server.

import { FakeSocket, ORIGIN, assigned, fakeFetch, settle } from "./browser.mjs";
import { test, mock, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";

import { TableConnection } from "../../src/baloot/server/static/net.js";

const VIEW = (n) => ({ seat: "S", to_act: "W", choices: [], n });

/** A connection to table T1 for the seat of `token`, opened, and what it told the page. */
function opened(token = "tok") {
  const heard = [];
  const link = new TableConnection("T1", token, (kind, message) => heard.push([kind, message]));
  link.connect();
  const socket = FakeSocket.last();
  socket.open();
  return { link, socket, heard };
}

function kinds(heard) {
  return heard.map(([kind]) => kind);
}

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  globalThis.fetch = fakeFetch(200).fetch;
});

afterEach(() => {
  mock.timers.reset();
});

test("the socket goes to the table's address with the seat's token", () => {
  const { socket, link } = opened("a b");
  assert.equal(socket.url, "ws://one.test/ws/tables/T1?token=a%20b");
  assert.equal(link.status, "open");
  assert.equal(new TableConnection("T1", null, () => {}).url(), "ws://one.test/ws/tables/T1");
});

test("numbered messages are applied in order; one already had is ignored", () => {
  const { link, socket, heard } = opened();
  socket.hear({ type: "snapshot", v: 3, view: VIEW(3), match: { hand: 1 }, seats: { N: { player: "bot:x", connected: true } } });
  socket.hear({ type: "event", v: 4, action: "W pass", view: VIEW(4) });
  socket.hear({ type: "event", v: 4, action: "W pass", view: VIEW(40) });
  socket.hear({ type: "seat", v: 5, seat: "N", player: "bot:x", connected: false });
  assert.equal(link.v, 5);
  assert.equal(link.view.n, 4);
  assert.equal(link.seats.N.connected, false);
  assert.deepEqual(kinds(heard), ["status", "snapshot", "event", "seat"]);
});

test("a gap is dropped and asked for once; what fills it is applied", () => {
  const { link, socket } = opened();
  socket.hear({ type: "snapshot", v: 3, view: VIEW(3), match: null, seats: {} });
  socket.hear({ type: "event", v: 5, view: VIEW(5) });
  socket.hear({ type: "event", v: 6, view: VIEW(6) });
  assert.equal(link.v, 3);
  assert.deepEqual(socket.sent, [{ type: "resync", since: 3 }]);
  socket.hear({ type: "event", v: 4, view: VIEW(4) });
  assert.equal(link.v, 4);
  assert.equal(link.view.n, 4);
});

test("an older snapshot is ignored; a newer one replaces all, its talk old news", () => {
  const { link, socket } = opened();
  socket.hear({ type: "snapshot", v: 8, view: VIEW(8), match: null, seats: {}, talk: [] });
  socket.hear({ type: "said", v: 9, seat: "N", text: "hi" });
  assert.deepEqual(link.talk.map((line) => [line.text, line.old]), [["hi", false]]);
  socket.hear({ type: "snapshot", v: 7, view: VIEW(7), match: null, seats: {} });
  assert.equal(link.view.n, 8);
  socket.hear({ type: "snapshot", v: 12, view: VIEW(12), match: null, seats: {},
    talk: [{ v: 9, seat: "N", text: "hi" }, { v: 11, seat: "E", text: "yo" }], deadline: { kind: "turn", seat: "S", at: 5 } });
  assert.equal(link.view.n, 12);
  assert.deepEqual(link.talk.map((line) => [line.text, line.old]), [["hi", false], ["yo", true]]);
  assert.deepEqual(link.deadline, { kind: "turn", seat: "S", at: 5 });
});

test("a hand-over keeps its sheet and its claim under the hand's number", () => {
  const { link, socket } = opened();
  socket.hear({ type: "snapshot", v: 1, view: VIEW(1), match: { hands: [] }, seats: {} });
  const sheet = [{ key: "written", params: { NS: 10, EW: 6 } }];
  const claimed = { seat: "S", cards: ["As"] };
  socket.hear({ type: "hand-over", v: 2, view: VIEW(2), match: { hands: [{}] }, sheet, claimed, deadline: null });
  assert.deepEqual(link.sheets[1], sheet);
  assert.deepEqual(link.claimed[1], claimed);
  assert.equal(link.deadline, null);
});

test("the server's clock is its now at the last snapshot or pong", () => {
  const { link, socket } = opened();
  socket.hear({ type: "pong", now: Date.now() + 60000 });
  assert.ok(Math.abs(link.serverNow() - Date.now() - 60000) < 1000);
});

test("answers and types the page may not know go to the page; an unknown numbered one counts", () => {
  const { link, socket, heard } = opened();
  socket.hear({ type: "ack", id: "a1" });
  socket.hear({ type: "gossip", id: "g1" });
  socket.hear({ type: "rumour", v: 1, text: "?" });
  socket.hear("not json");
  socket.hear("null");
  assert.deepEqual(kinds(heard), ["status", "ack", "gossip", "rumour"]);
  assert.equal(link.v, 1);
});

test("a decision is sent with an id of its seat; none while the socket is closed", () => {
  const link = new TableConnection("T1", "tok", () => {});
  assert.equal(link.act("S pass"), null);
  link.connect();
  const socket = FakeSocket.last();
  socket.open();
  socket.hear({ type: "snapshot", v: 1, view: VIEW(1), match: null, seats: {} });
  const id = link.act("S pass");
  assert.match(id, /^aS-/);
  assert.deepEqual(socket.sent.at(-1), { type: "act", id, action: "S pass" });
  const next = link.control("next", { entropy: "ab" });
  assert.deepEqual(socket.sent.at(-1), { type: "next", id: next, entropy: "ab" });
  assert.notEqual(next, id);
});

test("the socket is pinged while open", () => {
  const { socket } = opened();
  mock.timers.tick(20000);
  assert.deepEqual(socket.sent, [{ type: "ping" }]);
});

test("a drop retries after a growing pause and resyncs since its last number", async () => {
  const { link, socket } = opened();
  socket.hear({ type: "snapshot", v: 4, view: VIEW(4), match: null, seats: {} });
  socket.close(1006);
  await settle(); // the table's description is asked first
  assert.equal(link.status, "retrying");
  assert.equal(link.storageAway, false);
  assert.equal(link.retryIn, 1);
  mock.timers.tick(500);
  const again = FakeSocket.last();
  assert.notEqual(again, socket);
  again.close(1006); // never opened: refused, or the server away
  await settle();
  mock.timers.tick(999);
  assert.equal(FakeSocket.last(), again);
  mock.timers.tick(1);
  const third = FakeSocket.last();
  assert.notEqual(third, again);
  third.open();
  assert.equal(link.status, "open");
  assert.deepEqual(third.sent, [{ type: "resync", since: 4 }]);
});

test("a drop while the server's database is away says so until a snapshot", async () => {
  globalThis.fetch = fakeFetch(503).fetch;
  const { link, socket } = opened();
  socket.close(1006);
  await settle();
  assert.equal(link.storageAway, true);
  mock.timers.tick(500);
  const again = FakeSocket.last();
  again.open();
  again.hear({ type: "snapshot", v: 1, view: VIEW(1), match: null, seats: {} });
  assert.equal(link.storageAway, false);
});

test("a table or seat the server does not know closes for good", () => {
  const { link, socket, heard } = opened();
  socket.close(4404);
  assert.equal(link.status, "fatal");
  assert.equal(link.fatal, "fatal_4404");
  assert.equal(kinds(heard).at(-1), "status");
  mock.timers.tick(60000);
  assert.equal(FakeSocket.last(), socket);
});

test("a seat's handshake refused three times is a token the table does not know", async () => {
  const link = new TableConnection("T1", "tok", () => {});
  link.connect();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    FakeSocket.last().close(1006);
    await settle();
    mock.timers.tick(30000);
  }
  assert.equal(link.status, "fatal");
  assert.equal(link.fatal, "fatal_4403");
});

test("a table served elsewhere moves the page there, its path, query and home kept", () => {
  const { link, socket } = opened();
  socket.close(4307, "https://two.test:8443/");
  assert.equal(link.status, "moving");
  assert.equal(assigned.at(-1), `https://two.test:8443/t/T1?token=tok#home=${encodeURIComponent(ORIGIN)}`);
});

test("a move to this very server is a plain retry", async () => {
  const before = assigned.length;
  const { link, socket } = opened();
  socket.close(4307, ORIGIN);
  await settle();
  assert.equal(assigned.length, before);
  assert.equal(link.status, "retrying");
});
