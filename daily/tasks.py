"""The daily app's background tasks (games/tasks.py says how tasks run): the solver's game of a
day's daily deal, played once its seed is revealed.  It is asked for by the day's first start
(a task deferred to the reveal, where the tasks' backend can defer one) and by the hourly
housekeeping (daily/apps.py), never by a page being looked at."""

from datetime import date, timedelta

from django.core.cache import cache
from django_tasks import task

from daily import services
from daily.selectors import days_without_solver_daily
from games.models import daily_revealed_at

ASKED_SECONDS = 60 * 60 * 24 * 3  # how long a day remembers that its solver's game was asked for


@task()
def play_solver_daily(day: str) -> bool:
    return services.solver_daily_play(date.fromisoformat(day))


@task()
def ask_solver_daily(day: str) -> None:
    solver_daily_ask(date.fromisoformat(day))


def solver_daily_ask(day: date) -> bool:
    """Ask for the solver's game of ``day``'s daily, if its seed is revealed and it is not asked yet."""
    if services.solver_daily_queue(day):
        play_solver_daily.enqueue(day.isoformat())
        return True
    return False


def solver_daily_ask_at_reveal(day: date) -> None:
    """Have the worker ask for the solver's game of ``day`` when its seed is revealed: once a day
    (the shared cache remembers it), and only where the tasks' backend defers a task."""
    if not ask_solver_daily.get_backend().supports_defer:
        return  # tasks run at once (the tests): the housekeeping asks instead
    if cache.add(f"solver-daily-asked:{day.isoformat()}", 1, ASKED_SECONDS):
        ask_solver_daily.using(run_after=daily_revealed_at(day)).enqueue(day.isoformat())


def solver_dailies_ask(*, now, dry_run: bool = False) -> int:
    """The housekeeping's sweep: ask for the solver's game of each revealed day of the last week
    that has a seed and none yet; how many were (or would be) asked for."""
    days = days_without_solver_daily(since=(now - timedelta(days=7)).date(), now=now)
    if dry_run:
        return len(days)
    return sum(solver_daily_ask(day) for day in days)
