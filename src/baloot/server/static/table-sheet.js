// The sheets of the table's page: a finished hand's score sheet (its figures, its sentences,
// what the page found of its deal, the end of the match) and the match's running score.
// `tv` is the page's TableView.

import { $, el } from "./dom.js";
import { t, withLang, LANG } from "./i18n.js";
import { cardElement } from "./cards.js";
import { PHASE, TEAM } from "./protocol.js";
import { shortContract } from "./words.js";
import { IN_TABLE, sheetRows } from "./sheet.js";
import { resultActions } from "./result.js";
import { countdown } from "./timer.js";
import { analysable, mySeat, offline, usThem } from "./table-state.js";
import { isolateNumbers } from "./bidi.js";

/** The table of a finished hand's figures (sheet.js), or null for a hand with none:
 *  `teams` the two columns' teams in order, `labels` their headings. */
function sheetFigures(lines, teams, labels, totals) {
  const rows = sheetRows(lines, totals);
  if (!rows) return null;
  return el("table", { class: "sheet-figures", "aria-label": t("sheet_table_label") },
    el("thead", {}, el("tr", {}, el("td", {}), ...teams.map((team) => el("th", { scope: "col" }, labels[team])))),
    el("tbody", {}, rows.map(({ key, values, strong }) => el("tr", { class: strong ? "strong" : "", "data-row": key },
      el("th", { scope: "row" }, t(key)),
      ...teams.map((team) => el("td", {}, String(values[team])))))));
}

/** The hand of a seat whose claim (Sawa) was accepted, face up, as it held it then. */
function claimedHand(tv, claimed) {
  return el("div", { class: "claimed" },
    el("p", {}, t("claimed_by", { seat: tv.seatName(claimed.seat) })),
    el("div", { class: "claimed-cards" }, claimed.cards.map((card) => cardElement(card))));
}

/** A sentence the server worded, as the page shows it: in Arabic, its signed numbers keep
 *  their sign before them (bidi.js), as the page's own sentences do. */
export function serverWords(text) {
  return LANG === "ar" ? isolateNumbers(text) : text;
}

function analysisHref(tableId, handNumber) {
  return withLang(`/t/${encodeURIComponent(tableId)}/hands/${handNumber}/analysis`);
}

export function renderSheet(tv) {
  const { state, link, ctl } = tv;
  const { view, match } = state;
  const box = $("sheet");
  if (!match || view.phase !== PHASE.over) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const me = mySeat(state);
  const handNumber = match.hand;
  const result = view.result || match.hands[handNumber - 1];
  const { us, them } = usThem(state);
  const items = [el("h2", {}, t("sheet_title", { number: handNumber }))];
  if (match.winner) items.unshift(el("p", { class: "result-title" }, t("result_title")));
  if (result) {
    items.push(el("p", { class: "result" }, `${shortContract(result)}: ${tv.scorePair(result.score)}`));
  }
  const claimed = link.claimed && link.claimed[handNumber];
  if (claimed) items.push(claimedHand(tv, claimed));
  const lines = state.worded[handNumber];
  const keyed = state.lines[handNumber] || link.sheets[handNumber];
  const latest = match.hands.length === handNumber;
  const figures = keyed && sheetFigures(keyed, [us, them], tv.teamLabels(), latest ? match.totals : null);
  if (figures) items.push(el("div", { class: "scroll" }, figures));
  if (lines && lines.length) {
    const said = lines.filter((_, i) => !(figures && keyed[i] && IN_TABLE.has(keyed[i].key)));
    items.push(el("ul", { class: "sheet-lines" }, said.map((line) => el("li", {}, serverWords(line)))));
  }
  if (handNumber in state.fairChecked) {
    const found = state.fairChecked[handNumber]; // a deal the server alone chose says so
    items.push(el("p", { class: found === "verified" ? "fair-line" : "fair-line warn", "data-fair": found },
      t({ verified: "deal_verified", alone: "deal_alone", failed: "deal_not_verified" }[found]), " ",
      el("a", { href: withLang("/fair"), target: "_blank", rel: "noopener" }, t("deal_how"))));
  }
  if (result && analysable(result, match)) {
    items.push(el("a", { class: "analysis-link", href: analysisHref(state.tableId, handNumber), target: "_blank", rel: "noopener",
      "data-analysis": handNumber }, t("analysis_of_hand")));
  }
  if (match.winner) {
    const mine = me ? TEAM[me] === match.winner : null;
    const text = mine === null ? t("winner_team", { team: tv.teamLabel(match.winner) }) : mine ? t("winner_us") : t("winner_them");
    // The result first, as large as the moment: who won, the final score, what next.
    tv.result = tv.result || resultActions(state.tableId, me ? state.token : null);
    const labels = tv.teamLabels();
    items.splice(1, 0,
      el("p", { class: "winner" + (mine === false ? " lost" : "") }, text),
      el("p", { class: "final-score", "aria-label": t("final_score", { score: tv.scorePair(match.totals) }) },
        el("span", { class: "final-us" }, el("small", {}, labels[us]), String(match.totals[us])),
        el("span", { class: "final-sep", "aria-hidden": "true" }, "–"),
        el("span", { class: "final-them" }, el("small", {}, labels[them]), String(match.totals[them]))),
      tv.result);
    if (match.record) items.push(el("a", { class: "record-link", href: match.record, download: "" }, t("record_link")));
  } else {
    const sent = state.nextSentFor === handNumber;
    // Once we said we are ready, we are not awaited, whatever the last message said.
    const awaiting = (match.awaiting_next || []).filter((seat) => !(sent && seat === me));
    if (me && awaiting.includes(me)) {
      items.push(el("button", {
        type: "button", class: "act next", "data-action": "next", disabled: offline(link), onclick: () => ctl.sendControl("next"),
      }, t("next")));
    } else if (awaiting.length) {
      items.push(el("p", { class: "sub awaited" }, t("waiting_next", { seats: awaiting.map((seat) => tv.seatName(seat)).join(t("joiner")) })));
    } else if (sent) {
      items.push(el("p", { class: "sub awaited" }, t("next_sent")));
    }
    const deadline = state.deadline;
    if (deadline && deadline.kind === "next") {
      items.push(el("p", { class: "next-countdown" },
        countdown(deadline, link.serverNow(), { label: (s) => t("next_in", { s }) })));
    }
  }
  box.replaceChildren(...items);
  box.classList.toggle("match-over", !!match.winner);
  const appearing = box.hidden;
  box.hidden = false;
  if (appearing) box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

export function renderRunning(tv) {
  const { state } = tv;
  const match = state.match;
  const box = $("running");
  if (!match) {
    box.hidden = true;
    return;
  }
  const { us, them } = usThem(state);
  const rows = match.hands.map((hand, i) => el("tr", {},
    el("td", {}, analysable(hand, match)
      ? el("a", { href: analysisHref(state.tableId, i + 1), target: "_blank", rel: "noopener", "data-analysis": i + 1, title: t("analysis_of_hand") }, String(i + 1))
      : String(i + 1)),
    el("td", {}, shortContract(hand)),
    el("td", {}, String(hand.score[us])), el("td", {}, String(hand.score[them]))));
  if (!match.winner && state.view.phase !== PHASE.over) {
    rows.push(el("tr", { class: "in-play" }, el("td", {}, String(match.hand)),
      el("td", {}, t("in_play")), el("td", {}, ""), el("td", {}, "")));
  }
  const table = el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, t("col_hand")), el("th", {}, t("col_contract")),
      el("th", {}, tv.teamLabel(us)), el("th", {}, tv.teamLabel(them)))),
    el("tbody", {}, rows),
    el("tfoot", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t("total")),
      el("th", {}, String(match.totals[us])), el("th", {}, String(match.totals[them])))));
  const open = box.querySelector("details")?.open ?? window.innerWidth > 900;
  const details = el("details", { open }, el("summary", {}, `${t("running_title")} · ${t("match_to", { n: match.target })}`), table);
  box.replaceChildren(details);
  box.hidden = false;
}
