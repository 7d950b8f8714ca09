"""Services: starting games, one checked and logged transaction per action, time, replay."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from addiction_site.ownership import Owner
from games import engine, services
from games.models import Game
from games.replay import replay_end
from games.services import ActionRefused, StaleVersion, elapsed_at, game_act, game_start
from tests.helpers import (
    ONE_MOVE_FROM_STUCK,
    ONE_MOVE_FROM_WIN,
    TWO_COLUMN_0_GAPS,
    act_on_service,
    set_layout,
    snapshot,
)

pytestmark = pytest.mark.django_db

GUEST = Owner(user_id=None, guest_token="guest-token-of-the-tests")
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


# --------------------------------------------------------------------------- starting


def test_game_start_with_a_chosen_deal():
    game = game_start(owner=GUEST, deal_number=7)
    game.refresh_from_db()
    assert game.deal_number == 7
    assert engine.Position.parse(game.position) == engine.deal(7)
    assert game.seed_sha256 == hashlib.sha256(game.seed.encode()).hexdigest()
    assert game.seed.isdigit()
    assert (game.moves, game.shuffles_used, game.undo_top, game.status) == (0, 0, 0, "playing")
    assert (game.version, game.elapsed_ms, game.finished_at) == (0, 0, None)
    assert game.started_at == game.last_action_at is not None  # the clock runs from the deal
    assert (game.owner_id, game.guest_token) == (None, GUEST.guest_token)
    assert not game.actions.exists()


def test_game_start_with_a_random_deal():
    first, second = game_start(owner=GUEST), game_start(owner=GUEST)
    for game in (first, second):
        assert 1 <= game.deal_number <= engine.MAX_DEAL
        assert engine.Position.parse(game.position) == engine.deal(game.deal_number)
        assert game.seed_sha256 == hashlib.sha256(game.seed.encode()).hexdigest()
    assert first.seed != second.seed
    assert first.deal_number != second.deal_number  # 1 chance in a billion of a false alarm


def test_game_start_with_the_largest_deal_number():
    game = game_start(owner=GUEST, deal_number=engine.MAX_DEAL)
    game.refresh_from_db()
    assert game.deal_number == engine.MAX_DEAL
    assert game.state().position == engine.deal(engine.MAX_DEAL)


# --------------------------------------------------------------------------- actions


def test_a_move_is_applied_and_logged_once():
    game = game_start(owner=GUEST, deal_number=1)
    before = game.state()
    move = before.position.legal_moves()[0]
    game = act_on_service(GUEST, game, "move", move.src)
    game.refresh_from_db()
    played = before.position.move_for_slot(move.src)
    assert game.state() == before.play(played)._replace(history=())  # undo's moves stay in the log
    assert game.undo_top == 1 and game.can_undo
    assert game.version == 1
    assert list(game.actions.values_list("number", "kind", "move")) == [(1, "move", str(played))]


def test_undo_takes_the_last_move_back_and_counts_as_a_move():
    game = game_start(owner=GUEST, deal_number=1)
    move = game.state().position.legal_moves()[0]
    act_on_service(GUEST, game, "move", move.src)
    game = act_on_service(GUEST, game, "undo")
    game.refresh_from_db()
    assert game.state().position == engine.deal(1)
    assert (game.moves, game.undo_top, game.can_undo, game.version) == (2, 0, False, 2)
    assert list(game.actions.values_list("number", "kind", "move")) == [(1, "move", str(move)), (2, "undo", str(move))]


def test_shuffle_uses_the_games_own_seed_and_clears_undo():
    game = game_start(owner=GUEST, deal_number=1)
    move = game.state().position.legal_moves()[0]
    act_on_service(GUEST, game, "move", move.src)
    before = Game.objects.get(pk=game.pk).state()
    game = act_on_service(GUEST, game, "shuffle")
    game.refresh_from_db()
    assert game.state() == before.shuffle()
    assert (game.shuffles_used, game.shuffles_left, game.undo_top, game.moves) == (1, 2, 0, 1)
    assert list(game.actions.values_list("number", "kind", "move"))[-1] == (2, "shuffle", "")


def test_resign_ends_the_game_as_lost():
    game = act_on_service(GUEST, game_start(owner=GUEST, deal_number=1), "resign", now=T0)
    game.refresh_from_db()
    assert (game.status, game.resigned, game.version, game.finished_at) == ("lost", True, 1, T0)
    assert list(game.actions.values_list("number", "kind", "move")) == [(1, "resign", "")]


def test_the_winning_move_ends_the_game_as_won():
    game = set_layout(game_start(owner=GUEST, deal_number=1), ONE_MOVE_FROM_WIN)
    game = act_on_service(GUEST, game, "move", (0, 12), now=T0)
    game.refresh_from_db()
    assert (game.status, game.finished_at, game.position) == ("won", T0, engine.WON)


def test_the_last_move_into_a_stuck_table_with_no_shuffle_left_loses():
    game = set_layout(game_start(owner=GUEST, deal_number=1), ONE_MOVE_FROM_STUCK, shuffles_used=3)
    game = act_on_service(GUEST, game, "move", (0, 12), now=T0)
    game.refresh_from_db()
    assert (game.status, game.resigned, game.finished_at) == ("lost", False, T0)


def test_a_stale_version_is_refused_and_changes_nothing():
    game = game_start(owner=GUEST, deal_number=1)
    move = game.state().position.legal_moves()[0]
    act_on_service(GUEST, game, "move", move.src)
    before = snapshot(game)
    for version in (0, 2, 99):
        with pytest.raises(StaleVersion) as refused:
            act_on_service(GUEST, game, "undo", version=version)
        assert refused.value.game.version == 1
        assert snapshot(game) == before


def between_read_and_write(monkeypatch, meddle) -> None:
    """Run ``meddle()`` once, in the next action, after the game is read and before it is
    written: the engine's work in between is where another request can slip in."""
    real_act = engine.GameState.act
    done = []

    def act_after_meddling(state, kind, **where):
        if not done:
            done.append(True)  # the meddler's own action goes straight through
            meddle()
        return real_act(state, kind, **where)

    monkeypatch.setattr(engine.GameState, "act", act_after_meddling)


@pytest.mark.parametrize("other", ["move", "undo", "shuffle", "resign"])
def test_a_write_between_the_read_and_the_write_wins_and_the_late_one_gets_409(monkeypatch, other):
    """Two tabs read the game at version 1; the other tab writes first.  The late tab's
    compare-and-set finds version 2: it writes nothing and gets the game as it is now."""
    game = game_start(owner=GUEST, deal_number=1)
    act_on_service(GUEST, game, "move", game.state().position.legal_moves()[0].src)
    raced = []

    def the_other_tab_writes():
        seen = Game.objects.get(pk=game.pk)
        slot = seen.state().position.legal_moves()[0].src if other == "move" else None
        raced.append(act_on_service(GUEST, game, other, slot))

    between_read_and_write(monkeypatch, the_other_tab_writes)
    late = Game.objects.get(pk=game.pk).state().position.legal_moves()[-1].src
    with pytest.raises(StaleVersion) as refused:
        act_on_service(GUEST, game, "move", late, version=1)
    assert refused.value.game.version == 2 == raced[0].version
    assert refused.value.game.position == raced[0].position
    stored = Game.objects.get(pk=game.pk)
    assert list(stored.actions.values_list("number", "kind")) == [(1, "move"), (2, other)]
    assert replay_end(stored).state == stored.state()


def test_a_game_claimed_between_the_read_and_the_write_is_not_written_by_the_guest(monkeypatch):
    """The browser's account claims the game while a guest tab's move is on its way: that
    move writes nothing, and the guest tab no longer finds the game."""
    game = game_start(owner=GUEST, deal_number=1)
    user = User.objects.create_user("ada", password="lantern-orchard-plum-5")
    between_read_and_write(monkeypatch, lambda: services.games_claim(user=user, guest_token=GUEST.guest_token))
    with pytest.raises(Game.DoesNotExist):
        act_on_service(GUEST, game, "move", game.state().position.legal_moves()[0].src, version=0)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.owner_id, stored.version, stored.actions.count()) == (user.pk, 0, 0)


# (layout, shuffles_used, kind, slot, why): each refused by the rules.
REFUSALS = {
    "card that cannot move": (TWO_COLUMN_0_GAPS, 0, "move", (0, 3), engine.Refusal.CANNOT_MOVE),
    "card in place that cannot move": (TWO_COLUMN_0_GAPS, 0, "move", (2, 1), engine.Refusal.CANNOT_MOVE),
    "dead gap right of a King": (TWO_COLUMN_0_GAPS, 0, "move", (2, 12), engine.Refusal.NOTHING_FITS),
    "nothing to undo": (TWO_COLUMN_0_GAPS, 0, "undo", None, engine.Refusal.NOTHING_TO_UNDO),
    "no shuffle left": (ONE_MOVE_FROM_WIN, 3, "shuffle", None, engine.Refusal.NO_SHUFFLE_LEFT),
}


@pytest.mark.parametrize(("layout", "shuffles_used", "kind", "slot", "why"), REFUSALS.values(), ids=REFUSALS.keys())
def test_refused_actions_change_nothing(layout, shuffles_used, kind, slot, why):
    game = set_layout(game_start(owner=GUEST, deal_number=1), layout, shuffles_used=shuffles_used)
    before = snapshot(game)
    with pytest.raises(ActionRefused) as refused:
        act_on_service(GUEST, game, kind, slot)
    assert refused.value.reason is why
    assert snapshot(game) == before


@pytest.mark.parametrize("ending", ["won", "lost", "resigned"])
@pytest.mark.parametrize(
    ("kind", "slot"), [("move", (0, 11)), ("move", (0, 12)), ("undo", None), ("shuffle", None), ("resign", None)]
)
def test_every_action_on_a_finished_game_is_refused(ending, kind, slot):
    game = game_start(owner=GUEST, deal_number=1)
    if ending == "resigned":
        act_on_service(GUEST, game, "resign")
    else:
        layout = ONE_MOVE_FROM_WIN if ending == "won" else ONE_MOVE_FROM_STUCK
        act_on_service(GUEST, set_layout(game, layout, shuffles_used=3), "move", (0, 12))
    before = snapshot(game)
    with pytest.raises(ActionRefused):
        act_on_service(GUEST, game, kind, slot)
    assert snapshot(game) == before


def test_another_owners_game_is_not_found_and_unchanged():
    game = game_start(owner=GUEST, deal_number=1)
    before = snapshot(game)
    for stranger in (Owner(user_id=None, guest_token="someone-else"), Owner(user_id=None, guest_token="")):
        with pytest.raises(Game.DoesNotExist):
            game_act(owner=stranger, game_id=game.pk, version=0, kind="resign")
    assert snapshot(game) == before


# --------------------------------------------------------------------------- time


def test_time_starts_when_the_game_is_dealt_and_caps_each_pause(settings):
    settings.ADDICTION_IDLE_CAP_SECONDS = 120
    game = game_start(owner=GUEST, deal_number=1, now=T0 + timedelta(days=3))
    move = game.state().position.legal_moves()[0]

    # Dealt and played at once: the first action comes at 0.
    game = act_on_service(GUEST, game, "move", move.src, now=T0 + timedelta(days=3))
    assert (game.elapsed_ms, game.started_at) == (0, T0 + timedelta(days=3))
    start = game.started_at
    assert elapsed_at(game, start + timedelta(seconds=30)) == 30_000
    assert elapsed_at(game, start + timedelta(days=1)) == 120_000

    game = act_on_service(GUEST, game, "undo", now=start + timedelta(seconds=10))
    assert game.elapsed_ms == 10_000
    game = act_on_service(GUEST, game, "shuffle", now=start + timedelta(seconds=10, hours=1))
    assert game.elapsed_ms == 10_000 + 120_000
    game = act_on_service(GUEST, game, "resign", now=start + timedelta(seconds=15, hours=1))
    assert game.elapsed_ms == 135_000
    assert game.started_at == start
    assert game.finished_at == start + timedelta(seconds=15, hours=1)

    assert elapsed_at(game, start + timedelta(days=9)) == 135_000  # stopped at the end
    assert list(game.actions.values_list("elapsed_ms", flat=True)) == [0, 10_000, 130_000, 135_000]


def test_the_winning_move_stops_the_clock(settings):
    settings.ADDICTION_IDLE_CAP_SECONDS = 60
    game = set_layout(game_start(owner=GUEST, deal_number=1), ONE_MOVE_FROM_WIN)
    game.started_at = game.last_action_at = T0  # as if its last action was at T0, 5 s into the game
    game.elapsed_ms = 5_000
    game.save()
    game = act_on_service(GUEST, game, "move", (0, 12), now=T0 + timedelta(seconds=42))
    assert (game.status, game.elapsed_ms) == ("won", 47_000)
    assert elapsed_at(game, T0 + timedelta(hours=5)) == 47_000


def test_a_refused_action_does_not_touch_the_clock():
    game = game_start(owner=GUEST, deal_number=1)
    act_on_service(GUEST, game, "move", game.state().position.legal_moves()[0].src, now=T0)
    before = snapshot(game)
    with pytest.raises(StaleVersion):
        act_on_service(GUEST, game, "resign", version=0, now=T0 + timedelta(seconds=50))
    assert snapshot(game) == before


# --------------------------------------------------------------------------- replay


def play_randomly(game: Game, rng: random.Random, limit: int = 300) -> int:
    """Random legal actions through the service until the game ends or ``limit`` actions."""
    for count in range(1, limit + 1):
        state = game.state()
        if state.is_over:
            return count - 1
        moves = state.position.legal_moves()
        roll = rng.random()
        if not moves or (state.shuffles_left and roll < 0.01):
            game = act_on_service(GUEST, game, "shuffle")
        elif game.can_undo and roll < 0.15:
            game = act_on_service(GUEST, game, "undo")
        elif roll > 0.995 and count > 100:  # now and then a game is given up late
            game = act_on_service(GUEST, game, "resign")
        else:
            game = act_on_service(GUEST, game, "move", rng.choice(moves).src)
    return limit


@pytest.mark.parametrize("deal_number", [1, 2, 3, 42, 20_250_101, engine.MAX_DEAL])
def test_replaying_the_log_gives_the_stored_state(deal_number):
    game = game_start(owner=GUEST, deal_number=deal_number)
    count = play_randomly(game, random.Random(deal_number))
    game.refresh_from_db()
    stored, replayed = game.state(), replay_end(game).state
    assert replayed.position == stored.position
    assert (replayed.moves, replayed.shuffles_used, replayed.status) == (
        stored.moves,
        stored.shuffles_used,
        stored.status,
    )
    assert replayed == stored
    assert game.version == count == game.actions.count()
    assert list(game.actions.values_list("number", flat=True)) == list(range(1, count + 1))


def _replay_or_error(game: Game):
    try:
        return replay_end(game).state
    except ValueError as error:  # engine.IllegalAction and engine.InvalidNotation are ValueErrors
        return error


@pytest.mark.parametrize("tamper", ["another legal move", "garbage", "undo of another move"])
def test_a_tampered_log_does_not_replay_to_the_stored_state(tamper):
    game = game_start(owner=GUEST, deal_number=3)
    for _ in range(4):
        game = act_on_service(GUEST, game, "move", game.state().position.legal_moves()[-1].src)
    game = act_on_service(GUEST, game, "undo")
    game.refresh_from_db()
    assert replay_end(game).state == game.state()

    first = game.actions.get(number=1)
    if tamper == "another legal move":
        first.move = str(next(m for m in engine.deal(3).legal_moves() if str(m) != first.move))
    elif tamper == "garbage":
        first.move = "ZZ:9-9>9-9"
    else:
        first = game.actions.get(kind=engine.ActionKind.UNDO)
        first.move = str(engine.deal(3).legal_moves()[0])
    first.save()
    result = _replay_or_error(game)
    assert isinstance(result, ValueError) or result != game.state()


def test_a_random_deal_has_at_most_nine_digits_and_a_chosen_one_any_number(monkeypatch):
    drawn = []
    real = services.secrets.randbelow
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: drawn.append(n) or real(n))
    game = game_start(owner=GUEST)
    assert drawn == [999_999_999] and 1 <= game.deal_number <= 999_999_999
    assert game_start(owner=GUEST, deal_number=engine.MAX_DEAL).deal_number == engine.MAX_DEAL


def test_the_stored_statuses_are_the_engines():
    assert {(status.name, status.value) for status in Game.Status} == {
        (status.name, status.value) for status in engine.Status
    }
