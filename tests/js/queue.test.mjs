// The queue of instant moves (static/games/queue.js): what is sent next and with what, what a
// refusal drops, what is drawn again after an answer, and how the game's other actions wait.
// tests/browser/test_instant_moves.py plays the same through a slowed server in Chromium.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { load } from "./page.mjs";

const Queue = await load("queue.js");
const Rule = await load("rule.js");

const MOVE = (from, to) => ({ from: from, to: to });
// A queue with three clicks, the first two drawn, the third not (nothing to draw for it).
function threeClicks() {
  const queue = Queue.createQueue();
  Queue.add(queue, "0-3", "", MOVE("0-3", "1-4"));
  Queue.add(queue, "2-7", "2-0", MOVE("2-7", "2-0"));
  Queue.add(queue, "3-3");
  return queue;
}
// Send the next move as the page does: take it, and htmx makes its request.
function send(queue, request, now = 0) {
  const step = Queue.next(queue, now, true);
  assert.ok(step && step.send, "a move to send: " + JSON.stringify(step));
  assert.equal(Queue.claim(queue, request), true);
  return step.send;
}

describe("order", () => {
  test("moves go one at a time, in the order clicked, each once the one before is over", () => {
    const queue = threeClicks(), sent = [];
    sent.push(send(queue, "r1").slot);
    assert.equal(Queue.next(queue, 0, true), null);  // the first is out: nothing more yet
    Queue.finished(queue, 200);
    sent.push(send(queue, "r2").slot);
    Queue.finished(queue, 200);
    sent.push(send(queue, "r3").slot);
    Queue.finished(queue, 200);
    assert.deepEqual(sent, ["0-3", "2-7", "3-3"]);
    assert.deepEqual(Queue.next(queue, 0, true), { release: [] });
  });
  test("without the table on the page nothing is sent", () => {
    const queue = threeClicks();
    assert.equal(Queue.next(queue, 0, false), null);
    assert.equal(queue.items.length, 3);
  });
  test("a move htmx did not send goes first again; one it sent stays in flight", () => {
    const queue = threeClicks();
    Queue.next(queue, 0, true);
    assert.equal(Queue.unsent(queue), true);
    assert.deepEqual(queue.items.map((item) => item.slot), ["0-3", "2-7", "3-3"]);
    send(queue, "r1");
    assert.equal(Queue.unsent(queue), false);
    assert.equal(Queue.isSending(queue, "r1"), true);
    assert.equal(Queue.claim(queue, "another"), false);  // the next request is not the move's
  });
});

describe("what a move posts", () => {
  test("its slot and the version the grid has when it goes", () => {
    assert.deepEqual(Queue.values({ slot: "0-3", to: "" }, "12"), { slot: "0-3", version: "12" });
  });
  test("a drag posts its gap too", () => {
    assert.deepEqual(Queue.values({ slot: "2-7", to: "2-0" }, "13"), { slot: "2-7", version: "13", to: "2-0" });
  });
  test("the item sent carries the gap of a drag and what was drawn", () => {
    const queue = threeClicks();
    send(queue, "r1");
    Queue.finished(queue, 200);
    const second = send(queue, "r2");
    assert.deepEqual([second.to, second.move], ["2-0", MOVE("2-7", "2-0")]);
  });
});

describe("answers", () => {
  test("an accepted answer: the moves still queued are drawn again over it, those drawn", () => {
    const queue = threeClicks();
    send(queue, "r1");
    assert.deepEqual(Queue.answered(queue, 200, true), [MOVE("2-7", "2-0")]);
    assert.equal(queue.items.length, 2);
  });
  for (const status of [409, 422]) {
    test(`a refusal, a stale page or a lost answer (${status}) drops the moves queued after it`, () => {
      const queue = threeClicks();
      send(queue, "r1");
      assert.deepEqual(Queue.answered(queue, status, true), []);
      Queue.finished(queue, status);
      assert.equal(queue.items.length, 0);
      assert.equal(Queue.busy(queue), false);
    });
  }
  test("a lost answer (no swap) drops them too, when its request ends", () => {
    const queue = threeClicks();
    send(queue, "r1");
    Queue.finished(queue, 0);
    assert.deepEqual(Queue.next(queue, 0, true), { release: [] });
  });
  test("an answer that ends the game drops them", () => {
    const queue = threeClicks();
    send(queue, "r1");
    assert.deepEqual(Queue.answered(queue, 200, false), []);
    assert.equal(queue.items.length, 0);
  });
});

describe("the moves counter", () => {
  test("counts the moves drawn that no answer has counted yet", () => {
    const queue = threeClicks();
    assert.equal(Queue.pending(queue), 2);  // the third was not drawn
    send(queue, "r1");
    assert.equal(Queue.pending(queue), 2);  // in flight, still uncounted
    Queue.answered(queue, 200, true);
    assert.equal(Queue.pending(queue), 1);  // the answer's counter has it
    Queue.finished(queue, 200);
    assert.equal(Queue.pending(queue), 1);
  });
});

describe("the game's other actions", () => {
  test("wait while moves are queued or in flight, and go once the queue is empty, once", () => {
    const queue = Queue.createQueue(), issued = [];
    Queue.add(queue, "0-3", "", MOVE("0-3", "1-4"));
    assert.equal(Queue.busy(queue), true);
    Queue.hold(queue, () => issued.push("undo"));
    send(queue, "r1");
    assert.equal(Queue.busy(queue), true);
    Queue.finished(queue, 200);
    const step = Queue.next(queue, 0, true);
    step.release.forEach((issue) => issue());
    assert.deepEqual(issued, ["undo"]);
    assert.deepEqual(Queue.next(queue, 0, true), { release: [] });
  });
  test("while one is out, a click is not drawn and waits, looking again shortly", () => {
    const queue = Queue.createQueue();
    Queue.otherStarted(queue, 1000);
    assert.equal(Queue.drawable(queue), false);
    Queue.add(queue, "0-3");
    assert.deepEqual(Queue.next(queue, 1050, true), { wait: Queue.OTHERS_POLL_MS });
    Queue.otherFinished(queue);
    assert.equal(Queue.drawable(queue), true);
    assert.equal(Queue.next(queue, 1100, true).send.slot, "0-3");
  });
  test("one whose end never comes holds the queue no longer than OTHERS_WAIT_MS", () => {
    const queue = Queue.createQueue();
    Queue.otherStarted(queue, 1000);
    Queue.otherStarted(queue, 5000);  // a second one does not restart the wait
    Queue.add(queue, "0-3");
    assert.ok(Queue.next(queue, 1000 + Queue.OTHERS_WAIT_MS, true).wait);
    assert.equal(Queue.next(queue, 1001 + Queue.OTHERS_WAIT_MS, true).send.slot, "0-3");
  });
  test("more ends than starts never count below none", () => {
    const queue = Queue.createQueue();
    Queue.otherFinished(queue);
    Queue.otherStarted(queue, 0);
    assert.equal(Queue.drawable(queue), false);
  });
});

describe("a redraw that never draws a lie", () => {
  const { moveFor } = Rule;
  function tableOf(cells) {
    const found = {};
    for (let row = 0; row < 4; row++) for (let col = 0; col < 13; col++) found[row + "-" + col] = "";
    return Object.assign(found, cells);
  }
  // Clicks queued on ``shown`` as the page draws them (each move with its card); the table is
  // left as it was, as the page's is once the queued moves are taken off before an answer.
  function queued(shown, clicks) {
    const queue = Queue.createQueue(), now = Object.assign({}, shown);
    for (const slot of clicks) {
      const move = moveFor(now, slot, "");
      if (move) {
        move.card = now[move.from];
        now[move.to] = move.card;
        now[move.from] = "";
      }
      Queue.add(queue, slot, "", move);
    }
    return queue;
  }
  const START = { "0-0": "2S", "0-1": "3S", "0-5": "4S", "1-4": "5S" };
  const fromTo = (found) => found.draw.map((move) => [move.from, move.to]);

  test("moves whose cards are where they were, into gaps still empty, are drawn again in order", () => {
    const queue = queued(tableOf(START), ["0-5", "1-4"]);  // the 4S after the 3S, then the 5S after it
    const found = Queue.standing(queue, tableOf(START), moveFor);
    assert.deepEqual([fromTo(found), found.lie], [[["0-5", "0-2"], ["1-4", "0-3"]], false]);
    assert.equal(queue.items.length, 2);  // both still to send
  });

  test("a move whose card is no longer in its slot is a lie: it and the clicks after it go", () => {
    const queue = queued(tableOf(START), ["0-5", "1-4", "0-5"]);
    const other = tableOf({ ...START, "1-4": "JH" });  // the answer put another card at 1-4
    const found = Queue.standing(queue, other, moveFor);
    assert.deepEqual([fromTo(found), found.lie], [[["0-5", "0-2"]], true]);
    assert.deepEqual(queue.items.map((item) => item.slot), ["0-5"]);  // the one before it still goes
  });

  test("a gap the answer filled, or a neighbour it changed, is a lie too", () => {
    const filled = Queue.standing(queued(tableOf(START), ["0-5"]), tableOf({ ...START, "0-2": "KD" }), moveFor);
    assert.equal(filled.lie, true);
    const neighbour = Queue.standing(queued(tableOf(START), ["0-5"]), tableOf({ ...START, "0-1": "9C" }), moveFor);
    assert.equal(neighbour.lie, true);
  });

  test("clicks not drawn are left to the server, and a refusal drops everything first", () => {
    const queue = queued(tableOf(START), ["0-5", "3-3"]);  // the second click moves nothing
    assert.deepEqual(Queue.standing(queue, tableOf(START), moveFor).lie, false);
    assert.equal(queue.items.length, 2);
    Queue.answered(queue, 422, true);
    assert.deepEqual(Queue.standing(queue, tableOf(START), moveFor), { draw: [], lie: false });
  });

  test("the moves to take off before an answer are the drawn ones, in the order clicked", () => {
    const queue = queued(tableOf(START), ["0-5", "3-3", "1-4"]);
    assert.deepEqual(Queue.drawnMoves(queue).map((move) => move.card), ["4S", "5S"]);
  });
});
