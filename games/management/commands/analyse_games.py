"""Queue the analysis of finished games that have none (games/background.py): those played
before analyses were made, or whose task was lost.  A worker (`manage.py db_worker`) then
analyses them one by one; each game is analysed once, however often this runs."""

from django.core.management.base import BaseCommand

from games import tasks
from games.models import Game


class Command(BaseCommand):
    help = "Queue the analysis of finished games that have none (newest first)."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=1000, help="at most this many games (default 1000)")

    def handle(self, *args, limit: int, **options):
        games = (
            Game.objects.filter(finished_at__isnull=False, analysis__isnull=True)
            .order_by("-finished_at")
            .values_list("pk", flat=True)[:limit]
        )
        count = 0
        for pk in games.iterator():
            tasks.analysis_ask(pk)
            count += 1
        if options["verbosity"]:
            self.stdout.write(f"{count} games queued for analysis")
