// sheet.js: the rows of a finished hand's figures, as the players' sheet has them, read from
// the hand-over's keyed lines (the example hand of view/sheet.py).

import { test } from "node:test";
import assert from "node:assert/strict";

import { IN_TABLE, sheetRows } from "../../src/baloot/server/static/sheet.js";

const HOKUM = [
  { key: "contract", params: { kind: "hokum", trump: "d", declarer: "S", team: "NS", level: 1, locked: false } },
  { key: "tricks", params: { NS: 6, EW: 2 } },
  { key: "card_points", params: { NS: 136, EW: 26, total: 162 } },
  { key: "counting_team", params: { team: "EW", points: 26, rounded: 3, rounding: "hokum", other: "NS", other_rounded: 13 } },
  { key: "projects", params: { team: "NS", seats: ["N"], kinds: ["sira"], cards: ["Ah Kh Qh"], points: 2 } },
  { key: "game_points", params: { NS: 15, EW: 3 } },
  { key: "decision", params: { winner: "NS", declarers: "NS", made: true, decided_by: "game-points", tie_digit: null } },
  { key: "written", params: { NS: 15, EW: 3, how: "made" } },
];

const rowsOf = (rows) => rows.map(({ key, values, strong }) => [key, values.NS, values.EW, strong]);

test("a Hokum hand's figures: tricks, card points, their game points, projects, Baloot, the sums", () => {
  assert.deepEqual(rowsOf(sheetRows(HOKUM, { NS: 40, EW: 3 })), [
    ["row_tricks", 6, 2, false],
    ["row_card_points", 136, 26, false],
    ["row_card_game_points", 13, 3, false],
    ["row_projects", 2, 0, false],
    ["row_baloot", 0, 0, false],
    ["row_game_points", 15, 3, true],
    ["row_written", 15, 3, true],
    ["row_totals", 40, 3, true],
  ]);
});

test("a Sun hand has no Baloot row; a sheet without the match's totals, no totals row", () => {
  const sun = HOKUM.map((line) => (line.key === "contract" ? { ...line, params: { ...line.params, kind: "sun" } } : line));
  const keys = sheetRows(sun, null).map((row) => row.key);
  assert.equal(keys.includes("row_baloot"), false);
  assert.equal(keys.includes("row_totals"), false);
});

test("Al-kaboot writes its points without the counting rows", () => {
  const kaboot = [
    ...HOKUM.filter((line) => !["counting_team", "game_points"].includes(line.key)),
    { key: "kaboot", params: { team: "NS", projects: "own_scored" } },
  ];
  assert.deepEqual(sheetRows(kaboot, null).map((row) => row.key), ["row_tricks", "row_card_points", "row_written"]);
});

test("a hand with no decision (annulled, or in progress) has no figures", () => {
  assert.equal(sheetRows([{ key: "annulled", params: { reason: "passes", seat: null } }], null), null);
  assert.equal(sheetRows(HOKUM.slice(0, 3), null), null);
  assert.equal(sheetRows(null, null), null);
});

test("the sentences the table already says are not repeated under it", () => {
  assert.deepEqual([...IN_TABLE].sort(), ["contract", "game_points", "tricks"]);
});
