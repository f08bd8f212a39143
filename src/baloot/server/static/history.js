// History: every finished or closed match, with its result and its record.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang, LANG } from "./i18n.js";
import { playersText } from "./words.js";

function resultText(match) {
  const totals = match.totals;
  const score = totals
    ? t("score_pair", { a: t("team_NS"), x: totals.NS, b: t("team_EW"), y: totals.EW }) : "";
  if (match.winner) return `${t("winner_team", { team: t("team_" + match.winner) })} ${score}`;
  return `${t("status_closed")}${score ? " · " + score : ""}`;
}

function dateText(seconds) {
  if (!seconds) return "";
  const locale = LANG === "ar" ? "ar-SA-u-nu-latn-ca-gregory" : "en-GB";
  return new Date(seconds * 1000).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

async function start() {
  fillStatic();
  document.title = t("history_title");
  const list = $("matches");
  try {
    const response = await fetch("/api/matches");
    if (!response.ok) throw new Error(String(response.status));
    const { matches } = await response.json();
    if (!matches.length) {
      list.replaceChildren(el("li", { class: "sub" }, t("no_matches")));
      return;
    }
    list.replaceChildren(...matches.map((match) => el("li", { "data-match": match.id },
      el("span", { class: "match-result" }, resultText(match)),
      el("span", { class: "players" }, playersText(match.players)),
      el("time", { class: "match-date", datetime: match.finished ? new Date(match.finished * 1000).toISOString() : null }, dateText(match.finished)),
      match.record
        ? el("a", { class: "btn", href: match.record, download: `${match.id}.baloot` }, t("download_record"))
        : null,
      match.analysis
        ? el("a", { class: "btn", href: withLang(match.analysis), "data-analysis": match.id }, t("analysis_link"))
        : null)));
  } catch (err) {
    $("history-error").textContent = t("load_failed");
  }
}

start();
