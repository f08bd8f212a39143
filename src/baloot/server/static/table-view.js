// The table page's view: the state (table-state.js) drawn into the page, all of it at each
// render; what the player clicks goes to the controller (table-controller.js).
//
// Testing contract (docs/table-protocol.md): every visible, enabled element that sends a decision
// carries data-action = the action exactly as in view.legal (or "next"); nothing else does.
// Decisions are drawn from view.choices, the legal actions already read (docs/seat-view.md).
// Every render rebuilds the decision controls from the current view, so none goes stale.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { cardElement, cardText, sortHand, suitOf } from "./cards.js";
import { PHASE, TEAM, isBot, readAction } from "./protocol.js";
import { actionLabel, questionText, contractText, reasonText } from "./words.js";
import { finishedNotice } from "./result.js";
import { countdown } from "./timer.js";
import { TalkPanel } from "./talk.js";
import { isHumanSeat, myTurn, mySeat, offline, finishedElsewhere, seatDeadline, somethingToUndo, talkClosed, usThem } from "./table-state.js";
import { markLeader, renderCenter, renderSeats, seatBox } from "./table-felt.js";
import { renderRunning, renderSheet, serverWords } from "./table-sheet.js";

const HIDDEN_WITHOUT_VIEW = ["felt", "prompt", "actions", "hand", "controls", "sheet", "running"];

export class TableView {
  constructor(controller) {
    this.ctl = controller;
    this.state = controller.state;
    this.link = controller.link;
    this.talk = null; // the TalkPanel, once the page knows the table
    this.result = null; // the end of the match's buttons, made once
    this.finished = null; // what a finished match no longer served says, made once
  }

  // ---------------------------------------------------------------- names

  /** The name a person gave their seat, else the seat's name. */
  humanName(seat) {
    const players = this.state.info && this.state.info.players;
    const name = players && players[seat];
    // An unnamed person is known by the seat's letter: show the seat's name instead.
    return name && name !== seat && !isBot(name) ? name : t("seat_" + seat);
  }

  seatName(seat) {
    const state = this.state;
    if (seat === mySeat(state)) return t("you");
    const info = state.seats && state.seats[seat];
    const player = info ? info.player : null;
    if (!player || isBot(player) || player === seat) {
      return isHumanSeat(state, seat) ? this.humanName(seat) : t("seat_" + seat);
    }
    return player;
  }

  /** A team as this page names it: "Us" and "Them" on a seat's page, its seats' names
   *  ("North-South") for a spectator, who belongs to neither. */
  teamLabel(team) {
    const me = mySeat(this.state);
    if (!me) return t("team_" + team);
    return TEAM[me] === team ? t("us") : t("them");
  }

  /** "Us 12 · Them 30" (a spectator: "North-South 12 · East-West 30"), for a score by team. */
  scorePair(score) {
    const { us, them } = usThem(this.state);
    return t("score_pair", { a: this.teamLabel(us), x: score[us], b: this.teamLabel(them), y: score[them] });
  }

  /** The headings of the sheet's two columns: لنا / لهم for a seat, the teams for a spectator. */
  teamLabels() {
    const { us, them } = usThem(this.state);
    if (!mySeat(this.state)) return { NS: t("team_NS"), EW: t("team_EW") };
    return { [us]: t("us"), [them]: t("them") };
  }

  /** The line under the hand (state.notice), in the page's words. */
  noticeText(notice) {
    if (!notice) return "";
    const me = mySeat(this.state);
    const seatName = (seat) => this.seatName(seat);
    if (notice.kind === "not_sent") return t("not_sent");
    if (notice.kind === "refused") {
      const reason = reasonText(notice.refused.code, notice.refused.params, seatName, me);
      return reason.charAt(0).toUpperCase() + reason.slice(1);
    }
    if (notice.kind === "rejected") {
      // The engine's reason in the page's words (its own text when the reject names no
      // parameters: a fault of the message, not a rule of the game).
      const message = notice.message;
      const reason = message.params ? reasonText(message.code, message.params, seatName, me) : message.reason || message.code;
      return message.code === "claim_not_proven" ? t("claim_refused", { reason }) : t("rejected", { reason });
    }
    if (notice.kind === "timed_out") {
      // "Time's up — K♠ was played for you": a bot decided for us when our time ran out.
      const read = readAction(notice.action);
      const label = actionLabel(read, notice.view);
      return read.verb === "play" ? t("timed_out_play", { card: label }) : t("timed_out_call", { call: label });
    }
    const choice = notice.action ? actionLabel(readAction(notice.action), notice.view) : "";
    const line = t("hint_line", { choice });
    if (notice.worded !== null) return line + " — " + serverWords(notice.worded);
    if (notice.keys !== null) return line + " — " + notice.keys;
    return line;
  }

  /** A countdown for a seat's deadline, in a ring. */
  deadlineRing(deadline) {
    const info = this.state.info;
    const totalMs = deadline.kind === "turn" && info && info.timer ? info.timer * 1000 : null;
    const key = deadline.kind === "turn" ? "ring_turn" : "ring_stand_in";
    return countdown(deadline, this.link.serverNow(), { ring: true, totalMs, label: (s) => t(key, { s }) });
  }

  seatBox(seat) {
    return seatBox(this.state, seat);
  }

  // ---------------------------------------------------------------- drawing

  render() {
    this.renderStatus();
    if (!this.state.view || this.link.status === "fatal") {
      for (const id of HIDDEN_WITHOUT_VIEW) $(id).hidden = true;
      $("contract").textContent = "";
      $("score").textContent = "";
      if (this.talk) this.talk.update();
      return;
    }
    $("felt").hidden = false;
    this.renderScore();
    this.renderContract();
    renderSeats(this);
    renderCenter(this);
    markLeader();
    this.renderPrompt();
    this.renderActions();
    this.renderHand();
    this.renderControls();
    renderSheet(this);
    renderRunning(this);
    $("message").textContent = this.noticeText(this.state.notice);
    if (this.talk) this.talk.update();
  }

  renderStatus() {
    const { state, link } = this;
    const status = $("status");
    status.className = "status";
    if (finishedElsewhere(state, link)) {
      // A finished match nobody watches any more: what is left of it, not "no such table";
      // made once (it looks for the rematch until someone makes it).
      this.finished = this.finished || finishedNotice(state.tableId, state.token, state.info);
      if (status.firstChild !== this.finished) status.replaceChildren(this.finished);
    } else if (link.status === "fatal") {
      status.textContent = t(link.fatal);
      status.classList.add("fatal");
    } else if (link.status === "retrying") {
      status.textContent = t(link.storageAway ? "storage_away" : "reconnecting", { s: link.retryIn });
      status.classList.add("warn");
    } else if (!state.view) {
      status.textContent = t(state.match ? "deal_waiting" : "connecting"); // the first hand not dealt yet
    } else if (!mySeat(state)) {
      status.textContent = t("spectating");
    } else {
      status.textContent = "";
    }
    status.hidden = !status.textContent;
  }

  renderScore() {
    const { us, them } = usThem(this.state);
    const match = this.state.match;
    const totals = match ? match.totals : { NS: 0, EW: 0 };
    $("score").replaceChildren(
      el("span", { class: "score-us" }, `${this.teamLabel(us)} ${totals[us]}`),
      el("span", { class: "score-sep" }, "·"),
      el("span", { class: "score-them" }, `${this.teamLabel(them)} ${totals[them]}`),
      el("span", { class: "score-hand" }, match ? t("hand_number", { n: match.hand }) : ""),
    );
  }

  renderContract() {
    const view = this.state.view;
    const { us, them } = usThem(this.state);
    const line = [el("strong", {}, contractText(view, (seat) => this.seatName(seat)))];
    if (view.phase === PHASE.playing || view.phase === PHASE.over) {
      line.push(el("span", { class: "taken" },
        `${this.teamLabel(us)}: ${t("tricks_taken", { t: view.tricks_won[us], p: view.card_points[us] })}`));
      line.push(el("span", { class: "taken" },
        `${this.teamLabel(them)}: ${t("tricks_taken", { t: view.tricks_won[them], p: view.card_points[them] })}`));
    }
    $("contract").replaceChildren(...line);
  }

  renderPrompt() {
    const state = this.state;
    const view = state.view;
    const seatName = (seat) => this.seatName(seat);
    const prompt = $("prompt");
    prompt.className = "prompt";
    const parts = [];
    if (view.phase === PHASE.over) {
      prompt.replaceChildren();
      prompt.hidden = true;
      return;
    }
    if (myTurn(state)) {
      prompt.classList.add("mine");
      parts.push(el("strong", {}, t("your_turn") + " — "), questionText(view, seatName));
      const deadline = seatDeadline(state, mySeat(state));
      if (deadline) {
        parts.push(" ", countdown(deadline, this.link.serverNow(), { label: (s) => t("time_left", { s }) }));
      }
    } else if (view.to_act) {
      parts.push(t("waiting_for", { seat: seatName(view.to_act) }));
      if (view.question && view.question.kind !== "play" && mySeat(state) === null) {
        parts.push(el("span", { class: "sub" }, " " + questionText(view, seatName)));
      }
    }
    prompt.replaceChildren(...parts);
    prompt.hidden = parts.length === 0;
  }

  actionButton(choice, extraClass = "") {
    return el("button", {
      type: "button", class: "act " + extraClass, "data-action": choice.action, disabled: offline(this.link),
      onclick: () => this.ctl.send(choice.action),
    }, actionLabel(choice, this.state.view));
  }

  renderActions() {
    const state = this.state;
    const box = $("actions");
    const buttons = [];
    if (myTurn(state) && !state.pending) {
      for (const choice of state.view.choices) {
        const { verb } = choice;
        if (verb === "play") continue;
        buttons.push(this.actionButton(choice, verb === "pass" ? "pass" : verb === "declare" ? "declare" : ""));
      }
      for (const list of Object.values(playsByCard(state.view.choices))) {
        for (const choice of list.slice(1)) buttons.push(this.actionButton(choice, "variant"));
      }
    }
    box.replaceChildren(...buttons);
    box.hidden = buttons.length === 0;
  }

  renderHand() {
    const state = this.state;
    const view = state.view;
    const box = $("hand");
    if (!mySeat(state)) {
      box.replaceChildren();
      box.hidden = true;
      return;
    }
    box.hidden = view.hand.length === 0;
    const trump = view.contract && view.contract.kind === "hokum" ? view.contract.trump : null;
    const plays = myTurn(state) && !state.pending ? playsByCard(view.choices) : {};
    const anyPlay = Object.keys(plays).length > 0;
    const cards = sortHand(view.hand, trump).map((card) => {
      const choices = plays[card];
      const attrs = { type: "button", class: "hand-card", "aria-label": cardText(card) };
      if (choices) {
        attrs["data-action"] = choices[0].action;
        attrs.class += " legal";
        attrs.disabled = offline(this.link);
        attrs.onclick = () => this.ctl.send(choices[0].action);
      } else if (anyPlay && view.refused && view.refused[card]) {
        // Not playable now, but a tap says why: the engine's reason, not a silent card.
        attrs.class += " illegal";
        attrs["aria-disabled"] = "true";
        attrs.onclick = () => this.ctl.explainRefused(card);
      } else {
        attrs.disabled = true;
        if (anyPlay) attrs.class += " illegal";
      }
      if (trump && suitOf(card) === trump) attrs.class += " trump";
      return el("button", attrs, cardElement(card));
    });
    box.replaceChildren(...cards);
  }

  renderControls() {
    const { state, link, ctl } = this;
    const view = state.view;
    const box = $("controls");
    const controls = [];
    if (view.tricks.some((tr) => tr.winner !== null)) {
      controls.push(el("button", {
        type: "button", class: "ctl", "data-control": "last", onclick: () => ctl.toggleLast(),
      }, state.showLast ? t("hide_last_trick") : t("last_trick")));
    }
    const solo = mySeat(state) && state.info && Array.isArray(state.info.humans) && state.info.humans.length === 1;
    if (solo && !state.match?.winner) {
      controls.push(el("button", { type: "button", class: "ctl", "data-control": "undo",
        disabled: state.pending || offline(link) || !somethingToUndo(state), onclick: () => ctl.sendControl("undo") }, t("undo")));
      controls.push(el("button", { type: "button", class: "ctl", "data-control": "hint",
        disabled: !myTurn(state) || state.pending || offline(link), onclick: () => ctl.sendControl("hint") }, t("hint")));
    }
    // Sawa is offered only when the server says the claim would be accepted (view.claim).
    if (myTurn(state) && view.claim && view.hand.length > 1) {
      controls.push(el("button", { type: "button", class: "ctl claim", "data-control": "claim",
        disabled: state.pending || offline(link), onclick: () => ctl.sendControl("claim") }, t("claim")));
    }
    box.replaceChildren(...controls);
    box.hidden = controls.length === 0;
  }

  /** The talk panel, under the running score, once the page knows the table. */
  startTalk() {
    const { state, link } = this;
    const box = el("section", { id: "talk", class: "talk panel", "aria-label": t("talk_title") });
    $("running").after(box);
    this.talk = new TalkPanel(box, link, {
      t,
      seatName: (seat) => this.seatName(seat),
      talkers: () => (state.info && Array.isArray(state.info.humans) ? state.info.humans : []),
      mySeat: () => mySeat(state),
      storageKey: `baloot.muted.${state.tableId}`,
      onChange: () => this.ctl.changed(),
      closed: () => talkClosed(state, link),
    });
  }
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
