"""Hint strength (issue 11): how many games following games.solver.hint wins, and how fast it answers.

Run: python benchmarks/hint_strength.py [--deals 200] [--first 1] [--budget N] [--processes 2] [--seed 2026]

Plays deals --first .. --first+--deals-1, each with a fresh random game seed drawn from
the benchmark's own generator (--seed): the seed decides the shuffles, as a real game's
secret does, and the hint never sees it.  At every step it asks ``hint(position,
shuffles_left)`` and does what it says: plays the move, shuffles, or, on None, counts the
game lost.  Prints the win rate with its 95% Wilson interval, the hint time's median and
95th percentile (per process, on one core each), and the positions searched per hint.
Pure Python: it needs no database.
"""

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import GameState  # noqa: E402
from games.solver import DEFAULT_BUDGET, SHUFFLE, advise  # noqa: E402


def play(job: tuple[int, int, int]) -> tuple[int, bool, list[float], list[int], int]:
    """Play one game by the hints; returns its deal, whether it was won, hint times (s), nodes and shuffles used."""
    deal_number, seed, budget = job
    game = GameState.start(deal_number=deal_number, seed=seed)
    times, nodes = [], []
    while not game.is_over:
        start = time.perf_counter()
        advice = advise(game.position, game.shuffles_left, budget)
        times.append(time.perf_counter() - start)
        nodes.append(advice.nodes)
        if advice.hint is None:
            break
        game = game.shuffle() if advice.hint == SHUFFLE else game.play(advice.hint)
    return deal_number, game.status.value == "won", times, nodes, game.shuffles_used


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion, 95% by default."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list, q: float):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=1, help="the first deal number played")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="positions a hint may search")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026, help="seeds the benchmark's own generator")
    parser.add_argument("--list-won", action="store_true", help="also print the (deal, seed) pairs won")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    jobs = [(n, rng.getrandbits(128), args.budget) for n in range(args.first, args.first + args.deals)]
    seeds = {n: seed for n, seed, _ in jobs}
    began = time.perf_counter()
    with multiprocessing.Pool(args.processes) as pool:
        results = pool.map(play, jobs, chunksize=1)
    wall = time.perf_counter() - began

    wins = sum(won for _, won, _, _, _ in results)
    low, high = wilson(wins, len(results))
    times = [t * 1e3 for _, _, ts, _, _ in results for t in ts]
    nodes = [n for _, _, _, ns, _ in results for n in ns]
    print(
        f"deals {args.first}..{args.first + args.deals - 1}, budget {args.budget} positions, "
        f"{args.processes} processes, {wall:.0f} s"
    )
    print(f"won {wins}/{len(results)} = {wins / len(results):.1%} (95% CI {low:.1%}-{high:.1%})")
    after = [sum(won and used == k for _, won, _, _, used in results) for k in range(4)]
    print("won after 0, 1, 2, 3 shuffles:", ", ".join(map(str, after)))
    print(
        f"hints {len(times)}: time median {statistics.median(times):.1f} ms, "
        f"p95 {percentile(times, 0.95):.1f} ms, max {max(times):.1f} ms"
    )
    print(f"positions searched per hint: median {statistics.median(nodes):.0f}, p95 {percentile(nodes, 0.95)}")
    if args.list_won:
        print("won:", [(n, seeds[n]) for n, won, _, _, _ in results if won])


if __name__ == "__main__":
    main()
