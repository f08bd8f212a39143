// The hand's dock: on every screen the hand sits at the bottom, in the thumb's reach; the
// buttons that come and go (a declaration, Ekka, the calls) open above it without moving it,
// and the prompt ("Your turn") above them, always in view. The page keeps room under its
// content for the dock: its height, followed as it changes.

import { $ } from "./dom.js";

/** Keeps --hand-h (the hand's height), --actions-top (the hand's and the buttons') and
 *  --dock-h (all of the dock's, the prompt's included) up to date. */
export function followDock() {
  const hand = $("hand");
  const actions = $("actions");
  const prompt = $("prompt");
  const root = document.documentElement.style;
  const height = (box) => (box.hidden ? 0 : box.offsetHeight);
  const update = () => {
    const handHeight = height(hand);
    const actionsTop = handHeight + height(actions);
    root.setProperty("--hand-h", `${handHeight}px`);
    root.setProperty("--actions-top", `${actionsTop}px`);
    root.setProperty("--dock-h", `${actionsTop + height(prompt)}px`);
  };
  if (window.ResizeObserver) {
    const watcher = new ResizeObserver(update);
    for (const box of [hand, actions, prompt]) watcher.observe(box);
  }
  update();
}
