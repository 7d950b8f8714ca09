"""How many puzzles fresh deals give, how hard, and what each costs (issue 47; puzzles/build.py).

Run: .venv/bin/python benchmarks/puzzle_supply.py [--deals 200] [--seed 47]

Draws --deals random deal numbers (as the site draws them, 1..999,999,999, from --seed so a run
can be repeated), asks puzzles.build.from_deal for a puzzle from each, and prints how many gave
one, the spread of their winning lines' lengths and difficulty grades, and the time a deal and
a puzzle took (the solver's compiled core, or the Python one: the first line says which).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import engine, solver  # noqa: E402
from puzzles.build import from_deal  # noqa: E402


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else ordered * 3
    return f"min {ordered[0]}, quartiles {', '.join(f'{q:g}' for q in quartiles)}, max {ordered[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args()
    draw = random.Random(args.seed)
    numbers = [draw.randrange(1, engine.DRAWN_DEALS + 1) for _ in range(args.deals)]
    print(f"search core: {solver.CORE}; {args.deals} random deals (seed {args.seed})")
    found, seconds = [], []
    for number in numbers:
        start = time.perf_counter()
        puzzle = from_deal(number)
        seconds.append(time.perf_counter() - start)
        if puzzle:
            found.append(puzzle)
    print(f"puzzles: {len(found)} of {args.deals} deals ({100 * len(found) / args.deals:.0f}%)")
    print(f"winning line, moves: {spread([len(p.line) for p in found])}")
    print(f"difficulty grade: {spread([p.difficulty for p in found])}")
    print(f"first moves that keep the win, of those legal: {spread([p.keepers / p.first_moves for p in found])}")
    ms = [s * 1000 for s in seconds]
    print(
        f"time a deal: median {statistics.median(ms):.0f} ms, p95 {sorted(ms)[int(0.95 * (len(ms) - 1))]:.0f} ms; "
        f"a puzzle found costs {sum(ms) / max(1, len(found)):.0f} ms of search on average"
    )


if __name__ == "__main__":
    main()
