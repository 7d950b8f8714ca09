"""The puzzles app's background task (games/tasks.py says how tasks run): reading finished games
for puzzles (puzzles/services.py, puzzles_mine), a bounded batch a task.  The hourly
housekeeping asks for it (puzzles/apps.py); never a page being looked at."""

from django_tasks import task

from puzzles import services


@task()
def mine_games() -> int:
    read, _kept = services.puzzles_mine()
    return read


def puzzles_mine_ask(*, now, dry_run: bool = False) -> int:
    """The housekeeping's chore: ask the worker for a batch of games read for puzzles when any
    waits; how many games wait (at most a batch)."""
    waiting = services.minable_games(now)[: services.MINE_BATCH].count()
    if waiting and not dry_run:
        mine_games.enqueue()
    return waiting
