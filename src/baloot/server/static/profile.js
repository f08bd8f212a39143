// A player's profile: their ratings, the history of each as a plot drawn here in SVG (no
// inline style: the CSP forbids it), their statistics and their last matches.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang, LANG } from "./i18n.js";
import { LISTED_SEATS, botPlayer } from "./protocol.js";
import { playerLabel, presetWord } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 160;
const PAD = 24;

/** An SVG element with attributes (the plot's only builder). */
function shape(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/** A rating as shown: its value, with "?" while provisional. */
function ratingText(rating) {
  return `${rating.rating}${rating.provisional ? t("provisional_mark") : ""}`;
}

/** The plot of one preset's rating after each rated match, oldest on the start side. The line
 *  starts where the player stood before the first of them (a new player's 0), so that one
 *  match already draws how the rating moved; each match is a point on it. */
function plot(preset, points) {
  const first = points[0];
  const start = first ? Math.round((first.rating - first.change) * 10) / 10 : 0;
  const values = [start, ...points.map((point) => point.rating)];
  // Whole numbers at both ends of the scale, with 0 (the start of every rating) within it.
  const low = Math.floor(Math.min(...values, 0));
  const high = Math.ceil(Math.max(...values, 0, low + 1));
  const along = (i) => PAD + (i * (WIDTH - 2 * PAD)) / Math.max(1, values.length - 1);
  const x = (i) => (LANG === "ar" ? WIDTH - along(i) : along(i)); // time runs from the start side
  const y = (v) => HEIGHT - PAD - ((v - low) * (HEIGHT - 2 * PAD)) / (high - low);
  const label = t("profile_plot_label", { preset: presetWord(preset) });
  // The scale's figures stand on the side time starts from, read left to right (a minus
  // before its number, in Arabic too).
  const edge = LANG === "ar" ? { x: WIDTH - 2, "text-anchor": "end" } : { x: 2, "text-anchor": "start" };
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const svg = shape("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label, class: "plot" },
    shape("title", {}, label),
    shape("line", { x1: PAD, y1: y(0), x2: WIDTH - PAD, y2: y(0), class: "plot-zero" }),
    shape("polyline", { points: line, class: "plot-line" }),
    ...points.map((point, i) => shape("circle", { cx: x(i + 1), cy: y(point.rating), r: 3, class: "plot-point" })),
    ...[[14, high], [HEIGHT - 6, low]].map(([at, value]) =>
      shape("text", { ...edge, direction: "ltr", y: at, class: "plot-label" }, String(value))));
  return el("figure", { class: "plot-figure", "data-preset": preset }, svg, el("figcaption", { class: "sub" }, label));
}

/** One seat of a match: an account's name, linked to its profile; a deleted account, a bot
 *  or a guest in words. */
function seatPart(player) {
  if (player.deleted) return t("deleted_player");
  if (player.name) {
    return el("a", { href: withLang(`/players/${encodeURIComponent(player.name)}`) }, playerLabel(player.name));
  }
  if (player.bot) return playerLabel(botPlayer(player.bot));
  return t("guest_named", { name: playerLabel(player.guest) });
}

function matchItem(match) {
  const result = match.won === null ? t("status_closed") : t(match.won ? "match_won" : "match_lost");
  const players = LISTED_SEATS.flatMap((seat, i) =>
    [i ? " · " : "", `${t("seat_" + seat)}: `, seatPart(match.players[seat])]);
  const change = match.rated
    ? t("rating_change", { change: `${match.rated.change > 0 ? "+" : ""}${match.rated.change}` }) : null;
  return el("li", { "data-match": match.id },
    el("span", { class: "match-result" }, result),
    el("span", { class: "players" }, ...players),
    change ? el("span", { class: "sub rating-change" }, change) : null,
    match.record ? el("a", { class: "btn", href: match.record, download: `${match.id}.baloot` }, t("download_record")) : null,
    match.analysis ? el("a", { class: "btn", href: withLang(match.analysis) }, t("analysis_link")) : null);
}

function statItems(stats) {
  const kinds = { hokum: t("contract_hokum"), sun: t("contract_sun"), ashkal: t("contract_ashkal") };
  const items = Object.entries(kinds).map(([kind, word]) =>
    t("stat_taken_made", { kind: word, taken: stats.contracts[kind].taken, made: stats.contracts[kind].made }));
  items.push(t("stat_kaboots", { kaboot: t("kaboot"), n: stats.kaboots }));
  items.push(t("stat_projects", { projects: t("row_projects"), n: stats.projects }));
  items.push(t("stat_hands", { n: stats.hands }));
  if (stats.average_points !== null) {
    items.push(t("stat_average", { points: t("row_game_points"), n: stats.average_points }));
  }
  return items.map((text) => el("li", {}, text));
}

async function start() {
  fillStatic();
  const name = decodeURIComponent(location.pathname.split("/").pop());
  document.title = `${name} · ${t("app_name")}`;
  $("player-name").textContent = name;
  try {
    const response = await fetch(`/api/players/${encodeURIComponent(name)}`);
    if (response.status === 404) {
      $("profile-error").textContent = t("profile_unknown");
      return;
    }
    if (!response.ok) throw new Error(String(response.status));
    const profile = await response.json();
    $("player-name").textContent = profile.name;
    const presets = Object.entries(profile.ratings);
    $("ratings").replaceChildren(...(presets.length
      ? presets.map(([preset, rating]) => el("li", { "data-preset": preset },
        t("profile_rating_line", { preset: presetWord(preset), rating: ratingText(rating), n: rating.matches })))
      : [el("li", { class: "sub" }, t("profile_no_rating"))]));
    $("plots").replaceChildren(...presets.map(([preset]) =>
      plot(preset, profile.history.filter((point) => point.preset === preset))));
    $("stats").replaceChildren(...statItems(profile.statistics));
    $("matches").replaceChildren(...(profile.matches.length
      ? profile.matches.map(matchItem) : [el("li", { class: "sub" }, t("no_matches"))]));
  } catch (err) {
    $("profile-error").textContent = t("load_failed");
  }
}

start();
