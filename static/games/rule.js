// The move rule as the page knows it, so that a legal move is drawn before the server's answer
// comes (game.js, "Instant moves").  It is docs/RULES.md, "Moves" and "Clicking a slot", written
// once here; the server's engine (games/engine.py, Position.move_for_slot) decides all the same,
// and tests/browser/test_rule.py compares the two on positions the engine draws.
//
// A table is an object from slot names ("R-C", row 0-3, column 0-12, or 0-13 on the table of
// Blue Moon and Red Moon, where the aces stay in column 0) to the card there ("7H") or "" for a gap.
(function () {
  "use strict";
  var RANKS = "A23456789TJQK";
  var ROWS = 4;
  // The table's width: 13, or 14 where the aces stay.
  function colsOf(table) { return table["0-13"] === undefined ? 13 : 14; }

  function name(row, col) { return row + "-" + col; }
  function rowCol(slot) { return slot.split("-").map(Number); }
  // The card one rank higher of the same suit, "" after a King (or for a gap); a 2 after an ace.
  function successor(card) {
    var rank = card ? RANKS.indexOf(card[0]) : -1;
    return rank >= 0 && rank < RANKS.length - 1 ? RANKS[rank + 1] + card[1] : "";
  }
  function slotOf(table, card) {
    for (var slot in table) if (table[slot] === card) return slot;
    return null;
  }
  // Whether ``card`` may go into the gap ``gap``: a 2 into column 0, any other card right of
  // its predecessor.
  function fits(table, card, gap) {
    if (!card || table[gap] !== "") return false;
    var rc = rowCol(gap);
    if (rc[1] === 0) return card[0] === "2";
    return successor(table[name(rc[0], rc[1] - 1)]) === card;
  }
  // The move a click on ``slot`` makes ({from, to}), or null; with ``to``, a drag onto that gap.
  function moveFor(table, slot, to) {
    var card = table[slot];
    if (to) return card && fits(table, card, to) ? { from: slot, to: to } : null;
    var row, col, COLS = colsOf(table);
    if (card) {  // the gap it fits, the topmost for a 2
      for (row = 0; row < ROWS; row++) {
        for (col = 0; col < COLS; col++) {
          if (fits(table, card, name(row, col))) return { from: slot, to: name(row, col) };
        }
      }
      return null;
    }
    var rc = rowCol(slot);
    if (rc[1] === 0) {  // the topmost 2 not already in column 0, the leftmost in its row
      for (row = 0; row < ROWS; row++) {
        for (col = 1; col < COLS; col++) {
          var there = table[name(row, col)];
          if (there && there[0] === "2") return { from: name(row, col), to: slot };
        }
      }
      return null;
    }
    var wanted = successor(table[name(rc[0], rc[1] - 1)]);
    var from = wanted && slotOf(table, wanted);
    return from ? { from: from, to: slot } : null;
  }
  // The table after ``move``.
  function after(table, move) {
    var next = Object.assign({}, table);
    next[move.to] = table[move.from];
    next[move.from] = "";
    return next;
  }
  // What the table marks (docs/TABLE.md, a slot's classes; games/presenters.py, table_facts):
  // the cards in place from column 0 (locked), the other cards a click moves (movable), the
  // gaps nothing can fill (dead).
  function marks(table) {
    var locked = {}, movable = {}, dead = {}, COLS = colsOf(table);
    for (var row = 0; row < ROWS; row++) {
      var col = 0, card = table[name(row, 0)];
      if (card && (card[0] === "2" || card[0] === "A")) {  // a run starts with a 2, or the ace where they stay
        locked[name(row, 0)] = true;
        for (col = 1; col < COLS && table[name(row, col)] && table[name(row, col)] === successor(table[name(row, col - 1)]); col++) {
          locked[name(row, col)] = true;
        }
      }
    }
    Object.keys(table).forEach(function (slot) {
      var found = moveFor(table, slot);
      // A card in place may still move (a 2 to another column-0 gap), but is not marked so.
      if (table[slot]) { if (found && !locked[slot]) movable[slot] = true; }
      else if (!found) dead[slot] = true;
    });
    return { locked: locked, movable: movable, dead: dead };
  }

  window.AddictionRule = { moveFor: moveFor, after: after, marks: marks, fits: fits };
})();
