// The collusion screen's figures on the operators' page (screen-figures.js): shares as
// percentages, signed z-scores, the histogram's bars, a note checked as the server checks it.
// tests/pages/test_pages_logic.py runs it.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  NOTE_LIMIT, histogramRows, noteProblem, percent, signedZ,
} from "../../src/baloot/server/static/screen-figures.js";

test("a share is a percentage to one decimal", () => {
  assert.equal(percent(0.9654), "96.5%");
  assert.equal(percent(1), "100.0%");
  assert.equal(percent(0), "0.0%");
  assert.equal(percent(0.51), "51.0%");
});

test("a z-score keeps its sign, a true minus, and none is null", () => {
  assert.equal(signedZ(6.2), "+6.2");
  assert.equal(signedZ(-5.53), "−5.5");
  assert.equal(signedZ(-0.04), "0.0");
  assert.equal(signedZ(null), null);
  assert.equal(signedZ(undefined), null);
});

test("the histogram has a row per tenth, its bar against the fullest tenth", () => {
  const rows = histogramRows([0, 0, 0, 0, 1, 40, 0, 0, 0, 2]);
  assert.equal(rows.length, 10);
  assert.deepEqual(rows[0], { from: 0, to: 10, count: 0, bar: "" });
  assert.equal(rows[5].bar.length, 20);
  assert.equal(rows[4].bar.length, 1); // a single pair still shows
  assert.equal(rows[9].from, 90);
  assert.equal(rows[9].to, 100);
  assert.deepEqual(histogramRows([0, 0]).map((row) => row.bar), ["", ""]);
});

test("a note is 1 to 500 characters once trimmed, counted as the server counts", () => {
  assert.equal(noteProblem("  "), "op_note_empty");
  assert.equal(noteProblem(""), "op_note_empty");
  assert.equal(noteProblem("read their matches"), null);
  assert.equal(noteProblem(` ${"ن".repeat(NOTE_LIMIT)} `), null);
  assert.equal(noteProblem("x".repeat(NOTE_LIMIT + 1)), "op_note_long");
  assert.equal(noteProblem("😀".repeat(NOTE_LIMIT)), null); // 1000 UTF-16 units, 500 characters
});
