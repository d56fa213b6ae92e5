"""A part of the expressions in one generated function computed once where it is first computed.

A decision's function (engine/menus.py) evaluates, one after the other, its options' guards, the values
that key their Actions and, when an Action is not kept yet, their labels: expressions compile_expr
generated, which often repeat a costly part (``v[27 + (L['m'] if 0 <= L['m'] < 4 else _bad(_k82))]``,
a definition's call ``_first(v, 179, 65, x)``). Expressions are pure and the function writes neither
the value list ``v`` nor the locals ``L``, so a part computed again, where it was surely computed before
in the same run of the function (and the locals it reads not assigned since), has the value it had:
``computed_once`` computes it there into a new local, ``(_tN := part)``, and reads ``_tN`` where it is
computed again. "Surely computed before" follows Python's order of evaluation: a part evaluated
whenever an expression is (not in a later operand of ``and``/``or`` or of a chained comparison, nor in
a branch of ``x if c else y``, nor in a comprehension) is known after it, and, in an ``if``'s body,
every operand of the test's ``and`` (they all held). A part known inside a branch or a loop's body is
not known after it. The part is computed as often as before, or less, at the places it was first
computed: the same values, the same error at the same place.

The function's source marks the generated expressions, the only code whose parts are taken, as
``_S_(code)``, and a branch rarely taken (an Action not kept yet) as ``if _R_(test)``: a part computed
again only there is computed again (its first computation is not made to keep it). A loop marked
``for x in _I_(k, domain): if guard: body`` stands for a members list (``[q for q in domain if guard]``,
compile_expr's, or a helper's call, ``members[k]``) read by a loop; ``if _P_(k, lead): statements;
loop`` marks such a loop with the statements of the helper written before it (engine/menus.py). It is
written as that one loop, the guard's parts read by the body (and after the helper's statements, within
its leading test): the same options, without the list, but a guard evaluated after the body of an
earlier value (or a helper's statement, speculative, evaluated where the helper would not fail), so a
fault could be met in another order. The function then runs, when its statements raise, the statements
as written instead (``computed_once``'s second answer, the loop over ``members[k]``, the helper's
statements left out), which raise what they raise (the statements are pure but for the caches of
Actions, which keep the same Actions either way).
"""

from __future__ import annotations

import ast
import re
import textwrap
from typing import Any, Callable

from .hoist import _CONSUMERS
from .syntax import unparse

SPEC = "_S_"  # the mark of a generated expression: _S_(code)
MEMBERS = "_I_"  # the mark of a members list's loop: for x in _I_(k, domain)
RARE = "_R_"  # the mark of a branch rarely taken: if _R_(test)
PRELUDE = "_P_"  # the mark of a members list's helper written in place: if _P_(k, lead): statements; loop
_LOCAL = re.compile(r"(v|L|_x\d+|_L\d+|_t\d+)\Z")  # the locals a part may read (the function's own: not the caches)
_OPAQUE = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
_NEVER = (ast.Name, ast.Constant, ast.Starred, ast.Slice, ast.NamedExpr, *_OPAQUE, ast.Yield, ast.YieldFrom,
          ast.Await)
_OTHER, _DEFINE, _READ = 0, 1, 2  # outside a generated expression; in one; in one where no local may be set
LEAST = 4  # the fewest nodes of a part worth a local (reading it again saves at least three steps)


class _Part:
    """What is known of one node of the function: its structural key, the names it reads (and does not
    bind itself), its number of nodes, whether it holds an assignment expression."""

    __slots__ = ("key", "reads", "size", "walrus")

    def __init__(self, key: int, reads: frozenset[str], size: int, walrus: bool) -> None:
        self.key, self.reads, self.size, self.walrus = key, reads, size, walrus


class _Once:
    """Finds, in one pass over the function in its order of evaluation, the first computation of each
    part computed again (``first``) and the computations it makes useless (``again``)."""

    def __init__(self, is_global: Callable[[str], bool]) -> None:
        self.is_global = is_global
        self.parts: dict[int, _Part] = {}
        self.keys: dict[tuple, int] = {}
        self.again: dict[int, ast.expr] = {}  # id(a part computed again) -> its first computation
        self.first: dict[int, ast.expr] = {}  # id(a first computation read again, not only rarely) -> the node
        self.stored: dict[int, set[str]] = {}  # what a statement assigns (_stored), by id
        self.rare = 0  # in a branch rarely taken (marked _R_): a part computed again there alone is not kept

    def part(self, node: Any) -> _Part:
        got = self.parts.get(id(node))
        if got is not None:
            return got
        t = type(node)
        items: list[Any] = [t]
        reads: set[str] = set()
        bound: set[str] = set()
        size = 1
        walrus = t is ast.NamedExpr
        if t is ast.Name:
            (reads if type(node.ctx) is ast.Load else bound).add(node.id)
            items.append(node.id)
        for field in t._fields:
            value = getattr(node, field, None)
            for item in value if type(value) is list else (value,):
                if isinstance(item, ast.AST):
                    if isinstance(item, (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)):
                        items.append(type(item))
                        continue
                    p = self.part(item)
                    items.append(p.key)
                    reads |= p.reads
                    size += p.size
                    walrus = walrus or p.walrus
                    if type(item) is ast.Name and type(item.ctx) is ast.Store:
                        bound.add(item.id)
                    elif type(item) is ast.comprehension:
                        bound |= {n.id for n in ast.walk(item.target) if type(n) is ast.Name}
                elif t is not ast.Name:
                    items.append((field, repr(item)))
        key = self.keys.setdefault(tuple(items), len(self.keys))
        got = self.parts[id(node)] = _Part(key, frozenset(reads - bound), size, walrus)
        return got

    def candidate(self, node: Any) -> _Part | None:
        """The facts of ``node`` if it is a part to compute once (in a generated expression), else None."""
        if isinstance(node, _NEVER) or not isinstance(node, ast.expr):
            return None
        if type(node) is ast.Subscript and type(node.value) is ast.Name and type(node.slice) is ast.Constant:
            return None  # L['m'], v[12]: as cheap as a local
        p = self.part(node)
        if p.size < LEAST or p.walrus or not all(_LOCAL.match(n) or self.is_global(n) for n in p.reads):
            return None
        return p

    # ---- statements ----------------------------------------------------------------------------
    def block(self, body: list[ast.stmt], known: dict[int, Any]) -> None:
        for s in body:
            self.stmt(s, known)

    def stmt(self, s: ast.stmt, known: dict[int, Any]) -> None:
        t = type(s)
        if t is ast.Assign:
            self.expr(s.value, known, _OTHER)
            for target in s.targets:
                self.expr(target, known, _OTHER)
        elif t is ast.If:
            rare = _marked(s.test, RARE)
            holds = self.test(s.test.args[0] if rare else s.test, known, _OTHER)  # type: ignore[attr-defined]
            self.rare += rare
            self.block(s.body, holds)
            self.rare -= rare
            self.block(s.orelse, dict(known))
        elif t is ast.For:
            self.expr(s.iter, known, _OTHER, consumed=True)
            _forget(known, _stored(s, self.stored))  # assigned at each turn: what read them before is stale
            self.block(s.body, dict(known))
            self.block(s.orelse, dict(known))
        elif t in (ast.Expr, ast.Return):
            if s.value is not None:  # type: ignore[attr-defined]
                self.expr(s.value, known, _OTHER)  # type: ignore[attr-defined]
        elif t is ast.Raise:
            if s.exc is not None:  # type: ignore[attr-defined]
                self.expr(s.exc, known, _OTHER)  # type: ignore[attr-defined]
        elif t is not ast.Pass:
            raise ValueError(f"once: unexpected statement {t.__name__}")
        _forget(known, _stored(s, self.stored))

    # ---- expressions ---------------------------------------------------------------------------
    def test(self, node: Any, known: dict[int, Any], spec: int) -> dict[int, Any]:
        """Evaluate the test ``node``: ``known`` gains what it always computes; returns what is known
        where it holds (every operand of an ``and``)."""
        if _marked(node, SPEC):
            return self.test(node.args[0], known, _DEFINE)
        if type(node) is ast.BoolOp and type(node.op) is ast.And:
            p = self.candidate(node) if spec == _DEFINE else None
            if p is not None and p.key in known:
                self.expr(node, known, spec)
                return dict(known)
            holds = self.test(node.values[0], known, spec)
            for value in node.values[1:]:
                holds = self.test(value, holds, spec)
            if p is not None:
                known[p.key] = holds[p.key] = (node, p.reads)
            return holds
        self.expr(node, known, spec)
        return dict(known)

    def expr(self, node: Any, known: dict[int, Any], spec: int, consumed: bool = False) -> None:
        """Evaluate ``node`` (``spec``: _OTHER outside a generated expression, _DEFINE in one, _READ where
        a part may be read from a local but not set, the domain of a comprehension; ``consumed``: an
        iterable a loop or a call like ``any`` uses up, never shared): ``known`` gains the parts it
        always computes."""
        t = type(node)
        if t is ast.Call and type(node.func) is ast.Name and node.func.id in (SPEC, MEMBERS):
            self.expr(node.args[-1], known, _DEFINE, consumed)
            return
        p = self.candidate(node) if spec and not consumed else None
        if p is not None:
            got = known.get(p.key)
            if got is not None:
                self.again[id(node)] = got[0]
                if not self.rare:
                    self.first[id(got[0])] = got[0]
                return
            if spec == _READ:
                p = None
        if t is ast.BoolOp or t is ast.Compare:
            # the first operand (a comparison's first two) always runs; the others only when those
            # before them let them, so what they compute is known after them alone
            if t is ast.BoolOp:
                always, maybe = node.values[:1], node.values[1:]
            else:
                always, maybe = [node.left, node.comparators[0]], node.comparators[1:]
            for value in always:
                self.expr(value, known, spec)
            later = dict(known)
            for value in maybe:
                self.expr(value, later, spec)
        elif t is ast.IfExp:
            self.expr(node.test, known, spec)
            self.expr(node.body, dict(known), spec)
            self.expr(node.orelse, dict(known), spec)
        elif t is ast.Call:
            self.expr(node.func, known, spec)
            uses_up = type(node.func) is ast.Name and node.func.id in _CONSUMERS
            for arg in node.args:
                self.expr(arg, known, spec, uses_up)
            for kw in node.keywords:
                self.expr(kw.value, known, spec)
        elif t is ast.Dict:
            for k, value in zip(node.keys, node.values):
                if k is not None:
                    self.expr(k, known, spec)
                self.expr(value, known, spec)
        elif t in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            # (the rest runs in its own scope; no assignment expression is allowed in the domain)
            self.expr(node.generators[0].iter, known, spec and _READ, True)
        elif t is ast.Lambda:
            pass
        elif t is ast.NamedExpr:
            self.expr(node.value, known, spec)
            _forget(known, {node.target.id})
        else:
            for field in t._fields:
                value = getattr(node, field, None)
                for item in value if type(value) is list else (value,):
                    if isinstance(item, ast.expr):
                        self.expr(item, known, spec)
                    elif isinstance(item, ast.keyword):
                        self.expr(item.value, known, spec)
        if p is not None:
            known[p.key] = (node, p.reads)


def _marked(node: Any, mark: str) -> bool:
    return type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == mark


def _stored(node: ast.stmt, memo: dict[int, set[str]]) -> set[str]:
    """The names the statement ``node`` assigns, or whose object it changes (``x[k] = ...``), by its
    targets (``memo``: the answers, by id). (An assignment expression's name is none of the locals a
    part reads: hoist.remembered's ``_wN``.)"""
    got = memo.get(id(node))
    if got is not None:
        return got
    out: set[str] = set()
    targets: list[Any] = list(node.targets) if type(node) is ast.Assign else \
        [node.target] if type(node) is ast.For else []  # type: ignore[attr-defined]
    for target in targets:
        for n in ast.walk(target):
            if type(n) is ast.Name and type(n.ctx) is ast.Store:
                out.add(n.id)
            elif type(n) is ast.Subscript and type(n.value) is ast.Name:
                out.add(n.value.id)
    for field in ("body", "orelse"):
        for inner in getattr(node, field, ()):
            out |= _stored(inner, memo)
    memo[id(node)] = out
    return out


def _forget(known: dict[int, Any], names: set[str]) -> None:
    if names:
        for key in [k for k, (_, reads) in known.items() if reads & names]:
            del known[key]


class _Rewrite:
    """Writes what _Once found: the first computation as ``(_tN := part)``, the others as ``_tN``; the
    marks _S_ and _R_ left out (the tree changed in place, ``visit`` giving a node's replacement)."""

    def __init__(self, once: _Once, fresh: Callable[[], str]) -> None:
        self.once = once
        self.fresh = fresh
        self.names: dict[int, str] = {}

    def name(self, first: ast.expr) -> str:
        got = self.names.get(id(first))
        if got is None:
            got = self.names[id(first)] = self.fresh()
        return got

    def visit(self, node: Any) -> Any:
        first = self.once.again.get(id(node))
        if first is not None and id(first) in self.once.first:
            return ast.Name(self.name(first), ast.Load())
        if _marked(node, SPEC) or _marked(node, RARE):
            return self.visit(node.args[0])
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST) and not isinstance(item, ast.expr_context):
                        new = self.visit(item)
                        if new is not item:
                            value[i] = new
            elif isinstance(value, ast.AST) and not isinstance(value, (ast.expr_context, ast.operator, ast.cmpop,
                                                                          ast.boolop, ast.unaryop)):
                new = self.visit(value)
                if new is not value:
                    setattr(node, field, new)
        if id(node) in self.once.first:
            return ast.NamedExpr(ast.Name(self.name(node), ast.Store()), node)
        return node


def computed_once(body: str, is_global: Callable[[str], bool], fresh: Callable[[], str],
                  members: dict[int, str]) -> tuple[str, str | None]:
    """(``body``, the statements of a function of ``v`` and ``L``, indented by four spaces, with each part
    computed again, where it is surely known, read from the local its first computation sets; the
    statements as written when a members loop is written as one loop, else None): both unindented and
    without marks (see the module's docstring). ``is_global(name)``: is ``name`` one the code reads
    from its globals (a constant, a helper); ``fresh()``: a new local's name (``_tN``); ``members[k]``:
    the members list a loop marked ``_I_(k, domain)`` stands for."""
    fn = _parsed(body)
    once = _Once(is_global)
    once.block(fn.body, {})
    marked = {id(s) for s in _statements(fn.body) if type(s) is ast.For and _marked(s.iter, MEMBERS)}
    rewrite = _Rewrite(once, fresh)
    new, interleaved = _loops([rewrite.visit(s) for s in fn.body], marked, members)
    if not interleaved:
        return _source(new), None
    plain, _ = _loops([_Unmark().visit(s) for s in _parsed(body).body], set(), members)
    return _source(new), _source(plain)


_LOCAL_READ = re.compile(r"\bL(?:\['(\w+)'\]|\.get\('(\w+)'\))")


def locals_read_once(body: str, fresh: Callable[[], str]) -> tuple[str, list[str]]:
    """(``body``, statements as computed_once takes them, with each local of the frame it reads more than
    once (``L['m']``, counted outside the branches rarely taken, a read in a loop as two) read from a new
    local, the statements reading them first ``_tN = L['m']``): a local's read at the top may raise where
    ``body`` would not read it (a local not bound), so the result runs with ``body`` as its plain twin;
    where it raises nothing, ``L.get('m')`` is ``L['m']``, read from the new local too. ``body`` and no
    statement when no local is read more than once."""
    counts: dict[str, int] = {}

    def count(node: Any, weight: int) -> None:
        if type(node) is ast.If and _marked(node.test, RARE):
            return
        if type(node) is ast.Subscript and type(node.value) is ast.Name and node.value.id == "L" and \
                type(node.slice) is ast.Constant and type(node.slice.value) is str:
            counts[node.slice.value] = counts.get(node.slice.value, 0) + weight
        elif type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "get" and \
                type(node.func.value) is ast.Name and node.func.value.id == "L" and len(node.args) == 1 and \
                type(node.args[0]) is ast.Constant and type(node.args[0].value) is str:
            counts[node.args[0].value] = counts.get(node.args[0].value, 0) + weight
        loop = node.body if type(node) is ast.For else ()
        for child in ast.iter_child_nodes(node):
            count(child, 2 if any(child is s for s in loop) else weight)

    count(_parsed(body), 1)
    names = {name: fresh() for name, n in counts.items() if n > 1}
    if not names:
        return body, []
    new = _LOCAL_READ.sub(lambda m: names.get(m[1] or m[2], m[0]), body)
    return new, [f"{local} = L[{name!r}]" for name, local in names.items()]


def _parsed(body: str) -> ast.FunctionDef:
    fn = ast.parse("def _(v, L):\n" + body).body[0]
    assert isinstance(fn, ast.FunctionDef)
    return fn


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of ``body`` and those in them."""
    out = []
    for s in body:
        out.append(s)
        for field in ("body", "orelse"):
            out += _statements(getattr(s, field, []))
    return out


def _source(body: list[ast.stmt], ind: str = "") -> str:
    """The source of ``body``, its expressions written by syntax.unparse (ast.unparse's text, faster)."""
    lines = []
    for s in body:
        t = type(s)
        if t is ast.Assign:
            lines.append(ind + " = ".join(unparse(x) for x in [*s.targets, s.value]))  # type: ignore[attr-defined]
        elif t is ast.Expr:
            lines.append(ind + unparse(s.value))  # type: ignore[attr-defined]
        elif t in (ast.If, ast.For):
            head = f"if {unparse(s.test)}:" if t is ast.If else \
                f"for {unparse(s.target)} in {unparse(s.iter)}:"  # type: ignore[attr-defined]
            lines += [ind + head, _source(s.body, ind + "    ")]  # type: ignore[attr-defined]
            if s.orelse:  # type: ignore[attr-defined]
                lines += [ind + "else:", _source(s.orelse, ind + "    ")]  # type: ignore[attr-defined]
        else:
            lines.append(textwrap.indent(ast.unparse(s), ind))
    return "\n".join(lines)


class _Unmark(ast.NodeTransformer):
    """The code without its marks _S_ and _R_ (a members loop's is _loops')."""

    def visit_Call(self, node: ast.Call) -> Any:
        if _marked(node, SPEC) or _marked(node, RARE):
            return self.visit(node.args[0])
        return self.generic_visit(node)


def _loops(body: list[ast.stmt], marked: set[int], members: dict[int, str]) -> \
        tuple[list[ast.stmt], bool]:
    """(``body`` with each loop marked ``_I_(k, domain)`` written as one loop when ``marked`` notes it, else
    (the statements as written) over its members list, and whether a loop is written as one loop). A
    helper's statements written before such a loop (``if _P_(k, lead): statements; loop``) are kept with
    it when it is one loop (the ``if`` dropped when its test is ``True``), else left out with the ``if``."""
    interleaved = False
    out: list[ast.stmt] = []
    for s in body:
        if type(s) is ast.If and _marked(s.test, PRELUDE):
            loop = s.body[-1]
            assert type(loop) is ast.For and _marked(loop.iter, MEMBERS) and not s.orelse
            if id(loop) not in marked:  # as written: the helper's call
                s = loop
            else:
                lead = s.test.args[1]  # type: ignore[attr-defined]
                if type(lead) is ast.Constant and lead.value is True:
                    new, inner = _loops(s.body, marked, members)
                    out += new
                    interleaved = interleaved or inner
                    continue
                s.test = lead
        out.append(s)
        for field in ("body", "orelse"):
            if hasattr(s, field):
                new, inner = _loops(getattr(s, field), marked, members)
                setattr(s, field, new)
                interleaved = interleaved or inner
        if type(s) is not ast.For or not _marked(s.iter, MEMBERS):
            continue
        k = s.iter.args[0].value  # type: ignore[attr-defined]
        domain = s.iter.args[1]  # type: ignore[attr-defined]
        guard = s.body[0]
        assert type(guard) is ast.If and len(s.body) == 1 and not guard.orelse
        if id(s) not in marked:  # (the statements as written)
            s.iter = ast.parse(members[k], mode="eval").body
            s.body = guard.body
        else:  # one loop even when nothing is shared: neither the list nor its comprehension's call is made
            s.iter = domain
            interleaved = True
    return out, interleaved
