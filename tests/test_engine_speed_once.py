"""engine/once.py (a part of a decision's function computed once where it is first computed) and
engine/menus.py's numbering of equal labels after listing (``renumbered``), each against the plain
way: random functions made of guards, loops and values whose parts repeat and may fail, run with and
without the rewrite on random values give the same answer or the same error; a members loop written
as one loop fails as its list fails; ``renumbered`` (which the generic loop uses too) numbers as
labels numbered while listing them are numbered."""

from __future__ import annotations

import random
import textwrap
from typing import Any

import pytest

from ghostrules.engine.actions import Action
from ghostrules.engine.menus import renumbered
from ghostrules.engine.once import computed_once


class Fault(Exception):
    pass


def _bad(what: str) -> int:
    raise Fault(what)


def _f(v: list[int], x: int) -> int:
    """A pure helper that fails on some values (as a definition's range check would)."""
    if x % 5 == 4:
        raise Fault(f"f{x}")
    return v[x % len(v)] + x


GLOBALS = {"_bad": _bad, "_f": _f, "_k1": "k1", "_k2": "k2"}


def _part(rng: random.Random, var: str | None, depth: int = 0) -> str:
    """A random int expression over v, L (and the loop's ``var``) with parts that repeat and may fail."""
    atoms = ["L['a']", "L['b']", "v[3]", "(L['a'] if 0 <= L['a'] < 4 else _bad(_k1))", "_f(v, L['b'])",
             "v[(2 + (L['b'] if 0 <= L['b'] < 5 else _bad(_k2)))]"]
    if var is not None:
        atoms += [var, f"v[(1 + {var})]", f"_f(v, {var} + L['a'])"]
    if depth > 2 or rng.random() < 0.3:
        return rng.choice(atoms)
    a, b = _part(rng, var, depth + 1), _part(rng, var, depth + 1)
    return rng.choice([f"({a} + {b})", f"_f(v, {a})", f"({a} if {_test(rng, var, depth + 1)} else {b})",
                       f"v[({a}) % 7]"])


def _test(rng: random.Random, var: str | None, depth: int = 0) -> str:
    a, b = _part(rng, var, depth + 1), _part(rng, var, depth + 1)
    if depth < 2 and rng.random() < 0.4:
        return f"({_test(rng, var, depth + 1)} {rng.choice(['and', 'or'])} {_test(rng, var, depth + 1)})"
    return rng.choice([f"{a} > {b}", f"0 <= {a} < {b}", f"not {a} == {b}", f"{a} % 3 != 1"])


def _body(rng: random.Random) -> str:
    """Statements as engine/menus.py writes them: guarded values appended, loops over a range."""
    lines = []
    for k in range(rng.randint(1, 4)):
        var = f"_x{k}" if rng.random() < 0.5 else None
        ind = "    "
        if var is not None:
            lines.append(f"{ind}for {var} in range({rng.randint(0, 4)}):")
            ind += "    "
        if rng.random() < 0.8:
            lines.append(f"{ind}if _S_({_test(rng, var)}):")
            ind += "    "
        lines.append(f"{ind}_at = ({k}, _S_({_part(rng, var)}), _S_({_part(rng, var)}))")
        lines.append(f"{ind}if _R_(_at[1] % 2 == 0):")
        lines.append(f"{ind}    _at = (_at, _S_({_part(rng, var)}))")
        lines.append(f"{ind}_out.append(_at)")
    return "\n".join(lines)


def _run(body: str, v: list[int], L: dict[str, int]) -> tuple[str, Any]:
    ns = dict(GLOBALS, _S_=lambda x: x, _R_=lambda x: x)
    exec("def fn(v, L):\n    _out = []\n" + body + "\n    return _out\n", ns)  # noqa: S102 - the test's own code
    try:
        return "ok", ns["fn"](v, L)
    except (Fault, IndexError, KeyError) as exc:
        return "error", (type(exc), str(exc))


def test_parts_computed_once_give_the_same_answers_and_errors() -> None:
    rng = random.Random(3)
    names = iter(range(10**6))
    rewritten = 0
    for _ in range(300):
        body = _body(rng)
        new, plain = computed_once(body, lambda n: n in GLOBALS, lambda: f"_t{next(names)}", {})
        assert plain is None
        rewritten += ":=" in new
        for _ in range(8):
            v = [rng.randint(-2, 9) for _ in range(7)]
            L = {"a": rng.randint(-1, 5), "b": rng.randint(-1, 6)}
            assert _run(textwrap.indent(new, "    "), v, L) == _run(body, v, L), (body, new)
    assert rewritten > 100


def test_a_members_loop_written_as_one_loop_fails_as_its_list() -> None:
    """The guard of the second value fails, and so does the body of the first: written as one loop the
    body's fault comes first; the function then runs the statements as written, the list's fault."""
    body = ("    for _x0 in _I_(0, range(3)):\n"
            "        if _S_(_f(v, _x0 + 3) > -9):\n"
            "            _out.append(_S_(_f(v, _x0 + 3) + v[10]))\n")
    members = {0: "[_q for _q in range(3) if _f(v, _q + 3) > -9]"}
    new, plain = computed_once(body, lambda n: n in GLOBALS, lambda: "_t0", members)
    assert plain is not None and "_t0" in new and "_q" in plain and "_I_" not in new + plain
    ns = dict(GLOBALS)
    exec("def fast(v, L):\n    _out = []\n" + textwrap.indent(new, "    ") + "\n    return _out\n", ns)  # noqa: S102
    exec("def slow(v, L):\n    _out = []\n" + textwrap.indent(plain, "    ") + "\n    return _out\n", ns)  # noqa: S102
    with pytest.raises(IndexError):
        ns["fast"]([1] * 7, {})
    with pytest.raises(Fault, match="f4"):
        ns["slow"]([1] * 7, {})


def _numbered_as_listed(actions: list[Action]) -> list[Action]:
    """Labels numbered while they are listed (as the generic loop, State._menu_options_generic, numbered
    them before it used ``renumbered``): an oracle of its own."""
    seen: dict[str, int] = {}
    out = []
    for a in actions:
        if a.label in seen:
            seen[a.label] += 1
            out.append(Action("choose", a.key, f"{a.label} #{seen[a.label]}", a.rule))
        else:
            seen[a.label] = 1
            out.append(a)
    return out


def test_renumbered_numbers_as_the_generic_loop() -> None:
    rng = random.Random(5)
    for _ in range(200):
        actions = [Action("choose", (rng.randint(0, 2), i), rng.choice(["a", "b", "c", "a #2", "d"]), "R-1")
                   for i in range(rng.randint(0, 8))]
        got = renumbered(actions)
        want = _numbered_as_listed(actions)
        assert [(a.kind, a.key, a.label, a.rule) for a in got] == [(a.kind, a.key, a.label, a.rule) for a in want]
        assert all((a is b) == (a.label == b.label) for a, b in zip(got, actions))
