"""Long games: what an action, the replay page and verification cost as a game grows.

Run: .venv/bin/python benchmarks/long_game.py [--lengths 1000 5000] [--repeat 5]

The game is the attack of issue 10: a 2 of deal 50 moved back and forth between column-0
gaps, each action a move that undo could take back, driven through ``services.game_act`` until the
game has the given number of actions (the longest ends itself at ``engine.MAX_ACTIONS``;
a shorter one is given up on its last action, so that it is finished and can be replayed).
On a throwaway SQLite database (a temporary folder), with the production settings, it
prints for each length:

- the median time of an action near the start (actions 11-60 of a fresh game) and near
  the end (the last 50 but one), timed interleaved, and their ratio (target: at most 1.5);
- the replay page of the game's last step and of its middle step (GET through Django's
  test client, the whole request), and ``game_verify``: median of --repeat runs (target:
  under 200 ms each);
- the peak memory each of those allocates beyond what is already held, by tracemalloc, in
  a separate run (target: under 50 MB).

Times are wall-clock medians on a shared machine: compare runs taken together.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Deal 50 opens with two gaps in column 0 (1-0 and 2-0) and a 2 beside them: that 2 can
# go back and forth between column-0 gaps for ever.
DEAL = 50
TARGET_RATIO, TARGET_MS, TARGET_MB = 1.5, 200, 50


def setup_django(folder: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
            "ADDICTION_DATA_DIR": folder,
            "ADDICTION_STATIC_ROOT": os.path.join(folder, "static"),
            "DJANGO_SECRET_KEY": "benchmark-only-" + "x" * 40,
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
        }
    )
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)


class Player:
    """Plays one game of deal 50 through the services, moving a 2 between column-0 gaps; its
    game is given up on action ``length`` unless the engine's limit ends it first."""

    def __init__(self, owner, length: int):
        from games.services import game_start

        self.owner, self.length = owner, length
        self.game = game_start(owner=owner, deal_number=DEAL)

    def step(self) -> float:
        """One action; the seconds it took."""
        from games import engine
        from games.services import game_act

        game = self.game
        if game.version == self.length - 1 and self.length < engine.MAX_ACTIONS:
            kind, slot = engine.ActionKind.RESIGN, None
        else:
            position = game.state().position
            kind = engine.ActionKind.MOVE
            slot = next(
                slot
                for slot in ((row, 0) for row in range(4))
                if (position.card_at(slot) or "").startswith("2") and position.move_for_slot(slot)
            )
        started = time.perf_counter()
        self.game = game_act(owner=self.owner, game_id=game.pk, version=game.version, kind=kind, slot=slot).game
        return time.perf_counter() - started


def long_game(owner, length: int):
    """A finished game of ``length`` actions, and the median milliseconds of an action near
    its start and near its end.  The two are timed interleaved, an action of a fresh game
    (its 11th to 60th) then one of the long game (its last 50 but one), so that both see
    the same machine."""
    long, fresh = Player(owner, length), Player(owner, length)
    while long.game.version < length - 51:
        long.step()
    for _ in range(10):
        fresh.step()
    early, late = [], []
    for _ in range(50):
        early.append(fresh.step())
        late.append(long.step())
    while not long.game.is_over:
        long.step()
    assert long.game.version == length, (long.game.version, length)
    return long.game, statistics.median(early) * 1000, statistics.median(late) * 1000


def median_ms(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def peak_mb(function) -> float:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lengths", type=int, nargs="+", default=None, help="numbers of actions (default: 1000 and engine.MAX_ACTIONS)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(folder)
        from django.test import Client

        from addiction_site.ownership import GUEST_COOKIE, Owner
        from games import engine
        from games.models import Game
        from games.services import game_verify

        token = "b" * 32
        owner = Owner(user_id=None, guest_token=token)
        client = Client(HTTP_HOST="testserver")
        client.cookies[GUEST_COOKIE] = f"{token}.2026-01-01"
        failed = False
        print(
            f"{'actions':>7} {'first ms':>9} {'last ms':>8} {'ratio':>6} "
            f"{'replay end ms':>13} {'replay mid ms':>13} {'verify ms':>9} "
            f"{'replay MB':>9} {'verify MB':>9}"
        )
        for length in args.lengths or [1000, engine.MAX_ACTIONS]:
            game, first, last = long_game(owner, length)
            end_url, mid_url = f"/game/{game.pk}/replay/{length}/", f"/game/{game.pk}/replay/{length // 2}/"

            def replay(url):
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code, response.content[-600:])

            replay(end_url)  # templates compiled, caches warm
            replay_end = median_ms(lambda: replay(end_url), args.repeat)
            replay_mid = median_ms(lambda: replay(mid_url), args.repeat)
            verify = median_ms(lambda: game_verify(Game.objects.get(pk=game.pk)), args.repeat)
            verification = game_verify(Game.objects.get(pk=game.pk))
            assert verification.ok, verification
            replay_mb = peak_mb(lambda: replay(end_url))
            verify_mb = peak_mb(lambda: game_verify(Game.objects.get(pk=game.pk)))
            ratio = last / first
            print(
                f"{length:>7} {first:>9.2f} {last:>8.2f} {ratio:>6.2f} {replay_end:>13.1f} {replay_mid:>13.1f} "
                f"{verify:>9.1f} {replay_mb:>9.1f} {verify_mb:>9.1f}"
            )
            failed |= ratio > TARGET_RATIO or max(replay_end, replay_mid, verify) > TARGET_MS
            failed |= max(replay_mb, verify_mb) > TARGET_MB
        print(
            f"targets: last/first action <= {TARGET_RATIO}, replay page and verification < {TARGET_MS} ms "
            f"and < {TARGET_MB} MB of extra memory: {'MISSED' if failed else 'met'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
