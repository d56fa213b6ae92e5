"""A game's scenario vocabulary: ``specs/<game>/scenario.yaml``, read and checked against the game.

Everything game-specific about scenarios lives in that file (friendly section names, defaults, the
supply of each conserved pool, the named steps of a turn, sanity checks); this module only reads it.
Errors name scenario.yaml's file and line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from ..engine import Game
from ..spec.source import LDict, LList, Located, SpecError, load_yaml_file

SCHEMA_FILE = "scenario.yaml"


@attrs.frozen
class SetupKey:
    """A scenario header key that fixes the setup's chance nodes of one type."""

    name: str
    chance: str       # the chance node's type (a domain)
    local: str        # the loop variable saying which item the node is for
    index: str        # that variable's domain, or "count" (1, 2, 3 ... into a list)
    slot: str         # where the result is kept (to print it back)
    default: Any
    text: str = ""


@attrs.frozen
class Field:
    name: str
    slot: str
    by: str | None = None  # a second index: the field's value is a mapping over this domain
    lookup: str | None = None  # a slot indexed by the field's domain: a value may name what it holds


@attrs.frozen
class Section:
    """One friendly section of a scenario (see the kinds in scenario.yaml)."""

    name: str
    kind: str                              # table, placement, flaglist, placelist, one, counts, scalars
    line: int
    key: str | None = None                 # the domain of the mapping's keys
    entity: str | None = None              # placement/placelist: the domain of the entities
    place: str | None = None               # the slot recording where an entity is
    place_value: str | None = None         # placelist: the place all listed entities go to
    fields: tuple[Field, ...] = ()
    defaults: tuple[tuple[str, str], ...] = ()
    flag: str | None = None
    slot: str | None = None
    cells: tuple[tuple[str, str], ...] = ()
    scalars: tuple[tuple[str, str], ...] = ()
    known: tuple[tuple[str, str], ...] = ()  # name -> chance type: future outcomes a question assumes
    number: str | None = None              # a table giving each entity a number (cards by number)
    lookup: str | None = None              # flaglist: a slot whose values may name the listed symbols
    text: str = ""

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


@attrs.frozen
class Derived:
    slot: str                              # a slot reference, possibly with loop variables
    loops: tuple[tuple[str, str], ...]     # (variable, domain)
    value: str
    text: str
    line: int


@attrs.frozen
class Frame:
    proc: str
    after: str | None
    locals: tuple[tuple[str, str], ...]


@attrs.frozen
class Step:
    name: str
    frames: tuple[Frame, ...]
    text: str
    line: int


@attrs.frozen
class Check:
    """A sanity check of a scenario's position; ``sections``: the scenario sections it is about (a
    failure points at the first of them that the scenario file has, else at line 1)."""

    rule: str
    text: str
    holds: str
    sections: tuple[str, ...]
    line: int


@attrs.frozen
class Schema:
    game: str
    file: str
    setup: tuple[SetupKey, ...]
    supply: tuple[tuple[str, tuple[str, ...]], ...]
    sections: tuple[Section, ...]
    derived: tuple[Derived, ...]
    active: str
    default_step: str
    steps: tuple[Step, ...]
    checks: tuple[Check, ...]
    goals: tuple[tuple[str, str], ...]
    objective: str
    results: tuple[tuple[str, int], ...]
    scratch: tuple[str, ...]

    def section(self, name: str) -> Section | None:
        for s in self.sections:
            if s.name == name:
                return s
        return None

    def step(self, name: str) -> Step | None:
        for s in self.steps:
            if s.name == name:
                return s
        return None

    def setup_key(self, name: str) -> SetupKey | None:
        for k in self.setup:
            if k.name == name:
                return k
        return None

    def supply_of(self, pool: str) -> tuple[str, ...]:
        return dict(self.supply).get(pool, ())


def _mapping(raw: Any, what: str, owner: Located) -> LDict:
    if not isinstance(raw, dict):
        raise owner.error(f"{what} must be a mapping")
    return raw  # type: ignore[return-value]


def _text(raw: Any) -> str:
    return " ".join(str(raw).split()) if raw is not None else ""


def _pairs(raw: Any, what: str, owner: Located) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    d = _mapping(raw, what, owner)
    return tuple((str(k), str(v)) for k, v in d.items())


def _only(d: LDict, allowed: set[str], what: str) -> None:
    for k in d:
        if k not in allowed:
            raise d.error_at(k, f"unknown key {k!r} in {what}; expected one of: {', '.join(sorted(allowed))}")


def _section(name: str, raw: Any, owner: LDict) -> Section:
    d = _mapping(raw, f"section {name}", owner)
    line = owner.key_line(name)
    text = _text(d.get("text"))
    known = _known(d.get("known"), d)
    number = str(d["number"]) if "number" in d else None
    if "scalars" in d:
        _only(d, {"scalars", "text"}, f"section {name}")
        return Section(name, "scalars", line, scalars=_pairs(d["scalars"], "scalars", d), text=text)
    if "list" in d:
        _only(d, {"list", "flag", "place", "number", "lookup", "text"}, f"section {name}")
        if "flag" in d:
            return Section(name, "flaglist", line, key=str(d["list"]), flag=str(d["flag"]),
                           lookup=str(d["lookup"]) if "lookup" in d else None, text=text)
        place = _mapping(d.get("place"), f"{name}: place", d)
        _only(place, {"slot", "value"}, f"{name}: place")
        return Section(name, "placelist", line, entity=str(d["list"]), place=str(place["slot"]),
                       place_value=str(place["value"]), number=number, text=text)
    if "one" in d:
        _only(d, {"one", "flag", "text"}, f"section {name}")
        return Section(name, "one", line, key=str(d["one"]), flag=str(d["flag"]), text=text)
    if "key" not in d:
        raise d.error(f"section {name} needs one of: key, list, one, scalars")
    key = str(d["key"])
    fields = []
    raw_fields = d.get("fields")
    if raw_fields is not None:
        for fname, fraw in _mapping(raw_fields, f"{name}: fields", d).items():
            fd = _mapping(fraw, f"field {fname}", raw_fields)
            _only(fd, {"slot", "by", "lookup"}, f"field {fname}")
            fields.append(Field(str(fname), str(fd["slot"]), str(fd["by"]) if "by" in fd else None,
                                str(fd["lookup"]) if "lookup" in fd else None))
    if "entity" in d:
        _only(d, {"key", "entity", "number", "place", "fields", "defaults", "text"}, f"section {name}")
        return Section(name, "placement", line, key=key, entity=str(d["entity"]), place=str(d["place"]),
                       fields=tuple(fields), defaults=_pairs(d.get("defaults"), "defaults", d), number=number,
                       text=text)
    if "slot" in d:
        _only(d, {"key", "slot", "cells", "text"}, f"section {name}")
        return Section(name, "counts", line, key=key, slot=str(d["slot"]), cells=_pairs(d.get("cells"), "cells", d),
                       text=text)
    _only(d, {"key", "fields", "known", "text"}, f"section {name}")
    return Section(name, "table", line, key=key, fields=tuple(fields), known=known, text=text)


def _known(raw: Any, owner: LDict) -> tuple[tuple[str, str], ...]:
    """Keys of a table section that fix future chance outcomes: name -> the chance type (a domain)."""
    if raw is None:
        return ()
    out = []
    for k, v in _mapping(raw, "known", owner).items():
        vd = _mapping(v, f"known {k}", raw)
        _only(vd, {"chance", "number"}, f"known {k}")
        out.append((str(k), str(vd["chance"])))
    return tuple(out)


def read_schema(path: Path, root: Path | None = None) -> Schema:
    """Read one game's scenario.yaml (syntax only; ``validate`` checks it against a compiled game)."""
    doc = load_yaml_file(path, root)
    d = _mapping(doc, "scenario.yaml", doc if isinstance(doc, Located) else LDict())
    name = str(path.relative_to(root)) if root and path.is_relative_to(root) else str(path)
    _only(d, {"game", "setup", "supply", "sections", "derived", "turn", "checks", "questions"}, "scenario.yaml")
    setup = []
    for key, raw in _mapping(d.get("setup", LDict()), "setup", d).items():
        e = _mapping(raw, f"setup {key}", d["setup"])
        _only(e, {"chance", "for", "index", "slot", "default", "text"}, f"setup {key}")
        setup.append(SetupKey(str(key), str(e["chance"]), str(e["for"]), str(e["index"]), str(e["slot"]),
                              e.get("default"), _text(e.get("text"))))
    supply = []
    for pool, raw in _mapping(d.get("supply", LDict()), "supply", d).items():
        cells = [str(c) for c in raw] if isinstance(raw, list) else [str(raw)]
        supply.append((str(pool), tuple(cells)))
    sections = tuple(_section(str(k), v, d["sections"]) for k, v in _mapping(d.get("sections", LDict()), "sections", d).items())
    derived = []
    for raw in d.get("derived") or LList():
        e = _mapping(raw, "a derived entry", d)
        _only(e, {"slot", "for", "value", "text"}, "derived")
        derived.append(Derived(str(e["slot"]), _pairs(e.get("for"), "for", e), str(e["value"]), _text(e.get("text")),
                               e.line))
    turn = _mapping(d.get("turn", LDict()), "turn", d)
    _only(turn, {"active", "default", "steps"}, "turn")
    steps = []
    for sname, raw in _mapping(turn.get("steps", LDict()), "steps", turn).items():
        e = _mapping(raw, f"step {sname}", turn["steps"])
        _only(e, {"frames", "text"}, f"step {sname}")
        frames = []
        for fr in e.get("frames") or LList():
            fd = _mapping(fr, "a frame", e)
            _only(fd, {"proc", "after", "locals"}, "a frame")
            frames.append(Frame(str(fd["proc"]), str(fd["after"]) if "after" in fd else None,
                                _pairs(fd.get("locals"), "locals", fd)))
        if not frames:
            raise e.error(f"step {sname} needs at least one frame")
        steps.append(Step(str(sname), tuple(frames), _text(e.get("text")), turn["steps"].key_line(sname)))
    checks = []
    for raw in d.get("checks") or LList():
        e = _mapping(raw, "a check", d)
        _only(e, {"rule", "text", "holds", "section"}, "a check")
        about = e.get("section")  # a section name or a list of them
        about_all = () if about is None else (str(about),) if isinstance(about, str) else tuple(str(x) for x in about)
        checks.append(Check(str(e.get("rule", "")), _text(e.get("text")), str(e["holds"]), about_all, e.line))
    q = _mapping(d.get("questions", LDict()), "questions", d)
    _only(q, {"goals", "objective", "results", "scratch"}, "questions")
    return Schema(
        game=str(d.get("game", path.parent.name)), file=name, setup=tuple(setup), supply=tuple(supply),
        sections=sections, derived=tuple(derived), active=str(turn.get("active", "active")),
        default_step=str(turn.get("default", steps[0].name if steps else "")), steps=tuple(steps),
        checks=tuple(checks), goals=_pairs(q.get("goals"), "goals", q), objective=str(q.get("objective", "0")),
        results=tuple((str(k), int(v)) for k, v in _mapping(q.get("results", LDict()), "results", q).items()),
        scratch=tuple(str(x) for x in q.get("scratch") or ()))


def validate(schema: Schema, game: Game) -> None:
    """Every slot, domain and procedure named by the schema exists in the compiled game."""
    slots = game.layout.slots
    domains = game.layout.domains
    procs = game.program.by_name

    def need_slot(name: str, where: str) -> None:
        if name not in slots:
            raise SpecError(f"{where} names slot {name!r}, which the game does not declare", schema.file)

    def need_domain(name: str, where: str) -> None:
        if name not in domains and name not in ("count", "int"):
            raise SpecError(f"{where} names domain {name!r}, which the game does not declare", schema.file)

    for k in schema.setup:
        need_domain(k.chance, f"setup {k.name}")
        need_domain(k.index, f"setup {k.name}")
        need_slot(k.slot, f"setup {k.name}")
    pools = {p.name: p for p in game.spec.pools}
    for pool, cells in schema.supply:
        if pool not in pools:
            raise SpecError(f"supply names pool {pool!r}, which the game does not declare", schema.file)
        for c in cells:
            if c not in pools[pool].cells:
                raise SpecError(f"supply of {pool}: {c!r} is not a cell of that pool", schema.file)
    for s in schema.sections:
        for dom in (s.key, s.entity):
            if dom:
                need_domain(dom, f"section {s.name}")
        for slot in (s.place, s.flag, s.slot):
            if slot:
                need_slot(slot, f"section {s.name}")
        for f in s.fields:
            need_slot(f.slot, f"section {s.name}, field {f.name}")
            if f.lookup:
                need_slot(f.lookup, f"section {s.name}, field {f.name}")
        if s.lookup:
            need_slot(s.lookup, f"section {s.name}")
        if s.number and s.number not in {t.name for t in game.spec.tables}:
            raise SpecError(f"section {s.name} names table {s.number!r}, which the game does not declare",
                            schema.file)
        for _, cell in s.cells + s.scalars:
            need_slot(cell, f"section {s.name}")
    for st in schema.steps:
        for fr in st.frames:
            if fr.proc not in procs:
                raise SpecError(f"step {st.name} names procedure {fr.proc!r}, which the game does not have",
                                schema.file, st.line)
            if fr.after is not None and fr.after not in procs:
                raise SpecError(f"step {st.name} resumes after {fr.after!r}, which the game does not have",
                                schema.file, st.line)
