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
KEEP_BUDGET = 20_000  # positions each first move's search may visit to say it keeps the win


class Puzzle(NamedTuple):
    """A position (the engine's notation), its variant, the deal and step it comes from, its
    winning line (the moves' notation), and its difficulty's figures: the positions the search
    needed, the legal first moves, and how many of them keep the win."""

    variant: str
    deal_number: int
    step: int
    position: str
    line: tuple[str, ...]
    nodes: int
    first_moves: int
    keepers: int

    @property
    def difficulty(self) -> float:
        """A first grade, from 0 up: longer lines, more searching, fewer moves that keep the win.
        The puzzle's rating (puzzles/glicko.py) takes over once players have tried it."""
        scarce = 1 - self.keepers / self.first_moves
        return round(len(self.line) / 10 + scarce * 2 + min(self.nodes, 200_000) / 100_000, 2)


def keepers(position: engine.Position, budget: int = KEEP_BUDGET) -> tuple[int, int]:
    """How many of ``position``'s legal moves keep a win without another shuffle, and how many
    legal moves there are.  A move whose search runs out of budget counts as keeping it (never
    call a move a slip without proof)."""
    moves = position.legal_moves()
    kept = sum(1 for move in moves if not solver.solve(position.play(move), budget).proved_lost)
    return kept, len(moves)


def from_deal(
    deal_number: int, variant: str = engine.DEFAULT_VARIANT.key, *, budget: int | None = None
) -> Puzzle | None:
    """The last position along the solver's win of the deal's first stretch, among those with
    MIN_LINE to MAX_LINE moves left, where a move loses the win; None when the search wins
    nothing within ``budget`` or no such position comes."""
    budget = budget or solver.DEFAULT_BUDGET * 10
    position = engine.deal(deal_number, variant)
    found = solver.solve(position, budget)
    if not found.won:
        return None
    # The last position with a slip on offer: the shortest line left, the closest to a win.
    chosen = None
    for step, move in enumerate(found.line[: len(found.line) - MIN_LINE + 1]):
        if len(found.line) - step <= MAX_LINE:
            kept, choices = keepers(position)
            if 0 < kept < choices:
                chosen = (step, position, choices, kept)
        position = position.play(move)
    if chosen is None:
        return None
    step, position, choices, kept = chosen
    again = solver.solve(position, budget)  # its own shortest line from there, within the budget
    left = found.line[step:]
    line = again.line if again.won and len(again.line) <= len(left) else left
    moves = tuple(str(move) for move in line)
    return Puzzle(variant, deal_number, step, str(position), moves, again.nodes, choices, kept)
