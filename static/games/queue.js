// The queue of instant moves, as plain data: the clicks waiting to be posted, the one in flight,
// and the game's other actions held until the queue is empty.  moves.js draws and talks to htmx;
// what to draw, what to send next, what a refusal drops and what to draw again after an answer
// are decided here, by plain functions of plain data that import nothing, so that Node tests
// them (tests/js/queue.test.mjs) without a page.
//
// Moves made faster than the answers come are posted one at a time, in order, each with the
// version the answer before it left on the grid.  A refused move (or a stale page, or a lost
// answer) leaves the server's table standing, so the moves queued after it go.  The other
// actions (undo, shuffle, a hint...) wait until the queue is empty, and a click while one of
// them is out waits its turn undrawn: a shuffle deals a table the page cannot know.

// Another action of the game holds the queue, but not for ever: one whose end htmx never told
// would otherwise hold every later click.
export const OTHERS_WAIT_MS = 15000;
export const OTHERS_POLL_MS = 100;  // how often a queue held by another action looks again

export function createQueue() {
  // items: {slot, to, move}, move being what was drawn ({from, to}) or null; sending: the item
  // in flight, with the request htmx made for it; others: the game's other posts in flight.
  return { items: [], sending: null, waiting: [], others: 0, othersSince: 0 };
}

// Whether a click may be drawn now: not while another action is out.
export function drawable(queue) { return !queue.others; }

// A click on ``slot`` (a drag: onto ``to``), drawn as ``move`` or not drawn (null).
export function add(queue, slot, to, move) {
  queue.items.push({ slot: slot, to: to || "", move: move || null });
}

// The moves drawn that no answer has counted yet (the counter shows them on top of the grid's).
export function pending(queue) {
  const queued = queue.items.filter((item) => item.move).length;
  const sending = queue.sending;
  return queued + (sending && sending.move && !sending.answered ? 1 : 0);
}

// What to do now (``now`` in ms; ``tableShown``: the page still has the grid): {wait: ms} and
// look again, {release: [...]} the actions that waited (the queue is empty), {send: item} (it is
// in flight from now on), or null (a request is out: its end looks again).
export function next(queue, now, tableShown) {
  if (queue.others && now - queue.othersSince > OTHERS_WAIT_MS) queue.others = 0;
  if (queue.others && queue.items.length) return { wait: OTHERS_POLL_MS };
  if (queue.sending || queue.others || !tableShown) return null;
  if (!queue.items.length) {
    const later = queue.waiting;
    queue.waiting = [];
    return { release: later };
  }
  queue.sending = queue.items.shift();
  queue.sending.request = null;
  return { send: queue.sending };
}

// The values a move posts with the grid's form: its slot, the gap of a drag, and the version of
// the table it was played on (a stale one is answered 409).
export function values(item, version) {
  const posted = { slot: item.slot, version: version };
  if (item.to) posted.to = item.to;
  return posted;
}

// The first request the page makes after ``next`` gave a move is that move's.
export function claim(queue, request) {
  if (!queue.sending || queue.sending.request) return false;
  queue.sending.request = request;
  return true;
}
export function isSending(queue, request) { return !!queue.sending && queue.sending.request === request; }

// htmx did not send the move (the grid was busy after all): it goes first again.
export function unsent(queue) {
  if (!queue.sending || queue.sending.request) return false;
  queue.items.unshift(queue.sending);
  queue.sending = null;
  return true;
}

// The answer to the move in flight was swapped in with ``status``, the game ``playing`` or not:
// the moves to draw again over it (it knows only the moves before them), none after a refusal
// or the end.
export function answered(queue, status, playing) {
  if (queue.sending) queue.sending.answered = true;  // the counters it swapped in count it
  if (status !== 200 || !playing) queue.items = [];
  return queue.items.filter((item) => item.move).map((item) => item.move);
}

// The moves drawn for the clicks still queued, in the order clicked: taken off the page (in
// reverse) before an answer is swapped in, so that its slots land on the table it was made
// from (moves.js).
export function drawnMoves(queue) {
  return queue.items.filter((item) => item.move).map((item) => item.move);
}

// After an answer of changes (its slots swapped in over the table as the move in flight left
// it, the queued moves taken off first): which of the moves still queued stand on ``table``
// (slot -> card, "" for a gap, as the page shows it now), each checked in order against the
// rule (``moveFor``, rule.js's, given as a parameter so that this file imports nothing).  A
// queued move ({from, to, card}) stands when its card is still in ``from``, the gap ``to`` is
// still empty, and the rule moves that card there again: then the server, given the same click,
// makes the same move.  The first that does not (a card no longer there, a gap filled, a
// neighbour changed: the answer made it untrue) stops the queue: it and every click after it
// go unsent (``lie``), and the page stays on the server's table.  Returns {draw, lie}: the
// moves to draw again, in order.
export function standing(queue, table, moveFor) {
  const shown = Object.assign({}, table), draw = [];
  for (let index = 0; index < queue.items.length; index++) {
    const item = queue.items[index], move = item.move;
    if (!move) continue;  // a click not drawn: the server decides it
    const again = shown[move.from] === move.card && !shown[move.to] ? moveFor(shown, item.slot, item.to) : null;
    if (!again || again.from !== move.from || again.to !== move.to) {
      stop(queue, index);
      return { draw: draw, lie: true };
    }
    draw.push(move);
    shown[move.to] = move.card;
    shown[move.from] = "";
  }
  return { draw: draw, lie: false };
}

// The clicks queued from ``index`` on go unsent (all of them without one).
export function stop(queue, index = 0) { queue.items = queue.items.slice(0, index); }

// The move's request is over: refused, stale or lost (not 200), the server's table (or note)
// stands, and the moves queued after it go.
export function finished(queue, status) {
  if (status !== 200) queue.items = [];
  queue.sending = null;
}

// Another action of the game went out, or came back.
export function otherStarted(queue, now) {
  if (!queue.others) queue.othersSince = now;
  queue.others += 1;
}
export function otherFinished(queue) { queue.others = Math.max(0, queue.others - 1); }

// Whether another action must wait for the moves: some are queued or one is in flight.
export function busy(queue) { return queue.items.length > 0 || !!queue.sending; }
export function hold(queue, issue) { queue.waiting.push(issue); }
