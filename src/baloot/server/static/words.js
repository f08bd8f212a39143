// Wording the game: actions, questions, the contract and players, in the page's language.

import { t } from "./i18n.js";
import { SYMBOL, cardText, suitOf } from "./cards.js";
import { LISTED_SEATS, PHASE, botBase, botName, isLeading, projectKind, readAction } from "./protocol.js";

/** The suits as the engine's reasons name them ("must follow diamonds"). */
const SUIT_BY_NAME = { spades: "s", hearts: "h", diamonds: "d", clubs: "c" };

/** One parameter of an engine reason in the page's words: seats by name, cards as "10♣". */
function reasonParam(key, value, seatName) {
  if (key === "seat" || key === "dealer" || key === "other") return seatName(value);
  if (key === "card" || key === "higher") return String(value).split(", ").map(cardText).join(", ");
  if (key === "suit" && SUIT_BY_NAME[value]) return suitWord(SUIT_BY_NAME[value]);
  if (key === "project") return projectsText([value]);
  return String(value);
}

/** The engine's reason for refusing an action (its code and parameters, docs/table-protocol.md) in
 *  the page's words, from the server's catalogs: said to the player when it is about their
 *  own seat ("You must follow ♦ diamonds"), else naming the seat. */
export function reasonText(code, params, seatName, me) {
  const values = {};
  for (const [key, value] of Object.entries(params || {})) values[key] = reasonParam(key, value, seatName);
  const yours = me && params && params.seat === me ? t("you_" + code, values) : null;
  let text = yours && yours !== "you_" + code ? yours : t("reason_" + code, values);
  if (text === "reason_" + code) text = code;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function suitWord(suit) {
  return `${SYMBOL[suit]} ${t("suit_" + suit)}`;
}

/** "Sira + Fifty" from kinds like ["sira", "fifty"] (cards after ':' are dropped). */
export function projectsText(kinds) {
  return kinds.map((k) => t("project_" + projectKind(k))).join(t("joiner"));
}

/** A bot's name in the page's language ("easy", "سهل"; "expert:fast" is the Expert, "الخبير"),
 *  its options left out; a bot the server added under a name of its own keeps that name. */
export function botWord(bot) {
  const base = botBase(bot);
  const word = t("bot_name_" + base);
  return word === "bot_name_" + base ? isolated(bot) : word;
}

/** What a bot is, in one line of the page's language. */
export function botLine(bot) {
  const base = botBase(bot);
  const line = t("bot_line_" + base);
  return line === "bot_line_" + base ? t("bot_line_other") : line;
}

/** A rule flag's name in the page's language ("Kawesh", "الكوش"). */
export function flagWord(flag) {
  const word = t("flag_name_" + flag);
  return word === "flag_name_" + flag ? isolated(flag) : word;
}

/** A name given by a person or a server, isolated from the text around it (U+2068 … U+2069):
 *  a Latin name keeps its place in an Arabic sentence, and an Arabic one in an English one. */
function isolated(name) {
  return `\u2068${name}\u2069`;
}

/** A rules preset's name in the page's language ("classic", "الكلاسيكية"). */
export function presetWord(name) {
  const word = t("preset_name_" + name);
  return word === "preset_name_" + name ? name : word;
}

/** A player in words: "bot (hard)" for "bot:hard", a person by the name given. */
export function playerLabel(player) {
  const bot = botName(player);
  return bot === null ? isolated(player) : t("bot_named", { name: botWord(bot) });
}

/** "North: Amal · East: bot (Expert) · South: human · …": the players of a table or a match,
 *  by seat; a person who gave no name (known by the seat's letter) is "human". */
export function playersText(players) {
  return LISTED_SEATS.filter((s) => players && players[s] !== undefined)
    .map((s) => `${t("seat_" + s)}: ${players[s] === s ? t("human") : playerLabel(players[s])}`)
    .join(" · ");
}

/** The words of one action without its seat, given the view it is legal in: `choice` is one of
 *  view.choices, or an action's text read by readAction. */
export function actionLabel(choice, view) {
  const { verb, card, words } = choice;
  const { args } = readAction(choice.action); // a call's suit, open or locked, or projects
  const kind = view && view.question ? view.question.kind : null;
  switch (verb) {
    case "pass":
      if (kind === "take-over-sun" || kind === "take-over-ashkal") return t("a_pass_stand");
      if (kind === "confirm-hokum") return t("a_pass_keep");
      if (kind === "double") return t("a_pass_no_double");
      if (kind === "triple" || kind === "four" || kind === "gahwa") return t("a_pass_no_raise");
      return t("a_pass");
    case "hokum":
      if (view && view.phase === PHASE.bidding2) return t("a_hokum2");
      return t("a_hokum", { suit: view && view.exposed ? suitWord(suitOf(view.exposed)) : "" });
    case "sun": return t("a_sun");
    case "ashkal": return t("a_ashkal");
    case "kawesh": return t("a_kawesh");
    case "trump": return t("a_trump", { suit: suitWord(args[0]) });
    case "double":
      return args[0] ? t("a_double_" + args[0]) : t("a_double");
    case "triple": return t("a_triple");
    case "four": return t("a_four_" + (args[0] || "open"));
    case "gahwa": return t("a_gahwa");
    case "declare": return t("a_declare", { p: projectsText(args) });
    case "play": return [cardText(card), ...words.map((w) => t("w_" + w))].join(" · ");
    default:
      return [verb, ...args].join(" ");
  }
}

/** What the seat to act is asked, worded for that seat. */
export function questionText(view, seatName) {
  const q = view.question;
  if (!q) return "";
  const exposedSuit = view.exposed ? suitWord(suitOf(view.exposed)) : "";
  const about = q.about ? seatName(q.about) : "";
  if (q.kind === "bid") {
    if (view.phase === PHASE.bidding2) return t("q_bid_2", { suit: exposedSuit });
    if (view.phase === PHASE.bidding3) return t("q_bid_3");
    return t("q_bid_1", { card: cardText(view.exposed), suit: exposedSuit });
  }
  if (q.kind === "name-trump") return t("q_name-trump", { suit: exposedSuit });
  if (q.kind === "play") {
    if (view.choices.some((c) => c.verb === "declare")) return t("q_declare");
    return isLeading(view) ? t("q_lead") : t("q_play");
  }
  return t("q_" + q.kind, { seat: about });
}

/** "Hokum ♥ · buyer South · Double ×2 (locked)", or the bidding phase before a contract. */
export function contractText(view, seatName) {
  const c = view.contract;
  if (!c) return t("phase_" + view.phase);
  const parts = [c.kind === "hokum" ? t("hokum_in", { suit: SYMBOL[c.trump] }) : t("sun")];
  parts.push(t("by_seat", { seat: seatName(c.declarer) }));
  if (c.level !== 1) {
    let level = t("level_" + c.level);
    if (c.kind === "hokum" && c.level !== "gahwa") level += ` (${t(c.locked ? "locked" : "open")})`;
    parts.push(level);
  }
  return parts.join(" · ");
}

/** A finished hand's contract in a few words, for the running sheet. */
export function shortContract(hand) {
  if (!hand || hand.outcome === "annulled" || !hand.contract) return t("annulled");
  const c = hand.contract;
  let text = c.kind === "hokum" ? t("hokum_in", { suit: SYMBOL[c.trump] }) : t("sun");
  if (c.level !== 1) text += " " + t("level_" + c.level).split(" ").pop();
  if (hand.kaboot) text += " · " + t("kaboot");
  return text;
}
