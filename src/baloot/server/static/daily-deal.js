// A daily deal once its day is over: the four hands, the field with my row marked, the
// histogram of matchpoints, and my own decisions as the exact solver judges them.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang } from "./i18n.js";
import { cardElement, sortHand } from "./cards.js";
import { SEATS, readAction } from "./protocol.js";
import { actionLabel, contractText, playerLabel } from "./words.js";
import { call } from "./session.js";
import { histogramRows } from "./screen-figures.js";
import { leftToRight } from "./bidi.js";

const parts = location.pathname.split("/").filter(Boolean); // daily, DATE, DEAL
const date = decodeURIComponent(parts[1] || "");
const dealNumber = Number(parts[2] || 0);
const DEALS = 8;
const seatName = (seat) => t("seat_" + seat);

function contractWords(contract) {
  return contract ? contractText({ contract, phase: "over" }, seatName) : t("daily_no_contract");
}

function dealLinks() {
  const links = [];
  for (let n = 1; n <= DEALS; n++) {
    links.push(n === dealNumber
      ? el("strong", { "aria-current": "page" }, String(n))
      : el("a", { href: withLang(`/daily/${date}/${n}`), "data-deal": String(n) }, String(n)));
  }
  $("deal-links").replaceChildren(el("span", { class: "sub" }, t("daily_deals_of", { date: leftToRight(date) })), ...links);
}

function showHands(hands) {
  $("deal-about").textContent = t("daily_hands_about", {
    instance: hands.instance,
    seat: hands.taker ? seatName(hands.taker) : "—",
  });
  $("deal-hands").replaceChildren(...SEATS.map((seat) => el("div", { class: "daily-seat", "data-seat": seat },
    el("h3", {}, seatName(seat)),
    el("div", { class: "daily-cards" }, ...sortHand(hands.seats[seat], hands.trump).map((card) => cardElement(card))))));
  $("deal-hands-panel").hidden = false;
}

function showField(answer) {
  $("deal-field-rows").replaceChildren(...answer.field.map((row) => el("tr", row.me ? { class: "daily-me", "aria-current": "true" } : {},
    el("td", {}, playerLabel(row.name)), el("td", {}, contractWords(row.contract)),
    el("td", {}, el("bdi", { dir: "ltr" }, String(row.score))), el("td", {}, String(row.matchpoints)))));
  $("deal-histogram").replaceChildren(...histogramRows(answer.histogram).map((row, tenth) => el("li", { "data-tenth": String(tenth) },
    el("span", { class: "daily-bin" }, `${row.from}–${row.to}`),
    el("span", { class: "daily-bar", "aria-hidden": "true" }, row.bar),
    el("span", { class: "daily-count" }, String(row.count)))));
  $("deal-field-panel").hidden = false;
  $("deal-secret").textContent = t("daily_secret", { secret: leftToRight(answer.secret), commitment: leftToRight(answer.commitment) });
}

function lossText(decision) {
  if (decision.loss === null || decision.loss === undefined) return "";
  return decision.loss === 0 ? "0" : `−${decision.loss}${decision.symbol ? " " + decision.symbol : ""}`;
}

async function showMine(mine) {
  const judged = await call("GET", `/api/daily/${date}/${dealNumber}/analysis`);
  $("deal-mine-about").textContent = t("daily_mine_about", { score: mine.score ?? "—", instance: mine.instance });
  $("deal-mine-rows").replaceChildren(...judged.decisions.map((d) => el("tr", { class: d.mark ? "mark-" + d.mark : "" },
    el("td", {}, actionLabel(readAction(d.action), null)),
    el("td", {}, d.best === d.action ? "✓" : actionLabel(readAction(d.best), null)),
    el("td", {}, el("bdi", { dir: "ltr" }, lossText(d))))));
  $("deal-mine-panel").hidden = false;
}

async function begin() {
  fillStatic();
  const title = t("daily_deal_title", { n: dealNumber, date: leftToRight(date) });
  document.title = title;
  $("deal-title").textContent = title;
  dealLinks();
  try {
    const answer = await call("GET", `/api/daily/${date}/${dealNumber}`);
    showHands(answer.hands);
    showField(answer);
    if (answer.mine) await showMine(answer.mine);
  } catch (err) {
    $("deal-error").textContent = err.message || t("load_failed");
  }
}

begin();
