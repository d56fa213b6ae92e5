"""Play many seeded random games of one configuration; print outcomes and speed.

    python bench/random_games.py --games 1000 [--players 4 --level initiation --edition el]

Measures in one run; not a test. Exits non-zero if any game raised an exception.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time

import ghostrules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ghost-stories")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="initiation")
    parser.add_argument("--edition", default="el")
    args = parser.parse_args()
    game = ghostrules.load_game(args.game, players=args.players, level=args.level, edition=args.edition)
    outcomes: collections.Counter[tuple[str, str]] = collections.Counter()
    lengths = []
    failures = []
    start = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.games):
        try:
            state = ghostrules.play(game, seed=seed)
        except Exception as exc:  # noqa: BLE001 - report every failure, keep going
            failures.append((seed, f"{type(exc).__name__}: {exc}"))
            continue
        outcome = state.outcome()
        assert outcome is not None
        outcomes[(outcome.result, outcome.rule_id)] += 1
        lengths.append(len(state.history()))
        problems = state.check_invariants()
        if problems:
            failures.append((seed, "; ".join(problems)))
    elapsed = time.perf_counter() - start
    print(f"{game!r}: {args.games} games in {elapsed:.1f} s ({args.games / elapsed:.1f} games/s, "
          f"{sum(lengths) / elapsed:.0f} actions/s)")
    for (result, rule), count in outcomes.most_common():
        print(f"  {result:5} by {rule:10} {count}")
    if lengths:
        print(f"  actions per game: mean {statistics.mean(lengths):.1f}, max {max(lengths)}")
    print(f"  games with an exception or a broken invariant: {len(failures)}")
    for seed, message in failures[:10]:
        print(f"    seed {seed}: {message}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
