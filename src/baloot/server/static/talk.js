// Table talk (baloot-table/1 `say`/`said`): the panel of a table's page, quick phrases in both
// languages and emoji, a line of one's own, the lines said, and a mute for each player that
// this browser keeps (localStorage). A seat talks; a spectator reads. The page holds the
// server's limits too — 1 to 200 characters once NFC-normalised, no control character, one
// line every 2 s — so that a line the server would refuse is not sent.
//
// The panel is built once and updated in place: redrawing the table never clears what is
// being typed. A line said since the page connected shows a while in a bubble on its seat;
// the lines a snapshot brings (said before a load, a reconnection, a restart) go to the log
// alone. At a finished table nobody serves any more, the panel says its talk is closed.

import { el } from "./dom.js";

export const MAX_SAID = 200;
export const SAY_EVERY_MS = 2000;
/** How long a line stays in a bubble on its seat. */
export const BUBBLE_MS = 6000;
const KEPT_ON_PAGE = 200;

/** The quick phrases, in both languages whatever the page's, and the emoji. */
export const PHRASES = ["يا هلا", "ابشر", "سوا", "الله يعطيك العافية", "well played", "good luck", "sorry!", "thanks"];
export const EMOJI = ["👍", "👏", "😂", "🔥", "☕"];

/** The lines of a snapshot's `talk`, each `old` unless it is one of the lines `heard` (the
 *  page's own, kept as they were: a bubble shown goes on for its time). */
export function snapshotTalk(talk, heard) {
  const known = new Map(heard.map((line) => [line.v, line]));
  return (Array.isArray(talk) ? talk : []).map((line) => {
    const kept = known.get(line.v);
    return kept && kept.seat === line.seat && kept.text === line.text ? kept : { ...line, old: true };
  });
}

/** The line `text` as the server takes it (NFC), or null when it breaks a limit. */
export function sayable(text) {
  const line = String(text).normalize("NFC");
  const length = [...line].length;
  if (length < 1 || length > MAX_SAID || /\p{Cc}/u.test(line)) return null;
  return line;
}

export class TalkPanel {
  /**
   * `conn` is the table's connection (its `talk` and `say`); `words` gives the page's words
   * (`t`), `seatName(seat)` a seat's name, `talkers()` the human seats, `mySeat()` ours
   * (null: a spectator); `storageKey` names this table's mutes in localStorage; `closed()` is
   * null while the table may be talked at, "over" for a finished table nobody serves any
   * more (the panel shows why it is disabled), "gone" for no table (the panel is hidden).
   */
  constructor(root, conn, { t, seatName, talkers, mySeat, storageKey, onChange, closed }) {
    this.root = root;
    this.conn = conn;
    this.t = t;
    this.seatName = seatName;
    this.talkers = talkers;
    this.mySeat = mySeat;
    this.storageKey = storageKey;
    this.onChange = onChange || (() => {});
    this.closed = closed || (() => null);
    this.muted = new Set(this.readMuted());
    this.lastSent = 0;
    this.shown = null;
    this.build();
  }

  readMuted() {
    try {
      const kept = JSON.parse(localStorage.getItem(this.storageKey) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch (err) {
      return [];
    }
  }

  keepMuted() {
    try {
      localStorage.setItem(this.storageKey, JSON.stringify([...this.muted]));
    } catch (err) {
      // private browsing: the mutes last as long as the page
    }
  }

  build() {
    const t = this.t;
    this.log = el("ol", { class: "talk-log", "aria-live": "polite", "aria-label": t("talk_log") });
    this.mutes = el("div", { class: "talk-mutes" });
    this.input = el("input", {
      type: "text", class: "talk-input", maxlength: MAX_SAID, "aria-label": t("talk_input"),
      placeholder: t("talk_placeholder"), autocomplete: "off",
    });
    this.sendButton = el("button", { type: "submit", class: "ctl talk-send", "data-control": "say" }, t("talk_send"));
    this.form = el("form", { class: "talk-form", onsubmit: (event) => { event.preventDefault(); this.send(this.input.value, true); } },
      this.input, this.sendButton);
    this.quick = el("div", { class: "talk-quick", role: "group", "aria-label": t("talk_quick") },
      [...PHRASES, ...EMOJI].map((phrase) => el("button", {
        type: "button", class: "talk-phrase", "data-phrase": phrase, dir: "auto",
        lang: /[\u0600-\u06ff]/.test(phrase) ? "ar" : PHRASES.includes(phrase) ? "en" : null,
        "aria-label": EMOJI.includes(phrase) ? t("talk_say_emoji", { emoji: phrase }) : null,
        onclick: () => this.send(phrase, false),
      }, phrase)));
    this.note = el("p", { class: "talk-note sub", "aria-live": "polite" });
    this.closedLine = el("p", { class: "talk-closed sub", hidden: true }, t("talk_closed"));
    this.root.replaceChildren(el("h2", { class: "talk-title" }, t("talk_title")), this.closedLine,
      this.log, this.mutes, this.quick, this.form, this.note);
  }

  send(text, typed) {
    const line = sayable(text);
    if (line === null) {
      this.note.textContent = this.t("talk_limits", { n: MAX_SAID });
      return;
    }
    const wait = this.lastSent + SAY_EVERY_MS - Date.now();
    if (wait > 0) {
      this.note.textContent = this.t("talk_wait", { s: Math.ceil(wait / 1000) });
      return;
    }
    if (!this.conn.say(line)) return;
    this.lastSent = Date.now();
    this.note.textContent = "";
    if (typed) this.input.value = "";
  }

  toggleMute(seat) {
    if (this.muted.has(seat)) this.muted.delete(seat);
    else this.muted.add(seat);
    this.keepMuted();
    this.shown = null;
    this.update();
    this.onChange();
  }

  /** The last line `seat` said in the last BUBBLE_MS since the page connected, unless muted;
   *  null otherwise (a line a snapshot brought is old news: the log has it). */
  recentLine(seat) {
    if (this.muted.has(seat)) return null;
    const line = [...this.conn.talk].reverse().find((l) => l.seat === seat);
    if (!line || line.old) return null;
    const heard = line.heardAt ?? (line.heardAt = Date.now());
    return Date.now() - heard < BUBBLE_MS ? line.text : null;
  }

  update() {
    const me = this.mySeat();
    const closed = this.closed();
    this.root.hidden = closed === "gone";
    this.closedLine.hidden = closed !== "over";
    const canTalk = me !== null && this.conn.status === "open" && closed === null;
    // A closed table's panel keeps its title, why it is closed, and what was said.
    this.form.hidden = me === null || closed !== null;
    this.quick.hidden = me === null || closed !== null;
    for (const control of [this.input, this.sendButton, ...this.quick.querySelectorAll("button")]) {
      control.disabled = !canTalk;
    }
    const others = this.talkers().filter((seat) => seat !== me);
    this.mutes.replaceChildren(...others.map((seat) => el("button", {
      type: "button", class: "ctl talk-mute", "data-mute": seat, "aria-pressed": this.muted.has(seat) ? "true" : "false",
      onclick: () => this.toggleMute(seat),
    }, this.t(this.muted.has(seat) ? "talk_unmute" : "talk_mute", { seat: this.seatName(seat) }))));
    this.mutes.hidden = others.length === 0 || closed !== null;
    if (this.conn.talk.length > KEPT_ON_PAGE) this.conn.talk.splice(0, this.conn.talk.length - KEPT_ON_PAGE);
    const lines = this.conn.talk.filter((line) => !this.muted.has(line.seat));
    const key = lines.map((line) => line.v).join(",") + "|" + others.map((s) => this.seatName(s)).join(",");
    if (key === this.shown) return;
    this.shown = key;
    this.log.replaceChildren(...lines.map((line) => el("li", { "data-said": line.seat },
      el("strong", {}, this.seatName(line.seat) + ": "), el("bdi", {}, line.text))));
    this.log.hidden = lines.length === 0;
    this.log.scrollTop = this.log.scrollHeight;
  }
}
