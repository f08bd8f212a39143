// protocol.js: the server's words as the pages read them (seats, teams, action notation, bots).

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  LISTED_SEATS, PHASE, SEATS, TEAM, botBase, botName, botPlayer, isBot, isLeading, nextSeat,
  otherTeam, projectKind, readAction, trickWords,
} from "../../src/baloot/server/static/protocol.js";

test("the seats go round in the order of play, each in its team", () => {
  assert.deepEqual(SEATS, ["N", "W", "S", "E"]);
  assert.deepEqual(LISTED_SEATS, ["N", "E", "S", "W"]);
  assert.equal(nextSeat("N"), "W");
  assert.equal(nextSeat("E"), "N");
  assert.equal(nextSeat("S", 2), "N");
  assert.equal(nextSeat("W", 3), "N");
  assert.equal(TEAM.N, TEAM.S);
  assert.equal(otherTeam(TEAM.S), TEAM.E);
  assert.equal(otherTeam("EW"), "NS");
  assert.equal(PHASE.over, "over");
  assert.ok(Object.isFrozen(PHASE));
});

test("an action is read into its seat, verb, card, words and arguments", () => {
  assert.deepEqual(readAction("S play Jd ekka"), {
    action: "S play Jd ekka", seat: "S", verb: "play", card: "Jd", words: ["ekka"], args: [],
  });
  assert.deepEqual(readAction("W double locked"), {
    action: "W double locked", seat: "W", verb: "double", card: null, words: [], args: ["locked"],
  });
  const spaced = readAction("  N   pass ");
  assert.equal(spaced.seat, "N");
  assert.equal(spaced.verb, "pass");
  assert.deepEqual(spaced.args, []);
});

test("a trick's words and a project's kind are cut from their text", () => {
  assert.deepEqual(trickWords("ekka baloot"), ["ekka", "baloot"]);
  assert.deepEqual(trickWords(null), []);
  assert.deepEqual(trickWords(""), []);
  assert.equal(projectKind("sira:AhKhQh"), "sira");
  assert.equal(projectKind("hundred"), "hundred");
});

test("the seat to play leads with no trick, a finished one, or an empty one", () => {
  assert.equal(isLeading({ tricks: [] }), true);
  assert.equal(isLeading({ tricks: [{ cards: ["As", "Ks", "Qs", "Js"], winner: "N" }] }), true);
  assert.equal(isLeading({ tricks: [{ cards: [], winner: null }] }), true);
  assert.equal(isLeading({ tricks: [{ cards: ["As"], winner: null }] }), false);
});

test("a bot is a player written bot:NAME, its options after a colon", () => {
  assert.equal(botPlayer("expert"), "bot:expert");
  assert.equal(botName("bot:expert:fast"), "expert:fast");
  assert.equal(botBase("expert:fast"), "expert");
  assert.equal(botName("Sara"), null);
  assert.equal(botName(null), null);
  assert.equal(isBot("bot:heuristic"), true);
  assert.equal(isBot("S"), false);
});
