"""``ghostrules render``: draw a position as SVG.

    ghostrules render SCENARIO -o position.svg                 a scenario file (ghostrules.load_scenario)
    ghostrules render --game GAME --seed 7 --steps 40 -o position.svg
                                                              N seeded random steps from the setup
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any


def add_render_command(sub: Any) -> None:
    """Register the ``render`` subcommand on the command line's subparsers."""
    p = sub.add_parser("render", help="draw a position as SVG (a scenario, or N seeded random steps)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", nargs="?", help="a scenario file (YAML); without it, a seeded game is played")
    p.add_argument("-o", "--output", default="-", help="the SVG file to write (default: standard output)")
    p.add_argument("--game", help="a game folder under specs/, when there is no scenario (default: the "
                                  "command line's default game)")
    p.add_argument("--players", help="number of players")
    p.add_argument("--level", help="difficulty level")
    p.add_argument("--edition", help="rulebook edition")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--steps", type=int, default=0,
                   help="play this many random steps (chance outcomes and decisions) before drawing")
    p.add_argument("--caption", help="the picture's first line (default: who decides what now)")
    p.set_defaults(func=cmd_render)


def _scenario_state(path: str) -> Any:
    import ghostrules
    from ..cli import UsageError
    loader = getattr(ghostrules, "load_scenario", None)
    if loader is None:
        raise UsageError("scenario files need ghostrules.load_scenario, which is not available yet; "
                         "use --game G --seed S --steps N")
    if not Path(path).is_file():
        raise UsageError(f"no scenario file {path!r}")
    loaded = loader(Path(path))
    return getattr(loaded, "state", loaded)


def cmd_render(args: argparse.Namespace) -> int:
    from ..cli import DEFAULT_GAME, UsageError, _load
    from . import state_to_svg
    if args.steps < 0:
        raise UsageError("--steps must be 0 or more")
    if args.scenario:
        state = _scenario_state(args.scenario)
    else:
        state = _load(args.game or DEFAULT_GAME, args).new_initial_state()
    if args.steps:
        from ..engine import random_policy, sample_chance
        rng = random.Random(args.seed)
        for _ in range(args.steps):
            if state.is_terminal():
                break
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else random_policy(state, rng))
    svg = state_to_svg(state, args.caption)
    if args.output == "-":
        sys.stdout.write(svg)
    else:
        Path(args.output).write_text(svg, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0
