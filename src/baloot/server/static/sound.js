// The table's sounds, made in the page with Web Audio: no file is fetched for them.
//
// A card played, your turn, each of a timer's last seconds, a hand your team won; your turn
// also buzzes a phone that lets a page vibrate it. Off with one tap on the top bar's switch
// (the buzz too), and remembered by this browser (localStorage). A browser lets a page make
// sound, or vibrate, only after a tap or a key: until then both are skipped, never queued for
// later.

import { el } from "./dom.js";

const STORE_KEY = "baloot.sound";
let context = null;

/** Whether the sounds are on (the default) in this browser. */
export function soundOn() {
  try {
    return localStorage.getItem(STORE_KEY) !== "off";
  } catch (err) {
    return true;
  }
}

function remember(on) {
  try {
    localStorage.setItem(STORE_KEY, on ? "on" : "off");
  } catch (err) {
    // a browser that keeps nothing: the switch holds for this page only
  }
}

let sessionOn = soundOn();
// Whether the reader has tapped or pressed a key yet: a browser allows sound only after.
let allowed = false;

function audio() {
  if (!sessionOn || !allowed) return null;
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Context) return null;
  if (!context) {
    try {
      context = new Context();
    } catch (err) {
      return null;
    }
  }
  if (context.state === "suspended") context.resume().catch(() => null);
  return context.state === "running" ? context : null;
}

/** The phone buzzes `pattern` (ms on, off, on…) where the browser allows a page to vibrate
 *  it, while the sounds are on; elsewhere nothing happens. */
function buzz(pattern) {
  if (!sessionOn || !allowed || typeof globalThis.navigator?.vibrate !== "function") return;
  try {
    navigator.vibrate(pattern);
  } catch (err) {
    // a browser that refuses it now: the sound alone tells
  }
}

/** One tone: `freq` Hz from `start` s for `length` s, shaped to fade out. */
function tone(ctx, freq, start, length, { type = "sine", gain = 0.18 } = {}) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, ctx.currentTime + start);
  amp.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(gain, ctx.currentTime + start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

/** A short burst of filtered noise: a card put down on cloth. */
function snap(ctx) {
  const length = Math.floor(ctx.sampleRate * 0.07);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  const amp = ctx.createGain();
  amp.gain.value = 0.5;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start();
}

/** The sounds of the table; each does nothing while the sound is off or not yet allowed. */
export const sounds = {
  card() {
    const ctx = audio();
    if (ctx) snap(ctx);
  },
  yourTurn() {
    buzz([90, 60, 90]);
    const ctx = audio();
    if (!ctx) return;
    tone(ctx, 660, 0, 0.18);
    tone(ctx, 880, 0.12, 0.25);
  },
  /** One tick of a timer's last seconds: call it once a second while time runs out. */
  lastSeconds() {
    const ctx = audio();
    if (ctx) tone(ctx, 1250, 0, 0.09, { type: "square", gain: 0.06 });
  },
  handWon() {
    const ctx = audio();
    if (!ctx) return;
    [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, freq, i * 0.1, 0.35, { type: "triangle", gain: 0.14 }));
  },
};

/** The first tap or key anywhere lets the page make sound (and buzz) from then on. */
export function allowSound() {
  allowed = true;
  if (sessionOn) audio();
}

/** The switch of the top bar, worded by `t`: one tap turns the sounds off or on, for this
 *  browser. */
export function soundSwitch(t) {
  const button = el("button", { type: "button", id: "sound-switch", class: "sound-switch" });
  const draw = () => {
    button.textContent = sessionOn ? "🔊" : "🔇";
    button.setAttribute("aria-pressed", String(sessionOn));
    button.setAttribute("aria-label", t("sound_label"));
    button.title = sessionOn ? t("sound_on") : t("sound_off");
  };
  button.addEventListener("click", () => {
    sessionOn = !sessionOn;
    remember(sessionOn);
    draw();
    if (sessionOn) sounds.yourTurn();
  });
  draw();
  window.addEventListener("pointerdown", allowSound, { once: true });
  window.addEventListener("keydown", allowSound, { once: true });
  return button;
}
