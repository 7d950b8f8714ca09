"""Build a new site's first puzzles from fresh deals (issue 47): random deal numbers, drawn as the
site draws them, each searched by puzzles/build.py; found puzzles are kept once.  Bounded: at
most 10,000 deals a run (about five minutes of one core's search)."""

from __future__ import annotations

import secrets
import time

from django.core.management.base import BaseCommand, CommandError

from games import engine
from games.models import Variant
from puzzles.services import puzzles_build

MAX_DEALS = 10_000


class Command(BaseCommand):
    help = "Search random fresh deals for puzzles and keep those found; print how many."

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=300, help=f"deals to search (at most {MAX_DEALS})")
        parser.add_argument("--variant", default=engine.DEFAULT_VARIANT.key, choices=Variant.values)

    def handle(self, *args, deals, variant, verbosity, **options):
        if not 1 <= deals <= MAX_DEALS:
            raise CommandError(f"--deals is 1 to {MAX_DEALS}")
        numbers = [secrets.randbelow(engine.DRAWN_DEALS) + 1 for _ in range(deals)]
        start = time.monotonic()
        found, kept = puzzles_build(numbers, variant)
        if verbosity:
            seconds = time.monotonic() - start
            self.stdout.write(f"{deals} deals searched in {seconds:.1f} s: {found} puzzles found, {kept} newly kept")
