"""Helpers shared by the engine speed tests (tests/test_engine_speed_*.py) and tests/test_expr.py."""

from __future__ import annotations

import itertools
import random
from typing import Any

from ghostrules.engine.game import Game, sample_chance
from ghostrules.engine.hoist import hoist
from ghostrules.engine.runtime import _RUNTIME
from ghostrules.engine.state import State


def positions_along(game: Game, seeds: range, every: int, tracing: bool = False) -> list[tuple[State, Any]]:
    """(a copy of the position, the action taken there) every ``every`` actions of random games,
    one game per seed."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(tracing=tracing)
        k = 0
        while not state.is_terminal():
            action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            if k % every == 0:
                out.append((state.clone(), action))
            state.apply_action(action)
            k += 1
    return out


def traced_record(game: Game, seed: int, max_actions: int = 400) -> tuple:
    """What a seeded random game (tracing on, at most ``max_actions`` actions) shows: its actions,
    their labels, its log and its final position as JSON; equal records, equal games."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing=True)
    while not state.is_terminal() and len(state.history()) < max_actions:
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
    return [a.to_json() for a in state.history()], [a.label for a in state.history()], \
        [str(e) for e in state.log()], state.to_json()


def random_values_and_args(layout: Any, params: Any, rng: random.Random) -> tuple[list[int], dict[str, int]]:
    """A random value for every slot within its range, and a random argument for every parameter of
    a definition (``params``: (name, type) pairs; a domain's argument may be -1, none)."""
    values = [rng.randint(lo, hi) for lo, hi in zip(layout.lows, layout.highs)]
    args = {}
    for p, t in params:
        n = 2 if t == "bool" else 9 if t == "int" else len(layout.domains[t].symbols)
        args[p] = rng.randint(-1 if t not in ("int", "bool") else 0, n - 1)
    return values, args


def compile_hoisted(code: str, extra: dict[str, Any] | None = None) -> tuple[Any, Any, list[str]]:
    """(hoisted fn, plain fn, helper sources) of ``lambda v, L: code``, in a namespace of the run-time
    helpers and ``extra``."""
    ns: dict[str, Any] = {**_RUNTIME, **(extra or {})}
    helpers: list[str] = []

    def define(source: str) -> None:
        helpers.append(source)
        exec(compile(source, "<test>", "exec"), ns)  # noqa: S102 - the test's own code

    ids = itertools.count(10_000_000)

    def fresh(prefix: str) -> str:
        return f"{prefix}{next(ids)}"

    fast = hoist(code, define, fresh)
    return eval(f"lambda v, L: {fast}", ns), eval(f"lambda v, L: {code}", ns), helpers  # noqa: S307


def spec_game(tmp_path: Any, name: str, game_yaml: str, rules_yaml: str) -> Game:
    """A Game of a small spec written for a test: ``<tmp_path>/specs/<name>/game.yaml`` and its
    ``rules/core.yaml``, compiled as the loader reads any spec folder."""
    from ghostrules.spec import load_spec
    root = tmp_path / "specs" / name
    (root / "rules").mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(game_yaml, encoding="utf-8")
    (root / "rules" / "core.yaml").write_text(rules_yaml, encoding="utf-8")
    return Game(load_spec(name, root=tmp_path / "specs"))
