"""The puzzles app's background task (games/tasks.py says how tasks run): reading finished games
for puzzles (puzzles/services.py, puzzles_mine), a bounded batch a task.  The hourly
housekeeping asks for it (puzzles/apps.py); never a page being looked at.  And, while a new site
keeps fewer than ``ADDICTION_PUZZLES_FIRST`` puzzles, the search of fresh deals for its first."""

from django.conf import settings
from django.core.cache import cache
from django_tasks import task

from puzzles import selectors, services
from puzzles.models import Puzzle

ASKED_SECONDS = 60 * 60  # how long the first puzzles' build, once asked for, is not asked again


@task()
def mine_games() -> int:
    read, _kept = services.puzzles_mine()
    return read


@task()
def build_first_puzzles() -> int:
    return services.puzzles_first(settings.ADDICTION_PUZZLES_FIRST)


def puzzles_mine_ask(*, now, dry_run: bool = False) -> int:
    """The housekeeping's chore: ask the worker for a batch of games read for puzzles when any
    waits; how many games wait (at most a batch)."""
    waiting = selectors.minable_games(now)[: services.MINE_BATCH].count()
    if waiting and not dry_run:
        mine_games.enqueue()
    return waiting


def puzzles_first_ask(*, now, dry_run: bool = False) -> int:
    """The housekeeping's chore: while the site keeps fewer than ``ADDICTION_PUZZLES_FIRST``
    puzzles, ask the worker to build them from fresh deals (once an hour at most: a build under
    way is not asked for again); how many are missing."""
    missing = max(0, settings.ADDICTION_PUZZLES_FIRST - Puzzle.objects.count())
    if missing and not dry_run and cache.add("puzzles:first:asked", True, ASKED_SECONDS):
        build_first_puzzles.enqueue()
    return missing
