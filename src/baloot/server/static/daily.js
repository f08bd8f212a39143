// The daily duplicate: today's eight deals with a Play button each, a deal played as South by
// choosing among the legal actions, the day's, yesterday's and the month's leaderboards with
// links to yesterday's deals, and the series' levels.

import { $, el } from "./dom.js";
import { LANG, t, fillStatic, withLang } from "./i18n.js";
import { call, signedIn, useSession } from "./session.js";
import { leftToRight } from "./bidi.js";

function showPlay(play) {
  $("daily-play").hidden = false;
  $("daily-play-title").textContent = t("daily_deal", { n: play.deal });
  $("daily-hand").textContent = play.view.hand.join(" ");
  const buttons = play.over ? [] : play.choices.map((action) => {
    const button = el("button", { class: "btn", type: "button", "data-action": action }, action);
    button.addEventListener("click", () => act(play.deal, action));
    return button;
  });
  $("daily-legal").replaceChildren(...buttons);
  $("daily-result").textContent = play.over ? t("daily_result", { score: play.score }) : "";
}

async function guarded(work) {
  $("daily-error").textContent = "";
  try {
    await work();
  } catch (err) {
    $("daily-error").textContent = err.message || t("load_failed");
  }
}

function start(deal) {
  guarded(async () => showPlay(await call("POST", `/api/daily/${deal}`)));
}

function act(deal, action) {
  // One action at a time: a second tap while the first is on its way would be refused as
  // stale; a refusal shows its line and the play as the server has it.
  for (const button of $("daily-legal").querySelectorAll("button")) button.disabled = true;
  guarded(async () => {
    let play;
    try {
      play = await call("POST", `/api/daily/${deal}/act`, { action });
    } catch (err) {
      showPlay(await call("POST", `/api/daily/${deal}`));
      throw err;
    }
    showPlay(play);
    if (play.over) await load();
  });
}

function dealItem(deal, signed) {
  const item = el("li", { "data-deal": String(deal.deal) }, t("daily_deal", { n: deal.deal }), " ");
  if (deal.state === "done") {
    item.append(t("daily_done", { score: deal.score, mp: deal.matchpoints ?? "–" }));
  } else if (signed) {
    const word = deal.state === "playing" ? "daily_resume" : "daily_play";
    const button = el("button", { class: "btn", type: "button" }, t(word));
    button.addEventListener("click", () => start(deal.deal));
    item.append(button);
  }
  return item;
}

/** Fill the board whose body is ``tbody``: a header naming its columns, then a row a player;
 * ``count`` names the last column (deals, days or results). */
function showBoard(tbody, players, count) {
  tbody.parentElement.querySelector("thead")?.remove();
  const columns = [t("col_rank"), t("col_player"), t("daily_col_average"), t("daily_col_" + count)];
  tbody.before(el("thead", {}, el("tr", {}, ...columns.map((word) => el("th", { scope: "col" }, word)))));
  tbody.replaceChildren(...players.map((p) => el("tr", { "data-name": p.name }, el("td", {}, String(p.rank)),
    el("td", {}, p.name), el("td", {}, String(p.average)), el("td", {}, String(p[count])))));
}

async function showYesterday(yesterday) {
  if (!yesterday) return;
  const date = yesterday.date;
  $("yesterday-title").textContent = t("daily_yesterday", { date: leftToRight(date) });
  const board = await call("GET", yesterday.leaderboard).catch(() => ({ players: [], pages: [] }));
  $("yesterday-deals").replaceChildren(...board.pages.map((path, i) =>
    el("a", { href: withLang(path), "data-deal": String(i + 1) }, t("daily_deal", { n: i + 1 }))));
  showBoard($("yesterday-board-rows"), board.players, "deals");
  $("daily-yesterday").hidden = false;
}

async function showMonth(date) {
  const month = date.slice(0, 7);
  const board = await call("GET", `/api/daily/month/${month}`);
  $("month-title").textContent = t("daily_month", { month: leftToRight(month) });
  $("month-about").textContent = t("daily_month_about", { n: board.least });
  showBoard($("month-board-rows"), board.players, "days");
}

async function showSeries() {
  const series = await call("GET", "/api/daily/series");
  const levelName = (level) => series.levels[level - 1].names[LANG];
  const mine = series.me;
  $("series-mine").textContent = mine
    ? t("series_mine", { level: levelName(mine.level), average: mine.average, results: mine.results })
      + " " + t("series_outlook_" + mine.outlook)
    : "";
  $("series-about").textContent = t("series_about", {
    start: leftToRight(series.period.start), end: leftToRight(series.period.end), n: series.window, least: series.least,
    up: series.promote, down: series.relegate,
  });
  $("series-levels").replaceChildren(...series.levels.slice().reverse().filter((l) => l.players.length).map((level) => {
    const rows = el("tbody", {});
    const box = el("div", { class: "series-level", "data-level": String(level.level) },
      el("h3", {}, levelName(level.level)), el("table", { class: "board" }, rows));
    showBoard(rows, level.players, "results");
    return box;
  }));
  $("daily-series").hidden = false;
}

async function load() {
  await guarded(async () => {
    const today = await call("GET", "/api/daily");
    $("daily-intro").textContent = t("daily_intro", { date: leftToRight(today.date), commitment: leftToRight(today.commitment) });
    $("daily-deals").replaceChildren(...today.deals.map((deal) => dealItem(deal, signedIn())));
    const board = await call("GET", `/api/daily/${today.date}/leaderboard`).catch(() => ({ players: [] }));
    showBoard($("daily-board-rows"), board.players, "deals");
    await showYesterday(today.yesterday);
    await showMonth(today.date);
    await showSeries();
  });
}

async function begin() {
  fillStatic();
  document.title = t("daily_title");
  $("daily-title").textContent = t("daily_title");
  $("daily-board-title").textContent = t("daily_board");
  const account = await fetch("/api/account").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  useSession(account);
  if (!signedIn()) $("daily-error").textContent = t("daily_signin");
  await load();
}

begin();
