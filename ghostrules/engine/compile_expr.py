"""Compile condition-language ASTs into Python closures ``f(values, locals) -> int``.

Compilation happens once per game configuration; the closures index the flat value list
directly, so no AST is walked while playing. Types are checked here: every expression is
``int``, ``bool`` or a domain name, and indices must match the declared domains.
"""

from __future__ import annotations

from typing import Any, Callable

from ..spec import expr as E
from ..spec.model import GameSpec, Rule, Where
from ..spec.source import SpecError
from .errors import SpecRuntimeError
from .layout import Layout

Fn = Callable[[list, dict], Any]
Scope = dict[str, str]


class ExprCompiler:
    """Holds the static context (layout, tables, constants, parameters, definitions)."""

    def __init__(self, spec: GameSpec, layout: Layout) -> None:
        self.spec = spec
        self.layout = layout
        self.domains = layout.domains
        self.tables = {t.name: t for t in spec.tables}
        self.constants = dict(spec.constants)
        self.params: dict[str, tuple[str, int]] = {}
        for p in spec.parameters:
            value = dict(spec.settings)[p.name]
            if isinstance(value, bool) or not isinstance(value, int):
                dom = self.domains.get(p.name)
                self.params[p.name] = (p.name, dom.index(str(value)) if dom else 0)
            else:
                self.params[p.name] = ("int", value)
        self.defines: dict[str, Any] = {}
        for r in spec.rules:
            if r.kind == "define":
                self.defines[r.name] = r
        for d in spec.definitions:
            if d.name in self.defines:
                raise SpecError(f"{d.name} is defined twice", d.where.file, d.where.line)
            self.defines[d.name] = d
        for name, d in self.defines.items():
            taken = ("a constant" if name in self.constants else "a state slot" if name in layout.slots
                     else "a table" if name in self.tables else "")
            if taken:
                where = getattr(d, "formal_at", None) or d.where
                raise SpecError(f"{name} is defined here and is also {taken}: one name, one meaning",
                                where.file, where.line)
        self._compiled_defs: dict[str, tuple[Fn, str]] = {}
        self._in_progress: set[str] = set()
        self.extends = {d.name: d.extends for d in spec.domains if d.extends}
        self.symbol_owner: dict[str, list[str]] = {}
        for d in spec.domains:
            for s in d.symbols:
                self.symbol_owner.setdefault(s, []).append(d.name)

    # ---- entry points --------------------------------------------------------------------
    def compile(self, e: E.Expr, scope: Scope, where: Where, rule: str) -> tuple[Fn, str]:
        try:
            return self._c(e, scope)
        except _TypeErr as exc:
            raise SpecError(f"in {e.render()!r}: {exc} (rule {rule})", where.file, where.line) from None

    def compile_bool(self, e: E.Expr, scope: Scope, where: Where, rule: str) -> Fn:
        fn, t = self.compile(e, scope, where, rule)
        if t != "bool":
            raise SpecError(f"expected a condition (true/false), {e.render()!r} is {t} (rule {rule})",
                            where.file, where.line)
        return fn

    def lvalue(self, e: E.Expr, scope: Scope, where: Where, rule: str) -> tuple[str, Fn]:
        """A writable slot: returns (slot family name, fn giving the flat index)."""
        name = e.name if isinstance(e, E.Index) else e.id if isinstance(e, E.Name) else None
        if name is None or name not in self.layout.slots or (isinstance(e, E.Name) and name in scope):
            raise SpecError(f"{e.render()!r} is not a state slot that can be changed (rule {rule})",
                            where.file, where.line)
        args = e.args if isinstance(e, E.Index) else ()
        try:
            return name, self._slot_index(name, args, scope)
        except _TypeErr as exc:
            raise SpecError(f"in {e.render()!r}: {exc} (rule {rule})", where.file, where.line) from None

    def domain_values(self, e: E.Expr, scope: Scope, where: Where, rule: str) -> tuple[list[Fn] | range, str]:
        """The elements a binder ranges over: a domain (all symbols) or a list literal."""
        if isinstance(e, E.Name):
            if e.id == "bool":
                return range(2), "bool"
            if e.id not in self.domains:
                raise SpecError(f"unknown domain {e.id!r} (rule {rule})", where.file, where.line)
            return range(len(self.domains[e.id].symbols)), e.id
        assert isinstance(e, E.ListLit)
        fns, types = [], set()
        for item in e.items:
            fn, t = self.compile(item, scope, where, rule)
            fns.append(fn)
            types.add(t)
        if len(types) != 1:
            raise SpecError(f"list {e.render()} mixes types {sorted(types)} (rule {rule})", where.file, where.line)
        return fns, types.pop()

    # ---- internals -----------------------------------------------------------------------
    def _slot_index(self, name: str, args: tuple[E.Expr, ...], scope: Scope) -> Fn:
        slot = self.layout.slots[name]
        var = slot.var
        if len(args) != len(var.index):
            raise _TypeErr(f"{name} takes {len(var.index)} indices {list(var.index)}, given {len(args)}")
        parts = []
        for a, dom, size, stride in zip(args, var.index, slot.sizes, slot.strides):
            fn, t = self._c(a, scope)
            if t != dom and not self._related(t, dom):
                raise _TypeErr(f"index of {name} must be a {dom}, {a.render()!r} is {t}")
            parts.append((fn, size, stride, dom))
        base = slot.offset
        if not parts:
            return lambda v, L: base
        if len(parts) == 1:
            (f1, n1, _, d1), = parts

            def idx1(v: list, L: dict) -> int:
                i = f1(v, L)
                if not 0 <= i < n1:
                    raise SpecRuntimeError(f"{name}[...] indexed with {d1} 'none'")
                return base + i
            return idx1

        def idxn(v: list, L: dict) -> int:
            flat = base
            for f, n, st, d in parts:
                i = f(v, L)
                if not 0 <= i < n:
                    raise SpecRuntimeError(f"{name}[...] indexed with {d} 'none'")
                flat += i * st
            return flat
        return idxn

    def _table_index(self, name: str, args: tuple[E.Expr, ...], scope: Scope) -> tuple[Fn, str]:
        table = self.tables[name]
        if len(args) != len(table.args):
            raise _TypeErr(f"table {name} takes {len(table.args)} arguments {list(table.args)}, given {len(args)}")
        values = table.values
        parts = []
        stride = 1
        strides = []
        for dom in reversed(table.args):
            strides.append(stride)
            stride *= len(self.domains[dom].symbols)
        strides.reverse()
        for a, dom, st in zip(args, table.args, strides):
            fn, t = self._c(a, scope)
            if t != dom and not self._related(t, dom):
                raise _TypeErr(f"argument of {name} must be a {dom}, {a.render()!r} is {t}")
            parts.append((fn, st, len(self.domains[dom].symbols)))
        if len(parts) == 1:
            (f1, _, n1), = parts

            def t1(v: list, L: dict) -> int:
                i = f1(v, L)
                if not 0 <= i < n1:
                    raise SpecRuntimeError(f"table {name} looked up with 'none'")
                return values[i]
            return t1, table.type

        def tn(v: list, L: dict) -> int:
            flat = 0
            for f, st, n in parts:
                i = f(v, L)
                if not 0 <= i < n:
                    raise SpecRuntimeError(f"table {name} looked up with 'none'")
                flat += i * st
            return values[flat]
        return tn, table.type

    def _name(self, name: str, scope: Scope) -> tuple[Fn, str]:
        if name in scope:
            return (lambda v, L: L[name]), scope[name]
        if name in self.constants:
            c = self.constants[name]
            return (lambda v, L: c), "int"
        if name in self.params:
            t, val = self.params[name]
            return (lambda v, L: val), t
        if name in self.layout.slots:
            slot = self.layout.slots[name]
            if slot.var.index:
                raise _TypeErr(f"{name} needs indices {list(slot.var.index)}")
            off = slot.offset
            return (lambda v, L: v[off]), slot.var.type
        if name in self.tables and not self.tables[name].args:
            val = self.tables[name].values[0]
            return (lambda v, L: val), self.tables[name].type
        if name in self.defines:
            return self._call_define(name, (), scope)
        owners = self.symbol_owner.get(name, [])
        if len(owners) > 1:
            # symbols shared by a domain and its extensions belong to the base domain
            bases = [o for o in owners if not any(self._related(o, other) and o != other and self._base_of(other, o)
                                                  for other in owners)]
            if len(bases) == 1 and all(self._related(bases[0], o) for o in owners):
                owners = bases
        if len(owners) == 1:
            idx = self.domains[owners[0]].index(name)
            return (lambda v, L: idx), owners[0]
        if len(owners) > 1:
            raise _TypeErr(f"{name!r} is a symbol of several domains {owners}; write domain.{name}")
        raise _TypeErr(f"unknown name {name!r}")

    def _call_define(self, name: str, args: tuple[E.Expr, ...], scope: Scope) -> tuple[Fn, str]:
        rule = self.defines[name]
        if len(args) != len(rule.params):
            raise _TypeErr(f"{name} takes {len(rule.params)} arguments {[p for p, _ in rule.params]}")
        body, t = self._define_body(name)
        arg_fns = []
        for a, (pname, ptype) in zip(args, rule.params):
            fn, at = self._c(a, scope)
            if not self.compatible(at, ptype):
                raise _TypeErr(f"argument {pname} of {name} must be a {ptype}, {a.render()!r} is {at}")
            arg_fns.append((pname, fn))
        if not arg_fns:
            return (lambda v, L: body(v, {})), t
        if len(arg_fns) == 1:
            (p1, f1), = arg_fns
            return (lambda v, L: body(v, {p1: f1(v, L)})), t
        return (lambda v, L: body(v, {p: f(v, L) for p, f in arg_fns})), t

    def _define_body(self, name: str) -> tuple[Fn, str]:
        if name in self._compiled_defs:
            return self._compiled_defs[name]
        if name in self._in_progress:
            raise _TypeErr(f"definition {name} refers to itself (no recursion in the condition language)")
        d = self.defines[name]
        self._in_progress.add(name)
        try:
            assert d.value is not None
            where = d.formal_at if hasattr(d, "formal_at") else d.where
            fn, t = self.compile(d.value, dict(d.params), where, getattr(d, "id", "") or getattr(d, "rule", ""))
        finally:
            self._in_progress.discard(name)
        self._compiled_defs[name] = (fn, t)
        return fn, t

    def define_type(self, name: str) -> str:
        return self._define_body(name)[1]

    def _c(self, e: E.Expr, scope: Scope) -> tuple[Fn, str]:  # noqa: C901 - one case per node type
        if isinstance(e, E.Num):
            n = e.value
            return (lambda v, L: n), "int"
        if isinstance(e, E.Bool):
            b = e.value
            return (lambda v, L: b), "bool"
        if isinstance(e, E.NoneLit):
            return (lambda v, L: -1), "none"
        if isinstance(e, E.Name):
            return self._name(e.id, scope)
        if isinstance(e, E.Qualified):
            if e.domain not in self.domains or e.symbol not in self.domains[e.domain].symbols:
                raise _TypeErr(f"unknown symbol {e.domain}.{e.symbol}")
            idx = self.domains[e.domain].index(e.symbol)
            return (lambda v, L: idx), e.domain
        if isinstance(e, E.Index):
            if e.name in self.layout.slots:
                idx = self._slot_index(e.name, e.args, scope)
                return (lambda v, L: v[idx(v, L)]), self.layout.slots[e.name].var.type
            if e.name in self.tables:
                return self._table_index(e.name, e.args, scope)
            raise _TypeErr(f"{e.name!r} is neither a state slot nor a table")
        if isinstance(e, E.Call):
            if e.func in self.defines:
                return self._call_define(e.func, e.args, scope)
            if e.func in ("min", "max") and len(e.args) >= 2:
                fns = [self._int(a, scope) for a in e.args]
                op = min if e.func == "min" else max
                return (lambda v, L: op(f(v, L) for f in fns)), "int"
            if e.func == "abs" and len(e.args) == 1:
                f = self._int(e.args[0], scope)
                return (lambda v, L: abs(f(v, L))), "int"
            raise _TypeErr(f"unknown function {e.func!r}")
        if isinstance(e, E.Unary):
            if e.op == "not":
                f = self._bool(e.operand, scope)
                return (lambda v, L: not f(v, L)), "bool"
            f = self._int(e.operand, scope)
            return (lambda v, L: -f(v, L)), "int"
        if isinstance(e, E.Binary):
            return self._binary(e, scope)
        if isinstance(e, E.Cond):
            test = self._bool(e.test, scope)
            a, ta = self._c(e.then, scope)
            b, tb = self._c(e.other, scope)
            t = self._unify(ta, tb, e)
            return (lambda v, L: a(v, L) if test(v, L) else b(v, L)), t
        if isinstance(e, E.Quant):
            return self._quant(e, scope)
        if isinstance(e, E.ListLit):
            raise _TypeErr("a list can only follow 'in'")
        raise _TypeErr(f"cannot compile {e!r}")  # pragma: no cover

    def _int(self, e: E.Expr, scope: Scope) -> Fn:
        f, t = self._c(e, scope)
        if t != "int":
            raise _TypeErr(f"{e.render()!r} is {t}, expected a number")
        return f

    def _bool(self, e: E.Expr, scope: Scope) -> Fn:
        f, t = self._c(e, scope)
        if t != "bool":
            raise _TypeErr(f"{e.render()!r} is {t}, expected a condition")
        return f

    def _binary(self, e: E.Binary, scope: Scope) -> tuple[Fn, str]:
        op = e.op
        if op in ("and", "or"):
            a, b = self._bool(e.left, scope), self._bool(e.right, scope)
            if op == "and":
                return (lambda v, L: a(v, L) and b(v, L)), "bool"
            return (lambda v, L: a(v, L) or b(v, L)), "bool"
        if op == "in":
            a, ta = self._c(e.left, scope)
            assert isinstance(e.right, E.ListLit)
            items = []
            for item in e.right.items:
                f, t = self._c(item, scope)
                self._unify(ta, t, e)
                items.append(f)
            return (lambda v, L: a(v, L) in [f(v, L) for f in items]), "bool"
        a, ta = self._c(e.left, scope)
        b, tb = self._c(e.right, scope)
        if op in ("==", "!="):
            self._unify(ta, tb, e)
            if op == "==":
                return (lambda v, L: a(v, L) == b(v, L)), "bool"
            return (lambda v, L: a(v, L) != b(v, L)), "bool"
        if ta != "int" or tb != "int":
            raise _TypeErr(f"'{op}' needs numbers, found {ta} and {tb}")
        table: dict[str, Callable[[int, int], Any]] = {
            "<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
            ">=": lambda x, y: x >= y, "+": lambda x, y: x + y, "-": lambda x, y: x - y,
            "*": lambda x, y: x * y, "//": lambda x, y: x // y if y else 0, "%": lambda x, y: x % y if y else 0,
        }
        if op == "<":
            return (lambda v, L: a(v, L) < b(v, L)), "bool"
        if op == "<=":
            return (lambda v, L: a(v, L) <= b(v, L)), "bool"
        if op == ">":
            return (lambda v, L: a(v, L) > b(v, L)), "bool"
        if op == ">=":
            return (lambda v, L: a(v, L) >= b(v, L)), "bool"
        if op == "+":
            return (lambda v, L: a(v, L) + b(v, L)), "int"
        if op == "-":
            return (lambda v, L: a(v, L) - b(v, L)), "int"
        g = table[op]
        return (lambda v, L: g(a(v, L), b(v, L))), "int"

    def _quant(self, e: E.Quant, scope: Scope) -> tuple[Fn, str]:
        if isinstance(e.domain, E.Name):
            if e.domain.id == "bool":
                values: list[Any] = [0, 1]
                dtype = "bool"
            elif e.domain.id in self.domains:
                values = list(range(len(self.domains[e.domain.id].symbols)))
                dtype = e.domain.id
            else:
                raise _TypeErr(f"unknown domain {e.domain.id!r}")
            item_fns = None
        else:
            assert isinstance(e.domain, E.ListLit)
            fts = [self._c(i, scope) for i in e.domain.items]
            types = {t for _, t in fts}
            if len(types) != 1:
                raise _TypeErr("a list mixes types")
            dtype = types.pop()
            item_fns = [f for f, _ in fts]
            values = []
        inner = dict(scope)
        inner[e.var] = dtype
        cond = self._bool(e.cond, inner) if e.cond is not None else None
        var = e.var
        kind = e.kind
        body = None
        btype = "bool"
        if e.body is not None:
            body, btype = self._c(e.body, inner)
            if kind in ("sum", "min", "max") and btype != "int":
                raise _TypeErr(f"{kind} needs a number after ':'")
            if kind == "forall" and btype != "bool":
                raise _TypeErr("forall needs a condition after ':'")

        def elements(v: list, L: dict) -> list:
            return [f(v, L) for f in item_fns] if item_fns is not None else values

        def run(v: list, L: dict) -> Any:
            saved = L.get(var, _MISSING)
            try:
                acc: Any
                if kind == "count":
                    acc = 0
                elif kind == "sum":
                    acc = 0
                elif kind in ("min", "max", "first"):
                    acc = -1 if kind == "first" else None
                else:
                    acc = kind == "forall"
                for x in elements(v, L):
                    L[var] = x
                    if cond is not None and not cond(v, L):
                        continue
                    if kind == "count":
                        acc += 1
                    elif kind == "sum":
                        acc += body(v, L)  # type: ignore[misc]
                    elif kind == "exists":
                        return True
                    elif kind == "forall":
                        if not body(v, L):  # type: ignore[misc]
                            return False
                    elif kind == "first":
                        return x
                    else:
                        val = body(v, L)  # type: ignore[misc]
                        if acc is None or (val < acc if kind == "min" else val > acc):
                            acc = val
                if kind in ("min", "max") and acc is None:
                    return -1
                return acc
            finally:
                if saved is _MISSING:
                    L.pop(var, None)
                else:
                    L[var] = saved
        rtype = {"count": "int", "sum": "int", "exists": "bool", "forall": "bool", "min": "int", "max": "int",
                 "first": dtype}[kind]
        return run, rtype

    # ---- domain compatibility (a domain may extend another: its first symbols are the other's) --
    def _chain(self, d: str) -> list[str]:
        out = [d]
        while out[-1] in self.extends:
            out.append(self.extends[out[-1]])
        return out

    def _base_of(self, base: str, d: str) -> bool:
        """Is ``base`` a (transitive) prefix domain of ``d``?"""
        return base in self._chain(d)[1:]

    def _related(self, a: str, b: str) -> bool:
        return a == b or self._base_of(a, b) or self._base_of(b, a)

    def compatible(self, value_type: str, slot_type: str) -> bool:
        """Can a value of ``value_type`` be stored where ``slot_type`` is expected?"""
        return value_type == slot_type or (value_type == "none" and slot_type not in ("int", "bool")) \
            or self._related(value_type, slot_type)

    def _unify(self, a: str, b: str, e: E.Expr) -> str:
        if a == b:
            return a
        if self._base_of(a, b):
            return b
        if self._base_of(b, a):
            return a
        if a == "none":
            return b
        if b == "none":
            return a
        raise _TypeErr(f"cannot compare or join {a} with {b} in {e.render()!r}")


_MISSING = object()


class _TypeErr(Exception):
    pass
