"""games/game_rows.py reads and writes a game row exactly as the ORM does, on this database."""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games import engine
from games.game_rows import game_for_action, game_save_action
from games.models import Action, Game, _recent_states
from games.ownership import Owner
from games.services import game_start

OWNER = Owner(user_id=None, guest_token="token-a")
WHEN = datetime(2026, 11, 29, 16, 45, 12, 345678, tzinfo=dt_timezone.utc)


def fields_of(game: Game) -> dict:
    return {field.attname: getattr(game, field.attname) for field in Game._meta.concrete_fields}


@pytest.fixture
def guest_game(db) -> Game:
    game = game_start(owner=Owner(user_id=None, guest_token="token-a"), deal_number=77)
    # Every kind of column holds something that needs a conversion: times, a boolean, text.
    Game.objects.filter(pk=game.pk).update(
        started_at=WHEN, last_action_at=WHEN + timedelta(seconds=3), resigned=True, ranked=True,
        elapsed_ms=2**40, version=7, history="7H:1-4>1-5",
    )
    return Game.objects.get(pk=game.pk)


def test_the_row_read_equals_the_orms(guest_game):
    with transaction.atomic():
        read = game_for_action(Owner(user_id=None, guest_token="token-a"), guest_game.pk)
    assert fields_of(read) == fields_of(guest_game)
    assert read.started_at.tzinfo is not None and read.resigned is True
    assert read._state.adding is False and read._state.db == "default"


def test_a_users_game_is_read_by_the_user_alone(db):
    user = get_user_model().objects.create_user("ada", password="x-long-password")
    game = game_start(owner=Owner(user_id=user.pk, guest_token=""), deal_number=5)
    with transaction.atomic():
        assert game_for_action(Owner(user_id=user.pk, guest_token=""), game.pk).pk == game.pk
        assert game_for_action(Owner(user_id=user.pk + 1, guest_token=""), game.pk) is None
        # A guest whose token is empty, like the game's, owns nothing.
        assert game_for_action(Owner(user_id=None, guest_token=""), game.pk) is None


@pytest.mark.parametrize("owner", [
    Owner(user_id=None, guest_token="token-b"),
    Owner(user_id=None, guest_token=""),
    Owner(user_id=1, guest_token="token-a"),  # the token of a guest game does not make a user its owner
])
def test_someone_elses_game_is_not_read(guest_game, owner):
    with transaction.atomic():
        assert game_for_action(owner, guest_game.pk) is None


def test_an_unknown_game_is_not_read(guest_game):
    with transaction.atomic():
        assert game_for_action(Owner(user_id=None, guest_token="token-a"), guest_game.pk + 1000) is None


def test_the_row_written_is_what_the_orm_reads_back(guest_game):
    state = guest_game.state()
    move = state.position.legal_moves()[0]
    game = guest_game
    game.set_state(state.play(move))
    game.version, game.elapsed_ms, game.finished_at = 8, 2**40 + 5, WHEN + timedelta(minutes=1)
    game.started_at = game.last_action_at = WHEN + timedelta(seconds=9)
    with transaction.atomic():
        assert game_save_action(game, owner=OWNER, was_version=7, kind=Action.Kind.MOVE, move=str(move), now=WHEN)
    assert fields_of(Game.objects.get(pk=game.pk)) == fields_of(game)
    action = Action.objects.get(game=game)
    assert (action.number, action.kind, action.move, action.elapsed_ms, action.created_at) == (
        8, "move", str(move), 2**40 + 5, WHEN)
    _recent_states.states.clear()  # parse what was stored, not the state kept in memory
    assert Game.objects.get(pk=game.pk).state() == state.play(move)


def assert_a_resign_writes_nothing(game: Game, *, owner: Owner, was_version: int) -> None:
    before = fields_of(Game.objects.get(pk=game.pk))
    game.set_state(game.state().resign())
    game.version = 8
    with transaction.atomic():
        assert not game_save_action(game, owner=owner, was_version=was_version, kind=Action.Kind.RESIGN, move="",
                                    now=WHEN)
    assert fields_of(Game.objects.get(pk=game.pk)) == before
    assert not Action.objects.exists()
    assert game.state().status is engine.Status.LOST  # the object changed, the row did not


def test_a_stale_version_writes_nothing(guest_game):
    assert_a_resign_writes_nothing(guest_game, owner=OWNER, was_version=6)


@pytest.mark.parametrize("owner", [
    Owner(user_id=None, guest_token="token-b"),
    Owner(user_id=None, guest_token=""),
    Owner(user_id=1, guest_token="token-a"),
])
def test_someone_elses_write_writes_nothing(guest_game, owner):
    """A tab whose guest token no longer owns the game (an account claimed it) writes nothing."""
    assert_a_resign_writes_nothing(guest_game, owner=owner, was_version=7)


def test_a_user_read_equals_the_orms_and_the_backend_serves_active_users_only(db):
    from games.auth import ModelBackend
    from games.game_rows import read_one

    user = get_user_model().objects.create_user("ada", password="x-long-password", email="ada@example.org")
    user.last_login = WHEN
    user.save()
    stored = get_user_model().objects.get(pk=user.pk)
    read = read_one(get_user_model(), id=user.pk)
    assert {f.attname: getattr(read, f.attname) for f in read._meta.concrete_fields} == {
        f.attname: getattr(stored, f.attname) for f in stored._meta.concrete_fields}
    assert read_one(get_user_model(), id=user.pk + 1) is None
    backend = ModelBackend()
    assert backend.get_user(user.pk) == stored and backend.get_user(user.pk + 1) is None
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert backend.get_user(user.pk) is None


def test_a_signed_in_request_is_served_by_this_backend(client, db):
    get_user_model().objects.create_user("ada", password="x-long-password")
    assert client.post("/accounts/login/", {"username": "ada", "password": "x-long-password"}).status_code == 302
    assert client.session["_auth_user_backend"] == "games.auth.ModelBackend"
    assert client.get("/my-games/").context["user"].username == "ada"
