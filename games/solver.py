"""A solver for Addiction Solitaire: hints a fair player could be given, and whether a stretch can be won.

Two questions, one search (docs/RULES.md; issue 11):

- :func:`hint` answers "what should I do now?" from what the player sees, the position
  and how many shuffles remain: a :class:`~games.engine.Move`, :data:`SHUFFLE`, or None
  when nothing helps.  It never sees a game's seed.
- :func:`solve` answers "can this stretch be won with no further shuffle?": a
  :class:`SolveResult` that is won (with its winning line), proved lost, or unknown when
  the node budget ran out first.

Both are deterministic and bounded by a number of positions searched, never by the
clock, so a position gets the same answer on every machine.

The search keeps its own compact table: a position is 56 bytes, 14 a row (a card code
``suit * 13 + rank``, 0xFF for a gap, as in the engine, and on a 13-column table a wall
0xFE closing each row), which also key the transposition table.  Every variant of the
family plays the same moves, so one search serves them all: where the aces stay (Blue Moon,
Red Moon) they head the runs in column 0 and never move.  What the game's structure gives it:

- locked cards never move (except a 2 in column 0), so a position is judged first by
  how many cards are locked: a shuffle re-deals every other card;
- a gap right of the last locked card of a row takes one card only, and taking it is
  progress: the greedy search plays such moves before anything else and searches no
  alternative to them (:func:`solve` does, so that "proved lost" is a proof);
- a gap right of a King or of a gap is dead until its left neighbour changes, so it makes
  no move; moves into the frontier of a run are tried first.

What wins games (issue 11, ``benchmarks/hint_strength.py``): a shuffle re-deals every card
that is not locked, so what it deals depends only on the runs locked when it is used; once
the runs are long, a stretch is small (often a few hundred positions) and is won or lost
whatever is played, and the search seldom finds more than one set of runs to choose from
before shuffling.  What the greedy search did miss is a win in the stretch at hand that
needs a move into a frontier put off, or a card moved out of the way first: the hints
shuffled such tables away.  So every hint first spends a quarter of its budget on a patient
search for a win, which plays every move but a 2 leaving column 0 (such a 2 could go back
and forth, and the hints with it), and only then looks for more locked cards, as before.

>>> from games.engine import Position, WON
>>> almost = Position.parse(WON.replace("QS KS --", "QS -- KS"))
>>> hint(almost, 0)
Move('KS', (0, 12), (0, 11))
>>> solve(almost).verdict
<Verdict.WON: 'won'>
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable
from typing import Any, NamedTuple

from games.engine import (
    CARD_TOKENS,
    GAP,
    MAX_COLS,
    ROW_STARTS,
    RUN_HEADS,
    STRIDE,
    TWOS,
    WALL,
    GameState,
    Move,
    Position,
)

__all__ = [
    "ANALYSIS_BUDGET",
    "DEEP_BUDGET",
    "DEFAULT_BUDGET",
    "REQUEST_SEARCH_BUDGET",
    "SEARCHES_PER_STRETCH",
    "SHUFFLE",
    "Advice",
    "Followed",
    "RequestHint",
    "SolveResult",
    "StretchAnalysis",
    "Verdict",
    "advise",
    "analyse_stretch",
    "follow_hints",
    "hint",
    "request_hint",
    "search_win",
    "solve",
]

SHUFFLE = "shuffle"
"""The hint that says: use a shuffle now."""

DEFAULT_BUDGET = 20_000
"""Positions a hint or a solve may search by default: at most about 0.2 s on one core."""

# The engine's table, read as it is (Position.layout): 14 bytes a row on every table, a card's
# code, a gap, or a wall closing each row of a 13-column table; and its cards' codes.
_GAP, _WALL, _STRIDE, _WIDE = GAP, WALL, STRIDE, MAX_COLS
_TOKENS, _TWOS, _HEADS, _ROW_STARTS = CARD_TOKENS, TWOS, RUN_HEADS, ROW_STARTS
# _NEXT[byte] is the card that may follow it to its right, or -1 (after a King or a gap): -1
# rather than the engine's GAP, so that a gap's byte never matches it.
_NEXT = tuple(c + 1 if c < len(CARD_TOKENS) and CARD_TOKENS[c][0] != "K" else -1 for c in range(256))
# Which moves a search plays (see _moves): every move; a move into a run's frontier alone, and
# a 2 leaving column 0 only to lock its 3 (greedy); every move but such a 2 (patient).
_EVERY, _GREEDY, _PATIENT = 0, 1, 2


def _load_core(wanted: str):
    """The compiled search core (games/_searchcore.c, built by ``pip install`` where a C compiler
    is), or None for the pure-Python search, the reference.  ``ADDICTION_SEARCH_CORE`` may ask
    for either: "python", or "compiled", which fails loudly when it was not built."""
    if wanted == "python":
        return None
    try:
        from games import _searchcore  # type: ignore[attr-defined]
    except ImportError:
        if wanted == "compiled":
            raise
        return None
    _searchcore.configure(len(ROW_STARTS) * STRIDE, _STRIDE, _WIDE, _GAP, _NEXT, _HEADS, _TWOS, _ROW_STARTS)
    return _searchcore


_core = _load_core(os.environ.get("ADDICTION_SEARCH_CORE", ""))
CORE = "python" if _core is None else "compiled"
"""Which search core runs: "compiled" or "python" (``manage.py check`` says it)."""
_PROBE_SHARE = 4
"""A hint first spends up to a quarter of its budget on the patient search for a win."""


class Verdict(str, enum.Enum):
    """What a search proved about a stretch with no further shuffle."""

    WON = "won"
    PROVED_LOST = "proved_lost"
    UNKNOWN = "unknown"


class SolveResult(NamedTuple):
    """A :func:`solve` answer: the verdict, the winning line when won, and the positions searched."""

    verdict: Verdict
    line: list[Move]
    nodes: int

    @property
    def won(self) -> bool:
        return self.verdict is Verdict.WON

    @property
    def proved_lost(self) -> bool:
        return self.verdict is Verdict.PROVED_LOST

    @property
    def unknown(self) -> bool:
        return self.verdict is Verdict.UNKNOWN


class Advice(NamedTuple):
    """A :func:`advise` answer: the hint (a move, :data:`SHUFFLE` or None) and the positions searched."""

    hint: Move | str | None
    nodes: int


def hint(position: Position, shuffles_left: int, budget: int = DEFAULT_BUDGET) -> Move | str | None:
    """The move to play now, :data:`SHUFFLE` to shuffle now, or None when nothing helps."""
    return advise(position, shuffles_left, budget).hint


def advise(position: Position, shuffles_left: int, budget: int = DEFAULT_BUDGET) -> Advice:
    """:func:`hint` with the number of positions it searched.

    The search looks for a win in this stretch, first patiently (every move but a 2 leaving
    column 0) within a quarter of the budget, then greedily; failing that, for the
    reachable position with the most locked cards (then the best structure around them),
    and plays toward it.  When nothing better than the present position is within reach,
    a shuffle (if one is left) re-deals every card that is not locked, so this is the moment
    to use it.
    With no shuffle left and no win possible, nothing helps.
    """
    if shuffles_left < 0:
        raise ValueError(f"shuffles_left is 0 or more, not {shuffles_left}")
    layout, full = position.layout, position.variant.full_run
    # First a short search for a win only, that plays every move but a 2 leaving column 0:
    # the greedy search below never postpones a move into a run's frontier, and so misses
    # wins that need it.  (Searching every move here, the hints went round in circles, a 2
    # back and forth between two column-0 gaps, each way on a winning line.)
    probe = _explore(layout, budget // _PROBE_SHARE, full, forced=_PATIENT)
    nodes = probe.nodes
    if probe.won == layout:
        return Advice(None, nodes)  # the game is over: there is nothing left to do
    if probe.won is not None:
        return Advice(_line(probe, probe.won)[0], nodes)
    budget -= nodes
    found = _explore(layout, budget, full, forced=_GREEDY)
    nodes += found.nodes
    if found.won is None and found.nodes < budget and (not shuffles_left or found.complete and not found.gains_locked):
        # The greedy search is a heuristic: the full search may see further, and only it
        # proves that nothing helps.
        exact = _explore(layout, budget - found.nodes, full, forced=_EVERY)
        nodes += exact.nodes
        if exact.won is not None or shuffles_left and exact.gains_locked:
            found = exact
        elif exact.complete and not shuffles_left:
            return Advice(None, nodes)
    target = found.won if found.won is not None else found.best
    if target != layout and (found.won is not None or not shuffles_left or found.gains_locked):
        return Advice(_line(found, target)[0], nodes)
    if shuffles_left:
        return Advice(SHUFFLE, nodes)
    if target != layout:
        return Advice(_line(found, target)[0], nodes)
    return Advice(None, nodes)


def solve(position: Position, budget: int = DEFAULT_BUDGET) -> SolveResult:
    """Whether this stretch can be won with no further shuffle, and how, within ``budget`` positions.

    A won result carries the winning line; proved lost means every position reachable
    was searched.
    """
    layout, full = position.layout, position.variant.full_run
    nodes = 0
    for forced in (_GREEDY, _EVERY):  # the greedy search finds most wins; only the full one proves a loss
        found = _explore(layout, budget - nodes, full, forced=forced)
        nodes += found.nodes
        if found.won is not None:
            return SolveResult(Verdict.WON, _line(found, found.won), nodes)
    verdict = Verdict.PROVED_LOST if found.complete else Verdict.UNKNOWN
    return SolveResult(verdict, [], nodes)


DEEP_BUDGET = 5_000_000 if CORE == "compiled" else 1_000_000
"""Positions the background search of a stretch may visit (:func:`search_win`): seconds, not a
request's share.  Five million in the compiled core (about 1.3 s of a worker's CPU, 150 MB at
most), which wins 87% of the hold-out's games where one million won 82% (benchmarks/README.md,
"hint_strength.py"); one million in pure Python (some 7 s)."""


def search_win(position: Position, budget: int = DEEP_BUDGET) -> SolveResult:
    """A search for an outright win of this stretch, far deeper than a hint's (a background
    task's, not a request's): first with the greedy moves of :func:`solve`; when those are
    all seen before the budget is spent, again with every move, which may put off a move
    into a run's frontier or take a 2 out of column 0.  (The second pass once left out the
    2s leaving column 0, as a hint's probe does; with every move it found a win from 54 of
    80 deals where it found 46: benchmarks/README.md, "Issue 43".)  It remembers the
    positions seen by their hashes, not their parents, so that millions fit in a worker's
    memory.  Won carries the line; otherwise the answer is "unknown", whatever was seen,
    since it stops at its budget."""
    layout, full = position.layout, position.variant.full_run
    nodes = 0
    for forced in (_GREEDY, _EVERY):
        line, spent = _deep(layout, budget - nodes, full, forced)
        nodes += spent
        if line is not None:
            return SolveResult(Verdict.WON, line, nodes)
        if nodes >= budget:
            break
    return SolveResult(Verdict.UNKNOWN, [], nodes)


REQUEST_SEARCH_BUDGET = 100_000 if CORE == "compiled" else 0
"""Positions a hint's request may spend on :func:`search_win` before its own search
(:func:`request_hint`): about 25 ms in the compiled core; none in pure Python, whose search
is some twenty times slower than the compiled one."""

SEARCHES_PER_STRETCH = 4
"""Background searches a game's stretch may ask for: the one from its start (the deal, or a
shuffle) and three more from hints off any line found (docs/RULES.md, "Hints")."""


class RequestHint(NamedTuple):
    """A :func:`request_hint` answer: the hint, the winning line it begins when the request's
    search found one (empty otherwise), and the positions searched."""

    hint: Move | str | None
    line: list[Move]
    nodes: int


def request_hint(
    position: Position, shuffles_left: int, budget: int = DEFAULT_BUDGET, search_budget: int = REQUEST_SEARCH_BUDGET
) -> RequestHint:
    """The hint a request finds by itself at a position on no known line: first the deep
    search for an outright win (:func:`search_win`) within ``search_budget`` positions, whose
    line the site keeps; failing that, :func:`advise` within ``budget``."""
    nodes = 0
    if search_budget:
        found = search_win(position, search_budget)
        nodes = found.nodes
        if found.won and found.line:
            return RequestHint(found.line[0], found.line, nodes)
    asked = advise(position, shuffles_left, budget)
    return RequestHint(asked.hint, [], nodes + asked.nodes)


def _deep(layout: bytes, budget: int, full: int, forced: int) -> tuple[list[Move] | None, int]:
    """The search of :func:`_deep_python`, by the compiled core when it is the one in use."""
    if _core is None:
        return _deep_python(layout, budget, full, forced)
    path, nodes = _core.deep(layout, budget, full, forced)
    return (None if path is None else [_move(card, src, gap) for card, src, gap in path]), nodes


def _deep_python(layout: bytes, budget: int, full: int, forced: int) -> tuple[list[Move] | None, int]:
    """Depth-first search for a win, as :func:`_explore` orders it, keeping only the path;
    ``full`` is the run of a finished row (the variant's ``full_run``)."""
    runs = _runs(layout)
    won_locked = 4 * full
    if sum(runs) == won_locked:
        return [], 0
    seen = {hash(layout)}
    path: list[tuple[int, int, int]] = []  # path[d - 1]: the move that led to the position at depth d
    stack = [(layout, runs, 0, -1, -1, -1)]
    nodes = 0
    score_of, moves_of, push, add = _score, _moves, stack.append, seen.add
    while stack and nodes < budget:
        lay, runs, depth, card_in, src_in, gap_in = stack.pop()
        del path[max(depth - 1, 0) :]
        if depth:
            path.append((card_in, src_in, gap_in))
        nodes += 1
        children = []
        for card, src, gap in moves_of(lay, runs, forced):
            new = bytearray(lay)
            new[gap] = card
            new[src] = _GAP
            key = bytes(new)
            digest = hash(key)
            if digest in seen:
                continue
            add(digest)
            if src % _STRIDE == 0 or gap % _STRIDE == runs[gap // _STRIDE]:
                child_runs = _runs_after(key, runs, src, gap)
                if sum(child_runs) == won_locked:
                    moves = [*path, (card, src, gap)]
                    return [_move(c, s, g) for c, s, g in moves], nodes
            else:
                child_runs = runs
            children.append((score_of(key, child_runs, full), key, child_runs, card, src, gap))
        if len(children) > 1:
            children.sort()  # the most promising last, to be searched first
        for _, key, child_runs, card, src, gap in children:
            push((key, child_runs, depth + 1, card, src, gap))
    return None, nodes


ANALYSIS_BUDGET = 200_000
"""Positions each search of a finished game's analysis may visit (:func:`analyse_stretch`)."""


class StretchAnalysis(NamedTuple):
    """What :func:`analyse_stretch` found about one stretch of a game (docs/RULES.md, "Analysis").

    ``verdict``: could the stretch have been won from its start with no further shuffle;
    ``line``: a winning line from its start, when it could.  ``slip``: when it could but the
    player's stretch was not won, the index of the action after which no win was left
    (action ``i`` leads from ``positions[i - 1]`` to ``positions[i]``; ``len(positions)``
    is the action that ended the stretch: the shuffle, or giving up), with ``instead``, a
    move that kept the win.  ``decided`` is False when a search on the way ran out of
    budget, so that the slip is not known."""

    verdict: Verdict
    line: list[Move]
    slip: int | None
    instead: Move | None
    decided: bool
    nodes: int


def analyse_stretch(
    positions: list[Position],
    *,
    won: bool = False,
    budget: int = ANALYSIS_BUDGET,
    retry_budget: int = 0,
    deep_budget: int = 0,
) -> StretchAnalysis:
    """Analyse a stretch the player played: ``positions`` from its start (the deal or a
    shuffle) to its last, and ``won`` when the stretch ended in a win.

    The slip is found by bisection: a position reachable from one that cannot be won cannot
    be won either, so along the player's moves the win is possible up to some action and
    never after it (an undo may bring it back: bisection then finds one action that lost
    it, not always the last).  Each search is :func:`solve` within ``budget`` positions.
    When one runs out of budget and ``retry_budget`` is larger, the stretch is analysed once
    more with that budget (a lost game's last stretch: its verdict is the game's).  When its
    start is still undecided and ``deep_budget`` is given, the deep search (:func:`search_win`,
    which keeps no line to every position and so goes much further in the same memory) looks
    for a win from the start; a line it finds makes the verdict "won", and the slip is then
    looked for as above (a game's opening, and a lost game's last stretch)."""
    found = _analyse_stretch(positions, won, budget)
    if not found.decided and retry_budget > budget:
        again = _analyse_stretch(positions, won, retry_budget)
        found = again._replace(nodes=found.nodes + again.nodes)
    if found.verdict is not Verdict.UNKNOWN or not deep_budget:
        return found
    deep = search_win(positions[0], deep_budget)
    if not deep.won:
        return found._replace(nodes=found.nodes + deep.nodes)
    again = _analyse_stretch(positions, won, max(budget, retry_budget), first=deep)
    return again._replace(nodes=found.nodes + again.nodes)


def _analyse_stretch(
    positions: list[Position], won: bool, budget: int, first: SolveResult | None = None
) -> StretchAnalysis:
    first = first or solve(positions[0], budget)
    nodes = first.nodes
    if not first.won or won:
        return StretchAnalysis(first.verdict, first.line, None, None, not first.unknown, nodes)
    end = solve(positions[-1], budget)
    nodes += end.nodes
    if end.won:  # the win was still there when the stretch ended: the shuffle or giving up lost it
        return StretchAnalysis(Verdict.WON, first.line, len(positions), end.line[0] if end.line else None, True, nodes)
    if end.unknown:
        return StretchAnalysis(Verdict.WON, first.line, None, None, False, nodes)
    low, high, line = 0, len(positions) - 1, first.line  # a win from positions[low], none from positions[high]
    while high - low > 1:
        middle = (low + high) // 2
        found = solve(positions[middle], budget)
        nodes += found.nodes
        if found.unknown:
            return StretchAnalysis(Verdict.WON, first.line, None, None, False, nodes)
        if found.won:
            low, line = middle, found.line
        else:
            high = middle
    return StretchAnalysis(Verdict.WON, first.line, high, line[0], True, nodes)


class Followed(NamedTuple):
    """A game played by :func:`follow_hints`: where it ended, and what its hints cost."""

    state: GameState
    hint_nodes: list[int]
    hint_seconds: list[float]
    lookups: int
    search_seconds: list[float]
    searches_won: int


def follow_hints(
    state: GameState,
    *,
    budget: int = DEFAULT_BUDGET,
    deep_budget: int = DEEP_BUDGET,
    search_budget: int = REQUEST_SEARCH_BUDGET,
    as_site: bool = True,
    searches_per_stretch: int = SEARCHES_PER_STRETCH,
    clock: Callable[[], float] | None = None,
    observe: Callable[[GameState], None] | None = None,
) -> Followed:
    """Play ``state`` to its end doing what the site's hints say, as a player who follows
    every one of them and waits for the background searches (docs/RULES.md, "Hints").

    ``as_site`` plays the site's order: the deep search (:func:`search_win`, ``deep_budget``
    positions; 0 for none) from each stretch's start, the deal or a shuffle; a hint at a
    position on a found line is its next move, the line that was found first; any other
    hint is the request's own (:func:`request_hint`, ``budget`` and ``search_budget``),
    whose line is kept when it finds one, and when it found none and hints a move, the deep
    search from the position that move leads to, while the stretch has asked for fewer than
    ``searches_per_stretch``.  Otherwise (the first method of benchmarks/hint_strength.py),
    the deep search runs from the position of the stretch's first hint, before that hint,
    and every hint off its line is :func:`advise`'s.

    ``clock`` (``time.perf_counter``, say) only times the searches for the caller, and
    ``observe`` is shown each state the player reaches: what is played never depends on
    either.  When the hint says nothing helps, the player gives up."""
    known: dict[Position, Move] = {}
    searches: dict[int, int] = {}  # the background searches each stretch (shuffles used) asked for
    nodes: list[int] = []
    seconds: list[float] = []
    search_seconds: list[float] = []
    lookups = searches_won = 0

    def keep(position: Position, line: list[Move], *, first: bool) -> None:
        for move in line:
            if first:
                known.setdefault(position, move)
            else:
                known[position] = move
            position = position.play(move)

    def search_from(position: Position) -> None:
        nonlocal searches_won
        began = clock() if clock else 0.0
        found = search_win(position, deep_budget)
        search_seconds.append(clock() - began if clock else 0.0)
        if found.won:
            searches_won += 1
            keep(position, found.line, first=as_site)

    while not state.is_over:
        position = state.position
        stretch = state.shuffles_used
        if deep_budget and stretch not in searches and (as_site or position not in known):
            searches[stretch] = 1
            search_from(position)
        if position in known:
            lookups += 1
            advice: Move | str | None = known[position]
        else:
            began = clock() if clock else 0.0
            if as_site:
                asked = request_hint(position, state.shuffles_left, budget, search_budget)
                keep(position, asked.line, first=True)
                advice, spent = asked.hint, asked.nodes
            else:
                advice, spent = advise(position, state.shuffles_left, budget)
            seconds.append(clock() - began if clock else 0.0)
            nodes.append(spent)
            if as_site and deep_budget and isinstance(advice, Move) and not asked.line:
                if searches[stretch] < searches_per_stretch:
                    searches[stretch] += 1
                    search_from(position.play(advice))
        if advice is None:  # nothing helps: the player gives up
            state = state.resign()
            break
        state = state.shuffle() if advice == SHUFFLE else state.play(advice)  # type: ignore[arg-type]
        if observe:
            observe(state)
    return Followed(state, nodes, seconds, lookups, search_seconds, searches_won)


# --------------------------------------------------------------------------- the search


class _Exploration(NamedTuple):
    """What a search found: the line (as (card, source, gap) slots) to each position a caller
    may play toward (the win, or the nearest best position), and what it saw."""

    lines: dict
    best: bytes
    gains_locked: bool
    won: bytes | None
    nodes: int
    complete: bool


def _runs(layout: bytes) -> tuple[int, ...]:
    return tuple(_run(layout, start) for start in _ROW_STARTS)


def _run(layout: bytes, start: int) -> int:
    """How many cards are locked in the row that starts at slot ``start``."""
    if layout[start] not in _HEADS:
        return 0
    i = start + 1
    end = start + _WIDE  # a wall, where there is one, ends every run before it
    while i < end and layout[i] == _NEXT[layout[i - 1]]:
        i += 1
    return i - start


def _runs_after(layout: bytes, runs, src: int, gap: int) -> tuple[int, ...]:
    """The runs of ``layout``, reached from a position with ``runs`` by a move from ``src`` to
    ``gap`` that can change them: out of column 0, or into a run's frontier."""
    changed = list(runs)
    changed[src // _STRIDE] = _run(layout, src - src % _STRIDE)
    changed[gap // _STRIDE] = _run(layout, gap - gap % _STRIDE)
    return tuple(changed)


def _score(layout: bytes, runs, full: int) -> int:
    """How promising a position is: locked cards first, then the rows one move from growing."""
    ready = 0
    start = 0
    for run in runs:
        if run != full:
            card = layout[start + run]
            if card == _GAP:
                ready += 2
            elif run:
                # The card standing in the way can leave if the slot right of its predecessor is a
                # gap (a 2's predecessor, an ace, is on the table only where the aces stay).
                before = layout.find(card - 1)
                if before >= 0 and before % _STRIDE != _WIDE - 1 and layout[before + 1] == _GAP:
                    ready += 1
        start += _STRIDE
    return (runs[0] + runs[1] + runs[2] + runs[3]) * 16 + ready


def _explore(layout: bytes, budget: int, full: int, *, forced: int) -> _Exploration:
    """The search of :func:`_explore_python`, by the compiled core when it is the one in use
    (``CORE``): the same answer, field for field (tests/engine/test_search_core.py)."""
    if _core is None:
        return _explore_python(layout, budget, full, forced=forced)
    won, best, gains_locked, nodes, complete, won_line, best_line = _core.explore(layout, budget, full, forced)
    lines = {best: best_line} if won is None else {won: won_line}
    return _Exploration(lines, best, gains_locked, won, nodes, complete)


def _explore_python(layout: bytes, budget: int, full: int, *, forced: int) -> _Exploration:
    """Depth-first search of the positions reachable from ``layout``, with a transposition table.

    It stops at the first win, or after expanding ``budget`` positions.  ``full`` is the run of
    a finished row (the variant's ``full_run``); ``forced`` says which moves it plays:
    :data:`_EVERY`, :data:`_GREEDY` or :data:`_PATIENT` (see :func:`_moves`).
    """
    runs = _runs(layout)
    won_locked = 4 * full
    start_locked = sum(runs)
    # parents[position] = (its parent, card, source, gap, depth); depths shrink when a shorter way is seen.
    # (Any: a parent entry is a tuple or None, and the search reads it without narrowing.)
    parents: dict[bytes, Any] = {layout: None}
    if start_locked == won_locked:
        return _Exploration({layout: []}, layout, False, layout, 0, True)
    # The best positions other than the start: with no shuffle left, even a worse one beats giving up.
    best, best_score, best_locked = [layout], -1, start_locked
    stack = [(layout, runs, 0)]
    nodes = 0
    get, score_of, moves_of, push = parents.get, _score, _moves, stack.append
    while stack:
        if nodes >= budget:
            break
        lay, runs, depth = stack.pop()
        nodes += 1
        depth += 1
        children = []
        for card, src, gap in moves_of(lay, runs, forced):
            new = bytearray(lay)
            new[gap] = card
            new[src] = _GAP
            key = bytes(new)
            seen = get(key, False)
            if seen is not False:
                if seen is not None and seen[4] > depth:
                    parents[key] = (lay, card, src, gap, depth)
                continue
            parents[key] = (lay, card, src, gap, depth)
            if src % _STRIDE == 0 or gap % _STRIDE == runs[gap // _STRIDE]:
                child_runs = _runs_after(key, runs, src, gap)
                if sum(child_runs) == won_locked:
                    return _Exploration({key: _path(parents, key)}, key, True, key, nodes, False)
            else:
                child_runs = runs
            score = score_of(key, child_runs, full)
            if score >= best_score:
                if score > best_score:
                    best, best_score, best_locked = [], score, sum(child_runs)
                best.append(key)
            children.append((score, key, child_runs))
        if len(children) > 1:
            children.sort()  # the most promising last, to be searched first
        for _, key, child_runs in children:
            push((key, child_runs, depth))
    nearest = min(best, key=lambda key: parents[key][4] if parents[key] else 0)
    return _Exploration({nearest: _path(parents, nearest)}, nearest, best_locked > start_locked, None, nodes, not stack)


def _moves(layout: bytes, runs, forced: int) -> list[tuple[int, int, int]]:
    """The moves of ``layout`` as (card, source, gap) slots.

    :data:`_GREEDY`: only a move into a run's frontier if there is one, and a 2 leaves column 0
    only to lock its 3; :data:`_PATIENT`: that rule on 2s alone; :data:`_EVERY`: every move.
    """
    find = layout.find
    moves = []
    gap = -1
    for _ in range(4):
        gap = find(_GAP, gap + 1)
        col = gap % _STRIDE
        if col:
            card = _NEXT[layout[gap - 1]]
            if card >= 0:
                if forced == _GREEDY and col == runs[gap // _STRIDE]:
                    moves = [(card, find(card), gap)]  # the move into a run's frontier, alone
                    break
                moves.append((card, find(card), gap))
            continue
        for two in _TWOS:
            src = find(two)
            if forced and src % _STRIDE == 0 and (runs[src // _STRIDE] > 1 or layout[gap + 1] != two + 1):
                # A 2 in column 0 changes rows only to lock its 3 there: leading a run, it would
                # only unlock it, and alone it could make the hints go round in circles.
                continue
            moves.append((two, src, gap))
    return moves


def _move(card: int, src: int, dst: int) -> Move:
    """The engine's move of ``card`` from slot index ``src`` to ``dst``."""
    return Move(_TOKENS[card], divmod(src, _STRIDE), divmod(dst, _STRIDE), _WIDE)


def _path(parents: dict, target: bytes) -> list[tuple[int, int, int]]:
    """The (card, source, gap) slots of the moves from the searched position to ``target``."""
    path = []
    while (step := parents[target]) is not None:
        target, card, src, dst, _ = step
        path.append((card, src, dst))
    path.reverse()
    return path


def _line(found: _Exploration, target: bytes) -> list[Move]:
    """The moves that lead from the searched position to ``target`` (the win, or the nearest best)."""
    return [_move(card, src, dst) for card, src, dst in found.lines[target]]
