// What the card finder's keys name and light (finder.js; docs/RULES.md, "Keys"): plain
// functions of plain data that import nothing, so that Node tests them (tests/js/find.test.mjs).
const RANKS = "23456789TJQKA";
const SUITS = "SHDC";

// What a key names: {rank: "7"} or {suit: "C"}, or null.  "0" is the ten, as T.
export function named(key) {
  const upper = (key === "0" ? "T" : String(key)).toUpperCase();
  if (upper.length !== 1) return null;
  if (RANKS.includes(upper)) return { rank: upper };
  if (SUITS.includes(upper)) return { suit: upper };
  return null;
}

// Whether ``card`` ("7C") is one the held keys name: of a held rank (any, if none is held) and
// of a held suit (any, if none is held); nothing matches when nothing is held.
export function matches(card, ranks, suits) {
  if (!card || (!ranks.size && !suits.size)) return false;
  return (!ranks.size || ranks.has(card[0])) && (!suits.size || suits.has(card[1]));
}
