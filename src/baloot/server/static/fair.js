// Fair deals (docs/table-protocol.md, "Fair deals"), checked by the page itself.
//
// Before the players speak the server publishes each hand's commitment, the SHA-256 of a
// secret; the page keeps the first one it sees for each hand (this browser's storage, so that
// the answer to POST /api/tables, or to a rematch, counts for the table's page). Entropy always
// comes after the commitment it is mixed with: a seat's page sends 16 random bytes of its own
// as soon as it sees the commitment of a hand not yet dealt (the first hand waits for them; a
// later one is committed to at the hand-over before it), in an `entropy` message, and again
// with `next` (EntropyGiver). At the hand's hand-over the server reveals the secret: the page
// checks that its SHA-256 is the commitment it kept, that its own entropy is in (once the
// server took it), and that the deck derived from them (SubtleCrypto SHA-256, the derivation
// of the spec) gives every seat the cards it was seen to hold and play; a deal that holds no
// player's entropy at all is one the server alone chose, and the sheet says so.

import { PHASE, SEATS, nextSeat } from "./protocol.js";

const SUITS = ["s", "h", "d", "c"];
const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7"];
const KEPT = "baloot-fair"; // localStorage: table id → { seen: { hand: commitment }, mine: { "hand:seat link": entropy } }
const KEPT_TABLES = 50;

/** 16 random bytes as lowercase hex: a seat's entropy for a deal. */
export function randomEntropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function bytesOf(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function joined(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** The lowercase hex SHA-256 of the secret `hex`. */
export async function commitmentOf(hex) {
  return hexOf(await sha256(bytesOf(hex)));
}

/** The deck, from the top, that `secret` and the seats' `entropy` (hex text each) give. */
export async function derivedDeck(secret, entropy) {
  const parts = [bytesOf(secret)];
  for (const seat of SEATS) { // N, W, S, E: the order of the spec
    if (entropy[seat]) parts.push(new TextEncoder().encode(seat), bytesOf(entropy[seat]));
  }
  const seed = await sha256(joined(parts));
  const words = [];
  let block = 0;
  async function nextWord() {
    if (!words.length) {
      const counter = new Uint8Array(4);
      new DataView(counter.buffer).setUint32(0, block++);
      const digest = await sha256(joined([seed, counter]));
      const data = new DataView(digest.buffer);
      for (let k = 0; k < 8; k++) words.push(data.getUint32(4 * k));
    }
    return words.shift();
  }
  const cards = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
  for (let i = 31; i >= 1; i--) {
    const bound = 2 ** 32 - (2 ** 32 % (i + 1));
    let word = await nextWord();
    while (word >= bound) word = await nextWord();
    const j = word % (i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

function kept() {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || "{}") || {};
  } catch (err) {
    return {};
  }
}

function keep(all) {
  const ids = Object.keys(all);
  for (const id of ids.slice(0, Math.max(0, ids.length - KEPT_TABLES))) delete all[id];
  try {
    localStorage.setItem(KEPT, JSON.stringify(all));
  } catch (err) {
    // storage full or refused: the check then has no commitment kept, and says nothing
  }
}

/** Keep `fair`'s commitment for its hand, the first one seen (a MATCH's or POST's `fair`). */
export function rememberCommitment(tableId, fair) {
  if (!fair || !fair.commitment || !fair.hand) return;
  const all = kept();
  const table = all[tableId] || { seen: {}, mine: {} };
  if (!table.seen[fair.hand]) {
    table.seen[fair.hand] = fair.commitment;
    delete all[tableId];
    all[tableId] = table;
    keep(all);
  }
}

/** The key of a seat's own entropy for `hand`: two seats' pages in one browser keep theirs apart. */
function mineKey(hand, token) {
  return `${hand}:${String(token || "").slice(0, 8)}`;
}

/** Keep the entropy the server took from the seat of `token` for hand `hand`. */
export function rememberEntropy(tableId, hand, entropy, token) {
  const all = kept();
  const table = all[tableId] || { seen: {}, mine: {} };
  const key = mineKey(hand, token);
  if (!table.mine[key]) table.mine[key] = entropy;
  delete all[tableId];
  all[tableId] = table;
  keep(all);
}

/** A seat's part in the fair deals: its 16 bytes for each hand whose commitment it sees before
 *  that hand is dealt, sent at once in an `entropy` message (once a hand, again after a
 *  reconnection if no answer came), kept once the server took them (its `ack`). */
export class EntropyGiver {
  constructor(tableId, token, connection) {
    this.tableId = tableId;
    this.token = token; // null for a spectator, who gives none
    this.connection = connection; // the connection's own state, not the frame shown
    this.drawn = {}; // hand → the bytes drawn for it (sent again with `next`)
    this.asked = {}; // id of an `entropy` sent → its hand, until it is answered
    this.answered = {}; // hand → true once the server took or refused ours
  }

  /** This page's bytes for hand `hand`, drawn once. */
  entropyFor(hand) {
    if (!this.drawn[hand]) this.drawn[hand] = randomEntropy();
    return this.drawn[hand];
  }

  /** A message the connection heard (before the page shows it). */
  heard(kind, message) {
    if (!this.token || !message) return;
    if (kind === "ack" || kind === "reject") {
      this.answer(kind, message);
      return;
    }
    if (kind === "snapshot") this.asked = {}; // a new connection: what was in flight is lost
    if (kind !== "snapshot" && kind !== "deal" && kind !== "hand-over") return;
    const { match, view } = this.connection;
    const fair = match && match.fair;
    if (!fair || (view && view.phase !== PHASE.over)) return; // that hand is dealt
    if (this.answered[fair.hand] || Object.values(this.asked).includes(fair.hand)) return;
    rememberCommitment(this.tableId, fair); // the commitment first: our bytes come after it
    const id = this.connection.control("entropy", { hand: fair.hand, entropy: this.entropyFor(fair.hand) });
    if (id) this.asked[id] = fair.hand;
  }

  answer(kind, message) {
    const hand = this.asked[message.id];
    if (hand === undefined) return;
    delete this.asked[message.id];
    this.answered[hand] = true;
    if (kind === "ack") rememberEntropy(this.tableId, hand, this.drawn[hand], this.token);
  }
}

/** The cards each seat was dealt from `deck`, with `dealer` dealing and `taker` taking the
 *  exposed card (docs/records.md, "The deal"); only the first 21 cards without a taker. */
function dealt(deck, dealer, taker) {
  const order = [];
  for (let seat = nextSeat(dealer); order.length < 4; seat = nextSeat(seat)) order.push(seat);
  const hands = Object.fromEntries(order.map((seat) => [seat, []]));
  order.forEach((seat, k) => hands[seat].push(...deck.slice(3 * k, 3 * k + 3), ...deck.slice(12 + 2 * k, 14 + 2 * k)));
  if (!taker) return hands;
  hands[taker].push(deck[20]);
  let at = 21;
  for (const seat of order) {
    const count = seat === taker ? 2 : 3;
    hands[seat].push(...deck.slice(at, at + count));
    at += count;
  }
  return hands;
}

/** Whether the reveal `fair` of a hand-over holds, as this page (of the seat of `token`) can
 *  tell from what it saw: "verified", "alone" (it holds, but no player's entropy went into the
 *  deck: the server alone chose it), "failed", or null when the page kept no commitment for
 *  that hand (it came later). */
export async function checkReveal(tableId, fair, view, token) {
  const table = kept()[tableId];
  const seen = table && table.seen[fair.hand];
  if (!seen || !fair.secret) return null;
  const entropy = fair.entropy || {};
  if (!(await reveals(table, seen, fair, entropy, view, token))) return "failed";
  return Object.keys(entropy).length ? "verified" : "alone";
}

/** Whether the reveal holds: the commitment seen, this seat's entropy in, every card seen. */
async function reveals(table, seen, fair, entropy, view, token) {
  if (seen !== fair.commitment || (await commitmentOf(fair.secret)) !== seen) return false;
  const mine = (table.mine || {})[mineKey(fair.hand, token)];
  if (mine && view.seat && entropy[view.seat] !== mine) return false;
  const deck = await derivedDeck(fair.secret, entropy);
  if (deck[20] !== view.exposed) return false;
  const hands = dealt(deck, view.dealer, view.taker);
  for (const trick of view.tricks || []) {
    let seat = trick.leader;
    for (const card of trick.cards) {
      if (!hands[seat].includes(card)) return false;
      seat = nextSeat(seat);
    }
  }
  if (view.seat && !(view.hand || []).every((card) => hands[view.seat].includes(card))) return false;
  return true;
}
