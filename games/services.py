"""Every change to a game goes through here, checked by the engine and written all or nothing."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, solver
from games.models import Action, BoardEntry, Game
from games.ownership import Owner, owned_games


class ActionRefused(Exception):
    """The rules refused the action (``reason``, an :class:`engine.Refusal`); nothing changed."""

    def __init__(self, reason: engine.Refusal, game: Game):
        super().__init__(reason.value)
        self.reason = reason
        self.game = game


class StaleVersion(Exception):
    """The page was drawn from an older version of ``game`` (another tab, a double click)."""

    def __init__(self, game: Game):
        super().__init__(f"game {game.pk} is at version {game.version}")
        self.game = game


def seed_digest(seed: str) -> str:
    """The SHA-256 shown when a game starts, of the seed's decimal text."""
    return hashlib.sha256(seed.encode()).hexdigest()


class TooManyGames(Exception):
    """A new game would leave its owner more than ``limit`` games in progress, and too few of
    them have no action to make room; nothing changed."""

    def __init__(self, limit: int):
        super().__init__(f"at most {limit} games in progress")
        self.limit = limit


RANDOM_DEALS = 999_999_999
"""A random deal's number is drawn from 1 to this (docs/RULES.md, "Deal"): short enough to
read and share.  Any number up to engine.MAX_DEAL can still be chosen, and keeps its deal."""


def game_start(
    *,
    owner: Owner,
    deal_number: int | None = None,
    origin: str | None = None,
    daily: date | None = None,
    seed: str | None = None,
) -> Game:
    """A new game of ``deal_number`` (a random deal when None) for ``owner``.

    ``origin`` says how it began (``Game.Origin``: a random deal unless a number was
    given); a daily deal's game (games/daily.py) also gives its ``daily`` day and that
    day's ``seed``.  Any other game gets a new secret seed of its own.

    An owner keeps at most ``ADDICTION_MAX_GAMES_IN_PROGRESS`` games in progress
    (docs/RULES.md, "Players, guests and deleting games"): at the limit, their oldest
    games without any action make room, and when too few have none, :class:`TooManyGames`
    is raised and nothing changes.

    Two starts at once must not both pass the limit.  On SQLite the IMMEDIATE transaction
    holds the database.  On PostgreSQL the start locks the owner's games in progress (in id
    order, so that two starts never wait on each other crosswise; a game being dropped gets
    no first action meanwhile) and an account's user row (there before the first game),
    then counts in a new statement, which sees what a start it waited for committed.  A
    guest with no game in progress has nothing to lock: only more than a limit's worth of
    starts at that very moment could then pass it.
    """
    if deal_number is None:
        deal_number, origin = secrets.randbelow(RANDOM_DEALS) + 1, Game.Origin.RANDOM
    seed = seed or str(secrets.randbits(128))
    state = engine.GameState.start(deal_number=deal_number, seed=int(seed))
    game = Game(
        deal_number=deal_number,
        seed=seed,
        seed_sha256=seed_digest(seed),
        origin=origin or Game.Origin.CHOSEN,
        daily=daily,
        **owner.stamp(),
    )
    game.set_state(state)
    limit = settings.ADDICTION_MAX_GAMES_IN_PROGRESS
    with transaction.atomic():
        playing = owned_games(owner, status=engine.Status.PLAYING)
        list(playing.select_for_update().order_by("pk").values_list("pk", flat=True))
        if owner.user_id is not None:
            list(get_user_model().objects.select_for_update().filter(pk=owner.user_id).values_list("pk", flat=True))
        excess = playing.count() + 1 - limit
        if excess > 0:
            oldest_unplayed = playing.filter(version=0).order_by("created_at", "pk")
            unplayed = list(oldest_unplayed.values_list("pk", flat=True)[:excess])
            if len(unplayed) < excess:
                raise TooManyGames(limit)
            owned_games(owner, pk__in=unplayed, version=0).delete()
        game.save()
    return game


def game_shown(game: Game, now: datetime | None = None) -> Game:
    """The game's board is being shown to its owner: the first time, its clock starts
    (docs/RULES.md, "Counting").  Looking counts as play, capped like any pause."""
    if game.started_at is not None or game.is_over:
        return game
    now = now or timezone.now()
    if Game.objects.filter(pk=game.pk, started_at__isnull=True).update(started_at=now, last_action_at=now):
        game.started_at = game.last_action_at = now
    else:  # another tab showed it first
        game.started_at, game.last_action_at = Game.objects.values_list("started_at", "last_action_at").get(pk=game.pk)
    return game


def elapsed_at(game: Game, now: datetime) -> int:
    """The game's time in milliseconds at ``now``: each pause counts at most the idle cap."""
    if game.is_over or game.last_action_at is None:
        return game.elapsed_ms
    return game.elapsed_ms + min(pause_ms(game, now), settings.ADDICTION_IDLE_CAP_SECONDS * 1000)


def pause_ms(game: Game, now: datetime) -> int:
    """How long the game has waited since its clock last moved (0 before it started or once over)."""
    if game.is_over or game.last_action_at is None:
        return 0
    return max(0, int((now - game.last_action_at).total_seconds() * 1000))


def game_act(
    *,
    owner: Owner,
    game_id: int,
    version: int,
    kind: engine.ActionKind,
    slot: engine.Slot | None = None,
    to: engine.Slot | None = None,
    now: datetime | None = None,
) -> Game:
    """Apply one player action to one of ``owner``'s games and log it.

    Raises ``Game.DoesNotExist`` for a game that is not the owner's, :class:`StaleVersion`
    when ``version`` is not the game's current one, and :class:`ActionRefused` for an
    action the rules refuse.  A refused action changes nothing.

    The game is read without a lock and written back with a compare-and-set: an UPDATE
    that applies only while the row is still the owner's and at ``version``.  Of two tabs
    or a double click that read the same version, one writes and the other is told the
    page is stale (or gets 404, if an account claimed or the player deleted the game in
    between).  The UPDATE, the log row and a win's ranking are one transaction.
    """
    kind = engine.ActionKind(kind)
    games = owned_games(owner, pk=game_id)  # built once: the read and the compare-and-set share it
    game = games.get()
    if game.version != version:
        raise StaleVersion(game)
    state, undo_below, redo_below = game.state(), 0, 0
    previous = state
    if kind is engine.ActionKind.UNDO and game.can_undo:
        taken, undo_below = _log_step(game, game.undo_top, "undo_top")
        state = state._replace(history=(taken,))
    elif kind is engine.ActionKind.REDO and game.can_redo:
        again, redo_below = _log_step(game, game.redo_top, "redo_top")
        state = state._replace(undone=(again,))
    try:
        state, move = state.act(kind, slot=slot, to=to)
    except engine.IllegalAction as refusal:
        raise ActionRefused(refusal.reason, game) from refusal
    was = {field: getattr(game, field) for field in CHANGED_BY_ACTION}
    now = now or timezone.now()
    game.elapsed_ms = elapsed_at(game, now)
    game.started_at = game.started_at or now
    game.last_action_at = now
    game.finished_at = now if state.is_over else None
    game.set_state(state)
    game.version = version + 1
    game.undo_top = {
        engine.ActionKind.MOVE: game.version,
        engine.ActionKind.UNDO: undo_below,
        engine.ActionKind.REDO: game.version,
        engine.ActionKind.SHUFFLE: 0,
    }.get(kind, game.undo_top)
    game.redo_top = {
        engine.ActionKind.MOVE: 0,
        engine.ActionKind.UNDO: game.version,
        engine.ActionKind.REDO: redo_below,
        engine.ActionKind.SHUFFLE: 0,
    }.get(kind, game.redo_top)
    game.previous = previous
    changed = {field: getattr(game, field) for field, value in was.items() if getattr(game, field) != value}
    with transaction.atomic():
        written = games.filter(version=version).update(**changed)
        if not written:  # another tab or click got there first
            raise StaleVersion(games.get())
        game.logged = Action.objects.create(
            game_id=game.pk,
            number=game.version,
            kind=kind,
            move=str(move or ""),
            elapsed_ms=game.elapsed_ms,
            undo_top=game.undo_top,
            redo_top=game.redo_top,
        )
        if state.status is engine.Status.WON:
            game_rank(game=game)
    return game


def hint_for(*, owner: Owner, game_id: int, version: int) -> Game:
    """Find the solver's hint for one of ``owner``'s games at ``version`` and keep it with the
    game, which is then assisted (never ranked).  Asking again for the same version does not
    search again.  Refused like an action: StaleVersion, or ActionRefused on a finished game.

    The solver sees only what the player sees, the position and the shuffles left
    (docs/RULES.md, "Hints"); it searches within its node budget, inside the request.
    """
    games = owned_games(owner, pk=game_id)
    game = games.get()
    if game.version != version:
        raise StaleVersion(game)
    if game.is_over:
        raise ActionRefused(engine.Refusal.GAME_OVER, game)
    if game.hint_version == version:
        return game
    state = game.state()
    advice = solver.hint(state.position, state.shuffles_left)
    game.hint, game.hint_version, game.assisted = hint_text(advice), version, True
    written = games.filter(version=version).update(hint=game.hint, hint_version=version, assisted=True)
    if not written:  # an action got there first
        raise StaleVersion(games.get())
    return game


def game_verdict(game: Game) -> Game:
    """For a lost game: could the stretch from its last shuffle (or the deal) have been won
    with no further shuffle?  Searched once, within ``ADDICTION_VERDICT_BUDGET`` nodes, and kept with
    the game ("won" with a winning line, "proved_lost" or "unknown")."""
    if game.status != engine.Status.LOST or game.verdict:
        return game
    start: engine.Position | None = None
    try:
        for step in replay_states(game):
            if step.action is None or step.action.kind == engine.ActionKind.SHUFFLE:
                start = step.state.position
    except (engine.IllegalAction, ValueError):  # a log that does not replay has no verdict
        return game
    if start is None:  # no step at all: not a game's log
        return game
    result = solver.solve(start, settings.ADDICTION_VERDICT_BUDGET)
    game.verdict, line = _verdict_of(result)
    game.verdict_line = " ".join(str(move) for move in line)
    Game.objects.filter(pk=game.pk, verdict="").update(verdict=game.verdict, verdict_line=game.verdict_line)
    return game


def _verdict_of(result) -> tuple[str, list[engine.Move]]:
    """The solver's result as the game keeps it."""
    return result.verdict.value, list(result.line) if result.verdict is solver.Verdict.WON else []


def hint_text(advice) -> str:
    """The solver's advice as the game keeps it: "R-C>R-C", "shuffle" or "none"."""
    if advice is None:
        return "none"
    if isinstance(advice, engine.Move):
        (r, c), (gr, gc) = advice.src, advice.dst
        return f"{r}-{c}>{gr}-{gc}"
    return "shuffle"


def _log_step(game: Game, top: int, column: str) -> tuple[engine.Move, int]:
    """What an undo (a redo) of ``game`` needs from its log, whatever the game's length: the
    move logged by action ``top`` (``game.undo_top``: the move undo takes back; or
    ``game.redo_top``: the move an undo took back, which redo plays again) and the value of
    ``column`` ("undo_top" or "redo_top") from before that action, logged by the one before."""
    rows = {
        number: (move, below)
        for number, move, below in Action.objects.filter(game_id=game.pk, number__in=(top - 1, top)).values_list(
            "number", "move", column
        )
    }
    move, _below = rows[top]
    return engine.Move.parse(move), rows[top - 1][1] if top > 1 else 0


# The columns an action changes; the rest of a game is written once, when it starts.
CHANGED_BY_ACTION = (
    "position",
    "moves",
    "shuffles_used",
    "undo_top",
    "redo_top",
    "status",
    "resigned",
    "version",
    "elapsed_ms",
    "started_at",
    "last_action_at",
    "finished_at",
)


def game_rank(*, game: Game) -> bool:
    """Check a won game by replaying its log; a true win is ranked and, if it has an
    owner, enters the boards.  A win whose log does not replay to it never does."""
    try:
        replayed, tops, wrong_undo_tops = _replay_with_undo_tops(game)
        ranked = (
            replayed.status is engine.Status.WON
            and replayed == game.state()
            and tops == (game.undo_top, game.redo_top)
            and not wrong_undo_tops
            and not game.assisted
        )
    except (engine.IllegalAction, ValueError):  # a log, or a stored state, that does not even read
        ranked = False
    was_ranked, game.ranked = game.ranked, ranked
    if ranked != was_ranked:
        Game.objects.filter(pk=game.pk).update(ranked=ranked)
    if game.owner_id and ranked:
        boards_enter(game=game)
    elif game.owner_id and was_ranked:
        boards_rebuild(user_id=game.owner_id)  # a win found false again leaves the boards
    return ranked


def board_scopes(game: Game) -> list[str]:
    """The boards' scopes a win belongs to (docs/RULES.md, "Leaderboards"): a random deal's
    win ranks all time, in its week and day (UTC) and on its deal's board; a chosen deal's
    on its deal's board only; the first daily game of a day on that day's daily board; a
    daily played again (practice) nowhere."""
    if game.origin == Game.Origin.DAILY:
        return [daily_scope(game.daily)]  # type: ignore[arg-type]  # a daily game has its day
    if game.origin == Game.Origin.PRACTICE:
        return []
    deal = f"deal:{game.deal_number}"
    if game.origin != Game.Origin.RANDOM:
        return [deal]
    day = game.finished_at.astimezone(UTC).date()  # type: ignore[union-attr]  # a win has finished
    year, week, _weekday = day.isocalendar()
    return ["all", f"week:{year}-W{week:02d}", f"day:{day.isoformat()}", deal]


def daily_scope(day: date) -> str:
    """The scope of a day's daily board."""
    return f"daily:{day.isoformat()}"


def boards_enter(*, game: Game) -> None:
    """Make ``game`` its owner's entry on every board where it beats their best so far.

    On equal figures the earlier win stays, since the boards break ties by who finished first.
    """
    # A ranked win is an account's, and finished: neither is None here.
    owner_id: int = game.owner_id  # type: ignore[assignment]
    finished_at: datetime = game.finished_at  # type: ignore[assignment]
    with transaction.atomic():  # its own transaction when called alone (a claim, a re-rank)
        # One player's wins may finish at once in two games, whose own row locks do not meet:
        # lock the player, so that one reads the entries only after the other has written them.
        list(get_user_model().objects.select_for_update().filter(pk=owner_id).values_list("pk", flat=True))
        figures = {
            BoardEntry.Board.TIME: (game.elapsed_ms, game.moves),
            BoardEntry.Board.MOVES: (game.moves, game.elapsed_ms),
        }
        scopes = board_scopes(game)
        existing = {
            (entry.board, entry.scope): entry for entry in BoardEntry.objects.filter(user_id=owner_id, scope__in=scopes)
        }
        for board, (first, second) in figures.items():
            for scope in scopes:
                entry = existing.get((board, scope))
                if entry is None:
                    BoardEntry.objects.create(
                        user_id=owner_id,
                        board=board,
                        scope=scope,
                        game=game,
                        first=first,
                        second=second,
                        finished_at=finished_at,
                    )
                elif (first, second, finished_at) < (entry.first, entry.second, entry.finished_at):
                    entry.game, entry.first, entry.second, entry.finished_at = game, first, second, finished_at
                    entry.save(update_fields=["game", "first", "second", "finished_at"])


def boards_rebuild(*, user_id: int) -> None:
    """Make a player's board entries again from their ranked wins, oldest first."""
    with transaction.atomic():
        BoardEntry.objects.filter(user_id=user_id).delete()
        wins = owned_games(Owner(user_id=user_id, guest_token=""), status=engine.Status.WON, ranked=True)
        for game in wins.order_by("finished_at", "pk"):
            boards_enter(game=game)


def games_claim(*, user, guest_token: str) -> int:
    """Give a guest's games to the account they just signed up or logged in with."""
    if not guest_token:
        return 0
    with transaction.atomic():
        games = list(owned_games(Owner(user_id=None, guest_token=guest_token)).select_for_update())
        # The account's first daily game of a day stays its ranked one: the guest's of the
        # same day come along as practice.
        ranked_days = set(
            owned_games(Owner(user_id=user.pk, guest_token=""), origin=Game.Origin.DAILY).values_list(
                "daily", flat=True
            )
        )
        for game in games:
            if game.origin == Game.Origin.DAILY and game.daily in ranked_days:
                game.origin = Game.Origin.PRACTICE
                Game.objects.filter(pk=game.pk).update(origin=game.origin)
        Game.objects.filter(pk__in=[game.pk for game in games]).update(owner=user, guest_token="")
        for game in games:
            game.owner_id = user.pk
            if game.ranked:
                boards_enter(game=game)
    return len(games)


def game_delete(*, owner: Owner, game_id: int) -> bool:
    """Delete one of ``owner``'s unfinished games (docs/RULES.md, "Deleting").  A game with no
    action leaves no trace; one with any action is given up instead (logged like the Give
    up button) and taken off My games, but stays on the player's record as lost.  Returns
    whether it was given up (True) or deleted without a trace (False)."""
    with transaction.atomic():
        game = owned_games(owner).select_for_update().get(pk=game_id)
        if game.is_over:
            raise ActionRefused(engine.Refusal.GAME_OVER, game)
        if game.version == 0:
            game.delete()
            return False
        game_act(owner=owner, game_id=game_id, version=game.version, kind=engine.ActionKind.RESIGN)
        owned_games(owner, pk=game_id).update(removed=True)
        return True


class LoggedAction(NamedTuple):
    """One row of a game's log, as a replay reads it."""

    number: int
    kind: str
    move: str
    elapsed_ms: int
    undo_top: int
    redo_top: int


class Step(NamedTuple):
    """One step of a replay: the action logged (None for the deal), the state after it, the
    number of the action whose move undo would take back next, and of the undo whose move
    redo would play again next (0: none)."""

    action: LoggedAction | None
    state: engine.GameState
    undo_top: int
    redo_top: int = 0


def replay_states(game: Game) -> Iterator[Step]:
    """The game played again by the engine from its deal and seed: the deal, then each
    logged action, read from the log in chunks.  A log the rules refuse raises
    IllegalAction, one that does not even read a ValueError.

    Each step costs the same whatever the game's length: the moves undo can take back are
    kept here, and the engine is given only the one an undo takes back.  As in a stored
    game's state, ``history`` is empty.
    """
    state = engine.GameState.start(deal_number=game.deal_number, seed=int(game.seed))
    undoable: list[tuple[int, engine.Move]] = []  # (action number, move), oldest first
    undone: list[tuple[int, engine.Move]] = []  # (number of the undo, the move it took back)
    yield Step(None, state, 0)
    log = game.actions.order_by("number").values_list(*LoggedAction._fields)
    for action in map(LoggedAction._make, log.iterator(chunk_size=1000)):
        move = engine.Move.parse(action.move) if action.move else None
        kind = engine.ActionKind(action.kind)
        if kind is engine.ActionKind.UNDO and undoable:
            state = state._replace(history=(undoable[-1][1],))
        elif kind is engine.ActionKind.REDO and undone:
            state = state._replace(undone=(undone[-1][1],))
        try:
            state, played = state.act(kind, move=move)
        except engine.IllegalAction as refusal:
            raise engine.IllegalAction(refusal.reason, f"action {action.number}: {refusal}") from refusal
        if kind in (engine.ActionKind.MOVE, engine.ActionKind.REDO):
            undoable.append((action.number, played))  # type: ignore[arg-type]  # a move plays a Move
            if kind is engine.ActionKind.MOVE:
                undone.clear()
            else:
                undone.pop()
        elif kind is engine.ActionKind.UNDO:
            undoable.pop()
            undone.append((action.number, played))  # type: ignore[arg-type]  # an undo takes back a Move
        elif kind is engine.ActionKind.SHUFFLE:
            undoable.clear()
            undone.clear()
        if state.history or state.undone:
            state = state._replace(history=(), undone=())
        yield Step(action, state, undoable[-1][0] if undoable else 0, undone[-1][0] if undone else 0)


def game_replay(game: Game) -> engine.GameState:
    """The state that the game's deal, seed and action log give, played again by the engine."""
    for step in replay_states(game):  # noqa: B007 - the last step is the answer
        pass
    return step.state


def _replay_with_undo_tops(game: Game) -> tuple[engine.GameState, tuple[int, int], int]:
    """The replayed state, the (undo_top, redo_top) it ends with, and how many log rows keep
    an undo_top or a redo_top that differs from their replay's."""
    wrong = 0
    for step in replay_states(game):
        logged = step.action
        wrong += logged is not None and (logged.undo_top, logged.redo_top) != (step.undo_top, step.redo_top)
    return step.state, (step.undo_top, step.redo_top), wrong


@dataclass(frozen=True)
class Check:
    label: str
    ok: bool
    stored: str
    replayed: str


@dataclass(frozen=True)
class Verification:
    """What replaying a finished game from its revealed seed showed, check by check."""

    checks: list[Check]
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and all(check.ok for check in self.checks)


def game_verify(game: Game) -> Verification:
    """Replay ``game`` from its deal, its log and its seed and compare with what is stored."""
    digest = seed_digest(game.seed)
    checks = [Check(_("SHA-256 of the revealed seed"), digest == game.seed_sha256, game.seed_sha256, digest)]
    try:
        replayed, (undo_top, redo_top), wrong_undo_tops = _replay_with_undo_tops(game)
    except (engine.IllegalAction, ValueError) as error:
        return Verification(checks, error=_("The log does not replay: %(error)s") % {"error": error})
    # The stored columns are compared as the text the server writes (canonical notation),
    # not parsed: a column that is not even notation is then a mismatch, not a crash.
    for label, a, b in (
        (_("Position"), game.position, replayed.position),
        (_("Moves"), game.moves, replayed.moves),
        (_("Shuffles used"), game.shuffles_used, replayed.shuffles_used),
        (_("Action that undo takes back"), game.undo_top, undo_top),
        (_("Undo whose move redo plays again"), game.redo_top, redo_top),
    ):
        checks.append(Check(label, _text(a) == _text(b), _text(a), _text(b)))
    # Words, not the values the database keeps ("won", True), are shown for these two.
    statuses = dict(Game.STATUSES)
    checks.append(
        Check(
            _("Result"),
            game.status == replayed.status.value,
            str(statuses.get(game.status, _text(game.status))),
            str(statuses[replayed.status.value]),
        )
    )
    checks.append(
        Check(
            _("Log rows that name the wrong action for undo or redo"), wrong_undo_tops == 0, str(wrong_undo_tops), "0"
        )
    )
    last = game.actions.order_by("-number").values_list("elapsed_ms", flat=True).first()
    if last is not None:  # the time is the server's; the log records it after every action
        checks.append(Check(_("Time (ms)"), game.elapsed_ms == last, str(game.elapsed_ms), str(last)))
    if game.status == engine.Status.WON:  # only a win that replays to itself may be on the boards
        true_win = replayed.status is engine.Status.WON and all(check.ok for check in checks) and not game.assisted
        checks.append(Check(_("On the leaderboards"), game.ranked == true_win, _yes_no(game.ranked), _yes_no(true_win)))
    return Verification(checks)


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _text(value) -> str:
    if isinstance(value, tuple):
        value = " ".join(str(item) for item in value)
    return str(value) or "-"
