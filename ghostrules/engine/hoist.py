"""Loop-invariant code motion for the expressions compile_expr generates.

A quantifier (``any(... for q in D if cond)``, a ``members`` list, ``next``, ``sum`` ...) evaluates its
condition and body once per element of its domain. A part of them that reads neither the quantifier's
variable nor any variable bound inside the quantifier (``owner(p)`` in ``x in cells if
allowed(owner(p), x)``) has the same value for every element: the state does not change
while an expression is evaluated, and expressions have no side effects (they read the value list and
the locals, never write them). Such a part is computed once, before the loop.

Computing it before the loop changes *when* it is computed, so it could raise where the original
would not (the original may never reach it: every slot occupied, a short-circuit ``and``). The moved
parts are therefore computed *speculatively*: if any of them raises, the original comprehension runs
instead, unchanged, and does exactly what it would have done (the same value, or the same error).
Because expressions are pure, the discarded attempt leaves no trace. So the generated helper is::

    def _dN(v, L, <variables of enclosing quantifiers>):
        try:
            _t1 = <invariant part 1>
            _t2 = <invariant part 2, which may use _t1>
        except Exception:
            return <the original comprehension>
        return <the comprehension reading _t1, _t2>

and the quantifier's place in the expression becomes the call ``_dN(v, L, ...)``. Two invariant
parts are moved in a changed form: a run of slots tested for membership (``x in v[a:b]``: does
some slot of the run hold ``x``) becomes a set (``_members(v, a, b)``, engine/runtime.py: the set of
the run's values, the last one made of that run given again while the run holds the same values), and
the first place of a value in a long run (``_first(v, a, n, x)``: which slot of the run holds ``x``) is
looked up in a table of first places (``_firsts``), both got once per evaluation and giving the same
answers as the scans.

The same speculative helper computes *common subexpressions* once: a costly part written more than
once in an expression, outside any loop, and always computed by it (not only in a branch, so that
computing it first wastes nothing).

Helpers equal up to their own name and their local names are defined once per namespace (``hoist``'s
``shared``), so equal parts of two expressions are written alike; ``remembered`` computes a part that
several conditions of one function share (a decision's guards, engine/menus.py) once per call.

Nothing here runs code: this module only rewrites the Python syntax tree of source generated from a
checked spec AST; compile_expr compiles and defines the result (ExprCompiler.define).
"""

from __future__ import annotations

import ast
import itertools
import re
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from .syntax import copy, kept, unparse

_LOCAL = re.compile(r"(v|L|a\d+|_q\d+|_t\d+)\Z")  # the generated code's local names (all else is global)
_COMPS = (ast.ListComp, ast.GeneratorExp)
_CHEAP_CALLS = frozenset({"_bad"})  # a call only on the error path costs nothing on the normal one
WORTH = 24  # the estimated saving (see _cost) for which the helper's call and its ``try`` pay
UNKNOWN_LENGTH = 4  # the number of elements assumed for a domain whose length is not written in the code


_NONE: frozenset[str] = frozenset()


_Facts = tuple  # (key, loaded, bound, node, cost, size, kept): see _Shape
_COST_ONE = frozenset({ast.Subscript, ast.BinOp, ast.Compare, ast.IfExp, ast.BoolOp, ast.UnaryOp})
_TABLE_CALLS = frozenset({"set", "_members", "_firsts"})
_IS_LOCAL: dict[str, bool] = {}  # name -> does _LOCAL match it


class _Shape:
    """Facts about the nodes of the trees being rewritten, each computed once (the trees are walked
    top-down, so a subtree's facts are asked for at every level above it): the local names a node
    reads, the names its quantifiers bind, a structural key (equal keys, equal code), its cost
    (``_cost``), its number of nodes (``_size``) and whether it is its own copy (syntax.kept).

    A node's facts are noted when first asked for and stay true while its subtree is unchanged:
    every change to a tree goes through ``rebuild`` or ``set``, which forget the facts of the node
    changed (and so, through ``rebuild``, of the nodes above it). A copy (syntax.copy) carries the
    facts of what it copies. One _Shape serves a whole expression, before and after its changes.
    ``attempt`` starts a change that ``undo`` takes back (the tree and its facts as they were)."""

    def __init__(self) -> None:
        self._keys: dict[tuple, int] = {}
        self._memo: dict[int, _Facts] = {}
        self._undo: list[tuple[Any, str, Any]] | None = None  # while attempting: (node, field, old value)
        self._forgotten: dict[int, _Facts] = {}  # while attempting: the facts forgotten, as they were

    def _facts(self, node: Any) -> _Facts:
        memo = self._memo
        got = memo.get(id(node))
        if got is not None and got[3] is node:
            return got
        t = type(node)
        if t is ast.Name and type(node.ctx) is ast.Load:  # the commonest node, directly (the same facts)
            name = node.id
            local = _IS_LOCAL.get(name)
            if local is None:
                local = _IS_LOCAL[name] = _LOCAL.match(name) is not None
            keys = self._keys
            key = keys.setdefault((t, (str, name), None, self._facts(node.ctx)[0], None), len(keys))
            facts = (key, frozenset((name,)) if local else _NONE, _NONE, node, 0, 2, True)
            memo[id(node)] = facts
            return facts
        parts: list[Any] = [t]
        loaded = bound = _NONE
        cost = 0
        size = 1
        own = kept(node)
        for field in t._fields:
            value = getattr(node, field, None)
            for item in value if type(value) is list else (value,):
                if isinstance(item, ast.AST):
                    f = memo.get(id(item))
                    if f is None or f[3] is not item:
                        f = self._facts(item)
                    parts.append(f[0])
                    if f[1]:
                        loaded = f[1] if not loaded else loaded | f[1]
                    if f[2]:
                        bound = f[2] if not bound else bound | f[2]
                    cost += f[4]
                    size += f[5]
                    own = own and f[6]
                else:
                    parts.append((type(item), item))
            parts.append(None)  # fields end here: [a], [b] differs from [a, b]
        if t is ast.Name:
            if type(node.ctx) is ast.Load:
                local = _IS_LOCAL.get(node.id)
                if local is None:
                    local = _IS_LOCAL[node.id] = _LOCAL.match(node.id) is not None
                if local:
                    loaded = loaded | {node.id}
        elif t is ast.Call:
            func = node.func
            named = type(func) is ast.Name
            cost += 0 if named and func.id in _CHEAP_CALLS else 10
            if named and func.id in _TABLE_CALLS:
                cost += 20  # a set in place of a scan: each test saves a pass over the run
        elif t in _COST_ONE:
            cost += 1
        elif t is ast.ListComp or t is ast.GeneratorExp:
            cost += 20
        elif t is ast.comprehension:
            bound = bound | {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        keys = self._keys
        facts = (keys.setdefault(tuple(parts), len(keys)), loaded, bound, node, cost, size, own)
        memo[id(node)] = facts
        return facts

    def clear(self) -> None:
        """Forget all (the trees are no longer needed)."""
        self._memo.clear()
        self._keys.clear()

    def key(self, node: ast.AST) -> int:
        return self._facts(node)[0]  # type: ignore[no-any-return]

    def loaded(self, node: ast.AST) -> frozenset[str]:
        return self._facts(node)[1]  # type: ignore[no-any-return]

    def bound(self, node: ast.AST) -> frozenset[str]:
        """The names bound by the comprehensions in ``node`` (itself included)."""
        return self._facts(node)[2]  # type: ignore[no-any-return]

    def free(self, node: ast.AST) -> frozenset[str]:
        """The local names ``node`` reads from outside itself (every generated quantifier variable is unique)."""
        facts = self._facts(node)
        return facts[1] - facts[2] if facts[2] else facts[1]  # type: ignore[no-any-return]

    def cost(self, node: ast.AST) -> int:
        """``_cost(node)``."""
        return self._facts(node)[4]  # type: ignore[no-any-return]

    def size(self, node: ast.AST) -> int:
        """``_size(node)``."""
        return self._facts(node)[5]  # type: ignore[no-any-return]

    def kept(self, node: ast.AST) -> bool:
        """Is ``node`` its own copy (``copy(node)``, as ast.parse(ast.unparse(node)) reads it)?"""
        return self._facts(node)[6]  # type: ignore[no-any-return]

    # ---- changes ---------------------------------------------------------------------------
    def noted(self, node: Any) -> bool:
        """Are ``node``'s facts noted (and so, by the rule above, true of it)?"""
        got = self._memo.get(id(node))
        return got is not None and got[3] is node

    def forget(self, node: ast.AST) -> None:
        """``node`` has changed: its facts are noted afresh when next asked for."""
        got = self._memo.pop(id(node), None)
        if got is not None and self._undo is not None:
            self._forgotten.setdefault(id(node), got)

    def set(self, node: Any, field: str, value: Any) -> None:
        """``node.field = value``, forgetting ``node``'s facts."""
        if self._undo is not None:
            self._undo.append((node, field, getattr(node, field)))
        setattr(node, field, value)
        self.forget(node)

    def rebuild(self, node: Any, on_expr: Callable[[Any], Any], on_generator: Callable[[Any], Any]) -> Any:
        """``node`` with each child expression replaced by ``on_expr(child)`` and each comprehension
        clause by ``on_generator(clause)`` (in place; returns ``node``), its facts forgotten when a
        child was replaced or changed below (its own facts forgotten)."""
        changed = False
        undo = self._undo
        for field in type(node)._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.expr):
                new = on_expr(value)
                if new is not value or not self.noted(new):
                    changed = True
                if undo is not None:
                    undo.append((node, field, value))
                setattr(node, field, new)
            elif isinstance(value, list):
                items = []
                for x in value:
                    if isinstance(x, ast.expr):
                        y = on_expr(x)
                    elif isinstance(x, ast.comprehension):
                        y = on_generator(x)
                    else:
                        items.append(x)
                        continue
                    if y is not x or not self.noted(y):
                        changed = True
                    items.append(y)
                if undo is not None:
                    undo.append((node, field, value))
                setattr(node, field, items)
        if changed:
            self.forget(node)
        return node

    def attempt(self) -> None:
        """Note the changes from now on, so that ``undo`` can take them back (``keep``: no more)."""
        assert self._undo is None, "one attempt at a time"
        self._undo = []
        self._forgotten = {}

    def keep(self) -> None:
        self._undo = None
        self._forgotten = {}

    def undo(self) -> None:
        """The trees and the facts as they were when ``attempt`` was called. (The nodes of a tree
        being changed all had their facts noted then: facts noted during the attempt are of nodes
        changed, forgotten and so put back here, or of new nodes, which the tree no longer holds.)"""
        assert self._undo is not None
        for node, field, value in reversed(self._undo):
            setattr(node, field, value)
        self._memo.update(self._forgotten)
        self.keep()

    def carry(self, old: ast.AST, new: ast.AST) -> None:
        """``new`` is a copy of ``old`` (the same shape): what is noted of ``old`` holds for it."""
        got = self._memo.get(id(old))
        if got is not None and got[3] is old:
            self._memo[id(new)] = (got[0], got[1], got[2], new, got[4], got[5], got[6])


def _cost(node: ast.AST) -> int:
    """A rough cost of evaluating ``node`` once: calls and loops dominate; the error path is free."""
    return sum(_own_cost(n) for n in ast.walk(node))


def _own_cost(n: ast.AST) -> int:
    """The part of ``_cost`` that a node adds itself (its children's added apart): a call 10 unless
    cheap, 20 more for a table's (a set in place of a scan: each test saves a pass over the run), a
    comprehension 20, an operation or subscript 1."""
    if isinstance(n, ast.Call):
        named = isinstance(n.func, ast.Name)
        return (0 if named and n.func.id in _CHEAP_CALLS else 10) + \
            (20 if named and n.func.id in _TABLE_CALLS else 0)  # type: ignore[attr-defined]
    if isinstance(n, _COMPS):
        return 20
    return 1 if isinstance(n, (ast.Subscript, ast.BinOp, ast.Compare, ast.IfExp, ast.BoolOp, ast.UnaryOp)) else 0


def _size(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))


def _is_trivial(node: ast.AST) -> bool:
    return isinstance(node, (ast.Name, ast.Constant)) or (
        isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant))


class _Hoister:
    """Rewrites one generated expression; ``define(source)`` defines a helper, ``fresh(prefix)`` names
    helpers and temporaries; ``shape`` holds the facts about the tree's nodes."""

    def __init__(self, define: Callable[[str], None], fresh: Callable[[str], str], shape: _Shape) -> None:
        self.define = define
        self.fresh = fresh
        self.shape = shape

    def expression(self, node: ast.expr) -> ast.expr:
        """``node`` with each quantifier that has loop-invariant parts replaced by a helper call."""
        if not self.shape.bound(node):
            return node  # no quantifier in it
        if isinstance(node, _COMPS):
            replaced = self._comprehension(node)
            if replaced is not None:
                return replaced
        return self.shape.rebuild(node, self.expression, self._generator)

    def _again(self, node: ast.expr) -> ast.expr:
        """``expression`` on a tree made from parts of one already seen (a moved part, the loop that
        reads the moved parts): the facts of its unchanged parts are still those noted (changed
        ones were forgotten, see _Shape.rebuild)."""
        if not _has_comprehension(node):
            return node
        return self.expression(node)

    def _generator(self, gen: ast.comprehension) -> ast.comprehension:
        return self.shape.rebuild(gen, self.expression, self._generator)  # type: ignore[no-any-return]

    def _comprehension(self, comp: ast.ListComp | ast.GeneratorExp) -> ast.expr | None:
        shape = self.shape
        bound = shape.bound(comp)
        if not _invariant_inside(comp, shape, bound):
            return None  # nothing in the loop is invariant (the common case: no copy made)
        found: list[ast.expr] = []
        found_keys: list[int] = []
        placeholders: list[ast.Name] = []
        # a set or table of the run pays for itself over a long enough loop only (the outer domain's length)
        tables = (_length(comp.generators[0].iter, 0) or LOOKUPS_FROM) >= LOOKUPS_FROM  # unknown: as before

        def visit(node: ast.expr) -> ast.expr:
            """``node`` with its maximal invariant parts replaced by placeholders (noted in ``found``)."""
            run = _scanned_run(node)
            if tables and run is not None and not (shape.free(run) & bound):
                # ``x in v[a:b]`` in a loop: the run's values are put in a set once, and each test
                # looks the value up there (the same answer: the slots hold ints)
                bounds = [run.slice.lower, run.slice.upper]  # type: ignore[attr-defined]  # constants (_scanned_run)
                table = ast.Call(ast.Name("_members", ast.Load()), [ast.Name("v", ast.Load()), *bounds], [])
                shape.set(node, "comparators", [visit(table)])
                shape.set(node, "left", visit(node.left))
                return node
            if tables and _is_long_first(node) and shape.free(node.args[3]) & bound:
                # ``first(g in D if S[g] == x)`` for each x of a loop: the first place of every value
                # of the run is noted once, and each x looked up there (-1 when absent, as _first)
                table = visit(ast.Call(ast.Name("_firsts", ast.Load()), node.args[:3], []))
                return ast.Call(ast.Attribute(table, "get", ast.Load()), [visit(node.args[3]), ast.Constant(-1)], [])
            if not _is_trivial(node) and shape.loaded(node) and not (shape.free(node) & bound) and shape.cost(node) > 0:
                key = shape.key(node)
                if key not in found_keys:
                    found.append(node)
                    found_keys.append(key)
                placeholder = ast.Name(f"@{found_keys.index(key)}", ast.Load())
                placeholders.append(placeholder)
                return placeholder
            return shape.rebuild(node, visit, visit_gen)

        def visit_gen(gen: ast.comprehension, first: bool = False) -> ast.comprehension:
            if first:  # the first domain is evaluated once anyway, outside the loop
                shape.set(gen, "ifs", [visit(x) for x in gen.ifs])
                return gen
            return shape.rebuild(gen, visit, visit_gen)  # type: ignore[no-any-return]

        guard = _leading_guard(comp, shape, bound)
        original = unparse(comp)
        free = shape.free(comp)
        reads_domain = bool(shape.loaded(comp.generators[0].iter))
        # the loop is rewritten in place when it is its own copy (as ast.parse(original) reads it),
        # the changes taken back if moving is not worth it; else a copy is (with comp's facts)
        work = comp if shape.kept(comp) else copy(comp, shape.carry)
        assert isinstance(work, _COMPS)
        shape.attempt()
        shape.set(work, "elt", visit(work.elt))
        shape.set(work, "generators", [visit_gen(g, i == 0) for i, g in enumerate(work.generators)])
        if not found or sum(shape.cost(x) for x in found) * (_length(work.generators[0].iter) - 1) < WORTH:
            shape.undo()
            return None
        shape.keep()
        # the moved parts, smallest first, each reading the temporaries of those inside it
        names = [self.fresh("_t") for _ in found]
        order = sorted(range(len(found)), key=lambda i: shape.size(found[i]))
        assigns = []
        done: dict[int, str] = {}
        for i in order:
            part = _replace_keys(found[i], done, shape, in_place=True)  # (found[i] is in no tree now)
            part = self._again(part)  # a quantifier inside a moved part may have invariants of its own
            assigns.append(f"        {names[i]} = {unparse(part)}")
            done[found_keys[i]] = names[i]
        for placeholder in placeholders:  # placeholders ``@i`` become the temporaries' names
            placeholder.id = names[int(placeholder.id[1:])]
            shape.forget(placeholder)
        body = self._again(work)
        params = [*(p for p in ("v", "L") if p in free), *sorted(free - {"v", "L"})]
        helper = self.fresh("_d")
        # a leading invariant conjunct of the filter that is false makes every element fail, so the
        # answer is empty and the moved parts, which may be costly (a lookup for a menu option whose
        # kind test fails), are not computed. The empty answer is written out when the outer
        # domain reads nothing (a fixed range: evaluating it cannot fail), else the original runs
        # (each element stops at that conjunct)
        empty = ("[]" if isinstance(comp, ast.ListComp) else "iter(())") if not reads_domain else original
        first = f"        if not ({guard}):\n            return {empty}\n" if guard else ""
        self.define(f"def {helper}({', '.join(params)}):\n    try:\n" + first + "\n".join(assigns) +
                    f"\n    except Exception:\n        return {original}\n    return {unparse(body)}\n")
        return ast.Call(ast.Name(helper, ast.Load()), [ast.Name(p, ast.Load()) for p in params], [])


def invariant_cost(code: str) -> int:
    """The estimated cost (``_cost``) of the parts of the body and the conditions of the comprehension
    ``code`` (its outermost loop) that read no variable it binds: what ``_Hoister`` would compute once
    instead of once per element (a trivial part, a name or a constant slot, costs nothing)."""
    tree = ast.parse(code, mode="eval").body
    assert isinstance(tree, _COMPS)
    shape = _Shape()
    bound = shape.bound(tree)
    costs: dict[int, int] = {}  # the parts' keys (a part written twice is computed once) -> cost
    todo: list[Any] = [tree.elt, *tree.generators[0].ifs]
    for gen in tree.generators[1:]:
        todo += [gen.iter, *gen.ifs]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.expr) and not (shape.free(n) & bound):
            if not _is_trivial(n) and shape.loaded(n):
                costs[shape.key(n)] = shape.cost(n)
            continue
        todo += _children(n)
    return sum(costs.values())


def _leading_guard(comp: ast.ListComp | ast.GeneratorExp, shape: _Shape, bound: frozenset[str]) -> str | None:
    """The source of the leading conjuncts of the outer loop's filter that read no variable the
    quantifier binds (``kind[g] == k2`` in ``x in spot if kind[g] == k2 and allowed(g, x)``), or None.
    While they are false no element passes the filter."""
    ifs = comp.generators[0].ifs
    if not ifs:
        return None
    cond = ifs[0]
    parts = cond.values if isinstance(cond, ast.BoolOp) and isinstance(cond.op, ast.And) else [cond]
    lead = []
    for part in parts:
        if shape.free(part) & bound:
            break
        lead.append(part)
    if not lead or len(lead) == len(parts) and len(ifs) == 1:
        return None  # no invariant lead, or the whole filter is invariant (moved as one part already)
    return " and ".join(f"({unparse(part)})" for part in lead)


SET_FROM = 16  # the shortest run of slots worth a set when a loop tests membership in it
TABLE_FROM = 32  # the shortest run worth a table of first places (_firsts) when a loop looks values up
LOOKUPS_FROM = 6  # the shortest loop worth such a set or table (building one costs a few lookups; an
# any() or all() over a short domain often stops at its first element)


def _scanned_run(node: ast.expr) -> ast.expr | None:
    """The run ``v[a:b]`` (b - a >= SET_FROM) of a membership test ``x in v[a:b]``, else None."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        run = node.comparators[0]
        if isinstance(run, ast.Subscript) and isinstance(run.value, ast.Name) and run.value.id == "v" and \
                isinstance(run.slice, ast.Slice) and isinstance(run.slice.lower, ast.Constant) and \
                isinstance(run.slice.upper, ast.Constant) and run.slice.step is None and \
                run.slice.upper.value - run.slice.lower.value >= SET_FROM:
            return run
    return None


def _is_long_first(node: ast.expr) -> bool:
    """Is ``node`` a call ``_first(v, offset, n, x)`` over a long run (n >= TABLE_FROM)?"""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_first" and \
        len(node.args) == 4 and isinstance(node.args[0], ast.Name) and node.args[0].id == "v" and \
        isinstance(node.args[1], ast.Constant) and isinstance(node.args[2], ast.Constant) and \
        node.args[2].value >= TABLE_FROM


def _length(node: ast.expr, unknown: int = UNKNOWN_LENGTH) -> int:
    """The number of elements of a quantifier's domain, as far as the code shows it (else ``unknown``)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" and \
            len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
        return int(node.args[0].value)
    if isinstance(node, ast.Tuple):
        return len(node.elts)
    return unknown


def _children(node: Any) -> list[Any]:
    """``list(ast.iter_child_nodes(node))``, in that order."""
    out = []
    for field in type(node)._fields:
        value = getattr(node, field, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out += [x for x in value if isinstance(x, ast.AST)]
    return out


def _has_comprehension(node: ast.AST) -> bool:
    """Is there a quantifier (a list or generator comprehension) in ``node``?"""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, _COMPS):
            return True
        todo += _children(n)
    return False


def _invariant_inside(comp: ast.ListComp | ast.GeneratorExp, shape: _Shape, bound: frozenset[str]) -> bool:
    """Is a part evaluated once per element (of the body, the filters, the later domains) other than
    a name, a constant or a constant slot invariant: reading no variable the quantifier binds? (A
    part that is invariant and trivial holds only trivial parts: its own are not looked at.)"""
    todo: list[Any] = [comp.elt]
    for i, gen in enumerate(comp.generators):
        if i:
            todo.append(gen.iter)
        todo += gen.ifs
    while todo:
        n = todo.pop()
        if isinstance(n, ast.expr) and not (shape.free(n) & bound):
            if not _is_trivial(n):
                return True
            continue
        todo += _children(n)
    return False


def _replace_keys(node: ast.expr, done: dict[int, str], shape: _Shape, root: bool = False,
                  in_place: bool = False) -> ast.expr:
    """``node`` (a copy, as ast.parse(unparse(node)) reads it) with every subexpression already
    computed into a temporary replaced by it (``node`` itself too when ``root``). ``in_place``:
    ``node`` is in no tree still used, so when it is its own copy it is changed itself."""
    new = node if in_place and shape.kept(node) else copy(node, shape.carry)

    def visit(n: ast.expr) -> ast.expr:
        name = done.get(shape.key(n))
        if name is not None:
            return ast.Name(name, ast.Load())
        return children(n)

    def children(n: Any) -> Any:
        return shape.rebuild(n, visit, children)

    return visit(new) if root else children(new)  # type: ignore[no-any-return]


def read_once(code: str, name: str) -> bool:
    """Does ``code`` read ``name`` exactly once, and always (not in a branch, a later operand of
    ``and``/``or``/a chained comparison, or a loop)?"""
    tree = ast.parse(code, mode="eval").body
    if sum(1 for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name) != 1:
        return False

    def always(node: ast.AST) -> bool:
        """Is the read of ``name`` in ``node`` evaluated whenever ``node`` is?"""
        if isinstance(node, ast.Name):
            return node.id == name
        if isinstance(node, ast.IfExp):
            return always(node.test)
        if isinstance(node, ast.BoolOp):
            return always(node.values[0])
        if isinstance(node, ast.Compare):
            return always(node.left) or always(node.comparators[0])
        if isinstance(node, (*_COMPS, ast.SetComp, ast.DictComp, ast.Lambda)):
            return always(node.generators[0].iter) if not isinstance(node, ast.Lambda) else False
        return any(always(child) for child in ast.iter_child_nodes(node))

    return always(tree)


def _unconditional(tree: ast.AST) -> list[ast.AST]:
    """The nodes of ``tree`` evaluated whenever ``tree`` is (see ``read_once``)."""
    out: list[ast.AST] = []

    def walk(node: ast.AST) -> None:
        out.append(node)
        if isinstance(node, ast.IfExp):
            walk(node.test)
        elif isinstance(node, ast.BoolOp):
            walk(node.values[0])
        elif isinstance(node, ast.Compare):
            walk(node.left)
            walk(node.comparators[0])
        elif isinstance(node, (*_COMPS, ast.SetComp, ast.DictComp)):
            walk(node.generators[0].iter)
        elif not isinstance(node, ast.Lambda):
            for child in ast.iter_child_nodes(node):
                walk(child)

    walk(tree)
    return out


_CALLS = re.compile(r"\b(?!_bad\b)(_?[a-z]\w*)\(")  # the names of the calls in a generated expression
CSE_WORTH = 10  # the least cost (see _cost) of a repeated part worth a temporary


def _common(tree: ast.expr, define: Callable[[str], None], fresh: Callable[[str], str], shape: _Shape) -> ast.expr:
    """Common subexpressions: a costly part written more than once, and always computed (so computing
    it first wastes nothing), is computed once into a temporary by a helper, as in ``_comprehension``."""
    bound = shape.bound(tree)
    seen: dict[int, list[ast.expr]] = {}
    todo = deque([tree])  # (in the order of ast.walk)
    while todo:
        n = todo.popleft()
        todo += _children(n)
        if isinstance(n, ast.expr) and not _is_trivial(n):
            seen.setdefault(shape.key(n), []).append(n)
    always = {shape.key(n) for n in _unconditional(tree)}
    parts = [nodes[0] for key, nodes in seen.items() if len(nodes) > 1 and key in always and
             not (shape.loaded(nodes[0]) & bound) and shape.cost(nodes[0]) >= CSE_WORTH]
    if not parts:
        return tree
    original = unparse(tree)
    parts.sort(key=shape.size)
    done: dict[int, str] = {}
    assigns = []
    for part in parts:
        name = fresh("_t")
        assigns.append(f"        {name} = {unparse(_replace_keys(part, done, shape))}")
        done[shape.key(part)] = name
    free = shape.free(tree)
    body = _replace_keys(tree, done, shape, root=True, in_place=True)  # (tree is replaced by the call)
    params = [*(p for p in ("v", "L") if p in free), *sorted(free - {"v", "L"})]
    helper = fresh("_d")
    define(f"def {helper}({', '.join(params)}):\n    try:\n" + "\n".join(assigns) +
           f"\n    except Exception:\n        return {original}\n    return {unparse(body)}\n")
    return ast.Call(ast.Name(helper, ast.Load()), [ast.Name(p, ast.Load()) for p in params], [])


# Rewrites already made in this process, by the expression's *template*: its text with every
# generated name (``_k`` constants, ``_d`` definitions, ``_q``/``_t``/``_p`` variables, each with the
# number a compiler gave it) replaced, in order of first appearance, by a placeholder with the same
# prefix. Two configurations (or tests, or the proofs) compile the same spec expression under other
# numbers; the rewrite reads only the code's shape and literal numbers (offsets and lengths of runs),
# never a generated name's meaning, so the template's rewrite serves both. The rewrite names what it
# makes (helpers, temporaries) from a count of its own (``_MADE_FROM`` on), so a template's rewrite is
# the same text whatever was rewritten before. Each use renames the placeholders back and gives the
# names the rewrite made new names from the caller's ``fresh`` (two expressions of one compiler may
# share a template with different constants), so the text generated for an expression depends on the
# expression and the caller's count only, never on what this process compiled before (the code cache
# on disk, engine/codecache.py, keys on that text). Value: (rewritten template, helpers' sources, the
# names the rewrite made, in order of first appearance).
_DONE: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {}
_GENERATED = re.compile(r"\b_[a-z]\d+\b")  # a generated name: _k12, _d157, _q40, _t3, _p0
_MADE_FROM = 800_000_000  # the names a rewrite makes, far above a compiler's own
_PLACEHOLDER_FROM = 900_000_000  # placeholders' numbers, above those


def hoist(code: str, define: Callable[[str], None], fresh: Callable[[str], str],
          shared: dict[str, str] | None = None) -> str:
    """``code`` (a generated expression) with the loop-invariant parts of its quantifiers computed
    once per evaluation and its costly repeated parts computed once, or ``code`` itself when there
    is nothing worth moving. ``define(source)`` defines a helper in the namespace the code runs in;
    ``fresh(prefix)`` gives a name (``_d``, ``_t`` and a number) not yet used in that namespace.
    ``shared`` (one per namespace, kept by the caller): the helpers defined so far, by their source
    with their own name and their local names left out (``_alpha``); a helper that would be the same
    as one defined before, up to those names, is not defined again: the code calls the one before
    (so equal parts of two expressions are written alike).
    The result and the helpers' sources depend only on ``code``, the names ``fresh`` gives and
    ``shared``."""
    if " for " not in code and not _repeats_a_call(code):
        return code  # nothing _rewrite would look at (the same answer for the template: see there)
    names: dict[str, str] = {}  # generated name -> its placeholder

    def placeholder(m: re.Match[str]) -> str:
        got = names.get(m[0])
        if got is None:
            got = names[m[0]] = f"{m[0][:2]}{_PLACEHOLDER_FROM + len(names)}"
        return got

    template = _GENERATED.sub(placeholder, code)
    done = _DONE.get(template)
    if done is None:
        sources: list[str] = []
        rewritten = _rewrite(template, sources.append)
        placeholders = set(names.values())
        made = dict.fromkeys(m[0] for text in (*sources, rewritten) for m in _GENERATED.finditer(text)
                             if m[0] not in placeholders)
        done = _DONE[template] = (rewritten, tuple(sources), tuple(made))
    if not done[1]:  # nothing moved (a rewrite always defines its helper)
        return code
    back = {ph: name for name, ph in names.items()}
    new_names = set(done[2])  # the names the rewrite made: each given a fresh name when first met

    def instance(text: str) -> str:
        return _GENERATED.sub(lambda m: back[m[0]] if m[0] in back else back.setdefault(m[0], fresh(m[0][:2]))
                              if m[0] in new_names else m[0], text)

    for source in done[1]:
        helper = _DEF.match(source)
        if shared is None or helper is None:
            define(instance(source))
            continue
        ph = helper[1]
        back[ph] = "_d"  # (only its own name: the key reads no number of it)
        key = _alpha(instance(source))
        name = shared.get(key)
        if name is not None:  # the same helper, defined already: called in its place
            back[ph] = name
            continue
        back[ph] = shared[key] = fresh("_d")
        define(instance(source))
    return instance(done[0])


_DEF = re.compile(r"def (_d\d+)\(")
_LOCAL_GENERATED = re.compile(r"\b_[qtp]\d+\b")  # generated names of locals: quantifier variables, temporaries


def _alpha(source: str) -> str:
    """``source`` with its generated local names renamed in order of first appearance (equal for two
    helpers that differ only in the names of their parameters and variables)."""
    names: dict[str, str] = {}
    return _LOCAL_GENERATED.sub(lambda m: names.setdefault(m[0], f"_q{len(names)}"), source)


def _repeats_a_call(code: str) -> bool:
    """Is a call written twice in ``code`` (a costly part written twice starts with the same call)?
    (The same answer for an expression and its template: the names are renamed one to one.)"""
    calls = _CALLS.findall(code)
    return len(calls) != len(set(calls))


def _rewrite(code: str, define: Callable[[str], None]) -> str:
    repeated = _repeats_a_call(code)
    if " for " not in code and not repeated:
        return code

    defined: list[str] = []
    made = itertools.count(_MADE_FROM)  # (renamed at each use, see hoist)

    def fresh(prefix: str) -> str:
        return f"{prefix}{next(made)}"

    def record(source: str) -> None:
        defined.append(source)
        define(source)

    new = ast.parse(code, mode="eval").body
    shape = _Shape()  # one for both passes: a part the first changes has its facts noted afresh
    if " for " in code:
        new = _Hoister(record, fresh, shape).expression(new)
    if repeated:
        new = _common(new, record, fresh, shape)
    out = unparse(new) if defined else code  # nothing moved: the tree is the code's own
    shape.clear()  # (the trees go now: the rewrite's recursive closures hold the shape until a collection)
    return out


# a value that is cheap to read twice: a temporary, a loop variable, a parameter, a local, a slot
# at a constant offset from one of those
_SIMPLE_ARG = r"(?:_[tqp]\d+|a\d+|L\['\w+'\]|v\[\d+(?: \+ (?:_[tqp]\d+|a\d+))?\])"
_CK = re.compile(r"(?<![\w.])_ck\((" + _SIMPLE_ARG + r"), (\d+), (_k\d+)\)")
_WITHIN = re.compile(r"(?<![\w.])_within\((" + _SIMPLE_ARG + r"), (\d+)\)")


def inline_checks(code: str) -> str:
    """``code`` with the range checks ``_ck(x, n, what)`` and ``_within(x, n)`` of a simple x
    written in place, as the conditional expressions they compute (engine/runtime.py): the same
    value or the same error, without a call. x is pure and cheap, so reading it twice changes nothing."""
    if "_ck(" in code:
        code = _CK.sub(lambda m: f"({m[1]} if 0 <= {m[1]} < {m[2]} else _bad({m[3]}))", code)
    if "_within(" in code:
        code = _WITHIN.sub(lambda m: f"({m[1]} if 0 <= {m[1]} < {m[2]} else -1)", code)
    return code


def remembered(codes: list[str], is_global: Callable[[str], bool], fresh: Callable[[], str],
               unset: str) -> list[str]:
    """Generated conditions evaluated one after the other in one function, against the same values
    and locals (a decision's guards, engine/menus.py), with each costly part written in more than
    one place (up to the names of its quantifiers' variables) computed once: where it is written it
    becomes ``(_w if _w is not UNSET else (_w := part))``, ``_w`` a new local (``fresh()``) that the
    function sets to ``unset`` (a name of a unique object) before the first condition. The part is so
    computed where it was first computed, and read where it was computed again: expressions are pure,
    so the same value, or the same error at the same place. A part is taken when it reads no local
    other than ``v`` and ``L`` (``is_global`` names the rest), lies in no quantifier or lambda (where an
    assignment expression is not allowed or would be bound each time), is not what a loop consumes
    (an argument of ``any``, ``sum`` ...: a generator is used up once), holds the reads of what it
    assigns (a check written in place, engine/passed.py, is taken whole or not at all), and is written
    in two places not inside one part taken (a part inside one is computed once with it)."""
    trees = [ast.parse(code, mode="eval").body for code in codes]
    keys: dict[int, str] = {}
    found: list[tuple[str, list[str]]] = []  # (key, the keys of the candidates around it, nearest first)
    # each node's cost (_cost) and the names other than v and L it loads and stores, with their
    # counts, noted from the leaves up (each node once, not once for every node around it)
    facts: dict[int, tuple[int, Counter[str], Counter[str]]] = {}

    def note(node: ast.AST) -> tuple[int, Counter[str], Counter[str]]:
        cost, loads, stores = _own_cost(node), Counter[str](), Counter[str]()
        if isinstance(node, ast.Name) and node.id not in ("v", "L"):
            if isinstance(node.ctx, ast.Store):
                stores[node.id] += 1
            elif isinstance(node.ctx, ast.Load):
                loads[node.id] += 1
        for child in ast.iter_child_nodes(node):
            c, ls, ss = note(child)
            cost += c
            loads.update(ls)
            stores.update(ss)
        facts[id(node)] = (cost, loads, stores)
        return cost, loads, stores

    def candidate(node: ast.expr) -> bool:
        cost, loads, stores = facts[id(node)]
        if _is_trivial(node) or cost < CSE_WORTH:
            return False
        if any(loads[name] < count for name, count in stores.items()):
            return False  # an assignment read outside the part (a check written in place: taken whole or not)
        return all(name in stores or is_global(name) for name in loads)

    def visit(node: ast.AST, around: list[str], consumed: bool) -> None:
        if isinstance(node, (*_COMPS, ast.SetComp, ast.DictComp, ast.Lambda)):
            return
        if isinstance(node, ast.expr) and not consumed and candidate(node):
            key = keys[id(node)] = _alpha(unparse(node))
            found.append((key, around))
            around = [key, *around]
        loops = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONSUMERS
        for child in _children(node):
            visit(child, around, loops and child in node.args)

    for tree in trees:
        note(tree)
        visit(tree, [], False)
    taken: set[str] = set()
    for key in sorted({key for key, _ in found}, key=lambda k: -len(k)):  # (a part around another is longer)
        places = {next((a for a in around if a in taken), i) for i, (k, around) in enumerate(found) if k == key}
        if len(places) > 1:
            taken.add(key)
    if not taken:
        return codes
    names: dict[str, str] = {}

    def rewrite(node: Any) -> Any:
        if isinstance(node, (*_COMPS, ast.SetComp, ast.DictComp, ast.Lambda)):
            return node
        key = keys.get(id(node))
        for field in type(node)._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                setattr(node, field, rewrite(value))
            elif isinstance(value, list):
                setattr(node, field, [rewrite(x) if isinstance(x, ast.AST) else x for x in value])
        if key not in taken:
            return node
        name = names.get(key)
        if name is None:
            name = names[key] = fresh()
        return ast.IfExp(ast.Compare(ast.Name(name, ast.Load()), [ast.IsNot()], [ast.Name(unset, ast.Load())]),
                         ast.Name(name, ast.Load()), ast.NamedExpr(ast.Name(name, ast.Store()), node))

    return [ast.unparse(rewrite(tree)) for tree in trees]


_CONSUMERS = frozenset({"all", "any", "sum", "next", "min", "max", "list", "tuple", "set", "sorted", "iter",
                        "enumerate", "zip", "map", "filter", "len", "_firsts"})
