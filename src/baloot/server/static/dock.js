// The hand's dock: on every screen the hand sits at the bottom, in the thumb's reach, and the
// buttons that come and go (a declaration, Ekka, the calls) open above it without moving it.
// The page keeps room under its content for the dock: its height, followed as it changes.

import { $ } from "./dom.js";

/** Keeps --hand-h (the hand's height) and --dock-h (the hand's and the buttons') up to date. */
export function followDock() {
  const hand = $("hand");
  const actions = $("actions");
  const root = document.documentElement.style;
  const update = () => {
    const handHeight = hand.hidden ? 0 : hand.offsetHeight;
    const actionsHeight = actions.hidden ? 0 : actions.offsetHeight;
    root.setProperty("--hand-h", `${handHeight}px`);
    root.setProperty("--dock-h", `${handHeight + actionsHeight}px`);
  };
  if (window.ResizeObserver) {
    const watcher = new ResizeObserver(update);
    watcher.observe(hand);
    watcher.observe(actions);
  }
  update();
}
