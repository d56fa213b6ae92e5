"""Print any position back as a scenario file: ``scenario_text(state)``.

The text names the game and its parameters, the setup choices that differ from the defaults, every
slot that differs from that setup (through the game's friendly sections where they apply, as raw
``slots:`` otherwise), and whose turn and which step (or the raw call stack). It is checked by
loading it again: ``load_scenario(scenario_text(s)) == s``, and printing is deterministic.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..engine import Game, State
from ..spec.source import load_yaml_text
from .scenario import Scenario, _Builder, load, schema_for
from .schema import Schema, Section
from .steps import build_at_step
from .values import ScenarioError, Values

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_ .'\-]*")
_SPECIAL = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "none~"}


def _scalar(x: Any) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    s = str(x)
    if _PLAIN.fullmatch(s) and s.lower() not in _SPECIAL and not s.endswith(" ") and "  " not in s:
        return s
    return json.dumps(s, ensure_ascii=False)


def _flow(x: Any) -> str:
    if isinstance(x, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(v)}" for k, v in x.items()) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(_flow(v) for v in x) + "]"
    return _scalar(x)


def dump(doc: dict[str, Any]) -> str:
    """A scenario document as YAML: top-level keys in block style, their entries in flow style."""
    lines = []
    for key, value in doc.items():
        if isinstance(value, dict) and value and key not in ("turn", "outcome"):
            lines.append(f"{_scalar(key)}:")
            for k, v in value.items():
                lines.append(f"  {_scalar(k)}: {_flow(v)}")
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append(f"{_scalar(key)}:")
            for v in value:
                lines.append(f"  - {_flow(v)}")
        else:
            lines.append(f"{_scalar(key)}: {_flow(value)}")
    return "\n".join(lines) + "\n"


class _Printer:
    def __init__(self, state: State, known: dict[str, list[int]] | None = None,
                 known_keys: dict[str, tuple[str, str]] | None = None) -> None:
        self.state = state
        self.game: Game = state.game
        self.schema: Schema = schema_for(self.game)
        self.v = Values(self.game)
        self.known = known or {}
        self.known_keys = known_keys or {}

    def header(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"game": self.game.spec.name}
        settings = dict(self.game.spec.settings)
        for p in self.game.spec.parameters:  # in the order the game declares them
            if p.name in settings:
                doc[p.name] = settings[p.name]
        for k, value in settings.items():
            doc.setdefault(k, value)
        values = self.state.values
        layout = self.game.layout
        for key in self.schema.setup:
            slot = layout.slots[key.slot]
            var = slot.var
            if key.index == "count":
                shown: Any = [self.v.symbols(key.chance)[k] for k in range(slot.count) if values[slot.offset + k]]
                if shown == list(key.default or [])[:len(shown)]:
                    continue
            else:
                syms = self.v.symbols(key.index)
                current = {syms[k]: self.v.show(var.type, values[slot.offset + k]) for k in range(slot.count)}
                default = key.default
                if isinstance(default, list):
                    default = {syms[i]: x for i, x in enumerate(default)}
                if default is not None and all(str(default.get(s)) == str(current[s]) for s in syms):
                    continue
                shown = list(current.values()) if isinstance(key.default, list) else current
            doc[key.name] = shown
        return doc

    def base_values(self, header: dict[str, Any]) -> list[int]:
        doc = load_yaml_text(dump(header), "<header>")
        builder = _Builder(doc, "<header>")
        return list(builder._setup().values)

    def sections(self, base: list[int], claimed: set[int]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        values = self.state.values
        diff = {f for f, (a, b) in enumerate(zip(values, base)) if a != b}
        for section in self.schema.sections:
            body = self._section(section, values, diff, claimed)
            if section.name in {s for s, _ in self.known_keys.values()}:
                for chance, (sname, key) in self.known_keys.items():
                    if sname == section.name and self.known.get(chance):
                        body = dict(body or {})
                        body[key] = [self._entity_name(chance, e) for e in self.known[chance]]
            if body is not None:
                out[section.name] = body
        return out

    def _entity_name(self, domain: str, e: int) -> str:
        dom = self.v.domains[domain]
        labels = list(dom.labels or ())
        if labels and labels.count(labels[e]) == 1:
            return labels[e]
        return dom.symbols[e]

    def _section(self, s: Section, values: list[int], diff: set[int], claimed: set[int]) -> Any:
        v = self.v
        layout = self.game.layout
        if s.kind == "table":
            body: dict[str, Any] = {}
            for k, ksym in enumerate(v.symbols(s.key or "")):
                entry: dict[str, Any] = {}
                for f in s.fields:
                    var = layout.slots[f.slot].var
                    if f.by is not None:
                        sub = {}
                        for j, jsym in enumerate(v.symbols(f.by)):
                            flat = v.flat(f.slot, k, j)
                            if flat in diff:
                                sub[jsym] = v.show(var.type, values[flat])
                                claimed.add(flat)
                        if sub:
                            entry[f.name] = sub
                    else:
                        flat = v.flat(f.slot, k)
                        if flat in diff:
                            entry[f.name] = v.show(var.type, values[flat])
                            claimed.add(flat)
                if entry:
                    body[ksym] = entry
            return body or None
        if s.kind == "placement":
            body = {}
            place = layout.slots[s.place or ""]
            place_syms = v.symbols(place.var.type)
            keys = v.symbols(s.key or "")
            entries = []
            for e in range(place.count):
                flat = place.offset + e
                sym = place_syms[values[flat]] if values[flat] >= 0 else "none"
                if sym not in keys:
                    continue
                fields_diff = [f for f in s.fields if v.flat(f.slot, e) in diff]
                if flat not in diff and not fields_diff:
                    continue
                claimed.add(flat)
                ent_sym = v.symbols(s.entity or "")[e]
                extra: dict[str, Any] = {}
                defaults = dict(s.defaults)
                for f in s.fields:
                    fflat = v.flat(f.slot, e)
                    var = layout.slots[f.slot].var
                    value = values[fflat]
                    if f.name in defaults:
                        dv, _ = v.raw(defaults[f.name].replace("{" + (s.entity or "") + "}", ent_sym), values)
                        if int(dv) == value:
                            claimed.add(fflat)
                            continue
                    elif fflat not in diff:
                        continue
                    claimed.add(fflat)
                    extra[f.name] = v.show(var.type, value) if not (var.type == "int" and var.hi == 1) else bool(value)
                name = self._entity_name(s.entity or "", e)
                entries.append((keys.index(sym), sym, {s.entity: name, **extra} if extra else name))
            for _, sym, item in sorted(entries):
                body[sym] = item
            return body or None
        if s.kind == "placelist":
            place = layout.slots[s.place or ""]
            target = v.symbols(place.var.type).index(s.place_value or "")
            items = []
            for e in range(place.count):
                flat = place.offset + e
                if values[flat] == target and flat in diff:
                    claimed.add(flat)
                    items.append(self._entity_name(s.entity or "", e))
            return items or None
        if s.kind == "flaglist":
            slot = layout.slots[s.flag or ""]
            flats = range(slot.offset, slot.offset + slot.count)
            if not any(f in diff for f in flats):
                return None
            claimed.update(flats)
            return [v.symbols(s.key or "")[k] for k in range(slot.count) if values[slot.offset + k]]
        if s.kind == "one":
            slot = layout.slots[s.flag or ""]
            flats = range(slot.offset, slot.offset + slot.count)
            if not any(f in diff for f in flats):
                return None
            ones = [k for k in range(slot.count) if values[slot.offset + k]]
            if len(ones) > 1 or any(values[f] > 1 for f in flats):
                return None
            claimed.update(flats)
            return v.symbols(s.key or "")[ones[0]] if ones else "none"
        if s.kind == "counts":
            body = {}
            for name, cell in s.cells:
                flat = v.flat(cell)
                if flat in diff:
                    body[name] = values[flat]
                    claimed.add(flat)
            slot = layout.slots[s.slot or ""]
            for k, ksym in enumerate(v.symbols(s.key or "")):
                flat = slot.offset + k
                if flat in diff:
                    body[ksym] = values[flat]
                    claimed.add(flat)
            return body or None
        if s.kind == "scalars":
            body = {}
            for name, cell in s.scalars:
                flat = v.flat(cell)
                if flat in diff:
                    body[name] = v.show(layout.slots[cell].var.type, values[flat])
                    claimed.add(flat)
            return body or None
        return None

    def turn_and_stack(self) -> dict[str, Any]:
        state = self.state
        out: dict[str, Any] = {}
        active_flat = self.v.flat(self.schema.active)
        active = self.v.show(self.v.var_of(active_flat).type, state.values[active_flat])
        if state.is_terminal():
            o = state.outcome()
            assert o is not None
            out["turn"] = {"active": active}
            out["outcome"] = {"result": o.result, "rule": o.rule_id, "text": o.text}
            return out
        names = [self.schema.default_step] + [s.name for s in self.schema.steps if s.name != self.schema.default_step]
        for name in names:
            step = self.schema.step(name)
            if step is None:
                continue
            try:
                probe = build_at_step(self.game, self.v, self.schema, step, list(state.values), tracing=False)
            except ScenarioError:
                continue
            if probe.values == state.values and probe.stack == state.stack and not probe.is_terminal():
                out["turn"] = {"active": active} if name == self.schema.default_step else {"active": active,
                                                                                          "step": name}
                return out
        procs = self.game.program.procs
        out["turn"] = {"active": active}
        out["stack"] = [{"proc": procs[f[0]].name, "pc": f[1], "locals": dict(f[2])} for f in state.stack]
        return out

    def text(self) -> str:
        header = self.header()
        base = self.base_values(header)
        claimed: set[int] = set()
        doc = dict(header)
        doc.update(self.sections(base, claimed))
        supply_cells = {c for _, cells in self.schema.supply for c in cells}
        active_flat = self.v.flat(self.schema.active)
        # derived slots are recomputed on loading: they are printed only where that gives another value
        derived = {d.slot.split("[", 1)[0].strip() for d in self.schema.derived}
        raw: dict[str, Any] = {}
        for flat, (a, b) in enumerate(zip(self.state.values, base)):
            if a == b or flat in claimed or flat == active_flat:
                continue
            name, _ = self.game.layout.owner[flat]
            if name in supply_cells or name in derived:
                continue
            raw[self.v.name_of(flat)] = self.v.show(self.v.var_of(flat).type, a)
        tail = self.turn_and_stack()
        for _ in range(3):
            full = dict(doc)
            if raw:
                full["slots"] = dict(sorted(raw.items(), key=lambda kv: self.game.layout.index(
                    *_split_ref(kv[0]))))
            full.update(tail)
            text = dump(full)
            try:
                again = load(text).state
            except ScenarioError:
                return text
            missing = [f for f, (a, b) in enumerate(zip(self.state.values, again.values)) if a != b]
            if not missing:
                return text
            for flat in missing:
                raw[self.v.name_of(flat)] = self.v.show(self.v.var_of(flat).type, self.state.values[flat])
        return text


def _split_ref(ref: str) -> tuple[Any, ...]:
    if "[" not in ref:
        return (ref,)
    name, rest = ref.split("[", 1)
    return (name, *[x.strip() for x in rest.rstrip("]").split(",")])


def scenario_text(obj: State | Scenario) -> str:
    """Any position (or loaded scenario) as scenario text that loads back to an equal state."""
    if isinstance(obj, Scenario):
        return _Printer(obj.state, obj.known, obj.known_keys).text()
    return _Printer(obj).text()
