"""The request's hint at its worst (issue 27): ``solver.advise`` on deal openings, where the
search nearly always spends its whole budget, at one or more budgets.

Run: .venv/bin/python benchmarks/hint_speed.py [--budgets 12000,20000] [--first 500000] [--deals 40]
     [--variant addiction]

Prints, for each budget, the median, p95 and max time of one hint and the positions searched
(one process, one core).  A game's hints are mostly cheaper (a found line is a lookup, a
position near a win is searched in a few hundred positions): this is the ceiling that the
request's p95 approaches, not the p95 itself, which `hint_strength.py` measures over games.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import engine, solver  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="12000,20000")
    parser.add_argument("--first", type=int, default=500_000)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--variant", default="addiction", choices=list(engine.VARIANTS), help="the game of the family")
    args = parser.parse_args()
    variant = engine.VARIANTS[args.variant]
    openings = [engine.deal(number, variant) for number in range(args.first, args.first + args.deals)]
    for budget in (int(part) for part in args.budgets.split(",")):
        times, nodes = [], []
        for position in openings:
            began = time.perf_counter()
            advice = solver.advise(position, variant.shuffles, budget)
            times.append((time.perf_counter() - began) * 1e3)
            nodes.append(advice.nodes)
        times.sort()
        print(
            f"{variant.name}, budget {budget}: {len(times)} openings, median {statistics.median(times):.1f} ms, "
            f"p95 {times[int(0.95 * len(times))]:.1f} ms, max {times[-1]:.1f} ms; "
            f"positions median {statistics.median(nodes):.0f}"
        )


if __name__ == "__main__":
    main()
