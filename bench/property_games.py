"""Play many seeded random games of any game for several player counts; check that none raises,
that every one ends, and that the pools and slot ranges hold at the end; print speed.

    python bench/property_games.py betrayal --players 3 4 5 6 --games 200 [--param key=value ...]

Measures in one run; not a test. Exits non-zero if any game failed.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

import ghostrules


def parse_value(raw: str) -> object:
    return int(raw) if raw.lstrip("-").isdigit() else raw


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--param", action="append", default=[], help="another parameter, key=value")
    args = parser.parse_args()
    extra = dict((k, parse_value(v)) for k, v in (p.split("=", 1) for p in args.param))
    failures = 0
    for players in args.players:
        game = ghostrules.load_game(args.game, players=players, **extra)
        outcomes: collections.Counter[tuple[str, str]] = collections.Counter()
        lengths = []
        start = time.perf_counter()
        for seed in range(args.first_seed, args.first_seed + args.games):
            try:
                state = ghostrules.play(game, seed=seed)
                problems = state.check_invariants()
            except Exception as exc:  # noqa: BLE001 - report every failure, keep going
                failures += 1
                print(f"  seed {seed}: {type(exc).__name__}: {exc}")
                continue
            if problems:
                failures += 1
                print(f"  seed {seed}: {'; '.join(problems)}")
            outcome = state.outcome()
            assert outcome is not None
            outcomes[(outcome.result, outcome.rule_id)] += 1
            lengths.append(len(state.history()))
        elapsed = time.perf_counter() - start
        print(f"{game!r}: {args.games} games in {elapsed:.1f} s ({args.games / elapsed:.2f} games/s, "
              f"{sum(lengths) / elapsed:.0f} actions/s, mean {sum(lengths) / max(1, len(lengths)):.0f} actions)")
        for (result, rule), count in outcomes.most_common():
            print(f"  {result:8} by {rule:10} {count}")
    print(f"games with an exception or a broken invariant: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
