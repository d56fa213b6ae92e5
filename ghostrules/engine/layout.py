"""Where each state slot lives in the flat value array, and how to name it back."""

from __future__ import annotations

from typing import Any

import attrs

from ..spec.model import GameSpec, Var


@attrs.frozen
class Slot:
    """The compiled position of one state-slot family."""

    var: Var
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]

    @property
    def count(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n


class Layout:
    """Maps ``name[i, j]`` to a position in the state's value list and back."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.domains = {d.name: d for d in spec.domains}
        self.slots: dict[str, Slot] = {}
        offset = 0
        for var in spec.vars:
            sizes = tuple(len(self.domains[d].symbols) for d in var.index)
            strides = []
            acc = 1
            for s in reversed(sizes):
                strides.append(acc)
                acc *= s
            slot = Slot(var, offset, sizes, tuple(reversed(strides)))
            self.slots[var.name] = slot
            offset += slot.count
        self.size = offset
        self.owner: list[tuple[str, tuple[int, ...]]] = []
        for slot in self.slots.values():
            for k in range(slot.count):
                key = []
                rest = k
                for st in slot.strides:
                    key.append(rest // st)
                    rest %= st
                self.owner.append((slot.var.name, tuple(key)))
        # every flat slot's declared range, for checking a whole state in one pass
        self.lows = [self.slots[name].var.lo for name, _ in self.owner]
        self.highs = [self.slots[name].var.hi for name, _ in self.owner]
        # State.get's look-ups so far: (name, *index) -> (flat position, type of the slot)
        self.reads: dict[tuple, tuple[int, str]] = {}

    def initial_values(self) -> list[int]:
        out: list[int] = []
        for slot in self.slots.values():
            out.extend(slot.var.init)
        return out

    def symbol(self, type_: str, value: int) -> str:
        """Render a value of a type: symbols by name, none as 'none', bools as true/false."""
        if type_ == "bool":
            return "true" if value else "false"
        if type_ == "int":
            return str(value)
        if value == -1:
            return "none"
        dom = self.domains[type_]
        if 0 <= value < len(dom.symbols):
            return dom.symbols[value]
        return f"?{value}"

    def label(self, type_: str, value: int) -> str:
        """Like symbol, but with a domain's human label where it has one (card names)."""
        if type_ in self.domains and value >= 0:
            dom = self.domains[type_]
            if dom.labels and value < len(dom.labels):
                return dom.labels[value]
        return self.symbol(type_, value)

    def name_of(self, flat: int) -> str:
        name, key = self.owner[flat]
        var = self.slots[name].var
        if not key:
            return name
        return f"{name}[{', '.join(self.symbol(d, k) for d, k in zip(var.index, key))}]"

    def index(self, name: str, *symbols: str | int) -> int:
        """Flat position of ``name[symbols...]`` (symbols by name or index)."""
        slot = self.slots[name]
        if len(symbols) != len(slot.sizes):
            raise KeyError(f"{name} takes {len(slot.sizes)} indices: {list(slot.var.index)}")
        flat = slot.offset
        for dom_name, sym, stride in zip(slot.var.index, symbols, slot.strides):
            i = sym if isinstance(sym, int) else self.domains[dom_name].index(str(sym))
            flat += i * stride
        return flat

    def encode(self, name: str, index: list[Any] | tuple[Any, ...], value: Any) -> tuple[int, int]:
        """(flat position, stored value) of ``name[index] = value``, for setting a slot from outside
        the machine (``State.set``): indices are symbols by name or number, the value an int, a bool
        or a symbol of the slot's type (``"none"`` where it may be empty). Raises ValueError naming
        the slot, the index, the value and what the slot holds, for an unknown slot, a wrong number
        of indices, an unknown symbol or a value outside the slot's declared range."""
        slot = self.slots.get(name)
        if slot is None:
            raise ValueError(f"no state slot {name!r}")
        var = slot.var
        if len(index) != len(var.index):
            raise ValueError(f"{name} takes {len(var.index)} index(es) {list(var.index)}, given {len(index)}: "
                             f"{list(index)}")
        flat = slot.offset
        for dom_name, sym, stride in zip(var.index, index, slot.strides):
            symbols = self.domains[dom_name].symbols
            if isinstance(sym, str) and sym in symbols:
                flat += symbols.index(sym) * stride
            elif isinstance(sym, int) and not isinstance(sym, bool) and 0 <= sym < len(symbols):
                flat += sym * stride
            else:
                raise ValueError(f"{name}{list(index)}: index {sym!r} is not a {dom_name} "
                                 f"(one of: {', '.join(symbols)}; or 0..{len(symbols) - 1})")
        where = self.name_of(flat)
        code = value
        if isinstance(value, bool):
            code = int(value)
        elif isinstance(value, str) and var.type not in ("int", "bool"):
            symbols = self.domains[var.type].symbols
            if value == "none":
                code = -1
            elif value in symbols:
                code = symbols.index(value)
            else:
                raise ValueError(f"{where} = {value!r}: not a {var.type} (one of: {', '.join(symbols)}; or none)")
        elif not isinstance(value, int):
            given = {"int": "an int", "bool": "a bool (or 0, 1)"}.get(var.type, "a symbol name, none or its number")
            raise ValueError(f"{where} = {value!r}: the slot holds a {var.type}, given as {given}")
        if not var.lo <= code <= var.hi:
            raise ValueError(f"{where} = {value!r} is outside its declared range {var.lo}..{var.hi} ({var.type})")
        return flat, code
