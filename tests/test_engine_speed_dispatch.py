"""The machine's dispatch made cheaper (engine/blocks.py, engine/machine.py) does what it did:

* a block calls a recursive procedure directly while the stack is shallow (``blocks.CALL_DEPTH``),
  and deeper hands the callee's frame to the interpreter: the same games and logs whatever the
  depth, and an endless recursion still meets the machine's step limit, naming its rule;
* a ``move`` compiled into the blocks checks, writes, undoes and traces as ``Machine._move`` does.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import blocks as blocks_module
from ghostrules.engine import machine as machine_module
from ghostrules.engine.game import Game, sample_chance
from ghostrules.spec.loader import load_spec

FIXTURES = Path(__file__).parent / "fixtures" / "specs"


def _record(game: Game, seed: int, max_actions: int = 400) -> tuple:
    """One seeded game, traced: its actions, its log, its final state and the most frames its stack
    held at a node."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing=True)
    steps = 0
    depth = 0
    while not state.is_terminal() and steps < max_actions:
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
        depth = max(depth, len(state.stack))
        steps += 1
    return [a.to_json() for a in state.history()], [str(e) for e in state.log()], state.to_json(), depth


@pytest.mark.parametrize("depth", [1, 3, 5])
def test_recursive_calls_play_the_same_at_any_depth(depth: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ghost Stories' procedures that bring ghosts call each other (bring_ghost -> place_ghost ->
    event:ghost_enters -> ... -> bring_ghost). Compiled with the depth of direct calls made small,
    so that the interpreter takes over the deeper calls, the games and logs are the usual ones."""
    params = {"players": 4, "level": "initiation", "edition": "el"}
    usual = ghostrules.load_game("ghost-stories", **params)
    monkeypatch.setattr(blocks_module, "CALL_DEPTH", depth)
    shallow = Game(load_spec("ghost-stories", **params))
    deepest = 0
    for seed in range(3):
        record = _record(shallow, seed)
        assert record == _record(usual, seed)
        deepest = max(deepest, record[-1])
    assert deepest > depth  # the interpreter took over some calls


def _endless_toy(tmp_path: Path) -> Path:
    """The toy game whose setup calls ``spin``, which sets a slot and calls itself, forever."""
    root = tmp_path / "specs"
    shutil.copytree(FIXTURES / "toy", root / "toy")
    core = root / "toy" / "rules" / "core.yaml"
    text = core.read_text(encoding="utf-8")
    old = "      - set: {active: ann}\n"
    assert text.count(old) == 1
    text = text.replace(old, old + "      - call: spin\n")
    text += ("  - id: T-SPIN\n"
             "    text: Spin forever.\n"
             "    procedure: spin\n"
             "    do:\n"
             "      - set: {active: bob}\n"
             "      - call: spin\n")
    core.write_text(text, encoding="utf-8")
    return root


def test_an_endless_recursion_meets_the_step_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A procedure that calls itself with no node on the way: the blocks call it directly as far as
    CALL_DEPTH frames, then the interpreter goes on, until the step limit names the rule."""
    game = Game(load_spec("toy", root=_endless_toy(tmp_path)))
    monkeypatch.setattr(machine_module, "STEP_LIMIT", 5000)
    for tracing in (False, True):
        with pytest.raises(SpecRuntimeError, match="endless loop") as info:
            game.new_initial_state(tracing=tracing)
        assert info.value.rule_id == "T-SPIN"
