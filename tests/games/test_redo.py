"""Redo (docs/RULES.md, "Undo and redo"): it plays again what undo took back, until the next
move or shuffle, counts as a move, and replays and verifies like every other action."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import engine
from games.models import Game
from games.presenters.words import card_name
from games.services import game_verify
from tests.helpers import act, grid, migrate, parse_html, text_of

BEFORE = [("games", "0008_records_daily_moderation")]
AFTER = [("games", "0009_redo_top_in_the_log")]


def a_move(game: Game) -> engine.Move:
    game = Game.objects.get(pk=game.pk)
    return next(move for move in game.state().position.legal_moves() if move.dst[1] != 0)


def click(client, game: Game, move: engine.Move, **options):
    return act(client, game, "move", slot=move.src, **options)


def test_redo_plays_again_what_undo_took_back_and_counts_as_a_move(client, game):
    first = a_move(game)
    played = grid(click(client, game, first))
    grid(act(client, game, "undo"))
    again = act(client, game, "redo")
    assert again.status_code == 200
    board = grid(again)
    assert board.position == played.position
    assert (board.moves, board.version) == (3, 3)
    assert list(game.actions.values_list("kind", "move")) == [
        ("move", str(first)),
        ("undo", str(first)),
        ("redo", str(first)),
    ]
    assert parse_html(again).find(id="redo-button").get("disabled") is not None
    assert act(client, game, "redo").status_code == 422  # nothing left to redo
    undone = grid(act(client, game, "undo"))  # what redo played, undo takes back
    assert undone.moves == 4
    assert game_verify(Game.objects.get(pk=game.pk)).ok


def test_a_new_move_ends_what_redo_can_do(client, game):
    first = a_move(game)
    click(client, game, first)
    page = act(client, game, "undo")
    assert parse_html(page).find(id="redo-button").get("disabled") is None
    other = next(
        move
        for move in Game.objects.get(pk=game.pk).state().position.legal_moves()
        if move != first and move.dst[1] != 0
    )
    click(client, game, other)
    refused = act(client, game, "redo")
    assert refused.status_code == 422 and "There is no undone move to redo." in refused.content.decode()


def test_redo_is_refused_on_a_stale_page_and_changes_nothing(client, game):
    click(client, game, a_move(game))
    act(client, game, "undo")
    stale = act(client, game, "redo", version=1)
    assert stale.status_code == 409
    assert Game.objects.get(pk=game.pk).version == 2


def test_a_hand_edited_redo_top_does_not_verify(client, game):
    click(client, game, a_move(game))
    act(client, game, "undo")
    act(client, game, "redo")
    act(client, game, "resign")
    assert game_verify(Game.objects.get(pk=game.pk)).ok
    game.actions.filter(number=2).update(redo_top=0)
    assert not game_verify(Game.objects.get(pk=game.pk), fresh=True).ok  # the audit's own replay


# --------------------------------------------------------------------------- migration 0009

LOG = [
    ("move", "3S:0-12>1-6"),
    ("move", "8S:3-7>2-6"),
    ("undo", "8S:3-7>2-6"),
    ("undo", "3S:0-12>1-6"),
    ("move", "6S:2-4>2-8"),
    ("undo", "6S:2-4>2-8"),
    ("shuffle", ""),
    ("move", "4C:2-3>3-4"),
    ("undo", "4C:2-3>3-4"),
]
REDO_TOPS = [0, 0, 3, 4, 0, 6, 0, 0, 9]


@pytest.fixture
def at_0008(transactional_db):
    apps = migrate(BEFORE)
    yield apps
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_older_logs_get_their_redo_tops(at_0008):
    Game_, Action = at_0008.get_model("games", "Game"), at_0008.get_model("games", "Action")
    common = dict(guest_token="t" * 32, seed="1", seed_sha256="x", position="-")
    game = Game_.objects.create(deal_number=1, version=len(LOG), moves=8, shuffles_used=1, **common)
    for number, (kind, move) in enumerate(LOG, start=1):
        Action.objects.create(game=game, number=number, kind=kind, move=move, elapsed_ms=number)
    apps = migrate(AFTER)
    Game_, Action = apps.get_model("games", "Game"), apps.get_model("games", "Action")
    tops = Action.objects.filter(game_id=game.pk).order_by("number").values_list("redo_top", flat=True)
    assert list(tops) == REDO_TOPS
    assert Game_.objects.get(pk=game.pk).redo_top == 9


def test_a_replay_says_a_redo_and_marks_the_card_it_moved_again(client, game):
    first = a_move(game)
    click(client, game, first)
    act(client, game, "undo")
    act(client, game, "redo")
    act(client, game, "resign")
    response = client.get(f"/game/{game.pk}/replay/3/")
    assert f"Move 3: redone, {card_name(first.card)} from row" in text_of(response)
    moved = [slot["data-slot"] for slot in parse_html(response).find_all(class_="moved")]
    assert moved == [f"{first.dst[0]}-{first.dst[1]}"]
