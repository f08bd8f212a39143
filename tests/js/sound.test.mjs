// sound.js: the turn's alert, a sound and a buzz, every time it is asked for once the reader
// has tapped (a browser allows neither before), and none while the sound is off.

import "./browser.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

const buzzed = [];
const tones = [];

/** Enough of Web Audio to count the tones played. */
class FakeAudio {
  state = "running";
  currentTime = 0;
  destination = {};
  resume() {
    return Promise.resolve();
  }
  createOscillator() {
    const node = { frequency: { setValueAtTime: (freq) => tones.push(freq) }, connect: (next) => next, start() {}, stop() {} };
    return node;
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (next) => next };
  }
}

Object.defineProperty(globalThis, "navigator", { value: { vibrate: (pattern) => buzzed.push(pattern) }, configurable: true });
globalThis.AudioContext = FakeAudio;

const { allowSound, sounds } = await import("../../src/baloot/server/static/sound.js");

test("nothing sounds nor buzzes before the reader's first tap", () => {
  sounds.yourTurn();
  assert.deepEqual([buzzed.length, tones.length], [0, 0]);
});

test("the turn sounds and buzzes each time it comes, not the first time only", () => {
  allowSound();
  for (let turn = 1; turn <= 3; turn += 1) {
    sounds.yourTurn();
    assert.equal(buzzed.length, turn);
    assert.equal(tones.length, 2 * turn);
  }
  assert.deepEqual(buzzed[2], [90, 60, 90]);
});

test("with the sound off, the turn neither sounds nor buzzes", () => {
  localStorage.setItem("baloot.sound", "off");
  // The switch is read as the module loads: a page loaded with it off.
  return import("../../src/baloot/server/static/sound.js?off").then(({ allowSound: allow, sounds: quiet, soundOn }) => {
    assert.equal(soundOn(), false);
    allow();
    const before = [buzzed.length, tones.length];
    quiet.yourTurn();
    assert.deepEqual([buzzed.length, tones.length], before);
  });
});
