"""Load a game folder under ``specs/`` into a validated :class:`GameSpec` for one configuration.

Layout of a game folder::

    game.yaml          parameters, domains, tables, state slots, pools, dice, events, flow, overlays
    rules/*.yaml       one file per rule family: rules with id, text, sources and formal part
    editions/*.yaml    overlays that replace, add or remove rules (each citing its difference)
    *.csv              static card/tile tables named in game.yaml

``cards:`` in game.yaml names one component table (a CSV) or a list of them; each becomes a domain
(one symbol per row: ``c<key>_<label>``, or the label alone with ``symbols: name``) and one table
per listed column.

Every problem is reported as a SpecError naming the file, the line and what was expected.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any, Iterable

from .expr import Call, Expr, Index, Name, walk
from .model import (Definition, Die, Domain, Invariant, OverlayChange, ScoreLine, EventDecl, Family, GameSpec, Parameter, Pool, Rule, Source, Table, Var,
                    Where)
from .source import LDict, Located, SpecError, load_csv_file, load_yaml_file
from .statements import expr_at, parse_block, where_of

SPECS_ROOT = Path(__file__).resolve().parent.parent.parent / "specs"
RULE_KINDS = ("on", "procedure", "define")
RULE_KEYS = {"id", "text", "editions", "differs", "open_questions", "sources", "basis", "on", "when", "do", "requires",
             "procedure", "define", "params", "value", "priority", "implemented_by", "reason", "notes",
             "configurations"}


def games_root() -> Path:
    return SPECS_ROOT


def available_games(root: Path | str | None = None) -> list[str]:
    """The names of the games under ``root`` (a path or its text; default: the package's ``specs/``),
    sorted: every folder that holds a ``game.yaml``; an empty list when ``root`` is not a folder."""
    base = Path(root) if root else SPECS_ROOT
    return sorted(p.name for p in base.iterdir() if (p / "game.yaml").is_file()) if base.is_dir() else []


def _need(d: Any, key: str, what: str, owner: Located) -> Any:
    if not isinstance(d, LDict):
        raise (d.error if isinstance(d, Located) else owner.error)(f"expected a mapping for {what}")
    if key not in d:
        raise d.error(f"{what}: missing '{key}'")
    return d[key]


def _symbols(value: Any, owner: Located, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise (value.error if isinstance(value, Located) else owner.error)(f"{what}: expected a list of names")
    return [str(v) for v in value]


class _Builder:
    """Collects the parts of one configuration while reading a game folder."""

    def __init__(self, folder: Path, params: dict[str, Any]) -> None:
        self.folder = folder
        self.root = folder.parent
        self.params = params
        self.domains: dict[str, Domain] = {}
        self.tables: dict[str, Table] = {}
        self.vars: dict[str, Var] = {}
        self.constants: dict[str, int] = {}

    # ---- helpers -------------------------------------------------------------------------
    def load(self, rel: str) -> Any:
        return load_yaml_file(self.folder / rel, self.root)

    def domain(self, name: Any, owner: Located) -> Domain:
        if str(name) not in self.domains:
            w = where_of(name, owner)
            raise SpecError(f"unknown domain {name!r}; known: {sorted(self.domains)}", w.file, w.line)
        return self.domains[str(name)]

    def value_of(self, type_: str, raw: Any, owner: Located) -> int:
        """Encode a literal of a declared type as an int (symbols by their index, none = -1)."""
        if type_ == "bool":
            if not isinstance(raw, bool):
                raise owner.error(f"expected true or false, found {raw!r}")
            return int(raw)
        if type_ == "int":
            if raw is None or raw == "none":
                return -1
            if isinstance(raw, bool) or not isinstance(raw, int):
                if isinstance(raw, str) and raw in self.constants:
                    return self.constants[raw]
                raise owner.error(f"expected a whole number, found {raw!r}")
            return raw
        dom = self.domain(type_, owner)
        if raw is None or raw == "none":
            return -1
        if str(raw) not in dom.symbols:
            raise owner.error(f"{raw!r} is not in domain {type_} ({', '.join(dom.symbols[:12])}...)")
        return dom.index(str(raw))

    def type_name(self, raw: Any, owner: Located) -> str:
        t = str(raw)
        if t in ("int", "bool"):
            return t
        self.domain(t, owner)
        return t

    def size(self, dims: Iterable[str]) -> int:
        n = 1
        for d in dims:
            n *= len(self.domains[d].symbols)
        return n

    def keys(self, dims: tuple[str, ...]) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = [()]
        for d in dims:
            out = [k + (i,) for k in out for i in range(len(self.domains[d].symbols))]
        return out

    # ---- sections ------------------------------------------------------------------------
    def read_domains(self, spec: LDict) -> None:
        for name, body in spec.items():
            labels: list[str] = []
            extends = None
            if isinstance(body, LDict) and "union" in body:
                symbols: list[str] = []
                first = body["union"][0] if body["union"] else None
                extends = str(first) if isinstance(first, str) else None
                for part in body["union"]:
                    if isinstance(part, list):
                        symbols += _symbols(part, body, f"domain {name}")
                    else:
                        dom = self.domain(part, body)
                        symbols += dom.symbols
                        pass
            elif isinstance(body, LDict) and "range" in body:
                lo, hi = body["range"]
                symbols = [str(i) for i in range(int(lo), int(hi) + 1)]
            elif isinstance(body, LDict):
                symbols = _symbols(_need(body, "symbols", f"domain {name}", spec), body, f"domain {name}")
                labels = [str(x) for x in body.get("labels", [])]
            else:
                symbols = _symbols(body, spec, f"domain {name}")
            if len(set(symbols)) != len(symbols):
                raise spec.error_at(name, f"domain {name}: repeated symbol")
            if labels and len(labels) != len(symbols):
                raise spec.error_at(name, f"domain {name}: {len(labels)} labels for {len(symbols)} symbols")
            if labels and not any(labels):
                labels = []
            self.domains[str(name)] = Domain(str(name), tuple(symbols), tuple(labels), extends)

    def read_tables(self, spec: LDict) -> None:
        for name, body in spec.items():
            if not isinstance(body, LDict):
                raise spec.error_at(name, f"table {name}: expected a mapping with args, type and values")
            args = tuple(str(a) for a in _need(body, "args", f"table {name}", spec))
            for a in args:
                self.domain(a, body)
            type_ = self.type_name(body.get("type", "int"), body)
            default = self.value_of(type_, body.get("default", False if type_ == "bool" else None), body) \
                if "default" in body or type_ == "bool" else -1
            values = [default] * self.size(args)
            if "pairs" in body:  # list of argument tuples that are true
                for pair in body["pairs"]:
                    idx = self._flat(args, pair, body)
                    values[idx] = 1
            if "values" in body:
                self._fill(args, body["values"], type_, values, body, ())
            self.tables[str(name)] = Table(str(name), args, type_, tuple(values), str(body.get("text", "")),
                                           where_of(body))

    def _flat(self, dims: tuple[str, ...], key: Any, owner: Located) -> int:
        if not isinstance(key, list) or len(key) != len(dims):
            raise owner.error(f"expected {len(dims)} names {list(dims)}, found {key!r}")
        idx = 0
        for d, k in zip(dims, key):
            dom = self.domains[d]
            if str(k) not in dom.symbols:
                raise owner.error(f"{k!r} is not in domain {d}")
            idx = idx * len(dom.symbols) + dom.index(str(k))
        return idx

    def _fill(self, dims: tuple[str, ...], raw: Any, type_: str, out: list[int], owner: Located,
              prefix: tuple[int, ...]) -> None:
        depth = len(prefix)
        dom = self.domains[dims[depth]]
        items: list[tuple[int, Any]]
        if isinstance(raw, dict):
            items = []
            for k, v in raw.items():
                if str(k) not in dom.symbols:
                    raise (raw.error_at(k, f"{k!r} is not in domain {dom.name}") if isinstance(raw, LDict)
                           else owner.error(f"{k!r} is not in domain {dom.name}"))
                items.append((dom.index(str(k)), v))
        elif isinstance(raw, list):
            if len(raw) != len(dom.symbols):
                raise (raw.error if isinstance(raw, Located) else owner.error)(
                    f"expected {len(dom.symbols)} values (one per {dom.name}), found {len(raw)}")
            items = list(enumerate(raw))
        else:
            raise owner.error(f"expected a list or mapping over {dom.name}")
        for i, v in items:
            key = prefix + (i,)
            if len(key) == len(dims):
                flat = 0
                for d, k in zip(dims, key):
                    flat = flat * len(self.domains[d].symbols) + k
                out[flat] = self.value_of(type_, v, raw if isinstance(raw, Located) else owner)
            else:
                self._fill(dims, v, type_, out, raw if isinstance(raw, Located) else owner, key)

    def read_cards(self, spec: LDict) -> None:
        """A CSV table of components becomes a domain (one symbol per row) and one table per column."""
        path = self.folder / str(_need(spec, "file", "cards", spec))
        rows = load_csv_file(path, self.root)
        fname = str(path.relative_to(self.root))
        dom_name = str(_need(spec, "domain", "cards", spec))
        key_col = str(spec.get("key", "number"))
        label_col = str(spec.get("label", "name"))
        symbols, labels = [], []
        for line, row in rows:
            if key_col not in row:
                raise SpecError(f"missing column {key_col!r}", fname, 1)
            slug = re.sub(r"[^a-z0-9]+", "_", row.get(label_col, "").lower()).strip("_")
            # 'symbols: name' names each row by its label alone ("Red Key" -> red_key), else c<key>_<label>
            symbols.append(slug if spec.get("symbols") == "name" else f"c{int(row[key_col]):02d}_{slug}")
            labels.append(row.get(label_col, symbols[-1]))
        self.domains[dom_name] = Domain(dom_name, tuple(symbols), tuple(labels))
        columns = _need(spec, "columns", "cards", spec)
        for col, body in columns.items():
            table = str(body.get("table", col))
            kind = str(body.get("type", "int"))
            if kind == "set":  # "a;b" -> table[card, member] bool
                dom = self.domain(body["domain"], body)
                vals = [0] * (len(symbols) * len(dom.symbols))
                for r, (line, row) in enumerate(rows):
                    for member in filter(None, (m.strip() for m in row.get(col, "").split(";"))):
                        if member not in dom.symbols:
                            raise SpecError(f"column {col}: {member!r} is not in domain {dom.name}", fname, line)
                        vals[r * len(dom.symbols) + dom.index(member)] = 1
                self.tables[table] = Table(table, (dom_name, dom.name), "bool", tuple(vals), str(body.get("text", "")))
            elif kind == "amounts":  # "n" or "k:n|k:n" -> table[card, key] int
                dom = self.domain(body["domain"], body)
                bare = str(body.get("bare_key", ""))
                vals = [0] * (len(symbols) * len(dom.symbols))
                for r, (line, row) in enumerate(rows):
                    cell = row.get(col, "").strip()
                    parts = [p.split(":") for p in cell.split("|")] if ":" in cell else [[row.get(bare, ""), cell]]
                    for k, n in parts:
                        if k not in dom.symbols or not n.strip().isdigit():
                            raise SpecError(f"column {col}: cannot read {cell!r} as amounts over {dom.name}",
                                            fname, line)
                        vals[r * len(dom.symbols) + dom.index(k)] = int(n)
                self.tables[table] = Table(table, (dom_name, dom.name), "int", tuple(vals), str(body.get("text", "")))
            else:
                type_ = self.type_name(kind, body) if kind != "int" else "int"
                nones = {str(x) for x in body.get("none", [])}
                vals = []
                for line, row in rows:
                    raw = row.get(col, "")
                    if raw in nones:
                        vals.append(-1)
                        continue
                    if type_ == "int":
                        if not raw.strip().lstrip("-").isdigit():
                            raise SpecError(f"column {col}: expected a whole number, found {raw!r}", fname, line)
                        vals.append(int(raw))
                    else:
                        dom = self.domains[type_]
                        if raw not in dom.symbols:
                            raise SpecError(f"column {col}: {raw!r} is not in domain {type_}", fname, line)
                        vals.append(dom.index(raw))
                self.tables[table] = Table(table, (dom_name,), type_, tuple(vals), str(body.get("text", "")))

    def read_vars(self, spec: LDict) -> None:
        for name, body in spec.items():
            if not isinstance(body, LDict):
                raise spec.error_at(name, f"state slot {name}: expected a mapping")
            index = tuple(str(d) for d in body.get("index", []))
            for d in index:
                self.domain(d, body)
            if "range" in body:
                lo, hi = (self.value_of("int", x, body) for x in body["range"])
                type_ = "int"
            else:
                type_ = self.type_name(body.get("type", "bool"), body)
                if type_ == "bool":
                    lo, hi = 0, 1
                elif type_ == "int":
                    raise body.error(f"state slot {name}: an int slot needs 'range: [lo, hi]'")
                else:
                    lo, hi = -1, len(self.domains[type_].symbols) - 1
            n = self.size(index)
            init_raw = body.get("init", None)
            if isinstance(init_raw, (dict, list)) and index:
                values = [lo if type_ == "int" else (0 if type_ == "bool" else -1)] * n
                self._fill(index, init_raw, type_, values, body, ())
            else:
                if init_raw is None:
                    v = max(lo, 0) if type_ == "int" else (0 if type_ == "bool" else -1)
                else:
                    v = self.value_of(type_, init_raw, body)
                values = [v] * n
            for v in values:
                if type_ == "int" and not lo <= v <= hi:
                    raise body.error(f"state slot {name}: initial value {v} outside {lo}..{hi}")
            self.vars[str(name)] = Var(str(name), index, type_, lo, hi, tuple(values), str(body.get("text", "")),
                                       where_of(body))

    def read_pools(self, spec: LDict) -> list[Pool]:
        pools = []
        for name, body in spec.items():
            cells = tuple(str(c) for c in _need(body, "cells", f"pool {name}", spec))
            per = str(body["per"]) if "per" in body else None
            total = self.value_of("int", _need(body, "total", f"pool {name}", spec), body)
            for c in cells:
                if c not in self.vars:
                    raise body.error(f"pool {name}: unknown state slot {c!r}")
                v = self.vars[c]
                if v.type != "int":
                    raise body.error(f"pool {name}: slot {c} is not a counter")
                if per and (not v.index or v.index[-1] != per):
                    raise body.error(f"pool {name}: slot {c} must have {per} as its last index")
            pool = Pool(str(name), cells, total, per, str(body.get("text", "")), where_of(body))
            # the initial state must hold exactly the declared total
            keys = range(len(self.domains[per].symbols)) if per else [0]
            for k in keys:
                s = 0
                for c in cells:
                    v = self.vars[c]
                    width = len(self.domains[per].symbols) if per else 1
                    s += sum(x for i, x in enumerate(v.init) if not per or i % width == k)
                if s != total:
                    raise body.error(f"pool {name}: initial cells hold {s}, declared total is {total}")
            pools.append(pool)
        return pools

    def read_dice(self, spec: LDict) -> list[Die]:
        dice = []
        for name, body in spec.items():
            faces = tuple(_symbols(_need(body, "faces", f"die {name}", spec), body, f"die {name}"))
            dom_name = str(body.get("domain", f"{name}_face"))
            if dom_name not in self.domains:
                distinct = tuple(dict.fromkeys(faces))
                self.domains[dom_name] = Domain(dom_name, distinct)
            for f in faces:
                if f not in self.domains[dom_name].symbols:
                    raise body.error(f"die {name}: face {f!r} not in domain {dom_name}")
            dice.append(Die(str(name), faces, dom_name, str(body.get("text", ""))))
        return dice


def _params_of(body: Any, owner: Located, b: _Builder) -> tuple[tuple[str, str], ...]:
    if body is None:
        return ()
    if not isinstance(body, LDict):
        raise owner.error("params: expected a mapping of name: domain")
    return tuple((str(k), b.type_name(v, body)) for k, v in body.items())


EVENT_KEYS = {"params", "text", "order", "by", "requires"}
PARAMETER_KEYS = {"values", "default", "only", "rule", "text"}


def _check_event_contracts(events: list[EventDecl], rules: list[Rule], definitions: list[Definition],
                           slots: dict[str, Var]) -> None:
    """An event's ``requires`` reads no state slot, directly or through a definition: the rules
    fired on the event run one after another and may change the state; the parameters stay."""
    bodies: dict[str, tuple[set[str], Expr]] = {d.name: ({p for p, _ in d.params}, d.value) for d in definitions}
    bodies.update({r.name: ({p for p, _ in r.params}, r.value) for r in rules if r.kind == "define"
                   and r.value is not None})

    def slot_read(e: Expr, bound: set[str], seen: set[str]) -> str | None:
        for x in walk(e):
            n = x.id if isinstance(x, Name) else x.name if isinstance(x, Index) else None
            if n is not None and n not in bound and n in slots:
                return repr(n)
            if isinstance(x, Call) and x.func in bodies and x.func not in seen:
                seen.add(x.func)
                params, body = bodies[x.func]
                found = slot_read(body, params, seen)
                if found is not None:
                    return f"{found} (through {x.func})"
        return None

    for ev in events:
        if ev.requires is None:
            continue
        found = slot_read(ev.requires, {p for p, _ in ev.params}, set())
        if found is not None:
            w = ev.where or Where("<spec>", 0)
            raise SpecError(f"event {ev.name}: 'requires' may read only the event's parameters, tables and "
                            f"constants, not the state slot {found}: the rules fired on the event may "
                            f"change the state", w.file, w.line)


def _configurations(raw: Any, owner: LDict) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, LDict):
        raise owner.error("configurations: expected a mapping of parameter: [values]")
    return tuple((str(k), tuple(v if isinstance(v, list) else [v])) for k, v in raw.items())


def read_rule(raw: Any, family: str, b: _Builder) -> Rule:
    if not isinstance(raw, LDict):
        raise (raw.error if isinstance(raw, Located) else SpecError)("expected a rule (a mapping with id and text)")
    unknown = set(raw) - RULE_KEYS
    if unknown:
        k = sorted(map(str, unknown))[0]
        raise raw.error_at(k, f"rule: unknown key {k!r}; expected some of {sorted(RULE_KEYS)}")
    rid = str(_need(raw, "id", "rule", raw))
    text = str(_need(raw, "text", f"rule {rid}", raw)).strip()
    editions = tuple(str(e) for e in raw.get("editions", []))
    sources = []
    for s in raw.get("sources", []) or []:
        if not isinstance(s, LDict) or "edition" not in s or "words" not in s:
            raise (s.error if isinstance(s, Located) else raw.error)(f"rule {rid}: a source needs edition and words")
        sources.append(Source(str(s["edition"]), str(s["words"]), s.get("page"), s.get("encoded")))
    kinds = [k for k in RULE_KINDS if k in raw]
    if len(kinds) > 1:
        raise raw.error(f"rule {rid}: use only one of on / procedure / define")
    common: dict[str, Any] = dict(
        id=rid, family=family, text=text, editions=editions, sources=tuple(sources), where=where_of(raw),
        differs=tuple(str(x) for x in raw.get("differs", []) or []),
        open_questions=tuple(str(x) for x in raw.get("open_questions", []) or []),
        basis=str(raw.get("basis", "")), priority=int(raw.get("priority", 0)),
        implemented_by=tuple(str(x) for x in raw.get("implemented_by", []) or []),
        reason=str(raw.get("reason", "")),
        configurations=_configurations(raw.get("configurations"), raw),
    )
    if not kinds:
        if "do" in raw or "value" in raw or "when" in raw:
            raise raw.error(f"rule {rid}: 'do'/'value'/'when' need 'on:', 'procedure:' or 'define:'")
        return Rule(kind="text", **common)
    kind = kinds[0]
    params = _params_of(raw.get("params"), raw, b)
    if kind == "define":
        if "value" not in raw:
            raise raw.error(f"rule {rid}: define needs 'value:'")
        return Rule(kind="define", name=str(raw["define"]), params=params,
                    value=expr_at(raw["value"], raw, raw), formal_where=where_of(raw["value"], raw), **common)
    body = parse_block(raw.get("do"), rid, raw)
    if kind == "procedure":
        requires = expr_at(raw["requires"], raw, raw) if "requires" in raw else None
        return Rule(kind="procedure", name=str(raw["procedure"]), params=params, body=body, requires=requires,
                    **common)
    when = expr_at(raw["when"], raw, raw) if "when" in raw else None
    on_where = Where(raw.file, raw.key_line("on"))
    formal_where = where_of(raw["when"], raw) if "when" in raw else on_where
    return Rule(kind="trigger", on=str(raw["on"]), when=when, body=body, formal_where=formal_where,
                on_where=on_where, **common)


def read_definitions(raw: Any, b: _Builder, default_rule: str = "") -> list[Definition]:
    out = []
    for d in raw or []:
        if not isinstance(d, LDict) or "name" not in d or "value" not in d:
            raise (d.error if isinstance(d, Located) else SpecError)(
                "a definition needs name, value and (optionally) params, rule, text")
        bad = set(d) - {"name", "params", "value", "rule", "text"}
        if bad:
            raise d.error_at(sorted(bad)[0], f"definition: unknown keys {sorted(bad)}")
        out.append(Definition(str(d["name"]), _params_of(d.get("params"), d, b), expr_at(d["value"], d, d),
                              str(d.get("rule", default_rule)), str(d.get("text", "")).strip(),
                              where_of(d["value"], d)))
    return out


def read_score(raw: Any, owner: Located) -> list[ScoreLine]:
    """A score sheet: a list of {label, rule, value} lines (value: an expression on the final state)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise owner.error("score: expected a list of lines with label, rule and value")
    out = []
    for line in raw:
        if not isinstance(line, LDict) or not {"label", "value"} <= set(line):
            raise (line.error if isinstance(line, Located) else owner.error)("a score line needs label and value")
        out.append(ScoreLine(str(line["label"]), str(line.get("rule", "")), expr_at(line["value"], line, line),
                             where_of(line["value"], line)))
    return out


def _matches(cond: Any, params: dict[str, Any]) -> bool:
    if cond is None:
        return True
    for k, v in cond.items():
        allowed = v if isinstance(v, list) else [v]
        if params.get(str(k)) not in allowed:
            return False
    return True


def _kind(value: Any) -> type:
    """bool, int, str or the value's own type (a string read from a spec is a str of its own)."""
    for kind in (bool, int, str):
        if isinstance(value, kind):
            return kind
    return type(value)


def load_spec(game: str, root: Path | str | None = None, **params: Any) -> GameSpec:
    """Read ``specs/<game>`` (or ``<root>/<game>``, ``root`` a path or its text) for the configuration
    ``params`` and apply its overlays."""
    base = Path(root) if root else SPECS_ROOT
    folder = base / game
    if not (folder / "game.yaml").is_file():
        raise SpecError(f"unknown game {game!r}; available: {', '.join(available_games(base)) or 'none'}")
    b = _Builder(folder, params)
    top = b.load("game.yaml")
    if not isinstance(top, LDict):
        raise SpecError("expected a mapping at the top of game.yaml", f"{game}/game.yaml", 1)

    parameters = read_parameters(top)
    chosen: dict[str, Any] = {}
    for par in parameters:
        value = params.get(par.name, par.default)
        # the value itself, of its kind: 4.0 or True are not 4 or 1 (they would be compiled as such)
        if not any(value == v and _kind(value) is _kind(v) for v in par.values):
            raise SpecError(f"parameter {par.name}={value!r} is not one of {list(par.values)}")
        chosen[par.name] = value
    unknown = set(params) - set(chosen)
    if unknown:
        raise SpecError(f"{game} has no parameter {sorted(unknown)[0]!r}; it has {sorted(chosen)}")
    problem = setting_problem(parameters, chosen)
    if problem:
        raise SpecError(f"{game}: {problem}")
    supported = top.get("supported") or {}
    for pname, values in supported.items():
        if chosen.get(str(pname)) not in values:
            raise SpecError(
                f"{game}: {pname}={chosen.get(str(pname))!r} is not specified yet (this spec runs {pname} in "
                f"{list(values)})")
    b.params = chosen

    overlays = [o for o in (top.get("overlays") or []) if _matches(o.get("when"), chosen)]
    overlay_docs = [(str(o["file"]), b.load(str(o["file"]))) for o in overlays]

    constants = dict((str(k), int(v)) for k, v in (top.get("constants") or {}).items())
    for _, doc in overlay_docs:
        if not isinstance(doc, LDict):
            raise SpecError("an overlay file must be a mapping", getattr(doc, "file", None))
        unknown_keys = set(doc) - {"overlay", "title", "constants", "replace", "add", "remove", "define", "notes",
                                   "score"}
        if unknown_keys:
            raise doc.error_at(sorted(unknown_keys)[0], f"overlay: unknown section {sorted(unknown_keys)[0]!r}")
        for entry in doc.get("constants") or []:
            _need(entry, "difference", "overlay constant", doc)
            for k, v in _need(entry, "set", "overlay constant", doc).items():
                if str(k) not in constants:
                    raise entry.error(f"overlay sets unknown constant {k!r}")
                constants[str(k)] = int(v)
    b.constants = constants
    b.read_domains(_need(top, "domains", "game", top))
    if "cards" in top:
        # one component table, or a list of them (each its own domain)
        for card_spec in (top["cards"] if isinstance(top["cards"], list) else [top["cards"]]):
            b.read_cards(card_spec)
    if "domains_after_cards" in top:
        b.read_domains(top["domains_after_cards"])
    b.read_tables(top.get("tables") or LDict())
    b.read_vars(_need(top, "state", "game", top))
    pools = b.read_pools(top.get("pools") or LDict())
    dice = b.read_dice(top.get("dice") or LDict())
    events = []
    for ename, ebody in (top.get("events") or {}).items():
        ebody = ebody or LDict()
        if not isinstance(ebody, LDict):
            raise top.error(f"event {ename}: expected a mapping (params, text, order, by, requires)")
        unknown = sorted(set(map(str, ebody)) - EVENT_KEYS)
        if unknown:
            raise ebody.error_at(unknown[0], f"event {ename}: unknown key {unknown[0]!r}; "
                                 f"expected some of {sorted(EVENT_KEYS)}")
        order = str(ebody.get("order", "declared"))
        if order not in ("declared", "choice"):
            raise ebody.error(f"event {ename}: order must be 'declared' or 'choice', found {order!r}")
        if order == "choice" and "by" not in ebody:
            raise ebody.error(f"event {ename}: order 'choice' needs 'by: player' (who chooses)")
        by = expr_at(ebody["by"], ebody, ebody) if "by" in ebody else None
        params = _params_of(ebody.get("params"), top, b)
        requires = expr_at(ebody["requires"], ebody, ebody) if "requires" in ebody else None
        events.append(EventDecl(str(ename), params, str(ebody.get("text", "")), order, by, requires,
                                where_of(ebody["requires"], ebody) if "requires" in ebody else where_of(ebody)))

    rules: list[Rule] = []
    families: list[Family] = []
    definitions = read_definitions(top.get("definitions"), b)
    for path in sorted((folder / "rules").glob("*.yaml")):
        doc = load_yaml_file(path, base)
        if not isinstance(doc, LDict) or "rules" not in doc:
            raise SpecError("a rule family file needs 'family:', 'title:' and 'rules:'", str(path.relative_to(base)), 1)
        fam = str(doc.get("family", path.stem))
        families.append(Family(fam, str(doc.get("title", fam)), str(path.relative_to(base))))
        for raw in doc["rules"] or []:
            rules.append(read_rule(raw, fam, b))
        definitions += read_definitions(doc.get("definitions"), b)

    score = read_score(top.get("score"), top)
    invariants = []
    for inv in top.get("invariants") or []:
        if not isinstance(inv, LDict) or not {"id", "holds"} <= set(inv):
            raise (inv.error if isinstance(inv, Located) else top.error)("an invariant needs id and holds")
        invariants.append(Invariant(str(inv["id"]), str(inv.get("rule", "")), str(inv.get("text", "")),
                                    expr_at(inv["holds"], inv, inv), where_of(inv["holds"], inv),
                                    bool(inv.get("boundary", True))))
    applied = []
    changes: list[OverlayChange] = []
    for fname, doc in overlay_docs:
        applied.append(fname)
        by_id = {r.id: i for i, r in enumerate(rules)}
        for entry in doc.get("constants") or []:
            for k in entry["set"]:
                changes.append(OverlayChange(str(entry["difference"]), fname, "constant", str(k),
                                             str(entry.get("note", ""))))
        for entry in doc.get("replace") or []:
            diff = str(_need(entry, "difference", "overlay entry", doc))
            new = read_rule(_need(entry, "rule", "overlay entry", doc), "", b)
            if new.id not in by_id:
                raise entry.error(f"overlay replaces unknown rule {new.id}")
            old = rules[by_id[new.id]]
            merged = _merge(old, new, diff)
            rules[by_id[new.id]] = merged
            changes.append(OverlayChange(diff, fname, "replace", new.id, str(entry.get("note", ""))))
        for entry in doc.get("add") or []:
            diff = str(_need(entry, "difference", "overlay entry", doc))
            fam = str(_need(entry, "family", "overlay entry", doc))
            new = read_rule(_need(entry, "rule", "overlay entry", doc), fam, b)
            if new.id in by_id:
                raise entry.error(f"overlay adds {new.id}, which exists already (use replace)")
            rules.append(_with(new, overlay=diff))
            changes.append(OverlayChange(diff, fname, "add", new.id, str(entry.get("note", ""))))
        for entry in doc.get("define") or []:
            diff = str(_need(entry, "difference", "overlay entry", doc))
            new_defs = read_definitions([_need(entry, "definition", "overlay entry", doc)], b)
            names = {d.name for d in new_defs}
            known = {d.name for d in definitions} | {r.name for r in rules if r.kind == "define"}
            for name in names - known:
                raise entry.error(f"overlay redefines {name!r}, which the shared rules do not define")
            # a name defined by a rule keeps its rule (ID, text, sources) with the overlay's value
            by_define = {r.name: i for i, r in enumerate(rules) if r.kind == "define"}
            for d in list(new_defs):
                if d.name in by_define:
                    i = by_define[d.name]
                    rules[i] = _with(rules[i], value=d.value, params=d.params, formal_where=d.where, overlay=diff)
                    new_defs.remove(d)
            definitions = [d for d in definitions if d.name not in names] + new_defs
            for name in sorted(names):
                changes.append(OverlayChange(diff, fname, "define", name, str(entry.get("note", ""))))
        for entry in doc.get("remove") or []:
            rid = str(_need(entry, "id", "overlay entry", doc))
            if rid not in by_id:
                raise entry.error(f"overlay removes unknown rule {rid}")
            rules = [r for r in rules if r.id != rid]
            by_id = {r.id: i for i, r in enumerate(rules)}
            changes.append(OverlayChange(str(entry.get("difference", "")), fname, "remove", rid,
                                         str(entry.get("note", ""))))
        if doc.get("score") is not None:
            sdoc = doc["score"]
            diff = str(_need(sdoc, "difference", "overlay score", doc))
            score = read_score(_need(sdoc, "lines", "overlay score", doc), sdoc)
            changes.append(OverlayChange(diff, fname, "score", "score", str(sdoc.get("note", ""))))
        by_id = {r.id: i for i, r in enumerate(rules)}
        for entry in doc.get("notes") or []:
            diff = str(_need(entry, "difference", "overlay note", doc))
            note = str(_need(entry, "note", "overlay note", doc))
            named = [str(x) for x in entry.get("rules", [])]
            for rid in named:  # a rule of other editions: this one's overlay adopts it where its text is silent
                if rid not in by_id:
                    raise entry.error(f"overlay note names unknown rule {rid}")
                r = rules[by_id[rid]]
                if r.editions and str(doc.get("overlay", "")) not in r.editions:
                    rules[by_id[rid]] = _with(r, adopted=r.adopted + (f"{diff}: {note}",))
            changes.append(OverlayChange(diff, fname, "note", ", ".join(named), note))

    seen: dict[str, Rule] = {}
    for r in rules:
        if r.id in seen:
            raise SpecError(f"rule {r.id} is defined twice (also at {seen[r.id].where})", r.where.file, r.where.line)
        seen[r.id] = r

    _check_event_contracts(events, rules, definitions, b.vars)
    flow = _need(top, "flow", "game", top)
    settings = tuple(sorted(chosen.items()))
    return GameSpec(
        name=game, title=str(top.get("title", game)), parameters=tuple(parameters), settings=settings,
        domains=tuple(b.domains.values()), constants=tuple(constants.items()), tables=tuple(b.tables.values()),
        vars=tuple(b.vars.values()), pools=tuple(pools), dice=tuple(dice), events=tuple(events),
        rules=tuple(rules), families=tuple(families), setup=str(_need(flow, "setup", "flow", flow)),
        turn=str(_need(flow, "turn", "flow", flow)), players=str(_need(top, "players", "game", top)),
        definitions=tuple(definitions), score=tuple(score), changes=tuple(changes), invariants=tuple(invariants),
        overlays_applied=tuple(applied), root=str(folder),
    )


def _with(rule: Rule, **changes: Any) -> Rule:
    import attrs
    return attrs.evolve(rule, **changes)


def _merge(old: Rule, new: Rule, diff: str) -> Rule:
    """An overlay's version of a rule keeps the family and any field the overlay left out."""
    import attrs
    changes: dict[str, Any] = {"overlay": diff, "family": old.family}
    for field in ("text", "editions", "sources", "differs", "open_questions", "basis"):
        if not getattr(new, field):
            changes[field] = getattr(old, field)
    return attrs.evolve(new, **changes)


def read_parameters(top: LDict) -> list[Parameter]:
    """The ``parameters:`` of a game.yaml, checked: known keys only, and every ``only`` naming
    values of another parameter."""
    declared = top.get("parameters") or {}
    out = []
    for pname, pbody in declared.items():
        if not isinstance(pbody, LDict) or "values" not in pbody:
            raise top.error(f"parameter {pname}: expected a mapping with values (and default, only, rule, text)")
        for k in sorted(set(map(str, pbody)) - PARAMETER_KEYS):
            raise pbody.error_at(k, f"parameter {pname}: unknown key {k!r}; expected some of {sorted(PARAMETER_KEYS)}")
        only = tuple((str(k), tuple(v if isinstance(v, list) else [v])) for k, v in (pbody.get("only") or {}).items())
        for other, limits in only:
            if other not in declared or any(x not in declared[other]["values"] for x in limits):
                raise pbody.error(f"parameter {pname}: 'only' names {other}={list(limits)!r}, which is not a "
                                  f"parameter value of this game")
        values = tuple(pbody["values"])
        out.append(Parameter(str(pname), values, pbody.get("default", values[0]), only, str(pbody.get("rule", ""))))
    return out


def setting_problem(parameters: Iterable[Parameter], settings: dict[str, Any]) -> str:
    """Why these settings are not a configuration of the game ('' when they are).

    A parameter may say ``only: {other: [values]}`` (with the ``rule`` that says so): its values
    other than the default exist only where every other parameter named has one of those values,
    e.g. the easier start of Ghost Stories, which the rulebooks offer at Initiation alone."""
    parameters = list(parameters)
    defaults = {par.name: par.default for par in parameters}
    for par in parameters:
        value = settings.get(par.name, par.default)
        if value == par.default:
            continue
        for other, allowed in par.only:
            other_value = settings.get(other, defaults[other])
            if other_value not in allowed:
                rule = f" ({par.rule})" if par.rule else ""
                return (f"{par.name}={value!r} is offered only with {other} in {list(allowed)}{rule}, "
                        f"not {other}={other_value!r}")
    return ""


def configurations(game: str, root: Path | None = None) -> list[dict[str, Any]]:
    """Every combination of the game's parameter values that is a configuration (see ``only``)."""
    base = root or SPECS_ROOT
    parameters = read_parameters(load_yaml_file(base / game / "game.yaml", base))
    combos = (dict(zip([p.name for p in parameters], combo)) for combo in itertools.product(*(p.values for p in parameters)))
    return [c for c in combos if not setting_problem(parameters, c)]


def parameter_names(game: str, root: Path | None = None) -> dict[str, tuple[Any, ...]]:
    """The parameters a game accepts, with their allowed values (for the command line)."""
    base = root or SPECS_ROOT
    return {p.name: p.values for p in read_parameters(load_yaml_file(base / game / "game.yaml", base))}


__all__ = ["load_spec", "available_games", "games_root", "SpecError", "Expr", "Name", "Where"]
