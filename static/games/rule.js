// The move rule as the page knows it, so that a legal move is drawn before the server's answer
// comes (moves.js).  It is docs/RULES.md, "Moves" and "Clicking a slot", written once here; the
// server's engine (games/engine.py, Position.move_for_slot) decides all the same.
// tests/browser/test_rule.py compares the two in Chromium on positions the engine draws, and
// tests/js/rule.test.mjs pins the cases in Node: pure functions of plain data, importing nothing.
//
// A table is an object from slot names ("R-C", row 0-3, column 0-12, or 0-13 on the table of
// Blue Moon and Red Moon, where the aces stay in column 0) to the card there ("7H") or "" for a
// gap.  The rule needs no width: a card fits only in column 0 or right of its predecessor, so
// only those slots are looked at, and a slot past the table's edge is simply not in the table.
const RANKS = "A23456789TJQK";
const ROWS = 4;

function name(row, col) { return row + "-" + col; }
function rowCol(slot) { return slot.split("-").map(Number); }
// The card one rank higher of the same suit, "" after a King (or for a gap); a 2 after an ace.
function successor(card) {
  const rank = card ? RANKS.indexOf(card[0]) : -1;
  return rank >= 0 && rank < RANKS.length - 1 ? RANKS[rank + 1] + card[1] : "";
}
// The card one rank lower, "" for an ace.
function predecessor(card) {
  const rank = RANKS.indexOf(card[0]);
  return rank > 0 ? RANKS[rank - 1] + card[1] : "";
}
function slotOf(table, card) {
  if (!card) return null;
  for (const slot in table) if (table[slot] === card) return slot;
  return null;
}
function rightOf(slot) {
  if (!slot) return null;
  const [row, col] = rowCol(slot);
  return name(row, col + 1);
}
// The first of ``slots`` in reading order (row by row, left to right), or null.
function topmost(slots) {
  let first = null;
  for (const slot of slots) {
    const [row, col] = rowCol(slot);
    if (first === null || row < first[0] || (row === first[0] && col < first[1])) first = [row, col];
  }
  return first && name(first[0], first[1]);
}

// Whether ``card`` may go into the gap ``gap``: a 2 into column 0, any other card right of
// its predecessor.
export function fits(table, card, gap) {
  if (!card || table[gap] !== "") return false;
  const [row, col] = rowCol(gap);
  if (col === 0) return card[0] === "2";
  return successor(table[name(row, col - 1)]) === card;
}

// The move a click on ``slot`` makes ({from, to}), or null; with ``to``, a drag onto that gap.
export function moveFor(table, slot, to) {
  const card = table[slot];
  if (to) return card && fits(table, card, to) ? { from: slot, to: to } : null;
  if (card) {  // the gap it fits, the topmost for a 2
    const places = [rightOf(slotOf(table, predecessor(card)))];
    if (card[0] === "2") for (let row = 0; row < ROWS; row++) places.push(name(row, 0));
    const gap = topmost(places.filter((place) => place && fits(table, card, place)));
    return gap ? { from: slot, to: gap } : null;
  }
  const [row, col] = rowCol(slot);
  if (col === 0) {  // the topmost 2 not already in column 0, the leftmost in its row
    const twos = Object.keys(table).filter((at) => table[at] && table[at][0] === "2" && rowCol(at)[1] !== 0);
    const from = topmost(twos);
    return from ? { from: from, to: slot } : null;
  }
  const from = slotOf(table, successor(table[name(row, col - 1)]));
  return from ? { from: from, to: slot } : null;
}

// What the table marks (docs/TABLE.md, a slot's classes; games/presenters/table.py, table_facts):
// the cards in place from column 0 (locked), the other cards a click moves (movable), the
// gaps nothing can fill (dead).
export function marks(table) {
  const locked = {}, movable = {}, dead = {};
  for (let row = 0; row < ROWS; row++) {
    const card = table[name(row, 0)];
    if (!card || (card[0] !== "2" && card[0] !== "A")) continue;  // a run starts with a 2, or the ace where they stay
    locked[name(row, 0)] = true;
    for (let col = 1; table[name(row, col)] && table[name(row, col)] === successor(table[name(row, col - 1)]); col++) {
      locked[name(row, col)] = true;
    }
  }
  for (const slot of Object.keys(table)) {
    const found = moveFor(table, slot);
    // A card in place may still move (a 2 to another column-0 gap), but is not marked so.
    if (table[slot]) { if (found && !locked[slot]) movable[slot] = true; }
    else if (!found) dead[slot] = true;
  }
  return { locked: locked, movable: movable, dead: dead };
}

// The move undo makes, read from the move it takes back as the server's log writes it
// ("7H:1-4>1-5", the grid's data-undo; docs/TABLE.md): {card, from, to}, the card going from
// the gap it filled back to its slot; null for anything else.
export function takenBack(text) {
  const found = /^([2-9TJQK][SHDC]):(\d+-\d+)>(\d+-\d+)$/.exec(text || "");
  return found ? { card: found[1], from: found[3], to: found[2] } : null;
}

// The Chromium tests ask the page's rule by this name (tests/browser/test_rule.py,
// test_instant_moves.py); the page's own modules import it.
globalThis.AddictionRule = { moveFor: moveFor, marks: marks, fits: fits, takenBack: takenBack };
