"""`manage.py verify_games`: replays stored games and fails, naming them, when any differs."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from addiction_site.ownership import Owner
from games import engine
from games.models import Action, Game
from games.services import game_start
from tests.helpers import a_movable_slot, act_on_service

pytestmark = pytest.mark.django_db

GUEST = Owner(user_id=None, guest_token="verify-games-tests")


def played(deal_number: int, actions: int = 3) -> Game:
    """A game of ``deal_number`` with ``actions`` moves and an undo at the end, all logged."""
    game = game_start(owner=GUEST, deal_number=deal_number)
    for _ in range(actions):
        game = act_on_service(GUEST, game, "move", a_movable_slot(game))
    return act_on_service(GUEST, game, "undo")


def verify(*game_ids: int) -> str:
    out = StringIO()
    call_command("verify_games", *map(str, game_ids), stdout=out)
    return out.getvalue()


def tamper_position(game: Game) -> None:
    """Play one more move on the stored table without logging it."""
    position = game.state().position
    Game.objects.filter(pk=game.pk).update(position=str(position.play(position.legal_moves()[0])))


@pytest.fixture
def games() -> list[Game]:
    return [played(1), played(2, actions=5), game_start(owner=GUEST, deal_number=3)]


def test_all_games_replay_to_what_is_stored(games):
    assert Action.objects.count() == 4 + 6
    assert verify().splitlines() == ["3 games checked, 0 differ"]


def test_a_game_whose_table_was_changed_is_named_and_the_command_fails(games):
    tamper_position(games[1])
    out = StringIO()
    with pytest.raises(CommandError, match="1 of 3 games differ"):
        call_command("verify_games", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines == [f"game {games[1].pk}: differs in Position", "3 games checked, 1 differ"]


def test_a_game_whose_log_was_changed_is_named(games):
    action = Action.objects.get(game=games[0], number=1)
    other = engine.deal(1).legal_moves()[1]
    assert str(other) != action.move
    Action.objects.filter(pk=action.pk).update(move=str(other))
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", stdout=out)
    assert out.getvalue().startswith(f"game {games[0].pk}: ")
    assert f"game {games[1].pk}:" not in out.getvalue()


def test_a_lost_action_is_found(games):
    Action.objects.filter(game=games[1], number=games[1].version).delete()
    with pytest.raises(CommandError, match="1 of 3"):
        verify()


def test_one_game_given_by_id_is_the_only_one_checked(games):
    tamper_position(games[0])
    assert verify(games[1].pk).splitlines() == ["1 games checked, 0 differ"]
    with pytest.raises(CommandError, match="1 of 1 games differ"):
        verify(games[0].pk)


def test_an_unknown_id_is_refused(games):
    unknown = max(game.pk for game in games) + 1000
    with pytest.raises(CommandError, match=f"no such game: {unknown}"):
        verify(games[0].pk, unknown)


def test_no_games_at_all():
    assert verify().splitlines() == ["0 games checked, 0 differ"]
