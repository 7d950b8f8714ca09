"""Real won games for the web tests: the engine finds a win, the site's services play it.

Winning by clicking would take hundreds of posts, and a win written straight into the
database would prove nothing about the log, the clock or the ranking.  So:

1. :func:`find_win` plays random playouts with the engine alone: a ``random.Random``
   seeded from the deal number clicks one of the cards that can move (the click the
   site turns into that move, ``Position.move_for_slot``), and shuffles when stuck.
   About one playout in 35 wins; deal numbers are tried in order until one does.
   Every seed is fixed, so every run finds the same wins (the first: deal 8, 223 actions).
2. :func:`play_win` starts a game with ``services.game_start``, gives it the searched
   secret seed before its first action (as if ``game_start`` had drawn it), and drives
   exactly those actions through ``services.game_act`` with chosen ``now`` values, so
   the time is known: every action comes ``step`` after the one before.
   :func:`play_with_client` does the same through the pages' posts.
3. :func:`copy_win` copies a played win (its row and its log) to another owner and lets
   ``services.game_rank`` check it, for tests that need many winners quickly;
   :func:`recorded_win` plays a win for real once per test run and copies it afterwards.

For example::

    win = find_win()
    game = play_win(Owner(user_id=user.pk, guest_token=""), win, start=START, step=timedelta(seconds=2))
    assert game.status == "won" and game.elapsed_ms == (len(win.actions) - 1) * 2000
"""

from __future__ import annotations

import contextlib
import itertools
import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from types import SimpleNamespace
from unittest import mock

from django.utils import timezone

from addiction_site.ownership import Owner
from games import engine
from games.models import Action, Game
from games.services import game_rank, game_start, seed_digest
from records.services import record_game_over
from tests.helpers import ONE_MOVE_FROM_STUCK, act, act_on_service, guest_token_of, set_layout

SEED = 20261129
SECOND = timedelta(seconds=1)
"""The secret shuffle seed of every searched game."""

MAX_ACTIONS = 400
"""A playout that has not ended after this many actions is given up (2s can shuttle forever)."""

Step = tuple[str, engine.Slot | None]  # ("move", (row, col)) clicks a slot; ("shuffle", None), ("undo", None)


@dataclass(frozen=True)
class Win:
    """A deal, a secret seed, and the actions that win it from the deal."""

    deal_number: int
    seed: int
    actions: tuple[Step, ...]

    @property
    def moves(self) -> int:
        """The move counter at the end: one per move and one per undo."""
        return sum(1 for kind, _slot in self.actions if kind in ("move", "undo"))

    def elapsed_ms(self, step: timedelta) -> int:
        """The game's time when played by :func:`play_win` with ``step`` (at most the idle cap)."""
        return (len(self.actions) - 1) * int(step.total_seconds() * 1000)

    def with_undo(self, after: int) -> Win:
        """The same win with the move at index ``after`` taken back by undo and played again."""
        kind, slot = self.actions[after]
        assert kind == "move" and after < len(self.actions) - 1, f"action {after} is not a move before the end"
        actions = self.actions[: after + 1] + (("undo", None), (kind, slot)) + self.actions[after + 1 :]
        return Win(self.deal_number, self.seed, actions)

    def state_after(self, count: int) -> engine.GameState:
        """The engine's state after the first ``count`` actions."""
        state = engine.GameState.start(deal_number=self.deal_number, seed=self.seed)
        for kind, slot in self.actions[:count]:
            state, _move = state.act(kind, slot=slot)
        return state


def playout(deal_number: int, seed: int = SEED) -> tuple[engine.GameState, tuple[Step, ...]]:
    """One random game of ``deal_number``: its end state and the actions that led there."""
    rng = random.Random(f"addiction-tests:{deal_number}")
    state = engine.GameState.start(deal_number=deal_number, seed=seed)
    actions: list[Step] = []
    while not state.is_over and len(actions) < MAX_ACTIONS:
        sources = sorted({move.src for move in state.position.legal_moves()})
        action: Step = ("move", rng.choice(sources)) if sources else ("shuffle", None)
        state, _move = state.act(action[0], slot=action[1])
        actions.append(action)
    return state, tuple(actions)


@cache
def find_win(first_deal: int = 1, seed: int = SEED) -> Win:
    """The first deal from ``first_deal`` on whose random playout wins."""
    for deal_number in range(first_deal, first_deal + 5000):
        state, actions = playout(deal_number, seed)
        if state.status is engine.Status.WON:
            return Win(deal_number, seed, actions)
    raise AssertionError(f"no random playout won from deal {first_deal} on")  # pragma: no cover


def find_wins(count: int, seed: int = SEED) -> list[Win]:
    """The first ``count`` wins, each of a different deal, in deal order."""
    wins = [find_win(1, seed)]
    while len(wins) < count:
        wins.append(find_win(wins[-1].deal_number + 1, seed))
    return wins


def user_owner(user) -> Owner:
    return Owner(user_id=user.pk, guest_token="")


def guest_owner(client) -> Owner:
    """The guest behind ``client``, once a page has given it a guest cookie (e.g. ``/new/``)."""
    return Owner(user_id=None, guest_token=guest_token_of(client))


def quick_wins(count: int = 2, seed: int = SEED) -> list[Win]:
    """The ``count`` wins with the fewest actions among the first six, fewest first; each
    has a different deal and a different number of moves (tests rely on that)."""
    wins = sorted(find_wins(6, seed), key=lambda win: (len(win.actions), win.deal_number))[:count]
    assert len({win.moves for win in wins}) == count
    return wins


def quick_win(seed: int = SEED) -> Win:
    """The win with the fewest actions among the first six, for tests that need any win."""
    return quick_wins(1, seed)[0]


def reseed(game: Game, seed: int) -> Game:
    """Give a game that has had no action yet the secret ``seed`` (and its published digest)."""
    assert game.version == 0, "only before the first action: the seed is what the digest promised"
    game.seed, game.seed_sha256 = str(seed), seed_digest(str(seed))
    game.save(update_fields=["seed", "seed_sha256"])
    return game


def play_actions(owner: Owner, game: Game, actions, *, start: datetime, step: timedelta) -> Game:
    """Apply ``actions`` to ``game`` through ``services.game_act``, the i-th at ``start + i * step``."""
    for i, (kind, slot) in enumerate(actions):
        game = act_on_service(owner, game, kind, slot, version=game.version, now=start + i * step)
    return game


def play_win(
    owner: Owner,
    win: Win,
    *,
    start: datetime,
    step: timedelta = timedelta(seconds=1),
    origin: str = Game.Origin.RANDOM,
    daily: date | None = None,
) -> Game:
    """A new game of ``owner`` that plays ``win`` through the services; it ends won.  It began
    as a random deal (so it ranks on every board) unless ``origin`` says otherwise (a daily
    game's with its ``daily`` day)."""
    dealt = game_start(owner=owner, deal_number=win.deal_number, origin=origin, daily=daily, now=start)
    game = reseed(dealt, win.seed)
    game = play_actions(owner, game, win.actions, start=start, step=step)
    assert game.status == engine.Status.WON, game.status
    return game


@contextlib.contextmanager
def paced_clock(step: timedelta = SECOND, *, start: datetime | None = None):
    """The games' services see a clock that moves ``step`` on each time they read it (from
    ``start``, or now): actions sent at a machine's pace are timed at a person's (docs/RULES.md,
    "Human pace"), as a test that plays a win through the pages or a browser needs."""
    moments = ((start or timezone.now()) + step * (number + 1) for number in itertools.count())
    with mock.patch("games.services.timezone", SimpleNamespace(now=lambda: next(moments))):
        yield


def play_with_client(client, game: Game, actions, *, htmx: bool = True, step: timedelta | None = SECOND) -> Game:
    """Post ``actions`` to ``game`` through the pages, as the player behind ``client``, the
    server's clock moving ``step`` on for each (a person's pace: docs/RULES.md, "Human
    pace"); with ``step=None``, at the machine's own pace."""
    with paced_clock(step, start=game.started_at) if step else contextlib.nullcontext():
        for kind, slot in actions:
            response = act(client, game, kind, slot=slot, htmx=htmx)
            assert response.status_code in (200, 302), (kind, slot, response.status_code)
    return Game.objects.get(pk=game.pk)


@dataclass(frozen=True)
class Record:
    """A finished game's row and log, kept outside the database (each test's is rolled back)."""

    fields: dict
    actions: tuple[tuple[int, str, str, int, int, int], ...]  # number, kind, move, elapsed_ms, undo_top, redo_top

    @classmethod
    def of(cls, game: Game) -> Record:
        fields = Game.objects.filter(pk=game.pk).values().get()
        for name in ("id", "owner_id", "guest_token", "address_key", "browser_key", "ranked", "review", "created_at"):
            del fields[name]
        actions = game.actions.order_by("number").values_list(
            "number", "kind", "move", "elapsed_ms", "undo_top", "redo_top"
        )
        return cls(fields, tuple(actions))


def copy_win(
    source: Game | Record, *, owner: Owner, finished_at: datetime | None = None, elapsed_ms: int | None = None
) -> Game:
    """A copy of a finished game (same deal, seed and log) for ``owner``, ranked by
    ``services.game_rank`` as the services would.  ``finished_at`` and ``elapsed_ms``
    may be chosen: the clock is not part of what replaying checks, and a chosen time
    scales the log's times with it, so the copy keeps the source's pace (games/pace.py)."""
    record = source if isinstance(source, Record) else Record.of(source)
    copy = Game(**record.fields, **owner.stamp())
    shift = (finished_at - copy.finished_at) if finished_at else timedelta(0)
    copy.started_at += shift
    copy.finished_at += shift
    copy.last_action_at = copy.finished_at
    if elapsed_ms is not None:
        copy.elapsed_ms = elapsed_ms
    copy.save()
    Action.objects.bulk_create(
        [
            Action(
                game=copy,
                number=number,
                kind=kind,
                move=move,
                elapsed_ms=elapsed * copy.elapsed_ms // (record.fields["elapsed_ms"] or 1),
                undo_top=undo_top,
                redo_top=redo_top,
            )
            for number, kind, move, elapsed, undo_top, redo_top in record.actions
        ]
    )
    record_game_over(game=copy)  # as a game's end does (records/receivers.py), before its ranking
    game_rank(game=copy)
    return copy


_PLAYED: dict[tuple[Win, timedelta], Record] = {}


def recorded_win(owner: Owner, win: Win, *, finished_at: datetime, step: timedelta = timedelta(seconds=1)) -> Game:
    """``win`` played by ``owner`` and ending at ``finished_at``: through the services the
    first time in a test run (for this win and step), a :func:`copy_win` of that record
    afterwards, which is the same game for a fraction of the time."""
    record = _PLAYED.get((win, step))
    if record is None:
        game = play_win(owner, win, start=finished_at - (len(win.actions) - 1) * step, step=step)
        _PLAYED[(win, step)] = Record.of(game)
        return game
    return copy_win(record, owner=owner, finished_at=finished_at)


def lose_stuck(user, deal_number: int, *, now: datetime) -> Game:
    """A game lost by the rules: the last move leaves the table stuck with no shuffle left."""
    game = set_layout(game_start(owner=user_owner(user), deal_number=deal_number), ONE_MOVE_FROM_STUCK, shuffles_used=3)
    return act_on_service(user_owner(user), game, "move", (0, 12), now=now)
