"""The moves undo can take back leave the game's row: each logged action keeps the number
of the action whose move undo takes back next (undo_top), and so does the game.

Forward, every game's log is read once, oldest action first, to fill undo_top; backward,
the same walk writes the history column again.
"""

from django.db import migrations, models


def _walk(Action, game_id):
    """Each of a game's actions, with the moves undo can take back after it: [(number, move)]."""
    undoable = []
    for action in Action.objects.filter(game_id=game_id).order_by("number").iterator(chunk_size=1000):
        if action.kind == "move":
            undoable.append((action.number, action.move))
        elif action.kind == "undo" and undoable:
            undoable.pop()
        elif action.kind == "shuffle":
            undoable.clear()
        yield action, undoable


def fill_undo_tops(apps, schema_editor):
    Game, Action = apps.get_model("games", "Game"), apps.get_model("games", "Action")
    for game_id in Game.objects.filter(version__gt=0).values_list("pk", flat=True).iterator(chunk_size=1000):
        changed, top = [], 0
        for action, undoable in _walk(Action, game_id):
            top = undoable[-1][0] if undoable else 0
            if action.undo_top != top:
                action.undo_top = top
                changed.append(action)
        Action.objects.bulk_update(changed, ["undo_top"], batch_size=500)
        Game.objects.filter(pk=game_id).update(undo_top=top)


def fill_histories(apps, schema_editor):
    Game, Action = apps.get_model("games", "Game"), apps.get_model("games", "Action")
    for game_id in Game.objects.filter(version__gt=0).values_list("pk", flat=True).iterator(chunk_size=1000):
        undoable = []
        for _action, undoable in _walk(Action, game_id):
            pass
        Game.objects.filter(pk=game_id).update(history=" ".join(move for _number, move in undoable))


class Migration(migrations.Migration):
    dependencies = [("games", "0005_game_one_kind_of_owner")]

    operations = [
        migrations.AddField(
            model_name="action",
            name="undo_top",
            field=models.PositiveIntegerField(default=0, help_text="The game's undo_top once this action was done."),
        ),
        migrations.AddField(
            model_name="game",
            name="undo_top",
            field=models.PositiveIntegerField(
                default=0, help_text="The number of the action whose move undo takes back next; 0 when there is none.",
            ),
        ),
        migrations.RunPython(fill_undo_tops, fill_histories),
        migrations.RemoveField(model_name="game", name="history"),
    ]
