"""The symbolic execution of the specs' statements (ghostrules/prover/unroll.py, witness.py).

1. Differential: from a scenario's position, the statements run with the engine's own actions at
   its nodes reach the node where the engine paused, with the same values (or the same end):
   a second reading of every statement kind (set, move, if, for, let, call, emit and the
   dispatch order of triggers, decisions, draws, rolls, end) checked against the compiled engine,
   with every expression through the Z3 encoder on a few lines and through the engine's closures
   (for concrete parts) on many.
2. Bounded questions on the toy race: a witness that the engine replays, and a proof of
   impossibility by exhausting every path within k.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ghostrules
from ghostrules.engine.game import sample_chance
from ghostrules.prover.bounded import Question, replay, report
from ghostrules.prover.witness import answer, follow, scenario_start
from ghostrules.spec import load_spec

FIXTURES = Path(__file__).parent / "fixtures" / "specs"
STARTS = {
    "gs-4p-initiation-el": "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n",
    "gs-2p-hell-hu": "game: ghost-stories\nplayers: 2\nlevel: hell\nedition: hu\n",
    "gs-1p-nightmare-el": "game: ghost-stories\nplayers: 1\nlevel: nightmare\nedition: el\n",
    "betrayal-4p": "game: betrayal\nplayers: 4\n",
}
_STARTED: dict[str, tuple] = {}


def _start(name: str) -> tuple:
    if name not in _STARTED:
        _STARTED[name] = scenario_start(STARTS[name])
    return _STARTED[name]


def _line(start: ghostrules.State, seed: int, length: int) -> tuple[ghostrules.State, list[tuple[int, ...]]]:
    rng = random.Random(seed)
    s = start.clone()
    keys = []
    for _ in range(length):
        if s.is_terminal():
            break
        a = sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        keys.append(a.key)
        s.apply_action(a)
    return s, keys


def _agree(name: str, seed: int, length: int, closures: bool) -> None:
    game, values, procedure, start = _start(name)
    engine, keys = _line(start, seed, length)
    got, where, result = follow(game, values, procedure, keys, closures=closures)
    node = engine._node()
    assert where == ((node.where.file, node.where.line) if node is not None else None)
    assert result == (engine.outcome().result if engine.is_terminal() else None)
    diffs = [(game.layout.name_of(i), a, b) for i, (a, b) in enumerate(zip(got, engine.values)) if a != b]
    assert not diffs, diffs[:5]


@settings(max_examples=160, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(STARTS)), seed=st.integers(0, 10_000), length=st.integers(1, 160))
def test_statements_agree_with_the_engine(name: str, seed: int, length: int) -> None:
    _agree(name, seed, length, closures=True)


@pytest.mark.parametrize("name,seed,length", [("gs-4p-initiation-el", 3, 12), ("betrayal-4p", 5, 10)])
def test_statements_in_z3_alone_agree_with_the_engine(name: str, seed: int, length: int) -> None:
    """Every expression through the Z3 encoder (no engine closure): the Z3 transition evaluated
    at concrete positions gives the engine's result."""
    _agree(name, seed, length, closures=False)


# ---- bounded questions on the toy race (target 3: a turn takes at most 2 stones) -----------------

TOY = ghostrules.Game(load_spec("toy", root=FIXTURES))


def _toy(goal: str, turns: int, **kw) -> tuple:
    q = Question(text=goal, goal=goal, turn="active", turns=turns, **kw)
    start = TOY.state_at("turn")
    return answer(TOY, TOY.layout.initial_values(), "turn", start, q), start, q


def test_toy_win_within_two_turns_is_impossible() -> None:
    got, _, _ = _toy("result == win", 2)
    assert got.status == "impossible" and not got.pruned and got.expanded > 1 and got.faults == 0


def test_toy_win_within_three_turns_has_a_witness_the_engine_replays() -> None:
    got, start, q = _toy("result == win", 3)
    assert got.status == "witness"
    end = replay(start, got.actions)
    assert end.is_terminal() and end.outcome().result == "win"
    # its probability given its decisions: the product of its rolls' chances, as the engine has them
    s, p = start.clone(), Fraction(1)
    for a in got.actions:
        if s.is_chance_node():
            p *= dict((o.label, pr) for o, pr in s.chance_outcomes())[a]
        s.apply_action(a)
    assert got.probability == p and 0 < p < 1
    assert end.get("stock", "ann") >= 3 or end.get("stock", "bob") >= 3


def test_toy_condition_goal_and_a_fixed_decision() -> None:
    # ann can hold 2 stones after her first turn...
    got, _, _ = _toy("stock[ann] >= 2", 1)
    assert got.status == "witness" and got.actions == ["d3: two", "take two"]
    # ...but not if every decision is "pass": exhausted for that decision only, so no proof
    got, start, q = _toy("stock[ann] >= 1", 1, decide=("pass",))
    assert got.status == "impossible" and got.pruned
    assert report(q, got, start, "", "toy", [], None, "toy", "1 turn")["status"] == "unknown"
    # more than 2 in one turn is impossible
    got, _, _ = _toy("stock[ann] >= 3", 1)
    assert got.status == "impossible"


def test_a_recorded_value_uses_the_constants_pinned_after_it() -> None:
    """A trail value over a chance constant pinned later (and so absent from the path condition
    and the model) is read with the pinned value, not the model's default 0."""
    import z3

    from ghostrules.prover.witness import _alone, _model_value
    a, b = z3.Int("c1x"), z3.Int("c2x")
    s = z3.Solver()
    s.add(b == 4)
    assert s.check() == z3.sat
    m = s.model()
    assert _model_value(m, a + b, {"c1x": 3}) == 7
    assert _model_value(m, a == 3, {"c1x": 3}) == 1
    assert _alone(m, [a == 3, a == 0, False], {"c1x": 3})
