// The pages' pure logic, outside a browser (`node --test tests/js/`): the turn that comes, the
// talk a snapshot brings and its bubbles, the numbers of right-to-left text.
// tests/test_pages_logic.py runs it.

import { test } from "node:test";
import assert from "node:assert/strict";

import { seatsTurn, turnComes } from "../../src/baloot/server/static/protocol.js";
import { TalkPanel, snapshotTalk } from "../../src/baloot/server/static/talk.js";
import { isolateNumbers, leftToRight } from "../../src/baloot/server/static/bidi.js";

const PLAY = { verb: "play", card: "As", action: "S play As", words: [] };
const southToAct = { seat: "S", to_act: "S", choices: [PLAY] };
const westToAct = { seat: "S", to_act: "W", choices: [] };

test("the turn comes once, when the seat's turn is shown after another's", () => {
  assert.equal(turnComes(westToAct, southToAct), true);
  assert.equal(turnComes(null, southToAct), true); // the first frame shown: a reload mid-turn
  assert.equal(turnComes(southToAct, southToAct), false); // the same turn, drawn again
  assert.equal(turnComes(southToAct, westToAct), false);
  assert.equal(turnComes(westToAct, westToAct), false);
});

test("a spectator and a seat with nothing to choose have no turn", () => {
  assert.equal(seatsTurn({ seat: null, to_act: "S", choices: [PLAY] }), false);
  assert.equal(seatsTurn({ seat: "S", to_act: "S", choices: [] }), false);
  assert.equal(seatsTurn(null), false);
});

test("the lines a snapshot brings are old; the page's own heard lines keep their state", () => {
  const heard = [{ v: 7, seat: "N", text: "يا هلا", old: false, heardAt: 123 }];
  const talk = [{ v: 3, seat: "S", text: "hi" }, { v: 7, seat: "N", text: "يا هلا" }];
  const lines = snapshotTalk(talk, heard);
  assert.equal(lines[0].old, true);
  assert.equal(lines[1], heard[0]);
  assert.deepEqual(snapshotTalk(undefined, heard), []);
  // Another line under a number heard before (a table brought back differently) is old news.
  assert.equal(snapshotTalk([{ v: 7, seat: "E", text: "other" }], heard)[0].old, true);
});

test("an old line is no bubble; a line said since the page connected is, for a while", () => {
  const talk = [{ v: 4, seat: "N", text: "old", old: true }, { v: 6, seat: "E", text: "new", old: false }];
  const panel = { muted: new Set(), conn: { talk } };
  const recentLine = (seat) => TalkPanel.prototype.recentLine.call(panel, seat);
  assert.equal(recentLine("N"), null);
  assert.equal(recentLine("E"), "new");
  talk[1].heardAt = Date.now() - 60000; // heard a minute ago: gone from its seat
  assert.equal(recentLine("E"), null);
  panel.muted.add("E");
  talk[1].heardAt = Date.now();
  assert.equal(recentLine("E"), null);
});

test("a signed number is isolated left to right, a range and a plain number are not", () => {
  const LRI = "\u2066";
  const PDI = "\u2069";
  assert.equal(isolateNumbers("+1 فوز و−1 خسارة"), `${LRI}+1${PDI} فوز و${LRI}−1${PDI} خسارة`);
  assert.equal(isolateNumbers("بس ≈-5.1"), `بس ${LRI}≈-5.1${PDI}`);
  assert.equal(isolateNumbers("اللائحة 4-1، 12 نقطة"), "اللائحة 4-1، 12 نقطة");
  assert.equal(isolateNumbers(isolateNumbers("−3")), `${LRI}−3${PDI}`); // once only
});

test("a date is isolated left to right whole, and its hyphens are not taken for signs", () => {
  const LRI = "\u2066";
  const PDI = "\u2069";
  const date = leftToRight("2026-12-04");
  assert.equal(date, `${LRI}2026-12-04${PDI}`);
  assert.equal(isolateNumbers(`أمس، ${date}`), `أمس، ${date}`);
});
