// The tournaments: the list (every visitor), and the form that organises one (signed in).

import { $, el } from "./dom.js";
import { t, fillStatic, withLang } from "./i18n.js";
import { presetWord } from "./words.js";
import { call, useSession } from "./session.js";

function row(tournament) {
  const state = t("to_state_" + tournament.state);
  const line = t(tournament.state === "open" ? "to_line_open" : "to_line", {
    preset: presetWord(tournament.preset), pairs: tournament.pairs,
    round: tournament.round, rounds: tournament.rounds,
  });
  return el("li", { "data-tournament": tournament.id },
    el("a", { href: withLang(tournament.url) }, el("bdi", {}, tournament.name)),
    el("span", { class: "sub" }, ` · ${state} · ${line} · `),
    el("bdi", { class: "sub" }, tournament.organiser));
}

async function loadList() {
  try {
    const { tournaments } = await call("GET", "/api/tournaments");
    $("to-list").replaceChildren(...(tournaments.length ? tournaments.map(row)
      : [el("li", { class: "sub" }, t("to_none"))]));
  } catch (err) {
    $("to-list-error").textContent = t("load_failed");
  }
}

async function create(event) {
  event.preventDefault();
  $("to-create-error").textContent = "";
  const timer = $("to-timer").value;
  try {
    const made = await call("POST", "/api/tournaments", {
      name: $("to-name").value, preset: $("to-preset").value,
      rounds: Number($("to-rounds").value), format: "match",
      timer: timer === "" ? null : Number(timer),
    });
    location.assign(withLang(made.tournament.url));
  } catch (err) {
    $("to-create-error").textContent = err.message;
  }
}

async function start() {
  fillStatic();
  document.title = t("to_title");
  loadList();
  const account = await fetch("/api/account").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (!account || !account.player) {
    $("signed-out").hidden = false;
    return;
  }
  useSession(account);
  const options = await call("GET", "/api/options");
  $("to-preset").replaceChildren(...Object.keys(options.presets).map((name) =>
    el("option", { value: name }, presetWord(name))));
  $("to-timer").replaceChildren(...options.timers.map((n) =>
    el("option", { value: n === null ? "" : String(n) },
      n === null ? t("timer_none") : t("timer_seconds", { n }))));
  $("to-create-box").hidden = false;
  $("to-create").addEventListener("submit", create);
}

start();
