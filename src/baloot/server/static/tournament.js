// A tournament: its current round's tables (a link to watch each, and to my own seat), its
// standings with their tie-breaks, its pairs (register, accept, withdraw) and, for its
// organiser, the start. Asked again every few seconds: asking also makes the round's tables.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang } from "./i18n.js";
import { presetWord } from "./words.js";
import { call, useSession, signedIn } from "./session.js";
import { followScrolling } from "./scrollhint.js";

/** How often the tournament is asked again while it runs (ms). */
const EVERY = 3000;
const ID = decodeURIComponent(location.pathname.split("/").pop());
const PATH = `/api/tournaments/${encodeURIComponent(ID)}`;

// Each name isolated on its own, so that a Latin name keeps its place in Arabic and the
// other way round.
const pairName = (players) => el("span", { class: "pair-name" },
  el("bdi", {}, players[0]), ` ${t("to_and")} `, el("bdi", {}, players[1]));

function tableRow(table) {
  const result = table.ns_points === null ? t("to_playing")
    : t("to_result", { ns: table.ns_points, ew: table.ew_points });
  const links = [];
  if (table.watch) links.push(el("a", { class: "btn", href: withLang(table.watch) }, t("to_watch")));
  if (table.url) links.push(el("a", { class: "btn primary", href: withLang(table.url), "data-my-seat": "" }, t("qm_go")));
  return el("li", { "data-table": table.table || "" },
    el("span", {}, t("to_table_no", { n: table.table_no }), " "),
    pairName(table.ns.players), el("span", { class: "sub" }, ` ${t("to_versus")} `), pairName(table.ew.players),
    el("span", { class: "sub" }, ` · ${result} `), ...links);
}

function standingRow(row) {
  return el("tr", { "data-pair": row.pair },
    el("td", {}, String(row.rank)),
    el("td", {}, pairName(row.players), row.withdrawn ? el("span", { class: "sub" }, ` ${t("to_withdrawn")}`) : ""),
    el("td", {}, String(row.score)),
    el("td", {}, String(row.buchholz)),
    el("td", {}, String(row.sonneborn_berger)));
}

function pairRow(pair, state) {
  const buttons = [];
  if (pair.asks_me) buttons.push(el("button", { type: "button", class: "btn primary", "data-accept": pair.id, onclick: () => act("POST", `${PATH}/pairs/${pair.id}/accept`) }, t("to_accept")));
  if (pair.mine && state !== "over" && pair.withdrawn === null) {
    buttons.push(el("button", { type: "button", class: "btn", "data-withdraw": pair.id, onclick: () => act("DELETE", `${PATH}/pairs/${pair.id}`) }, t(pair.state === "asked" && pair.asks_me ? "to_decline" : "to_withdraw")));
  }
  const note = pair.state === "asked" ? t("to_asked") : pair.withdrawn !== null ? t("to_withdrawn")
    : pair.joined > 1 ? t("to_late", { n: pair.joined }) : "";
  return el("li", { "data-pair": pair.id }, pairName(pair.players), el("span", { class: "sub" }, note ? ` · ${note} ` : " "), ...buttons);
}

function show(answer) {
  const { tournament, pairs, standings, current } = answer;
  $("to-heading").textContent = tournament.name;
  document.title = tournament.name;
  $("to-summary").textContent = t(tournament.state === "open" ? "to_summary_open" : "to_summary", {
    organiser: tournament.organiser, preset: presetWord(tournament.preset),
    state: t("to_state_" + tournament.state), round: tournament.round, rounds: tournament.rounds,
  });
  $("to-round-box").hidden = tournament.state === "open";
  $("to-round-title").textContent = t("to_round", { n: current.round, rounds: tournament.rounds });
  $("to-tables").replaceChildren(...current.tables.map(tableRow));
  $("to-bye").replaceChildren(...(current.bye
    ? [`${t("to_bye")} `, pairName(current.bye.players), ` ${t("to_bye_points")}`] : []));
  $("to-standings-box").hidden = !standings.length;
  $("to-standings-rows").replaceChildren(...standings.map(standingRow));
  $("to-pairs").replaceChildren(...(pairs.length ? pairs.map((p) => pairRow(p, tournament.state))
    : [el("li", { class: "sub" }, t("to_no_pairs"))]));
  const inPair = pairs.some((p) => p.mine && p.withdrawn === null && !(p.asks_me));
  $("to-register").hidden = !signedIn() || tournament.state === "over" || inPair;
  $("to-signed-out").hidden = signedIn();
  $("to-start").hidden = !(tournament.organiser_is_me && tournament.state === "open");
  followScrolling();
}

async function act(method, path, body) {
  $("to-error").textContent = "";
  try {
    show(await call(method, path, body));
  } catch (err) {
    $("to-error").textContent = err.message;
  }
}

async function load() {
  try {
    const answer = await call("GET", PATH);
    show(answer);
    if (answer.tournament.state !== "over") setTimeout(load, EVERY);
  } catch (err) {
    $("to-error").textContent = err.message;
  }
}

async function start() {
  fillStatic();
  const account = await fetch("/api/account").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (account && account.player) useSession(account);
  $("to-register").addEventListener("submit", (event) => {
    event.preventDefault();
    const partner = $("to-partner").value.trim();
    if (partner) act("POST", `${PATH}/pairs`, { partner });
  });
  $("to-start").addEventListener("click", () => act("POST", `${PATH}/start`));
  load();
}

start();
