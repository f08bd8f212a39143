// The end of a match: Rematch and New match under the result.
//
// A rematch is the same seats at a new table (POST /api/tables/ID/rematch, baloot.server.rematch):
// made once, by whichever person asks first, and each person's own token is their seat there,
// so a seat's link to the rematch is its link here with the table's id changed. The page of
// every seat and spectator of the finished table asks its description (GET /api/tables/ID)
// every few seconds and, once it names its `rematch`, offers to join it (or to watch it). So
// does the page of a finished table that is no longer served (reopened later, from "my
// tables"): its seat may still make the rematch.

import { el } from "./dom.js";
import { t, withLang } from "./i18n.js";
import { remember } from "./mytables.js";
import { rememberCommitment } from "./fair.js";

/** How often a finished table's page looks for its rematch, in ms. */
const LOOK_MS = 3000;

function seatLink(table, token) {
  const path = `/t/${encodeURIComponent(table)}`;
  return withLang(token ? `${path}?token=${encodeURIComponent(token)}` : path);
}

/** The rematch of the finished table `tableId`, made (or found) for the seat of `token`: its
 *  id, remembered among this browser's tables; an Error says why it could not be made. */
export async function askRematch(tableId, token) {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || String(response.status));
  rememberCommitment(answer.table, answer.fair); // its first deal's, before its seats speak
  remember(answer.table, token);
  return answer.table;
}

/**
 * The buttons under a finished match's result: Rematch (for a seat) and New match (the
 * lobby), and, once someone of the table made the rematch, the way to it. `tableId` is the
 * finished table, `token` the page's seat token (null for a spectator), `known` its rematch
 * when the page already knows it.
 */
export function resultActions(tableId, token, known = null) {
  const note = el("p", { class: "rematch-note", "aria-live": "polite" });
  const buttons = el("div", { class: "result-buttons" });
  const join = (again) => {
    if (token) remember(again, token);
    const link = el("a", { id: "join-rematch", class: "btn primary", href: seatLink(again, token) },
      t(token ? "rematch_join" : "rematch_watch"));
    buttons.replaceChildren(link, newMatch());
    note.textContent = t("rematch_ready");
  };
  if (token) {
    const rematch = el("button", { type: "button", id: "rematch", class: "btn primary" }, t("rematch"));
    rematch.addEventListener("click", async () => {
      rematch.disabled = true;
      note.textContent = "";
      try {
        location.assign(seatLink(await askRematch(tableId, token), token));
      } catch (err) {
        rematch.disabled = false;
        note.textContent = t("rematch_failed", { error: err.message });
      }
    });
    buttons.append(rematch);
  }
  buttons.append(newMatch());
  if (known) join(known);
  else lookForRematch(tableId, join);
  return el("div", { class: "result-actions" }, buttons, note);
}

/** What a finished match's page says once the table is no longer served: the match is over,
 *  its rematch (Rematch for a seat, or the way to it once made), its record and the history.
 *  `info` is its description. */
export function finishedNotice(tableId, token, info) {
  const links = [
    el("a", { class: "btn", href: `/api/matches/${encodeURIComponent(tableId)}/record`, download: "" }, t("record_link")),
    el("a", { class: "btn", href: withLang("/history") }, t("history_link")),
  ];
  return el("div", { class: "finished-notice" },
    el("p", {}, el("strong", {}, t("match_finished"))),
    resultActions(tableId, token, info.rematch || null),
    el("div", { class: "result-buttons" }, links));
}

function newMatch() {
  return el("a", { id: "new-match", class: "btn", href: withLang("/") }, t("new_match"));
}

/** Asks the finished table's description until it names a rematch, then `found(id)`. */
async function lookForRematch(tableId, found) {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
    const described = response.ok ? await response.json() : {};
    if (described.rematch) {
      found(described.rematch);
      return;
    }
  } catch (err) {
    // the server is away for now: look again
  }
  setTimeout(() => lookForRematch(tableId, found), LOOK_MS);
}
