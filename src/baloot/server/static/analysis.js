// The analysis of a finished hand: each decision with its loss and mark (?! ? ??), the best
// option and what the bot would have chosen; computed by the server in the background, so the
// page asks again while the answer is 202.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang } from "./i18n.js";
import { SEATS, readAction } from "./protocol.js";
import { actionLabel, botWord, contractText, playerLabel } from "./words.js";
import { followScrolling } from "./scrollhint.js";

const parts = location.pathname.split("/").filter(Boolean); // t, ID, hands, N, analysis
const tableId = decodeURIComponent(parts[1] || "");
const handNumber = Number(parts[3] || 0);
const api = `/api/tables/${encodeURIComponent(tableId)}/hands/${handNumber}/analysis`;
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
/** How long to wait before asking again (ms): while computing, and when the server is busy. */
const AGAIN_MS = 1000;
const BUSY_MS = 5000;

function status(text, kind = "") {
  const line = $("analysis-status");
  line.textContent = text;
  line.className = "status-line" + (kind ? " " + kind : "");
  line.hidden = !text;
}

function handLinks(finished) {
  const nav = $("hand-links");
  if (!finished || !finished.length) {
    nav.hidden = true;
    return;
  }
  nav.replaceChildren(el("span", { class: "sub" }, t("analysis_hands")), ...finished.map((n) => n === handNumber
    ? el("strong", { "aria-current": "page" }, String(n))
    : el("a", { href: withLang(`/t/${encodeURIComponent(tableId)}/hands/${n}/analysis`), "data-hand": n }, String(n))));
  nav.hidden = false;
}

function signed(value, exact) {
  if (value === null || value === undefined) return "";
  const sign = value > 0 ? "+" : value < 0 ? "−" : "";
  const size = Math.abs(value);
  return (exact ? "" : "≈") + sign + (exact ? String(size) : size.toFixed(1));
}

function plain(value, exact) {
  if (value === null || value === undefined) return "";
  return (exact ? "" : "≈") + (exact ? String(value) : Number(value).toFixed(1));
}

function seatName(seat, players) {
  const name = players && players[seat];
  const label = t("seat_" + seat);
  if (!name || name === seat) return label;
  return `${label} · ${playerLabel(name)}`;
}

function markCell(mark) {
  if (!mark) return el("td", { class: "mark" }, "");
  return el("td", { class: "mark mark-" + mark, title: t("mark_" + mark) },
    el("span", { class: "ltr" }, SYMBOLS[mark]), " ", el("span", { class: "mark-word" }, t("mark_" + mark)));
}

/** A number with its sign (or ≈), left to right whatever the page's direction: in an Arabic
 *  page a minus sign stays before its number (bidi.js). */
function number(text) {
  return el("bdi", { dir: "ltr" }, text);
}

/** An action's words and its value, each isolated from the other: an Arabic call's value
 *  stays beside it with its sign, a card's "10♣ · إكّة" reads as one. */
function withValue(action, value) {
  return value ? [el("bdi", {}, action), " ", number(value)] : el("bdi", {}, action);
}

function label(action, view) {
  return action ? actionLabel(readAction(action), view) : "—";
}

function decisionRow(decision, view, withBot) {
  const exact = decision.exact;
  const at = { ...view, phase: decision.phase, question: null };
  const best = decision.best === decision.action ? "=" : withValue(label(decision.best, at), signed(decision.best_value, exact));
  const cells = [
    el("td", { class: "num" }, String(decision.position)),
    el("td", {}, t("seat_" + decision.seat)),
    el("td", { class: "played" }, withValue(label(decision.action, at), signed(decision.value, exact))),
    el("td", { class: "best" }, best),
    el("td", { class: "num" }, number(plain(decision.loss, exact))),
    markCell(decision.mark),
  ];
  if (withBot) {
    const choice = decision.expert ? decision.expert.action : null;
    const cell = el("td", { class: "bot" }, choice === decision.action ? "=" : withValue(label(choice, at), ""));
    if (byEquity(decision)) cell.append(el("span", { class: "equity-mark" }, " †"));
    cells.push(cell);
  }
  return el("tr", { "data-position": decision.position, "data-mark": decision.mark || "", class: decision.exact ? "" : "estimated" }, cells);
}

/** True when the bot's call is not the call of best estimate: it chose by match equity,
 *  with confidence, which the note under the table explains (marked †). */
function byEquity(decision) {
  const choice = decision.expert ? decision.expert.action : null;
  return !decision.exact && choice !== null && choice !== decision.best;
}

// A table's header row; the columns for which `numeric` holds are aligned like their numbers.
function headRow(head, numeric) {
  return el("thead", {}, el("tr", {}, head.map((h, i) => el("th", numeric(i) ? { class: "num" } : {}, h))));
}

function renderDecisions(hand, analysis) {
  const withBot = analysis.bot !== null;
  const head = [t("analysis_col_position"), t("analysis_col_seat"), t("analysis_col_played"),
    t("analysis_col_best"), t("analysis_col_loss"), t("analysis_col_mark")];
  if (withBot) head.push(t("analysis_col_bot", { bot: botWord(analysis.bot) }));
  const view = { exposed: hand.exposed, question: null };
  const rows = hand.decisions.map((d) => decisionRow(d, view, withBot));
  $("decisions").replaceChildren(
    headRow(head, (i) => i === 0 || i === 4),
    el("tbody", {}, rows.length ? rows : [el("tr", {}, el("td", { colspan: head.length, class: "sub" }, t("analysis_no_decisions")))]));
  $("analysis-forced").textContent = hand.forced ? t("analysis_forced", { count: hand.forced }) : "";
}

function renderSummary(hand, analysis) {
  const groups = analysis.bot === null ? ["plays"] : ["plays", "calls"];
  const head = [t("analysis_col_seat")];
  for (const group of groups) {
    head.push(t("analysis_col_" + group), t("analysis_col_average"), "?!", "?", "??");
  }
  const rows = SEATS.map((seat) => {
    const cells = [el("th", { scope: "row" }, seatName(seat, analysis.players))];
    for (const group of groups) {
      const tally = hand.summary[seat][group];
      const average = tally.average_loss === null ? "" : (group === "calls" ? "≈" : "") + Number(tally.average_loss).toFixed(2);
      cells.push(el("td", { class: "num" }, String(tally.decisions)), el("td", { class: "num" }, number(average)),
        el("td", { class: "num" }, String(tally.inaccuracy)), el("td", { class: "num" }, String(tally.mistake)),
        el("td", { class: "num" }, String(tally.blunder)));
    }
    return el("tr", { "data-seat": seat }, cells);
  });
  $("summary").replaceChildren(headRow(head, (i) => i > 0), el("tbody", {}, rows));
}

function renderNotes(hand, analysis) {
  const lines = [t("analysis_note_exact")];
  lines.push(analysis.bot === null ? t("analysis_note_no_bot") : t("analysis_note_estimate", { bot: botWord(analysis.bot) }));
  lines.push(t("analysis_note_marks", analysis.thresholds));
  if (hand.unit === "match") lines.push(t("analysis_note_gahwa"));
  if (analysis.bot !== null && hand.decisions.some(byEquity)) {
    lines.push(t("analysis_note_equity", { bot: botWord(analysis.bot) }));
  }
  $("analysis-notes").replaceChildren(...lines.map((line) => el("p", {}, line)));
  $("analysis-notes").hidden = false;
}

function render(answer) {
  const analysis = answer.analysis;
  const hand = analysis.hands[0];
  status("");
  const result = hand.contract
    ? t("analysis_result", { contract: contractText({ contract: hand.contract, exposed: hand.exposed }, (s) => t("seat_" + s)),
      NS: hand.score.NS, EW: hand.score.EW, team_NS: t("team_NS"), team_EW: t("team_EW") })
    : t("annulled");
  $("analysis-contract").textContent = result;
  renderDecisions(hand, analysis);
  renderSummary(hand, analysis);
  renderNotes(hand, analysis);
  $("analysis-hand").hidden = false;
  $("analysis-summary").hidden = false;
  followScrolling();
}

async function ask() {
  let response;
  try {
    response = await fetch(api);
  } catch (err) {
    status(t("load_failed"), "error");
    return;
  }
  const body = await response.json().catch(() => ({}));
  handLinks(body.finished);
  if (response.status === 200) {
    render(body);
  } else if (response.status === 202) {
    status(body.status === "computing" && body.total
      ? t("analysis_computing", { done: body.done, total: body.total })
      : t("analysis_queued"));
    setTimeout(ask, AGAIN_MS);
  } else if (response.status === 503) {
    status(t("analysis_busy"), "warn");
    setTimeout(ask, BUSY_MS);
  } else if (response.status === 409) {
    status(t("analysis_not_over"), "error");
  } else if (response.status === 404) {
    status(t("analysis_not_found"), "error");
  } else {
    status(t("analysis_failed"), "error");
  }
}

function start() {
  fillStatic();
  document.title = t("analysis_title", { n: handNumber });
  $("analysis-title").textContent = t("analysis_title", { n: handNumber });
  $("table-link").setAttribute("href", withLang(`/t/${encodeURIComponent(tableId)}`));
  status(t("analysis_queued"));
  ask();
}

start();
