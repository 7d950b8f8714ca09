"""The races' background task (games/tasks.py says how tasks run): closing a race when its time
is up.  A race closes early when its last game ends (races/receivers.py); otherwise at its
``closes_at``, by this task, which the worker runs then (a deferred task), or by the hourly
housekeeping's sweep (races/apps.py) where the tasks' backend cannot defer one."""

from __future__ import annotations

from django_tasks import task

from races import services
from races.models import Race


@task()
def close_race(race_id: int) -> bool:
    return services.race_close_due(race_id=race_id)


def race_close_ask(race: Race) -> None:
    """Have the worker close ``race`` at its ``closes_at`` (a live race once started, a challenge
    once opened).  Closing is idempotent and checks the time itself, so a task that runs late
    or twice does no harm."""
    if race.closes_at is None or not close_race.get_backend().supports_defer:
        return  # no time limit yet; or a backend that runs tasks at once: the sweep closes it
    close_race.using(run_after=race.closes_at).enqueue(race.pk)
