// The table's movement: what the connection heard, shown at a pace the eye follows.
//
// The connection applies every message at once (net.js); the page draws from the frames of a
// queue instead. Each numbered message becomes a frame (the view, match and seats after it),
// played in the order heard, none skipped: a bot's card is held on the felt at least CARD_MS
// before the next one shows, a finished trick stays TRICK_MS for reading and then slides to
// its winner, a deal brings the cards in from the dealer. A snapshot supersedes what is
// queued (it holds all of it: a reconnect, an undo) and shows at once. The pace is the page's
// alone: the server sends as fast as the table plays.
//
// With prefers-reduced-motion nothing moves and nothing waits: every frame shows as it comes.
// A page in a hidden tab catches up at once too (its timers are slowed by the browser).

import { $ } from "./dom.js";
import { readAction } from "./protocol.js";

/** The least time a card of another seat stays the newest on the felt, in ms. */
export const CARD_MS = 650;
/** How long another seat's call stays the newest before the next, in ms. */
export const CALL_MS = 450;
/** How long a finished trick stays for reading, in ms. */
export const TRICK_MS = 1100;
/** How long a new deal is given to arrive, in ms. */
export const DEAL_MS = 500;
const SLIDE_MS = 380;
const TRAVEL_MS = 320;

const reducedQuery = globalThis.matchMedia ? globalThis.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether the reader asked for no animation. */
export function reducedMotion() {
  return !!(reducedQuery && reducedQuery.matches);
}

function still() {
  return reducedMotion() || document.hidden;
}

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The trick a view shows last, and whether that trick is finished. */
function lastTrick(view) {
  const tricks = (view && view.tricks) || [];
  return tricks[tricks.length - 1] || null;
}

/** Whether two tricks of two views are the same trick (the same leader and first card). */
function sameTrick(a, b) {
  return !!(a && b && a.leader === b.leader && a.cards[0] === b.cards[0]);
}

function finishedTrick(view) {
  const trick = lastTrick(view);
  return trick && trick.winner !== null && trick.winner !== undefined && trick.cards.length === 4 ? trick : null;
}

/**
 * The frames of a table, played in order at a pace. `link` is the TableConnection; `show` is
 * called with (kind, message, before) once a frame is the one shown, `before` the frame shown
 * until then (its view, match and seats: what changed is between the two); `seatBox(seat)` is
 * the element of a seat on the felt, for cards to travel from and tricks to slide to.
 */
export class Pacer {
  constructor(show, seatBox) {
    this.show = show;
    this.seatBox = seatBox;
    this.frames = [];
    this.playing = false;
    this.shown = { view: null, match: null, seats: null };
    this.lastShownAt = 0;
    this.lastKind = null;
    this.mySeat = null;
    this.generation = 0;
  }

  /** Queues the state `link` holds after a message of `kind`. */
  push(kind, message, link) {
    const frame = {
      kind, message,
      view: link.view, match: link.match, seats: link.seats ? { ...link.seats } : null,
    };
    if (kind === "snapshot") {
      this.frames = [];
      this.generation += 1;
      this.apply(frame);
      return;
    }
    this.frames.push(frame);
    if (!this.playing) this.play();
  }

  /** Whether frames are still waiting to be shown. */
  get busy() {
    return this.playing || this.frames.length > 0;
  }

  async play() {
    this.playing = true;
    try {
      while (this.frames.length) {
        const frame = this.frames[0];
        const generation = this.generation;
        const before = this.holdBefore(frame);
        const since = Date.now() - this.lastShownAt;
        if (!still() && before > since) await wait(before - since);
        // A snapshot came meanwhile: it is shown, and what was queued before it is gone;
        // go on with what is queued now.
        if (generation !== this.generation) continue;
        const done = finishedTrick(this.shown.view);
        if (!still() && done && frame.view && !sameTrick(done, lastTrick(frame.view))) {
          await this.slideTrick(done);
          if (generation !== this.generation) continue;
        }
        this.frames.shift();
        this.apply(frame);
      }
    } finally {
      this.playing = false;
    }
  }

  /** How long the frame shown now must stay before `frame` replaces it, in ms. */
  holdBefore(frame) {
    const shown = this.shown.view;
    if (!shown || frame.view === shown) return 0; // a seat's news: nothing on the felt moves
    const action = frame.kind === "event" && frame.message && frame.message.action
      ? readAction(frame.message.action) : null;
    const mine = !!action && action.seat === this.mySeat;
    let hold = 0;
    if (action && !mine) hold = action.verb === "play" ? CARD_MS : CALL_MS;
    if (this.lastKind === "deal") hold = Math.max(hold, DEAL_MS);
    const done = finishedTrick(shown);
    if (done && !mine && (frame.kind === "hand-over" || !sameTrick(done, lastTrick(frame.view)))) {
      hold = Math.max(hold, TRICK_MS);
    }
    return hold;
  }

  apply(frame) {
    const before = this.shown;
    const moved = frame.view !== before.view;
    this.shown = { view: frame.view, match: frame.match, seats: frame.seats };
    if (frame.view) this.mySeat = frame.view.seat;
    this.show(frame.kind, frame.message, before);
    if (moved) { // the pace counts from when the frame is drawn
      this.lastKind = frame.kind;
      this.lastShownAt = Date.now();
    }
  }

  /** The finished trick's cards move to the seat that won it, and fade. */
  async slideTrick(trick) {
    const target = this.seatBox(trick.winner);
    const cards = [...document.querySelectorAll("#center .played")];
    if (!target || !cards.length) return;
    const to = target.getBoundingClientRect();
    const moves = cards.map((card) => {
      const from = card.getBoundingClientRect();
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      return card.animate(
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0 }],
        { duration: SLIDE_MS, easing: "ease-in", fill: "forwards" });
    });
    await Promise.all(moves.map((move) => move.finished.catch(() => null)));
  }
}

/**
 * After a render: moves what is new. `before` is what the felt and the hand showed (from
 * `feltState`), `kind` the frame just shown, `dealer` the seat that dealt.
 */
export function animate(before, kind, seatBox, dealer) {
  const center = $("center");
  if (!center || reducedMotion()) return;
  const hand = [...document.querySelectorAll("#hand .hand-card")];
  if (kind === "deal") {
    const from = (dealer && seatBox(dealer)) || center;
    hand.forEach((card, i) => fly(card, from, i));
    return;
  }
  // Cards new to a hand that had some (the rest of the deal, after the bidding) come from
  // the felt.
  if (before.has("hand:any")) {
    hand.filter((card) => !before.has("hand:" + card.getAttribute("aria-label")))
      .forEach((card, i) => fly(card, center, i));
  }
  for (const node of center.querySelectorAll(".played")) {
    if (before.has(cardKey(node))) continue;
    const where = [...node.classList].find((c) => c.startsWith("at-"));
    const box = where ? $("seat-" + where.slice(3)) : null;
    if (box) travel(node, box);
  }
}

function cardKey(node) {
  const card = node.querySelector(".card");
  const where = [...node.classList].find((c) => c.startsWith("at-")) || "";
  return `${where}:${card ? card.getAttribute("aria-label") : ""}`;
}

/** The cards on the felt now, to know after a render which are new. */
export function feltState() {
  const center = $("center");
  const keys = center ? [...center.querySelectorAll(".played")].map(cardKey) : [];
  const hand = [...document.querySelectorAll("#hand .hand-card")].map((card) => "hand:" + card.getAttribute("aria-label"));
  if (hand.length) hand.push("hand:any");
  return new Set([...keys, ...hand]);
}

function travel(node, box) {
  const from = box.getBoundingClientRect();
  const to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  node.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
    { duration: TRAVEL_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** A card of the hand comes from `from` (an element), the `i`-th of those that come. */
function fly(card, from, i) {
  if (!from) return;
  const origin = from.getBoundingClientRect();
  const to = card.getBoundingClientRect();
  const dx = origin.left + origin.width / 2 - (to.left + to.width / 2);
  const dy = origin.top + origin.height / 2 - (to.top + to.height / 2);
  card.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0 }, { transform: "none", opacity: 1 }],
    { duration: 300, delay: i * 45, easing: "ease-out", fill: "backwards" });
}

