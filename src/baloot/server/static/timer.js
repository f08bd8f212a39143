// The table's countdowns, drawn from the server's deadline (baloot-table/1: `deadline` and
// `now`). The page never keeps time of its own: every countdown is the deadline's `at` minus
// the server's clock as the connection knows it, so a reload mid-turn shows the time really
// left. A countdown is an element carrying its deadline in data attributes; tickCountdowns()
// updates them all in place (several times a second) without redrawing the table.

import { el } from "./dom.js";

const RADIUS = 15;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;
const SVG = "http://www.w3.org/2000/svg";
const LOW_SECONDS = 5;

// The time a deadline allowed, in ms, as first seen (its key → ms left then): the ring shows
// the share left of it. A turn timer's length is known from the table's description.
const allowed = new Map();

function keyOf(deadline) {
  return `${deadline.kind}:${deadline.seat}:${deadline.at}`;
}

/** Whole seconds left before `deadline` by the server's clock `nowMs` (never below 0). */
export function secondsLeft(deadline, nowMs) {
  return Math.max(0, Math.ceil((deadline.at - nowMs) / 1000));
}

/**
 * A countdown for `deadline`: a ring with the seconds left in it (`ring`), or a plain number
 * in a sentence. `label(s)` words it for screen readers; `totalMs` is the time the deadline
 * allowed when the page knows it (a turn timer), else the time left when first seen.
 */
export function countdown(deadline, nowMs, { ring = false, totalMs = null, label = (s) => String(s) } = {}) {
  const key = keyOf(deadline);
  if (!allowed.has(key)) allowed.set(key, Math.max(1, totalMs ?? deadline.at - nowMs));
  const node = el("span", {
    class: ring ? "deadline-ring" : "deadline-count",
    role: "timer",
    "data-deadline-at": deadline.at,
    "data-deadline-total": allowed.get(key),
    "data-deadline-kind": deadline.kind,
  });
  node.labelOf = label;
  if (ring) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 36 36");
    svg.setAttribute("aria-hidden", "true");
    for (const cls of ["track", "left"]) {
      const circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("cx", "18");
      circle.setAttribute("cy", "18");
      circle.setAttribute("r", String(RADIUS));
      circle.setAttribute("class", cls);
      svg.append(circle);
    }
    node.append(svg, el("span", { class: "seconds" }));
  }
  update(node, nowMs);
  return node;
}

function update(node, nowMs) {
  const at = Number(node.dataset.deadlineAt);
  const total = Number(node.dataset.deadlineTotal);
  const left = secondsLeft({ at }, nowMs);
  const share = Math.min(1, Math.max(0, (at - nowMs) / total));
  node.classList.toggle("low", left <= LOW_SECONDS);
  node.setAttribute("aria-label", node.labelOf ? node.labelOf(left) : String(left));
  const seconds = node.querySelector(".seconds");
  if (seconds) {
    seconds.textContent = String(left);
    node.querySelector("circle.left").setAttribute("stroke-dasharray", `${share * CIRCUMFERENCE} ${CIRCUMFERENCE}`);
  } else {
    node.textContent = node.labelOf ? node.labelOf(left) : String(left);
  }
}

/** Brings every countdown of the page to the server's clock `nowMs`. */
export function tickCountdowns(nowMs, root = document) {
  for (const node of root.querySelectorAll("[data-deadline-at]")) update(node, nowMs);
}
