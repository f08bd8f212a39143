// The table page: draws what one seat (or a spectator) sees and sends its decisions.
//
// Testing contract (seat-view.md §4): every visible, enabled element that sends a decision
// carries data-action = the action exactly as in view.legal (or "next"); nothing else does.
// Decisions are drawn from view.choices, the legal actions already read (seat-view.md §2).
// Every render rebuilds the decision controls from the current view, so none goes stale.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang, LANG } from "./i18n.js";
import { cardElement, cardText, sortHand, suitOf } from "./cards.js";
import { PHASE, TEAM, isBot, isLeading, nextSeat, otherTeam, readAction, trickWords, turnComes } from "./protocol.js";
import { actionLabel, playerLabel, questionText, contractText, shortContract, projectsText, reasonText } from "./words.js";
import { TableConnection } from "./net.js";
import { Pacer, animate, feltState, markLeader } from "./motion.js";
import { sounds, soundSwitch } from "./sound.js";
import { remember as rememberSeat } from "./mytables.js";
import { IN_TABLE, sheetFigures } from "./sheet.js";
import { finishedNotice, resultActions } from "./result.js";
import { followDock } from "./dock.js";
import { EntropyGiver, checkReveal, rememberCommitment } from "./fair.js";
import { countdown, secondsLeft, tickCountdowns } from "./timer.js";
import { BUBBLE_MS, TalkPanel } from "./talk.js";
import { isolateNumbers } from "./bidi.js";

const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = params.get("token");

const ui = {
  info: null, // GET /api/tables/ID
  pending: false, // a decision sent, its answer not yet in
  showLast: false,
  message: "", // a short line: a reject, a hint
  nextSentFor: null, // the hand whose "next" we sent
  talk: null, // the TalkPanel, once the page knows the table
  deadline: null, // the server's deadline as of the frame shown: {kind, seat, at} or null
  worded: {}, // hand number → worded sheet lines
  lines: {}, // hand number → its sheet lines, keyed (from the hand-over or the sheet endpoint)
  result: null, // the end of the match's buttons, made once
  notice: null, // what a finished match no longer served says, made once
  fairChecked: {}, // hand number → "verified" / "alone" / "failed": what this page found of its deal's reveal
  wording: {},
};

// The connection hears every message at once; the page shows them through the pacer, at a
// pace the eye follows (motion.js): `conn` is the connection, with the view, match and seats
// of the frame shown.
const link = new TableConnection(tableId, token, heard);
const pacer = new Pacer(shown, seatBox);
// A seat's bytes for each deal go as soon as its commitment is heard, not when it is shown.
const giver = new EntropyGiver(tableId, token, link);
const conn = new Proxy(link, {
  get(target, name) {
    if (name === "view" || name === "match" || name === "seats") return pacer.shown[name];
    const value = Reflect.get(target, name);
    return typeof value === "function" ? value.bind(target) : value;
  },
});

function heard(kind, message) {
  giver.heard(kind, message);
  if (message && typeof message.v === "number") pacer.push(kind, message, link);
  else onChange(kind, message);
}

/** A frame of the pacer is shown: drawn, then moved, heard and scrolled to. `previous` is the
 *  frame shown before it: the turn that comes is told once, when it is shown. */
function shown(kind, message, previous) {
  const before = feltState();
  onChange(kind, message);
  animate(before, kind, seatBox, conn.view ? conn.view.dealer : null);
  if (kind === "event" && message.action && readAction(message.action).verb === "play") sounds.card();
  if (turnComes(previous.view, conn.view)) sounds.yourTurn();
  if (kind === "hand-over" && mySeat() && conn.view.result) {
    const { us, them } = usThem();
    if (conn.view.result.score[us] > conn.view.result.score[them]) sounds.handWon();
  }
  if (kind === "snapshot" && token && mySeat()) rememberSeat(tableId, token, mySeat());
  // A new hand starts at the top: the score, the contract and the felt in view.
  if (kind === "deal") window.scrollTo({ top: 0 });
}

function seatBox(seat) {
  const found = Object.entries(positions()).find(([, s]) => s === seat);
  return found ? $("seat-" + found[0]) : null;
}

function mySeat() {
  return conn.view ? conn.view.seat : null;
}

function humanName(seat) {
  const players = ui.info && ui.info.players;
  const name = players && players[seat];
  // An unnamed person is known by the seat's letter: show the seat's name instead.
  return name && name !== seat && !isBot(name) ? name : t("seat_" + seat);
}

function isHumanSeat(seat) {
  return !!(ui.info && Array.isArray(ui.info.humans) && ui.info.humans.includes(seat));
}

function seatName(seat) {
  if (seat === mySeat()) return t("you");
  const info = conn.seats && conn.seats[seat];
  const player = info ? info.player : null;
  if (!player || isBot(player) || player === seat) {
    return isHumanSeat(seat) ? humanName(seat) : t("seat_" + seat);
  }
  return player;
}

function usThem() {
  const me = mySeat() || "S";
  const us = TEAM[me];
  return { us, them: otherTeam(us) };
}

/** A team as this page names it: "Us" and "Them" on a seat's page, its seats' names
 *  ("North-South") for a spectator, who belongs to neither. */
function teamLabel(team) {
  const me = mySeat();
  if (!me) return t("team_" + team);
  return TEAM[me] === team ? t("us") : t("them");
}

/** "Us 12 · Them 30" (a spectator: "North-South 12 · East-West 30"), for a score by team. */
function scorePair(score) {
  const { us, them } = usThem();
  return t("score_pair", { a: teamLabel(us), x: score[us], b: teamLabel(them), y: score[them] });
}

/** True while the page holds a table but its connection is down: nothing can be sent, so
 *  every control that sends is disabled (the status banner says why) rather than silent; and
 *  who is connected is not known meanwhile. */
function offline() {
  return conn.status !== "open";
}

/** True for a finished match no server serves any more (reopened later): its page says what
 *  is left of it, and its talk is closed. */
function finishedElsewhere() {
  return conn.status === "fatal" && conn.fatal === "fatal_4404" && !!ui.info && ui.info.status === "over";
}

/** Whether the table may be talked at: null, "over" (a finished table no longer served) or
 *  "gone" (no table this page may show). */
function talkClosed() {
  if (conn.status !== "fatal") return null;
  return finishedElsewhere() ? "over" : "gone";
}

/** Why the engine refuses a reject's action, in the page's words (its own text when the
 *  reject names no parameters: a fault of the message, not a rule of the game). */
function rejectReason(message) {
  if (!message.params) return message.reason || message.code;
  return reasonText(message.code, message.params, seatName, mySeat());
}

/** A tap on a card the rules do not let this seat play now: the engine's reason for it,
 *  sent with the view (view.refused), in the page's words. */
function explainRefused(card) {
  const refused = conn.view && conn.view.refused && conn.view.refused[card];
  if (!refused) return;
  const reason = reasonText(refused.code, refused.params, seatName, mySeat());
  ui.message = reason.charAt(0).toUpperCase() + reason.slice(1);
  render();
}

/** True when this seat has a decision of its own in the hand in play to take back: undo
 * never crosses a hand-over (which reveals the hand's secret) nor the end of the match. */
function somethingToUndo() {
  const me = mySeat();
  if (!me || !conn.view || conn.view.phase === PHASE.over) return false;
  return conn.view.actions.some((action) => readAction(action).seat === me);
}

// ------------------------------------------------------------------ events

function onChange(kind, message) {
  if (kind === "ack") return;
  if (kind === "reject") {
    ui.pending = false;
    const reason = rejectReason(message);
    ui.message = message.code === "claim_not_proven"
      ? t("claim_refused", { reason }) : t("rejected", { reason });
    render();
    return;
  }
  if (kind === "hint") {
    ui.pending = false;
    showHint(message);
    return;
  }
  const withMatch = kind === "snapshot" || kind === "deal" || kind === "hand-over";
  if (withMatch && conn.match && conn.match.fair) rememberCommitment(tableId, conn.match.fair);
  if (kind === "hand-over" && message.fair) checkDeal(message.fair, message.view);
  if (kind === "snapshot" || kind === "event" || kind === "deal" || kind === "hand-over") {
    ui.pending = false;
    const mine = kind === "event" && message.action && readAction(message.action).seat === mySeat();
    if (mine || kind === "deal") ui.message = "";
    if (mine && message.timeout) ui.message = timedOutLine(message.action);
    if (kind === "deal") ui.showLast = false;
  }
  if (message && "deadline" in message) ui.deadline = message.deadline;
  if (kind === "said") setTimeout(render, BUBBLE_MS + 50); // its bubble goes
  render();
}

function send(action) {
  if (ui.pending) return;
  const id = conn.act(action);
  if (!id) {
    notSent();
    return;
  }
  ui.pending = true;
  ui.message = "";
  render();
}

/** A click the socket could not carry (it closed just now): said, never silently dropped;
 *  the banner and the disabled controls follow as the connection reports it. */
function notSent() {
  ui.message = t("not_sent");
  render();
}

/** Check the revealed deal of a hand (fair.js), then show what was found on its sheet. */
async function checkDeal(fair, view) {
  let found;
  try {
    found = await checkReveal(tableId, fair, view, token);
  } catch (err) {
    return; // no SubtleCrypto (a page served over plain http elsewhere than localhost)
  }
  if (found === null) return;
  ui.fairChecked[fair.hand] = found;
  render();
}

function sendControl(type) {
  if (type !== "hint" && ui.pending) return;
  const extra = {};
  const fair = conn.match && conn.match.fair;
  if (type === "next" && fair) extra.entropy = giver.entropyFor(fair.hand); // the bytes sent already
  const id = conn.control(type, extra);
  if (!id) {
    notSent();
    return;
  }
  if (type === "next") ui.nextSentFor = conn.match ? conn.match.hand : null;
  if (type === "undo" || type === "claim") ui.pending = true;
  ui.message = "";
  render();
}

/** Whom the sheet's sentences are worded for: an Arabic seat's page names the teams لنا and
 *  لهم, as Arabic players do; an English page and a spectator name them by their seats. */
function sheetSeat() {
  return mySeat() && LANG === "ar" ? { seat: mySeat() } : {};
}

/** "Time's up — K♠ was played for you": a bot decided for us when our time ran out. */
function timedOutLine(action) {
  const read = readAction(action);
  const label = actionLabel(read, conn.view);
  return read.verb === "play" ? t("timed_out_play", { card: label }) : t("timed_out_call", { call: label });
}

/** The server's deadline for `seat` (a turn, or the wait before a bot plays for them), as of
 *  the frame shown (the pacer may show a turn after the server has moved on). */
function seatDeadline(seat) {
  const deadline = ui.deadline;
  return deadline && deadline.seat === seat && deadline.kind !== "next" ? deadline : null;
}

function deadlineRing(deadline) {
  const totalMs = deadline.kind === "turn" && ui.info && ui.info.timer ? ui.info.timer * 1000 : null;
  const key = deadline.kind === "turn" ? "ring_turn" : "ring_stand_in";
  return countdown(deadline, conn.serverNow(), { ring: true, totalMs, label: (s) => t(key, { s }) });
}

/** A sentence the server worded, as the page shows it: in Arabic, its signed numbers keep
 *  their sign before them (bidi.js), as the page's own sentences do. */
function serverWords(text) {
  return LANG === "ar" ? isolateNumbers(text) : text;
}

async function words(body) {
  const response = await fetch("/api/words", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ lang: LANG, ...sheetSeat(), ...body }),
  });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

async function showHint(message) {
  const choice = message.action ? actionLabel(readAction(message.action), conn.view) : "";
  ui.message = t("hint_line", { choice });
  render();
  if (!message.why || !message.why.length) return;
  try {
    const worded = await words({ sheet: [], hint: message.why });
    ui.message = t("hint_line", { choice }) + " — " + serverWords((worded.hint || []).join(" · "));
  } catch (err) {
    ui.message = t("hint_line", { choice }) + " — " + message.why.map((w) => w.key).join(" · ");
  }
  render();
}

/** The worded score sheet of a finished hand: from its hand-over's lines, or, when the page
 *  came after the hand-over (a reload, a reconnect), asked of the table itself. */
function wordSheet(handNumber) {
  if (ui.wording[handNumber]) return;
  ui.wording[handNumber] = true;
  const sheet = conn.sheets[handNumber];
  const answer = sheet
    ? words({ sheet, hint: [] })
    : fetch(`/api/tables/${encodeURIComponent(tableId)}/sheet?hand=${handNumber}&lang=${LANG}${sheetSeat().seat ? "&seat=" + sheetSeat().seat : ""}`)
        .then((response) => { if (!response.ok) throw new Error(String(response.status)); return response.json(); });
  answer
    .then((worded) => {
      ui.worded[handNumber] = worded.sheet || [];
      ui.lines[handNumber] = sheet || worded.lines || [];
    })
    .catch(() => { ui.worded[handNumber] = (sheet || []).map((line) => `${line.key}: ${JSON.stringify(line.params)}`); })
    .finally(render);
}

// ------------------------------------------------------------------ drawing

function render() {
  renderStatus();
  const view = conn.view;
  if (!view || conn.status === "fatal") {
    for (const id of ["felt", "prompt", "actions", "hand", "controls", "sheet", "running"]) $(id).hidden = true;
    $("contract").textContent = "";
    $("score").textContent = "";
    if (ui.talk) ui.talk.update();
    return;
  }
  $("felt").hidden = false;
  renderScore();
  renderContract();
  renderSeats();
  renderCenter();
  markLeader();
  renderPrompt();
  renderActions();
  renderHand();
  renderControls();
  renderSheet();
  renderRunning();
  $("message").textContent = ui.message;
  if (ui.talk) ui.talk.update();
}

function renderStatus() {
  const status = $("status");
  status.className = "status";
  if (finishedElsewhere()) {
    // A finished match nobody watches any more: what is left of it, not "no such table";
    // made once (it looks for the rematch until someone makes it).
    ui.notice = ui.notice || finishedNotice(tableId, token, ui.info);
    if (status.firstChild !== ui.notice) status.replaceChildren(ui.notice);
  } else if (conn.status === "fatal") {
    status.textContent = t(conn.fatal);
    status.classList.add("fatal");
  } else if (conn.status === "retrying") {
    status.textContent = t(conn.storageAway ? "storage_away" : "reconnecting", { s: conn.retryIn });
    status.classList.add("warn");
  } else if (!conn.view) {
    status.textContent = t(conn.match ? "deal_waiting" : "connecting"); // the first hand not dealt yet
  } else if (!mySeat()) {
    status.textContent = t("spectating");
  } else {
    status.textContent = "";
  }
  status.hidden = !status.textContent;
}

function renderScore() {
  const { us, them } = usThem();
  const totals = conn.match ? conn.match.totals : { NS: 0, EW: 0 };
  const box = $("score");
  box.replaceChildren(
    el("span", { class: "score-us" }, `${teamLabel(us)} ${totals[us]}`),
    el("span", { class: "score-sep" }, "·"),
    el("span", { class: "score-them" }, `${teamLabel(them)} ${totals[them]}`),
    el("span", { class: "score-hand" }, conn.match ? t("hand_number", { n: conn.match.hand }) : ""),
  );
}

function renderContract() {
  const view = conn.view;
  const { us, them } = usThem();
  const line = [el("strong", {}, contractText(view, seatName))];
  if (view.phase === PHASE.playing || view.phase === PHASE.over) {
    line.push(el("span", { class: "taken" },
      `${teamLabel(us)}: ${t("tricks_taken", { t: view.tricks_won[us], p: view.card_points[us] })}`));
    line.push(el("span", { class: "taken" },
      `${teamLabel(them)}: ${t("tricks_taken", { t: view.tricks_won[them], p: view.card_points[them] })}`));
  }
  $("contract").replaceChildren(...line);
}

function positions() {
  const bottom = mySeat() || "S";
  return { bottom, right: nextSeat(bottom, 1), top: nextSeat(bottom, 2), left: nextSeat(bottom, 3) };
}

function lastCall(view, seat) {
  const part = view.phase === PHASE.doubling || (view.doubling.length && view.phase !== PHASE.playing) ? view.doubling : view.bidding;
  if (view.phase === PHASE.playing || view.phase === PHASE.over) return null;
  for (let i = part.length - 1; i >= 0; i -= 1) {
    const call = readAction(part[i]);
    if (call.seat === seat) return actionLabel(call, { ...view, question: null });
  }
  return null;
}

function renderSeats() {
  const view = conn.view;
  const pos = positions();
  for (const [where, seat] of Object.entries(pos)) {
    const box = $("seat-" + where);
    box.className = `seat seat-${where}`;
    box.dir = document.documentElement.dir;
    if (view.to_act === seat) box.classList.add("to-act");
    const deadline = seatDeadline(seat);
    const info = (conn.seats && conn.seats[seat]) || { player: "", connected: true };
    const badges = [];
    if (view.dealer === seat) badges.push(el("span", { class: "badge dealer" }, t("dealer_badge")));
    if (view.contract && view.contract.declarer === seat) badges.push(el("span", { class: "badge buyer" }, t("declarer_badge")));
    // While our own connection is down, nobody's presence is known: no dot shows the last one.
    const presence = offline() ? "unknown" : info.connected ? "on" : "off";
    const name = el("div", { class: "seat-name" },
      el("span", { class: "dot " + presence, title: presence === "unknown" ? t("presence_unknown") : presence === "on" ? t("connected") : "" }),
      el("span", {}, seatName(seat)),
      where === "top" && mySeat() ? el("span", { class: "sub" }, ` · ${t("partner")}`) : null);
    const lines = [name];
    if (!isHumanSeat(seat) && isBot(info.player)) {
      lines.push(el("div", { class: "sub" }, playerLabel(info.player)));
      if (!info.connected && presence !== "unknown") lines.push(el("div", { class: "note" }, t("bot_failing")));
    }
    if (isHumanSeat(seat) && isBot(info.player)) {
      lines.push(el("div", { class: "note" }, t("bot_standin", { name: humanName(seat) })));
    } else if (isHumanSeat(seat) && !info.connected && presence !== "unknown") {
      lines.push(el("div", { class: "note" }, t("away")));
    }
    if (badges.length) lines.push(el("div", { class: "badges" }, badges));
    if (deadline) lines.push(deadlineRing(deadline));
    const said = ui.talk ? ui.talk.recentLine(seat) : null;
    if (said) lines.push(el("div", { class: "bubble", "data-bubble": seat }, el("bdi", {}, said)));
    const meta = [];
    if (view.held && seat !== mySeat()) meta.push(t(view.held[seat] === 1 ? "cards_left_1" : "cards_left", { n: view.held[seat] }));
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

function renderCenter() {
  const view = conn.view;
  const pos = positions();
  const where = Object.fromEntries(Object.entries(pos).map(([k, v]) => [v, k]));
  const center = $("center");
  const items = [];
  const done = view.tricks.filter((tr) => tr.winner !== null);
  const trick = view.tricks[view.tricks.length - 1] || null;
  renderLastTrick(done, where);
  if (trick && trick.cards.length) {
    let seat = trick.leader;
    trick.cards.forEach((card, i) => {
      items.push(trickCard(card, trick.words[i], where[seat], trick.winner === seat && trick.cards.length === 4));
      seat = nextSeat(seat);
    });
  } else if (view.exposed && (!view.tricks.length)) {
    const exposed = el("div", { class: "exposed" },
      el("div", { class: "label" }, t("exposed")), cardElement(view.exposed));
    if (view.taker) exposed.append(el("div", { class: "label" }, t("took", { seat: seatName(view.taker) })));
    items.push(exposed);
  }
  center.replaceChildren(...items);
}

/** The last finished trick, when asked for, in a small view of its own in the felt's corner:
 *  its caption above its cards, and the trick in play left where it is. */
function renderLastTrick(done, where) {
  const box = $("last-trick");
  if (!box) return;
  const last = done[done.length - 1];
  box.hidden = !ui.showLast;
  if (!ui.showLast) {
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
    el("div", { class: "last-caption" }, t("last_trick_to", { n: done.length, seat: seatName(last.winner), p: last.points })),
    el("div", { class: "last-cards" }, cards));
}

function myTurn() {
  const view = conn.view;
  return !!(view && mySeat() && view.to_act === mySeat() && view.choices.length);
}

function renderPrompt() {
  const view = conn.view;
  const prompt = $("prompt");
  prompt.className = "prompt";
  const parts = [];
  if (view.phase === PHASE.over) {
    prompt.replaceChildren();
    prompt.hidden = true;
    return;
  }
  if (myTurn()) {
    prompt.classList.add("mine");
    parts.push(el("strong", {}, t("your_turn") + " — "), questionText(view, seatName));
    const deadline = seatDeadline(mySeat());
    if (deadline) {
      parts.push(" ", countdown(deadline, conn.serverNow(), { label: (s) => t("time_left", { s }) }));
    }
  } else if (view.to_act) {
    parts.push(t("waiting_for", { seat: seatName(view.to_act) }));
    if (view.question && view.question.kind !== "play" && mySeat() === null) {
      parts.push(el("span", { class: "sub" }, " " + questionText(view, seatName)));
    }
  }
  prompt.replaceChildren(...parts);
  prompt.hidden = parts.length === 0;
}

/** The legal plays of view.choices, by card: the plain play first, any with words (ekka) after. */
function playsByCard(choices) {
  const byCard = {};
  for (const choice of choices) {
    if (choice.verb !== "play") continue;
    (byCard[choice.card] = byCard[choice.card] || []).push(choice);
  }
  for (const list of Object.values(byCard)) list.sort((a, b) => a.words.length - b.words.length);
  return byCard;
}

function actionButton(choice, extraClass = "") {
  return el("button", {
    type: "button", class: "act " + extraClass, "data-action": choice.action, disabled: offline(),
    onclick: () => send(choice.action),
  }, actionLabel(choice, conn.view));
}

function renderActions() {
  const box = $("actions");
  const view = conn.view;
  const buttons = [];
  if (myTurn() && !ui.pending) {
    for (const choice of view.choices) {
      const { verb } = choice;
      if (verb === "play") continue;
      buttons.push(actionButton(choice, verb === "pass" ? "pass" : verb === "declare" ? "declare" : ""));
    }
    for (const list of Object.values(playsByCard(view.choices))) {
      for (const choice of list.slice(1)) buttons.push(actionButton(choice, "variant"));
    }
  }
  box.replaceChildren(...buttons);
  box.hidden = buttons.length === 0;
}

function renderHand() {
  const view = conn.view;
  const box = $("hand");
  if (!mySeat()) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = view.hand.length === 0;
  const trump = view.contract && view.contract.kind === "hokum" ? view.contract.trump : null;
  const plays = myTurn() && !ui.pending ? playsByCard(view.choices) : {};
  const anyPlay = Object.keys(plays).length > 0;
  const cards = sortHand(view.hand, trump).map((card) => {
    const choices = plays[card];
    const attrs = { type: "button", class: "hand-card", "aria-label": cardText(card) };
    if (choices) {
      attrs["data-action"] = choices[0].action;
      attrs.class += " legal";
      attrs.disabled = offline();
      attrs.onclick = () => send(choices[0].action);
    } else if (anyPlay && view.refused && view.refused[card]) {
      // Not playable now, but a tap says why: the engine's reason, not a silent card.
      attrs.class += " illegal";
      attrs["aria-disabled"] = "true";
      attrs.onclick = () => explainRefused(card);
    } else {
      attrs.disabled = true;
      if (anyPlay) attrs.class += " illegal";
    }
    if (trump && suitOf(card) === trump) attrs.class += " trump";
    return el("button", attrs, cardElement(card));
  });
  box.replaceChildren(...cards);
}

function renderControls() {
  const view = conn.view;
  const box = $("controls");
  const controls = [];
  if (view.tricks.some((tr) => tr.winner !== null)) {
    controls.push(el("button", {
      type: "button", class: "ctl", "data-control": "last",
      onclick: () => { ui.showLast = !ui.showLast; render(); },
    }, ui.showLast ? t("hide_last_trick") : t("last_trick")));
  }
  const solo = mySeat() && ui.info && Array.isArray(ui.info.humans) && ui.info.humans.length === 1;
  if (solo && !conn.match?.winner) {
    controls.push(el("button", { type: "button", class: "ctl", "data-control": "undo",
      disabled: ui.pending || offline() || !somethingToUndo(), onclick: () => sendControl("undo") }, t("undo")));
    controls.push(el("button", { type: "button", class: "ctl", "data-control": "hint",
      disabled: !myTurn() || ui.pending || offline(), onclick: () => sendControl("hint") }, t("hint")));
  }
  // Sawa is offered only when the server says the claim would be accepted (view.claim).
  if (myTurn() && view.claim && view.hand.length > 1) {
    controls.push(el("button", { type: "button", class: "ctl claim", "data-control": "claim",
      disabled: ui.pending || offline(), onclick: () => sendControl("claim") }, t("claim")));
  }
  box.replaceChildren(...controls);
  box.hidden = controls.length === 0;
}

function renderSheet() {
  const view = conn.view;
  const match = conn.match;
  const box = $("sheet");
  if (!match || view.phase !== PHASE.over) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const handNumber = match.hand;
  const result = view.result || match.hands[handNumber - 1];
  const { us, them } = usThem();
  const items = [el("h2", {}, t("sheet_title", { number: handNumber }))];
  if (match.winner) items.unshift(el("p", { class: "result-title" }, t("result_title")));
  if (result) {
    items.push(el("p", { class: "result" }, `${shortContract(result)}: ${scorePair(result.score)}`));
  }
  const claimed = conn.claimed && conn.claimed[handNumber];
  if (claimed) items.push(claimedHand(claimed));
  // The last card's event comes just before the hand-over: word the sheet once the match has
  // the hand among its finished ones.
  if (conn.sheets[handNumber] || match.hands.length >= handNumber) wordSheet(handNumber);
  const lines = ui.worded[handNumber];
  const keyed = ui.lines[handNumber] || conn.sheets[handNumber];
  const latest = match.hands.length === handNumber;
  const figures = keyed && sheetFigures(keyed, [us, them], teamLabels(), latest ? match.totals : null);
  if (figures) items.push(el("div", { class: "scroll" }, figures));
  if (lines && lines.length) {
    const said = lines.filter((_, i) => !(figures && keyed[i] && IN_TABLE.has(keyed[i].key)));
    items.push(el("ul", { class: "sheet-lines" }, said.map((line) => el("li", {}, serverWords(line)))));
  }
  if (handNumber in ui.fairChecked) {
    const found = ui.fairChecked[handNumber]; // a deal the server alone chose says so
    items.push(el("p", { class: found === "verified" ? "fair-line" : "fair-line warn", "data-fair": found },
      t({ verified: "deal_verified", alone: "deal_alone", failed: "deal_not_verified" }[found]), " ",
      el("a", { href: withLang("/fair"), target: "_blank", rel: "noopener" }, t("deal_how"))));
  }
  if (result && analysable(result, match)) {
    items.push(el("a", { class: "analysis-link", href: analysisHref(handNumber), target: "_blank", rel: "noopener",
      "data-analysis": handNumber }, t("analysis_of_hand")));
  }
  if (match.winner) {
    const mine = mySeat() ? TEAM[mySeat()] === match.winner : null;
    const text = mine === null ? t("winner_team", { team: teamLabel(match.winner) }) : mine ? t("winner_us") : t("winner_them");
    // The result first, as large as the moment: who won, the final score, what next.
    ui.result = ui.result || resultActions(tableId, mySeat() ? token : null);
    const labels = teamLabels();
    items.splice(1, 0,
      el("p", { class: "winner" + (mine === false ? " lost" : "") }, text),
      el("p", { class: "final-score", "aria-label": t("final_score", { score: scorePair(match.totals) }) },
        el("span", { class: "final-us" }, el("small", {}, labels[us]), String(match.totals[us])),
        el("span", { class: "final-sep", "aria-hidden": "true" }, "–"),
        el("span", { class: "final-them" }, el("small", {}, labels[them]), String(match.totals[them]))),
      ui.result);
    if (match.record) items.push(el("a", { class: "record-link", href: match.record, download: "" }, t("record_link")));
  } else {
    const me = mySeat();
    const sent = ui.nextSentFor === handNumber;
    // Once we said we are ready, we are not awaited, whatever the last message said.
    const awaiting = (match.awaiting_next || []).filter((seat) => !(sent && seat === me));
    if (me && awaiting.includes(me)) {
      items.push(el("button", {
        type: "button", class: "act next", "data-action": "next", disabled: offline(), onclick: () => sendControl("next"),
      }, t("next")));
    } else if (awaiting.length) {
      items.push(el("p", { class: "sub awaited" }, t("waiting_next", { seats: awaiting.map(seatName).join(t("joiner")) })));
    } else if (sent) {
      items.push(el("p", { class: "sub awaited" }, t("next_sent")));
    }
    const deadline = ui.deadline;
    if (deadline && deadline.kind === "next") {
      items.push(el("p", { class: "next-countdown" },
        countdown(deadline, conn.serverNow(), { label: (s) => t("next_in", { s }) })));
    }
  }
  box.replaceChildren(...items);
  box.classList.toggle("match-over", !!match.winner);
  const appearing = box.hidden;
  box.hidden = false;
  if (appearing) box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

/** The headings of the sheet's two columns: لنا / لهم for a seat, the teams for a spectator. */
function teamLabels() {
  const { us, them } = usThem();
  if (!mySeat()) return { NS: t("team_NS"), EW: t("team_EW") };
  return { [us]: t("us"), [them]: t("them") };
}

/** The hand of a seat whose claim (Sawa) was accepted, face up, as it held it then. */
function claimedHand(claimed) {
  return el("div", { class: "claimed" },
    el("p", {}, t("claimed_by", { seat: seatName(claimed.seat) })),
    el("div", { class: "claimed-cards" }, claimed.cards.map((card) => cardElement(card))));
}

/** A finished hand's analysis is shown once its cards are: played out, or the match over. */
function analysable(hand, match) {
  return hand.outcome === "played" || !!match.winner;
}

function analysisHref(handNumber) {
  return withLang(`/t/${encodeURIComponent(tableId)}/hands/${handNumber}/analysis`);
}

function renderRunning() {
  const match = conn.match;
  const box = $("running");
  if (!match) {
    box.hidden = true;
    return;
  }
  const { us, them } = usThem();
  const rows = match.hands.map((hand, i) => el("tr", {},
    el("td", {}, analysable(hand, match)
      ? el("a", { href: analysisHref(i + 1), target: "_blank", rel: "noopener", "data-analysis": i + 1, title: t("analysis_of_hand") }, String(i + 1))
      : String(i + 1)),
    el("td", {}, shortContract(hand)),
    el("td", {}, String(hand.score[us])), el("td", {}, String(hand.score[them]))));
  if (!match.winner && conn.view.phase !== PHASE.over) {
    rows.push(el("tr", { class: "in-play" }, el("td", {}, String(match.hand)),
      el("td", {}, t("in_play")), el("td", {}, ""), el("td", {}, "")));
  }
  const table = el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, t("col_hand")), el("th", {}, t("col_contract")),
      el("th", {}, teamLabel(us)), el("th", {}, teamLabel(them)))),
    el("tbody", {}, rows),
    el("tfoot", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t("total")),
      el("th", {}, String(match.totals[us])), el("th", {}, String(match.totals[them])))));
  const open = box.querySelector("details")?.open ?? window.innerWidth > 900;
  const details = el("details", { open }, el("summary", {}, `${t("running_title")} · ${t("match_to", { n: match.target })}`), table);
  box.replaceChildren(details);
  box.hidden = false;
}

// ------------------------------------------------------------------ start

async function start() {
  fillStatic();
  document.querySelector(".topbar .nav").prepend(soundSwitch());
  followDock();
  document.title = `${t("table_title")} · ${tableId}`;
  if (token) rememberSeat(tableId, token);
  render();
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
    if (response.status === 404) {
      conn.stop("fatal_4404");
      return;
    }
    if (response.ok) ui.info = await response.json();
    if (ui.info && ui.info.status === "unrestorable") {
      conn.stop("fatal_4500");
      return;
    }
  } catch (err) {
    // the socket will tell
  }
  startTalk();
  conn.connect();
  setInterval(tickClock, 250);
}

/** Brings the countdowns to the server's clock; the last seconds of our own turn sound. */
function tickClock() {
  const now = conn.serverNow();
  tickCountdowns(now);
  const deadline = seatDeadline(mySeat());
  const left = deadline && deadline.kind === "turn" ? secondsLeft(deadline, now) : null;
  if (left !== null && left <= 5 && left > 0 && ui.lastTick !== left) sounds.lastSeconds();
  ui.lastTick = left;
}

function startTalk() {
  const box = el("section", { id: "talk", class: "talk panel", "aria-label": t("talk_title") });
  $("running").after(box);
  ui.talk = new TalkPanel(box, conn, {
    t,
    seatName,
    talkers: () => (ui.info && Array.isArray(ui.info.humans) ? ui.info.humans : []),
    mySeat,
    storageKey: `baloot.muted.${tableId}`,
    onChange: render,
    closed: talkClosed,
  });
}

start();
