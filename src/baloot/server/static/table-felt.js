// The felt of the table's page: the four seats around it (names, presence, badges, the
// countdowns, the bubbles of talk, the last call) and the cards in its centre (the trick in
// play, the exposed card, the last trick when asked for). `tv` is the page's TableView.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { cardElement } from "./cards.js";
import { PHASE, isBot, nextSeat, readAction, trickWords } from "./protocol.js";
import { actionLabel, playerLabel, projectsText } from "./words.js";
import { isHumanSeat, mySeat, offline, positions, seatDeadline } from "./table-state.js";

/** The element of `seat` on the felt. */
export function seatBox(state, seat) {
  const found = Object.entries(positions(state)).find(([, s]) => s === seat);
  return found ? $("seat-" + found[0]) : null;
}

/** The last call `seat` made in the bidding or the doubling under way, in words, or null. */
function lastCall(view, seat) {
  const part = view.phase === PHASE.doubling || (view.doubling.length && view.phase !== PHASE.playing) ? view.doubling : view.bidding;
  if (view.phase === PHASE.playing || view.phase === PHASE.over) return null;
  for (let i = part.length - 1; i >= 0; i -= 1) {
    const call = readAction(part[i]);
    if (call.seat === seat) return actionLabel(call, { ...view, question: null });
  }
  return null;
}

export function renderSeats(tv) {
  const { state, link } = tv;
  const view = state.view;
  for (const [where, seat] of Object.entries(positions(state))) {
    const box = $("seat-" + where);
    box.className = `seat seat-${where}`;
    box.dir = document.documentElement.dir;
    if (view.to_act === seat) box.classList.add("to-act");
    const deadline = seatDeadline(state, seat);
    const info = (state.seats && state.seats[seat]) || { player: "", connected: true };
    const human = isHumanSeat(state, seat);
    const badges = [];
    if (view.dealer === seat) badges.push(el("span", { class: "badge dealer" }, t("dealer_badge")));
    if (view.contract && view.contract.declarer === seat) badges.push(el("span", { class: "badge buyer" }, t("declarer_badge")));
    // While our own connection is down, nobody's presence is known: no dot shows the last one.
    const presence = offline(link) ? "unknown" : info.connected ? "on" : "off";
    const name = el("div", { class: "seat-name" },
      el("span", { class: "dot " + presence, title: presence === "unknown" ? t("presence_unknown") : presence === "on" ? t("connected") : "" }),
      el("span", {}, tv.seatName(seat)),
      where === "top" && mySeat(state) ? el("span", { class: "sub" }, ` · ${t("partner")}`) : null);
    const lines = [name];
    if (!human && isBot(info.player)) {
      lines.push(el("div", { class: "sub" }, playerLabel(info.player)));
      if (!info.connected && presence !== "unknown") lines.push(el("div", { class: "note" }, t("bot_failing")));
    }
    if (human && isBot(info.player)) {
      lines.push(el("div", { class: "note" }, t("bot_standin", { name: tv.humanName(seat) })));
    } else if (human && !info.connected && presence !== "unknown") {
      lines.push(el("div", { class: "note" }, t("away")));
    }
    if (badges.length) lines.push(el("div", { class: "badges" }, badges));
    if (deadline) lines.push(tv.deadlineRing(deadline));
    const said = tv.talk ? tv.talk.recentLine(seat) : null;
    if (said) lines.push(el("div", { class: "bubble", "data-bubble": seat }, el("bdi", {}, said)));
    const meta = [];
    if (view.held && seat !== mySeat(state)) meta.push(t(view.held[seat] === 1 ? "cards_left_1" : "cards_left", { n: view.held[seat] }));
    const declared = view.declared && view.declared[seat];
    if (declared && declared.length) meta.push(t("declared", { p: projectsText(declared) }));
    if (meta.length) lines.push(el("div", { class: "sub" }, meta.join(" · ")));
    const call = lastCall(view, seat);
    if (call) lines.push(el("div", { class: "call" }, call));
    box.replaceChildren(...lines);
  }
}

function trickCard(card, word, where, winner) {
  const node = el("div", { class: `played at-${where}${winner ? " winner" : ""}` }, cardElement(card));
  if (word) node.append(el("span", { class: "word" }, trickWords(word).map((w) => t("w_" + w)).join(" · ")));
  return node;
}

export function renderCenter(tv) {
  const view = tv.state.view;
  const where = Object.fromEntries(Object.entries(positions(tv.state)).map(([k, v]) => [v, k]));
  const center = $("center");
  const items = [];
  const done = view.tricks.filter((tr) => tr.winner !== null);
  const trick = view.tricks[view.tricks.length - 1] || null;
  renderLastTrick(tv, done, where);
  if (trick && trick.cards.length) {
    let seat = trick.leader;
    trick.cards.forEach((card, i) => {
      items.push(trickCard(card, trick.words[i], where[seat], trick.winner === seat && trick.cards.length === 4));
      seat = nextSeat(seat);
    });
  } else if (view.exposed && (!view.tricks.length)) {
    const exposed = el("div", { class: "exposed" },
      el("div", { class: "label" }, t("exposed")), cardElement(view.exposed));
    if (view.taker) exposed.append(el("div", { class: "label" }, t("took", { seat: tv.seatName(view.taker) })));
    items.push(exposed);
  }
  center.replaceChildren(...items);
}

/** The last finished trick, when asked for, in a small view of its own in the felt's corner:
 *  its caption above its cards, and the trick in play left where it is. */
function renderLastTrick(tv, done, where) {
  const box = $("last-trick");
  if (!box) return;
  const showLast = tv.state.showLast;
  const last = done[done.length - 1];
  box.hidden = !showLast;
  if (!showLast) {
    box.replaceChildren();
    return;
  }
  if (!last) {
    box.replaceChildren(el("div", { class: "last-caption" }, t("no_last_trick")));
    return;
  }
  const cards = [];
  let seat = last.leader;
  last.cards.forEach((card, i) => {
    cards.push(trickCard(card, last.words[i], where[seat], last.winner === seat));
    seat = nextSeat(seat);
  });
  box.replaceChildren(
    el("div", { class: "last-caption" }, t("last_trick_to", { n: done.length, seat: tv.seatName(last.winner), p: last.points })),
    el("div", { class: "last-cards" }, cards));
}

/** Marks the card that led the trick on the felt (the first drawn: a trick is drawn from its
 *  leader on). */
export function markLeader() {
  const first = document.querySelector("#center .played");
  if (!first || first.classList.contains("leads")) return;
  first.classList.add("leads");
  first.append(el("span", { class: "lead-mark" }, t("leads")));
}
