"""What a name in an expression means in one configuration, and how domains relate.

The engine's compiler (ghostrules/engine/compile_expr.py) and the prover's encoder
(ghostrules/prover/symbolic.py) both read expressions of the same specs; this one resolver gives
them the same answers: a name outside the local scope is, in this order, a constant, a game
parameter (with its value in this configuration), a state slot, a table without arguments, a
definition, or a domain symbol. One name has one meaning: a definition may not reuse the name of
a constant, slot or table. A domain may extend another (its first symbols are the other's), and
a symbol shared along such a chain belongs to the base domain.
"""

from __future__ import annotations

from typing import Any

from .model import Domain, GameSpec
from .source import SpecError


class NameProblem(Exception):
    """A name that is unknown or ambiguous, or types that cannot be joined (the reader adds where)."""


class Names:
    """The global names of one configuration of a game."""

    def __init__(self, spec: GameSpec, slots: Any) -> None:
        self.spec = spec
        self.domains: dict[str, Domain] = {d.name: d for d in spec.domains}
        self.slots = slots  # name -> compiled slot (anything with a ``var``)
        self.tables = {t.name: t for t in spec.tables}
        self.constants = dict(spec.constants)
        settings = dict(spec.settings)
        # parameter name -> (type, value): a domain parameter's value is its symbol's index
        self.params: dict[str, tuple[str, int]] = {}
        for p in spec.parameters:
            value = settings[p.name]
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
            taken = ("a constant" if name in self.constants else "a state slot" if name in slots
                     else "a table" if name in self.tables else "")
            if taken:
                where = getattr(d, "formal_at", None) or d.where
                raise SpecError(f"{name} is defined here and is also {taken}: one name, one meaning",
                                where.file, where.line)
        self.extends = {d.name: d.extends for d in spec.domains if d.extends}
        self.symbol_owner: dict[str, list[str]] = {}
        for d in spec.domains:
            for s in d.symbols:
                self.symbol_owner.setdefault(s, []).append(d.name)

    def resolve(self, name: str) -> tuple[str, Any]:
        """The meaning of a global name: ("constant", int), ("param", (type, value)), ("slot", slot),
        ("table", table), ("define", definition) or ("symbol", (domain, index))."""
        if name in self.constants:
            return "constant", int(self.constants[name])
        if name in self.params:
            return "param", self.params[name]
        if name in self.slots:
            return "slot", self.slots[name]
        if name in self.tables and not self.tables[name].args:
            return "table", self.tables[name]
        if name in self.defines:
            return "define", self.defines[name]
        owners = self.symbol_owner.get(name, [])
        if len(owners) > 1:
            # symbols shared by a domain and its extensions belong to the base domain
            bases = [o for o in owners if not any(self.base_of(other, o) for other in owners if other != o)]
            if len(bases) == 1 and all(self.related(bases[0], o) for o in owners):
                owners = bases
        if len(owners) == 1:
            return "symbol", (owners[0], self.domains[owners[0]].index(name))
        if len(owners) > 1:
            raise NameProblem(f"{name!r} is a symbol of several domains {owners}; write domain.{name}")
        raise NameProblem(f"unknown name {name!r}")

    # ---- domain relations ----------------------------------------------------------------
    def chain(self, d: str) -> list[str]:
        """``d`` and the domains it extends, nearest first."""
        out = [d]
        while out[-1] in self.extends:
            out.append(self.extends[out[-1]])
        return out

    def base_of(self, base: str, d: str) -> bool:
        """Is ``base`` a (transitive) prefix domain of ``d``?"""
        return base in self.chain(d)[1:]

    def related(self, a: str, b: str) -> bool:
        return a == b or self.base_of(a, b) or self.base_of(b, a)

    def compatible(self, value_type: str, slot_type: str) -> bool:
        """Can a value of ``value_type`` be stored where ``slot_type`` is expected?"""
        return value_type == slot_type or (value_type == "none" and slot_type not in ("int", "bool")) \
            or self.related(value_type, slot_type)

    def unify(self, a: str, b: str, what: str) -> str:
        """The type of a value that may be either ``a`` or ``b`` (the wider domain), or NameProblem."""
        if a == b:
            return a
        if self.base_of(a, b):
            return b
        if self.base_of(b, a):
            return a
        if a == "none":
            return b
        if b == "none":
            return a
        raise NameProblem(f"cannot compare or join {a} with {b} in {what!r}")
