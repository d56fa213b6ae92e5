"""A game's compile made cheaper without changing what it compiles (engine/hoist.py, engine/syntax.py):

* syntax.unparse writes what ast.unparse writes, and syntax.copy gives the tree
  ast.parse(ast.unparse(node)) gives, on every tree a compile writes or copies and on odd ones;
* the facts hoist.py notes about nodes (_Shape) are those of the nodes as they are whenever read,
  though the trees change under them (forgotten on each change, carried by copies, put back by undo);
* a loop rewritten in place (its changes taken back when moving is not worth it) gives the text the
  rewrite of a copy gave, for every expression of a game.
"""

from __future__ import annotations

import ast
from typing import Any

import pytest

from ghostrules import Game, load_spec
from ghostrules.engine import hoist as H
from ghostrules.engine import syntax

GS4 = ("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"})  # the largest expressions
GS1 = ("ghost-stories", {"players": 1, "level": "hell", "edition": "hu"})


def _generated(game: Game) -> str:
    """Everything a compile generates: the blocks (with the hoisted helpers) and the decisions' functions."""
    return "".join(game.program.exprs.block_sources) + "".join(getattr(m, "source", "") for m in game.menus.values())


def _fresh_compile(name: str, params: dict, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A compile with no rewrite cached in this process (every template rewritten again)."""
    monkeypatch.setattr(H, "_DONE", {})
    return Game(load_spec(name, **params))


def _same_as_ast(node: ast.AST) -> None:
    text = ast.unparse(node)
    assert syntax.unparse(node) == text
    if isinstance(node, ast.expr):
        assert ast.dump(syntax.copy(node)) == ast.dump(ast.parse(text, mode="eval").body), text


ODD = ["(a or b) and c", "a or b and c", "a and (b or c) and d", "not (a and b)", "not a == b", "-(a + b)",
       "a ** b ** c", "(a ** b) ** c", "-a ** b", "(-a) ** b", "a - (b - c)", "a - b - c", "a // (b * c)",
       "(1).real", "x.y.z", "x[a, b]", "x[()]", "x[(a,)]", "x[1:2]", "x[:]", "x[::2]", "(a, b)", "(a,)", "()",
       "[a for b in c if d if e]", "[a for b in c for d in b]", "(a for b in (c, d))", "f((a for b in c))",
       "(a if b else c) if d else e", "a if (b if c else d) else e", "a if b else (c if d else e)",
       "(lambda: 1)()", "f(*a)", "{1: 2, **a}", "f(a=1, **k)", "1.5", "-1.5", "'s'", "u's'", "b'x'",
       "a < b < c", "a not in b", "a is not None", "~a", "+a", "[]", "[a, (b, c)]", "{'k': [a for a in b]}",
       "x[a if b else c]", "(a and b) + 1", "(a < b) == c", "a.get(b, -1)", "(-1)", "- -1", "... if a else None"]


@pytest.mark.parametrize("text", ODD)
def test_unparse_and_copy_are_those_of_ast_on_odd_trees(text: str) -> None:
    _same_as_ast(ast.parse(text, mode="eval").body)


def test_a_negative_number_made_by_a_rewrite_is_copied_as_ast_reads_it_back() -> None:
    made = ast.Call(ast.Attribute(ast.Name("t", ast.Load()), "get", ast.Load()),
                    [ast.Name("x", ast.Load()), ast.Constant(-1)], [])
    _same_as_ast(made)
    assert isinstance(syntax.copy(made).args[1], ast.UnaryOp) and not syntax.kept(made.args[1])
    assert syntax.kept(ast.Constant(1)) and not syntax.kept(ast.Constant(1.5))


def test_unparse_and_copy_are_those_of_ast_on_a_whole_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tree the rewrites of a compile write out or copy, every one copied (as before the
    rewrites in place) so that all are checked."""
    seen = {"unparse": 0, "copy": 0}
    unparse, copy = H.unparse, H.copy

    def checked_unparse(node: ast.AST) -> str:
        seen["unparse"] += 1
        text = unparse(node)
        assert text == ast.unparse(node)
        return text

    def checked_copy(node: ast.expr, carry: Any = None) -> ast.expr:
        seen["copy"] += 1
        new = copy(node, carry)
        assert ast.dump(new) == ast.dump(ast.parse(ast.unparse(node), mode="eval").body)
        return new

    monkeypatch.setattr(H, "unparse", checked_unparse)
    monkeypatch.setattr(H, "copy", checked_copy)
    monkeypatch.setattr(H, "kept", lambda node: False)
    _fresh_compile(*GS4, monkeypatch)
    assert seen["unparse"] > 400 and seen["copy"] > 400, seen


def test_the_facts_read_are_those_of_the_trees_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each time a node's noted facts are read, they equal the facts worked out afresh from the node
    as it is then (the same structural key, locals read, names bound, cost, size, copy kept)."""
    real = H._Shape._facts
    busy: list[int] = []
    hits = [0]

    def checked(self: H._Shape, node: ast.AST) -> tuple:
        if busy:
            return real(self, node)
        busy.append(1)
        try:
            got = self._memo.get(id(node))
            if got is not None and got[3] is node:
                fresh = H._Shape()
                fresh._keys = self._keys  # the same numbering of shapes
                now = real(fresh, node)
                assert now[:3] == got[:3] and now[4:] == got[4:], ast.unparse(node)[:300]
                hits[0] += 1
                if hits[0] % 50 == 0:  # (some) against the definitions by walking the tree
                    assert now[4] == H._cost(node) and now[5] == H._size(node)
            return real(self, node)
        finally:
            busy.pop()

    monkeypatch.setattr(H._Shape, "_facts", checked)
    _fresh_compile(*GS1, monkeypatch)
    assert hits[0] > 10_000


def test_rewriting_in_place_gives_what_rewriting_a_copy_gave(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every tree copied before it is rewritten (as before the rewrites in place), a compile
    generates the same text."""
    in_place = _generated(_fresh_compile(*GS4, monkeypatch))
    monkeypatch.setattr(H, "kept", lambda node: False)  # no tree is its own copy: each is copied
    copied = _generated(_fresh_compile(*GS4, monkeypatch))
    assert in_place == copied


def test_a_move_not_worth_it_leaves_the_loop_and_its_facts_as_they_were() -> None:
    """The loop is changed in place while its invariant parts are looked for; moving them out of a
    loop of two elements is not worth a helper, so the changes are taken back."""
    tree = ast.parse("[_k1(v) + _k2(v, _q3) for _q3 in range(2)]", mode="eval").body
    before = ast.dump(tree)
    shape = H._Shape()
    defined: list[str] = []
    out = H._Hoister(defined.append, lambda prefix: f"{prefix}9", shape).expression(tree)
    assert out is tree and ast.dump(tree) == before and not defined
    for node in ast.walk(tree):  # every fact still noted is true of the node
        if shape.noted(node):
            fresh = H._Shape()
            fresh._keys = shape._keys
            assert fresh._facts(node)[:3] == shape._facts(node)[:3]
    # over forty elements it is worth it: the same loop is rewritten, its invariant part moved
    tree = ast.parse("[_k1(v) + _k2(v, _q3) for _q3 in range(40)]", mode="eval").body
    out = H._Hoister(defined.append, lambda prefix: f"{prefix}9", H._Shape()).expression(tree)
    assert isinstance(out, ast.Call) and len(defined) == 1 and "_t9 = _k1(v)" in defined[0]
    assert "return [_k1(v) + _k2(v, _q3) for _q3 in range(40)]" in defined[0]  # the original, as it was
