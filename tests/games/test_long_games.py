"""Long games: an action costs the same at any length, and a game has a most actions it may
have (docs/RULES.md, "End of the game").

The attack these tests reproduce: a guest moves a card back and forth, or plays and takes
back one move again and again, to make a game of thousands of actions.  Each action must
then read and write as much as the first, and the game ends at ``engine.MAX_ACTIONS``.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from addiction_site.ownership import Owner
from games import engine
from games.models import Game
from games.services import ActionRefused, game_start, game_verify
from tests.helpers import TWO_COLUMN_0_GAPS, act, act_on_service, new_game, set_layout, statements, text_of

pytestmark = pytest.mark.django_db

GUEST = Owner(user_id=None, guest_token="guest-token-of-the-long-games")
THREE_S = engine.Move("3S", (0, 12), (1, 6))  # deal 1's move of 3S into the gap after 2S


def back_and_forth(game: Game, actions: int, *, owner: Owner = GUEST) -> Game:
    """``actions`` more actions: deal 1's 3S played and taken back, again and again."""
    for _ in range(actions):
        game = act_on_service(owner, game, "undo" if game.can_undo else "move", THREE_S.src)
    return game


def sql_of_one(owner: Owner, game: Game, kind: str, slot=None) -> tuple[Game, list[str], int]:
    """Apply one action; return the game, the statements it ran and the length of their SQL
    with its parameters (on SQLite the captured text holds the parameters' values)."""
    with CaptureQueriesContext(connection) as queries:
        game = act_on_service(owner, game, kind, slot)
    return game, statements(queries), sum(len(query["sql"]) for query in queries.captured_queries)


def where_is(game: Game, card: str) -> engine.Slot:
    return next((r, c) for r in range(4) for c in range(13) if game.state().position.card_at((r, c)) == card)


def two_d_back_and_forth(game: Game, actions: int) -> Game:
    """On TWO_COLUMN_0_GAPS, 2D clicked wherever it stands: it goes to another column-0 gap,
    so every action is a move that undo could take back."""
    for _ in range(actions):
        slot = where_is(game, "2D")
        game = act_on_service(GUEST, game, "move", slot)
    return game


def test_a_move_and_an_undo_read_and_write_as_much_late_in_a_game_as_early():
    game = set_layout(game_start(owner=GUEST, deal_number=1), TWO_COLUMN_0_GAPS)
    game = two_d_back_and_forth(game, 2)
    slot = where_is(game, "2D")
    game, early_move, early_move_size = sql_of_one(GUEST, game, "move", slot)
    game, early_undo, early_undo_size = sql_of_one(GUEST, game, "undo")
    game = two_d_back_and_forth(game, 600)  # 600 moves that undo could take back
    slot = where_is(game, "2D")
    game, late_move, late_move_size = sql_of_one(GUEST, game, "move", slot)
    game, late_undo, late_undo_size = sql_of_one(GUEST, game, "undo")
    assert game.version > 600 and game.can_undo
    assert (late_move, late_undo) == (early_move, early_undo)
    # Only the numbers grow (a version of 3 digits instead of 1, a few times over).
    assert late_move_size - early_move_size < 40, (early_move_size, late_move_size)
    assert late_undo_size - early_undo_size < 40, (early_undo_size, late_undo_size)
    assert "SELECT games_action" in early_undo and "SELECT games_action" not in early_move


def test_undo_takes_back_the_moves_in_order_after_hundreds_of_actions():
    """The moves undo can take back live in the log, however long the game."""
    game = back_and_forth(game_start(owner=GUEST, deal_number=1), 400)
    assert game.state().position == engine.deal(1) and not game.can_undo
    played, positions = [], []
    for _ in range(4):
        positions.append(game.state().position)
        move = game.state().position.legal_moves()[0]
        game = act_on_service(GUEST, game, "move", move.src)
        played.append(str(move))
    taken = []
    for position in reversed(positions):
        game = act_on_service(GUEST, game, "undo")
        taken.append(game.actions.order_by("-number").values_list("move", flat=True).first())
        assert game.state().position == position
    assert taken == played[::-1]
    assert not game.can_undo
    with pytest.raises(ActionRefused) as refused:
        act_on_service(GUEST, game, "undo")
    assert refused.value.reason is engine.Refusal.NOTHING_TO_UNDO
    assert game_verify(Game.objects.get(pk=game.pk)).ok


def test_the_action_that_reaches_the_limit_ends_the_game_and_the_next_is_refused(client, monkeypatch):
    monkeypatch.setattr(engine, "MAX_ACTIONS", 12)
    game = new_game(client, 1)
    for i in range(12):
        response = act(client, game, "undo" if i % 2 else "move", slot=THREE_S.src)
        assert response.status_code == 200, (i, response.status_code)
    game.refresh_from_db()
    assert (game.status, game.resigned, game.version, game.out_of_actions) == ("lost", False, 12, True)
    assert "This game reached the limit of 12 actions and is over." in text_of(response)
    refused = act(client, game, "move", slot=THREE_S.src)
    assert refused.status_code == 422 and "This game is over." in text_of(refused)
    game.refresh_from_db()
    assert game.version == 12
    assert game_verify(game).ok  # the replay applies the same limit


def test_verifying_and_replaying_a_game_read_its_log_in_a_few_queries_whatever_its_length(client):
    """The log is read in chunks, never a query per action (each was a hidden refresh_from_db)."""
    counts = []
    for length in (6, 120):
        game = back_and_forth(game_start(owner=GUEST, deal_number=1), length)
        game = act_on_service(GUEST, game, "resign")
        with CaptureQueriesContext(connection) as queries:
            assert game_verify(Game.objects.get(pk=game.pk)).ok
        counts.append(len(queries))
    assert counts[0] == counts[1] < 11, counts  # (and the daily's check of a player's own seed)
