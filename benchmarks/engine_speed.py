"""Engine speed: microseconds per legal_moves()+play() step, and random games per second.

Run: python benchmarks/engine_speed.py [--runs N]
Prints medians over N runs, all through the public API of games.engine, on one core.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import GameState, deal  # noqa: E402


def step_run(steps: int, rng: random.Random) -> float:
    """Random playouts without shuffles; returns microseconds per legal_moves()+play() step."""
    # The benchmark's own choices use the fast C generator so that they cost little of the step.
    pick = rng.random
    done = 0
    elapsed = 0.0
    while done < steps:
        position = deal(rng.randrange(1, 2**63))
        start = time.perf_counter()
        while done < steps:
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(moves[int(pick() * len(moves))])
            done += 1
        elapsed += time.perf_counter() - start
    return elapsed / steps * 1e6


def game_run(games: int, rng: random.Random) -> float:
    """Complete random games with shuffles (deal, play, shuffle when stuck); returns games per second."""
    pick = rng.random
    start = time.perf_counter()
    for _ in range(games):
        game = GameState.start(deal_number=rng.randrange(1, 2**63), seed=rng.getrandbits(128))
        while not game.is_over:
            moves = game.position.legal_moves()
            game = game.play(moves[int(pick() * len(moves))]) if moves else game.shuffle()
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=4_000)
    args = parser.parse_args()
    rng = random.Random(2026)
    # Warm up: the engine builds each distinct Move once and then reuses it, as a long search would.
    step_run(args.steps, rng)
    game_run(args.games // 4, rng)
    steps = [step_run(args.steps, rng) for _ in range(args.runs)]
    games = [game_run(args.games, rng) for _ in range(args.runs)]
    print(f"python {sys.version.split()[0]}, {args.runs} runs")
    print(
        f"step (legal_moves + play): median {statistics.median(steps):.2f} us "
        f"(min {min(steps):.2f}, max {max(steps):.2f}); target <= 3 us"
    )
    print(
        f"random games with shuffles: median {statistics.median(games):,.0f} games/s "
        f"(min {min(games):,.0f}, max {max(games):,.0f}); target >= 2,000"
    )


if __name__ == "__main__":
    main()
