"""Hint strength (issues 11 and 27): how many games following the hints wins, and how fast they answer.

Run: python benchmarks/hint_strength.py [--as-site] [--tuning 1:200] [--holdout 500000:1000] [--deep-budget N]
     [--budget N] [--search-budget N] [--processes 2] [--seed 2026] [--variant addiction] [--save FILE]
     [--paired FILE] [--seeds-from N]

Two sets of deals, every time: the deals the search was tuned on (--tuning) and a hold-out
that nothing is ever chosen on (--holdout, far from them; at least 1,000 deals for a figure
quoted as final).  Each deal gets its own random game seed from the benchmark's generator
(--seed and the deal number, so a deal has the same seed in every run and two versions
compared play the same games): the seed decides the shuffles, as a real game's secret
does, and the hint never sees it.  --variant plays another game of the family (issue 29:
montana, spaces, blue-moon, red-moon); a set given as FIRST:0 is left out.

A game is played by a player who follows every hint (``solver.follow_hints``), in one of
two orders:

- ``--as-site``, the site's own (docs/RULES.md, "Hints"): the background search
  (``solver.search_win``, --deep-budget positions) from each stretch's start, the deal or a
  shuffle; a hint on a found line is a lookup; any other is the request's own
  (``solver.request_hint``: the deep search within --search-budget positions, then
  ``solver.advise`` within --budget), and when it found no line, the background search
  from where its move leads, up to ``solver.SEARCHES_PER_STRETCH`` a stretch. This is the
  figure the README quotes.
- by default, the benchmark's first method, kept as a second figure: the background search
  from where the stretch's first hint is asked, before that hint, then ``solver.advise``
  off its line.

The benchmark waits for the background search before the next hint, as a player who
waits a few seconds for it would.  Prints, for each set, the win rate with its 95% Wilson
interval, the wins after 0, 1, 2 and 3 shuffles, the request's hint times (median, p95:
one process a core), the lookups, and the background searches' count and times.
--save writes each game's outcome as JSON; --paired compares this run with a saved one
game by game (same deals, same seeds): the games only one of them won, and the exact
two-sided McNemar p-value.  Pure Python: it needs no database.
"""

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import solver  # noqa: E402
from games.engine import VARIANTS, GameState  # noqa: E402


def game_seed(seed: int, deal_number: int) -> int:
    """The game seed a deal is played with: the same in every run with the same --seed."""
    return random.Random(f"{seed}:{deal_number}").getrandbits(128)


def play(job: tuple[str, int, int, int, int, str, int, bool]) -> dict:
    """Play one game by the hints (``solver.follow_hints``); returns what happened and what each hint cost."""
    name, deal_number, seed, budget, deep_budget, variant, search_budget, as_site = job
    game = GameState.start(deal_number=deal_number, seed=seed, variant=variant)
    followed = solver.follow_hints(
        game,
        budget=budget,
        deep_budget=deep_budget,
        search_budget=search_budget,
        as_site=as_site,
        clock=time.process_time,
    )
    return {
        "set": name,
        "deal": deal_number,
        "won": followed.state.status.value == "won",
        "shuffles": followed.state.shuffles_used,
        "moves": followed.state.moves,
        "times": followed.hint_seconds,
        "nodes": followed.hint_nodes,
        "lookups": followed.lookups,
        "deep_times": followed.search_seconds,
        "deep_won": followed.searches_won,
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion, 95% by default."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list, q: float):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def mcnemar(only_a: int, only_b: int) -> float:
    """The exact two-sided McNemar p-value: how likely so uneven a split of the discordant games is by chance."""
    n = only_a + only_b
    if not n:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def deals(text: str) -> range:
    first, count = (int(part) for part in text.split(":"))
    return range(first, first + count)


def report(name: str, games: list[dict]) -> None:
    wins = sum(game["won"] for game in games)
    low, high = wilson(wins, len(games))
    first, last = min(game["deal"] for game in games), max(game["deal"] for game in games)
    print(
        f"{name} deals {first}..{last}: won {wins}/{len(games)} = {wins / len(games):.1%} (95% CI {low:.1%}-{high:.1%})"
    )
    after = [sum(game["won"] and game["shuffles"] == k for game in games) for k in range(4)]
    print("  won after 0, 1, 2, 3 shuffles:", ", ".join(map(str, after)))
    times = [t * 1e3 for game in games for t in game["times"]]
    nodes = [n for game in games for n in game["nodes"]]
    lookups = sum(game["lookups"] for game in games)
    print(
        f"  request hints {len(times)}: CPU median {statistics.median(times):.1f} ms, "
        f"p95 {percentile(times, 0.95):.1f} ms, max {max(times):.1f} ms; positions median "
        f"{statistics.median(nodes):.0f}, p95 {percentile(nodes, 0.95)}; lookups on a found line {lookups}"
    )
    deep = [t for game in games for t in game["deep_times"]]
    if deep:
        found = sum(game["deep_won"] for game in games)
        print(
            f"  background searches {len(deep)}, a win found by {found}: time median {statistics.median(deep):.1f} s, "
            f"p95 {percentile(deep, 0.95):.1f} s, max {max(deep):.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuning", default="1:200", help="FIRST:COUNT, the deals tuned on")
    parser.add_argument("--holdout", default="500000:1000", help="FIRST:COUNT, the deals nothing is chosen on")
    parser.add_argument(
        "--budget", type=int, default=solver.DEFAULT_BUDGET, help="positions a request's hint may search"
    )
    parser.add_argument(
        "--deep-budget", type=int, default=solver.DEEP_BUDGET, help="positions a background search may visit"
    )
    parser.add_argument(
        "--search-budget",
        type=int,
        default=solver.REQUEST_SEARCH_BUDGET,
        help="positions a request's own deep search may visit (--as-site)",
    )
    parser.add_argument("--as-site", action="store_true", help="play the site's order of searches and hints")
    parser.add_argument(
        "--seeds-from",
        type=int,
        help="draw the game seeds in deal order from random.Random(N).getrandbits(128) instead (issue 43's hold-out)",
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026, help="seeds the benchmark's own generator")
    parser.add_argument("--variant", default="addiction", choices=list(VARIANTS), help="the game of the family played")
    parser.add_argument("--save", help="write each game's outcome here (JSON)")
    parser.add_argument("--paired", help="compare game by game with outcomes saved by an earlier run")
    args = parser.parse_args()

    sets = {
        name: numbers
        for name, numbers in (("tuning", deals(args.tuning)), ("hold-out", deals(args.holdout)))
        if numbers
    }
    drawn = random.Random(args.seeds_from) if args.seeds_from is not None else None
    jobs = [
        (
            name,
            n,
            drawn.getrandbits(128) if drawn else game_seed(args.seed, n),
            args.budget,
            args.deep_budget,
            args.variant,
            args.search_budget,
            args.as_site,
        )
        for name, numbers in sets.items()
        for n in numbers
    ]
    began = time.perf_counter()
    with multiprocessing.Pool(args.processes) as pool:
        results = pool.map(play, jobs, chunksize=1)
    wall = time.perf_counter() - began
    order = (
        "the site's order (--as-site)"
        if args.as_site
        else "the benchmark's first method (search before the first hint)"
    )
    print(
        f"{VARIANTS[args.variant].name}, {order}, {solver.CORE} core: budget {args.budget} positions a hint, "
        f"request search {args.search_budget if args.as_site else 0}, background search {args.deep_budget}, "
        f"seeds {'drawn from ' + str(args.seeds_from) if drawn else args.seed}, "
        f"{args.processes} processes, {wall:.0f} s"
    )
    for name in sets:
        report(name, [game for game in results if game["set"] == name])
    outcomes = {f"{game['set']}:{game['deal']}": game["won"] for game in results}
    if args.paired:
        before = json.loads(Path(args.paired).read_text())
        for name in sets:
            keys = [key for key in outcomes if key.startswith(f"{name}:") and key in before]
            only_now = sum(outcomes[key] and not before[key] for key in keys)
            only_then = sum(before[key] and not outcomes[key] for key in keys)
            print(
                f"paired with {args.paired}, {name} ({len(keys)} games): won only now {only_now}, "
                f"only then {only_then}, McNemar p = {mcnemar(only_now, only_then):.3g}"
            )
    if args.save:
        Path(args.save).write_text(json.dumps(outcomes))


if __name__ == "__main__":
    main()
