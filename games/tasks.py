"""The games app's background tasks (Django's tasks framework, the django-tasks backport):
what games/background.py does, run by a worker (`manage.py db_worker`), never by a request.

A request asks with :func:`analysis_ask` or :func:`search_ask` once its transaction has
committed (games/receivers.py); those enqueue a task only for work not yet queued, so that a
game is analysed, and a position searched, once."""

from django_tasks import task

from games import background, engine
from games.models import Analysis


@task()
def analyse_game(game_id: int) -> bool:
    return background.game_analyse(game_id)


@task()
def search_stretch(notation: str, variant: str = engine.DEFAULT_VARIANT.key) -> bool:
    return background.stretch_search(notation, variant)


def analysis_ask(game_id: int) -> None:
    """Ask for a finished game's analysis (docs/RULES.md, "Analysis"), at its priority: a win's
    first, a played game's before a deal tried and left (games/background.py)."""
    if background.analysis_queue(game_id):
        analyse_game.using(priority=background.analysis_priority(game_id)).enqueue(game_id)


def analyses_ask_again(*, now, dry_run: bool = False) -> int:
    """The housekeeping's sweep: ask again for each analysis whose task was lost or whose
    worker died; how many were (or would be) asked for."""
    stale = background.stale_work(Analysis, now)  # an analysis's key is its game's
    if not dry_run:
        for game_id in stale:
            analysis_ask(game_id)
    return len(stale)


def search_ask(position: engine.Position, asked_from: str = "", *, dealt: bool = False) -> None:
    """Ask for the background search for a win from ``position`` (docs/RULES.md, "Hints"), for
    a game started from the address key ``asked_from``: a stretch's start (``dealt``), or where
    a hint leads."""
    if background.search_queue(position, asked_from, dealt=dealt):
        priority = background.search_priority(position, asked_from, dealt=dealt)
        search_stretch.using(priority=priority).enqueue(str(position), position.variant.key)
