"""Human pace: whether a game's actions came faster than a person plays (docs/RULES.md,
"Human pace").  A win played faster is held for review, on no board until staff approve it.

Pure: it reads the game's time after each logged action (``Action.elapsed_ms``, the
server's clock) and knows nothing of Django.

The two thresholds, and why these figures (the published human ones are in docs/RULES.md):

- **Per move**: a move that came less than ``FAST_MOVE_MS`` after the action before it
  was decided before its player could have seen the table that action left: 150 ms is
  the fastest human simple reaction to a seen change (the top percent of humanbenchmark's
  millions of reaction tests), and a move also needs a choice and a point or a key.  A
  person who planned a few moves ahead may land some that fast, so only a win where more
  than ``FAST_MOVES_SHARE`` of its moves came so fast is held.
- **Whole game**: a win whose time per move (its time over its moves) is under
  ``GAME_MS_PER_MOVE``: even a run of planned moves costs a person a point and a click each
  (a practised aim takes 0.3-0.5 s a target), and a whole game needs reading the deal and
  every shuffle too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import NamedTuple

FAST_MOVE_MS = 150
FAST_MOVES_SHARE = 0.25
GAME_MS_PER_MOVE = 400


class Reason(Enum):
    """Why a game's pace is not a person's."""

    FAST_MOVES = "fast_moves"  # too many moves right after the action before
    FAST_GAME = "fast_game"  # too little time per move over the whole game


class Pace(NamedTuple):
    """A game's pace, read from its log: its moves, how many came faster than a person
    reacts, its whole time, and the gap before each move (ms, for the staff's chart)."""

    moves: int
    fast_moves: int
    elapsed_ms: int
    gaps: tuple[int, ...]

    @property
    def ms_per_move(self) -> int:
        return self.elapsed_ms // self.moves if self.moves else 0

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """Why this pace is not human; empty when it is."""
        if not self.moves:
            return ()
        found = []
        if self.fast_moves > FAST_MOVES_SHARE * self.moves:
            found.append(Reason.FAST_MOVES)
        if self.elapsed_ms < GAME_MS_PER_MOVE * self.moves:
            found.append(Reason.FAST_GAME)
        return tuple(found)

    @property
    def human(self) -> bool:
        return not self.reasons


def pace_of(log: Iterable[tuple[str, int]], *, move_kind: str = "move") -> Pace:
    """The pace of a log given as (kind, elapsed_ms after the action) in the actions' order.

    Every action moves the clock on; only moves (not undos, redos, shuffles: a player may
    take back a few quickly) are judged, each by the time since the action before it.
    """
    before, gaps = 0, []
    for kind, elapsed_ms in log:
        if kind == move_kind:
            gaps.append(max(0, elapsed_ms - before))
        before = elapsed_ms
    return _pace(gaps, before)


def _pace(gaps: Sequence[int], elapsed_ms: int) -> Pace:
    fast = sum(1 for gap in gaps if gap < FAST_MOVE_MS)
    return Pace(moves=len(gaps), fast_moves=fast, elapsed_ms=elapsed_ms, gaps=tuple(gaps))
