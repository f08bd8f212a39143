// What the pages read in the server's words (baloot-view, baloot-table/1): seats and teams,
// the phases, action notation ("S play Jd ekka") and players ("bot:NAME" or a person's name).

/** The seats in the order of play. */
export const SEATS = ["N", "W", "S", "E"];
/** The seats as a list of players is written: clockwise from North. */
export const LISTED_SEATS = ["N", "E", "S", "W"];
export const TEAM = { N: "NS", S: "NS", W: "EW", E: "EW" };

/** The phases of a hand, as a view names them (seat-view.md). */
export const PHASE = Object.freeze({
  bidding1: "bidding-1",
  bidding2: "bidding-2",
  bidding3: "bidding-3",
  trump: "trump",
  doubling: "doubling",
  playing: "playing",
  over: "over",
});

const BOT_PREFIX = "bot:";

/** The seat `steps` turns after `seat` in the order of play. */
export function nextSeat(seat, steps = 1) {
  return SEATS[(SEATS.indexOf(seat) + steps) % 4];
}

/** The other team: "EW" for "NS" and "NS" for "EW". */
export function otherTeam(team) {
  return team === "NS" ? "EW" : "NS";
}

/** An action's parts: "S play Jd ekka" → { seat: "S", verb: "play", args: ["Jd", "ekka"] }. */
export function parseAction(action) {
  const [seat, verb, ...args] = action.trim().split(/\s+/);
  return { seat, verb, args };
}

/** Whether the seat to play leads the trick: no trick yet, the last one won, or none played. */
export function isLeading(view) {
  const trick = view.tricks[view.tricks.length - 1];
  return !trick || trick.winner !== null || trick.cards.length === 0;
}

/** The player a new table's request names for a bot: "bot:NAME". */
export function botPlayer(name) {
  return BOT_PREFIX + name;
}

/** The bot's name in a player "bot:NAME", or null when the player is a person. */
export function botName(player) {
  const text = String(player ?? "");
  return text.startsWith(BOT_PREFIX) ? text.slice(BOT_PREFIX.length) : null;
}

/** Whether a player is a bot ("bot:NAME"). */
export function isBot(player) {
  return botName(player) !== null;
}
