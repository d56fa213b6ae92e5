"""Two shapes of quantifier the expression compiler (engine/compile_expr.py) writes as a direct
test instead of a loop: ``x in D if x == t`` (t itself, when it is one of D's values) and
``x in D if S[x] == t and ...`` (a scan of the slots S[0..] for t, by the list's own search).
"""

from __future__ import annotations

from typing import Any

from ..spec import expr as E

Scope = dict[str, str]


class SlotPatterns:
    """A base class of ExprCompiler (it supplies ``_c``, ``layout``, ``_related`` and ``_unify``)."""

    layout: Any
    _c: Any
    _related: Any
    _unify: Any

    def _equal_to_var(self, var: str, cond: E.Expr, scope: Scope, dtype: str) -> str | None:
        """The code of t when the condition is exactly ``var == t`` (or ``t == var``), t free of var."""
        if not isinstance(cond, E.Binary) or cond.op != "==" or dtype == "bool":
            return None
        for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if side == E.Name(var) and not _mentions(other, var):
                code, t = self._c(other, scope)
                if t not in ("int", "bool") and (t == "none" or self._related(t, dtype)):
                    return code
        return None

    def _slot_scan(self, var: str, cond: E.Expr | None, inner: Scope, dtype: str,
                   size: int | None) -> tuple[int, int, str] | None:
        """``x in D if S[x] == t and ...`` with ``t`` free of x: scan the slots S[0..] for t.

        Returns (offset of S, size of D, code of t), or None when the condition has another form."""
        if cond is None or size is None or dtype == "bool":
            return None
        first = _conjuncts(cond)[0]
        if not isinstance(first, E.Binary) or first.op != "==":
            return None
        for side, other in ((first.left, first.right), (first.right, first.left)):
            if (isinstance(side, E.Index) and len(side.args) == 1 and side.args[0] == E.Name(var)
                    and side.name in self.layout.slots and not _mentions(other, var)):
                slot = self.layout.slots[side.name]
                if slot.var.index != (dtype,) or slot.count != size:
                    continue
                target, t = self._c(other, inner)
                self._unify(slot.var.type, t, first)
                return slot.offset, size, target
        return None


def _conjuncts(e: E.Expr) -> list[E.Expr]:
    """``a and b and c`` as [a, b, c], in evaluation order."""
    if isinstance(e, E.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _mentions(e: Any, name: str) -> bool:
    """Does the expression read the name ``name`` anywhere (conservatively, also where it is rebound)?"""
    if isinstance(e, E.Name):
        return e.id == name
    if isinstance(e, (tuple, list)):
        return any(_mentions(x, name) for x in e)
    if hasattr(e, "__attrs_attrs__"):
        return any(_mentions(getattr(e, a.name), name) for a in e.__attrs_attrs__)
    return False
