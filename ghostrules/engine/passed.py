"""Range checks passed before, left out: what the code generated for an expression knows, while it is
evaluated, about the values it has checked.

A range check ``(x if 0 <= x < n else _bad(k))`` (compile_expr._checked: an index that may be ``none``)
of a value that cannot change while an expression is evaluated (a local ``L['m']``, a definition's
parameter ``a0``) cannot fail once a check of the same value against n or less has passed: such a
check, met on every path to it in the order Python evaluates the code, leaves the second one a plain
read. ``Reads`` follows what holds (``Known``) through an expression's syntax tree in that order and
gives the edits to its source; the blocks (engine/blocks.py) carry ``Known`` from line to line of a
block, the definitions (compile_expr) use it within one body. An error is so raised by the same check
as before: the first one that fails, which is never one left out.

A check of a computed value (``_ck(x, n, k)``: a slot read that may hold ``none``) is written in place
(``checks_in_place``), without the call of the helper, where that costs less.
"""

from __future__ import annotations

import ast
from typing import Any, Callable

Reader = Callable[[ast.AST], "str | None"]  # the name of the value a node reads, when it is one followed


class Known:
    """What holds at a point of a block: the locals whose values Python variables hold (``held``:
    name -> variable; a fixed parameter's from the block's start, another's from a write of it in
    the block), and the locals known to lie in a range ``0 <= x < n`` (``ok``: name -> n) because a
    run-time check of them passed on every path there and nothing wrote them since."""

    __slots__ = ("held", "ok")

    def __init__(self, held: dict[str, str], ok: dict[str, int]) -> None:
        self.held = held
        self.ok = ok

    def copy(self) -> Known:
        return Known(dict(self.held), dict(self.ok))

    def write(self, name: str, var: str | None, value: int | None = None) -> None:
        """``name`` was written (and ``var`` holds the new value, unless None; ``value``: the value,
        when it is a known whole number)."""
        self.ok.pop(name, None)
        if var is None:
            self.held.pop(name, None)
        else:
            self.held[name] = var
        if value is not None and value >= 0:
            self.ok[name] = value + 1


def meet(a: Known | None, b: Known | None) -> Known | None:
    """What holds where paths with ``a`` and with ``b`` join (None: a path that does not get there)."""
    if a is None or b is None:
        return b if a is None else a
    return Known({n: x for n, x in a.held.items() if b.held.get(n) == x},
                  {n: max(k, b.ok[n]) for n, k in a.ok.items() if n in b.ok})


# builtins that take a generator's first item at once
CONSUMERS = frozenset({"any", "all", "sum", "min", "max", "next"})


def _nonempty(node: ast.AST) -> bool:
    """Is ``node`` ``range(n)`` for a whole number n > 0?"""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" and \
        len(node.args) == 1 and not node.keywords and (whole_number(node.args[0]) or 0) > 0


def local_read(node: ast.AST) -> str | None:
    """The name of the local ``node`` reads, when it is ``L['name']``."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and \
            node.value.id == "L" and isinstance(node.slice, ast.Constant) and type(node.slice.value) is str:
        return node.slice.value
    return None


def param_read(node: ast.AST) -> str | None:
    """The name of the definition's parameter ``node`` reads, when it is one (``a0``, ``a1``, ...:
    compile_expr._define_body; nothing in a definition's body binds them)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id[:1] == "a" and node.id[1:].isdigit():
        return node.id
    return None


def range_check(node: ast.AST, reader: Reader = local_read) -> tuple[str, int, ast.expr] | None:
    """(name, n, the read) when ``node`` is the check ``(x if 0 <= x < n else _bad(k))``
    (compile_expr._checked) or ``_ck(x, n, k)`` of a value x that ``reader`` follows: x when it lies in
    0..n-1, else an error."""
    if isinstance(node, ast.IfExp):
        name, test, other = reader(node.body), node.test, node.orelse
        if name is not None and isinstance(test, ast.Compare) and len(test.ops) == 2 and \
                isinstance(test.ops[0], ast.LtE) and isinstance(test.ops[1], ast.Lt) and \
                whole_number(test.left) == 0 and reader(test.comparators[0]) == name and \
                whole_number(test.comparators[1]) is not None and isinstance(other, ast.Call) and \
                isinstance(other.func, ast.Name) and other.func.id == "_bad":
            return name, test.comparators[1].value, node.body  # type: ignore[attr-defined]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_ck" and \
            len(node.args) == 3 and not node.keywords and whole_number(node.args[1]) is not None:
        name = reader(node.args[0])
        if name is not None:
            return name, node.args[1].value, node.args[0]  # type: ignore[attr-defined]
    return None


class Reads:
    """The changes to an expression's source (one line, ASCII) written where ``Known`` holds: each
    read of a held local becomes its variable, and each range check of a local known to pass becomes
    the plain read. Visiting in the order Python evaluates the expression, a check passed on the way
    is added to what holds for what comes after it (``visit`` on a copy for a part that may not run:
    the right of ``and``/``or``, the branches of ``if``/``else``, a chained comparison's rest, a
    comprehension's body)."""

    def __init__(self, checks: bool, reader: Reader = local_read) -> None:
        self.checks = checks  # leave out checks passed before (else only make reads from variables)
        self.reader = reader  # the values followed: the locals (a block), or a definition's parameters
        self.edits: list[tuple[int, int, str]] = []
        self.used: set[str] = set()

    def read(self, node: ast.expr, name: str, known: Known) -> None:
        var = known.held.get(name)
        if var is not None:
            self.edits.append((node.col_offset, node.end_col_offset or node.col_offset, var))
            self.used.add(var)

    def visit(self, node: ast.AST, known: Known) -> None:  # noqa: C901 - one case per kind of node
        name = self.reader(node)
        if name is not None:
            self.read(node, name, known)  # type: ignore[arg-type]
            return
        check = range_check(node, self.reader) if self.checks else None
        if check is not None:
            name, n, read = check
            if known.ok.get(name, n + 1) <= n:  # passed before: the read alone
                var = known.held.get(name)
                if var is not None:
                    self.used.add(var)
                start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
                self.edits.append((start, end or start, var or ast.unparse(read)))
                return
            self.children(node, known)
            known.ok[name] = n
            return
        self.children(node, known)

    def children(self, node: ast.AST, known: Known) -> None:
        if isinstance(node, ast.BoolOp):
            self.visit(node.values[0], known)
            rest = known.copy()
            for value in node.values[1:]:
                self.visit(value, rest)
        elif isinstance(node, ast.IfExp):
            self.visit(node.test, known)
            self.visit(node.body, known.copy())
            self.visit(node.orelse, known.copy())
        elif isinstance(node, ast.Compare):
            self.visit(node.left, known)
            self.visit(node.comparators[0], known)
            rest = known.copy()
            for value in node.comparators[1:]:
                self.visit(value, rest)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CONSUMERS and \
                node.args and isinstance(node.args[0], ast.GeneratorExp):
            gen = node.args[0]
            self.visit(gen.generators[0].iter, known)
            for arg in [*node.args[1:], *(k.value for k in node.keywords)]:
                self.visit(arg, known)
            self.items(gen, known, _nonempty(gen.generators[0].iter))  # run by the call
        elif isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            self.visit(node.generators[0].iter, known)
            self.items(node, known, isinstance(node, ast.ListComp) and _nonempty(node.generators[0].iter))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if key is not None:
                    self.visit(key, known)
                self.visit(value, known)
        elif isinstance(node, ast.NamedExpr):  # a check written in place (checks_in_place): its value
            self.visit(node.value, known)
        elif isinstance(node, (ast.Lambda, ast.DictComp)):
            return  # not generated: left as it is
        else:  # the others evaluate their parts in the order of their fields, every one of them
            for child in ast.iter_child_nodes(node):
                self.visit(child, known)

    def items(self, node: ast.GeneratorExp | ast.ListComp | ast.SetComp, known: Known, first: bool) -> None:
        """A comprehension's work item by item (its first iterable was evaluated at once); ``first``:
        the first item is sure to be taken (a comprehension run at once over a range that is not
        empty), so its first filter (or, without one, its element) runs before what comes next."""
        parts: list[ast.expr] = []
        for k, gen in enumerate(node.generators):
            parts += [gen.iter] if k else []
            parts += gen.ifs
        parts.append(node.elt)
        if first and len(node.generators) == 1:
            self.visit(parts.pop(0), known)
        inner = known.copy()
        for part in parts:
            self.visit(part, inner)

    def apply(self, src: str) -> str:
        out = []
        at = 0
        for start, end, text in sorted(self.edits):
            out.append(src[at:start])
            out.append(text)
            at = end
        out.append(src[at:])
        return "".join(out)


def whole_number(node: Any) -> int | None:
    """The value of a non-negative whole-number constant, else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 0:
        return node.value
    return None


def checks_passed_left_out(code: str) -> str:
    """A definition's body (compile_expr._define_body: one line, of its parameters ``a0``, ``a1``, ...)
    with each range check of a parameter that a check against the same or a smaller size passed
    before, on every path to it, written as the plain read: the same value, or the same error from
    the same (first) check."""
    if ("else _bad(" not in code and "_ck(" not in code) or not code.isascii() or "\n" in code:
        return code
    reads = Reads(True, param_read)
    reads.visit(ast.parse(code, mode="eval").body, Known({}, {}))
    return reads.apply(code) if reads.edits else code


CHECKED = "_cv"  # the local that a check written in place holds its value in (never another generated name)


def checks_in_place(code: str, mode: str = "eval") -> str:
    """Generated code (``mode`` "eval": an expression, a definition's body; "exec": a helper's
    definition, engine/hoist.py) with each check ``_ck(x, n, k)`` of a computed x written in
    place, as ``(_cv if 0 <= (_cv := x) < n else _bad(k))``: the value computed once, as by the call, and
    the same value or the same error without the call. ``_cv`` is read right after its assignment, with
    only the comparisons in between, so checks within x cannot change it before it is read. A check
    inside a comprehension stays a call: there ``_cv`` would be a cell of the enclosing function (made
    at each of its calls, carried by each comprehension made), which costs more than the calls saved
    (and in a comprehension's iterable Python allows no assignment expression)."""
    if "_ck(" not in code:
        return code
    tree = ast.parse(code, mode=mode)
    if any(isinstance(node, ast.Name) and node.id == CHECKED for node in ast.walk(tree)):
        return code  # (never generated so: the name is kept for the checks)
    writer = _InPlace()
    writer.visit(tree)
    return ast.unparse(tree) if writer.changed else code


class _InPlace(ast.NodeTransformer):
    """Writes the checks ``_ck(x, n, k)`` in place (``checks_in_place``), those in a comprehension
    (or a lambda) excepted; ``changed``: has it written one?"""

    changed = False

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp, ast.Lambda)):
            return node
        node = super().generic_visit(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_ck" and \
                len(node.args) == 3 and not node.keywords and whole_number(node.args[1]) is not None:
            value, n, what = node.args
            held = ast.Name(CHECKED, ast.Store())
            test = ast.Compare(ast.Constant(0), [ast.LtE(), ast.Lt()], [ast.NamedExpr(held, value), n])
            bad = ast.Call(ast.Name("_bad", ast.Load()), [what], [])
            self.changed = True
            return ast.IfExp(test, ast.Name(CHECKED, ast.Load()), bad)
        return node
