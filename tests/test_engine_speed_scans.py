"""The scans of a run of slots (engine/runtime.py's ``_match``, ``_first``, ``_firsts``, ``_members``, ``nth``)
give what the plain loops over the run give, and a quantifier over such a run whose other conditions are
on the place alone (``exists``/``count(g in card if at[g] == deck and is_incarnation(g))``) is compiled
to a scan of the slots of the places that pass them (engine/compile_expr.py), with the same answers and
the same errors as the plain comprehension; and a test ``first(...) == none`` over such a run is
``t not in`` the run (compile_expr.fold_first_tests)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ghostrules
from ghostrules.engine.compile_expr import ExprCompiler, fold_first_tests
from ghostrules.engine.errors import SpecRuntimeError
from ghostrules.engine.runtime import _RUNTIME, _first, _firsts, _match, _members, nth
from ghostrules.spec.expr import parse
from ghostrules.spec.model import Where

# a slot's values: few distinct ones (so that runs have many hits, all hits or none), -1 (none) among them
_VALUES = st.integers(min_value=-1, max_value=3)
_SLOTS = st.lists(_VALUES, min_size=0, max_size=80)


def _run(v: list[int], offset: int, n: int) -> list[int]:
    return v[offset:offset + n]


@settings(max_examples=400, deadline=None)
@given(_SLOTS, st.integers(0, 80), st.integers(0, 80), _VALUES)
def test_match_and_first_give_the_places_a_plain_loop_gives(v: list[int], offset: int, n: int, x: int) -> None:
    n = min(n, max(len(v) - offset, 0))
    places = [k for k in range(n) if v[offset + k] == x]
    assert _match(v, offset, n, x) == places
    assert _first(v, offset, n, x) == (places[0] if places else -1)
    assert _firsts(v, offset, n) == {y: _run(v, offset, n).index(y) for y in _run(v, offset, n)}
    for j in range(len(places)):
        assert nth(_run(v, offset, n), x, len(places), j) == places[j]


@settings(max_examples=200, deadline=None)
@given(st.lists(_SLOTS, min_size=1, max_size=4), st.integers(0, 20), st.integers(0, 40))
def test_members_is_the_set_of_the_run_whatever_was_asked_before(runs: list[list[int]], a: int, n: int) -> None:
    for v in runs:  # the same run of slots asked again with other values: never the set kept of the old ones
        assert _members(v, a, a + n) == frozenset(v[a:a + n])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 69), _VALUES), max_size=12), st.integers(0, 4), _VALUES)
def test_first_of_a_long_run_written_between_lookups_is_that_of_its_values_now(
        writes: list[tuple[int, int]], offset: int, x: int) -> None:
    """_first keeps a long run's table of first places while the run holds the same values: a write to
    the same list (or another list) between two lookups is seen, whether the table was made or not."""
    v = [k % 3 for k in range(70)]
    for slot, value in writes:
        v[slot] = value
        n = 70 - offset
        run = v[offset:]
        for y in (x, -1, 0, 1, 2, 3, x):  # looked up again and again unchanged: found in its table
            assert _first(v, offset, n, y) == (run.index(y) if y in run else -1)
        w = list(v)
        w[slot] = 7
        assert _first(w, offset, n, 7) == (w[offset:].index(7) if 7 in w[offset:] else -1)


@pytest.mark.parametrize("x", [-1, 0, 2])
@pytest.mark.parametrize("n", [0, 1, 5, 31, 32, 65])
def test_match_with_all_hits_and_no_hits(x: int, n: int) -> None:
    v = [9] + [x] * n + [9]
    assert _match(v, 1, n, x) == list(range(n))
    assert _first(v, 1, n, x) == (0 if n else -1)
    w = [x] + [x + 1] * n + [x]
    assert _match(w, 1, n, x) == []
    assert _first(w, 1, n, x) == -1


@pytest.fixture(scope="module")
def compilers() -> tuple[ghostrules.Game, ExprCompiler, ExprCompiler]:
    game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
    return game, ExprCompiler(game.spec, game.layout), ExprCompiler(game.spec, game.layout, optimise=False)


# conditions on the place alone: one stretch of the run (the ghosts, the incarnations), places apart
# (every other card), none at all; and a target that can fail (c: none)
_TEXTS = [
    "exists(g in card if at[g] == deck and not is_incarnation(g))",
    "exists(g in card if at[g] == deck and is_incarnation(g))",
    "count(g in card if at[g] == deck and not is_incarnation(g))",
    "exists(g in card if at[g] == deck and card_number[g] % 2 == 0)",
    "count(g in card if at[g] == deck and card_number[g] % 3 == 1 and not is_incarnation(g))",
    "exists(g in card if at[g] == deck and card_number[g] > 1000)",
    "count(g in card if at[g] == deck and card_number[g] > 1000)",
    "exists(g in card if at[g] == at[c] and is_incarnation(g))",
    "count(g in card if at[g] == at[c] and card_number[g] % 2 == 1)",
]


@pytest.mark.parametrize("text", _TEXTS)
def test_a_scan_with_conditions_on_the_place_alone_agrees_with_the_plain_loop(
        text: str, compilers: tuple[ghostrules.Game, ExprCompiler, ExprCompiler]) -> None:
    game, fast, plain = compilers
    layout = game.layout
    scope = {"c": "card"}
    f1, t1 = fast.compile(parse(text), scope, Where("<test>", 1), "test")
    f2, t2 = plain.compile(parse(text), scope, Where("<test>", 1), "test")
    assert t1 == t2
    assert "_match" not in f1.fast and "any(" not in f1.fast and "sum(" not in f1.fast, f1.fast
    at = layout.slots["at"]
    places = layout.domains[at.var.type].symbols
    rng = random.Random(11)
    for i in range(300):
        values = [rng.randint(lo, hi) for lo, hi in zip(layout.lows, layout.highs)]
        share = rng.choice([0.0, 0.1, 0.9, 1.0])  # none, few, most or all of the cards in one place
        where = places.index("deck") if i % 3 == 0 else rng.randrange(-1, len(places))
        for k in range(at.count):
            if rng.random() < share:
                values[at.offset + k] = where
        c = rng.randrange(-1, at.count)
        results = []
        for fn in (f1, f2):
            try:
                results.append(("value", fn(values, {"c": c})))
            except SpecRuntimeError as exc:
                results.append(("error", str(exc)))
        assert results[0] == results[1], (text, c)
        assert type(results[0][1]) is type(results[1][1])


def test_a_test_of_first_against_none_is_folded_only_where_its_call_is_written_once() -> None:
    assert fold_first_tests("(_first(v, 9, 9, L['x']) == (-1))") == "(L['x'] not in v[9:18])"
    assert fold_first_tests("any(True for _q1 in range(4) if (_first(v, 2, 4, _q1) != (-1)))") == \
        "any(True for _q1 in range(4) if (_q1 in v[2:6]))"
    nested = "(_first(v, 0, 4, _k1[(_first(v, 9, 9, 8))]) == (-1))"
    assert fold_first_tests(nested) == "(_k1[(_first(v, 9, 9, 8))] not in v[0:4])"
    # written again: the call is kept for the hoisting of the common part
    again = "(_first(v, 9, 9, 8) != (-1)) and v[18 + _first(v, 9, 9, 8)]"
    assert fold_first_tests(again) == again
    assert fold_first_tests("(_first(v, 9, 9, 8) + 1)") == "(_first(v, 9, 9, 8) + 1)"


_FOLDED = [
    "(_first(v, 3, 9, L['x']) == (-1))",
    "(_first(v, 3, 9, L['x']) != (-1))",
    "(_first(v, 1, 40, _k1[L['x']]) == (-1))",  # an index that may be out of the table: the same error
    "[_q1 for _q1 in range(-1, 5) if (_first(v, 0, 5, _q1) == (-1))]",
    "(_first(v, 0, 5, _first(v, 5, 9, L['x'])) != (-1))",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(_VALUES, min_size=50, max_size=50), st.integers(-2, 6))
def test_folded_tests_of_first_give_the_same_values_and_errors(v: list[int], x: int) -> None:
    names = {"_k1": (0, 1, 2, 3, -1)}
    for code in _FOLDED:
        folded = fold_first_tests(code)
        assert folded != code
        results = []
        for text in (code, folded):
            fn = eval(f"lambda v, L: {text}", {**_RUNTIME, **names})  # noqa: S307 - test source
            try:
                results.append(("value", fn(v, {"x": x})))
            except IndexError as exc:
                results.append(("error", str(exc)))
        assert results[0] == results[1], (code, folded)
