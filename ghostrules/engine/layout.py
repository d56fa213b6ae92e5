"""Where each state slot lives in the flat value array, and how to name it back."""

from __future__ import annotations

import difflib
import operator
from typing import Any

import attrs

from ..spec.model import GameSpec, Var
from ..spec.words import listed


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
        """Like symbol, but with a domain's human label where it has one (the names a spec gives its items)."""
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
        """Flat position of ``name[symbols...]`` (symbols by name, or by index in their domain).

        An unknown slot, a wrong number of indices, a symbol not of the index's domain or an index
        outside it raises KeyError saying which (never the position of another slot)."""
        slot = self.slots.get(name) if isinstance(name, str) else None
        if slot is None:
            close = difflib.get_close_matches(str(name), self.slots, n=3)
            hint = (f"; did you mean {', '.join(close)}?" if close
                    else f" ({len(self.slots)} slots, e.g. {', '.join(list(self.slots)[:6])})")
            raise KeyError(f"no state slot {name!r}{hint}")
        if len(symbols) != len(slot.sizes):
            raise KeyError(f"{name} takes {len(slot.sizes)} indices: {list(slot.var.index)}")
        flat = slot.offset
        for dom_name, sym, size, stride in zip(slot.var.index, symbols, slot.sizes, slot.strides):
            symbols_of = self.domains[dom_name].symbols
            if isinstance(sym, str):
                if sym not in symbols_of:
                    raise KeyError(f"{name}: {sym!r} is not a {dom_name} (one of {listed(symbols_of, 10)})")
                i = symbols_of.index(sym)
            elif not isinstance(sym, bool) and hasattr(sym, "__index__") and 0 <= operator.index(sym) < size:
                i = operator.index(sym)
            else:
                raise KeyError(f"{name}: index {sym!r} is neither a {dom_name} ({listed(symbols_of, 10)}) nor a number "
                               f"0..{size - 1}")
            flat += i * stride
        return flat

    def encode(self, name: str, index: list[Any] | tuple[Any, ...], value: Any) -> tuple[int, int]:
        """(flat position, stored value) of ``name[index] = value``, for setting a slot from outside
        the machine (``State.set``): indices as ``index`` takes them (KeyError for an unknown slot or
        index), the value an int (numpy's too), a bool, or a symbol of the slot's type by name
        (``"none"`` where it may be empty). A value of another kind, an unknown symbol or a value
        outside the slot's declared range raises ValueError naming the slot, the value and what the
        slot holds."""
        flat = self.index(name, *index)
        var = self.slots[name].var
        where = self.name_of(flat)
        if isinstance(value, bool):
            code = int(value)
        elif isinstance(value, str):
            symbols = self.domains[var.type].symbols if var.type in self.domains else ()
            if value == "none" and symbols:
                code = -1
            elif value in symbols:
                code = symbols.index(value)
            else:
                hint = f" (one of: {listed(symbols, 10)}; or none)" if symbols else ""
                raise ValueError(f"set {where}: {value!r} is not a value of type {var.type}{hint}")
        elif hasattr(value, "__index__"):  # an int, or an integer of numpy's
            code = operator.index(value)
        else:
            raise ValueError(f"set {where}: expected an int, a bool or a symbol's name, not "
                             f"{type(value).__name__} {value!r}")
        if not var.lo <= code <= var.hi:
            raise ValueError(f"{where} = {value!r} is outside its declared range {var.lo}..{var.hi} ({var.type})")
        return flat, code
