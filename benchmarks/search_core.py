"""The solver's search, compiled against the pure-Python reference (issue 43), side by side in one
run on one core: positions a second, on the same positions and budgets.

Run: .venv/bin/python benchmarks/search_core.py [--deals 12] [--budget 100000] [--runs 3]

For ``--deals`` deals of each variant (from deal 900000, a fixed seed each), it runs the
solver's ``_explore`` (the search behind hints, verdicts and analyses) from the deal with
``--budget`` positions, with every kind of move order (every move, greedy, patient), by both
cores, and prints the positions searched a second of CPU time (medians over ``--runs``) and
their ratio.  It checks on the way that both found the same.  Pure Python and the compiled
core (games/_searchcore.c, built by ``pip install``); it needs no database.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import engine, solver  # noqa: E402


def timed(search, runs: int) -> tuple[float, int, object]:
    seconds, found = [], None
    for _ in range(runs):
        began = time.process_time()
        found = search()
        seconds.append(time.process_time() - began)
    return statistics.median(seconds), found.nodes, found  # type: ignore[attr-defined]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    if solver._core is None:
        sys.exit("The compiled core was not built: pip install with gcc and Python's headers.")
    print(f"{options.deals} deals a variant, {options.budget:,} positions a search, median of {options.runs}")
    print(f"{'variant':<10} {'python pos/s':>13} {'compiled pos/s':>15} {'ratio':>6}")
    ratios = []
    for variant in engine.VARIANTS.values():
        py_seconds = c_seconds = 0.0
        nodes = 0
        for deal in range(900_000, 900_000 + options.deals):
            layout = engine.GameState.start(deal_number=deal, seed=deal, variant=variant).position.layout
            full = variant.full_run
            for forced in (solver._EVERY, solver._GREEDY, solver._PATIENT):
                py, count, reference = timed(
                    lambda: solver._explore_python(layout, options.budget, full, forced=forced), options.runs
                )
                c, _, compiled = timed(
                    lambda: solver._explore(layout, options.budget, full, forced=forced), options.runs
                )
                assert compiled == reference, (variant.key, deal, forced)
                py_seconds, c_seconds, nodes = py_seconds + py, c_seconds + c, nodes + count
        ratio = py_seconds / c_seconds
        ratios.append(ratio)
        print(f"{variant.key:<10} {nodes / py_seconds:>13,.0f} {nodes / c_seconds:>15,.0f} {ratio:>5.1f}x")
    print(f"median ratio {statistics.median(ratios):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
