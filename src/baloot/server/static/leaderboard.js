// The leaderboard: the players rated in a preset, the highest first, a page at a time.

import { isolateNumbers } from "./bidi.js";
import { $, el } from "./dom.js";
import { t, fillStatic, withLang, LANG } from "./i18n.js";
import { playerLabel, presetWord } from "./words.js";

const PRESETS = ["classic", "federation"];
const PERIODS = { all: "period_all", month: "period_month" };
let next = 0;

function row(player) {
  // In Arabic the number is isolated left to right: a minus stays before it, the "?" after.
  const shown = LANG === "ar" ? isolateNumbers(String(player.rating)) : String(player.rating);
  const rating = `${shown}${player.provisional ? t("provisional_mark") : ""}`;
  return el("tr", { "data-player": player.name },
    el("td", {}, String(player.rank)),
    el("td", {}, el("a", { href: withLang(player.profile) }, playerLabel(player.name))),
    el("td", {}, rating),
    el("td", {}, String(player.matches)));
}

async function load(more) {
  const preset = $("board-preset").value;
  const period = $("board-period").value;
  const offset = more ? next : 0;
  $("board-error").textContent = "";
  try {
    const query = new URLSearchParams({ preset, period, offset: String(offset) });
    const response = await fetch(`/api/leaderboard?${query}`);
    if (!response.ok) throw new Error(String(response.status));
    const board = await response.json();
    $("board-intro").textContent = t("board_intro", { n: board.least });
    const rows = board.players.map(row);
    if (more) $("board-rows").append(...rows);
    else $("board-rows").replaceChildren(...(rows.length ? rows
      : [el("tr", {}, el("td", { colspan: "4", class: "sub" }, t("board_empty")))]));
    next = board.next ?? 0;
    $("board-more").hidden = board.next === null;
  } catch (err) {
    $("board-error").textContent = t("load_failed");
  }
}

function start() {
  fillStatic();
  document.title = t("leaderboard_title");
  const query = new URLSearchParams(location.search);
  const preset = PRESETS.includes(query.get("preset")) ? query.get("preset") : "classic";
  const period = query.get("period") in PERIODS ? query.get("period") : "all";
  $("board-preset").replaceChildren(...PRESETS.map((name) =>
    el("option", { value: name, selected: name === preset }, presetWord(name))));
  $("board-period").replaceChildren(...Object.entries(PERIODS).map(([name, word]) =>
    el("option", { value: name, selected: name === period }, t(word))));
  $("board-preset").addEventListener("change", () => load(false));
  $("board-period").addEventListener("change", () => load(false));
  $("board-more").addEventListener("click", () => load(true));
  load(false);
}

start();
