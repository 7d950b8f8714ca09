"""Every change to a game goes through here, checked by the engine and written all or nothing;
and the check of a finished game against its revealed seed (``game_verify``)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from addiction_site import metrics
from addiction_site.ownership import Owner
from games import background, engine, registry, signals, solver
from games.clock import elapsed_at
from games.models import Action, Game, daily_closes_at
from games.replay import KeptReplay, kept_replay, replay_end
from games.review import standing_at_win
from games.selectors import game_pace, owned_games


class ActionRefused(Exception):
    """The rules refused the action (``reason``, an :class:`engine.Refusal`); nothing changed."""

    def __init__(self, reason: engine.Refusal, game: Game):
        super().__init__(reason.value)
        self.reason = reason
        self.game = game


class NotStarted(Exception):
    """The game's clock has not started yet (it was dealt to start later): it takes no action."""

    def __init__(self, game: Game):
        super().__init__("the game's clock has not started")
        self.game = game


class OffTable(Exception):
    """A slot posted that is no slot of this game's table (column 13 of a 13-column table):
    a malformed post, like one naming no slot at all; nothing changed."""

    def __init__(self, game: Game):
        super().__init__(f"game {game.pk} has {game.cols} columns")
        self.game = game


class StaleVersion(Exception):
    """The page was drawn from an older version of ``game`` (another tab, a double click)."""

    def __init__(self, game: Game):
        super().__init__(f"game {game.pk} is at version {game.version}")
        self.game = game


class Played(NamedTuple):
    """What an action did (:func:`game_act`, :func:`hint_for`): the game after it, the
    engine's state before it (None for a hint, which moves nothing), and the action logged
    (None for a hint)."""

    game: Game
    before: engine.GameState | None
    logged: Action | None


def seed_digest(seed: str) -> str:
    """The SHA-256 shown when a game starts, of the seed's decimal text."""
    return hashlib.sha256(seed.encode()).hexdigest()


class TooManyGames(Exception):
    """A new game would leave its owner more than ``limit`` games in progress, and too few of
    them have no action to make room; nothing changed."""

    def __init__(self, limit: int):
        super().__init__(f"at most {limit} games in progress")
        self.limit = limit


def game_start(
    *,
    owner: Owner,
    deal_number: int | None = None,
    origin: str | None = None,
    daily: date | None = None,
    seed: str | None = None,
    sealed: bool = False,
    variant: str = engine.DEFAULT_VARIANT.key,
    now: datetime | None = None,
    starts_at: datetime | None = None,
) -> Game:
    """A new game of ``deal_number`` (a random deal when None) of ``variant`` for ``owner``, its clock
    running from ``now``: from the moment the start answers, its owner can know the deal
    (docs/RULES.md, "Counting").  A game dealt to start later (a live race's) runs from
    ``starts_at``, and until then is not shown (``Game.starts_later``).

    ``origin`` says how it began (``Game.Origin``: a random deal unless a number was
    given); a daily deal's game (daily/services.py) also gives its ``daily`` day and that
    day's ``seed``; a race's game (races/services.py) the race's ``seed``, ``sealed`` until
    the race closes.  Any other game gets a new secret seed of its own.

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
        deal_number, origin = secrets.randbelow(engine.DRAWN_DEALS) + 1, Game.Origin.RANDOM
    seed = seed or str(secrets.randbits(128))
    rules = engine.variant_of(variant)
    state = engine.GameState.start(deal_number=deal_number, seed=int(seed), variant=rules)
    now = now or timezone.now()
    game = Game(
        variant=rules.key,
        deal_number=deal_number,
        seed=seed,
        seed_sha256=seed_digest(seed),
        origin=origin or Game.Origin.CHOSEN,
        daily=daily,
        sealed=sealed,
        dealt_ahead=starts_at is not None,
        started_at=starts_at or now,
        last_action_at=starts_at or now,
        **owner.stamp(),
    )
    game.set_state(state)
    limit = settings.ADDICTION_MAX_GAMES_IN_PROGRESS
    with transaction.atomic():
        playing = owned_games(owner, status=engine.Status.PLAYING)
        list(playing.select_for_update().order_by("pk").values_list("pk", flat=True))
        if owner.user_id is not None:
            list(get_user_model().objects.select_for_update().filter(pk=owner.user_id).values_list("pk", flat=True))
        if origin == Game.Origin.RANDOM:
            # Another random deal abandons the owner's random deals not played yet: given up, off
            # My games, on the record (docs/RULES.md, "Deleting"), so they do not pile up there.
            for abandoned in playing.filter(origin=Game.Origin.RANDOM, version=0).order_by("pk"):
                _give_up_and_remove(owner, abandoned)
        excess = playing.count() + 1 - limit
        if excess > 0:
            oldest_unplayed = playing.filter(version=0).order_by("created_at", "pk")
            unplayed = list(oldest_unplayed[:excess])
            if len(unplayed) < excess:
                raise TooManyGames(limit)
            for old in unplayed:  # as game_delete does: a random deal stays on the record
                if leaves_a_record(old):
                    _give_up_and_remove(owner, old)
                else:
                    old.delete()
        game.save()
        signals.stretch_dealt.send(sender=Game, game=game, position=state.position)
    return game


def game_act(
    *,
    owner: Owner,
    game_id: int,
    version: int,
    kind: engine.ActionKind,
    slot: engine.Slot | None = None,
    to: engine.Slot | None = None,
    now: datetime | None = None,
) -> Played:
    """Apply one player action to one of ``owner``'s games and log it; say what it did.

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
    now = now or timezone.now()
    if game.starts_later(now):
        raise NotStarted(game)
    if any(named is not None and named[1] >= game.cols for named in (slot, to)):
        raise OffTable(game)
    if game.version != version:
        raise StaleVersion(game)
    state, below = game.state(), 0
    previous = state
    if kind is engine.ActionKind.UNDO and game.can_undo:
        taken, below = _log_step(game, game.undo_top, "undo_top")
        state = state._replace(history=(taken,))
    elif kind is engine.ActionKind.REDO and game.can_redo:
        again, below = _log_step(game, game.redo_top, "redo_top")
        state = state._replace(undone=(again,))
    try:
        state, move = state.act(kind, slot=slot, to=to)
    except engine.IllegalAction as refusal:
        raise ActionRefused(refusal.reason, game) from refusal
    was = {field: getattr(game, field) for field in CHANGED_BY_ACTION}
    if game.origin == Game.Origin.DAILY and game.daily and now >= daily_closes_at(game.daily):
        game.origin = Game.Origin.PRACTICE  # its day is over: the game plays on, unranked
    game.elapsed_ms = elapsed_at(game, now)
    game.started_at = game.started_at or now
    game.last_action_at = now
    game.finished_at = now if state.is_over else None
    game.set_state(state)
    game.version = version + 1
    game.undo_top, game.redo_top = engine.tops_after(kind, game.version, game.tops, below)
    changed = {field: getattr(game, field) for field, value in was.items() if getattr(game, field) != value}
    with transaction.atomic():
        written = games.filter(version=version).update(**changed)
        if not written:  # another tab or click got there first
            raise StaleVersion(games.get())
        logged = Action.objects.create(
            game_id=game.pk,
            number=game.version,
            kind=kind,
            move=str(move or ""),
            elapsed_ms=game.elapsed_ms,
            undo_top=game.undo_top,
            redo_top=game.redo_top,
        )
        signals.game_changed.send(sender=Game, game=game)
        if state.shuffles_used > previous.shuffles_used and not state.is_over:
            signals.stretch_dealt.send(sender=Game, game=game, position=state.position)
        if state.is_over:
            signals.game_over.send(sender=Game, game=game)
        if state.status is engine.Status.WON:
            # A hint may have landed since the game was read: it does not change the version,
            # so the compare-and-set let this win through.  Read, under the row this UPDATE
            # holds, whether the game is assisted, so that ranking sees what is stored.
            game.assisted = games.values_list("assisted", flat=True).get()
            game_rank(game=game)
    metrics.ACTIONS.labels(kind.value).inc()
    if state.is_over:
        metrics.GAMES_FINISHED.labels(state.status.value).inc()
    return Played(game, previous, logged)


def hint_for(*, owner: Owner, game_id: int, version: int) -> Played:
    """Find the solver's hint for one of ``owner``'s games at ``version`` and keep it with the
    game, which is then assisted (never ranked).  Asking again for the same version does not
    search again.  Refused like an action: StaleVersion, or ActionRefused on a finished game.

    The solver sees only what the player sees, the position and the shuffles left
    (docs/RULES.md, "Hints"); it searches within its node budget, inside the request, unless
    the position's hint is known (:func:`position_hint`).  A hinted move that leads off every
    known line also asks for the background search for a win from where it leads, while its
    stretch may ask for more (games/receivers.py).
    """
    games = owned_games(owner, pk=game_id)
    game = games.get()
    if game.starts_later(timezone.now()):
        raise NotStarted(game)
    if game.version != version:
        raise StaleVersion(game)
    if game.is_over:
        raise ActionRefused(engine.Refusal.GAME_OVER, game)
    if game.hint_version == version:
        return Played(game, None, None)
    state = game.state()
    advice = position_hint(state)
    card = state.position.card_at(advice.src) if advice.src else None
    if advice.kind is engine.HintKind.MOVE and card and advice.src and advice.dst:
        leads_to = state.position.play(engine.Move(card, advice.src, advice.dst, state.variant.cols))
        if background.known_hint(leads_to) is None:
            signals.win_sought.send(sender=Game, game=game, position=leads_to)
    game.hint, game.hint_version, game.assisted = str(advice), version, True
    written = games.filter(version=version).update(hint=game.hint, hint_version=version, assisted=True)
    if not written:  # an action got there first
        raise StaleVersion(games.get())
    return Played(game, None, None)


HINT_KEPT_SECONDS = 60 * 60 * 24 * 30


def position_hint(state: engine.GameState) -> engine.Hint:
    """The hint at a position with so many shuffles left, the same for every player and game:
    the next move of a winning line a background search found through this position
    (games/background.py), else the one the request's search finds (``solver.request_hint``:
    a winning line it finds is kept as a background search's is), kept by position in the
    shared cache so that it is searched once.  The key is the position's notation, which
    Addiction, Montana and Spaces share: their moves are the same, and the solver's answer
    depends on the table and the shuffles left alone, so one search serves the three."""
    known = background.known_hint(state.position)
    if known is not None:
        metrics.HINTS.labels("line").inc()
        return known
    key = f"hint:{background.position_key(state.position)}:{state.shuffles_left}"
    kept = cache.get(key)
    if kept is not None:
        metrics.HINTS.labels("cache").inc()
        return engine.Hint.parse(kept, state.variant.cols)
    with metrics.HINT_SECONDS.time():
        asked = solver.request_hint(
            state.position, state.shuffles_left, search_budget=background.request_search_budget()
        )
    advice = engine.Hint.of(asked.hint)
    if asked.line:
        background.line_keep(state.position, asked.line)
    metrics.HINTS.labels("search").inc()
    cache.set(key, str(advice), HINT_KEPT_SECONDS)
    return advice


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
    return engine.Move.parse(move, game.cols), rows[top - 1][1] if top > 1 else 0


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
    "origin",
)


def game_rank(*, game: Game) -> bool:
    """Check a won game by replaying its log; a true win played at a person's pace is
    ranked and, if it has an owner, enters the boards (``signals.win_ranked``).  A win whose
    log does not replay to it never does; one played faster than a person plays is held
    for review (:func:`win_standing`); one that would enter the first places of a board waits,
    pending review, unless the evidence on it clears it (games/review.py)."""
    try:
        replayed, tops, wrong_undo_tops = replay_end(game)
        true_win = (
            replayed.status is engine.Status.WON
            and replayed == game.state()
            and tops == game.tops
            and not wrong_undo_tops
            and not game.assisted
        )
    except (engine.IllegalAction, ValueError):  # a log, or a stored state, that does not even read
        true_win = False
    was_ranked, was_review = game.ranked, game.review
    ranked, review = win_standing(game, true_win)
    if true_win:  # the evidence on every true win, and the review of one near the top
        ranked, review = standing_at_win(game, ranked, review)
    game.ranked, game.review = ranked, review
    if (game.ranked, game.review) != (was_ranked, was_review):
        Game.objects.filter(pk=game.pk).update(ranked=game.ranked, review=game.review)
    if game.owner_id and game.ranked:
        signals.win_ranked.send(sender=Game, game=game)
    elif game.owner_id and was_ranked:
        signals.win_unranked.send(sender=Game, game=game)  # a win found false again leaves the boards
    return game.ranked


def win_standing(game: Game, true_win: bool) -> tuple[bool, str]:
    """Whether a win is ranked, and its review (docs/RULES.md, "Human pace"), given whether
    its log replays to it unassisted (``true_win``): a true win played at a person's pace
    is ranked; one played faster is held until a moderator approves it (then ranked) or
    rejects it (a win, never ranked).  A win pending review stays unranked until it is
    approved, and one its evidence cleared stays ranked (games/review.py).  Reads only."""
    if not true_win:
        return False, game.review
    if game.review in (Game.Review.APPROVED, Game.Review.CLEARED):
        return True, game.review
    if game.review in (Game.Review.REJECTED, Game.Review.PENDING):
        return False, game.review
    if not game_pace(game).human:
        return False, Game.Review.HELD
    return True, Game.Review.NONE


def win_review(*, game_id: int, approve: bool) -> Game:
    """A moderator's decision on a held or pending win: approved, it is ranked and enters its
    owner's boards; rejected, it stays a win that is never ranked (and leaves the boards if
    its evidence had cleared it)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id, status=engine.Status.WON)
        game.review = Game.Review.APPROVED if approve else Game.Review.REJECTED
        Game.objects.filter(pk=game.pk).update(review=game.review)
        game_rank(game=game)
    return game


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
            game.owner_id, game.guest_token = user.pk, ""
            if game.ranked:  # ranked again as the account's: near the top, it may wait for review
                game_rank(game=game)
    return len(games)


def game_delete(*, owner: Owner, game_id: int) -> bool:
    """Delete one of ``owner``'s unfinished games (docs/RULES.md, "Deleting").  A chosen deal's
    game with no action leaves no trace; any other is given up instead (logged like the Give
    up button) and taken off My games, but stays on the player's record as lost: a random
    deal, once dealt, is on the record, so that redrawing until an easy deal comes is not
    free.  Returns whether it was given up (True) or deleted without a trace (False)."""
    with transaction.atomic():
        game = owned_games(owner).select_for_update().get(pk=game_id)
        if game.is_over:
            raise ActionRefused(engine.Refusal.GAME_OVER, game)
        if not leaves_a_record(game):
            game.delete()
            return False
        _give_up_and_remove(owner, game)
        return True


def leaves_a_record(game: Game) -> bool:
    """Whether deleting this unfinished game gives it up (on the record) rather than erasing it."""
    return game.version > 0 or game.origin == Game.Origin.RANDOM


def _give_up_and_remove(owner: Owner, game: Game) -> None:
    game_act(owner=owner, game_id=game.pk, version=game.version, kind=engine.ActionKind.RESIGN)
    owned_games(owner, pk=game.pk).update(removed=True)


@dataclass(frozen=True)
class Check:
    label: str
    ok: bool
    stored: str
    replayed: str
    kind: str = ""  # what it checks, for the sentence that says it (records.presenters.verification_words)


@dataclass(frozen=True)
class Verification:
    """What replaying a finished game from its revealed seed showed, check by check."""

    checks: list[Check]
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and all(check.ok for check in self.checks)


def game_verify(game: Game, *, fresh: bool = False, kept: KeptReplay | None = None) -> Verification:
    """Replay ``game`` from its deal, its log and its seed and compare with what is stored:
    the replay kept once played (games/replay.py; ``kept`` if the caller has read it already),
    or with ``fresh`` one played now."""
    digest = seed_digest(game.seed)
    checks = [Check(_("SHA-256 of the revealed seed"), digest == game.seed_sha256, game.seed_sha256, digest, "seed")]
    for seed_check in registry.seed_checks():  # how another app made the seed (the daily's, a player's own)
        if (found := seed_check(game)) is not None:
            checks.append(Check(*found, "seed"))
    kept = kept if kept is not None and not fresh else kept_replay(game, fresh=fresh)
    if kept is None or kept.error or not kept.rows:
        error = kept.error if kept else ""
        return Verification(checks, error=_("The log does not replay: %(error)s") % {"error": error})
    replayed, (undo_top, redo_top), wrong_undo_tops = kept.end()
    # The stored columns are compared as the text the server writes (canonical notation),
    # not parsed: a column that is not even notation is then a mismatch, not a crash.
    for label, a, b in (
        (_("Position"), game.position, replayed.position),
        (_("Moves"), game.moves, replayed.moves),
        (_("Shuffles used"), game.shuffles_used, replayed.shuffles_used),
        (_("Action that undo takes back"), game.undo_top, undo_top),
        (_("Undo whose move redo plays again"), game.redo_top, redo_top),
    ):
        checks.append(Check(label, _text(a) == _text(b), _text(a), _text(b), "table"))
    # Words, not the values the database keeps ("won", True), are shown for these two.
    statuses = dict(Game.Status.choices)
    checks.append(
        Check(
            _("Result"),
            game.status == replayed.status.value,
            str(statuses.get(game.status, _text(game.status))),
            str(statuses[replayed.status.value]),
            "table",
        )
    )
    checks.append(
        Check(
            _("Log rows that name the wrong action for undo or redo"),
            wrong_undo_tops == 0,
            str(wrong_undo_tops),
            "0",
            "table",
        )
    )
    last = game.actions.order_by("-number").values_list("elapsed_ms", flat=True).first()
    if last is not None:  # the time is the server's; the log records it after every action
        checks.append(Check(_("Time (ms)"), game.elapsed_ms == last, str(game.elapsed_ms), str(last), "time"))
    if game.status == engine.Status.WON:  # only a win that replays to itself may be on the boards
        true_win = replayed.status is engine.Status.WON and all(check.ok for check in checks) and not game.assisted
        should_rank, _review = win_standing(game, true_win)  # a machine-paced win waits for review
        checks.append(
            Check(
                _("On the leaderboards"),
                game.ranked == should_rank,
                _yes_no(game.ranked),
                _yes_no(should_rank),
                "boards",
            )
        )
    return Verification(checks)


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _text(value) -> str:
    if isinstance(value, tuple):
        value = " ".join(str(item) for item in value)
    return str(value) or "-"
