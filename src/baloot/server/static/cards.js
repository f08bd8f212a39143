// Cards: parsing record notation ("Jd", "Th") and drawing card faces as SVG.

const SVG = "http://www.w3.org/2000/svg";
export const SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RED = new Set(["h", "d"]);
const RANK_TEXT = { T: "10" };
// Suits in the hand when no trump: black and red alternate.
const SUIT_ORDER = ["s", "h", "c", "d"];
const PLAIN_ORDER = "ATKQJ987";
const TRUMP_ORDER = "J9ATKQ87";

export function rankOf(card) { return card[0]; }
export function suitOf(card) { return card[1]; }
export function isRed(card) { return RED.has(suitOf(card)); }

/** "Th" → "10♥". */
export function cardText(card) {
  if (!card || card === "??") return "?";
  return (RANK_TEXT[card[0]] || card[0]) + SYMBOL[card[1]];
}

/** The hand sorted as a player holds it: trumps first, then by suit, strongest first. */
export function sortHand(cards, trump) {
  const suits = trump ? [trump, ...SUIT_ORDER.filter((s) => s !== trump)] : SUIT_ORDER;
  const key = (card) => {
    const suit = suitOf(card);
    const order = suit === trump ? TRUMP_ORDER : PLAIN_ORDER;
    return suits.indexOf(suit) * 10 + order.indexOf(rankOf(card));
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

function node(name, attrs, text) {
  const n = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

/** An SVG card face (or a back for "??" / null). Sized by CSS through its class. */
export function cardSVG(card) {
  const svg = node("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true" });
  if (!card || card === "??") {
    svg.append(node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }));
    svg.append(node("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-inner" }));
    return svg;
  }
  const suit = suitOf(card);
  const colour = RED.has(suit) ? "card-red" : "card-black";
  const rank = RANK_TEXT[rankOf(card)] || rankOf(card);
  svg.append(node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }));
  const g = node("g", { class: colour });
  g.append(node("text", { x: 5, y: 20, class: "card-rank" }, rank));
  g.append(node("text", { x: 5, y: 36, class: "card-suit-small" }, SYMBOL[suit]));
  g.append(node("text", { x: 34, y: 72, class: "card-suit-big", "text-anchor": "middle" }, SYMBOL[suit]));
  svg.append(g);
  return svg;
}

/** A whole card element (span) with its accessible name. */
export function cardElement(card, extraClass = "") {
  const span = document.createElement("span");
  span.className = "card " + extraClass;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardText(card));
  span.append(cardSVG(card));
  return span;
}
