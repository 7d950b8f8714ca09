"""How often a lost game's analysis is decided (issues 27 and 43): the share of lost games whose
opening (the stretch from the deal) and last stretch the analysis judges, won or proved lost.

Run: .venv/bin/python benchmarks/verdicts.py [--games 200] [--hint-games 400] [--first 600000]
     [--budget 200000] [--retry-budget 1000000] [--deep-budget N] [--processes 2] [--seed 2026]

The analysis of a finished game (``solver.analyse_stretch``, docs/RULES.md "Analysis") judges
each stretch from its start, each search within ``--budget`` positions (the site's
``ADDICTION_ANALYSIS_BUDGET``).  As the site does (``games.background.analyse``), the opening
and a lost game's last stretch, when that is not enough, are analysed again with
``--retry-budget`` (``ADDICTION_ANALYSIS_RETRY_BUDGET``) and then get the deep search for a
win from their start (``--deep-budget``, ``ADDICTION_DEEP_BUDGET``; the solver's default for
its core).  Lost games come from three kinds of player, each deal with its own game seed,
deals from ``--first`` (far from the hint benchmark's):

- the **hint** player: follows every hint in the site's order (``solver.follow_hints``),
  ``--hint-games`` deals (it wins most, so it needs more deals for as many losses);
- a **casual** player (a greedy-random bot): a move that locks a card when there is one,
  else a random legal move; shuffles when stuck, and after 150 moves in a stretch;
- a **random** player: random legal moves, shuffling when stuck or after 150 moves.

For the games each lost it prints how many openings were decided (could be won, or proved
lost), how many last stretches, per stretch the decided and winnable counts, the analysis's
time a game (CPU, one process a core) and the lost games analysed a minute on one core.
Pure Python: it needs no database.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import solver  # noqa: E402
from games.engine import GameState, Position, Status  # noqa: E402

STRETCH_MOVES = 150
KINDS = ("hint", "casual", "random")


def play(deal_number: int, seed: int, kind: str, rng: random.Random) -> tuple[GameState, list[list[Position]]]:
    """Play one game; returns its end and the positions of each stretch, from its start."""
    state = GameState.start(deal_number=deal_number, seed=seed)
    stretches = [[state.position]]

    def keep(reached: GameState) -> None:
        if reached.shuffles_used == len(stretches) - 1:
            stretches[-1].append(reached.position)
        else:
            stretches.append([reached.position])

    if kind == "hint":
        return solver.follow_hints(state, observe=keep).state, stretches
    while not state.is_over:
        moves = state.position.legal_moves()
        if moves and len(stretches[-1]) <= STRETCH_MOVES:
            locking = [m for m in moves if m.dst in state.position.play(m).locked()] if kind == "casual" else []
            state = state.play(rng.choice(locking or moves))
        elif state.shuffles_left:
            state = state.shuffle()
        else:
            state = state.resign()
            break
        keep(state)
    return state, stretches


def analyse(job: tuple[str, int, int, int, int, int]) -> dict | None:
    """Play one deal as ``kind`` and, when lost, analyse it as the site does; None for a win."""
    kind, deal_number, base_seed, budget, retry_budget, deep_budget = job
    seed = random.Random(f"{base_seed}:{deal_number}").getrandbits(128)
    state, stretches = play(deal_number, seed, kind, random.Random(f"{base_seed}:{kind}:{deal_number}"))
    if state.status is Status.WON:
        return None
    began = time.process_time()
    found = []
    for number, positions in enumerate(stretches):
        decisive = number == 0 or number == len(stretches) - 1
        found.append(
            solver.analyse_stretch(
                positions,
                budget=budget,
                retry_budget=retry_budget if decisive else 0,
                deep_budget=deep_budget if decisive else 0,
            )
        )
    return {
        "kind": kind,
        "seconds": time.process_time() - began,
        "verdicts": [f.verdict.value for f in found],
        "decided": [f.decided for f in found],
        "slips": [f.slip is not None for f in found],
    }


def report(kind: str, played: int, games: list[dict]) -> None:
    lost = len(games)
    print(f"{kind} player: {lost} lost of {played}")
    if not lost:
        return
    opening = [game["verdicts"][0] for game in games]
    known = sum(verdict != "unknown" for verdict in opening)
    print(
        f"  opening decided: {known}/{lost} = {known / lost:.1%} "
        f"(could be won {opening.count('won')}, proved lost {opening.count('proved_lost')})"
    )
    last = [game["verdicts"][-1] for game in games]
    known = sum(verdict != "unknown" for verdict in last)
    print(
        f"  last stretch decided: {known}/{lost} = {known / lost:.1%} "
        f"(could be won {last.count('won')}, proved lost {last.count('proved_lost')})"
    )
    for number in range(4):
        here = [game for game in games if len(game["verdicts"]) > number]
        if here:
            print(
                f"  stretch after {number} shuffles: {len(here)} analysed, verdict known "
                f"{sum(game['verdicts'][number] != 'unknown' for game in here)}, could be won "
                f"{sum(game['verdicts'][number] == 'won' for game in here)} "
                f"(slip found {sum(game['slips'][number] for game in here)})"
            )
    times = sorted(game["seconds"] for game in games)
    print(
        f"  a game's analysis (CPU): median {statistics.median(times):.2f} s, "
        f"p95 {times[int(0.95 * len(times))]:.2f} s, max {times[-1]:.2f} s; "
        f"{60 * lost / sum(times):.1f} lost games analysed a minute on one core"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals the casual and random players play")
    parser.add_argument("--hint-games", type=int, default=400, help="deals the hint player plays")
    parser.add_argument("--first", type=int, default=600_000, help="the first deal number")
    parser.add_argument("--budget", type=int, default=solver.ANALYSIS_BUDGET, help="positions each search may visit")
    parser.add_argument("--retry-budget", type=int, default=1_000_000, help="the opening's and last stretch's retry")
    parser.add_argument("--deep-budget", type=int, default=solver.DEEP_BUDGET, help="their deep search for a win")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--kinds", default=",".join(KINDS), help="the players, comma-separated")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    counts = {kind: args.hint_games if kind == "hint" else args.games for kind in kinds}
    jobs = [
        (kind, n, args.seed, args.budget, args.retry_budget, args.deep_budget)
        for kind in kinds
        for n in range(args.first, args.first + counts[kind])
    ]
    began = time.perf_counter()
    with multiprocessing.Pool(args.processes) as pool:
        results = pool.map(analyse, jobs, chunksize=1)
    print(
        f"{solver.CORE} core: budget {args.budget}, retry {args.retry_budget}, deep search {args.deep_budget}, "
        f"seed {args.seed}, {args.processes} processes, {time.perf_counter() - began:.0f} s"
    )
    for kind in kinds:
        report(kind, counts[kind], [game for game in results if game and game["kind"] == kind])


if __name__ == "__main__":
    main()
