// The daily duplicate: today's eight deals with a Play button each, a deal played as South by
// choosing among the legal actions, and the day's leaderboard.

import { $, el } from "./dom.js";
import { t, fillStatic } from "./i18n.js";
import { call, signedIn, useSession } from "./session.js";

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

async function load() {
  await guarded(async () => {
    const today = await call("GET", "/api/daily");
    $("daily-intro").textContent = t("daily_intro", { date: today.date, commitment: today.commitment });
    $("daily-deals").replaceChildren(...today.deals.map((deal) => dealItem(deal, signedIn())));
    const board = await call("GET", `/api/daily/${today.date}/leaderboard`).catch(() => ({ players: [] }));
    $("daily-board-rows").replaceChildren(...board.players.map((p) =>
      el("tr", {}, el("td", {}, String(p.rank)), el("td", {}, p.name),
        el("td", {}, String(p.average)), el("td", {}, String(p.deals)))));
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
