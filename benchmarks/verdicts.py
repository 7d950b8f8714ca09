"""How often a lost game's analysis is decided (issue 27): the share of lost games whose last
stretch the analysis judges (won, with its slip, or proved lost) within its budget.

Run: .venv/bin/python benchmarks/verdicts.py [--games 200] [--first 600000] [--budget 200000]
     [--retry-budget 1000000] [--seed 2026]

The analysis of a finished game (``solver.analyse_stretch``, docs/RULES.md "Analysis")
judges each stretch from its start; "not decided" means a search on the way ran out of
``--budget`` positions (the site's ``ADDICTION_ANALYSIS_BUDGET``); a lost game's last
stretch not decided so is analysed again with ``--retry-budget`` (``ADDICTION_DEEP_BUDGET``),
as the site does (``games.background.analyse``).  Lost games come from
two kinds of player, each playing ``--games`` deals from ``--first`` (far from the hint
benchmark's deals), each deal with its own game seed:

- a **casual** player: a move that locks a card when there is one, else a random legal
  move; shuffles when stuck, and after 150 moves in a stretch;
- a **random** player: random legal moves, shuffling when stuck or after 150 moves.

For the games each lost it prints, per stretch (the opening, after 1, 2 and 3 shuffles),
how many the analysis decided, how many could have been won with no further shuffle
(and had a slip found), and the analysis's time, one process on one core.  Pure Python:
it needs no database.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import solver  # noqa: E402
from games.engine import GameState, Position, Status  # noqa: E402

STRETCH_MOVES = 150


def play(deal_number: int, seed: int, casual: bool, rng: random.Random) -> tuple[GameState, list[list[Position]]]:
    """Play one game; returns its end and the positions of each stretch, from its start."""
    state = GameState.start(deal_number=deal_number, seed=seed)
    stretches = [[state.position]]
    while not state.is_over:
        moves = state.position.legal_moves()
        if moves and len(stretches[-1]) <= STRETCH_MOVES:
            locking = [move for move in moves if move.dst in state.position.play(move).locked()] if casual else []
            state = state.play(rng.choice(locking or moves))
            stretches[-1].append(state.position)
        elif state.shuffles_left:
            state = state.shuffle()
            stretches.append([state.position])
        else:
            state = state.resign()
    return state, stretches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals each kind of player plays")
    parser.add_argument("--first", type=int, default=600_000, help="the first deal number")
    parser.add_argument("--budget", type=int, default=solver.ANALYSIS_BUDGET, help="positions each search may visit")
    parser.add_argument("--retry-budget", type=int, default=solver.DEEP_BUDGET, help="a last stretch's second try")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for kind in ("casual", "random"):
        rng = random.Random(f"{args.seed}:{kind}")
        lost = 0
        decided, winnable, slips, seconds = ([0] * 4 for _ in range(4))
        counted = [0] * 4
        last_decided = 0
        times: list[float] = []
        for deal_number in range(args.first, args.first + args.games):
            seed = random.Random(f"{args.seed}:{deal_number}").getrandbits(128)
            state, stretches = play(deal_number, seed, kind == "casual", rng)
            if state.status is Status.WON:
                continue
            lost += 1
            for number, positions in enumerate(stretches):
                last = number == len(stretches) - 1
                began = time.perf_counter()
                found = solver.analyse_stretch(
                    positions, budget=args.budget, retry_budget=args.retry_budget if last else 0
                )
                spent = time.perf_counter() - began
                times.append(spent)
                counted[number] += 1
                decided[number] += found.decided
                winnable[number] += found.verdict is solver.Verdict.WON
                slips[number] += found.slip is not None
                seconds[number] += spent
                if last:
                    last_decided += found.decided
        print(f"{kind} player, deals {args.first}..{args.first + args.games - 1}: {lost} lost of {args.games}")
        if not lost:
            continue
        print(f"  last stretch decided: {last_decided}/{lost} = {last_decided / lost:.1%}")
        for number in range(4):
            if counted[number]:
                print(
                    f"  stretch after {number} shuffles: {counted[number]} analysed, decided {decided[number]}, "
                    f"could be won {winnable[number]} (slip found {slips[number]}), "
                    f"mean {seconds[number] / counted[number]:.2f} s"
                )
        print(
            f"  a stretch's analysis: median {statistics.median(times):.2f} s, "
            f"p95 {sorted(times)[int(0.95 * len(times))]:.2f} s, max {max(times):.2f} s"
        )


if __name__ == "__main__":
    main()
