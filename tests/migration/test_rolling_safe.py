"""Migrations that can run while the old code still serves (docs/OPERATIONS.md, "Migrations
under a rolling deploy"): a new migration only adds (tables, nullable columns or columns with a
database default, indexes); what removes, renames or narrows waits for a later release than
the code that stops using it, and is reviewed: it must be listed in REVIEWED with why it is safe.

The migrations before this rule are listed as they stand, so that the rule holds from here on.
"""

from __future__ import annotations

import pytest
from django.db import migrations
from django.db.migrations.loader import MigrationLoader

OUR_APPS = ("games", "records", "daily", "accounts", "races")

# (app, migration): why its removing or changing operations are safe to run under old code.
REVIEWED = {
    ("games", "0002_drop_redundant_indexes"): "drops and folds indexes only; no code names an index",
    # Before the rule, when one server ran the site and a deploy stopped it:
    ("games", "0006_undo_top_in_the_log"): "before the rule",
    ("games", "0007_hints_and_verdicts"): "before the rule",
    ("games", "0008_records_daily_moderation"): "before the rule",
    ("games", "0009_redo_top_in_the_log"): "before the rule",
    ("games", "0011_clock_from_the_deal"): "before the rule",
    ("games", "0012_review_of_machine_pace"): "before the rule",
    ("records", "0002_guests_claimed"): "before the rule",
    ("games", "0016_race_games"): "AlterField of origin's choices only (a race): Python's, no change in the database",
    ("games", "0020_shuffles_within_its_variant"): (
        "adds the generated check before it removes the two it replaces, which allow the same rows"
    ),
    ("games", "0022_evidence_on_wins"): (
        "AlterField of review's choices and help text only (pending, cleared): Python's, no change in the database"
    ),
    ("records", "0004_scopes_of_every_variant"): (
        "AlterField widening scope from 32 to 48 characters: every value the old code writes still fits"
    ),
}

ADDING = (
    migrations.CreateModel,
    migrations.AddIndex,
    migrations.AddConstraint,
    migrations.RunPython,  # data migrations: reviewed in their own files (batches, reversible)
    migrations.AlterModelOptions,
    migrations.AlterModelManagers,
)


def unsafe(operation) -> str:
    """Why ``operation`` could break code that does not know of it yet, or "" if it cannot."""
    if isinstance(operation, migrations.AddField):
        field = operation.field
        if field.null or field.has_db_default() or field.many_to_many:
            return ""
        return f"AddField {operation.name} is NOT NULL without a db_default: the old code's INSERTs would fail"
    if isinstance(operation, migrations.SeparateDatabaseAndState):
        return "; ".join(filter(None, map(unsafe, operation.database_operations)))
    if isinstance(operation, ADDING):
        return ""
    return f"{type(operation).__name__} removes or changes what the old code may still use"


def ours() -> list[tuple[str, str]]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return sorted(key for key in loader.disk_migrations if key[0] in OUR_APPS)


@pytest.mark.parametrize("key", ours(), ids="/".join)
def test_a_migration_only_adds_unless_it_was_reviewed(key):
    migration = MigrationLoader(None, ignore_no_migrations=True).disk_migrations[key]
    problems = [why for why in map(unsafe, migration.operations) if why]
    if key in REVIEWED:
        assert problems, f"{key} only adds: it needs no place in REVIEWED"
        return
    assert not problems, f"{key}: {problems}; see docs/OPERATIONS.md, then list it in REVIEWED with why it is safe"


def test_the_rule_can_fail():
    from django.db import models

    assert unsafe(migrations.RemoveField("game", "hint"))
    assert unsafe(migrations.AddField("game", "colour", models.CharField(max_length=8)))
    assert not unsafe(migrations.AddField("game", "colour", models.CharField(max_length=8, null=True)))
    assert not unsafe(migrations.AddField("game", "colour", models.CharField(max_length=8, db_default="red")))
