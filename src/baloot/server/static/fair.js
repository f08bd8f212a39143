// Fair deals (seat-view.md §4, "Fair deals"), checked by the page itself.
//
// Before the players speak the server publishes each hand's commitment, the SHA-256 of a
// secret; the page keeps the first one it sees for each hand (this browser's storage, so that
// the lobby's answer to POST /api/tables counts for the table's page) and adds 16 random bytes
// of its own with `next` and with the table's creation. At the hand's hand-over the server
// reveals the secret: the page checks that its SHA-256 is the commitment it kept, that its own
// entropy is in, and that the deck derived from them (SubtleCrypto SHA-256, the derivation of
// the spec) gives every seat the cards it was seen to hold and play.

import { SEATS, nextSeat } from "./protocol.js";

const SUITS = ["s", "h", "d", "c"];
const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7"];
const KEPT = "baloot-fair"; // localStorage: table id → { hand: commitment, mine: { hand: entropy } }
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

/** Keep the entropy this page gave for hand `hand`. */
export function rememberEntropy(tableId, hand, entropy) {
  const all = kept();
  const table = all[tableId] || { seen: {}, mine: {} };
  if (!table.mine[hand]) table.mine[hand] = entropy;
  delete all[tableId];
  all[tableId] = table;
  keep(all);
}

/** The cards each seat was dealt from `deck`, with `dealer` dealing and `taker` taking the
 *  exposed card (record-format.md, "The deal"); only the first 21 cards without a taker. */
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

/** Whether the reveal `fair` of a hand-over holds, as this page can tell from what it saw:
 *  true, false, or null when the page kept no commitment for that hand (it came later). */
export async function checkReveal(tableId, fair, view) {
  const table = kept()[tableId];
  const seen = table && table.seen[fair.hand];
  if (!seen || !fair.secret) return null;
  if (seen !== fair.commitment || (await commitmentOf(fair.secret)) !== seen) return false;
  const mine = table.mine[fair.hand];
  if (mine && view.seat && (fair.entropy || {})[view.seat] !== mine) return false;
  const deck = await derivedDeck(fair.secret, fair.entropy || {});
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
