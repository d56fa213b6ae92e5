"""Helpers shared by the engine speed tests (tests/test_engine_speed_*.py)."""

from __future__ import annotations

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


def compile_hoisted(code: str, extra: dict[str, Any] | None = None) -> tuple[Any, Any, list[str]]:
    """(hoisted fn, plain fn, helper sources) of ``lambda v, L: code``, in a namespace of the run-time
    helpers and ``extra``."""
    ns: dict[str, Any] = {**_RUNTIME, **(extra or {})}
    helpers: list[str] = []

    def define(source: str) -> None:
        helpers.append(source)
        exec(compile(source, "<test>", "exec"), ns)  # noqa: S102 - the test's own code

    fast = hoist(code, define)
    return eval(f"lambda v, L: {fast}", ns), eval(f"lambda v, L: {code}", ns), helpers  # noqa: S307
