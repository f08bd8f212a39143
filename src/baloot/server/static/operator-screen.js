// The operators' page of the collusion screen: the latest kept run, the distribution of the
// pairs' accuracies, the pairs listed (each with its reviews and a form to mark it reviewed),
// then the others. The server answers operators alone: anyone else reads one line here.

import { isolateNumbers } from "./bidi.js";
import { $, el } from "./dom.js";
import { t, fillStatic, withLang, LANG } from "./i18n.js";
import { call, useSession } from "./session.js";
import { NOTE_LIMIT, histogramRows, noteProblem, percent, signedZ } from "./screen-figures.js";
import { playerLabel } from "./words.js";

function dateText(seconds) {
  const locale = LANG === "ar" ? "ar-SA-u-nu-latn-ca-gregory" : "en-GB";
  return new Date(seconds * 1000).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** A z-score as shown: signed, isolated left to right in Arabic; in words when it has none. */
function zText(z) {
  const shown = signedZ(z);
  if (shown === null) return t("op_z_none");
  return LANG === "ar" ? isolateNumbers(shown) : shown;
}

/** The two players of a pair, each linked to their profile (a deleted account in words). */
function pairNames(pair) {
  const names = pair.players.map((player) => (player.deleted ? t("deleted_player")
    : el("a", { href: withLang(player.profile) }, playerLabel(player.name))));
  return [names[0], " + ", names[1]];
}

function reviewItem(review) {
  return el("li", { class: "sub" }, t("op_reviewed", {
    by: review.by === null ? t("deleted_player") : playerLabel(review.by), date: dateText(review.at), note: review.note,
  }));
}

/** A listed pair: its names, its figures, how far out it is, its reviews, and the form that
 *  marks it reviewed. */
function listedItem(run, pair) {
  const reviews = el("ul", { class: "op-reviews" }, pair.reviews.map(reviewItem));
  const id = `op-note-${pair.pair}`;
  const note = el("textarea", { id, name: "note", rows: "2", maxlength: String(NOTE_LIMIT), required: true });
  const form = el("form", { class: "op-review", novalidate: true },
    el("label", { for: id }, t("op_review_label")), note,
    el("button", { type: "submit", class: "btn" }, t("op_review_btn")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = noteProblem(note.value);
    if (problem) {
      $("op-error").textContent = t(problem);
      return;
    }
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const made = await call("POST", "/api/operator/screen/reviews", { run: run.id, pair: pair.pair, note: note.value });
      reviews.prepend(reviewItem(made.review));
      note.value = "";
      $("op-error").textContent = "";
      $("op-status").textContent = t("op_review_done");
    } catch (err) {
      $("op-error").textContent = t("error_prefix") + err.message;
    } finally {
      button.disabled = false;
    }
  });
  return el("li", { class: "op-pair", "data-pair": String(pair.pair) },
    el("h3", { class: "op-pair-names" }, pairNames(pair)),
    el("p", {}, t("op_found", { hits: pair.hits, decisions: pair.decisions, accuracy: percent(pair.accuracy) })),
    el("p", {}, t("op_against", { others: percent(pair.others_accuracy), z: zText(pair.z) })),
    el("p", { class: "sub" }, t("op_hands", { hands: pair.hands, matches: pair.matches })),
    reviews, form);
}

function otherRow(pair) {
  return el("tr", { "data-pair": String(pair.pair) },
    el("td", {}, pairNames(pair)),
    el("td", {}, String(pair.hands)),
    el("td", {}, `${pair.hits}/${pair.decisions} (${percent(pair.accuracy)})`),
    el("td", {}, zText(pair.z)));
}

function showRun(answer) {
  const run = answer.run;
  $("op-no-run").hidden = run !== null;
  $("op-run").hidden = run === null;
  if (run === null) return;
  const people = run.population;
  $("op-when").textContent = t("op_when", { date: dateText(run.finished) });
  $("op-counts").textContent = t("op_counts", people);
  $("op-accuracy").textContent = t("op_accuracy", {
    accuracy: percent(people.accuracy), mean: percent(people.pair_accuracy_mean), sd: percent(people.pair_accuracy_sd),
  });
  $("op-rule").textContent = t("op_rule", {
    hands: run.thresholds.min_hands, z: run.thresholds.z, accuracy: percent(run.thresholds.accuracy),
  });
  $("op-histogram").replaceChildren(...histogramRows(people.histogram).map((row) =>
    el("tr", {},
      el("th", { scope: "row" }, el("bdi", { dir: "ltr" }, `${row.from}–${row.to}%`)),
      el("td", {}, `${row.count} `, el("span", { class: "op-bar", "aria-hidden": "true" }, row.bar)))));
  $("op-listed").replaceChildren(...(answer.listed.length ? answer.listed.map((pair) => listedItem(run, pair))
    : [el("li", { class: "sub" }, t("op_none_listed"))]));
  $("op-others").replaceChildren(...(answer.others.length ? answer.others.map(otherRow)
    : [el("tr", {}, el("td", { colspan: "4", class: "sub" }, t("op_none_others")))]));
  $("op-others-count").textContent = answer.others.length
    ? t("op_others_count", { shown: answer.others.length, total: answer.others_total }) : "";
}

async function start() {
  fillStatic();
  document.title = t("op_title");
  try {
    const account = await fetch("/api/account").then((r) => (r.ok ? r.json() : null));
    useSession(account);
    const response = await fetch("/api/operator/screen");
    if (response.status === 401 || response.status === 403) {
      $("op-error").textContent = t(response.status === 401 ? "op_sign_in" : "op_forbidden");
      $("op-sign-in").hidden = response.status !== 401;
      return;
    }
    if (!response.ok) throw new Error(String(response.status));
    $("op-screen").hidden = false;
    showRun(await response.json());
  } catch (err) {
    $("op-error").textContent = t("load_failed");
  }
}

start();
