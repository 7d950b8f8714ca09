"""The daily app's background task (games/tasks.py says how tasks run): the solver's game of a
day's daily deal, played once its seed is revealed."""

from datetime import date

from django_tasks import task

from daily import services


@task()
def play_solver_daily(day: str) -> bool:
    return services.solver_daily_play(date.fromisoformat(day))


def solver_daily_ask(day: date) -> None:
    """Ask for the solver's game of ``day``'s daily, if its seed is revealed and it is not asked yet."""
    if services.solver_daily_queue(day):
        play_solver_daily.enqueue(day.isoformat())
