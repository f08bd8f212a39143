// What the pages read in the server's words (baloot-view, baloot-table/1): seats and teams,
// the phases, action notation ("S play Jd ekka") and players ("bot:NAME" or a person's name).
// The one module that reads notation: every other page reads actions through readAction.

/** The seats in the order of play. */
export const SEATS = ["N", "W", "S", "E"];
/** The seats as a list of players is written: clockwise from North. */
export const LISTED_SEATS = ["N", "E", "S", "W"];
export const TEAM = { N: "NS", S: "NS", W: "EW", E: "EW" };

/** The phases of a hand, as a view names them (docs/seat-view.md). */
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

/**
 * An action's text read into the parts of a view's `choices` (docs/seat-view.md), with its seat
 * and the arguments a choice keeps in its text (a suit, open or locked, the projects):
 * "S play Jd ekka" → { action, seat: "S", verb: "play", card: "Jd", words: ["ekka"], args: [] },
 * "W double locked" → { action, seat: "W", verb: "double", card: null, words: [], args: ["locked"] }.
 * The legal actions come read, as view.choices; this is for what comes as text only (an event's
 * action, the calls so far, a hint, an analysis) and for a choice's arguments.
 */
export function readAction(action) {
  const [seat, verb, ...rest] = action.trim().split(/\s+/);
  const played = verb === "play";
  return {
    action,
    seat,
    verb,
    card: played ? rest[0] : null,
    words: played ? rest.slice(1) : [],
    args: played ? [] : rest,
  };
}

/** The words said with a card of a trick, from its word in a view: "ekka baloot" → ["ekka", "baloot"]. */
export function trickWords(word) {
  return word ? word.split(" ") : [];
}

/** A project's kind, from a kind or a project with its cards: "sira:AhKhQh" → "sira". */
export function projectKind(project) {
  return project.split(":")[0];
}

/** Whether the seat to play leads the trick: no trick yet, the last one won, or none played. */
export function isLeading(view) {
  const trick = view.tricks[view.tricks.length - 1];
  return !trick || trick.winner !== null || trick.cards.length === 0;
}

/** Whether the view is its own seat's turn: that seat to act, with something to choose. */
export function seatsTurn(view) {
  return !!(view && view.seat && view.to_act === view.seat && view.choices && view.choices.length);
}

/** Whether the turn comes to the seat between two views shown one after the other (`before`
 *  null: nothing was shown): the moment to tell the player, once. */
export function turnComes(before, after) {
  return !seatsTurn(before) && seatsTurn(after);
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

/** The bot a bot's name names, its options left out: "expert:fast" → "expert". */
export function botBase(name) {
  return String(name).split(":")[0];
}

/** Whether a player is a bot ("bot:NAME"). */
export function isBot(player) {
  return botName(player) !== null;
}
