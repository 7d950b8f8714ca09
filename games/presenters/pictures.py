"""The rules page's pictures: tables the engine plays, drawn by the table's own templates."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.models import Game
from games.presenters.table import table_slots
from games.presenters.words import line_words


@dataclass(frozen=True)
class Picture:
    """A table drawn as a picture for the rules page: its slots, and what it shows in words."""

    name: str
    slots: list
    caption: str
    wide: bool = False  # a table of 14 columns (Blue Moon, Red Moon)


@lru_cache(maxsize=1)
def _rules_states() -> tuple:
    """The rules page's example tables, played by the engine (the same each time): a deal, the
    table after its first move, a table with cards in place, and that table after a shuffle."""
    import random

    deal = engine.GameState.start(deal_number=1, seed=2026)
    first = deal.position.legal_moves()[0]
    moved = deal.play(first)
    rng, state = random.Random(7), deal
    while len(state.position.locked()) < 5 and state.shuffles_left > 1:
        moves = state.position.legal_moves()
        state = state.play(rng.choice(moves)) if moves else state.act(engine.ActionKind.SHUFFLE)[0]
    locked = state
    shuffled, _move = locked.act(engine.ActionKind.SHUFFLE)
    return deal, (moved, first), locked, shuffled


def rules_pictures() -> list[Picture]:
    """The rules page's pictures (issue 26), each drawn by the table's own templates."""
    deal, (moved, first), locked, shuffled = _rules_states()
    after_move = table_slots(moved, replay=True)
    row, col = first.dst
    after_move[row][col] = after_move[row][col]._replace(moved=True)
    in_place = len(locked.position.locked())
    return [
        Picture(
            "deal",
            table_slots(deal, replay=True),
            _("The deal: 48 cards in 4 rows of 13, and 4 gaps where the aces were."),
        ),
        Picture("move", after_move, _("A move: %(move)s.") % {"move": line_words(str(first))[0]}),
        Picture(
            "locked",
            table_slots(locked, replay=True),
            ngettext(
                "%(count)d card in place (marked ✓): a run from a 2 in column 0, each the next of its suit.",
                "%(count)d cards in place (marked ✓): runs from a 2 in column 0, each card the next of its suit.",
                in_place,
            )
            % {"count": in_place},
        ),
        Picture(
            "shuffle",
            table_slots(shuffled, replay=True),
            _("After a shuffle: the cards in place stay; the others are dealt again, with 4 new gaps."),
        ),
    ]


@lru_cache(maxsize=1)
def _variant_states() -> tuple:
    """Each variant's example tables for the rules page: its deal 1, and that deal after a first
    shuffle (each row's cards in place kept, and for Montana and the moons the gaps right after them)."""
    tables = []
    for variant in engine.VARIANTS.values():
        deal = engine.GameState.start(deal_number=1, seed=2026, variant=variant)
        tables.append((variant, deal, deal.shuffle()))
    return tuple(tables)


def variant_pictures() -> dict[str, list[Picture]]:
    """The rules page's pictures of each variant (issue 29): its deal, and its table after a
    shuffle, by the variant's key with "_" for "-" (``blue_moon``)."""
    pictures = {}
    for variant, deal, shuffled in _variant_states():
        wide = variant.wide
        name = str(Game.Variant(variant.key).label)
        pictures[variant.key.replace("-", "_")] = [  # names a template can look up
            Picture(
                f"{variant.key}-deal", table_slots(deal, replay=True), _("%(game)s: deal #1.") % {"game": name}, wide
            ),
            Picture(
                f"{variant.key}-shuffle",
                table_slots(shuffled, replay=True),
                _("%(game)s: deal #1 after a shuffle.") % {"game": name},
                wide,
            ),
        ]
    return pictures
