"""Board and profile speed: the leaderboard pages and a profile, served over a large database.

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/boards_speed.py                  # fresh SQLite file in a temporary folder
    .venv/bin/python benchmarks/boards_speed.py --postgres       # a throwaway PostgreSQL cluster
    .venv/bin/python benchmarks/boards_speed.py --database-url postgres://...   # an empty database of yours

What it does, in order:

1. Makes the database (migrations applied) with the test settings, DEBUG off as in production.
2. Fills it with --games finished games (default 100,000) by --players accounts (default
   2,000): a few players play a lot and most a little, each with their own win rate (about
   a third of all games are won and ranked) and pace; the games are spread over the last 60
   days (some today, some this week), a fifth of them on 500 popular deals so that deal
   boards have several winners.  Rows go in with bulk_create.  The board rows (BoardEntry)
   are derived in Python by the rules of records.services.boards_enter (every ranked win in
   the order it was won; it replaces the player's entry only when strictly better), and a
   check replays boards_enter itself for 20 random players and the busiest one, in a
   transaction that is rolled back, and stops the run if any entry differs.
3. Serves each page through Django's test Client, so every request goes through the whole
   middleware stack and the templates: the time and moves boards for all time, this week
   and today (page 1, and page 40 of the all-time and weekly ones), the board of the deal
   with the most winners, and the profile of the player with the most games.  Each page is
   requested a few times to warm up, then --runs times (default 30), the pages taking turns
   so that noise from other work on the machine falls on all of them alike.

What it prints: the machine's load, the fill time, the database's size and row counts, how
long boards_enter takes per win, then one line per page: the median and 90th-percentile
wall time of a request in milliseconds, the median CPU time this process spent on it (less
swayed by other work on a shared machine; the database's own work counts too on SQLite,
not on PostgreSQL, which runs in its own processes), the number of SQL queries the page
makes, the rows it shows (board rows, or the profile chart's points), and whether the
median wall time meets the target of 50 ms.
--explain also prints each page's SQL with the database's query plan.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOARD_TARGET_MS = 20.0
PROFILE_TARGET_MS = 30.0
DAYS = 60
POPULAR_DEALS = 500
BATCH = 2_000


@dataclass(frozen=True)
class Win:
    """What the boards need of one ranked win."""

    game_id: int
    user_id: int
    finished_at: datetime
    elapsed_ms: int
    moves: int
    scopes: tuple[str, ...]


def configure(database_url: str | None, data_dir: str | None) -> None:
    """Point Django at the benchmark's database, before django.setup()."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    os.environ["DJANGO_DEBUG"] = "0"  # measure as production runs: no query log, no debug pages
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["ADDICTION_DATA_DIR"] = data_dir
    import django

    django.setup()


def player_traits(rng: random.Random, players: int) -> tuple[list[float], list[float], list[float]]:
    """Per player: a share of all games (a few play a lot), a win rate and a pace factor."""
    weights = [1 / (rank + 10) for rank in range(players)]
    rng.shuffle(weights)
    win_rates = [rng.betavariate(4, 8) for _ in range(players)]  # mean 1/3
    paces = [rng.lognormvariate(0, 0.35) for _ in range(players)]
    return weights, win_rates, paces


def finished_moment(rng: random.Random, now: datetime) -> datetime:
    """Spread over the last DAYS days, with an extra share since midnight (UTC) today."""
    if rng.random() < 0.03:
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
        return now - timedelta(seconds=rng.uniform(0, (now - midnight).total_seconds()))
    return now - timedelta(seconds=rng.uniform(0, DAYS * 86_400))


DEALT = {}


def dealt(deal_number: int) -> str:
    """A deal's table as a lost game keeps it (any table does for the pages; a few are enough)."""
    from games import engine

    key = deal_number % 64
    if key not in DEALT:
        DEALT[key] = str(engine.deal(key + 1))
    return DEALT[key]


def new_game(rng, owner_id: int, win_rate: float, pace: float, now: datetime, dailies: set):
    from games import engine
    from games.models import Game
    from games.services import seed_digest

    # A fifth of the games are of a popular deal chosen by number (they rank on that deal's board
    # only), a tenth are the daily deal (the player's first of a day ranks on that day's daily
    # board, a later one is practice); the rest are random deals the site drew, which rank on the
    # all-time, week and day boards too (docs/RULES.md, "What each board ranks").  Left at the
    # model's default, "chosen", every game would stay off those boards, and the pages timed
    # would be empty.
    roll = rng.random()
    chosen, daily = roll < 0.2, 0.2 <= roll < 0.3
    deal_number = rng.randint(1, POPULAR_DEALS) if chosen else rng.randint(1, engine.MAX_DEAL)
    won = rng.random() < win_rate
    resigned = not won and rng.random() < 0.3
    if won:
        moves = max(60, int(rng.lognormvariate(5.3, 0.3)))  # median about 200
        elapsed_ms = max(45_000, int(pace * rng.lognormvariate(12.7, 0.4)))  # median about 5.5 minutes
        shuffles_used = rng.choices((0, 1, 2, 3), weights=(1, 3, 4, 4))[0]
    else:
        moves = int(rng.lognormvariate(4.6, 0.5))
        elapsed_ms = int(pace * rng.lognormvariate(12.2, 0.6))
        shuffles_used = rng.randint(0, 3) if resigned else engine.SHUFFLES
    finished_at = finished_moment(rng, now)
    origin = Game.Origin.CHOSEN if chosen else Game.Origin.RANDOM
    day = None
    if daily:
        day = finished_at.astimezone(UTC).date()
        origin = Game.Origin.PRACTICE if (owner_id, day) in dailies else Game.Origin.DAILY
        dailies.add((owner_id, day))
        deal_number = 1000 + (day - date(2026, 1, 1)).days  # one deal a day
    seed = str(rng.getrandbits(128))
    # created_at gets the time of the fill (auto_now_add); none of the pages measured reads it.
    return Game(
        owner_id=owner_id,
        deal_number=deal_number,
        origin=origin,
        daily=day,
        seed=seed,
        seed_sha256=seed_digest(seed),
        position=engine.WON if won else dealt(deal_number),
        moves=moves,
        shuffles_used=shuffles_used,
        status=engine.Status.WON if won else engine.Status.LOST,
        resigned=resigned,
        ranked=won and rng.random() >= 0.01,  # a few wins whose log would not replay stay off the boards
        version=moves + shuffles_used + resigned,
        elapsed_ms=elapsed_ms,
        started_at=finished_at - timedelta(milliseconds=elapsed_ms),
        last_action_at=finished_at,
        finished_at=finished_at,
    )


def fill(rng: random.Random, *, players: int, games: int, now: datetime) -> tuple[list[Win], set[int]]:
    """Accounts and finished games, in batches, one player in a hundred hidden from the boards
    by staff, and each player's record (records.models.PlayerRecord) folded from their games
    by records.services.record_fold; returns the ranked wins, oldest first, and the hidden."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.db import transaction

    from games.models import Game
    from records.models import Player
    from records.scopes import board_scopes

    weights, win_rates, paces = player_traits(rng, players)
    wins: list[Win] = []
    dailies: set = set()
    finished: list[tuple] = []
    with transaction.atomic():
        users = User.objects.bulk_create(
            [User(username=f"player{i:04d}", password=make_password(None)) for i in range(players)], batch_size=BATCH
        )
        owners = rng.choices(range(players), weights=weights, k=games)
        for start in range(0, games, BATCH):
            batch = [
                new_game(rng, users[i].pk, win_rates[i], paces[i], now, dailies) for i in owners[start : start + BATCH]
            ]
            Game.objects.bulk_create(batch)
            finished.extend((game.owner_id, game.variant, game.finished_at, game.pk, game.status) for game in batch)
            wins.extend(
                Win(
                    game.pk,
                    game.owner_id,
                    game.finished_at,
                    game.elapsed_ms,
                    game.moves,
                    tuple(map(str, board_scopes(game))),
                )
                for game in batch
                if game.ranked
            )
        hidden = {user.pk for user in rng.sample(users, max(1, players // 100))}
        Player.objects.bulk_create([Player(user_id=pk, hidden_from_boards=True) for pk in hidden])
        insert_records(finished)
    wins.sort(key=lambda win: (win.finished_at, win.game_id))
    return wins, hidden


def insert_records(finished: list[tuple]) -> None:
    """Each player's record, folded in the order their games finished, as their games' ends do."""
    from records.models import PlayerRecord
    from records.services import record_fold

    records: dict[tuple[int, str], PlayerRecord] = {}
    for user_id, variant, finished_at, pk, status in sorted(finished, key=lambda row: (row[2], row[3])):
        record = records.get((user_id, variant))
        if record is None:
            record = records[(user_id, variant)] = PlayerRecord(user_id=user_id, variant=variant)
        record_fold(record, status, False)
        record.through_at, record.through_game = finished_at, pk
    PlayerRecord.objects.bulk_create(records.values(), batch_size=BATCH)


def board_rows(wins: list[Win]) -> dict[tuple[int, str, str], tuple[int, int, datetime, int]]:
    """Each (player, board, scope)'s best ranked win, as boards_enter keeps it when the wins
    arrive in the order they were won: a later win replaces the entry only when strictly
    better by (first figure, second figure, finished_at).  Values: (first, second, finished_at, game)."""
    best: dict[tuple[int, str, str], tuple[int, int, datetime, int]] = {}
    for win in wins:
        for board, first, second in (("time", win.elapsed_ms, win.moves), ("moves", win.moves, win.elapsed_ms)):
            for scope in win.scopes:
                key = (win.user_id, board, scope)
                entry = best.get(key)
                if entry is None or (first, second, win.finished_at) < entry[:3]:
                    best[key] = (first, second, win.finished_at, win.game_id)
    return best


def insert_board_rows(best, hidden: set[int]) -> None:
    from django.db import transaction

    from records.models import BoardEntry

    entries = [
        BoardEntry(
            user_id=user_id,
            board=board,
            scope=scope,
            game_id=game_id,
            first=first,
            second=second,
            finished_at=finished_at,
            shown=user_id not in hidden,
        )
        for (user_id, board, scope), (first, second, finished_at, game_id) in best.items()
    ]
    with transaction.atomic():
        BoardEntry.objects.bulk_create(entries, batch_size=BATCH)


def check_board_rows(user_ids: list[int]) -> tuple[int, float]:
    """Replay boards_enter for ``user_ids`` (rolled back) and compare with the stored rows.

    Returns (wins replayed, seconds per win); exits when any entry differs."""
    from django.db import transaction

    from games.models import Game
    from records.models import BoardEntry
    from records.services import boards_enter

    fields = ("user_id", "board", "scope", "game_id", "first", "second", "finished_at", "shown")
    entries = BoardEntry.objects.filter(user_id__in=user_ids)
    stored = set(entries.values_list(*fields))
    with transaction.atomic():
        entries.delete()
        ranked = list(Game.objects.filter(owner_id__in=user_ids, ranked=True).order_by("finished_at", "id"))
        start = time.perf_counter()
        for game in ranked:
            boards_enter(game=game)
        seconds = time.perf_counter() - start
        replayed = set(entries.values_list(*fields))
        transaction.set_rollback(True)
    if stored != replayed:
        sys.exit(
            f"board rows differ from boards_enter's: {len(stored - replayed)} only derived, "
            f"{len(replayed - stored)} only replayed, e.g. {sorted(stored ^ replayed, key=str)[:3]}"
        )
    return len(ranked), seconds / max(1, len(ranked))


def check_records(user_ids: list[int]) -> None:
    """Make the records of ``user_ids`` again from their games (rolled back) and compare with
    the stored ones; exits when any differs."""
    from django.db import transaction

    from records.models import PlayerRecord
    from records.services import records_rebuild

    def kept() -> set:
        return set(
            PlayerRecord.objects.filter(user_id__in=user_ids).values_list("user_id", "variant", *PlayerRecord.FOLDED)
        )

    stored = kept()
    with transaction.atomic():
        for user_id in user_ids:
            records_rebuild(user_id=user_id)
        again = kept()
        transaction.set_rollback(True)
    if stored != again:
        sys.exit(f"records differ from records_rebuild's: {sorted(stored ^ again)[:3]}")


def database_size() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA page_count")
            pages = cursor.fetchone()[0]
            cursor.execute("PRAGMA page_size")
            return pages * cursor.fetchone()[0]
        cursor.execute("SELECT pg_database_size(current_database())")
        return cursor.fetchone()[0]


FLOOR = "/how-to-play/"
"""A page that reads no table: the whole stack's own cost, timed in the same run."""


def pages_to_serve(today: date) -> list[tuple[str, str]]:
    from django.contrib.auth.models import User
    from django.db.models import Count
    from django.test import Client

    from records.models import BoardEntry

    deals = BoardEntry.objects.filter(board="time", scope__startswith="deal:").values("scope")
    most = deals.annotate(winners=Count("id")).order_by("-winners", "scope").first()
    deal_winners = {most["scope"]: most["winners"]}
    deal_scope = most["scope"]
    busiest = User.objects.annotate(played=Count("games")).order_by("-played", "id").first()
    pages = [("no query (the rules)", FLOOR)]
    client = Client(HTTP_HOST="localhost")
    for board in ("time", "moves"):
        for period in ("all", "week", "today"):
            url = f"/leaderboards/?board={board}&period={period}"
            pages.append((f"{board} {period}", url))
            if period != "today":
                pages.append((f"{board} {period} p40", f"{url}&page=40"))
                # page 40 as a player reaches it: the next link of page 39, which carries where it ended
                following = re.search(rb'href="([^"]*)" rel="next"', client.get(f"{url}&page=39").content)
                if following:
                    pages.append(
                        (
                            f"{board} {period} p40 by link",
                            "/leaderboards/" + following[1].decode().replace("&amp;", "&"),
                        )
                    )
    deal = deal_scope.split(":")[1]
    pages.append((f"deal {deal} ({deal_winners[deal_scope]} winners)", f"/deal/{deal}/leaderboard/"))
    pages.append(("daily board, today", f"/daily/{today.isoformat()}/leaderboard/"))
    pages.append((f"profile ({busiest.played} games)", f"/players/{busiest.username}/"))
    return pages


def shown_rows(content: bytes) -> int:
    """Board rows, or points of the profile's chart."""
    return len(re.findall(rb"<tr data-player=", content)) or len(re.findall(rb"<circle ", content))


def serve(pages: list[tuple[str, str]], runs: int, explain: bool) -> list[dict]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="localhost")
    results = {url: {"label": label, "times": [], "cpu": []} for label, url in pages}
    for _label, url in pages:
        for _ in range(3):
            response = client.get(url)
            if response.status_code != 200:
                sys.exit(f"{url} answered {response.status_code}")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        results[url]["queries"] = len(queries)
        results[url]["rows"] = shown_rows(response.content)
        if not results[url]["rows"] and url != FLOOR:  # an empty page is fast and says nothing of the boards
            sys.exit(f"{url} shows no rows: the figures would time an empty page (more --games or --players?)")
        if explain:
            print_plans(url, queries.captured_queries)
    for _ in range(runs):
        for _label, url in pages:
            start, cpu = time.perf_counter(), time.process_time()
            status = client.get(url).status_code
            results[url]["times"].append((time.perf_counter() - start) * 1000)
            results[url]["cpu"].append((time.process_time() - cpu) * 1000)
            if status != 200:
                sys.exit(f"{url} answered {status}")
    return list(results.values())


def print_plans(url: str, queries: list[dict]) -> None:
    from django.db import connection

    print(f"\n{url}")
    prefix = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN "
    with connection.cursor() as cursor:
        for query in queries:
            print(f"  {query['sql']}")
            cursor.execute(prefix + query["sql"])
            for row in cursor.fetchall():
                print(f"      {row[-1]}")


def report(results: list[dict], vendor: str) -> None:
    width = max(len(result["label"]) for result in results)
    print(
        f"\n{'page':<{width}}  {'median ms':>9}  {'p90 ms':>7}  {'cpu ms':>6}  {'queries':>7}  {'rows':>5}  "
        f"p90 within target ({BOARD_TARGET_MS:.0f} ms a board, {PROFILE_TARGET_MS:.0f} ms the profile)"
    )
    for result in results:
        times = result["times"]
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
        target = PROFILE_TARGET_MS if result["label"].startswith("profile") else BOARD_TARGET_MS
        verdict = "-" if result["label"].startswith("no query") else ("yes" if p90 <= target else "NO")
        cpu = statistics.median(result["cpu"])
        print(
            f"{result['label']:<{width}}  {median:9.1f}  {p90:7.1f}  {cpu:6.1f}  {result['queries']:7d}  "
            f"{result['rows']:5d}  {verdict}"
        )


def run(args) -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games.models import Game

    call_command("migrate", verbosity=0)
    now = timezone.now()
    today = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    print(
        f"{connection.vendor}, python {sys.version.split()[0]}, {args.runs} runs per page after 3 warm-ups; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    if not Game.objects.exists():
        fill_and_check(args, now, today)
    elif args.reuse:
        print(
            f"the games already there, {Game.objects.count():,} of them (--reuse); "
            f"database {database_size() / 2**20:.0f} MiB"
        )
    else:
        sys.exit("the database already holds games; give an empty one, or --reuse to time the pages of its games")
    results = serve(pages_to_serve(today.date()), args.runs, args.explain)
    report(results, connection.vendor)
    connection.close()


def fill_and_check(args, now: datetime, today: datetime) -> None:
    from django.db import connection

    from games.models import Game
    from records.models import BoardEntry

    rng = random.Random(2026)
    start = time.perf_counter()
    wins, hidden = fill(rng, players=args.players, games=args.games, now=now)
    games_seconds = time.perf_counter() - start
    best = board_rows(wins)
    insert_board_rows(best, hidden)
    fill_seconds = time.perf_counter() - start
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # what autovacuum would soon do after such a load
    size = database_size()
    monday = today - timedelta(days=today.weekday())
    print(
        f"filled in {fill_seconds:.1f} s ({games_seconds:.1f} s for {args.players:,} players and "
        f"{args.games:,} games, the rest for {len(best):,} board rows); database {size / 2**20:.0f} MiB"
    )
    print(
        f"games: {len(wins):,} ranked wins, {Game.objects.filter(finished_at__gte=monday).count():,} "
        f"finished this week, {Game.objects.filter(finished_at__gte=today).count():,} today; "
        f"board rows: {BoardEntry.objects.count():,}"
    )
    wins_of = Counter(win.user_id for win in wins)
    busiest = max(wins_of, key=wins_of.get)
    sample = rng.sample(sorted(set(wins_of) - {busiest}), min(20, len(wins_of) - 1)) + [busiest, min(hidden)]
    checked, per_win = check_board_rows(sample)
    check_records(sample)
    print(
        f"board rows of {len(sample)} players equal boards_enter's ({checked:,} wins replayed); boards_enter "
        f"takes {per_win * 1000:.2f} ms a win, so {per_win * len(wins):.0f} s for all {len(wins):,}; "
        f"their records equal records_rebuild's"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database-url", help="an empty database to fill (default: SQLite in a temporary folder)")
    where.add_argument("--postgres", action="store_true", help="fill a throwaway PostgreSQL cluster")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=30, help="timed requests per page")
    parser.add_argument("--explain", action="store_true", help="print each page's SQL and query plan")
    parser.add_argument(
        "--reuse", action="store_true", help="with --database-url: time the pages of the games a database already holds"
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.postgres:
            from scripts.throwaway_postgres import throwaway_postgres

            configure(stack.enter_context(throwaway_postgres()), None)
        elif args.database_url:
            configure(args.database_url, None)
        else:
            configure(None, stack.enter_context(tempfile.TemporaryDirectory(prefix="addiction-boards-")))
        run(args)


if __name__ == "__main__":
    main()
