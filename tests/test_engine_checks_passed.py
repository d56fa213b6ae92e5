"""Range checks in definitions' bodies (engine/passed.py): a parameter's check that one of the same
parameter against the same or a smaller size passed before, on every path, is left out; a check of a
computed value (a slot that may hold ``none``, or more values than the index takes) stays, written in
place (``(_cv if 0 <= (_cv := x) < n else _bad(k))``) instead of a call of ``_ck`` outside comprehensions. Each definition
gives the same value, or the same error (same message), as the plain compile, for every argument
and on states with ``none`` and out-of-range indices in the slots read."""

from __future__ import annotations

import ast
import itertools
import random
import re
from typing import Any

import pytest
from speed_helpers import spec_game

import ghostrules
from ghostrules.engine.compile_expr import ExprCompiler
from ghostrules.engine.errors import SpecRuntimeError
from ghostrules.engine.hoist import remembered
from ghostrules.engine.passed import CHECKED, checks_in_place, checks_passed_left_out
from ghostrules.spec import expr as E
from ghostrules.spec.model import Where

_GAME = """\
game: passedchecks
title: Checks passed before
players: player
flow: {setup: setup, turn: turn}
domains:
  player: [ann]
  seat: [s1, s2, s3, s4]
  place: {union: [seat, [p5, p6]]}
state:
  at: {index: [seat], type: place}
  score: {index: [seat], range: [0, 99]}
  stock: {index: [place], range: [0, 9]}
  flag: {index: [seat], type: bool}
"""

_RULES = """\
family: core
title: Core
rules:
  - id: C-TWICE
    text: A parameter checked twice.
    define: twice
    params: {s: seat}
    value: "score[s] * 2 + (1 if flag[s] else 0)"
  - id: C-NARROW
    text: Checked against 4 places, then against 6.
    define: narrow_first
    params: {p: place}
    value: "score[p] + stock[p]"
  - id: C-WIDE
    text: Checked against 6 places, then against 4 (the second check stays).
    define: wide_first
    params: {p: place}
    value: "stock[p] + score[p]"
  - id: C-BRANCH
    text: The first check only on one path (the second stays).
    define: branch
    params: {s: seat, b: bool}
    value: "(b and flag[s]) or score[s] > 0"
  - id: C-SLOT
    text: An index read from a slot that may hold none, or a place no seat is (the check stays).
    define: seat_score
    params: {s: seat}
    value: "score[at[s]] + stock[at[s]]"
  - id: C-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {"score[s1]": 0}
  - id: C-TURN
    text: The end.
    procedure: turn
    do:
      - end: win
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> ghostrules.Game:
    return spec_game(tmp_path_factory.mktemp("passed"), "passedchecks", _GAME, _RULES)


def _body(exprs: ExprCompiler, name: str) -> str:
    fname, _ = exprs._define_body(name)
    return next(src for src in exprs.sources if src.startswith(f"def {fname}("))


def _checks(source: str, param: str) -> int:
    return len(re.findall(rf"\b{param} if 0 <= {param} < \d+ else _bad\(", source))


def test_a_check_passed_before_is_left_out(game: ghostrules.Game) -> None:
    exprs = game.program.exprs
    assert _checks(_body(exprs, "twice"), "a0") == 1
    assert _checks(_body(exprs, "narrow_first"), "a0") == 1  # (4, then 6: passed)


def test_a_check_that_may_fail_stays(game: ghostrules.Game) -> None:
    exprs = game.program.exprs
    assert _checks(_body(exprs, "wide_first"), "a0") == 2  # (6, then 4: p5 passes the first)
    assert _checks(_body(exprs, "branch"), "a0") == 2  # (the first only when b)
    slot = _body(exprs, "seat_score")  # at[s] may be none, or p5: both its reads are checked
    assert "_ck(" not in slot and slot.count("(_cv := v[") == 2 and slot.count("else _bad(") == 3


def _plain(game: ghostrules.Game) -> ExprCompiler:
    return ExprCompiler(game.spec, game.layout, optimise=False)


def _outcome(fn: Any, values: list[int], args: tuple[int, ...]) -> tuple[str, Any]:
    try:
        return "value", fn(values, *args)
    except (SpecRuntimeError, IndexError) as exc:
        return type(exc).__name__, str(exc)


def _arguments(layout: Any, params: Any) -> list[tuple[int, ...]]:
    ranges = [range(2) if t == "bool" else range(-1, 6) if t == "int" else range(-1, len(layout.domains[t].symbols))
              for _, t in params]
    return list(itertools.product(*ranges))


def _states(layout: Any, rng: random.Random, n: int) -> list[list[int]]:
    """Random values within the declared ranges, domain slots often ``none``."""
    out = []
    for _ in range(n):
        out.append([lo if lo < 0 and rng.random() < 0.3 else rng.randint(lo, hi)
                    for lo, hi in zip(layout.lows, layout.highs)])
    return out


def _compare(game: ghostrules.Game, names: Any, states: int, most: int) -> int:
    """Compares each definition's function, and an expression calling it (in place when it is small),
    with the plain compile's."""
    fast, plain = game.program.exprs, _plain(game)
    rng = random.Random(11)
    compared = 0
    for name in names:
        params = fast.defines[name].params
        call = E.Call(name, tuple(E.Name(p) for p, _ in params)) if params else E.Name(name)
        f1 = fast._ns[fast._define_body(name)[0]]
        f2 = plain._ns[plain._define_body(name)[0]]
        g1 = fast.compile(call, dict(params), Where("<test>", 1), name)[0]
        g2 = plain.compile(call, dict(params), Where("<test>", 1), name)[0]
        args = _arguments(game.layout, params)
        if len(args) > most:
            args = rng.sample(args, most)
        for values in _states(game.layout, rng, states):
            for a in args:
                assert _outcome(f1, values, a) == _outcome(f2, values, a), (name, a)
                local = {p: x for (p, _), x in zip(params, a)}
                assert _outcome(g1, values, (local,)) == _outcome(g2, values, (local,)), (name, a)
                compared += 1
    return compared


def test_same_values_and_errors_as_the_plain_compile(game: ghostrules.Game) -> None:
    names = ["twice", "narrow_first", "wide_first", "branch", "seat_score"]
    assert _compare(game, names, 40, 100) > 1000


@pytest.mark.parametrize("name, params", [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
                                          ("betrayal", {"players": 4})])
def test_every_definition_of_the_games_agrees_with_the_plain_compile(name: str, params: dict) -> None:
    game = ghostrules.load_game(name, **params)
    names = [n for n, d in game.program.exprs.defines.items() if d.value is not None]
    assert _compare(game, names, 12, 30) > 2000


@pytest.mark.parametrize("code, expected", [
    ("_k1[(a0 if 0 <= a0 < 4 else _bad(_k2))] + _k3[(a0 if 0 <= a0 < 4 else _bad(_k4))]",
     "_k1[(a0 if 0 <= a0 < 4 else _bad(_k2))] + _k3[(a0)]"),
    # the right of ``and``, a branch, a comprehension's body: no check there counts for what follows
    ("(v[0] and _k1[(a0 if 0 <= a0 < 4 else _bad(_k2))]) + _k3[(a0 if 0 <= a0 < 4 else _bad(_k4))]", None),
    ("(_k1[(a0 if 0 <= a0 < 4 else _bad(_k2))] if v[0] else 0) + _k3[(a0 if 0 <= a0 < 4 else _bad(_k4))]", None),
    ("any(True for _q1 in range(v[0]) if _k1[(a0 if 0 <= a0 < 4 else _bad(_k2))]) + "
     "_k3[(a0 if 0 <= a0 < 4 else _bad(_k4))]", None),
    # a check against more values does not stand for one against fewer
    ("_k1[(a0 if 0 <= a0 < 6 else _bad(_k2))] + _k3[(a0 if 0 <= a0 < 4 else _bad(_k4))]", None),
    # another parameter, a local: not the same value
    ("_k1[(a1 if 0 <= a1 < 4 else _bad(_k2))] + _k3[(a0 if 0 <= a0 < 4 else _bad(_k4))]", None),
])
def test_which_parameter_checks_are_left_out(code: str, expected: str | None) -> None:
    assert checks_passed_left_out(code) == (expected or code)


def test_checks_in_place_keep_the_call_in_a_comprehension() -> None:
    code = "_k1[_ck(v[3], 4, _k2)] + sum(1 for _q1 in _k5[_ck(v[4], 2, _k6)] if _k7[_ck(v[_q1], 3, _k8)])"
    out = checks_in_place(code)
    assert out.count("_ck(") == 2 and "_ck(v[4], 2, _k6)" in out and "_ck(v[_q1], 3, _k8)" in out
    assert "(_cv := v[3])" in out
    compile(f"def _d1(v, a0):\n    return {out}\n", "<test>", "exec")


def _checks_whole(code: str) -> bool:
    """Is every assignment of ``_cv`` in ``code`` the test of a check that reads it right after?"""
    tree = ast.parse(code, mode="eval")
    whole = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Name) and node.body.id == CHECKED and \
                isinstance(node.test, ast.Compare) and isinstance(node.test.comparators[0], ast.NamedExpr):
            whole.add(id(node.test.comparators[0]))
    return all(id(node) in whole for node in ast.walk(tree) if isinstance(node, ast.NamedExpr)
               and node.target.id == CHECKED)


def test_a_check_in_place_is_remembered_whole_or_not_at_all() -> None:
    """A decision's guards share their costly parts (hoist.remembered); the comparison of a check
    written in place is not one alone: another check in between could change ``_cv`` before the read."""
    inner = "_k1[v[3] + v[4] * v[5] + v[6] * v[7] + v[8] * v[9]]"
    check = checks_in_place(f"_ck({inner}, 4, _k2)")
    other = checks_in_place("_ck(v[_k1[v[10] + v[11] * v[12] + v[13] * v[14]]], 4, _k2)")
    codes = [f"_k3[{check}] + _k3[{other}] > 0", f"_k3[{check}] == 1", f"(0 <= (_cv := {inner}) < 4) and v[0]"]
    out = remembered(codes, lambda n: n[:2] in ("_k", "_b"), iter(["_w0", "_w1", "_w2"]).__next__, "_K0")
    assert out[:2] != codes[:2]  # (something is shared) ...
    assert all(_checks_whole(code) for code in out[:2])  # ... never a check's comparison alone
