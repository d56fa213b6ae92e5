"""engine/menus.py writes a decision's members lists as the option's own loop: a list compile_expr wrote
(``[q for q in domain if guard]``, even one with no guard) and a list a hoist.py helper computes
(``_dN(v, L)``: its speculative statements written before the loop, its leading test around them,
marked ``if _P_(k, lead)``), and reads a local of the frame it reads more than once first, into a local
of its own (once.locals_read_once), the function running its statements as written on a fault. Each
against the plain way: random helpers and random statements on random values (and locals, some
unbound) give the same options or the same error; the real helpers' forms are read back as written;
the decisions of a game that call such a helper write it in place (and their plain twin calls it)."""

from __future__ import annotations

import ast
import random
import re
import textwrap
from typing import Any

import pytest
from test_engine_speed_once import GLOBALS, Fault, _body, _part, _test

import ghostrules
from ghostrules.engine.menus import helper_form, helper_sources, members_loop
from ghostrules.engine.once import computed_once, locals_read_once


def _helper(rng: random.Random, name: str, n: int) -> tuple[str, str, list[tuple[str, str]], str, str]:
    """(the source of a random helper as hoist.py writes one for a members list, its leading test, its
    statements, its list's domain and its guard): parts that may fail, a guard reading them."""
    lead = _test(rng, None) if rng.random() < 0.5 else "True"
    prelude = [(f"_t{90 + i}", _part(rng, None)) for i in range(rng.randint(0, 3))]
    domain = f"range({n})"
    guard = _test(rng, "_q")
    for t, _ in prelude:
        if rng.random() < 0.7:
            guard = f"({guard} or {t} % 2 == 0)" if rng.random() < 0.5 else f"({t} > {_part(rng, '_q')} and {guard})"
    plain_guard = guard
    for t, code in reversed(prelude):
        plain_guard = plain_guard.replace(t, f"({code})")
    lines = [f"def {name}(v, L):"]
    if lead != "True" or prelude:
        lines.append("    try:")
        if lead != "True":
            lines += [f"        if not ({lead}):", "            return []"]
        lines += [f"        {t} = {code}" for t, code in prelude]
        lines += ["    except Exception:", f"        return [_q for _q in {domain} if ({lead}) and ({plain_guard})]"]
    lines.append(f"    return [_q for _q in {domain} if {guard}]")
    return "\n".join(lines) + "\n", lead, prelude, domain, guard


def _norm(code: str) -> str:
    return ast.unparse(ast.parse(code, mode="eval"))


def _menu(body: str, plain: str | None, ns: dict[str, Any]) -> Any:
    """The function a decision's writer makes of ``body`` (and of its ``plain`` twin, run on a fault)."""
    if plain is None:
        src = "def fn(v, L):\n    _out = []\n" + textwrap.indent(body, "    ") + "\n    return _out\n"
    else:
        src = ("def plain(v, L):\n    _out = []\n" + textwrap.indent(plain, "    ") + "\n    return _out\n"
               "def fn(v, L):\n    _out = []\n    try:\n" + textwrap.indent(body, "        ") +
               "\n    except Exception:\n        return plain(v, L)\n    return _out\n")
    exec(src, ns)  # noqa: S102 - the test's own code
    return ns["fn"]


def _result(fn: Any, v: list[int], L: dict[str, int]) -> tuple[str, Any]:
    try:
        return "ok", fn(v, L)
    except (Fault, IndexError, KeyError, ZeroDivisionError) as exc:
        return "error", (type(exc), str(exc))


def test_a_helper_written_in_place_lists_what_its_call_lists() -> None:
    """Random helpers (a leading test, statements, a guard reading them, each part may fail) written as
    menus.py writes them: the same values appended in the same order, or the same error, as the loop
    over the helper's call; the helper's form read back by helper_form is the one written."""
    rng = random.Random(11)
    names = iter(range(10**6))
    listed = errors = reordered = 0
    for trial in range(250):
        source, lead, prelude, domain, guard = _helper(rng, f"_d{trial}", rng.randint(0, 5))
        assert helper_form(source, ["v", "L"]) == (_norm(lead), [(t, _norm(c)) for t, c in prelude],
                                                   _norm(f"[_q for _q in {domain} if {guard}]"))
        looped = members_loop(f"[_q for _q in {domain} if {guard}]", "_x0")
        assert looped is not None
        key = _part(rng, "_x0")
        body = "\n".join([f"if _P_(0, _S_({lead})):",
                          *[f"    {t} = _S_({code})" for t, code in prelude],
                          f"    for _x0 in _I_(0, {looped[0]}):",
                          f"        if _S_({looped[1]}):",
                          f"            _out.append((_x0, _S_({key})))",
                          "_out.append(-1)"])
        fast, plain = computed_once(textwrap.indent(body, "    "), lambda n: n in GLOBALS or n.startswith("_d"),
                                    lambda: f"_t{next(names)}", {0: f"_d{trial}(v, L)"})
        assert plain is not None and "_I_" not in fast + plain and "_P_" not in fast + plain
        assert f"_d{trial}(v, L)" in plain and f"_d{trial}(" not in fast
        written = "\n".join([f"for _x0 in _d{trial}(v, L):", f"    _out.append((_x0, {key}))", "_out.append(-1)"])
        ns = dict(GLOBALS)
        exec(source, ns)  # noqa: S102 - the test's own code
        new, old = _menu(fast, plain, dict(ns)), _menu(written, None, dict(ns))
        alone = _menu(fast, None, dict(ns))  # without its plain twin: a fault may come first from another part
        for _ in range(10):
            v = [rng.randint(-2, 9) for _ in range(7)]
            L = {"a": rng.randint(-1, 5), "b": rng.randint(-1, 6)}
            got, want = _result(new, v, L), _result(old, v, L)
            assert got == want, (source, fast)
            listed += got[0] == "ok" and len(got[1]) > 1
            errors += got[0] == "error"
            reordered += _result(alone, v, L) != want
    assert listed > 150 and errors > 300 and reordered > 20


def test_other_forms_are_not_read_as_a_members_helper() -> None:
    ok = "def _d1(v, L):\n    try:\n        _t1 = v[0]\n    except Exception:\n        return []\n" \
         "    return [_q for _q in range(3) if _q != _t1]\n"
    assert helper_form(ok, ["v", "L"]) == ("True", [("_t1", "v[0]")], "[_q for _q in range(3) if _q != _t1]")
    assert helper_form(ok, ["v"]) is None  # not the call's arguments
    assert helper_form(ok.replace("_t1 = v[0]", "x = v[0]"), ["v", "L"]) is None  # not a temporary
    assert helper_form(ok.replace("return [_q", "return sum([_q").replace("_t1]", "_t1])"), ["v", "L"]) is None
    early = ok.replace("        _t1 = v[0]", "        if not (v[1] > 0):\n            return [1]\n        _t1 = v[0]")
    assert helper_form(early, ["v", "L"]) is None  # an early answer other than []
    assert members_loop("([_q for _q in _pick(v, 1, 2, _k3)])", "_x4") == ("_pick(v, 1, 2, _k3)", "True")


@pytest.mark.parametrize("name,params", [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
                                         ("betrayal", {"players": 4})])
def test_decisions_write_their_helpers_in_place(name: str, params: dict[str, Any]) -> None:
    """Every members list of a decision is written as its loop (no list made by a comprehension or a
    helper's call in the function run first), and the helpers so written are those the game defined."""
    game = ghostrules.load_game(name, **params)
    inlined = 0
    for menu in game.menus.values():
        source = menu.source
        fast = source.split("_plain(v, L)\n")[-1] if "_plain(" in source else source
        assert not re.search(r"for _x\d+ in \[", fast), fast
        for helper in set(re.findall(r"for _x\d+ in (_d\d+)\(", source)):
            helper_source = helper_sources(game.program.exprs)[helper]
            if helper in fast:  # another form (an early answer not []): called
                assert helper_form(helper_source, ["v", "L"]) is None and helper_form(helper_source, ["v"]) is None
            else:  # written in place, called by the plain twin alone
                inlined += 1
    assert inlined >= (5 if name == "ghost-stories" else 1)


def test_locals_read_once_give_the_same_answers_and_errors() -> None:
    """Random statements as menus.py writes them (guards, loops, rare branches, ``L.get``), their locals
    read first (the statements as written run on a fault), on random values and locals, some unbound:
    the same answer or the same error; locals read once only are left as they are."""
    rng = random.Random(13)
    names = iter(range(10**6))
    read = faults = 0
    for _ in range(300):
        body = _body(rng)
        if rng.random() < 0.5:
            body += "\n    _out.append(L.get('a'))"
        new, reads = locals_read_once(body, lambda: f"_t{next(names)}")
        assert (reads == []) == (new == body)
        assert all(re.fullmatch(r"_t\d+ = L\['[ab]'\]", r) for r in reads)
        read += len(reads)
        fast = textwrap.indent("\n".join(reads), "    ") + "\n" + new if reads else new
        fast, _ = computed_once(fast, lambda n: n in GLOBALS, lambda: f"_t{next(names)}", {})
        plain, _ = computed_once(body, lambda n: n in GLOBALS, lambda: f"_t{next(names)}", {})
        ns = dict(GLOBALS, _S_=lambda x: x, _R_=lambda x: x)
        got, want = _menu(fast, plain if reads else None, dict(ns)), _menu(plain, None, dict(ns))
        alone = _menu(fast, None, dict(ns))
        for _ in range(8):
            v = [rng.randint(-2, 9) for _ in range(7)]
            L = {k: rng.randint(-1, 5) for k in "ab" if rng.random() < 0.85}
            assert _result(got, v, L) == _result(want, v, L), (body, fast)
            faults += _result(alone, v, L) != _result(want, v, L)
    assert read > 200 and faults > 20
