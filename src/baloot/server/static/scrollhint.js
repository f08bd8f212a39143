// A table wider than the screen says so: each `.scroll` box whose content overflows gets a
// line above it ("scroll sideways"), and is focusable so that a keyboard can scroll it too.

import { el } from "./dom.js";
import { t } from "./i18n.js";

function mark(box) {
  const wide = box.scrollWidth > box.clientWidth + 1;
  const hint = box.previousElementSibling && box.previousElementSibling.classList.contains("scroll-hint")
    ? box.previousElementSibling : null;
  if (wide && !hint) box.before(el("p", { class: "scroll-hint" }, t("scroll_hint")));
  if (!wide && hint) hint.remove();
  if (wide) box.setAttribute("tabindex", "0");
  else box.removeAttribute("tabindex");
}

/** Marks every `.scroll` box of the page now, and again whenever the window's width changes. */
export function followScrolling() {
  const all = () => document.querySelectorAll(".scroll").forEach(mark);
  all();
  if (!followScrolling.listening) {
    followScrolling.listening = true;
    window.addEventListener("resize", all);
  }
}
