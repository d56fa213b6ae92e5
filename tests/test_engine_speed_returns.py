"""Returns handled inside the machine's inner loop (engine/machine.py, ``Machine._run``).

After a decision the machine returns through several frames: those it found on the stack (which
apply_action saves once for its rollback, and which a child state may share with its parent and
must copy first) and those it pushed itself in the same run (which need neither). Only the first
kind leaves the inner loop. Whatever mix of apply_action, child, clone and failing actions plays a
toy game whose procedures nest three deep, and whether the blocks or the interpreter run them, the
games are the same, a failed action leaves the state as it was, and no state sees another's moves.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import machine as machine_module
from ghostrules.engine.game import Game, sample_chance
from ghostrules.engine.state import State
from ghostrules.spec.loader import load_spec
from toy_copies import toy_copy

CORE = "rules/core.yaml"

_NESTED = """\
  - id: T-OUTER
    text: Outer.
    procedure: outer
    params: {p: player}
    do:
      - call: middle
        with: {p: p}
      - let: {q: "bob if p == ann else ann"}
      - call: tail
        with: {p: q}
  - id: T-MIDDLE
    text: Middle.
    procedure: middle
    params: {p: player}
    do:
      - call: inner
        with: {p: p}
      - call: tail
        with: {p: p}
      - call: tail
        with: {p: p}
  - id: T-INNER
    text: Inner.
    procedure: inner
    params: {p: player}
    do:
      - choose: give one back?
        by: p
        options:
          - label: give one
            if: "stock[p] > 0"
            do:
              - move: {n: 1, from: "stock[p]", to: supply}
          - label: keep
  - id: T-TAIL
    text: Tail.
    procedure: tail
    params: {p: player}
    do:
      - say: "{p} holds {stock[p]}"
"""


@pytest.fixture(scope="module")
def nested(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The toy game whose turn, after its own decision, calls ``outer`` -> ``middle`` -> ``inner``
    (a decision), then returns through them, each calling ``tail`` on the way out."""
    old = '      - set: {active: "bob if active == ann else ann"}\n'
    root = toy_copy(tmp_path_factory.mktemp("nested"),
                    (CORE, old, "      - call: outer\n        with: {p: active}\n" + old),
                    (CORE, "rules:\n", "rules:\n" + _NESTED))
    return Game(load_spec("toy", root=root))


def _interpreted(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every block of ``game`` removed: the interpreter runs each instruction (calls and returns too)."""
    monkeypatch.setattr(game.program, "blocks", [[None] * len(p.code) for p in game.program.procs])


def _deep(state: State) -> Any:
    """The stack as values, the values, the history and the log."""
    return ([[f[0], f[1], dict(f[2])] for f in state.stack], list(state.values),
            [a.to_json() for a in state.history()], [str(e) for e in state.log()])


def _straight(game: Game, seed: int, tracing: bool) -> tuple[Any, list[Any]]:
    """A seeded random game played with apply_action alone: its record, and its actions."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing=tracing)
    actions = []
    while not state.is_terminal() and len(actions) < 300:
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return _deep(state), actions


def _mixed(game: Game, actions: list[Any], seed: int, tracing: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``actions`` applied in a mix chosen by ``seed``: apply_action, child, clone then apply_action,
    each now and then after the same action failed part-way (the step limit made small, so that the
    machine stops after 1, 2, ... dispatches, in any frame) on the state or on a child. A failed
    action must leave the state as it was; a child must leave its parent as it was, and the parent
    whatever the child then plays. Answers the final state's record."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing=tracing)
    parents: list[tuple[State, Any]] = []
    for action in actions:
        if rng.random() < 0.3:
            before = _deep(state)
            for limit in range(1, 12):
                monkeypatch.setattr(machine_module, "STEP_LIMIT", limit)
                try:
                    (state.child if rng.random() < 0.3 else state.apply_action)(action)
                except SpecRuntimeError as exc:
                    assert "endless loop" in str(exc)
                    assert _deep(state) == before
                else:
                    break
            monkeypatch.setattr(machine_module, "STEP_LIMIT", 2_000_000)
            if _deep(state) != before:  # it went through, with a limit large enough: once more from there
                continue
        way = rng.randrange(3)
        if way == 0:
            state.apply_action(action)
        elif way == 1:
            parents.append((state, _deep(state)))
            state = state.child(action)
        else:
            state = state.clone()
            state.apply_action(action)
    for parent, seen in parents:
        assert _deep(parent) == seen
    return _deep(state)


@pytest.mark.parametrize("tracing", [False, True])
def test_nested_returns_play_as_the_interpreter(nested: Game, tracing: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks and the interpreter alone play the same games; play's own loop too, which takes
    the actions in place when not tracing, and through State._advance when tracing."""
    compiled = [_straight(nested, seed, tracing)[0] for seed in range(6)]
    played = [ghostrules.play(nested, seed=seed, tracing=tracing) for seed in range(6)]
    other = [ghostrules.play(nested, seed=seed, tracing=not tracing) for seed in range(6)]
    assert [_deep(s)[:3] for s in played] == [_deep(s)[:3] for s in other]
    _interpreted(nested, monkeypatch)
    assert [_straight(nested, seed, tracing)[0] for seed in range(6)] == compiled
    assert [_deep(ghostrules.play(nested, seed=seed, tracing=tracing)) for seed in range(6)] == \
        [_deep(s) for s in played]
    assert max(len(record[2]) for record in compiled) > 20


@pytest.mark.parametrize("interpreted", [False, True])
@pytest.mark.parametrize("tracing", [False, True])
def test_mixes_of_child_clone_and_failed_actions_play_the_same_game(nested: Game, interpreted: bool, tracing: bool,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game played with a mix of apply_action, child, clone and actions that fail part-way
    ends where the same actions applied one by one end."""
    if interpreted:
        _interpreted(nested, monkeypatch)
    for seed in range(8):
        record, actions = _straight(nested, seed, tracing)
        assert _mixed(nested, actions, 100 + seed, tracing, monkeypatch) == record


def test_a_failed_action_after_nested_returns_restores_every_frame(nested: Game,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """At a decision three frames deep, the action fails after every number of dispatches until it
    goes through: the stack (each frame's pc and locals) and the values are as before each time."""
    failures = deepest = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = nested.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 120:
            action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            deepest = max(deepest, len(state.stack))
            before = _deep(state)
            limit = 1
            while True:
                monkeypatch.setattr(machine_module, "STEP_LIMIT", limit)
                try:
                    state.apply_action(action)
                    break
                except SpecRuntimeError:
                    failures += 1
                    assert _deep(state) == before
                limit += 1
            monkeypatch.setattr(machine_module, "STEP_LIMIT", 2_000_000)
    assert deepest >= 4 and failures > 100
