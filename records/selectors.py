"""The queries behind the records' pages: boards, ranks, profiles and their streaks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Min, Q, QuerySet

from addiction_site.ownership import Owner
from games import engine
from games.clock import utc_day
from games.models import Game
from games.selectors import owned_games
from records.models import BoardEntry, Player, PlayerRecord, Redraw
from records.scopes import Scope, board_scopes

BOARD_PAGE_SIZE = 25
DAILY_TOP_SIZE = 10
"""How many of today's daily board's first places the boards' page shows above its own board."""


def on_boards(entries: QuerySet[BoardEntry]) -> QuerySet[BoardEntry]:
    """The entries of players the boards show: active, and not hidden by staff (kept on each
    entry as ``shown`` by records/services.py, so that no board joins the users)."""
    return entries.filter(shown=True)


def ahead_of(entry: BoardEntry) -> Q:
    """The entries that stand above ``entry`` on its board (BoardEntry.ORDER): better on the
    first field of the order, or equal on each field before one where they are better."""
    return _beside(entry, "lt")


def behind(entry: BoardEntry) -> Q:
    """The entries that stand below ``entry`` on its board: the other side of ``ahead_of``."""
    return _beside(entry, "gt")


def _beside(entry: BoardEntry, side: str) -> Q:
    """The entries on one ``side`` of ``entry`` ("lt": ahead, "gt": behind) by ORDER.  The
    first field's bound stands alone as well, so that the database reads one range of the
    rank index (BoardEntry.Meta) rather than filtering the board from its top."""
    ahead, same = Q(pk__in=[]), Q()
    for field in BoardEntry.ORDER:
        value = getattr(entry, field)
        if value is None:  # an entry not saved yet comes last among equals (BoardEntry.ranks_before)
            if side == "lt":
                ahead |= same
            break
        ahead |= same & Q(**{f"{field}__{side}": value})
        same &= Q(**{field: value})
    first = BoardEntry.ORDER[0]
    return Q(**{f"{first}__{side}e": getattr(entry, first)}) & ahead


def stands_near_top(game: Game) -> bool:
    """Whether ``game``, a win of an account, would enter the first ``ADDICTION_REVIEW_TOP``
    places of one of its public boards (records/scopes.py, ``board_scopes``): on a board where
    the player's own entry is as good already it changes nothing, and is not counted."""
    top, owner_id = settings.ADDICTION_REVIEW_TOP, game.owner_id
    finished_at: datetime = game.finished_at  # type: ignore[assignment]  # a win has finished
    if not top or owner_id is None:
        return False
    scopes = [str(scope) for scope in board_scopes(game)]
    own = {(entry.board, entry.scope): entry for entry in BoardEntry.objects.filter(user_id=owner_id, scope__in=scopes)}
    figures = {
        BoardEntry.Board.TIME: (game.elapsed_ms, game.moves),
        BoardEntry.Board.MOVES: (game.moves, game.elapsed_ms),
    }
    for board, (first, second) in figures.items():
        for scope in scopes:
            win = BoardEntry(board=board, scope=scope, first=first, second=second, finished_at=finished_at)
            mine = own.get((board, scope))
            if mine is not None and not win.ranks_before(mine):
                continue
            others = BoardEntry.objects.filter(ahead_of(win), board=board, scope=scope).exclude(user_id=owner_id)
            if on_boards(others).values("pk")[:top].count() < top:
                return True
    return False


def record_facts(user_id: int) -> dict[str, int]:
    """What the evidence on a win reads of its player's record (games/evidence.py, Facts)."""
    return {
        "guests_claimed": Player.objects.filter(user_id=user_id).values_list("guests_claimed", flat=True).first() or 0,
        "draws_given_up": Redraw.objects.filter(user_id=user_id).count(),
    }


def rank_of(entry: BoardEntry) -> int:
    """An entry's place on its board, counted as the board orders it."""
    return on_boards(BoardEntry.objects.filter(ahead_of(entry), board=entry.board, scope=entry.scope)).count() + 1


def stands_on_a_board(game_id: int) -> bool:
    """Whether the game stands on a board that shows it: then anyone may see its replay
    (docs/RULES.md, "Fairness and verification")."""
    return on_boards(BoardEntry.objects.filter(game_id=game_id)).exists()


def board_entries_data(user) -> Iterator[dict]:
    """``user``'s board entries, as their data download gives them."""
    entries = BoardEntry.objects.filter(user=user).order_by("board", "scope")
    for entry in entries.iterator(chunk_size=500):
        yield {
            "board": entry.board,
            "scope": entry.scope,
            "game": entry.game_id,
            "first": entry.first,
            "second": entry.second,
            "finished_at": entry.finished_at,
        }


def personal_bests(game: Game) -> list[tuple[BoardEntry, int]]:
    """The boards on which a won game is now its player's best, each with the rank it reached."""
    if game.status != engine.Status.WON or not game.ranked or game.owner_id is None:
        return []
    entries = on_boards(BoardEntry.objects.filter(game=game)).order_by("scope", "board")
    return [(entry, rank_of(entry)) for entry in entries]


def scope_wins(owner_id: int, scope: Scope) -> QuerySet[Game]:
    """A player's ranked wins that stand in ``scope`` (records.scopes.board_scopes decides
    which scopes a win enters; this is the same rule read the other way)."""
    wins = Game.objects.filter(owner_id=owner_id, status=engine.Status.WON, ranked=True, variant=scope.variant)
    if scope.kind == "daily":
        return wins.filter(origin=Game.Origin.DAILY, daily=date.fromisoformat(scope.period))
    if scope.kind == "deal":
        return wins.filter(origin__in=[Game.Origin.RANDOM, Game.Origin.CHOSEN], deal_number=int(scope.period))
    random = wins.filter(origin=Game.Origin.RANDOM)
    between = scope.finished_between()  # a week's or a day's
    return random.filter(finished_at__gte=between[0], finished_at__lt=between[1]) if between else random


def previous_best(game: Game, entry: BoardEntry) -> int | None:
    """The player's best figure on ``entry``'s board and scope before ``game`` won there
    (milliseconds or moves), or None if this is their first win there."""
    figure = "elapsed_ms" if entry.board == BoardEntry.Board.TIME else "moves"
    other = "moves" if figure == "elapsed_ms" else "elapsed_ms"
    wins = scope_wins(game.owner_id, Scope.parse(entry.scope))  # type: ignore[arg-type]  # a ranked win's owner
    earlier = wins.filter(finished_at__lt=game.finished_at).exclude(pk=game.pk)
    return earlier.order_by(figure, other, "finished_at").values_list(figure, flat=True).first()


BOARD_COLUMNS = (
    "first",
    "second",
    "finished_at",
    "user__username",
    "game__deal_number",
    "game__variant",
    # the game's status and day: whether its replay is open yet (Game.seed_shown)
    "game__status",
    "game__daily",
    "game__sealed",
)


@dataclass(frozen=True)
class BoardPage:
    """One page of a board, read without counting the board: its entries, its number, and
    the cursors its links carry (the last entry shown, for the next page; the first, for the
    previous one), so that the next page starts where this one ended, on the rank index,
    however far down the board it is (``board_page``).  Ranks are numbered from the page's
    number, as a board of fixed pages does."""

    object_list: list[BoardEntry]
    number: int
    has_next: bool
    size: int = BOARD_PAGE_SIZE

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_other_pages(self) -> bool:
        return self.has_previous or self.has_next

    @property
    def start_index(self) -> int:
        return (self.number - 1) * self.size + 1

    @property
    def previous_page_number(self) -> int:
        return self.number - 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1

    @property
    def previous_cursor(self) -> str:
        return cursor_of(self.object_list[0]) if self.object_list else ""

    @property
    def next_cursor(self) -> str:
        return cursor_of(self.object_list[-1]) if self.object_list else ""


def cursor_of(entry: BoardEntry) -> str:
    """An entry's place on its board as a link carries it: its ORDER's values, as numbers
    (``figure.other.microseconds.id``), so that it still says where the page ended when
    the entry itself has since improved or gone."""
    finished = entry.finished_at
    micros = (finished - datetime(1970, 1, 1, tzinfo=finished.tzinfo)) // timedelta(microseconds=1)
    return f"{entry.first}.{entry.second}.{micros}.{entry.pk}"


def _cursor_entry(cursor: str | None) -> BoardEntry | None:
    """The place ``cursor_of`` wrote, as an unsaved entry to compare with; None for anything else."""
    parts = (cursor or "").split(".")
    if len(parts) != 4 or not all(part.isdigit() and len(part) <= 18 for part in parts):
        return None
    first, second, micros, pk = map(int, parts)
    try:
        finished_at = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=micros)
    except OverflowError:
        return None
    return BoardEntry(pk=pk, first=first, second=second, finished_at=finished_at)


def _page_number(page: str | int | None) -> int:
    try:
        return max(1, min(int(page or 1), 1_000_000))
    except (TypeError, ValueError):
        return 1


def board_page(
    *,
    board: str,
    scope: Scope,
    page: str | int | None,
    after: str | None = None,
    before: str | None = None,
    size: int = BOARD_PAGE_SIZE,
) -> BoardPage:
    """One page of a board: each player once, with their best game; ties by the other
    figure, then by who finished first.  ``after`` (a next link's cursor) starts the page
    behind that place, ``before`` (a previous link's) ends it there; without one, or when
    the cursor's side of the board has no entries left, the page is found by its number.
    A number past the end gives the last page; only then is the board counted.  ``size``:
    how many entries a page shows (a board's top on another page shows fewer)."""
    number = _page_number(page)
    entries = (
        on_boards(BoardEntry.objects.filter(board=board, scope=str(scope)))
        .select_related("user", "game")
        .only(*BOARD_COLUMNS)
    )
    order = BoardEntry.ORDER
    if (place := _cursor_entry(after)) is not None and number > 1:
        rows = list(entries.filter(behind(place)).order_by(*order)[: size + 1])
        if rows:
            return BoardPage(rows[:size], number, len(rows) > size, size)
    if (place := _cursor_entry(before)) is not None and number >= 1:
        rows = list(entries.filter(ahead_of(place)).order_by(*(f"-{field}" for field in order))[:size])
        if len(rows) == size:  # else the board above changed: count from the top
            return BoardPage(rows[::-1], number, True, size)
    rows = _nth_page(entries, number, size)
    if not rows and number > 1:  # past the end: the last page
        number = max(1, -(-entries.count() // size))
        rows = _nth_page(entries, number, size)
    return BoardPage(rows[:size], number, len(rows) > size, size)


def _nth_page(entries: QuerySet[BoardEntry], number: int, size: int) -> list[BoardEntry]:
    """Page ``number``'s entries and the next one's first, by their place: the rank index
    skips the pages before (their ids alone), and only the page's rows join the users and games."""
    start = (number - 1) * size
    ids = entries.order_by(*BoardEntry.ORDER).values("pk")[start : start + size + 1]
    return list(entries.filter(pk__in=ids).order_by(*BoardEntry.ORDER))


@dataclass(frozen=True)
class Streaks:
    """Runs of consecutive UTC days, each ending today or yesterday for the current one."""

    played_current: int
    played_best: int
    won_current: int
    won_best: int


def _runs(days: set[date], now_day: date) -> tuple[int, int]:
    """The current run (ending today, or yesterday while today is still to play) and the longest."""
    best = run = 0
    previous = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    day = now_day if now_day in days else now_day - timedelta(days=1)
    while day in days:
        current += 1
        day -= timedelta(days=1)
    return current, best


def streaks(first_games: list[tuple[date, bool]], now: datetime | None = None) -> Streaks:
    """Streaks from a player's ranked daily games, one per day: (day, won)."""
    now_day = utc_day(now)
    played = {day for day, _won in first_games}
    won = {day for day, was_won in first_games if was_won}
    played_current, played_best = _runs(played, now_day)
    won_current, won_best = _runs(won, now_day)
    return Streaks(played_current, played_best, won_current, won_best)


CHART_WINS = 200
"""How many of a player's latest ranked wins their profile's chart draws."""


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
    wins: list[tuple[datetime, int]]  # (finished_at, elapsed_ms) of the latest CHART_WINS ranked wins, oldest first
    assisted_played: int = 0
    assisted_won: int = 0
    lost_unwinnable: int = 0  # lost games whose last stretch was proved to have no win
    daily: Streaks = Streaks(0, 0, 0, 0)  # runs of days with the daily played, and won
    draws_given_up: int = 0  # other guests' deals counted on the record (records.models.Redraw), in ``played``

    @property
    def lost(self) -> int:
        return self.played - self.won


def profile_of(user, record: PlayerRecord) -> Profile:
    """A player's record in one variant of the family (their figures are split by variant:
    a time of Montana is no time of Addiction): the counts and runs kept as their games
    ended (records.models.PlayerRecord), their ranked wins' figures and the latest for the
    chart, their daily games' days, the lost games proved unwinnable, and the draws given up
    that count on it as games played and lost (docs/RULES.md, "Review before the top").
    Each is one indexed read, however many games the player has finished.  ``record`` is
    the player's in the variant (records.services.record_of)."""
    variant = record.variant
    finished = owned_games(Owner(user_id=user.pk, guest_token="")).filter(variant=variant)
    ranked = finished.filter(status=engine.Status.WON, ranked=True)  # never assisted (games.services.game_rank)
    bests = ranked.aggregate(time=Min("elapsed_ms"), moves=Min("moves"))
    latest = ranked.order_by("-finished_at", "-pk").values_list("finished_at", "elapsed_ms")[:CHART_WINS]
    dailies = finished.filter(origin=Game.Origin.DAILY, daily__isnull=False).exclude(status=engine.Status.PLAYING)
    draws = Redraw.objects.filter(user=user, game__variant=variant).count()
    return Profile(
        played=record.played + draws,
        draws_given_up=draws,
        won=record.won,
        current_streak=record.current_streak,
        best_streak=record.best_streak,
        best_time_ms=bests["time"],
        fewest_moves=bests["moves"],
        wins=list(reversed(list(latest))),  # type: ignore[arg-type]  # ranked wins have finished
        assisted_played=record.assisted_played,
        assisted_won=record.assisted_won,
        lost_unwinnable=finished.filter(status=engine.Status.LOST, verdict="proved_lost").count(),
        daily=streaks(
            [(day, status == engine.Status.WON) for day, status in dailies.values_list("daily", "status")]  # type: ignore[misc]  # daily games have their day
        ),
    )


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


def profile_player(username: str) -> tuple[User, bool] | None:
    """The active account a profile's URL names, and whether staff hid it from the boards."""
    if "\x00" in username:  # no user name has one, and PostgreSQL refuses it in a query (a 500)
        return None
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        return None
    return player, Player.objects.filter(user=player, hidden_from_boards=True).exists()


def profile_entries(player: User, variant: str = engine.DEFAULT_VARIANT.key) -> QuerySet[BoardEntry]:
    """A player's all-time board entries in ``variant``, as their profile lists them."""
    return on_boards(BoardEntry.objects.filter(user=player, scope=str(Scope.all_time(variant)))).order_by("board")
