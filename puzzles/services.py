"""Storing puzzles (puzzles/models.py) that puzzles/build.py finds: idempotent, one row a
position of a variant, so a run repeated or run on deals already searched stores nothing twice."""

from __future__ import annotations

from collections.abc import Iterable

from puzzles.build import Puzzle as Found
from puzzles.build import from_deal
from puzzles.models import Puzzle


def puzzle_keep(found: Found) -> bool:
    """Keep one found puzzle; False when its position of its variant is kept already."""
    _puzzle, made = Puzzle.objects.get_or_create(
        variant=found.variant,
        position=found.position,
        defaults={
            "deal_number": found.deal_number,
            "step": found.step,
            "line": " ".join(found.line),
            "nodes": found.nodes,
            "first_moves": found.first_moves,
            "keepers": found.keepers,
            "grade": found.difficulty,
        },
    )
    return made


def puzzles_build(deal_numbers: Iterable[int], variant: str) -> tuple[int, int]:
    """Search each of ``deal_numbers`` for a puzzle and keep those found: (found, newly kept)."""
    found = kept = 0
    for number in deal_numbers:
        puzzle = from_deal(number, variant)
        if puzzle is not None:
            found += 1
            kept += puzzle_keep(puzzle)
    return found, kept
