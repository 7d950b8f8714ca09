"""The evidence on a win: how far its play is from a person's (docs/RULES.md, "Review before
the top").  Pure: it reads what games/review.py gathers (the log's times, the solver's lines,
the player's history, the address's other players) and knows nothing of Django.

A script that solves a deal offline and posts the line at a steady pace passes the hard floors
of games/pace.py; what gives it away is everything a person does and it does not: a person
reads the table before the first move of a deal and of every shuffle, stops to think now and
then, plays at an uneven pace, takes the time pointing and clicking (or pressing keys) costs,
and does not play the solver's own line.  Each sign below adds its points to a score; a win
scoring ``HOLD_SCORE`` or more is far from a person's play.

The model of a person's time is the Keystroke-Level Model (Card, Moran and Newell, "The
Psychology of Human-Computer Interaction", 1983; "The keystroke-level model for user
performance time with interactive systems", CACM 23(7), 1980): a mental act ``M`` of
1.35 s, pointing ``P`` 1.1 s, a button press and release ``BB`` 0.2 s, a key press ``K``
0.12 s for a good typist.  This site's keyboard takes about 4.7 keys a move
(benchmarks/keyboard_win.py), so its fastest way to play a move is 4.7 K = 0.56 s, faster
than pointing (P + BB = 1.3 s); a person reads each new table (the deal, each shuffle) with
at least one M.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from enum import Enum

# The Keystroke-Level Model's operators (ms).
THINK_MS = 1350  # M: a mental act; a gap at least this long is a think pause
KEY_MS = 120  # K: a key press, good typist
KEYS_A_MOVE = 4.7  # this site's keyboard, measured (benchmarks/keyboard_win.py)
POINT_MS = 1100  # P: pointing at a target
CLICK_MS = 200  # BB: a mouse button pressed and released
MOVE_MS = min(POINT_MS + CLICK_MS, round(KEYS_A_MOVE * KEY_MS))  # the fastest way a person plays a move

LONG_RUN = 30
"""Moves in a row with no think pause that no person plays: a planned run that completes a row
is at most 12 cards, and a person stops to read the table in between."""
EVEN_SPREAD = 0.5
"""The spread of the gaps between moves (their standard deviation over their mean) under
which a pace is too even: people's response times are skewed, with a long tail of slow ones
(Luce, "Response Times", 1986), so a person's spread is near 1 or more; a script's fixed or
jittered pace (a uniform 450-700 ms) is near 0.1."""
SOLVER_SHARE = 0.8
"""The share of moves on the solver's own line (from each stretch's start) over which a win
is the solver's play: positions have many winning orders, and people find another."""
SOLVER_MIN_MOVES = 10
HISTORY_GAMES = 5
"""Finished games (with an action) before this one that make a player's history: below it,
a win that would enter the top of a board always waits for a moderator."""
CROWDED_ACCOUNTS = 2  # other accounts playing from the same address that day
CROWDED_GUESTS = 10  # other guests playing from the same address that day
REDRAWS = 5  # draws given up by fresh guests and guests claimed, on the account's record

HOLD_SCORE = 40
"""A win scoring this much or more is far from a person's play: it waits for a moderator
before it enters the first places of a board."""


class Sign(Enum):
    """One way a win's play is not a person's, and its points."""

    LONG_RUN = ("long_run", 25)  # LONG_RUN moves or more in a row with no think pause
    UNREAD_TABLES = ("unread_tables", 15)  # no think pause before the first move of any stretch
    EVEN_PACE = ("even_pace", 20)  # the gaps' spread under EVEN_SPREAD
    UNDER_MODEL = ("under_model", 20)  # faster than the model's fastest person
    SOLVER_LINE = ("solver_line", 30)  # SOLVER_SHARE of the moves on the solver's line
    OPENING_WON = ("opening_won", 10)  # won from the deal with no shuffle
    NEW_PLAYER = ("new_player", 10)  # fewer than HISTORY_GAMES finished games before
    REDRAWS = ("redraws", 10)  # many guests' deals given up or claimed
    CROWDED_ADDRESS = ("crowded_address", 10)  # many other players from the address that day

    def __init__(self, key: str, points: int):
        self.key = key
        self.points = points


@dataclass(frozen=True)
class Facts:
    """What the evidence reads of one win: its play (from the log), the solver's share of it
    (None until the analysis has found the lines), its player and its address."""

    moves: int
    elapsed_ms: int
    stretches: int  # the deal and each shuffle: tables a person reads before playing
    pauses: int  # gaps of THINK_MS or more before a move
    stretches_read: int  # stretches whose first move came after a think pause
    longest_run: int  # moves in a row with no think pause
    spread: float  # the gaps' standard deviation over their mean
    median_gap_ms: int
    shuffles_used: int
    solver_share: float | None = None
    games_before: int = 0  # the player's finished games with an action, this one not counted
    wins_before: int = 0
    draws_given_up: int = 0
    guests_claimed: int = 0
    races: int = 0
    address_accounts: int = 0  # other accounts' games from the address that day
    address_guests: int = 0  # other guests' games from the address that day

    @property
    def model_ms(self) -> int:
        """The fastest a person plays these moves by the model: a move each, a read each table."""
        return self.moves * MOVE_MS + self.stretches * THINK_MS

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Weighed:
    """The evidence's verdict: the signs found, their score, and whether the player has a history."""

    signs: tuple[Sign, ...]
    has_history: bool

    @property
    def score(self) -> int:
        return sum(sign.points for sign in self.signs)

    @property
    def far_from_a_person(self) -> bool:
        return self.score >= HOLD_SCORE

    @property
    def clears(self) -> bool:
        """Whether this evidence lets a win enter the first places at once: an ordinary pace,
        by a player with a history."""
        return self.has_history and not self.far_from_a_person


def play_facts(log: Iterable[tuple[str, int]], *, shuffles_used: int, move_kind: str, shuffle_kind: str) -> dict:
    """The play's part of the facts, read from the log as (kind, elapsed_ms after the action)
    in the actions' order: every action moves the clock on; only moves are judged, each by the
    time since the action before it, and each shuffle starts a new table to read."""
    before, gaps, runs, run = 0, [], [0], 0
    stretches, stretches_read, first_of_stretch = 1, 0, True
    for kind, elapsed_ms in log:
        if kind == move_kind:
            gap = max(0, elapsed_ms - before)
            gaps.append(gap)
            paused = gap >= THINK_MS
            run = 0 if paused else run + 1
            runs.append(run)
            if first_of_stretch and paused:
                stretches_read += 1
            first_of_stretch = False
        elif kind == shuffle_kind:
            stretches += 1
            first_of_stretch = True
        before = elapsed_ms
    return {
        "moves": len(gaps),
        "elapsed_ms": before,
        "stretches": stretches,
        "pauses": sum(1 for gap in gaps if gap >= THINK_MS),
        "stretches_read": stretches_read,
        "longest_run": max(runs),
        "spread": _spread(gaps),
        "median_gap_ms": int(statistics.median(gaps)) if gaps else 0,
        "shuffles_used": shuffles_used,
    }


def _spread(gaps: Sequence[int]) -> float:
    if len(gaps) < 2 or not sum(gaps):
        return 0.0
    return round(statistics.pstdev(gaps) / statistics.fmean(gaps), 3)


def solver_share(played: Sequence[Sequence[str]], lines: Sequence[Sequence[str]]) -> float:
    """The share of a game's moves that were the solver's line from their stretch's start: for
    each stretch, the moves played (in order) and the line the solver found from its start;
    a move counts while the player's moves have followed the line from the start."""
    total = sum(len(moves) for moves in played)
    if not total:
        return 0.0
    same = 0
    for moves, line in zip(played, lines, strict=False):
        for move, step in zip(moves, line, strict=False):
            if move != step:
                break
            same += 1
    return round(same / total, 3)


def weigh(facts: Facts) -> Weighed:
    """The signs in ``facts``, each counted once (docs/RULES.md, "Review before the top")."""
    signs = []
    if facts.longest_run >= LONG_RUN:
        signs.append(Sign.LONG_RUN)
    if facts.moves and not facts.stretches_read:
        signs.append(Sign.UNREAD_TABLES)
    if facts.moves >= SOLVER_MIN_MOVES and facts.spread < EVEN_SPREAD:
        signs.append(Sign.EVEN_PACE)
    if facts.moves and facts.elapsed_ms < facts.model_ms:
        signs.append(Sign.UNDER_MODEL)
    if facts.solver_share is not None and facts.moves >= SOLVER_MIN_MOVES and facts.solver_share >= SOLVER_SHARE:
        signs.append(Sign.SOLVER_LINE)
    if facts.shuffles_used == 0:
        signs.append(Sign.OPENING_WON)
    has_history = facts.games_before >= HISTORY_GAMES
    if not has_history:
        signs.append(Sign.NEW_PLAYER)
    if facts.draws_given_up + facts.guests_claimed >= REDRAWS:
        signs.append(Sign.REDRAWS)
    if facts.address_accounts >= CROWDED_ACCOUNTS or facts.address_guests >= CROWDED_GUESTS:
        signs.append(Sign.CROWDED_ADDRESS)
    return Weighed(tuple(signs), has_history)
