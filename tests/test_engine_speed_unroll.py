"""Quantifiers written out: a quantifier over a few values known when compiling (a small domain, the
values a table leaves, a list of literals) is compiled once for each value and written with no
loop (engine/compile_expr.py ``_written_out``, engine/unroll.py). These tests check that such
quantifiers give the same value (True/False where the comprehension gives them, ints as ints), or
the same error, as the plain comprehensions (``optimise=False``) on random values, including errors
that only a value after a short-circuit reaches, and that they are written out indeed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from speed_helpers import spec_game

from ghostrules.engine import unroll
from ghostrules.engine.compile_expr import ExprCompiler
from ghostrules.engine.errors import SpecRuntimeError
from ghostrules.spec import expr as E
from ghostrules.spec.model import Where

_GAME = """\
game: unrolled
title: Quantifiers over a few known values
players: player
flow: {setup: setup, turn: turn}
domains:
  player: [ann, bob, cat]
  spot: [s1, s2, s3, s4]
state:
  owner: {index: [spot], type: player}
  home: {index: [player], type: spot}
  n: {index: [spot], range: [0, 5]}
  mark: {index: [player], type: bool}
  r: {range: [0, 99]}
tables:
  good:
    args: [spot]
    type: bool
    pairs: [[s1], [s3], [s4]]
"""

_RULES = """\
family: core
title: Core
definitions:
  - name: any_low
    params: {p: player}
    value: "exists(s in spot if n[s] + 0 < 2 and owner[s] == p)"
  - name: all_marked
    value: "forall(s in spot: mark[owner[s]])"
  - name: all_marked_if
    params: {k: int}
    value: "forall(s in spot if n[s] + 0 > k: mark[owner[s]] or n[s] == 5)"
  - name: count_marked
    value: "count(s in spot if n[s] + 0 > 0 and mark[owner[s]])"
  - name: count_all
    value: "count(p in player if true)"
  - name: sum_good
    params: {k: int}
    value: "sum(s in spot if good[s] and n[s] + 0 >= k : n[s] * 2 - k)"
  - name: sum_homes
    value: "sum(p in player : n[home[p]])"
  - name: first_free
    value: "first(s in spot if good[s] and owner[s] == none)"
  - name: first_listed
    params: {k: int}
    value: "first(s in [s2, s4, s1] if n[s] + 0 >= k)"
  - name: first_marked
    value: "first(p in player if mark[p] and n[home[p]] > 1)"
  - name: least
    params: {k: int}
    value: "min(s in spot : n[s] - k)"
  - name: most_at_home
    value: "max(p in player : n[home[p]])"
  - name: nested
    params: {k: int}
    value: "count(p in player if exists(s in spot if n[s] + 0 > k and owner[s] == p))"
  - name: flags
    params: {p: player}
    value: "count(b in bool if b or mark[p])"
  - name: listed_flags
    params: {p: player}
    value: "exists(b in [false, true] if b and mark[p])"
  - name: owned_by
    params: {p: player}
    value: "forall(s in [s1, s3] : owner[s] != p and (p == none or mark[p]))"
rules:
  - id: U-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {r: 0}
  - id: U-TURN
    text: Nothing to do.
    procedure: turn
    do:
      - set: {r: "count_marked"}
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: Any) -> tuple[Any, dict[str, tuple[Any, Any, list[tuple[str, str]]]]]:
    """(layout, {definition: (optimised fn, plain fn, params)})."""
    game = spec_game(tmp_path_factory.mktemp("unrolled"), "unrolled", _GAME, _RULES)
    fast = ExprCompiler(game.spec, game.layout)
    plain = ExprCompiler(game.spec, game.layout, optimise=False)
    fns = {}
    for name, d in fast.defines.items():
        call = E.Call(name, tuple(E.Name(p) for p, _ in d.params)) if d.params else E.Name(name)
        before = len(plain.sources)
        f1, _ = fast.compile(call, dict(d.params), Where("<test>", 1), name)
        f2, _ = plain.compile(call, dict(d.params), Where("<test>", 1), name)
        assert " for " in "\n".join(plain.sources[before:]), name  # the plain form: a comprehension
        assert " for " not in f1.fast, (name, f1.fast)  # written out
        fns[name] = (f1, f2, list(d.params))
    return game.layout, fns


def _outcome(fn: Any, values: list[int], args: dict[str, int]) -> tuple[str, Any, type | None]:
    try:
        got = fn(values, dict(args))
        return "value", got, type(got)
    except (SpecRuntimeError, IndexError) as exc:
        return "error", f"{type(exc).__name__}: {exc}", None


def _values(layout: Any, wide: bool) -> st.SearchStrategy[list[int]]:
    """Value lists of the layout: each slot in its declared range, or (``wide``) a little outside it."""
    return st.tuples(*(st.integers(lo - 2 if wide else lo, hi + 2 if wide else hi)
                       for lo, hi in zip(layout.lows, layout.highs))).map(list)


@pytest.mark.parametrize("wide", [False, True], ids=["declared ranges", "outside them"])
def test_written_out_quantifiers_agree_with_plain_comprehensions(compiled: Any, wide: bool) -> None:
    """Every definition gives the plain comprehension's value (of the same type) or error, for
    every argument, on random value lists."""
    layout, fns = compiled

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(values=_values(layout, wide), k=st.integers(-1, 6))
    def check(values: list[int], k: int) -> None:
        for name, (fast, plain, params) in fns.items():
            for p in ([-1, 0, 1, 2, 3] if params and params[0][1] == "player" else [k]):
                args = {params[0][0]: p} if params else {}
                assert _outcome(fast, values, args) == _outcome(plain, values, args), (name, args)

    check()


def test_written_out_forms() -> None:
    """The forms of engine/unroll.py: the order of the values, a value that always passes ending
    exists and first, a value that never passes left out, constants only where nothing is evaluated."""
    c = unroll.condition
    assert c(["True", "a"]) == ["a"] and c(["False", "a"]) is None and c(["a", "False", "b"]) == ["a", "False"]
    cases: list[unroll.Case] = [("0", ["a", "b"], "x"), ("1", [], "y"), ("2", ["c"], "z")]
    assert unroll.exists(cases) == "(True if (a and b) or True else False)"
    assert unroll.exists([]) == "False" and unroll.exists([("0", [], None)]) == "True"
    assert unroll.forall(cases) == "(True if (not (a and b) or x) and y and (not c or z) else False)"
    assert unroll.forall([("0", [], "True"), ("1", [], "False"), ("2", ["c"], "z")]) == "False"
    assert unroll.count(cases) == "(1 + (1 if (a and b) else 0) + (1 if c else 0))"
    assert unroll.total(cases) == "((x if (a and b) else 0) + y + (z if c else 0))"
    assert unroll.total([("0", [], "x")]) == "(0 + x)"
    assert unroll.first(cases) == "(0 if (a and b) else 1)"
    assert unroll.first([("2", ["c"], None)]) == "(2 if c else (-1))"
    assert unroll.extreme("min", [("0", [], "x"), ("1", [], "y")]) == "min(x, y)"
    assert unroll.extreme("max", cases) is None and unroll.written_out("members", cases) is None
