"""How the evidence on a win tells people from patient scripts (issue 42; docs/RULES.md,
"Review before the top"): the share of simulated people's wins it clears and of scripts' wins
it holds, over the same games.

Run: .venv/bin/python benchmarks/evidence.py [--games 400] [--seed 42]

The games: ``--games`` wins of 70 to 130 moves, with 0 to 3 shuffles.  Each is played by:

- **people**, each with a pace of their own: a median gap between moves drawn from 0.6 s to
  2.0 s (a fast keyboard player to a careful one), a log-normal spread (sigma 0.35 to 0.8:
  response times are skewed, Luce 1986), a read of each new table (2 to 10 s) and a pause to
  think (1.5 to 10 s) every 4 to 14 moves; a few are **fast people** (median 0.6 to 0.8 s,
  a pause only every 10 to 14 moves), the hardest to tell from a script;
- **scripts**: at the pace floor (400 ms a move), with uniform jitter (450-700 ms, and a
  slower 600-1200 ms), and a "humanised" script (log-normal gaps around 800 ms, sigma 0.3,
  with a 2 s read of each table).

Every player here has a history (so a new player's sign plays no part), and the solver's share
is left unknown (the worst case for the evidence: a script that avoids the solver's line).  It
prints, per kind of player, the share whose evidence clears (a person's win ranks at once) and
the share held for a moderator.  Pure Python: it needs no database.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import evidence  # noqa: E402


def game_shape(rng: random.Random) -> tuple[int, set[int]]:
    moves = rng.randint(70, 130)
    shuffles = rng.randint(0, 3)
    return moves, set(rng.sample(range(10, moves - 5), shuffles))


def person(rng: random.Random, moves: int, shuffles: set[int], *, fast: bool) -> list[tuple[str, int]]:
    median = rng.uniform(600, 800) if fast else rng.uniform(600, 2000)
    sigma = rng.uniform(0.35, 0.8)
    every = rng.randint(10, 14) if fast else rng.randint(4, 14)
    log, clock, since_pause = [], 0, 0
    for number in range(moves):
        if number == 0 or (number - 1) in shuffles:
            gap = rng.uniform(2000, 10000)  # the table is read first
        elif since_pause >= every:
            gap, since_pause = rng.uniform(1500, 10000), 0
        else:
            gap = rng.lognormvariate(0, sigma) * median
        since_pause += 1
        clock += int(gap)
        log.append(("move", clock))
        if number in shuffles:
            clock += int(rng.uniform(500, 3000))
            log.append(("shuffle", clock))
    return log


def script(rng: random.Random, moves: int, shuffles: set[int], kind: str) -> list[tuple[str, int]]:
    log, clock = [], 0
    for number in range(moves):
        if kind == "floor":
            gap = 400
        elif kind == "jitter":
            gap = rng.uniform(450, 700)
        elif kind == "slow jitter":
            gap = rng.uniform(600, 1200)
        else:  # humanised
            gap = 2000 if number == 0 or (number - 1) in shuffles else rng.lognormvariate(0, 0.3) * 800
        clock += int(gap)
        log.append(("move", clock))
        if number in shuffles:
            clock += 400
            log.append(("shuffle", clock))
    return log


def weighed(log, shuffles: int) -> evidence.Weighed:
    play = evidence.play_facts(log, shuffles_used=shuffles, move_kind="move", shuffle_kind="shuffle")
    return evidence.weigh(evidence.Facts(**play, games_before=50))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=42)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    kinds = ["person", "fast person", "floor", "jitter", "slow jitter", "humanised"]
    cleared = dict.fromkeys(kinds, 0)
    scores: dict[str, list[int]] = {kind: [] for kind in kinds}
    for _ in range(options.games):
        moves, shuffles = game_shape(rng)
        for kind in kinds:
            if kind in ("person", "fast person"):
                log = person(rng, moves, shuffles, fast=kind == "fast person")
            else:
                log = script(rng, moves, shuffles, kind)
            found = weighed(log, len(shuffles))
            cleared[kind] += found.clears
            scores[kind].append(found.score)
    print(f"{options.games} wins each, every player with a history, the solver's share unknown")
    print(f"{'player':<12} {'cleared':>8} {'held':>8} {'median score':>13}")
    for kind in kinds:
        share = cleared[kind] / options.games
        median = sorted(scores[kind])[len(scores[kind]) // 2]
        print(f"{kind:<12} {share:>8.1%} {1 - share:>8.1%} {median:>13}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
