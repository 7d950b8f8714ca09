"""Replay stored games from their deal, log and seed, and report any that differ."""

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.services import game_verify


class Command(BaseCommand):
    help = "Replay every stored game (or the ones given) and report those whose stored state differs."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games (default: all)")

    def handle(self, *args, game_ids, **options):
        games = Game.objects.order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
            missing = set(game_ids) - set(games.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no such game: {', '.join(map(str, sorted(missing)))}")
        checked = bad = 0
        for game in games.iterator(chunk_size=500):
            checked += 1
            verification = game_verify(game, fresh=True)  # the log as it is now, not as kept
            if not verification.ok:
                bad += 1
                wrong = [check.label for check in verification.checks if not check.ok]
                self.stdout.write(f"game {game.pk}: {verification.error or 'differs in ' + ', '.join(map(str, wrong))}")
        self.stdout.write(f"{checked} games checked, {bad} differ")
        if bad:
            raise CommandError(f"{bad} of {checked} games differ from their replay")
