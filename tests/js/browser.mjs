// What a page's modules find in a browser, stood in for under Node (`node --test tests/js/`):
// the page's location, a localStorage, an empty document in a hidden tab, and a WebSocket
// the test drives. A test file imports this module first, before the modules it tests (some
// read these as they load); crypto, fetch and the timers are Node's own (or the test's).

/** A WebSocket the test opens, talks into and closes; every one made is kept, newest last. */
export class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static made = [];

  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = FakeSocket.CONNECTING;
    FakeSocket.made.push(this);
  }

  static last() {
    return FakeSocket.made[FakeSocket.made.length - 1];
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen();
  }

  hear(message) {
    this.onmessage({ data: typeof message === "string" ? message : JSON.stringify(message) });
  }

  close(code, reason = "") {
    this.readyState = FakeSocket.CLOSED;
    this.onclose({ code, reason });
  }
}

class MemoryStorage {
  constructor() {
    this.items = new Map();
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    this.items.set(key, String(value));
  }

  removeItem(key) {
    this.items.delete(key);
  }

  clear() {
    this.items.clear();
  }
}

/** The addresses the page was sent to (location.assign), oldest first. */
export const assigned = [];

export const ORIGIN = "http://one.test";

globalThis.location = {
  origin: ORIGIN,
  host: "one.test",
  protocol: "http:",
  pathname: "/t/T1",
  search: "?token=tok",
  hash: "",
  href: `${ORIGIN}/t/T1?token=tok`,
  assign: (url) => assigned.push(url),
};
globalThis.localStorage = new MemoryStorage();
globalThis.WebSocket = FakeSocket;
globalThis.document = {
  hidden: true, // a hidden tab: the pacer shows every frame as it comes
  documentElement: { lang: "en", dir: "ltr" },
  getElementById: () => null,
  querySelectorAll: () => [],
};

/** A fetch answering `status` and `body` to every request, and the requests it had. */
export function fakeFetch(status = 200, body = {}) {
  const asked = [];
  const fetch = async (url, options = {}) => {
    asked.push({ url, options });
    return { status, ok: status >= 200 && status < 300, json: async () => body };
  };
  return { fetch, asked };
}

/** Lets every promise already settled run its callbacks. */
export function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}
