"""Finding and grading a puzzle (issue 47): a position from which a win without another shuffle
exists, where a choice matters (some legal moves keep the win, others lose it), with the
shortest winning line the solver finds within its budget and how hard it is.  The engine and
the solver alone, no Django: the supply (a management command and the background worker, in a
later stop) stores what this finds; benchmarks/puzzle_supply.py measures it on fresh deals.

A fresh deal gives a puzzle as a player's game would: the solver wins the deal's first stretch,
and a position along that winning line is the one a player reaches by playing well; it is a
puzzle when, there, at least one legal move throws the win away (a slip the analysis of a real
game names the same way, docs/RULES.md, "Analysis")."""

from __future__ import annotations

from typing import NamedTuple

from games import engine, solver

MIN_LINE = 4  # moves a puzzle's winning line takes at least: fewer is no puzzle
MAX_LINE = 60  # and at most: a puzzle is the end of a stretch, not a whole game
MAX_PLAY = 30  # moves a puzzle asks of the player at most before the rest plays itself
KEEP_BUDGET = 20_000  # positions each first move's search may visit to say it keeps the win
AIMS = 8  # a puzzle from a fresh deal aims at 1 to AIMS decisions, by the deal's number
SETTLE_CAP = 5_000  # positions :func:`settled` may enumerate before it says "not settled"


class Puzzle(NamedTuple):
    """A position (the engine's notation), its variant, the deal and step it comes from, its
    winning line (the moves' notation), and its difficulty's figures: the positions the search
    needed, the legal first moves, how many of them keep the win, the positions along the line
    where a move would lose the win (``decisions``), and the moves the line takes until every
    line wins (``to_settle``: :func:`settled`)."""

    variant: str
    deal_number: int
    step: int
    position: str
    line: tuple[str, ...]
    nodes: int
    first_moves: int
    keepers: int
    decisions: int = 1
    to_settle: int = 1

    @property
    def difficulty(self) -> float:
        """A first grade, from 0 up: more decisions, fewer first moves that keep the win, more
        moves before the rest plays itself.  The puzzle's rating (puzzles/glicko.py) takes over
        once players have tried it."""
        scarce = 1 - self.keepers / self.first_moves
        return round(self.decisions + scarce * 2 + self.to_settle / 10, 2)


def keepers(position: engine.Position, budget: int = KEEP_BUDGET) -> tuple[int, int]:
    """How many of ``position``'s legal moves keep a win without another shuffle, and how many
    legal moves there are.  A move whose search runs out of budget counts as keeping it (never
    call a move a slip without proof)."""
    moves = position.legal_moves()
    kept = sum(1 for move in moves if not solver.solve(position.play(move), budget).proved_lost)
    return kept, len(moves)


def settled(position: engine.Position, cap: int = SETTLE_CAP) -> bool:
    """Whether every line from ``position`` wins: each of the positions reachable from it (no
    shuffle) can still reach a won table, as a full enumeration of them shows; False when there
    are more than ``cap`` (so nothing is called settled without proof).  A puzzle is solved from
    such a position: the rest plays itself."""
    seen = {position.layout: position}
    parents: dict[bytes, list[bytes]] = {}
    frontier = [position]
    while frontier:
        here = frontier.pop()
        for move in here.legal_moves():
            there = here.play(move)
            parents.setdefault(there.layout, []).append(here.layout)
            if there.layout not in seen:
                if len(seen) >= cap:
                    return False
                seen[there.layout] = there
                frontier.append(there)
    winning = [layout for layout, reached in seen.items() if reached.is_won()]
    reach = set(winning)
    while winning:
        for parent in parents.get(winning.pop(), ()):
            if parent not in reach:
                reach.add(parent)
                winning.append(parent)
    return len(reach) == len(seen)


def settles_at(positions: list[engine.Position]) -> int:
    """The index of the first of ``positions`` (a line's, in order) from which every line wins,
    ``len(positions)`` if none: settling holds from there on, since each later position is
    reachable from it."""
    first = len(positions)
    while first > 0 and settled(positions[first - 1]):
        first -= 1
    return first


def from_deal(
    deal_number: int, variant: str = engine.DEFAULT_VARIANT.key, *, budget: int | None = None
) -> Puzzle | None:
    """A position along the solver's win of the deal's first stretch, with MIN_LINE to MAX_LINE
    moves left and at most MAX_PLAY before every line wins (:func:`settled`), where a move loses
    the win: of those, the one whose decisions from there (positions where a move loses the win,
    before the rest plays itself) come nearest 1 + the deal's number modulo AIMS, the latest of
    equals; None when the search wins nothing within ``budget`` or no such position comes."""
    budget = budget or solver.DEFAULT_BUDGET * 10
    position = engine.deal(deal_number, variant)
    found = solver.solve(position, budget)
    if not found.won:
        return None
    first = max(0, len(found.line) - MAX_LINE)
    positions = [position]
    for move in found.line:
        positions.append(positions[-1].play(move))
    positions = positions[first:]
    settle = settles_at(positions)
    offers = [(step, keepers(positions[step])) for step in range(max(0, settle - MAX_PLAY), settle)]
    slips = [(step, kept, choices) for step, (kept, choices) in offers if 0 < kept < choices]
    candidates = [
        (sum(1 for later, _k, _c in slips if later >= step), step, kept, choices)
        for step, kept, choices in slips
        if len(positions) - 1 - step >= MIN_LINE
    ]
    if not candidates:
        return None
    aim = 1 + deal_number % AIMS  # the decisions this deal's puzzle aims at: the supply spreads from easy to hard
    _decisions, step, _kept, _choices = min(candidates, key=lambda c: (abs(c[0] - aim), -c[1]))
    return from_position(positions[step], deal_number, first + step, budget=budget)


def from_position(
    position: engine.Position, deal_number: int, step: int, *, budget: int | None = None
) -> Puzzle | None:
    """The puzzle at ``position`` (a fresh deal's that :func:`from_deal` chose, or a real game's
    before its slip, where the analysis found one), graded along its own line: the shortest
    the solver finds within ``budget``; None when a choice does not matter there, the
    search wins nothing within ``budget``, or the line is not a puzzle's length."""
    kept, choices = keepers(position)
    if not 0 < kept < choices:
        return None
    found = solver.solve(position, budget or solver.DEFAULT_BUDGET * 10)
    if not found.won or not MIN_LINE <= len(found.line) <= MAX_LINE:
        return None
    positions = [position]
    for move in found.line:
        positions.append(positions[-1].play(move))
    settle = settles_at(positions)
    if settle > MAX_PLAY:
        return None
    # The first position is a decision (checked above); the others along the line are searched once each.
    decisions = 1 + sum(
        1 for kept_here, choices_here in map(keepers, positions[1:settle]) if 0 < kept_here < choices_here
    )
    moves = tuple(str(move) for move in found.line)
    variant = position.variant.key
    return Puzzle(variant, deal_number, step, str(position), moves, found.nodes, choices, kept, decisions, settle)
