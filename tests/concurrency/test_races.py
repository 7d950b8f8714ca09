"""Several tabs of one game fire moves, undos and shuffles at once: nothing is lost or applied twice.

Each tab is a thread with its own ``django.test.Client`` (and so its own database
connection) holding the same guest cookie, posting through the real HTTP layer as htmx
does.  A ``threading.Barrier`` lines the tabs up so that their posts really collide.
The race on the suite's database needs PostgreSQL (SQLite's shared in-memory test
database cannot serve threads); the same race also runs on a SQLite file database.
"""

from __future__ import annotations

import random
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client

from addiction_site.ownership import GUEST_COOKIE
from games import engine
from games.models import Action, Game
from tests.helpers import a_movable_slot, act, grid, parse_html

ANSWERS = {200, 409, 422}
ROUNDS = 40
BARRIER_TIMEOUT = 60  # seconds; a tab that hangs breaks the barrier instead of the suite


@dataclass(frozen=True)
class Shot:
    """One post of one tab and what came back."""

    round: int
    tab: int
    kind: str
    sent: int  # the version the tab posted
    status: int
    shown: int | None  # the version of the board in the answer (None: no board)
    saw_playing: bool | None  # the tab read the game from the database, playing, just before the shot


@dataclass
class Race:
    shots: list[Shot] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, shot: Shot) -> None:
        with self.lock:
            self.shots.append(shot)

    def fail(self, tab: int) -> None:
        with self.lock:
            self.errors.append(f"tab {tab}: {traceback.format_exc()}")


# --------------------------------------------------------------------------- helpers


def in_thread(function: Callable, *args):
    """Run ``function`` in a thread of its own, with its own connection, and return its result."""
    result, failure = [], []

    def target():
        try:
            result.append(function(*args))
        except BaseException as error:  # re-raised in the caller's thread
            failure.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def run_threads(count: int, target: Callable[[int], None]) -> None:
    threads = [threading.Thread(target=target, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=BARRIER_TIMEOUT * 3)
    assert not any(thread.is_alive() for thread in threads), "a tab never finished"


def start_game(deal_number: int = 1) -> tuple[dict[str, str], int]:
    """A guest's game started through the site: the browser's cookies and the game's id."""
    client = Client()
    response = client.post("/new/", {"deal_number": deal_number})
    assert response.status_code == 302, response.status_code
    game_id = int(response.url.strip("/").split("/")[-1])
    return {name: morsel.value for name, morsel in client.cookies.items()}, game_id


def tab(cookies: dict[str, str]) -> Client:
    """Another tab of the same browser: a client with the same guest cookie."""
    client = Client()
    for name, value in cookies.items():
        client.cookies[name] = value
    assert GUEST_COOKIE in client.cookies
    return client


def choose(position: engine.Position, shuffles_left: int, can_undo: bool, rng: random.Random) -> tuple[str, dict]:
    """An action for a table: mostly a click on a slot that moves, sometimes an undo,
    a shuffle now and then or when nothing moves."""
    slots = [(r, c) for r in range(engine.ROWS) for c in range(engine.COLS) if position.move_for_slot((r, c))]
    roll = rng.random()
    if can_undo and roll < 0.2:
        return "undo", {}
    if shuffles_left and (not slots or roll > 0.97):
        return "shuffle", {}
    if slots:
        row, col = rng.choice(slots)
        return "move", {"slot": f"{row}-{col}"}
    return ("undo", {}) if can_undo else ("move", {"slot": "0-0"})


def shown_version(response) -> int | None:
    return grid(response).version if parse_html(response).find_all(id="grid") else None


# --------------------------------------------------------------------------- the race


def race(cookies: dict[str, str], game_id: int, *, fresh: int, stale: int, rounds: int = ROUNDS) -> Race:
    """``fresh`` tabs read the game from the database before each shot; ``stale`` tabs act on
    the board of their last answer, as a tab left open does.  Each round, every tab waits
    until all earlier shots are answered, chooses, and then all fire together."""
    outcome = Race()
    barrier = threading.Barrier(fresh + stale, timeout=BARRIER_TIMEOUT)

    def play(index: int) -> None:
        rng = random.Random(index)
        client, board = tab(cookies), None
        try:
            for rnd in range(rounds):
                barrier.wait()  # every shot of the last round is answered
                saw_playing = None
                if index < fresh or board is None:
                    game = Game.objects.get(pk=game_id)
                    state, version, saw_playing = game.state(), game.version, not game.is_over
                    kind, data = choose(state.position, state.shuffles_left, game.can_undo, rng)
                else:
                    version = board.version
                    position = engine.Position.parse(board.position)
                    kind, data = choose(position, board.shuffles_left, rng.random() < 0.5, rng)
                barrier.wait()  # fire together
                response = act(client, game_id, kind, version=version, **data)
                shown = shown_version(response)
                outcome.add(Shot(rnd, index, kind, version, response.status_code, shown, saw_playing))
                if shown is not None:
                    board = grid(response)
        except Exception:
            outcome.fail(index)
            barrier.abort()
        finally:
            connection.close()

    run_threads(fresh + stale, play)
    return outcome


def assert_race_kept_the_game(outcome: Race, game_id: int) -> None:
    """Every answer is a board or a refusal; the log holds exactly the acknowledged actions."""
    assert outcome.errors == [], "\n".join(outcome.errors)
    statuses = {shot.status for shot in outcome.shots}
    assert statuses <= ANSWERS, f"unexpected answers: {statuses - ANSWERS}"
    game = Game.objects.get(pk=game_id)
    actions = list(Action.objects.filter(game_id=game_id).order_by("number").values_list("number", "kind"))
    wins = sorted((shot for shot in outcome.shots if shot.status == 200), key=lambda shot: shot.sent)
    assert len(wins) == len(actions), "an acknowledged action is missing, or an action was logged twice"
    assert [number for number, _kind in actions] == list(range(1, len(actions) + 1))
    assert game.version == len(actions)
    # Each version was won by exactly one post, and the log holds what that post asked for.
    assert [shot.sent for shot in wins] == list(range(len(wins)))
    for shot in wins:
        assert shot.shown == shot.sent + 1, shot
        assert actions[shot.sent] == (shot.sent + 1, shot.kind), shot
    for shot in outcome.shots:
        if shot.status != 200:
            assert shot.shown is not None, f"a refusal without the board: {shot}"
        if shot.status == 409:
            assert shot.shown != shot.sent, shot
    # Within one round every tab posts a version it read after the last round ended, so at
    # most one post can win; and when a fresh tab read a playing game, one does win.
    for rnd in {shot.round for shot in outcome.shots}:
        in_round = [shot for shot in outcome.shots if shot.round == rnd]
        won = sum(shot.status == 200 for shot in in_round)
        assert won <= 1, in_round
        if any(shot.saw_playing for shot in in_round):
            assert won == 1, in_round
    assert any(shot.status == 409 for shot in outcome.shots), "no race was lost: the tabs never collided"
    out = StringIO()
    call_command("verify_games", stdout=out)
    assert out.getvalue().rstrip().endswith(", 0 differ"), out.getvalue()


def double_click(cookies: dict[str, str], game_id: int, kind: str, data: dict, clicks: int) -> Race:
    """The same post (same version, same slot) sent by ``clicks`` threads at once."""
    outcome = Race()
    version = Game.objects.get(pk=game_id).version
    barrier = threading.Barrier(clicks, timeout=BARRIER_TIMEOUT)

    def click(index: int) -> None:
        client = tab(cookies)
        try:
            barrier.wait()
            response = act(client, game_id, kind, version=version, **data)
            outcome.add(Shot(0, index, kind, version, response.status_code, shown_version(response), None))
        except Exception:
            outcome.fail(index)
            barrier.abort()
        finally:
            connection.close()

    run_threads(clicks, click)
    return outcome


def assert_one_click_counted(outcome: Race, game_id: int, before: Game, clicks: int) -> None:
    assert outcome.errors == [], "\n".join(outcome.errors)
    statuses = sorted(shot.status for shot in outcome.shots)
    assert statuses == [200] + [409] * (clicks - 1)
    for shot in outcome.shots:
        assert shot.shown == before.version + 1, shot  # the losers see the board after the winner's action
    game = Game.objects.get(pk=game_id)
    assert game.version == before.version + 1
    assert Action.objects.filter(game_id=game_id).count() == before.version + 1
    assert game.moves == before.moves + (0 if outcome.shots[0].kind == "shuffle" else 1)
    assert game.shuffles_used == before.shuffles_used + (outcome.shots[0].kind == "shuffle")


# --------------------------------------------------------------------------- PostgreSQL


@pytest.mark.postgres
@pytest.mark.parametrize(("fresh", "stale"), [(2, 0), (2, 2), (1, 3)])
def test_tabs_racing_on_one_game_lose_and_double_nothing(transactional_db, fresh, stale):
    cookies, game_id = start_game()
    outcome = race(cookies, game_id, fresh=fresh, stale=stale)
    assert_race_kept_the_game(outcome, game_id)
    # Moves and undos both raced.  An undo reads two log rows before its compare-and-set, so
    # when a move and an undo fire together the move tends to win: undos are counted as
    # fired, not as won.
    fired = {shot.kind for shot in outcome.shots}
    won = {shot.kind for shot in outcome.shots if shot.status == 200}
    assert {"move", "undo"} <= fired and "move" in won, (fired, won)


@pytest.mark.postgres
def test_losers_of_a_race_get_the_board_as_it_now_is(transactional_db):
    cookies, game_id = start_game()
    outcome = race(cookies, game_id, fresh=3, stale=0, rounds=5)
    losers = [shot for shot in outcome.shots if shot.status == 409]
    assert losers
    # The re-rendered board is the one after the round's winner: one version ahead.
    assert all(shot.shown == shot.sent + 1 for shot in losers), losers


@pytest.mark.postgres
@pytest.mark.parametrize("kind", ["move", "undo", "shuffle"])
def test_a_double_click_counts_once(transactional_db, kind):
    clicks = 6
    cookies, game_id = start_game()
    data = {"slot": a_movable_slot(game_id)} if kind != "shuffle" else {}
    if kind == "undo":
        assert act(tab(cookies), game_id, "move", version=0, **data).status_code == 200
        data = {}
    before = Game.objects.get(pk=game_id)
    outcome = double_click(cookies, game_id, kind, data, clicks)
    assert_one_click_counted(outcome, game_id, before, clicks)


# --------------------------------------------------------------------------- SQLite file


@pytest.fixture
def sqlite_file_db(tmp_path, monkeypatch, django_db_blocker):
    """A migrated SQLite file database with the site's options, for threads started here.

    Threads create their connections from ``connections.settings``, so patching the entry
    points every new thread at the file; this thread's connection is left alone.
    """
    file_settings = {
        **connections.settings["default"],
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(tmp_path / "race.sqlite3"),
        "OPTIONS": dict(settings.SQLITE_OPTIONS),
        "USER": "",
        "PASSWORD": "",
        "HOST": "",
        "PORT": "",
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
    }
    monkeypatch.setitem(connections.settings, "default", file_settings)
    with django_db_blocker.unblock():
        in_thread(call_command, "migrate", "--noinput", "--verbosity", "0")
        yield file_settings


def test_the_race_on_a_sqlite_file_never_finds_the_database_locked(sqlite_file_db):
    assert in_thread(lambda: connection.settings_dict["NAME"]) == sqlite_file_db["NAME"]
    cookies, game_id = in_thread(start_game)
    outcome = race(cookies, game_id, fresh=2, stale=2, rounds=25)
    assert not any("database is locked" in error for error in outcome.errors), outcome.errors
    in_thread(assert_race_kept_the_game, outcome, game_id)


def test_a_double_click_counts_once_on_a_sqlite_file(sqlite_file_db):
    clicks = 6
    cookies, game_id = in_thread(start_game)
    data = {"slot": in_thread(a_movable_slot, game_id)}
    before = in_thread(lambda: Game.objects.get(pk=game_id))
    outcome = in_thread(double_click, cookies, game_id, "move", data, clicks)
    in_thread(assert_one_click_counted, outcome, game_id, before, clicks)
