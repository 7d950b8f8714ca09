// The page's rule (static/games/rule.js) on hand-made tables of 13 and 14 columns; the Chromium
// test (tests/browser/test_rule.py) compares it with the engine on positions the engine draws.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { backwards, load, swapped, table, won } from "./page.mjs";

const { fits, marks, moveFor, takenBack } = await load("rule.js");
const names = (found) => Object.keys(found).sort();

// 13 columns: 5S taken from its place to the end of row 0, where a gap was (after 6S..KS).
//   2S 3S 4S -- 6S 7S 8S 9S TS JS QS KS 5S / 2H..KH -- / 2D..KD -- / 2C..KC --
const FIVE_AWAY = swapped(won(13), ["0-3", "0-12"]);
// 13 columns: 2H and 2C at the ends of their rows, gaps in column 0 of rows 1 and 3.
const TWOS_OUT = swapped(won(13), ["1-0", "1-12"], ["3-0", "3-12"]);

describe("fits", () => {
  test("a 2 goes into column 0, no other card does", () => {
    assert.equal(fits(TWOS_OUT, "2C", "1-0"), true);
    assert.equal(fits(TWOS_OUT, "3S", "1-0"), false);
  });
  test("any other card goes right of its predecessor, and only into a gap", () => {
    assert.equal(fits(FIVE_AWAY, "5S", "0-3"), true);
    assert.equal(fits(FIVE_AWAY, "5H", "0-3"), false);
    assert.equal(fits(FIVE_AWAY, "6S", "0-4"), false);  // not a gap
    assert.equal(fits(FIVE_AWAY, "", "0-3"), false);  // a gap is not a card
  });
  test("nothing goes right of a King", () => {
    for (const card of ["2H", "AH", "KH", "QH"]) assert.equal(fits(won(13), card, "1-12"), false);
  });
});

describe("moveFor, a click", () => {
  test("on a card: the gap right of its predecessor", () => {
    assert.deepEqual(moveFor(FIVE_AWAY, "0-12"), { from: "0-12", to: "0-3" });
  });
  test("on a card with nowhere to go, or whose predecessor ends the row: no move", () => {
    assert.equal(moveFor(FIVE_AWAY, "1-5"), null);
    assert.equal(moveFor(FIVE_AWAY, "0-4"), null);  // 5S is in column 12, the last: no 0-13 on this table
  });
  test("on a 2: the topmost gap of column 0", () => {
    assert.deepEqual(moveFor(TWOS_OUT, "3-12"), { from: "3-12", to: "1-0" });
    assert.deepEqual(moveFor(backwards(TWOS_OUT), "3-12"), { from: "3-12", to: "1-0" });
  });
  test("on a gap: the card one above its left neighbour comes", () => {
    assert.deepEqual(moveFor(FIVE_AWAY, "0-3"), { from: "0-12", to: "0-3" });
  });
  test("on a gap after a King or after a gap: no move", () => {
    assert.equal(moveFor(FIVE_AWAY, "1-12"), null);
    const twoGaps = swapped(FIVE_AWAY, ["0-4", "1-12"]);  // 6S to the end of row 1: gaps at 0-3 and 0-4
    assert.equal(moveFor(twoGaps, "0-4"), null);
  });
  test("on a gap in column 0: the topmost 2 not in column 0 comes, the leftmost in its row", () => {
    assert.deepEqual(moveFor(TWOS_OUT, "3-0"), { from: "1-12", to: "3-0" });
    assert.deepEqual(moveFor(backwards(TWOS_OUT), "3-0"), { from: "1-12", to: "3-0" });
    const sameRow = swapped(won(13), ["1-0", "1-12"], ["1-5", "2-0"]);  // 2D at 1-5, 2H at 1-12; 2S stays in 0-0
    assert.deepEqual(moveFor(sameRow, "1-0"), { from: "1-5", to: "1-0" });
    assert.deepEqual(moveFor(backwards(sameRow), "1-0"), { from: "1-5", to: "1-0" });
  });
});

describe("moveFor, a drag onto a gap", () => {
  test("moves the card where it fits", () => {
    assert.deepEqual(moveFor(TWOS_OUT, "3-12", "3-0"), { from: "3-12", to: "3-0" });  // not the topmost: the one dropped on
    assert.deepEqual(moveFor(FIVE_AWAY, "0-12", "0-3"), { from: "0-12", to: "0-3" });
  });
  test("nowhere else: not where it does not fit, not onto a card, not from a gap", () => {
    assert.equal(moveFor(TWOS_OUT, "1-1", "1-0"), null);  // 3H into column 0
    assert.equal(moveFor(FIVE_AWAY, "0-12", "1-12"), null);  // right of a King
    assert.equal(moveFor(FIVE_AWAY, "0-12", "0-4"), null);  // onto 6S
    assert.equal(moveFor(FIVE_AWAY, "1-12", "0-3"), null);  // a gap dragged
  });
});

describe("marks", () => {
  test("the won table: every card locked, none movable, every gap dead", () => {
    const found = marks(won(13));
    assert.equal(names(found.locked).length, 48);
    assert.deepEqual(names(found.movable), []);
    assert.deepEqual(names(found.dead), ["0-12", "1-12", "2-12", "3-12"]);
  });
  test("a run is locked from a 2 in column 0 up to its first break, and only there", () => {
    const found = marks(FIVE_AWAY);
    assert.deepEqual(names(found.locked).filter((slot) => slot.startsWith("0-")), ["0-0", "0-1", "0-2"]);
    assert.equal(found.locked["0-12"], undefined);
    const noTwo = marks(TWOS_OUT);  // rows 1 and 3 start with a gap: nothing in them is locked
    assert.deepEqual(names(noTwo.locked).filter((slot) => /^[13]-/.test(slot)), []);
  });
  test("movable: the cards a click moves that are not locked", () => {
    assert.deepEqual(names(marks(FIVE_AWAY).movable), ["0-12"]);
    assert.deepEqual(names(marks(TWOS_OUT).movable), ["1-12", "3-12"]);
  });
  test("dead: the gaps nothing can fill (after a King), not one a card fits", () => {
    const found = marks(FIVE_AWAY);
    assert.deepEqual(names(found.dead), ["1-12", "2-12", "3-12"]);
    assert.deepEqual(names(marks(TWOS_OUT).dead), ["0-12", "2-12"]);
  });
});

describe("14 columns, the aces heading the rows", () => {
  // AS 2S .. KS -- / AH 2H .. KH -- / ...: the won table of Blue Moon and Red Moon.
  test("the won table: the aces lock their rows, the gaps in column 13 are dead", () => {
    const found = marks(won(14));
    assert.equal(names(found.locked).length, 52);
    assert.equal(found.locked["2-0"], true);
    assert.deepEqual(names(found.dead), ["0-13", "1-13", "2-13", "3-13"]);
  });
  test("a 2 goes right of its ace; past column 13 there is no slot", () => {
    const twoAway = swapped(won(14), ["0-1", "0-13"]);  // AS -- 3S .. KS 2S
    assert.equal(fits(twoAway, "2S", "0-1"), true);
    assert.deepEqual(moveFor(twoAway, "0-13"), { from: "0-13", to: "0-1" });
    assert.deepEqual(moveFor(twoAway, "0-1"), { from: "0-13", to: "0-1" });
    assert.equal(moveFor(twoAway, "0-2"), null);  // 3S: its 2 is in the last column
    const found = marks(twoAway);
    assert.deepEqual(names(found.locked).filter((slot) => slot.startsWith("0-")), ["0-0"]);
    assert.deepEqual(names(found.movable), ["0-13"]);
  });
  test("a card goes into column 13, right of its predecessor in column 12", () => {
    // Row 0: AS .. KS KH; row 1: AH .. JH -- QH --.
    const kingOut = swapped(won(14), ["1-12", "0-13"], ["1-11", "1-12"]);
    assert.equal(kingOut["1-12"], "QH");
    assert.deepEqual(moveFor(kingOut, "1-13"), { from: "0-13", to: "1-13" });
    assert.deepEqual(moveFor(kingOut, "0-13"), { from: "0-13", to: "1-13" });
    assert.deepEqual(moveFor(kingOut, "1-11"), { from: "1-12", to: "1-11" });
    assert.deepEqual(names(marks(kingOut).movable), ["0-13", "1-12"]);
    assert.deepEqual(names(marks(kingOut).dead), ["2-13", "3-13"]);
  });
});

describe("takenBack", () => {
  test("undo moves the card from the gap it filled back to its slot", () => {
    assert.deepEqual(takenBack("7H:1-4>1-5"), { card: "7H", from: "1-5", to: "1-4" });
    assert.deepEqual(takenBack("2C:3-12>0-0"), { card: "2C", from: "0-0", to: "3-12" });
    assert.deepEqual(takenBack("QS:2-13>2-6"), { card: "QS", from: "2-6", to: "2-13" });  // a moon's 14th column
  });
  test("nothing to take back, or text that is not a move, draws nothing", () => {
    for (const text of ["", undefined, "7H", "AH:1-4>1-5", "7H:1-4", "7h:1-4>1-5", "7H:1-4>1-5 "]) {
      assert.equal(takenBack(text), null, String(text));
    }
  });
});
