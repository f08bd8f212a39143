// The collusion screen's figures as the operators' page shows them: a share as a percentage,
// a z-score with its sign, the rows of the pairs' histogram, a review's note checked as the
// server checks it. It imports nothing, so that Node can test it.

/** The longest note of a review, in characters (the server's limit). */
export const NOTE_LIMIT = 500;
/** The longest bar of the histogram, in blocks. */
const BAR = 20;

/** A share from 0 to 1 as a percentage with one decimal: 0.9654 → "96.5%". */
export function percent(share) {
  return `${(Math.round(share * 1000) / 10).toFixed(1)}%`;
}

/** A z-score to one decimal with its sign ("+12.3", "−0.4", "0.0"); null when it has none. */
export function signedZ(z) {
  if (z === null || z === undefined) return null;
  const rounded = Math.round(z * 10) / 10;
  if (rounded === 0) return "0.0";
  return rounded > 0 ? `+${rounded.toFixed(1)}` : `−${(-rounded).toFixed(1)}`;
}

/** The histogram's rows: each tenth's bounds in percent, its pairs, and a bar of blocks as
 *  long as its count against the fullest tenth's (one block at least for a tenth with any). */
export function histogramRows(counts) {
  const most = Math.max(1, ...counts);
  return counts.map((count, i) => ({
    from: i * 10,
    to: (i + 1) * 10,
    count,
    bar: "▇".repeat(count ? Math.max(1, Math.round((count * BAR) / most)) : 0),
  }));
}

/** Why a note cannot be sent (the key of its words), or null: 1 to NOTE_LIMIT characters once
 *  the spaces around it are dropped, counted as the server counts them (code points). */
export function noteProblem(text) {
  const kept = String(text).trim();
  if (!kept) return "op_note_empty";
  if ([...kept].length > NOTE_LIMIT) return "op_note_long";
  return null;
}
