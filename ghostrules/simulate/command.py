"""``ghostrules simulate``: many seeded games, and their statistics.

    ghostrules simulate ghost-stories --games 1000 --players 4 --level normal --policy heuristic
    ghostrules simulate ghost-stories --games 200 --workers 2 --seed 7 --csv games.csv --json summary.json
    ghostrules simulate betrayal --games 100 --param players=5
    ghostrules simulate ghost-stories --games 500 --executor dask --scheduler tcp://10.0.0.5:8786
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

NAMED = ("players", "level", "edition", "easy")


def add_simulate_command(sub: Any) -> None:
    """Register the ``simulate`` subcommand on the command line's subparsers."""
    p = sub.add_parser("simulate", help="play many seeded games and print win rates, end reasons and lengths",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="a game folder under specs/ (e.g. ghost-stories)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--players", help="number of players")
    p.add_argument("--level", help="difficulty level")
    p.add_argument("--edition", help="rulebook edition")
    p.add_argument("--easy", help="optional easier start (Ghost Stories: yes = 5 Qi)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="any other game parameter (repeatable)")
    p.add_argument("--policy", default="random",
                   help="random (uniform over the options), heuristic (specs/<game>/policy.yaml) or a policy file")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0); game i uses a seed derived "
                                                       "from it, so results do not depend on --workers")
    p.add_argument("--workers", type=int, help="worker processes (default: every core)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="local worker processes, or a Dask cluster (pip install 'ghostrules[dask]')")
    p.add_argument("--scheduler", help="with --executor dask: the scheduler's address (default: a local cluster)")
    p.add_argument("--win", help="the result counted as a win, one of the game's results "
                                 "(default 'win' when the game has it)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON ('-' for standard output)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)


def _parameters(args: argparse.Namespace) -> dict[str, Any]:
    from ..cli import UsageError, _convert, _game_parameters
    allowed = _game_parameters(args.game)
    params: dict[str, Any] = {}
    for name in NAMED:
        raw = getattr(args, name, None)
        if raw is not None:
            params[name] = _convert(args.game, name, str(raw), allowed)
    for item in args.param:
        name, sep, raw = item.partition("=")
        if not sep:
            raise UsageError(f"--param takes NAME=VALUE (got {item!r})")
        params[name.strip()] = _convert(args.game, name.strip(), raw.strip(), allowed)
    return params


class _Bar:
    """A rich progress bar on standard error, when it is a terminal."""

    def __init__(self, total: int, title: str, enabled: bool) -> None:
        self.progress = None
        if not enabled:
            return
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:  # rich is optional: no bar without it
            return
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                                 transient=True)
        self.task = self.progress.add_task(title, total=total)

    def __enter__(self) -> _Bar:
        if self.progress is not None:
            self.progress.start()
        return self

    def advance(self, n: int) -> None:
        if self.progress is not None:
            self.progress.advance(self.task, n)

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..cli import UsageError
    from .policy import policy_names
    from .runner import simulate
    from .stats import summary_lines
    if args.games < 1:
        raise UsageError("--games must be 1 or more")
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be 1 or more")
    if args.scheduler and args.executor != "dask":
        raise UsageError("--scheduler needs --executor dask")
    params = _parameters(args)
    if args.policy in ("random", "heuristic") and args.policy not in policy_names(args.game):
        raise UsageError(f"{args.game} has no {args.policy} policy; available: {', '.join(policy_names(args.game))}")
    show_bar = not args.quiet and sys.stderr.isatty()
    with _Bar(args.games, f"{args.game} ({args.policy})", show_bar) as bar:
        run = simulate(args.game, args.games, parameters=params, policy=args.policy, seed=args.seed,
                       workers=args.workers, executor=args.executor, scheduler=args.scheduler,
                       progress=bar.advance, win=args.win)
    if args.csv:
        run.write_csv(args.csv)
    if args.json == "-":
        print(json.dumps(run.to_json(), ensure_ascii=False))
        return 0
    if args.json:
        run.write_json(args.json)
    shown = ", ".join(f"{k}={v}" for k, v in run.settings.items())
    title = f"{args.game} ({shown}): {args.games} games, {args.policy} policy, seed {args.seed}"
    print("\n".join(summary_lines(run.summary, title)))
    return 0
