// The end of a match: the result worth looking at, Rematch and New match.
//
// A rematch is a new table made through the ordinary POST /api/tables with what anyone may
// know of this one (GET /api/tables/ID): the same seats, names, rules, timer and publicity.
// Its answer holds every human seat's token; the page that asked keeps its own seat's and,
// at a table with other people, shows their links to send on, as the lobby does for a new
// table — a token is only ever given to whoever made the table.

import { el } from "./dom.js";
import { t, withLang } from "./i18n.js";
import { LISTED_SEATS } from "./protocol.js";
import { remember } from "./mytables.js";

/** The request of a new table like the one `info` describes (GET /api/tables/ID). */
export function rematchRequest(info) {
  const seats = {};
  const names = {};
  for (const seat of LISTED_SEATS) {
    const player = info.players[seat];
    if (info.humans.includes(seat)) {
      seats[seat] = "human";
      if (player && player !== seat) names[seat] = player;
    } else {
      seats[seat] = player;
    }
  }
  return { rules: info.rules, seats, names, timer: info.timer, public: info.public };
}

async function makeRematch(info) {
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(rematchRequest(info)),
  });
  const answer = await response.json().catch(() => ({}));
  if (response.status !== 201) throw new Error(answer.error || String(response.status));
  return answer;
}

function linkRow(label, url) {
  const input = el("input", { type: "text", readonly: true, value: url, "aria-label": label,
    onfocus: (e) => e.target.select() });
  return el("div", { class: "link-row" }, el("span", {}, label), input);
}

/**
 * The buttons under a finished match's result: Rematch (for a seat, when the table's
 * description is known) and New match (the lobby). `seat` is the page's seat or null.
 */
export function resultActions(info, seat) {
  const box = el("div", { class: "result-actions" });
  const note = el("div", { class: "rematch-note", "aria-live": "polite" });
  const buttons = [];
  if (seat && info && info.players && Array.isArray(info.humans)) {
    const rematch = el("button", { type: "button", id: "rematch", class: "btn primary" }, t("rematch"));
    rematch.addEventListener("click", async () => {
      rematch.disabled = true;
      note.replaceChildren();
      try {
        const answer = await makeRematch(info);
        const mine = answer.seats[seat];
        remember(answer.table, mine.token);
        const others = Object.keys(answer.seats).filter((s) => s !== seat);
        if (!others.length) {
          location.assign(withLang(mine.url));
          return;
        }
        note.replaceChildren(
          el("p", {}, t("rematch_links")),
          ...others.map((s) => linkRow(t("seat_link", { seat: t("seat_" + s) }), location.origin + answer.seats[s].url)),
          el("a", { class: "btn primary", href: withLang(mine.url) }, t("go_seat", { seat: t("seat_" + seat) })));
      } catch (err) {
        rematch.disabled = false;
        note.textContent = t("rematch_failed", { error: err.message });
      }
    });
    buttons.push(rematch);
  }
  buttons.push(el("a", { id: "new-match", class: "btn", href: withLang("/") }, t("new_match")));
  box.append(el("div", { class: "result-buttons" }, buttons), note);
  return box;
}
