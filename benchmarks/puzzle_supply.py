"""How many puzzles fresh deals give, how hard, and what each costs (issue 47; puzzles/build.py).

Run: .venv/bin/python benchmarks/puzzle_supply.py [--deals 200] [--seed 47]

Draws --deals random deal numbers (as the site draws them, 1..999,999,999, from --seed so a run
can be repeated), asks puzzles.build.from_deal for a puzzle from each, and prints how many gave
one, the spread of their decisions (positions where a move loses the win before every line
wins), of the moves asked of the player, of the winning lines and of the grades, and the time a
deal and a puzzle took.  Then the worker's part: for each deal the solver wins, the position a
real game's slip leaves (the last along the win, 4 to 30 moves from where every line wins,
where a move loses it), graded by puzzles.build.from_position as the worker grades a finished
game's slip, timed; and what an attempt's move costs the server (whether every line wins from
there, else the search's proof), over the fresh puzzles' lines.  The first line says which
search core ran (compiled, or Python).
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
from puzzles.build import KEEP_BUDGET, MAX_PLAY, from_deal, from_position, keepers, settled, settles_at  # noqa: E402


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else ordered * 3
    return f"min {ordered[0]}, quartiles {', '.join(f'{q:g}' for q in quartiles)}, max {ordered[-1]}"


def slip_position(number: int) -> engine.Position | None:
    """Where a real game along the solver's win of ``number`` could slip: the last position
    before every line wins, at most MAX_PLAY moves before it, where a move loses the win."""
    position = engine.deal(number)
    found = solver.solve(position, solver.DEFAULT_BUDGET * 10)
    if not found.won:
        return None
    positions = [position]
    for move in found.line:
        positions.append(positions[-1].play(move))
    settle = settles_at(positions)
    for here in reversed(positions[max(0, settle - MAX_PLAY) : settle]):
        kept, choices = keepers(here)
        if 0 < kept < choices:
            return here
    return None


def median_ms(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    return f"median {statistics.median(ms):.0f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms" if ms else "none"


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
    print(f"fresh deals: {len(found)} puzzles of {args.deals} deals ({100 * len(found) / args.deals:.0f}%)")
    print(f"  decisions: {spread([p.decisions for p in found])}")
    print(f"  moves asked before every line wins: {spread([p.to_settle for p in found])}")
    print(f"  winning line, moves: {spread([len(p.line) for p in found])}")
    print(f"  difficulty grade: {spread([p.difficulty for p in found])}")
    print(f"  first moves that keep the win, of those legal: {spread([p.keepers / p.first_moves for p in found])}")
    print(
        f"  time a deal: {median_ms(seconds)}; "
        f"a puzzle found costs {1000 * sum(seconds) / max(1, len(found)):.0f} ms of search on average"
    )
    checks = []  # what the server asks after each move of an attempt: settled, else the search's proof
    for puzzle in found:
        position = engine.Position.parse(puzzle.position)
        for text in puzzle.line[: puzzle.to_settle]:
            position = position.play(engine.Move.parse(text))
            start = time.perf_counter()
            if not settled(position):
                solver.solve(position, KEEP_BUDGET)
            checks.append(time.perf_counter() - start)
    print(f"an attempt's move, the server's checks: {median_ms(checks)} ({len(checks)} moves)")
    slips = [here for here in map(slip_position, numbers) if here is not None]
    graded, worker = [], []
    for number, here in enumerate(slips):
        start = time.perf_counter()
        puzzle = from_position(here, number, 0)
        worker.append(time.perf_counter() - start)
        if puzzle:
            graded.append(puzzle)
    print(f"worker, a real game's slip: {len(graded)} puzzles of {len(slips)} slips")
    print(f"  decisions: {spread([p.decisions for p in graded])}")
    print(
        f"  time a slip: {median_ms(worker)}; "
        f"a puzzle kept costs {1000 * sum(worker) / max(1, len(graded)):.0f} ms of the worker on average"
    )


if __name__ == "__main__":
    main()
