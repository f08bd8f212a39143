// The table page's controller: the table's messages turned into changes of the page's state
// (table-state.js), one handler per message type of baloot-table/1, and the decisions sent.
//
// The connection hears every message at once (net.js); the page shows the numbered ones
// through the pacer, at a pace the eye follows (motion.js), and handles a frame when it is
// shown: the state takes the frame, its message's handler changes the rest, and `render`
// draws the whole state (table-view.js). Every change is explicit and followed by a render.
// Nothing here touches the page: the connection, the pacer, the sounds, fetch and the page's
// few effects come in from outside, so that Node's tests run the controller without a browser.

import { PHASE, readAction, turnComes } from "./protocol.js";
import { checkReveal, rememberCommitment } from "./fair.js";
import { BUBBLE_MS } from "./talk.js";
import { secondsLeft } from "./timer.js";
import { initialState, mySeat, seatDeadline, sheetSeat, usThem } from "./table-state.js";

/** What the page does with each message type of baloot-table/1 (docs/table-protocol.md), once the
 *  message is shown (a numbered one) or heard (an answer): `handler(controller, message)`. */
export const HANDLERS = Object.freeze({
  snapshot(ctl, message) {
    ctl.keepCommitment();
    ctl.state.pending = false;
    ctl.takeDeadline(message);
    ctl.changed();
  },
  event(ctl, message) {
    const state = ctl.state;
    state.pending = false;
    if (message.action && readAction(message.action).seat === mySeat(state)) {
      // Our own decision is in: its line goes, or says that the time ran out for it.
      state.notice = message.timeout ? { kind: "timed_out", action: message.action, view: state.view } : null;
    }
    ctl.takeDeadline(message);
    ctl.changed();
  },
  "hand-over"(ctl, message) {
    ctl.keepCommitment();
    if (message.fair) ctl.checkDeal(message.fair, message.view);
    ctl.state.pending = false;
    ctl.takeDeadline(message);
    ctl.changed();
  },
  deal(ctl, message) {
    ctl.keepCommitment();
    Object.assign(ctl.state, { pending: false, notice: null, showLast: false });
    ctl.takeDeadline(message);
    ctl.changed();
  },
  seat(ctl, message) {
    ctl.takeDeadline(message);
    ctl.changed();
  },
  said(ctl, message) {
    ctl.takeDeadline(message);
    ctl.later(() => ctl.changed(), BUBBLE_MS + 50); // its bubble goes
    ctl.changed();
  },
  ack() {
    // A decision taken: its event (or, for an undo, a snapshot) follows and says what changed.
  },
  reject(ctl, message) {
    ctl.state.pending = false;
    ctl.state.notice = { kind: "rejected", message };
    ctl.changed();
  },
  hint(ctl, message) {
    ctl.state.pending = false;
    ctl.showHint(message);
  },
  pong() {
    // The connection sets its clock from it (net.js): nothing to show.
  },
});

export class TableController {
  /**
   * `link` is the table's connection (net.js), `pacer` the frames it shows (motion.js, set
   * once made: it calls `shown`), `giver` the seat's entropy (fair.js). `page` holds what the
   * controller asks of the page and the browser: `sounds`, `rememberSeat(table, token, seat)`,
   * `moving(kind, dealer, draw)` (draws a frame and moves what is new), `scrollTop()`, and
   * `fetch`, `later(fn, ms)` and `log` (console) where a test gives its own.
   */
  constructor({ tableId, token, lang, link, giver, page }) {
    this.state = initialState(tableId, token);
    this.lang = lang;
    this.link = link;
    this.giver = giver;
    this.pacer = null;
    this.page = page;
    this.render = () => {};
    this.fetch = page.fetch || ((...args) => fetch(...args));
    this.later = page.later || ((fn, ms) => setTimeout(fn, ms));
    this.log = page.log || console;
  }

  // ---------------------------------------------------------------- messages

  /** Everything the connection says, as it says it: a numbered message goes to the pacer, to
   *  be handled when shown; an answer, or the connection's own news ("status"), at once. */
  heard(kind, message) {
    if (this.giver) this.giver.heard(kind, message);
    if (message && typeof message.v === "number") this.pacer.push(kind, message, this.link);
    else if (kind === "status") this.changed();
    else this.dispatch(kind, message);
  }

  /** A frame of the pacer is shown: the state takes it, it is drawn and moved, then heard
   *  and scrolled to. `previous` is the frame shown before it: the turn that comes is told
   *  once, when it is shown, and again each time it comes back. */
  shown(kind, message, previous) {
    const state = this.state;
    const frame = this.pacer.shown;
    state.view = frame.view;
    state.match = frame.match;
    state.seats = frame.seats;
    const { sounds } = this.page;
    this.page.moving(kind, state.view ? state.view.dealer : null, () => this.dispatch(kind, message));
    if (kind === "event" && message.action && readAction(message.action).verb === "play") sounds.card();
    if (turnComes(previous.view, state.view)) sounds.yourTurn();
    if (kind === "hand-over" && mySeat(state) && state.view.result) {
      const { us, them } = usThem(state);
      if (state.view.result.score[us] > state.view.result.score[them]) sounds.handWon();
    }
    if (kind === "snapshot" && state.token && mySeat(state)) this.page.rememberSeat(state.tableId, state.token, mySeat(state));
    // A new hand starts at the top: the score, the contract and the felt in view.
    if (kind === "deal") this.page.scrollTop();
  }

  /** The message's handler; a type this page does not know is ignored, as clients must. */
  dispatch(kind, message) {
    const handler = Object.hasOwn(HANDLERS, kind) ? HANDLERS[kind] : null;
    if (handler) handler(this, message);
    else this.log.info(`baloot-table/1: a message of unknown type ${JSON.stringify(kind)} ignored`);
  }

  /** The state changed: the sheet of a finished hand is worded if it is due, and all is drawn. */
  changed() {
    this.wordSheetIfDue();
    this.render();
  }

  /** The commitment of the frame's match, kept the first time it is seen (fair.js). */
  keepCommitment() {
    const match = this.state.match;
    if (match && match.fair) rememberCommitment(this.state.tableId, match.fair);
  }

  takeDeadline(message) {
    if (message && "deadline" in message) this.state.deadline = message.deadline;
  }

  // ---------------------------------------------------------------- decisions

  /** Sends a decision of view.choices (its action), unless one is in flight. */
  send(action) {
    if (this.state.pending) return;
    if (!this.link.act(action)) {
      this.notSent();
      return;
    }
    this.state.pending = true;
    this.state.notice = null;
    this.changed();
  }

  /** Sends a control (`next`, `undo`, `hint`, `claim`); `next` carries this seat's bytes for
   *  the next deal, the very ones already sent for it. */
  sendControl(type) {
    const state = this.state;
    if (type !== "hint" && state.pending) return;
    const extra = {};
    const fair = state.match && state.match.fair;
    if (type === "next" && fair && this.giver) extra.entropy = this.giver.entropyFor(fair.hand);
    if (!this.link.control(type, extra)) {
      this.notSent();
      return;
    }
    if (type === "next") state.nextSentFor = state.match ? state.match.hand : null;
    if (type === "undo" || type === "claim") state.pending = true;
    state.notice = null;
    this.changed();
  }

  /** A click the socket could not carry (it closed just now): said, never silently dropped;
   *  the banner and the disabled controls follow as the connection reports it. */
  notSent() {
    this.state.notice = { kind: "not_sent" };
    this.changed();
  }

  /** A tap on a card the rules do not let this seat play now: the engine's reason for it,
   *  sent with the view (view.refused). */
  explainRefused(card) {
    const view = this.state.view;
    const refused = view && view.refused && view.refused[card];
    if (!refused) return;
    this.state.notice = { kind: "refused", refused };
    this.changed();
  }

  /** Shows or hides the last finished trick. */
  toggleLast() {
    this.state.showLast = !this.state.showLast;
    this.changed();
  }

  // ---------------------------------------------------------------- what the page asks

  /** The table's description, before the socket: false when there is no table to connect to
   *  (the connection then says why). */
  async load() {
    const state = this.state;
    if (state.token) this.page.rememberSeat(state.tableId, state.token);
    this.changed();
    try {
      const response = await this.fetch(`/api/tables/${encodeURIComponent(state.tableId)}`);
      if (response.status === 404) {
        this.link.stop("fatal_4404");
        return false;
      }
      if (response.ok) state.info = await response.json();
      if (state.info && state.info.status === "unrestorable") {
        this.link.stop("fatal_4500");
        return false;
      }
    } catch (err) {
      // the socket will tell
    }
    return true;
  }

  /** The clock at `now` (server time): the last seconds of our own turn sound, once each. */
  tick(now) {
    const state = this.state;
    const deadline = seatDeadline(state, mySeat(state));
    const left = deadline && deadline.kind === "turn" ? secondsLeft(deadline, now) : null;
    if (left !== null && left <= 5 && left > 0 && state.lastTick !== left) this.page.sounds.lastSeconds();
    state.lastTick = left;
  }

  /** Check the revealed deal of a hand (fair.js), then show what was found on its sheet. */
  async checkDeal(fair, view) {
    let found;
    try {
      found = await checkReveal(this.state.tableId, fair, view, this.state.token);
    } catch (err) {
      return; // no SubtleCrypto (a page served over plain http elsewhere than localhost)
    }
    if (found === null) return;
    this.state.fairChecked[fair.hand] = found;
    this.changed();
  }

  async words(body) {
    const response = await this.fetch("/api/words", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lang: this.lang, ...sheetSeat(this.state, this.lang), ...body }),
    });
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  }

  /** A hint: its choice at once, then the server's reasons for it, worded. */
  async showHint(message) {
    const notice = { kind: "hint", action: message.action || null, view: this.state.view, worded: null, keys: null };
    this.state.notice = notice;
    this.changed();
    if (!message.why || !message.why.length) return;
    try {
      const worded = await this.words({ sheet: [], hint: message.why });
      this.state.notice = { ...notice, worded: (worded.hint || []).join(" · ") };
    } catch (err) {
      this.state.notice = { ...notice, keys: message.why.map((w) => w.key).join(" · ") };
    }
    this.changed();
  }

  /** The last card's event comes just before the hand-over: the sheet is worded once the
   *  match has the hand among its finished ones. */
  wordSheetIfDue() {
    const { view, match } = this.state;
    if (!view || this.link.status === "fatal" || !match || view.phase !== PHASE.over) return;
    if (this.link.sheets[match.hand] || match.hands.length >= match.hand) this.wordSheet(match.hand);
  }

  /** The worded score sheet of a finished hand: from its hand-over's lines, or, when the page
   *  came after the hand-over (a reload, a reconnect), asked of the table itself. */
  wordSheet(handNumber) {
    const state = this.state;
    if (state.wording[handNumber]) return;
    state.wording[handNumber] = true;
    const sheet = this.link.sheets[handNumber];
    const seat = sheetSeat(state, this.lang).seat;
    const answer = sheet
      ? this.words({ sheet, hint: [] })
      : this.fetch(`/api/tables/${encodeURIComponent(state.tableId)}/sheet?hand=${handNumber}&lang=${this.lang}${seat ? "&seat=" + seat : ""}`)
          .then((response) => { if (!response.ok) throw new Error(String(response.status)); return response.json(); });
    answer
      .then((worded) => {
        state.worded[handNumber] = worded.sheet || [];
        state.lines[handNumber] = sheet || worded.lines || [];
      })
      .catch(() => { state.worded[handNumber] = (sheet || []).map((line) => `${line.key}: ${JSON.stringify(line.params)}`); })
      .finally(() => this.changed());
  }
}
