// The score sheet as players know it: the two columns (لنا / لهم) of a finished hand's
// figures — tricks, card points, projects, game points — read from the hand-over's keyed
// sheet lines (view/sheet.py, the same table as the terminal's); the sentences go below it.
// Plain data: table-sheet.js draws the rows.

/** The keys whose sentences the table already says: not repeated below it (as the terminal). */
export const IN_TABLE = new Set(["contract", "tricks", "game_points"]);

function byKey(lines) {
  const found = {};
  for (const line of lines) (found[line.key] = found[line.key] || []).push(line.params);
  return found;
}

/** Each team's sum of `name` over the lines of `key` (one line per team or seat). */
function perTeam(lines, name) {
  const points = { NS: 0, EW: 0 };
  for (const params of lines || []) points[params.team] += Number(params[name]) || 0;
  return points;
}

/**
 * The rows of a finished hand's figures, [{key, values: {NS, EW}, strong}] in order, or null
 * for a hand with none (annulled). `lines` are its sheet lines ([{key, params}]); `totals`
 * the match totals after the hand, or null.
 */
export function sheetRows(lines, totals) {
  const found = byKey(lines || []);
  if (!found.decision || !found.tricks || !found.written) return null;
  const rows = [];
  const row = (key, values, strong = false) => rows.push({ key, values, strong });
  row("row_tricks", found.tricks[0]);
  row("row_card_points", found.card_points[0]);
  if (!found.kaboot && found.counting_team) {
    const counting = found.counting_team[0];
    row("row_card_game_points", { [counting.team]: counting.rounded, [counting.other]: counting.other_rounded });
    row("row_projects", perTeam(found.projects, "points"));
    const contract = found.contract ? found.contract[0] : null;
    if (contract && contract.kind === "hokum") row("row_baloot", perTeam(found.baloot, "points"));
    if (found.game_points) row("row_game_points", found.game_points[0], true);
  }
  row("row_written", found.written[0], true);
  if (totals) row("row_totals", totals, true);
  return rows;
}
