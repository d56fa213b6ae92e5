"""The machine's dispatch made cheaper (engine/blocks.py, engine/machine.py) does what it did:

* a block calls a recursive procedure directly while the stack is shallow (``blocks.CALL_DEPTH``),
  and deeper hands the callee's frame to the interpreter: the same games and logs whatever the
  depth, and an endless recursion still meets the machine's step limit, naming its rule;
* a ``move`` compiled into the blocks checks, writes, undoes and traces as ``Machine._move`` does.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import blocks as blocks_module
from ghostrules.engine import machine as machine_module
from ghostrules.engine.game import Game, sample_chance
from ghostrules.spec.loader import load_spec
from toy_copies import toy_copy

CORE = "rules/core.yaml"


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
    old = "      - set: {active: ann}\n"
    spin = ("  - id: T-SPIN\n"
            "    text: Spin forever.\n"
            "    procedure: spin\n"
            "    do:\n"
            "      - set: {active: bob}\n"
            "      - call: spin\n")
    return toy_copy(tmp_path, (CORE, old, old + "      - call: spin\n"), (CORE, "rules:\n", "rules:\n" + spin))


def test_an_endless_recursion_meets_the_step_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A procedure that calls itself with no node on the way: the blocks call it directly as far as
    CALL_DEPTH frames, then the interpreter goes on, until the step limit names the rule."""
    game = Game(load_spec("toy", root=_endless_toy(tmp_path)))
    monkeypatch.setattr(machine_module, "STEP_LIMIT", 5000)
    for tracing in (False, True):
        with pytest.raises(SpecRuntimeError, match="endless loop") as info:
            game.new_initial_state(tracing=tracing)
        assert info.value.rule_id == "T-SPIN"


# ---- a move compiled into the blocks --------------------------------------------------------------

_TOY_MOVE = 'move: {n: "1 if f == one else 2", from: supply, to: "stock[active]", upto: true}'


def _toy_with_move(tmp_path: Path, move: str, stock_hi: int = 10) -> Game:
    """The toy game whose option "take {f}" makes ``move`` instead of its own, with a pool of gems
    kept per player (two in each player's supply) and each stock holding at most ``stock_hi``."""
    root = toy_copy(tmp_path, (CORE, _TOY_MOVE, move),
                    ("game.yaml", "  stock: {index: [player], range: [0, 10]}\n",
                     f"  stock: {{index: [player], range: [0, {stock_hi}]}}\n"
                     "  gem_supply: {index: [player], range: [0, 2], init: 2}\n"
                     "  gems: {index: [player], range: [0, 2]}\n"),
                    ("game.yaml", "  stones: {cells: [supply, stock], total: 10}\n",
                     "  stones: {cells: [supply, stock], total: 10}\n"
                     "  gems: {cells: [gem_supply, gems], per: player, total: 2}\n"))
    return Game(load_spec("toy", root=root))


def _take(game: Game, interpreted: bool, tracing: bool, monkeypatch: pytest.MonkeyPatch) -> tuple:
    """Roll a one and take it, in the compiled game or (``interpreted``) with its blocks removed:
    the error raised (message, rule, where; None when none), whether the state was left as it was
    then, and the log and values after."""
    with monkeypatch.context() as patch:
        if interpreted:
            patch.setattr(game.program, "blocks", [[None] * len(p.code) for p in game.program.procs])
        state = game.new_initial_state(tracing=tracing)
        state.apply_action("d3: one")
        before = (state.to_json(), state.clone())
        error = None
        try:
            state.apply_action("take one")
        except SpecRuntimeError as exc:
            error = (str(exc), exc.rule_id, exc.where)
            assert state.to_json() == before[0] and state == before[1]
        return error, [str(e) for e in state.log()], state.values[:]


@pytest.mark.parametrize("move,stock_hi,message", [
    ('move: {n: "stock[active] - 1", from: supply, to: "stock[active]"}', 10, r"a negative amount \(-1\)"),
    ('move: {n: -1, from: supply, to: "stock[active]", upto: true}', 10, r"a negative amount \(-1\)"),
    ('move: {n: -2, from: supply, to: "stock[active]"}', 10, r"a negative amount \(-2\)"),
    ('move: {n: 11, from: supply, to: "stock[active]"}', 10, r"cannot move 11 from supply: it holds 10"),
    ('move: {n: "stock[active] + 11", from: supply, to: "stock[active]"}', 10,
     r"cannot move 11 from supply: it holds 10"),
    ('move: {n: 2, from: supply, to: "stock[active]"}', 1, r"stock\[ann\] cannot take 2 more"),
    ('move: {n: "stock[active] + 2", from: supply, to: "stock[active]"}', 1, r"stock\[ann\] cannot take 2 more"),
    ('move: {n: all, from: supply, to: "stock[active]"}', 1, r"stock\[ann\] cannot take 10 more"),
    ('move: {n: 1, from: "gem_supply[active]", to: "gems[bob]"}', 10, r"move between different kinds of gems"),
    ('move: {n: 5, from: "gem_supply[active]", to: "gems[bob]", upto: true}', 10,
     r"move between different kinds of gems"),
])
def test_a_compiled_move_fails_as_the_interpreted_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, move: str,
                                                      stock_hi: int, message: str) -> None:
    """A move beyond what the source holds or the target takes, of a negative amount, or between
    different kinds of a pool kept per kind: the blocks raise the error Machine._move raises, naming
    the same rule and line, and apply_action leaves the state as it was."""
    game = _toy_with_move(tmp_path, move, stock_hi)
    for tracing in (False, True):
        compiled = _take(game, False, tracing, monkeypatch)
        assert compiled == _take(game, True, tracing, monkeypatch)
        assert compiled[0] is not None and compiled[0][1] == "T-TURN"
        assert re.search(message, compiled[0][0])


@pytest.mark.parametrize("move,stock_hi,moved", [
    (_TOY_MOVE, 10, 1),
    ('move: {n: "stock[active] + 1", from: supply, to: "stock[active]"}', 10, 1),
    ('move: {n: 0, from: supply, to: "stock[active]"}', 10, 0),
    ('move: {n: "stock[active]", from: supply, to: "stock[active]"}', 10, 0),
    ('move: {n: 3, from: supply, to: "stock[active]", upto: true}', 2, 2),
    ('move: {n: all, from: supply, to: "stock[active]", upto: true}', 4, 4),
    ('move: {n: all, from: supply, to: "stock[active]"}', 10, 10),
    ('move: {n: 5, from: "gem_supply[active]", to: "gems[active]", upto: true}', 10, 0),
    ('move: {n: 1, from: "gem_supply[active]", to: "gems[active]"}', 10, 0),
])
def test_a_compiled_move_moves_and_traces_as_the_interpreted_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 move: str, stock_hi: int, moved: int) -> None:
    """Moves that can be made (a constant, computed, missing or ``upto`` amount, none at all, within a
    kind): the same values and, traced, the same log as the interpreter's."""
    game = _toy_with_move(tmp_path, move, stock_hi)
    for tracing in (False, True):
        compiled = _take(game, False, tracing, monkeypatch)
        assert compiled == _take(game, True, tracing, monkeypatch)
        assert compiled[0] is None
        layout = game.layout
        assert compiled[2][layout.index("stock", "ann")] == moved
        assert compiled[2][layout.index("supply")] == 10 - moved
