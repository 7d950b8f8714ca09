// The card finder's keys (static/games/find.js): what each key names, and which cards a held set
// of keys lights; the browser test (tests/browser/test_card_finder.py) holds them in Chromium.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { load } from "./page.mjs";

const { matches, named } = await load("find.js");

describe("named", () => {
  test("rank keys, ten as T or 0, either case", () => {
    assert.deepEqual(named("7"), { rank: "7" });
    assert.deepEqual(named("t"), { rank: "T" });
    assert.deepEqual(named("0"), { rank: "T" });
    assert.deepEqual(named("q"), { rank: "Q" });
    assert.deepEqual(named("A"), { rank: "A" });
  });
  test("suit keys", () => {
    for (const suit of "shdc") assert.deepEqual(named(suit), { suit: suit.toUpperCase() });
  });
  test("any other key names nothing", () => {
    for (const key of ["1", "g", "u", "n", "?", "Enter", "ArrowLeft", "", " "]) assert.equal(named(key), null, key);
  });
});

describe("matches", () => {
  const none = new Set();
  test("a rank alone lights its four cards", () => {
    const lit = ["7S", "7H", "7D", "7C", "8C", "6H"].filter((card) => matches(card, new Set(["7"]), none));
    assert.deepEqual(lit, ["7S", "7H", "7D", "7C"]);
  });
  test("a suit alone lights its cards", () => {
    assert.equal(matches("KC", none, new Set(["C"])), true);
    assert.equal(matches("KD", none, new Set(["C"])), false);
  });
  test("a rank and a suit light the one card", () => {
    const lit = ["7S", "7C", "8C"].filter((card) => matches(card, new Set(["7"]), new Set(["C"])));
    assert.deepEqual(lit, ["7C"]);
  });
  test("two ranks light either", () => {
    assert.equal(matches("9H", new Set(["9", "T"]), none), true);
    assert.equal(matches("TH", new Set(["9", "T"]), none), true);
  });
  test("nothing held, or a gap, lights nothing", () => {
    assert.equal(matches("7C", none, none), false);
    assert.equal(matches("", new Set(["7"]), none), false);
  });
});
