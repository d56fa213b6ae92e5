"""Loop-invariant code motion and common subexpressions (engine/hoist.py), definitions applied to
one computed argument compiled in place, and the run-time helpers they use: the same values and the
same errors as the code without them, games included, and a part moved out of a loop never raises
where the original would not have computed it."""

from __future__ import annotations

import ast
import itertools
import random
from typing import Any

import pytest
from speed_helpers import compile_hoisted, random_values_and_args, traced_record

import ghostrules
from ghostrules import Game, SpecRuntimeError, load_spec
from ghostrules.engine import compile_expr
from ghostrules.engine.compile_expr import ExprCompiler
from ghostrules.engine.hoist import read_once
from ghostrules.engine.runtime import _first, _firsts, _match, _members
from ghostrules.spec import expr as E
from ghostrules.spec.model import Where

CONFIGS = [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
           ("ghost-stories", {"players": 2, "level": "hell", "edition": "hu"}),
           ("betrayal", {"players": 4})]


def _plain_game(name: str, params: dict, monkeypatch: pytest.MonkeyPatch) -> Game:
    """The game compiled without hoisting, common subexpressions and single-use in-place definitions."""
    with monkeypatch.context() as m:
        m.setattr(compile_expr, "hoist", lambda code, define, fresh, shared=None: code)
        m.setattr(ExprCompiler, "_inline_once", lambda self, name, codes: False)
        return Game(load_spec(name, **params))


@pytest.mark.parametrize("name,params", CONFIGS)
def test_games_are_the_same_with_and_without_hoisting(name: str, params: dict,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    fast = ghostrules.load_game(name, **params)
    helpers = [s for s in fast.program.exprs.block_sources if s.startswith("def _d")]
    assert helpers, "nothing was hoisted"
    plain = _plain_game(name, params, monkeypatch)
    assert not [s for s in plain.program.exprs.block_sources if s.startswith("def _d")]
    for seed in range(3):
        assert traced_record(fast, seed) == traced_record(plain, seed)


@pytest.mark.parametrize("name,params", [CONFIGS[0], CONFIGS[2]])
def test_every_definition_agrees_with_the_plain_compile(name: str, params: dict,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every definition, on random values (in their declared ranges) and arguments (none included):
    the same value, or an error of the same type, hoisted or not."""
    game = ghostrules.load_game(name, **params)
    layout = game.layout
    fast = ExprCompiler(game.spec, layout)
    with monkeypatch.context() as m:
        m.setattr(compile_expr, "hoist", lambda code, define, fresh, shared=None: code)
        m.setattr(ExprCompiler, "_inline_once", lambda self, name, codes: False)
        plain = ExprCompiler(game.spec, layout)
        plain_fns = {}
        for dname, d in plain.defines.items():
            call = E.Call(dname, tuple(E.Name(p) for p, _ in d.params)) if d.params else E.Name(dname)
            plain_fns[dname] = plain.compile(call, dict(d.params), Where("<test>", 1), dname)[0]
    rng = random.Random(11)
    compared = moved = 0
    for dname, d in fast.defines.items():
        call = E.Call(dname, tuple(E.Name(p) for p, _ in d.params)) if d.params else E.Name(dname)
        f1, _ = fast.compile(call, dict(d.params), Where("<test>", 1), dname)
        f2 = plain_fns[dname]
        moved += f1.fast != f1.code
        for _ in range(40):
            values, args = random_values_and_args(layout, d.params, rng)
            results = []
            for fn in (f1, f2):
                try:
                    results.append(("value", fn(values, dict(args))))
                except (SpecRuntimeError, IndexError, KeyError) as exc:
                    results.append(("error", type(exc).__name__))
            assert results[0] == results[1], (dname, args, results)
            compared += 1
    assert compared > 1000


# ---- the transformation itself, on hand-written code of the generated forms ---------------------------

def _compile(code: str) -> tuple[Any, Any, list[str]]:
    """(hoisted fn, plain fn, helper sources) of ``lambda v, L: code``; ``_d0`` raises on a negative
    argument, as a definition with a run-time check does."""
    calls = []

    def d0(v: list, a0: int) -> int:
        calls.append(a0)
        if a0 < 0:
            raise SpecRuntimeError("negative")
        return v[a0] + 1

    return compile_hoisted(code, {"_d0": d0})


def _outcome(fn: Any, v: list, L: dict) -> tuple:
    try:
        return ("value", fn(v, L))
    except SpecRuntimeError as exc:
        return ("error", str(exc))


def test_invariant_part_is_computed_once_and_never_raises_early() -> None:
    code = "[_q1 for _q1 in range(12) if v[_q1] == 0 and _d0(v, L['a']) > 1]"
    fast, plain, helpers = _compile(code)
    assert len(helpers) == 1 and "_t" in helpers[0]
    v = [0] * 12 + [5]
    for L, v_ in (({"a": 12}, v), ({"a": 3}, v), ({"a": -1}, v), ({"a": -1}, [1] * 13)):
        assert _outcome(fast, v_, L) == _outcome(plain, v_, L)
    # the original never reaches _d0 when no v[x] is 0: neither does the hoisted code's answer
    assert fast([1] * 13, {"a": -1}) == [] and plain([1] * 13, {"a": -1}) == []
    with pytest.raises(SpecRuntimeError):
        fast(v, {"a": -1})


def _counting_d0() -> tuple[list[int], Any]:
    calls: list[int] = []

    def d0(v: list, a0: int) -> int:
        calls.append(a0)
        if a0 < 0:
            raise SpecRuntimeError("negative")
        return v[a0] + 1
    return calls, d0


def _either(fn: Any, v: list, L: dict) -> tuple:
    try:
        return ("value", list(fn(v, L)) if not isinstance(fn(v, L), (bool, int, list)) else fn(v, L))
    except Exception as exc:  # noqa: BLE001 - the kind of error is what is compared
        return ("error", type(exc).__name__)


def test_a_false_invariant_lead_of_the_filter_skips_the_moved_parts() -> None:
    """``x in slot if card_colour[g] == black and placement_allowed(g, by, x)``: while the leading
    conjunct, which reads no loop variable, is false, no element passes, so the answer is empty and
    the moved parts (the ghost's home board) are not computed; the same answers and errors otherwise
    (found when three menu options, one per kind of ghost, each moved the home board out of its loop)."""
    calls, d0 = _counting_d0()
    code = "[_q1 for _q1 in range(12) if v[12] == 1 and v[_q1] == 0 and _d0(v, L['a']) > 1]"
    fast, plain, helpers = compile_hoisted(code, {"_d0": d0})
    assert len(helpers) == 1 and "if not ((v[12] == 1)):" in helpers[0] and "return []" in helpers[0], helpers
    off = [0] * 12 + [0]
    assert fast(off, {"a": 3}) == [] and calls == []
    on = [0] * 12 + [1]
    assert fast(on, {"a": 12}) == list(range(12)) and calls == [12]  # moved out of the loop: once
    assert plain(on, {"a": 12}) == list(range(12))
    for v in (off, on, [1] * 13):
        for a in (-1, 3, 12):
            assert _either(fast, v, {"a": a}) == _either(plain, v, {"a": a}), (v, a)
    # a lead that fails to compute: the original runs and fails (or not) as it would
    code = "[_q1 for _q1 in range(3) if v[L['i']] == 1 and v[_q1] == 1 and _d0(v, L['a']) > 1]"
    fast, plain, _ = compile_hoisted(code, {"_d0": d0})
    for L in ({"i": 99, "a": 0}, {"i": 0, "a": -1}, {"i": 0, "a": 0}):
        assert _either(fast, [1, 1, 1], L) == _either(plain, [1, 1, 1], L), L


def test_a_false_invariant_lead_gives_an_empty_generator_or_runs_the_original() -> None:
    calls, d0 = _counting_d0()
    code = "any((_q1 == 3 for _q1 in range(12) if v[12] == 1 and v[_q1] == 0 and _d0(v, L['a']) > 1))"
    fast, plain, helpers = compile_hoisted(code, {"_d0": d0})
    assert "return iter(())" in helpers[0], helpers
    assert fast([0] * 13, {"a": 0}) is False and calls == []
    assert fast([0] * 12 + [1], {"a": 1}) == plain([0] * 12 + [1], {"a": 1})
    # a domain that reads the position could fail to compute: the original runs instead of an empty answer
    code = "[_q1 for _q1 in L['xs'] if v[12] == 1 and v[_q1] == 0 and _d0(v, L['a']) > 1]"
    fast, plain, helpers = compile_hoisted(code, {"_d0": d0})
    assert "return []" not in helpers[0] and "if not ((v[12] == 1)):" in helpers[0], helpers
    with pytest.raises(KeyError):
        fast([0] * 13, {"a": 0})


def test_membership_in_a_run_and_first_places_become_tables() -> None:
    code = "[_q1 for _q1 in range(40) if not _q1 in v[0:40] and _first(v, 40, 40, _q1) != -1]"
    fast, plain, helpers = _compile(code)
    assert "_members(v, 0, 40)" in helpers[0] and "_firsts(v, 40, 40)" in helpers[0]
    rng = random.Random(3)
    for _ in range(200):
        v = [rng.randint(-1, 45) for _ in range(80)]
        assert fast(v, {}) == plain(v, {})


def test_a_runs_set_is_kept_while_its_values_are_unchanged() -> None:
    rng = random.Random(5)
    v = [rng.randint(-1, 45) for _ in range(80)]
    first = _members(v, 10, 50)
    assert first == set(v[10:50]) and _members(v, 10, 50) is first  # the same values: the same set
    for _ in range(300):
        if rng.random() < 0.5:
            v[rng.randrange(80)] = rng.randint(-1, 45)
        a = rng.choice([10, 10, 20])
        b = rng.choice([50, 50, 60])
        assert _members(v, a, b) == set(v[a:b])
    assert _members([1, True, 2], 0, 3) == {1, 2}


def test_common_part_computed_once() -> None:
    code = "(_d0(v, L['a']) > 2 and v[_d0(v, L['a'])] == 1)"
    fast, plain, helpers = _compile(code)
    assert len(helpers) == 1
    for a in (-1, 0, 1, 2, 5):
        v = [3, 1, 0, 1, 2, 1, 4]
        assert _outcome(fast, v, {"a": a}) == _outcome(plain, v, {"a": a})
    # only when always computed: a part first met in a branch is left where it is
    _, _, helpers = _compile("(v[0] > 2 and _d0(v, L['a']) > 2 and v[_d0(v, L['a'])] == 1)")
    assert helpers == []


def test_read_once() -> None:
    assert read_once("_first(v, 179, 65, a0)", "a0")
    assert not read_once("(a0 if 0 <= a0 < 4 else _bad(_k1))", "a0")
    assert not read_once("(v[3] > 0 and a0 > 1)", "a0")
    assert not read_once("any(True for _q1 in range(3) if a0 == _q1)", "a0")
    assert read_once("any(True for _q1 in range(a0))", "a0")
    ast.parse("x", mode="eval")


def test_run_time_scans() -> None:
    rng = random.Random(5)
    for _ in range(500):
        v = [rng.randint(-1, 6) for _ in range(30)]
        off, n = rng.randint(0, 5), rng.randint(1, 24)
        table = _firsts(v, off, n)
        for x in range(-2, 8):
            assert table.get(x, -1) == _first(v, off, n, x)
            assert _match(v, off, n, x) == [k for k in range(n) if v[off + k] == x]


def test_get_reads_through_its_cache() -> None:
    game = ghostrules.load_game(*CONFIGS[0][:1], **CONFIGS[0][1])
    state = game.new_initial_state()
    before = state.get("active")
    state.set("active", "none" if before != "none" else game.layout.domains["monk"].symbols[0])
    assert state.get("active") != before
    state.set("active", before)
    assert state.get("active") == before


def test_a_rewrite_serves_every_expression_of_its_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rewrites are cached by template (generated names replaced by placeholders): an expression that
    differs from one already rewritten only in its generated names (another configuration's
    constants and definitions) is not analysed again, and each use gets helpers of its own, so two
    expressions of one namespace that share a template keep their own constants."""
    from ghostrules.engine import hoist as H
    from ghostrules.engine.runtime import _RUNTIME
    ns: dict[str, Any] = {**_RUNTIME, "_k900001": lambda v: 3, "_k900002": lambda v: 7}

    def define(source: str) -> None:
        exec(compile(source, "<test>", "exec"), ns)  # noqa: S102 - the test's own code

    rewrites: list[str] = []
    real = H._rewrite
    monkeypatch.setattr(H, "_rewrite", lambda code, d: rewrites.append(code) or real(code, d))
    ids = itertools.count(10_000_000)

    def fresh(prefix: str) -> str:
        return f"{prefix}{next(ids)}"

    a = H.hoist("[_k900001(v) + _q900003 for _q900003 in range(40)]", define, fresh)
    b = H.hoist("[_k900002(v) + _q900004 for _q900004 in range(40)]", define, fresh)
    assert len(rewrites) == 1 and a != b and a.startswith("_d") and b.startswith("_d")
    fa = eval(f"lambda v, L: {a}", ns)  # noqa: S307 - the test's own code
    fb = eval(f"lambda v, L: {b}", ns)  # noqa: S307 - the test's own code
    assert fa([], {}) == list(range(3, 43)) and fb([], {}) == list(range(7, 47))


def test_a_second_configuration_rewrites_little_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second configuration of the same game compiles its expressions under other generated
    names; their rewrites come from the template cache, and its games are those of the plain compile."""
    from ghostrules.engine import hoist as H
    Game(load_spec("ghost-stories", players=4, level="initiation", edition="el"))
    rewrites: list[str] = []
    real = H._rewrite
    monkeypatch.setattr(H, "_rewrite", lambda code, d: rewrites.append(code) or real(code, d))
    params = {"players": 2, "level": "hell", "edition": "hu"}  # another edition: other generated names
    game = Game(load_spec("ghost-stories", **params))  # a compile of its own (load_game may keep games)
    hoisted = sum(1 for src in game.program.exprs.block_sources if src.startswith("def _d1"))
    loops = [code for code in rewrites if " for " in code]  # the rewrites that analyse quantifiers
    # 36 rewrites of quantifiers for 61 helpers (by exact text, before the templates: 133; those left
    # are expressions whose literal offsets differ in this edition's layout)
    assert hoisted > 20 and len(loops) < hoisted, loops
    monkeypatch.setattr(H, "_rewrite", real)
    plain = _plain_game("ghost-stories", params, monkeypatch)
    for seed in range(3):
        assert traced_record(game, seed) == traced_record(plain, seed)
