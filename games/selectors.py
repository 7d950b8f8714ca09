"""The queries behind pages that read many games: my games, boards, profiles."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce

from games import engine
from games.daily import Streaks, streaks
from games.models import BoardEntry, Game
from games.ownership import Owner, owned_games

BOARD_PAGE_SIZE = 25
MY_GAMES_PAGE_SIZE = 25
PERIODS = ("all", "week", "today")


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


def my_games_pages(
    owner: Owner, *, playing_page: str | int | None, finished_page: str | int | None
) -> tuple[Page, Page]:
    """One page of each of :func:`my_games`' lists, each list paged on its own."""
    playing, finished = my_games(owner)
    return (
        Paginator(playing, MY_GAMES_PAGE_SIZE).get_page(playing_page),
        Paginator(finished, MY_GAMES_PAGE_SIZE).get_page(finished_page),
    )


def period_scope(period: str, now: datetime) -> str:
    """The board scope of a period ("all", "week", "today") at ``now``, in UTC."""
    day = now.astimezone(UTC).date()
    if period == "today":
        return f"day:{day.isoformat()}"
    if period == "week":
        year, week, _weekday = day.isocalendar()
        return f"week:{year}-W{week:02d}"
    return "all"


def on_boards(entries: QuerySet[BoardEntry]) -> QuerySet[BoardEntry]:
    """The entries of players the boards show: active, and not hidden by staff."""
    return entries.filter(user__is_active=True).exclude(user__player__hidden_from_boards=True)


def rank_of(entry: BoardEntry) -> int:
    """An entry's place on its board, counted as the board orders it."""
    ahead = (
        Q(first__lt=entry.first)
        | Q(first=entry.first, second__lt=entry.second)
        | Q(first=entry.first, second=entry.second, finished_at__lt=entry.finished_at)
        | Q(first=entry.first, second=entry.second, finished_at=entry.finished_at, id__lt=entry.id)
    )
    return on_boards(BoardEntry.objects.filter(ahead, board=entry.board, scope=entry.scope)).count() + 1


def personal_bests(game: Game) -> list[tuple[BoardEntry, int]]:
    """The boards on which a won game is now its player's best, each with the rank it reached."""
    if game.status != engine.Status.WON or not game.ranked or game.owner_id is None:
        return []
    entries = on_boards(BoardEntry.objects.filter(game=game)).order_by("scope", "board")
    return [(entry, rank_of(entry)) for entry in entries]


def board_page(*, board: str, scope: str, page: str | int | None) -> Page:
    """One page of a board: each player once, with their best game; ties by the other
    figure, then by who finished first."""
    entries = (
        on_boards(BoardEntry.objects.filter(board=board, scope=scope))
        .select_related("user", "game")
        # the game's status and day: whether its replay is open yet (Game.seed_shown)
        .only("first", "second", "finished_at", "user__username", "game__deal_number", "game__status", "game__daily")
        .order_by("first", "second", "finished_at", "id")
    )
    return Paginator(entries, BOARD_PAGE_SIZE).get_page(page)


@dataclass(frozen=True)
class Profile:
    """A player's record.  Assisted games (a hint was shown) are counted apart: the figures
    above them are the player's own play."""

    played: int
    won: int
    current_streak: int
    best_streak: int
    best_time_ms: int | None
    fewest_moves: int | None
    wins: list[tuple[datetime, int]]  # (finished_at, elapsed_ms) of each ranked win, oldest first
    assisted_played: int = 0
    assisted_won: int = 0
    lost_unwinnable: int = 0  # lost games whose last stretch was proved to have no win
    daily: Streaks = Streaks(0, 0, 0, 0)  # runs of days with the daily played, and won

    @property
    def lost(self) -> int:
        return self.played - self.won


def profile_of(user) -> Profile:
    """A player's record, from their finished games in one query."""
    rows = list(
        owned_games(Owner(user_id=user.pk, guest_token=""))
        .exclude(status=engine.Status.PLAYING)
        .order_by("finished_at", "id")
        .values_list("status", "ranked", "finished_at", "elapsed_ms", "moves", "assisted", "verdict", "origin", "daily")
    )
    own = [row for row in rows if not row[5]]
    current = best = 0
    for status, *_ in own:
        current = current + 1 if status == engine.Status.WON else 0
        best = max(best, current)
    wins = [(finished, elapsed, moves) for status, ranked, finished, elapsed, moves, *_ in own if ranked]
    return Profile(
        played=len(own),
        won=sum(1 for row in own if row[0] == engine.Status.WON),
        current_streak=current,
        best_streak=best,
        best_time_ms=min((elapsed for _, elapsed, _ in wins), default=None),
        fewest_moves=min((moves for _, _, moves in wins), default=None),
        wins=[(finished, elapsed) for finished, elapsed, _ in wins],  # type: ignore[misc]  # wins have finished
        assisted_played=len(rows) - len(own),
        assisted_won=sum(1 for row in rows if row[5] and row[0] == engine.Status.WON),
        lost_unwinnable=sum(1 for row in rows if row[0] == engine.Status.LOST and row[6] == "proved_lost"),
        daily=streaks([(row[8], row[0] == engine.Status.WON) for row in rows if row[7] == Game.Origin.DAILY]),  # type: ignore[misc]
    )


CHART_WINS = 200


def chart_points(wins: list[tuple[datetime, int]], width: int = 600, height: int = 160, pad: int = 24) -> dict:
    """The inline SVG chart of a player's winning times (the latest CHART_WINS wins).

    Coordinates are returned as text, so that no locale ever writes "24,5" into the SVG.
    """
    wins = wins[-CHART_WINS:]
    if not wins:
        return {}
    times = [elapsed for _, elapsed in wins]
    low, high = min(times), max(times)
    span = (high - low) or 1
    step = (width - 2 * pad) / max(1, len(wins) - 1)
    points = [
        (f"{pad + i * step:.1f}", f"{height - pad - (elapsed - low) / span * (height - 2 * pad):.1f}")
        for i, (_, elapsed) in enumerate(wins)
    ]
    return {
        "width": width,
        "height": height,
        "pad": pad,
        "polyline": " ".join(f"{x},{y}" for x, y in points),
        "points": points,
        "low_ms": low,
        "high_ms": high,
        "first": wins[0][0],
        "last": wins[-1][0],
    }
