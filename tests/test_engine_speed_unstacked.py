"""Direct calls made cheaper (engine/blocks.py, ``_Writer.call``) do what they did:

* with tracing off, the frame of a callee that reaches no recursive procedure is put on the stack
  only when the callee stops (a decision or a chance node below it) or fails, and the frames of
  its callers under it as they return (``-2 - m``) or as the error passes them
  (``blocks._callee_failed``); a callee whose start block can only return is called without a
  frame on the stack at all;
* a caller's own pc is set to the instruction after the call only when the callee stops or fails.

At every node, after every error, and after a failing run outside ``apply_action``, the stack holds
the frames and pcs the interpreter leaves (the game with its blocks removed), and the error is the
same, naming the same rule and line; traced, the log is the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from toy_copies import toy_copy

from ghostrules import SpecRuntimeError
from ghostrules.engine.game import Game, sample_chance
from ghostrules.engine.state import State
from ghostrules.spec.loader import load_spec

CORE = "rules/core.yaml"

# deep (recursive: its calls keep their frames) -> outer -> middle (may decide: not pause free) -> inner
# (pause free), and inner fails once a player's count passes 2
_RULES = """\
  - id: T-DEEP
    text: Deep.
    procedure: deep
    params: {p: player, n: int}
    do:
      - if: "n > 0"
        then:
          - call: deep
            with: {p: p, n: "n - 1"}
        else:
          - call: outer
            with: {p: p}
  - id: T-OUTER
    text: Outer.
    procedure: outer
    params: {p: player}
    do:
      - call: middle
        with: {p: p}
      - say: "{p} is done"
  - id: T-MIDDLE
    text: Middle.
    procedure: middle
    params: {p: player}
    do:
      - if: "supply < 8"
        then:
          - choose: one more?
            by: p
            options:
              - label: one more
                do:
                  - call: inner
                    with: {p: p}
              - label: no more
      - call: inner
        with: {p: p}
  - id: T-INNER
    text: Inner.
    procedure: inner
    params: {p: player}
    do:
      - say: "{p} counts"
      - set: {"count[p]": "count[p] + 1"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The toy game whose option "take" calls ``deep`` (its depth 0 or 1 by the die), and whose setup
    calls ``outer``."""
    take = '              - move: {n: "1 if f == one else 2", from: supply, to: "stock[active]", upto: true}\n'
    root = toy_copy(tmp_path_factory.mktemp("toy"),
                    (CORE, "rules:\n", "rules:\n" + _RULES),
                    (CORE, "      - set: {active: ann}\n",
                     "      - set: {active: ann}\n      - call: outer\n        with: {p: bob}\n"),
                    (CORE, take, take + '              - call: deep\n'
                                        '                with: {p: active, n: "1 if f == two else 0"}\n'),
                    ("game.yaml", "  active: {type: player, init: ann}\n",
                     "  active: {type: player, init: ann}\n  count: {index: [player], range: [0, 2]}\n"))
    return Game(load_spec("toy", root=root, target=3))


def _interpreted(game: Game) -> Any:
    """A patch that removes the game's blocks: the interpreter runs every instruction."""
    return [[None] * len(p.code) for p in game.program.procs]


def _frames(state: State) -> list:
    return [[f[0], f[1], dict(f[2])] for f in state.stack]


def _play(game: Game, seed: int, tracing: bool) -> list:
    """A seeded random game, recorded at every step (the stack and the values) and at its end: the
    error of the action that failed (message, rule, line) and whether it left the state unchanged,
    and the log."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing=tracing)
    record: list = [_frames(state)]
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        before = (state.to_json(), _frames(state))
        try:
            state.apply_action(action)
        except SpecRuntimeError as exc:
            record.append((str(exc), exc.rule_id, exc.where, state.to_json() == before[0],
                           _frames(state) == before[1]))
            break
        record.append((_frames(state), state.values[:]))
    record.append([str(e) for e in state.log()])
    return record


@pytest.mark.parametrize("tracing", [False, True])
def test_games_keep_the_interpreters_frames(game: Game, tracing: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded games (some end in errors raised deep in the calls): the same stacks at every node, the
    same errors, the state unchanged after each, the same log, as the interpreter's."""
    compiled = [_play(game, seed, tracing) for seed in range(30)]
    with monkeypatch.context() as patch:
        patch.setattr(game.program, "blocks", _interpreted(game))
        interpreted = [_play(game, seed, tracing) for seed in range(30)]
    assert compiled == interpreted
    errors = [step for record in compiled for step in record if type(step) is tuple and len(step) == 5]
    assert errors and all(step[1] == "T-INNER" and step[3] and step[4] for step in errors)
    assert any(len(step[0]) >= 4 for record in compiled for step in record if type(step) is tuple and len(step) == 2)


@pytest.mark.parametrize("start,args", [("inner", {"p": "ann"}), ("middle", {"p": "ann"}), ("outer", {"p": "bob"}),
                                        ("deep", {"p": "ann", "n": 0}), ("deep", {"p": "ann", "n": 3})])
@pytest.mark.parametrize("tracing", [False, True])
def test_a_failing_run_leaves_the_interpreters_frames(game: Game, start: str, args: dict, tracing: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that fails outside ``apply_action`` (the counts full, the supply too full to decide):
    the error and the frames it leaves, each at the pc the interpreter leaves it at, are the
    interpreter's."""
    def run() -> tuple:
        values = game.layout.initial_values()
        for p in ("ann", "bob"):
            values[game.layout.index("count", p)] = 2
        proc = game.program.by_name[start]
        local = {name: game._argument(start, name, type_, args[name]) for name, type_ in proc.params}
        state = State(game, values, [[proc.index, 0, local]], tracing)
        with pytest.raises(SpecRuntimeError) as info:
            state._run()
        return str(info.value), info.value.rule_id, info.value.where, _frames(state), [str(e) for e in state.log()]

    compiled = run()
    with monkeypatch.context() as patch:
        patch.setattr(game.program, "blocks", _interpreted(game))
        assert compiled == run()
    assert compiled[1] == "T-INNER" and len(compiled[3]) == {"inner": 1, "middle": 2, "outer": 3}.get(start, 4 + args.get("n", 0))


def test_the_calls_are_unstacked(game: Game) -> None:
    """The calls of outer, middle and inner leave the frame off the stack (tracing off); inner's
    start block can only return, so its callers do not even ask."""
    source = "".join(game.program.exprs.block_sources)
    by = game.program.by_name
    assert "_S.stack.insert(" in source
    for name in ("outer", "middle", "inner"):
        assert f"if not tracing:\n" in source and f"_b{by[name].index}_0(_S, v, _c, tracing)" in source
    assert f"    _b{by['inner'].index}_0(_S, v, _c, tracing)\n" in source
