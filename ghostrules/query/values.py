"""Reading and writing slot values by name, and condition-language expressions over raw values.

Thin helpers over a compiled game's layout and expression compiler: symbols by name or label,
``none``, booleans, and ``name[i, j]`` references. Nothing here knows any game.
"""

from __future__ import annotations

import difflib
import weakref
from collections.abc import Callable
from typing import Any

from ..engine import Game
from ..spec.expr import ExprError, Index, Name, parse
from ..spec.model import Where
from ..spec.source import SpecError

Fn = Callable[[list, dict], Any]


class ScenarioError(SpecError):
    """A malformed scenario: names the file, the line and what was expected (one paragraph)."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None) -> None:
        super().__init__(" ".join(str(message).split()), file, line)


def suggest(word: str, choices: list[str] | tuple[str, ...], n: int = 3) -> str:
    close = difflib.get_close_matches(str(word), list(choices), n=n, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""


# the query expressions compiled so far, per compiled game (its program): a scenario loaded again,
# or another question about the same game, compiles nothing again
_COMPILED: weakref.WeakKeyDictionary[Any, dict[tuple[str, tuple[tuple[str, str], ...]], tuple[Fn, str]]] = \
    weakref.WeakKeyDictionary()


class Values:
    """Name-level access to one compiled game: symbols, slot references, expressions."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.layout = game.layout
        self.domains = game.layout.domains
        self._compiled = _COMPILED.setdefault(game.program, {})

    # ---- symbols ---------------------------------------------------------------------
    def symbols(self, domain: str) -> tuple[str, ...]:
        return self.domains[domain].symbols

    def encode(self, type_: str, raw: Any, file: str, line: int, what: str = "") -> int:
        """A scenario value as the int the state stores: numbers, true/false, a symbol or its label, none."""
        where = f"{what}: " if what else ""
        if type_ == "int":
            if isinstance(raw, bool) or not isinstance(raw, int):
                raise ScenarioError(f"{where}expected a whole number, found {raw!r}", file, line)
            return raw
        if type_ == "bool":
            if not isinstance(raw, bool):
                raise ScenarioError(f"{where}expected true or false, found {raw!r}", file, line)
            return int(raw)
        if raw is None or raw == "none":
            return -1
        return self.symbol_index(type_, raw, file, line, what)

    def symbol_index(self, domain: str, raw: Any, file: str, line: int, what: str = "") -> int:
        dom = self.domains[domain]
        text = str(raw)
        if text in dom.symbols:
            return dom.symbols.index(text)
        labels = list(dom.labels or ())
        for i, lab in enumerate(labels):
            if lab == text:
                return i
        lowered = [s.lower() for s in dom.symbols]
        if text.lower() in lowered:
            return lowered.index(text.lower())
        for i, lab in enumerate(labels):
            if lab.lower() == text.lower():
                return i
        where = f"{what}: " if what else ""
        shown = ", ".join(dom.symbols[:12]) + (" ..." if len(dom.symbols) > 12 else "")
        raise ScenarioError(f"{where}{raw!r} is not a {domain}; expected one of: {shown}"
                            f"{suggest(text, list(dom.symbols) + labels)}", file, line)

    def show(self, type_: str, value: int) -> Any:
        """The scenario form of a stored value: an int, true/false, a symbol or none."""
        if type_ == "int":
            return value
        if type_ == "bool":
            return bool(value)
        if value == -1:
            return "none"
        return self.domains[type_].symbols[value]

    # ---- slot references ---------------------------------------------------------------
    def slot_type(self, name: str) -> str:
        return self.layout.slots[name].var.type

    def ref(self, text: str, file: str, line: int) -> int:
        """The flat index of ``name`` or ``name[i, j]`` (symbols only)."""
        try:
            e = parse(str(text))
        except ExprError as exc:
            raise ScenarioError(f"{text!r} is not a slot reference: {exc.message}", file, line) from None
        if isinstance(e, Name):
            name, args = e.id, ()
        elif isinstance(e, Index) and all(isinstance(a, Name) for a in e.args):
            name, args = e.name, tuple(a.id for a in e.args)  # type: ignore[union-attr]
        else:
            raise ScenarioError(f"{text!r} is not a slot reference like qi[yellow]", file, line)
        if name not in self.layout.slots:
            raise ScenarioError(f"no state slot {name!r}{suggest(name, list(self.layout.slots))}", file, line)
        slot = self.layout.slots[name]
        if len(args) != len(slot.var.index):
            raise ScenarioError(f"{name} takes {len(slot.var.index)} indices ({', '.join(slot.var.index)}), "
                                f"found {len(args)}", file, line)
        flat = slot.offset
        for dom, sym, stride in zip(slot.var.index, args, slot.strides):
            flat += self.symbol_index(dom, sym, file, line, f"index of {name}") * stride
        return flat

    def flat(self, name: str, *keys: int) -> int:
        slot = self.layout.slots[name]
        flat = slot.offset
        for k, stride in zip(keys, slot.strides):
            flat += k * stride
        return flat

    def name_of(self, flat: int) -> str:
        return self.layout.name_of(flat)

    def var_of(self, flat: int) -> Any:
        return self.layout.slots[self.layout.owner[flat][0]].var

    # ---- expressions -------------------------------------------------------------------
    def compile(self, text: str, scope: dict[str, str] | None = None, file: str = "<query>", line: int = 1,
                rule: str = "") -> tuple[Fn, str]:
        key = (str(text), tuple(sorted((scope or {}).items())))
        hit = self._compiled.get(key)
        if hit is not None:
            return hit
        try:
            e = parse(str(text))
        except ExprError as exc:
            raise ScenarioError(f"{text!r} is not a valid expression: {exc.message} at column {exc.column}",
                                file, line) from None
        try:
            out = self.game.program.exprs.compile(e, dict(scope or {}), Where(file, line), rule)
        except SpecError as exc:
            raise ScenarioError(exc.message.replace(" (rule )", ""), file, line) from None
        self._compiled[key] = out
        return out

    def raw(self, text: str, values: list[int], L: dict | None = None, scope: dict[str, str] | None = None,
            file: str = "<query>", line: int = 1) -> tuple[int, str]:
        fn, t = self.compile(text, scope, file, line)
        return fn(values, dict(L or {})), t

    def value(self, text: str, values: list[int], file: str = "<query>", line: int = 1) -> Any:
        v, t = self.raw(text, values, file=file, line=line)
        return self.show(t, v) if t != "none" else "none"
