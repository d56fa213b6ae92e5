"""Slot filters: a quantifier's leading conditions that read only the slot of the bound variable
(``at[g] != deck and at[g] != s1 and ...``) are decided once for every value the slot can hold, and
the places that pass are listed in C (engine/compile_expr.py ``_slot_filter``, engine/runtime.py
``_pick``, ``_pick_at``). These tests check that such quantifiers give the same value, or the same
error, as the plain comprehensions (``optimise=False``) on random values: in the slots' declared
ranges (none included), outside them (the conditions' own code decides), over a whole domain (a slice of
the values) and over the places a table leaves (slots apart), with the last answer kept between calls."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from speed_helpers import spec_game

from ghostrules.engine.compile_expr import ExprCompiler
from ghostrules.engine.errors import SpecRuntimeError
from ghostrules.engine.runtime import Picks, _pick, _pick_at
from ghostrules.spec import expr as E
from ghostrules.spec.expr import parse
from ghostrules.spec.model import Where

_CARDS = [f"c{k}" for k in range(12)]

_GAME = f"""\
game: slotfilter
title: Quantifiers whose first conditions test the bound variable's slot
players: player
flow: {{setup: setup, turn: turn}}
domains:
  player: [ann, bob]
  card: [{", ".join(_CARDS)}]
  spot: [s1, s2, s3]
  place: {{union: [spot, [deck, gone]]}}
state:
  at: {{index: [card], type: place, init: deck}}
  held: {{index: [card], type: player}}
  n: {{index: [card], range: [0, 5]}}
  worth: {{index: [spot], range: [0, 9]}}
  r: {{range: [0, 99]}}
tables:
  red:
    args: [card]
    type: bool
    pairs: [[c1], [c2], [c5], [c6], [c7], [c10]]
"""

_RULES = """\
family: core
title: Core
definitions:
  - name: in_play
    params: {g: card}
    value: "at[g] != deck and at[g] != gone"
  - name: in_play_count
    value: "count(g in card if at[g] != deck and at[g] != gone and n[g] > 1)"
  - name: first_out
    params: {k: int}
    value: "first(g in card if at[g] != deck and at[g] != gone and n[g] >= k)"
  - name: red_in_play
    params: {p: player}
    value: "exists(g in card if red[g] and at[g] != deck and at[g] != none and held[g] == p)"
  - name: red_count
    value: "count(g in card if red[g] and at[g] != gone)"
  - name: through_definition
    params: {p: player}
    value: "count(g in card if in_play(g) and held[g] == p and n[g] > 0)"
  - name: worth_of_spots
    value: "sum(g in card if at[g] != deck and at[g] != gone: worth[at[g]])"
  - name: by_player
    value: "forall(p in player: count(g in card if at[g] != deck and at[g] != gone and held[g] == p) < 4)"
  - name: by_card
    value: "count(h in card if n[h] > count(g in card if at[g] != deck and at[g] != gone and held[g] == held[h]))"
  - name: mixed_order
    params: {k: int}
    value: "count(g in card if (at[g] == s1 or at[g] == s2) and n[g] == k and at[g] != s3)"
rules:
  - id: S-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {r: 0}
  - id: S-TURN
    text: Nothing to do.
    procedure: turn
    do:
      - set: {r: "in_play_count"}
"""

# the definitions, and what their optimised code must hold (by_card: the inner loop's places, got
# once for the outer loop, engine/hoist.py)
_DEFINITIONS = {"in_play_count": "_pick(", "first_out": "_pick(",
                "red_in_play": "_pick_at(", "red_count": "_pick_at(", "through_definition": "_pick(",
                "worth_of_spots": "_pick(", "by_player": "_pick(", "by_card": "= _pick(", "mixed_order": "_pick("}

_MEMBERS = {"out_cards": "at[g] != none and at[g] != gone", "outs": "at[g] == deck or at[g] == gone",
            "outs_held": "(at[g] == deck or at[g] == gone) and held[g] != none"}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: Any) -> tuple[Any, dict[str, tuple[Any, Any, list[tuple[str, str]]]]]:
    """(layout, {definition: (optimised fn, plain fn, params)})."""
    game = spec_game(tmp_path_factory.mktemp("slotfilter"), "slotfilter", _GAME, _RULES)
    fast = ExprCompiler(game.spec, game.layout)
    plain = ExprCompiler(game.spec, game.layout, optimise=False)
    fns = {}
    for name, helper in _DEFINITIONS.items():
        before = len(fast.sources), len(fast.block_sources)
        d = fast.defines[name]
        call = E.Call(name, tuple(E.Name(p) for p, _ in d.params)) if d.params else E.Name(name)
        f1, _ = fast.compile(call, dict(d.params), Where("<test>", 1), name)
        f2, _ = plain.compile(call, dict(d.params), Where("<test>", 1), name)
        fns[name] = (f1, f2, list(d.params))
        assert helper in "\n".join(fast.sources[before[0]:] + fast.block_sources[before[1]:]), name
    for name, cond in _MEMBERS.items():  # the outcomes of a draw, the values of a menu option
        f1, f2 = (c.members("g", E.Name("card"), parse(cond), {}, Where("<test>", 1), name) for c in (fast, plain))
        assert "_pick(" in f1.fast
        fns[name] = (f1, f2, [])
    assert "_pick" not in "\n".join(plain.sources + plain.block_sources)
    return game.layout, fns


def _outcome(fn: Any, values: list[int], args: dict[str, int]) -> tuple[str, Any]:
    try:
        return "value", fn(values, dict(args))
    except (SpecRuntimeError, IndexError) as exc:
        return "error", f"{type(exc).__name__}: {exc}"


def _values(layout: Any, wide: bool) -> st.SearchStrategy[list[int]]:
    """Value lists of the layout: each slot in its declared range, or (``wide``) a little outside it."""
    return st.tuples(*(st.integers(lo - 3 if wide else lo, hi + 3 if wide else hi)
                       for lo, hi in zip(layout.lows, layout.highs))).map(list)


@pytest.mark.parametrize("wide", [False, True], ids=["declared ranges", "outside them"])
def test_slot_filters_agree_with_plain_comprehensions(compiled: Any, wide: bool) -> None:
    """Every definition gives the plain comprehension's value or error, for every argument, on
    random value lists (a value outside the declared ranges is decided by the conditions' code)."""
    layout, fns = compiled

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(values=_values(layout, wide), k=st.integers(0, 5))
    def check(values: list[int], k: int) -> None:
        for name, (fast, plain, params) in fns.items():
            for p in ([-1, 0, 1] if params and params[0][1] == "player" else [k]):
                args = {params[0][0]: p} if params else {}
                assert _outcome(fast, values, args) == _outcome(plain, values, args), (name, args)

    check()


def test_kept_answer_follows_the_values(compiled: Any) -> None:
    """The answer kept from the last call is given again only for the same values: a change of one
    slot between calls changes the answer as the plain code's."""
    layout, fns = compiled
    fast, plain, _ = fns["in_play_count"]
    values = [max(lo, 0) for lo in layout.lows]
    at = layout.index("at", "c0")
    n = layout.index("n", "c0")
    for k in range(12):
        values[at + k] = 3  # on the deck
        values[n + k] = 2
    answers = []
    for step in range(14):
        if step < 12:
            values[at + step] = 0  # c<step> on s1
        else:
            values[at + 3] = 3  # c3 back to the deck (twice: the same values, the kept answer)
        answers.append(fast(values, {}))
        assert answers[-1] == plain(values, {})
    assert answers == [*range(1, 13), 11, 11]


def test_pick_gives_a_new_sequence_not_an_iterator() -> None:
    """The places come as a tuple, so a loop around may read them again (engine/hoist.py moves such
    a call out of an inner loop); values outside the table go to the test."""
    picks = Picks(range(3, 7), {-1: False, 0: True, 1: False}, lambda x: x == 0 or x > 5)
    v = [9, 9, 9, 9, 0, 1, -1, 0, 7]
    got = _pick(v, 5, 9, picks)
    assert got == (5, 6) and type(got) is tuple  # 7: by the test
    assert _pick(v, 5, 9, picks) is got  # the same values: the kept answer
    assert _pick([0, 0, 0, 0, 0, 1, 8, 0, -5], 5, 9, picks) == (4, 5)  # 8 and -5: by the test
    apart = Picks((0, 2, 5), {0: True, 1: False}, lambda x: False, __import__("operator").itemgetter(1, 3, 6))
    assert _pick_at([1, 0, 1, 1, 1, 1, 0], apart) == (0, 5)
