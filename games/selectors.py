"""The queries that find games: an owner's, the lists of My games, a finished game others may
see, and a step of its replay."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from addiction_site.ownership import Owner, SiteRequest
from games import engine, pace, registry
from games.models import Action, Analysis, Claimed, Game
from games.preferences import chosen_variant
from games.replay import KeptReplay, Step, kept_replay

MY_GAMES_PAGE_SIZE = 25


def owned_games(owner: Owner, **conditions) -> QuerySet[Game]:
    """``owner``'s games that meet ``conditions``: every query that reads or writes a game starts here."""
    return Game.objects.filter(owner.owns(), **conditions)


def game_pace(game: Game) -> pace.Pace:
    """How fast ``game``'s actions came, read from its log (games/pace.py)."""
    log = Action.objects.filter(game_id=game.pk).order_by("number").values_list("kind", "elapsed_ms")
    return pace.pace_of(log.iterator(chunk_size=2000), move_kind=engine.ActionKind.MOVE.value)


def game_of(owner: Owner, pk: int) -> Game | None:
    """``owner``'s game ``pk``, or None: someone else's game is not found either."""
    try:
        return owned_games(owner).get(pk=pk)
    except Game.DoesNotExist:
        return None


def undo_move(game: Game, logged: Action | None = None) -> str:
    """The move undo would take back now, as the log writes it (``7H:1-4>1-5``), or "" when
    undo has nothing to take back: the page draws that undo at once (docs/TABLE.md,
    ``data-undo``).  ``logged``, the action just played, names it when it is the one (a move,
    a redo); otherwise it is read from the log, one row by its unique (game, number)."""
    if not game.can_undo:
        return ""
    if logged is not None and logged.number == game.undo_top:
        return logged.move
    return Action.objects.filter(game_id=game.pk, number=game.undo_top).values_list("move", flat=True).first() or ""


def my_games(owner: Owner) -> tuple[QuerySet[Game], QuerySet[Game]]:
    """This owner's games in progress (last played first) and finished ones (newest first).

    A game not played yet counts from its creation: ordering on last_action_at alone would
    put those first on PostgreSQL and last on SQLite (NULLs sort differently).
    """
    games = owned_games(owner, removed=False).defer("position")
    playing = games.filter(status=engine.Status.PLAYING).order_by(
        Coalesce("last_action_at", "created_at").desc(), "-pk"
    )
    finished = games.exclude(status=engine.Status.PLAYING).order_by("-finished_at")
    return playing, finished


def game_to_resume(owner: Owner, now: datetime) -> Game | None:
    """The game the home page shows (docs/RULES.md, "The home page"): the owner's game in
    progress played last, among those whose clock has started (not a race's still counting down)."""
    playing = owned_games(owner, removed=False, status=engine.Status.PLAYING, started_at__lte=now)
    return playing.order_by(Coalesce("last_action_at", "created_at").desc(), "-pk").first()


def offered_variant(request: SiteRequest) -> str:
    """The variant the home page and the race form offer first (docs/RULES.md, "The variants"):
    the one the request names (games/preferences.py), else its player's last one."""
    return chosen_variant(request) or last_variant(request.owner)


def last_variant(owner: Owner) -> str:
    """The variant of the owner's game started last (Addiction when they have none): the home
    page's default on a browser that has not started a game yet, so that an account's follows it."""
    if owner.user_id is None and not owner.guest_token:
        return engine.DEFAULT_VARIANT.key
    last = owned_games(owner).order_by("-created_at", "-pk").values_list("variant", flat=True).first()
    return last or engine.DEFAULT_VARIANT.key


def game_in_progress_of_deal(owner: Owner, deal_number: int, variant: str) -> Game | None:
    """The owner's game of this deal of ``variant`` in progress, the last played, or None."""
    return my_games(owner)[0].filter(deal_number=deal_number, variant=variant).first()


def my_games_pages(
    owner: Owner, *, playing_page: str | int | None, finished_page: str | int | None
) -> tuple[Page, Page]:
    """One page of each of :func:`my_games`' lists, each list paged on its own."""
    playing, finished = my_games(owner)
    return (
        Paginator(playing, MY_GAMES_PAGE_SIZE).get_page(playing_page),
        Paginator(finished, MY_GAMES_PAGE_SIZE).get_page(finished_page),
    )


def game_analysis(game: Game) -> Analysis | None:
    """``game``'s analysis, done or on its way, or None if none was asked for (games/background.py)."""
    return Analysis.objects.filter(game_id=game.pk).first()


def oldest_queued_seconds(model, now: datetime | None = None) -> float:
    """How long the oldest queued row of a background work ``model`` has waited, in seconds (0
    when none waits): what /metrics reports of the queue's age."""
    oldest = model.objects.filter(state=Claimed.QUEUED).order_by("requested_at").values_list("requested_at", flat=True)
    first = oldest.first()
    return 0.0 if first is None else max(0.0, ((now or timezone.now()) - first).total_seconds())


def pending_work(model) -> dict[str, int]:
    """How many rows of a background work ``model`` (games.models.BackgroundWork) are in each
    state but done: what /metrics reports of the queue, by the models' partial index."""
    rows = model.objects.exclude(state=Claimed.DONE).values_list("state").annotate(rows=Count("pk")).order_by()
    return dict(rows)


def finished_game(owner: Owner, pk: int, *, staff: bool = False) -> tuple[Game | None, bool]:
    """The game ``pk`` if the visitor may see it once finished, and whether it is theirs: their
    own, one another app shows to everyone (games/registry.py: one that stands on a board,
    docs/RULES.md "Fairness and verification"; a race's game once its race has closed,
    "Races"), or for staff any game (a held win is on no board).  Games in progress stay their
    owner's: the caller checks that it is over."""
    game = owned_games(owner).filter(pk=pk).first()
    if game is not None:
        return game, True
    if staff or registry.shown_to_others(pk):  # what the other apps say (records, races)
        return Game.objects.filter(pk=pk).first(), False
    return None, False


@dataclass(frozen=True)
class Replayed:
    """One step of a replay (``shown``, None if the game has no such step), the number of
    the last step that replays, and why the log stops replaying there ("" if it does not)."""

    shown: Step | None
    last: int
    error: str


def replay_step(game: Game, step: int, kept: KeptReplay | None = None) -> Replayed:
    """Step ``step`` of ``game``'s replay, from its replay kept once played (games/replay.py),
    so that a log that stops replaying is said on every step's page."""
    kept = kept or kept_replay(game)
    assert kept is not None  # computed when not kept
    error = ""
    if kept.error:  # a tampered log: show what replays
        error = _("The log stops replaying after step %(step)s: %(error)s") % {"step": kept.last, "error": kept.error}
    shown = kept.step(step) if 0 <= step <= kept.last else None
    return Replayed(shown, kept.last, error)


GAMES_PER_QUERY = 100  # the data download reads games and their logs this many games at a time


def games_data(user) -> Iterator[dict]:
    """Every game of ``user``'s, with its log, as their data download gives them; read
    GAMES_PER_QUERY games at a time."""
    games = (
        Game.objects.filter(owner=user)
        .order_by("pk")
        .prefetch_related(Prefetch("actions", queryset=Action.objects.order_by("number")))
    )
    for game in games.iterator(chunk_size=GAMES_PER_QUERY):
        yield _game_data(game)


def _game_data(game: Game) -> dict:
    # Never the seed: an unfinished game's must stay secret, and a finished one's is on its verify page.
    return {
        "id": game.pk,
        "variant": game.variant,
        "deal_number": game.deal_number,
        "status": game.status,
        "resigned": game.resigned,
        "moves": game.moves,
        "shuffles_used": game.shuffles_used,
        "position": game.position,
        "elapsed_ms": game.elapsed_ms,
        "ranked": game.ranked,
        "assisted": game.assisted,
        "verdict": game.verdict,
        "seed_sha256": game.seed_sha256,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "last_action_at": game.last_action_at,
        "finished_at": game.finished_at,
        "actions": [
            {
                "number": action.number,
                "kind": action.kind,
                "move": action.move,
                "elapsed_ms": action.elapsed_ms,
                "created_at": action.created_at,
            }
            for action in game.actions.all()
        ],
    }
