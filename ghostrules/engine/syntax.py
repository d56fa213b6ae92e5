"""Two operations on the syntax trees of generated expressions, made cheap for engine/hoist.py:
``unparse`` (the text ``ast.unparse`` writes, character for character) and ``copy`` (the tree
``ast.parse(ast.unparse(node))`` gives back, without writing and reading the text).

The rewrites of engine/hoist.py unparse and copy thousands of trees while a game is compiled;
``ast.unparse`` (a general visitor with a precedence table kept per node) and the text round trip
of ``ast.parse`` were most of its time. These handle the node types generated code uses and hand
any other tree to ``ast`` itself, so their answers are always those of ``ast``
(tests/test_engine_speed_hoist.py compares them on every tree a game's compile makes).
"""

from __future__ import annotations

import ast
import math
from ast import parse as _ast_parse, unparse as _ast_unparse
from typing import Any, Callable

# the precedences and operators of ast's own writer (ast._Unparser), so that the text is the one it writes
_P = ast._Precedence  # type: ignore[attr-defined]
_TUPLE, _TEST, _OR, _AND, _NOT, _CMP, _EXPR = (int(p) for p in (_P.TUPLE, _P.TEST, _P.OR, _P.AND, _P.NOT, _P.CMP,
                                                                _P.EXPR))
_FACTOR, _ATOM = int(_P.FACTOR), int(_P.ATOM)
_U = ast._Unparser  # type: ignore[attr-defined]
_BINOPS: dict[type, tuple[str, int]] = {getattr(ast, name): (f" {op} ", int(_U.binop_precedence[op]))
                                        for name, op in _U.binop.items()}
_UNOPS: dict[type, tuple[str, int]] = {getattr(ast, name): (op if _U.unop_precedence[op] == _P.FACTOR else op + " ",
                                                            int(_U.unop_precedence[op])) for name, op in _U.unop.items()}
_CMPOPS: dict[type, str] = {getattr(ast, name): f" {op} " for name, op in _U.cmpops.items()}
_RIGHT = frozenset(getattr(ast, name) for name, op in _U.binop.items() if op in _U.binop_rassoc)
assert _P.CMP.next() == _P.EXPR and _P.TEST.next() == _P.OR and _P.ATOM.next() == _P.ATOM


class _Other(Exception):
    """A node this module does not write or copy: ``ast`` does it."""


def unparse(node: ast.AST) -> str:
    """``ast.unparse(node)``, for the trees of generated expressions."""
    out: list[str] = []
    try:
        _write(node, _TEST, out.append)
    except _Other:
        return _ast_unparse(node)
    return "".join(out)


def _write(node: Any, prec: int, w: Callable[[str], Any]) -> None:  # noqa: C901 - one case per node type
    """Write ``node`` where its parent puts it at precedence ``prec`` (as ast._Unparser.traverse)."""
    t = type(node)
    if t is ast.Name:
        w(node.id)
    elif t is ast.Constant:
        value = node.value
        if isinstance(value, tuple) or value is ... or isinstance(value, (float, complex)):
            raise _Other
        if getattr(node, "kind", None) == "u":
            w("u")
        w(repr(value))
    elif t is ast.Subscript:
        _write(node.value, _ATOM, w)
        w("[")
        s = node.slice
        if type(s) is ast.Tuple and s.elts:
            _items(s.elts, w)
        else:
            _write(s, _TEST, w)
        w("]")
    elif t is ast.Compare:
        if prec > _CMP:
            w("(")
        _write(node.left, _EXPR, w)
        for op, right in zip(node.ops, node.comparators):
            w(_CMPOPS[type(op)])
            _write(right, _EXPR, w)
        if prec > _CMP:
            w(")")
    elif t is ast.BinOp:
        text, own = _BINOPS[type(node.op)]
        if prec > own:
            w("(")
        if type(node.op) in _RIGHT:  # right-associative (**)
            _write(node.left, own + 1, w)
            w(text)
            _write(node.right, own, w)
        else:
            _write(node.left, own, w)
            w(text)
            _write(node.right, own + 1, w)
        if prec > own:
            w(")")
    elif t is ast.Call:
        _write(node.func, _ATOM, w)
        w("(")
        comma = False
        for arg in node.args:
            if comma:
                w(", ")
            comma = True
            _write(arg, _TEST, w)
        for kw in node.keywords:
            if comma:
                w(", ")
            comma = True
            if kw.arg is None:
                w("**")
            else:
                w(kw.arg)
                w("=")
            _write(kw.value, _TEST, w)
        w(")")
    elif t is ast.BoolOp:
        own = _AND if type(node.op) is ast.And else _OR
        text = " and " if own == _AND else " or "
        if prec > own:
            w("(")
        level = own
        for i, value in enumerate(node.values):
            if i:
                w(text)
            level = min(level + 1, _ATOM)  # each operand one level higher than the one before (as ast does)
            _write(value, level, w)
        if prec > own:
            w(")")
    elif t is ast.IfExp:
        if prec > _TEST:
            w("(")
        _write(node.body, _OR, w)
        w(" if ")
        _write(node.test, _OR, w)
        w(" else ")
        _write(node.orelse, _TEST, w)
        if prec > _TEST:
            w(")")
    elif t is ast.UnaryOp:
        text, own = _UNOPS[type(node.op)]
        if prec > own:
            w("(")
        w(text)
        _write(node.operand, own, w)
        if prec > own:
            w(")")
    elif t is ast.ListComp or t is ast.GeneratorExp:
        w("[" if t is ast.ListComp else "(")
        _write(node.elt, _TEST, w)
        for gen in node.generators:
            if gen.is_async:
                raise _Other
            w(" for ")
            _write(gen.target, _TUPLE, w)
            w(" in ")
            _write(gen.iter, _OR, w)
            for cond in gen.ifs:
                w(" if ")
                _write(cond, _OR, w)
        w("]" if t is ast.ListComp else ")")
    elif t is ast.Tuple:
        paren = not node.elts or prec > _TUPLE
        if paren:
            w("(")
        _items(node.elts, w)
        if paren:
            w(")")
    elif t is ast.List:
        w("[")
        for i, item in enumerate(node.elts):
            if i:
                w(", ")
            _write(item, _TEST, w)
        w("]")
    elif t is ast.Attribute:
        _write(node.value, _ATOM, w)
        if type(node.value) is ast.Constant and isinstance(node.value.value, int):
            w(" ")
        w(".")
        w(node.attr)
    elif t is ast.Slice:
        if node.lower:
            _write(node.lower, _TEST, w)
        w(":")
        if node.upper:
            _write(node.upper, _TEST, w)
        if node.step:
            w(":")
            _write(node.step, _TEST, w)
    elif t is ast.Dict:
        w("{")
        for i, (k, value) in enumerate(zip(node.keys, node.values)):
            if i:
                w(", ")
            if k is None:
                w("**")
                _write(value, _EXPR, w)
            else:
                _write(k, _TEST, w)
                w(": ")
                _write(value, _TEST, w)
        w("}")
    else:
        raise _Other


def _items(items: list[Any], w: Callable[[str], Any]) -> None:
    """ast._Unparser.items_view: separated by commas, a lone item followed by one."""
    if len(items) == 1:
        _write(items[0], _TEST, w)
        w(",")
        return
    for i, item in enumerate(items):
        if i:
            w(", ")
        _write(item, _TEST, w)


def copy(node: ast.expr, on_copy: Callable[[ast.AST, ast.AST], Any] | None = None) -> ast.expr:
    """A new tree equal to ``ast.parse(ast.unparse(node), mode="eval").body``: the same nodes, new
    objects, no positions; a negative number (written ``-1``) read back as minus a positive one.
    ``on_copy(old, new)`` is called for each copied node whose subtree came back unchanged
    (so facts noted about ``old`` hold for ``new``)."""
    try:
        return _copy(node, on_copy)[0]
    except _Other:
        return _ast_parse(_ast_unparse(node), mode="eval").body  # type: ignore[no-any-return]


_LOAD, _STORE = ast.Load(), ast.Store()


def _copy(node: Any, on_copy: Callable[[ast.AST, ast.AST], Any] | None) -> tuple[Any, bool]:
    """(the copy, whether it has the same shape as ``node``)."""
    t = type(node)
    same = True
    if t is ast.Constant:
        value = node.value
        if isinstance(value, (tuple, complex)) or value is ...:
            raise _Other
        if isinstance(value, (int, float)) and not isinstance(value, bool) and (
                value < 0 or isinstance(value, float) and (math.isnan(value) or math.isinf(value) or
                                                           math.copysign(1.0, value) < 0)):
            if not isinstance(value, int):
                raise _Other  # (written specially by ast)
            return ast.UnaryOp(ast.USub(), ast.Constant(-value, None)), False
        new: Any = ast.Constant(value, getattr(node, "kind", None))
    elif t is ast.Name:
        ctx = type(node.ctx)
        if ctx is not ast.Load and ctx is not ast.Store:
            raise _Other
        new = ast.Name(node.id, _STORE if ctx is ast.Store else _LOAD)
    elif t in _SIMPLE_FIELDS:
        new = t.__new__(t)
        for field in t._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                if type(value) in _OPERATORS:
                    setattr(new, field, value)  # operators hold nothing: shared, as parse shares them
                    continue
                value, ok = _copy(value, on_copy)
                same = same and ok
            elif isinstance(value, list):
                items = []
                for item in value:
                    if isinstance(item, ast.AST) and type(item) not in _OPERATORS:
                        item, ok = _copy(item, on_copy)
                        same = same and ok
                    items.append(item)
                value = items
            setattr(new, field, value)
    else:
        raise _Other
    if same and on_copy is not None:
        on_copy(node, new)
    return new, same


_SIMPLE_FIELDS = frozenset({ast.Subscript, ast.Compare, ast.BinOp, ast.Call, ast.BoolOp, ast.IfExp, ast.UnaryOp,
                            ast.ListComp, ast.GeneratorExp, ast.comprehension, ast.Tuple, ast.List,
                            ast.Attribute, ast.Slice, ast.Dict, ast.keyword})
_OPERATORS = frozenset({*_BINOPS, *_UNOPS, *_CMPOPS, ast.And, ast.Or, ast.Load, ast.Store})


def kept(node: ast.AST) -> bool:
    """Does ``copy`` give ``node`` back as it is (its children aside)? A tree of such nodes only
    is the same as its copy: one that need not be copied, but for a change, may be changed itself."""
    t = type(node)
    if t is ast.Constant:
        value = node.value  # type: ignore[attr-defined]
        return value is None or type(value) is str or type(value) is bool or (type(value) is int and value >= 0)
    if t is ast.Name:
        return type(node.ctx) is ast.Load or type(node.ctx) is ast.Store  # type: ignore[attr-defined]
    return t in _SIMPLE_FIELDS or t in _OPERATORS
