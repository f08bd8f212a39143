// The table page: what one seat (or a spectator) sees, and its decisions sent. The page is a
// controller (table-controller.js: the table's messages, the page's state, what is sent) and a
// view (table-view.js: the state drawn); this module puts them together with the connection,
// the pacer, the sounds and the page's clock, and starts them.

import { fillStatic, LANG, t } from "./i18n.js";
import { TableConnection } from "./net.js";
import { Pacer, animate, feltState } from "./motion.js";
import { sounds, soundSwitch } from "./sound.js";
import { remember as rememberSeat } from "./mytables.js";
import { followDock } from "./dock.js";
import { EntropyGiver } from "./fair.js";
import { tickCountdowns } from "./timer.js";
import { TableController } from "./table-controller.js";
import { TableView } from "./table-view.js";

/** How often the countdowns are brought to the server's clock, in ms. */
const CLOCK_MS = 250;

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = new URLSearchParams(location.search).get("token");

const link = new TableConnection(tableId, token, (kind, message) => controller.heard(kind, message));
// A seat's bytes for each deal go as soon as its commitment is heard, not when it is shown.
const giver = new EntropyGiver(tableId, token, link);
const controller = new TableController({
  tableId, token, lang: LANG, link, giver,
  page: {
    sounds,
    rememberSeat,
    /** A frame drawn, then what is new on the felt and in the hand moved. */
    moving(kind, dealer, draw) {
      const before = feltState();
      draw();
      animate(before, kind, (seat) => view.seatBox(seat), dealer);
    },
    scrollTop: () => window.scrollTo({ top: 0 }),
  },
});
const view = new TableView(controller);
controller.render = () => view.render();
controller.pacer = new Pacer((kind, message, previous) => controller.shown(kind, message, previous), (seat) => view.seatBox(seat));

async function start() {
  fillStatic();
  document.querySelector(".topbar .nav").prepend(soundSwitch(t));
  followDock();
  document.title = `${t("table_title")} · ${tableId}`;
  if (!(await controller.load())) return;
  view.startTalk();
  link.connect();
  setInterval(() => {
    const now = link.serverNow();
    tickCountdowns(now);
    controller.tick(now);
  }, CLOCK_MS);
}

start();
