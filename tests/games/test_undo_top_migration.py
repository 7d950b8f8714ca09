"""Migration 0006: the moves undo can take back leave the game's row for the log.

A game saved before it (its ``history`` column) must undo the same moves after it: the
migration reads each game's log once and writes the undo_top of every action and of the
game; going back writes the history column again from the log.
"""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.helpers import migrate

BEFORE = [("games", "0005_game_one_kind_of_owner")]
AFTER = [("games", "0006_undo_top_in_the_log")]

# A log with every case: moves, an undo, a shuffle that empties the stack, an undo after it.
LOG = [
    ("move", "3S:0-12>1-6"),
    ("move", "8S:3-7>2-6"),
    ("undo", "8S:3-7>2-6"),
    ("move", "6S:2-4>2-8"),
    ("shuffle", ""),
    ("move", "4C:2-3>3-4"),
    ("move", "5C:0-5>2-3"),
    ("undo", "5C:0-5>2-3"),
]
# After each action: the number of the action whose move undo takes back next (0: none).
UNDO_TOPS = [1, 2, 1, 4, 0, 6, 7, 6]


@pytest.fixture
def at_0005(transactional_db):
    apps = migrate(BEFORE)
    yield apps
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_the_log_gets_the_undo_tops_and_going_back_gives_the_history_again(at_0005):
    Game, Action = at_0005.get_model("games", "Game"), at_0005.get_model("games", "Action")
    common = dict(guest_token="t" * 32, seed="1", seed_sha256="x", position="-")
    game = Game.objects.create(
        deal_number=1, version=len(LOG), moves=6, shuffles_used=1, history="4C:2-3>3-4", **common
    )
    for number, (kind, move) in enumerate(LOG, start=1):
        Action.objects.create(game=game, number=number, kind=kind, move=move, elapsed_ms=number)
    untouched = Game.objects.create(deal_number=2, **common)  # no action: stays at 0

    apps = migrate(AFTER)
    Game, Action = apps.get_model("games", "Game"), apps.get_model("games", "Action")
    undo_tops = Action.objects.filter(game_id=game.pk).order_by("number").values_list("undo_top", flat=True)
    assert list(undo_tops) == UNDO_TOPS
    assert Game.objects.get(pk=game.pk).undo_top == 6  # action 6 played 4C, the history's one move
    assert Game.objects.get(pk=untouched.pk).undo_top == 0

    apps = migrate(BEFORE)
    Game = apps.get_model("games", "Game")
    assert Game.objects.get(pk=game.pk).history == "4C:2-3>3-4"
    assert Game.objects.get(pk=untouched.pk).history == ""
