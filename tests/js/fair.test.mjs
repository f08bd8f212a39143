// fair.js: the page's own check of a fair deal (seat-view.md §4, "Fair deals") — the spec's
// example derived, a reveal verified, one the server alone chose, one that does not hold —
// and a seat's entropy, sent once a hand and kept once the server took it.

import "./browser.mjs";
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

import {
  EntropyGiver, checkReveal, commitmentOf, derivedDeck, randomEntropy, rememberCommitment, rememberEntropy,
} from "../../src/baloot/server/static/fair.js";

// The spec's example: a secret, South's entropy, its commitment and its deck from the top.
const SECRET = "00112233445566778899aabbccddeeff".repeat(2);
const COMMITMENT = "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef";
const DECK = ("8d Qs 9s 7h Ts Ac Td Jd 8s Jc Qh Kd Qc 7s Ad 8h 8c 9c Ah 9h Kh Tc Jh 7c 7d Qd Kc Js As "
  + "Th Ks 9d").split(" ");

beforeEach(() => localStorage.clear());

/** South's view of the hand dealt from `deck` by North, bidding still on: the first round's
 *  cards (West, South, East and North get three, then two each) and the exposed card. */
function southView(deck, more = {}) {
  return { seat: "S", dealer: "N", taker: null, exposed: deck[20], tricks: [], hand: [...deck.slice(3, 6), ...deck.slice(14, 16)], ...more };
}

test("the spec's example: its commitment and its deck", async () => {
  assert.equal(await commitmentOf(SECRET), COMMITMENT);
  assert.deepEqual(await derivedDeck(SECRET, { S: "9f" }), DECK);
  const alone = await derivedDeck(SECRET, {});
  assert.notDeepEqual(alone, DECK);
  assert.deepEqual([...alone].sort(), [...DECK].sort());
});

test("a seat's entropy is 16 random bytes in lowercase hex", () => {
  const entropy = randomEntropy();
  assert.match(entropy, /^[0-9a-f]{32}$/);
  assert.notEqual(randomEntropy(), entropy);
});

test("a reveal that holds is verified; with no player's entropy the server alone chose it", async () => {
  rememberCommitment("T1", { hand: 1, commitment: COMMITMENT });
  const fair = { hand: 1, commitment: COMMITMENT, secret: SECRET, entropy: { S: "9f" } };
  assert.equal(await checkReveal("T1", fair, southView(DECK), "tok"), "verified");
  const alone = await derivedDeck(SECRET, {});
  assert.equal(await checkReveal("T1", { ...fair, entropy: {} }, southView(alone), "tok"), "alone");
});

test("a reveal that does not hold fails: another commitment, a card not dealt, our bytes left out", async () => {
  rememberCommitment("T1", { hand: 1, commitment: COMMITMENT });
  const fair = { hand: 1, commitment: COMMITMENT, secret: SECRET, entropy: { S: "9f" } };
  assert.equal(await checkReveal("T1", { ...fair, commitment: "00".repeat(32) }, southView(DECK), "tok"), "failed");
  const played = southView(DECK, { tricks: [{ leader: "W", cards: [DECK[3]], winner: null }] });
  assert.equal(await checkReveal("T1", fair, played, "tok"), "failed"); // West played South's card
  assert.equal(await checkReveal("T1", fair, southView(DECK, { hand: [DECK[0]] }), "tok"), "failed");
  rememberEntropy("T1", 1, "aa", "tok");
  assert.equal(await checkReveal("T1", fair, southView(DECK), "tok"), "failed");
  assert.equal(await checkReveal("T1", fair, southView(DECK), "another"), "verified"); // another seat's page
});

test("the first commitment seen is the one kept; none kept, nothing to say", async () => {
  const fair = { hand: 1, commitment: COMMITMENT, secret: SECRET, entropy: { S: "9f" } };
  assert.equal(await checkReveal("T1", fair, southView(DECK), "tok"), null);
  rememberCommitment("T1", { hand: 1, commitment: COMMITMENT });
  rememberCommitment("T1", { hand: 1, commitment: "11".repeat(32) });
  assert.equal(await checkReveal("T1", fair, southView(DECK), "tok"), "verified");
});

/** A connection's state and the entropy messages it was asked to send. */
function connection(match, view = null) {
  const sent = [];
  return {
    sent, match, view,
    control(type, extra) {
      sent.push({ type, ...extra });
      return `e${sent.length}`;
    },
  };
}

test("a seat sends its bytes once for a hand not yet dealt, and keeps them once taken", () => {
  const link = connection({ fair: { hand: 1, commitment: COMMITMENT } });
  const giver = new EntropyGiver("T1", "tok", link);
  giver.heard("snapshot", {});
  giver.heard("deal", {});
  assert.equal(link.sent.length, 1);
  const [{ type, hand, entropy }] = link.sent;
  assert.deepEqual([type, hand], ["entropy", 1]);
  assert.equal(giver.entropyFor(1), entropy); // `next` carries the same bytes
  giver.heard("ack", { id: "e9" }); // another message's answer
  assert.equal(localStorage.getItem("baloot-fair").includes(entropy), false);
  giver.heard("ack", { id: "e1" });
  assert.equal(JSON.parse(localStorage.getItem("baloot-fair")).T1.mine["1:tok"], entropy);
  giver.heard("snapshot", {});
  assert.equal(link.sent.length, 1); // answered: never again
});

test("no bytes from a spectator, nor for a hand already dealt; again after a reconnection", () => {
  const fair = { hand: 2, commitment: COMMITMENT };
  const watching = connection({ fair });
  new EntropyGiver("T1", null, watching).heard("snapshot", {});
  assert.equal(watching.sent.length, 0);
  const playing = connection({ fair }, { phase: "playing" });
  new EntropyGiver("T1", "tok", playing).heard("deal", {});
  assert.equal(playing.sent.length, 0);
  const over = connection({ fair }, { phase: "over" });
  const giver = new EntropyGiver("T1", "tok", over);
  giver.heard("hand-over", {});
  giver.heard("snapshot", {}); // a new connection: what was in flight is lost
  assert.equal(over.sent.length, 2);
  assert.equal(over.sent[0].entropy, over.sent[1].entropy);
});
