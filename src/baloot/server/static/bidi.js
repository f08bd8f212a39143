// Numbers in right-to-left text. In an Arabic sentence a minus sign written before a number is
// shown after it: the bidirectional algorithm gives the sign the direction of the Arabic around
// it. So a number with its sign (and an "about", ≈) is isolated, left to right, with the
// Unicode isolates U+2066 … U+2069 where it sits inside a sentence; where a page draws it in an
// element of its own, that element is isolated instead (a <bdi dir="ltr">).

const LRI = "\u2066";
const PDI = "\u2069";
// A sign (or ≈, or both) and the number it belongs to; not the hyphen of a range ("4-1").
const SIGNED = /(?<![\p{N}\u2066])(?:≈?[+\-−±]|≈)\d+(?:[.,]\d+)*/gu;

/** `text` with every signed number isolated left to right: "و−1" keeps its minus before the 1. */
export function isolateNumbers(text) {
  return String(text).replace(SIGNED, (number) => LRI + number + PDI);
}

/** `text` (a date, a hexadecimal secret) isolated left to right inside a sentence: in Arabic
 *  "2026-12-04" would otherwise read as "04-12-2026". */
export function leftToRight(text) {
  return LRI + String(text) + PDI;
}
