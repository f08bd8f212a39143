// The table's connection (baloot-table/1): one WebSocket, the state it carries, reconnection.
//
// State: `view`, `match`, `seats` and `v`, the number of the last numbered message applied.
// A numbered message whose v we already have is ignored; one that skips a number is dropped
// and a `resync` asks for what is missing. A snapshot is applied when its v is not older
// than ours (an undo's snapshot has a new v and supersedes the history). After a drop the
// socket reconnects with a growing pause and sends `resync` since our v; the server's
// snapshot on connect is handled the same way.
//
// The table's clock is the server's: `deadline` is what the table waits for and until when
// (server time), taken from every message that carries one; `clockOffset` is the server's
// `now` minus ours at the last snapshot or pong, so that serverNow() counts down the time the
// server really keeps. `talk` holds the lines said at the table (a snapshot's, then each
// `said`), oldest first; a line a snapshot brings is `old` (said before this connection, or
// during a drop), unless the page heard it itself before.
//
// Several servers may share the tables (docs/nodes.md): a server that does not serve this
// table closes the socket with 4307, the public URL of the one that does as its reason. The
// page then moves there: the same path and query (the seat's token, the language) on that
// origin, since the page's other requests (its sheets, its description) go to its own origin.
// A reason naming this very origin (servers behind one address) is a plain retry. A page whose
// own server is gone (its socket cannot open) asks the server it was first loaded from, HOME,
// in turns with its own: a spectator's socket there gets the table (the page moves there) or
// a 4307 naming where it is now (the page moves there; its own origin, still the holder until
// its lease runs out: a plain retry). HOME travels with the page as `#home=ORIGIN`, which a
// move sets, and so does a server's 307 to the node that serves the table.
//
// After a drop the page asks the API what became of the table before it retries: a 503
// says that the server cannot reach its database (docs/nodes.md), and `storageAway` stays
// true, for the status line to say so, until a snapshot shows the table back.

import { snapshotTalk } from "./talk.js";

const PING_MS = 20000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000];
const FATAL = { 4403: "fatal_4403", 4404: "fatal_4404", 4500: "fatal_4500" };
const ELSEWHERE = 4307;
const HOME = homeOrigin();

function homeOrigin() {
  try {
    const named = new URLSearchParams(location.hash.slice(1)).get("home");
    const home = new URL(named || location.origin);
    return /^https?:$/.test(home.protocol) ? home.origin : location.origin;
  } catch (err) {
    return location.origin;
  }
}

export class TableConnection {
  constructor(tableId, token, onChange) {
    this.tableId = tableId;
    this.token = token;
    this.onChange = onChange; // (kind, message) => void
    this.v = 0;
    this.view = null;
    this.match = null;
    this.seats = null;
    this.sheets = {}; // hand number → sheet lines from its hand-over
    this.claimed = {}; // hand number → the accepted claim's seat and cards, from its hand-over
    this.deadline = null; // {kind, seat, at} or null
    this.clockOffset = 0; // server's now − Date.now(), in ms
    this.talk = []; // [{v, seat, text, old}], oldest first
    this.socket = null;
    this.status = "connecting"; // connecting | open | retrying | moving | fatal
    this.fatal = null;
    this.retryIn = 0;
    this.attempt = 0;
    this.everOpened = false;
    this.failuresBeforeOpen = 0;
    this.storageAway = false;
    this.via = null; // HOME while the page asks it, its own server being gone
    this.counter = 0;
    this.pingTimer = null;
    this.resyncAsked = false;
    this.sessionTag = Math.random().toString(36).slice(2, 8);
  }

  url() {
    const base = new URL(this.via || location.origin);
    const scheme = base.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token && !this.via ? "?token=" + encodeURIComponent(this.token) : "";
    return `${scheme}//${base.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  connect() {
    this.status = this.everOpened ? "retrying" : "connecting";
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (err) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.everOpened = true;
      this.failuresBeforeOpen = 0;
      this.attempt = 0;
      this.status = "open";
      this.resyncAsked = false;
      if (this.v > 0) this.send({ type: "resync", since: this.v });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
      this.onChange("status");
    };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      this.receive(message);
    };
    socket.onclose = (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      this.socket = null;
      if (FATAL[event.code]) {
        this.stop(FATAL[event.code]);
        return;
      }
      if (event.code === ELSEWHERE && this.moveTo(event.reason)) return;
      if (!opened) {
        this.failuresBeforeOpen += 1;
        this.checkRefused();
        return;
      }
      this.checkStorage();
    };
  }

  // A drop: whether the server answers 503 for the table (its database is away), then retry.
  async checkStorage() {
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}`);
      this.storageAway = response.status === 503;
    } catch (err) {
      this.storageAway = false; // the server itself is away
    }
    this.scheduleRetry();
  }

  // A handshake refused over HTTP (403/404) looks like a plain drop: ask the API why.
  async checkRefused() {
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}`);
      if (response.status === 404) {
        this.stop("fatal_4404");
        return;
      }
    } catch (err) {
      // the server is away: the next try asks HOME instead (or this one again), below
      this.via = (this.via || HOME === location.origin) ? null : HOME;
    }
    if (this.token && this.failuresBeforeOpen >= 3 && !this.everOpened) {
      this.stop("fatal_4403");
      return;
    }
    this.scheduleRetry();
  }

  // Go to this page at the server `base` (an http(s) origin); false when it is no other.
  moveTo(base) {
    let target;
    try {
      target = new URL(base);
    } catch (err) {
      return false;
    }
    if (!/^https?:$/.test(target.protocol) || target.origin === location.origin) return false;
    this.status = "moving";
    clearInterval(this.pingTimer);
    this.onChange("status");
    location.assign(target.origin + location.pathname + location.search + "#home=" + encodeURIComponent(HOME));
    return true;
  }

  stop(reason) {
    this.status = "fatal";
    this.fatal = reason;
    clearInterval(this.pingTimer);
    clearInterval(this.countdown);
    this.onChange("status");
  }

  scheduleRetry() {
    if (this.status === "fatal") return;
    const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.status = "retrying";
    this.retryIn = Math.ceil(wait / 1000);
    clearInterval(this.countdown);
    this.countdown = setInterval(() => {
      this.retryIn = Math.max(0, this.retryIn - 1);
      this.onChange("status");
    }, 1000);
    this.onChange("status");
    setTimeout(() => {
      clearInterval(this.countdown);
      if (this.status !== "fatal") this.connect();
    }, wait);
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  newId(prefix) {
    this.counter += 1;
    const seat = (this.view && this.view.seat) || "x";
    return `${prefix}${seat}-${Date.now().toString(36)}-${this.sessionTag}-${this.counter}`;
  }

  /** Sends a decision; returns its id (or null when the socket is not open). */
  act(action) {
    const id = this.newId("a");
    return this.send({ type: "act", id, action }) ? id : null;
  }

  /** Says a line at the table; returns its id (or null when the socket is not open). */
  say(text) {
    const id = this.newId("s");
    return this.send({ type: "say", id, text }) ? id : null;
  }

  /** The server's clock now, in ms since the epoch. */
  serverNow() {
    return Date.now() + this.clockOffset;
  }

  /** Sends a control message (`next`, `undo`, …) with `extra` fields; returns its id. */
  control(type, extra = {}) {
    const id = this.newId(type[0]);
    return this.send({ ...extra, type, id }) ? id : null;
  }

  receive(message) {
    if (!message || typeof message !== "object") return;
    const type = message.type;
    if (typeof message.now === "number") this.clockOffset = message.now - Date.now();
    if (type === "pong") return;
    if (typeof message.v !== "number") {
      // An answer (ack, reject, hint), or a type the page may not know: the page's to handle.
      this.onChange(type, message);
      return;
    }
    if (type === "snapshot") {
      if (this.via && this.moveTo(this.via)) return; // HOME serves the table now: go there
      if (message.v < this.v) return;
      this.v = message.v;
      this.view = message.view;
      this.match = message.match;
      this.seats = message.seats;
      this.deadline = message.deadline ?? null;
      this.talk = snapshotTalk(message.talk, this.talk);
      this.resyncAsked = false;
      this.storageAway = false;
      this.onChange("snapshot", message);
      return;
    }
    if (message.v <= this.v) return; // already have it
    if (message.v > this.v + 1 && this.v > 0) {
      // a gap: drop it and ask for what is missing (once until we catch up)
      if (!this.resyncAsked) {
        this.resyncAsked = true;
        this.send({ type: "resync", since: this.v });
      }
      return;
    }
    this.v = message.v;
    this.resyncAsked = false;
    if ("deadline" in message) this.deadline = message.deadline;
    if (type === "said") {
      this.talk.push({ v: message.v, seat: message.seat, text: message.text, old: false });
    } else if (type === "event") {
      this.view = message.view;
    } else if (type === "hand-over") {
      this.view = message.view;
      this.match = message.match;
      if (message.match) this.sheets[message.match.hands.length] = message.sheet || [];
      if (message.match && message.claimed) this.claimed[message.match.hands.length] = message.claimed;
    } else if (type === "deal") {
      this.view = message.view;
      this.match = message.match;
    } else if (type === "seat") {
      if (this.seats) {
        this.seats[message.seat] = { player: message.player, connected: message.connected };
      }
    }
    this.onChange(type, message);
  }
}
