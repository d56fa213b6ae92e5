"""Scenario files: a position typed in a few lines of YAML, loaded into an engine ``State``.

A scenario names the game and its parameters, fixes the setup's chance outcomes (layout, sides,
powers ...), then sets slots through the friendly sections a game declares in its
``specs/<game>/scenario.yaml``. Conserved components keep their totals: what a scenario hands out
comes from the pool's supply cells. Whose turn and which step become the engine's call stack.
Every error names the file, the line and what was expected. The format is documented in
``docs/examples/README.md``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import attrs

from ..engine import Game, SpecRuntimeError, State
from ..engine.program import RandomI, RollI
from ..spec.loader import available_games, games_root, parameter_names
from ..spec.source import LDict, LList, SpecError, load_yaml_file, load_yaml_text
from .guards import step_blocked
from .schema import SCHEMA_FILE, Schema, Section, Step, read_schema, validate
from .steps import build_at_step
from .values import ScenarioError, Values, suggest

META_KEYS = ("title", "description", "question", "expect", "xfail", "notes")
RAW_KEYS = ("slots", "turn", "stack", "outcome")


@attrs.define
class Scenario:
    """A loaded scenario: the position, and what the file asks about it."""

    state: State
    schema: Schema
    file: str
    step: str | None = None                      # the named step the position starts at
    step_depth: int = 0                          # frames of that step (its procedure's depth)
    known: dict[str, list[int]] = attrs.Factory(dict)  # chance type -> the next outcomes, in order
    known_keys: dict[str, tuple[str, str]] = attrs.Factory(dict)  # chance type -> (section, key)
    title: str = ""
    description: str = ""
    question: Any = None
    expect: Any = None
    xfail: str | None = None
    doc: Any = None

    @property
    def game(self) -> Game:
        return self.state.game


# ---- reading -----------------------------------------------------------------------------------


def _read(source: Any, file: str | None) -> tuple[str, str]:
    if isinstance(source, Path):
        path = source
    elif isinstance(source, str) and "\n" not in source and source.strip().endswith((".yaml", ".yml")):
        path = Path(source)
    else:
        return str(source), file or "<scenario>"
    try:
        return path.read_text(encoding="utf-8"), file or str(source)
    except OSError as exc:
        raise ScenarioError(f"cannot read the scenario: {exc.strerror}", str(source)) from None


@lru_cache(maxsize=16)
def _parameters_at(game: str, mtime: float) -> tuple[dict[str, tuple[Any, ...]], dict[str, Any]]:
    top = load_yaml_file(games_root() / game / "game.yaml", games_root())
    raw = top.get("parameters") or {}
    defaults = {str(k): v.get("default", next(iter(v["values"]))) for k, v in raw.items() if isinstance(v, dict)}
    return parameter_names(game), defaults


def game_parameters(game: str) -> dict[str, tuple[Any, ...]]:
    """A game's parameters and their values (cached while its game.yaml is unchanged)."""
    path = games_root() / game / "game.yaml"
    return _parameters_at(game, path.stat().st_mtime if path.exists() else 0.0)[0]


def parameter_defaults(game: str) -> dict[str, Any]:
    path = games_root() / game / "game.yaml"
    return _parameters_at(game, path.stat().st_mtime if path.exists() else 0.0)[1]


@lru_cache(maxsize=8)
def _schema_at(path: str, mtime: float) -> Schema:
    p = Path(path)
    return read_schema(p, p.parent.parent)


def schema_for(game: Game) -> Schema:
    """The game's scenario vocabulary (specs/<game>/scenario.yaml), checked against the compiled game."""
    path = Path(game.spec.root) / SCHEMA_FILE
    if not path.exists():
        raise ScenarioError(f"game {game.spec.name} has no {SCHEMA_FILE}: scenarios are not available for it")
    schema = _schema_at(str(path), path.stat().st_mtime)
    validate(schema, game)
    return schema


def load(source: Any, file: str | None = None) -> Scenario:
    """Load a scenario from a path or from YAML text. Raises ScenarioError (``file:line: what``)."""
    text, name = _read(source, file)
    try:
        doc = load_yaml_text(text, name)
    except ScenarioError:
        raise
    except SpecError as exc:
        raise ScenarioError(exc.message, exc.file, exc.line) from None
    if not isinstance(doc, LDict):
        raise ScenarioError("a scenario is a mapping (game: ..., monks: ..., ghosts: ...)", name, 1)
    return _Builder(doc, name).build()


def load_scenario(source: Any) -> State:
    """The position of a scenario file (a path) or text: ``ghostrules.load_scenario('x.yaml')``."""
    return load(source).state


# ---- building ----------------------------------------------------------------------------------


class _Builder:
    def __init__(self, doc: LDict, file: str) -> None:
        self.doc = doc
        self.file = file
        self.game = self._game()
        self.schema = schema_for(self.game)
        self.v = Values(self.game)
        self.explicit: dict[int, tuple[int, int]] = {}   # flat -> (value, line)
        self.defaults: dict[int, int] = {}
        self.placed: dict[int, tuple[str, int]] = {}     # entity index -> (where, line)
        self.known: dict[str, list[int]] = {}
        self.known_keys: dict[str, tuple[str, str]] = {}
        self._known_lines: dict[str, int] = {}

    def err(self, message: str, line: int | None) -> ScenarioError:
        return ScenarioError(message, self.file, line)

    # ---- game and parameters ---------------------------------------------------------
    def _game(self) -> Game:
        from .. import load_game
        doc = self.doc
        games = [g for g in available_games() if (games_root() / g / SCHEMA_FILE).exists()]
        if "game" in doc:
            name = str(doc["game"])
            if name not in available_games():
                raise self.err(f"game: unknown game {name!r}; available: {', '.join(available_games())}"
                               f"{suggest(name, available_games())}", doc.key_line("game"))
        elif len(games) == 1:
            name = games[0]
        else:
            raise self.err(f"game: missing; expected one of: {', '.join(games)}", 1)
        allowed = game_parameters(name)
        params = {}
        for key in allowed:
            if key in doc:
                raw = doc[key]
                values = allowed[key]
                match = [x for x in values if str(x) == str(raw)]
                if not match:
                    raise self.err(f"{key} must be one of {', '.join(map(str, values))}, found {raw!r}",
                                   doc.key_line(key))
                params[key] = match[0]
        full = {k: v for k, v in parameter_defaults(name).items() if k in allowed}
        full.update(params)
        try:
            game = load_game(name, **full)
        except SpecError as exc:  # e.g. a configuration the spec does not cover yet
            line = max((doc.key_line(k) for k in params), default=doc.key_line("game") if "game" in doc else 1)
            raise self.err(exc.message, line) from None
        return game

    # ---- the whole build -------------------------------------------------------------
    def build(self) -> Scenario:
        doc, schema = self.doc, self.schema
        known_top = set(game_parameters(self.game.spec.name)) | {"game"}
        allowed = known_top | {k.name for k in schema.setup} | {s.name for s in schema.sections} | set(META_KEYS) \
            | set(RAW_KEYS)
        for key in doc:
            if key not in allowed:
                raise self.err(f"unknown key {key!r}; a scenario has: {', '.join(sorted(allowed))}"
                               f"{suggest(str(key), sorted(allowed))}", doc.key_line(key))
        setup_state = self._setup()
        values = list(setup_state.values)
        self.base = list(values)
        for key in doc:
            section = schema.section(str(key))
            if section is not None:
                self._section(section, doc[key], doc.key_line(key), values)
        if "slots" in doc:
            self._raw_slots(doc["slots"], doc.key_line("slots"))
        turn = doc.get("turn")
        step = self._turn(turn) if turn is not None else None
        for flat, (value, _) in self.explicit.items():
            values[flat] = value
        for flat, value in self.defaults.items():
            if flat not in self.explicit:
                values[flat] = value
        self._derive(values)
        self._balance(values)
        self._check(setup_state, values)
        state, step_name, depth = self._stack(setup_state, values, step)
        return Scenario(state=state, schema=schema, file=self.file, step=step_name, step_depth=depth,
                        known=self.known, known_keys=self.known_keys, title=str(doc.get("title", "")),
                        description=" ".join(str(doc.get("description", "")).split()),
                        question=doc.get("question"), expect=doc.get("expect"),
                        xfail=str(doc["xfail"]) if "xfail" in doc else None, doc=doc)

    # ---- setup with fixed chance outcomes ------------------------------------------------
    def _setup(self) -> State:
        key = (self.game.spec.name, tuple(self.game.spec.settings),
               repr([(k.name, _plain(self.doc.get(k.name))) for k in self.schema.setup]))
        hit = _SETUPS.get(key)
        if hit is None or hit[0] is not self.game:
            hit = (self.game, self._play_setup())
            if len(_SETUPS) > 64:
                _SETUPS.clear()
            _SETUPS[key] = hit
        return hit[1].clone()

    def _play_setup(self) -> State:
        game, doc = self.game, self.doc
        state = game.new_initial_state()
        setup_proc = game.program.by_name[game.spec.setup].index
        given = {k.name: (doc[k.name], doc.key_line(k.name)) for k in self.schema.setup if k.name in doc}
        for name, (raw, line) in given.items():
            if not isinstance(raw, (dict, list)):
                raise self.err(f"{name}: expected a list or a mapping", line)
        self._consulted: dict[str, set[int]] = {}
        while state.stack and state.stack[0][0] == setup_proc and not state.is_terminal():
            frame = state.stack[-1]
            node = game.program.procs[frame[0]].code[frame[1]]
            if isinstance(node, (RandomI, RollI)):
                action = self._setup_outcome(state, node, frame[2], given)
            else:
                action = state.legal_actions()[0]
            state.apply_action(action)
        self._unused_setup(given)
        return state

    def _unused_setup(self, given: dict[str, tuple[Any, int]]) -> None:
        """A setup key the setup never asks for with these parameters (``boards`` with 4 players), or a
        list longer than the choices it makes, is an error, not silently ignored."""
        params = ", ".join(f"{k}: {v}" for k, v in self.game.spec.settings)
        for key in self.schema.setup:
            if key.name not in given:
                continue
            raw, line = given[key.name]
            used = self._consulted.get(key.name, set())
            if not used:
                raise self.err(f"{key.name}: the setup makes no such choice with these parameters ({params})", line)
            if key.index == "count" and len(raw) > max(used):
                raise self.err(f"{key.name}: lists {len(raw)}, but the setup chooses {max(used)} with these "
                               f"parameters ({params})", line)

    def _setup_outcome(self, state: State, node: Any, L: dict, given: dict[str, tuple[Any, int]]) -> Any:
        outcomes = [a for a, _ in state.chance_outcomes()]
        key = next((k for k in self.schema.setup if k.chance == node.type), None)
        if key is None or key.local not in L:
            return outcomes[0]
        item = L[key.local]
        self._consulted.setdefault(key.name, set()).add(item)
        for source, raw, line in (("scenario", *given[key.name]) if key.name in given else ("", None, 0),
                                  ("default", key.default, 0)):
            if raw is None:
                continue
            want = self._setup_item(key, raw, item)
            if want is None:
                continue
            idx = self.v.symbol_index(key.chance, want, self.file, line, key.name)
            for a in outcomes:
                if a.key == (idx,):
                    return a
            if source == "scenario":
                raise self.err(f"{key.name}: {want!r} cannot be chosen here (already used, or not allowed by the "
                               f"setup rule {node.rule}); available: "
                               f"{', '.join(a.label.split(': ', 1)[-1] for a in outcomes)}", line)
        return outcomes[0]

    def _setup_item(self, key: Any, raw: Any, item: int) -> Any:
        if key.index == "count":
            seq = list(raw.values()) if isinstance(raw, dict) else list(raw)
            return seq[item - 1] if 0 < item <= len(seq) else None
        symbol = self.v.symbols(key.index)[item]
        if isinstance(raw, dict):
            return raw.get(symbol)
        seq = list(raw)
        return seq[item] if item < len(seq) else None

    # ---- settings ----------------------------------------------------------------------
    def _set(self, flat: int, raw: Any, line: int, what: str) -> None:
        var = self.v.var_of(flat)
        if var.type == "int" and isinstance(raw, bool) and var.lo <= 0 and var.hi >= 1:
            raw = int(raw)
        value = self.v.encode(var.type, raw, self.file, line, what)
        if not var.lo <= value <= var.hi:
            pool = self.game.program.pool_of.get(var.name)
            why = f" ({pool.text})" if pool is not None and pool.text else ""
            raise self.err(f"{what}: {raw!r} is out of range: {self.v.name_of(flat)} holds {var.lo}..{var.hi}{why}", line)
        if flat in self.explicit and self.explicit[flat][1] != line:
            raise self.err(f"{what}: {self.v.name_of(flat)} is already set on line {self.explicit[flat][1]}", line)
        self.explicit[flat] = (value, line)

    def _lookup(self, domain: str, raw: Any, lookup: str | None, line: int, what: str) -> int:
        """A symbol of ``domain``, or (with ``lookup``) the key whose lookup slot holds ``raw``."""
        try:
            return self.v.symbol_index(domain, raw, self.file, line, what)
        except ScenarioError:
            if lookup is None:
                raise
        var = self.game.layout.slots[lookup].var
        try:
            want = self.v.symbol_index(var.type, raw, self.file, line, what)
        except ScenarioError:
            shown = ", ".join(self.v.symbols(domain))
            raise self.err(f"{what}: {raw!r} is neither a {domain} ({shown}) nor a {var.type} "
                           f"{suggest(str(raw), list(self.v.symbols(var.type)))}", line) from None
        slot = self.game.layout.slots[lookup]
        for k in range(slot.count):
            if self.base[slot.offset + k] == want:
                return k
        raise self.err(f"{what}: no {domain} holds {raw!r}", line)

    def _entity(self, section: Section, raw: Any, line: int, what: str) -> int:
        """A card (or other entity) by symbol, label (the first not yet used) or number."""
        domain = section.entity or ""
        dom = self.v.domains[domain]
        if isinstance(raw, int) and not isinstance(raw, bool) and section.number:
            table = next(t for t in self.game.spec.tables if t.name == section.number)
            for i, n in enumerate(table.values):
                if n == raw:
                    return i
            raise self.err(f"{what}: there is no {domain} number {raw}", line)
        text = str(raw)
        if text in dom.symbols:
            return dom.symbols.index(text)
        labels = list(dom.labels or ())
        matches = [i for i, lab in enumerate(labels) if lab.lower() == text.lower()]
        if matches:
            free = [i for i in matches if i not in self.placed]
            return (free or matches)[0]
        raise self.err(f"{what}: unknown {domain} {raw!r}{suggest(text, labels + list(dom.symbols))}", line)

    def _claim(self, entity: int, where: str, line: int, domain: str) -> None:
        if entity in self.placed:
            other, other_line = self.placed[entity]
            name = self.v.symbols(domain)[entity]
            raise self.err(f"{name} is already placed ({other}, line {other_line})", line)
        self.placed[entity] = (where, line)

    def _section(self, section: Section, raw: Any, line: int, values: list[int]) -> None:
        kind = section.kind
        if kind == "table":
            self._table(section, raw, line)
        elif kind == "placement":
            self._placement(section, raw, line, values)
        elif kind == "placelist":
            items = raw if isinstance(raw, list) else None
            if items is None:
                raise self.err(f"{section.name}: expected a list", line)
            for item in items:
                il = getattr(item, "line", line) or line
                e = self._entity(section, item, il, section.name)
                self._claim(e, section.name, il, section.entity or "")
                self._set(self.v.flat(section.place or "", e), section.place_value, il, section.name)
        elif kind == "flaglist":
            if raw is None:
                raw = []
            if not isinstance(raw, list):
                raise self.err(f"{section.name}: expected a list of {section.key}", line)
            chosen = set()
            for item in raw:
                il = getattr(item, "line", line) or line
                chosen.add(self._lookup(section.key or "", item, section.lookup, il, section.name))
            for k in range(len(self.v.symbols(section.key or ""))):
                self._set(self.v.flat(section.flag or "", k), k in chosen, line, section.name)
        elif kind == "one":
            dom = section.key or ""
            chosen_idx = -1 if raw in (None, "none") else self.v.symbol_index(dom, raw, self.file, line, section.name)
            for k in range(len(self.v.symbols(dom))):
                self._set(self.v.flat(section.flag or "", k), 1 if k == chosen_idx else 0, line, section.name)
        elif kind == "counts":
            d = self._mapping(raw, section.name, line)
            cells = dict(section.cells)
            for key, count in d.items():
                kl = d.key_line(key)
                if key in cells:
                    self._set(self.v.flat(cells[key]), count, kl, f"{section.name}.{key}")
                else:
                    k = self.v.symbol_index(section.key or "", key, self.file, kl,
                                            f"{section.name} (a {section.key} or one of {', '.join(cells)})")
                    self._set(self.v.flat(section.slot or "", k), count, kl, f"{section.name}.{key}")
        elif kind == "scalars":
            d = self._mapping(raw, section.name, line)
            names = dict(section.scalars)
            for key, value in d.items():
                kl = d.key_line(key)
                if key not in names:
                    raise self.err(f"{section.name}: unknown key {key!r}; expected one of: {', '.join(names)}"
                                   f"{suggest(str(key), list(names))}", kl)
                self._set(self.v.flat(names[key]), value, kl, f"{section.name}.{key}")

    def _mapping(self, raw: Any, what: str, line: int) -> LDict:
        if raw is None:
            return LDict()
        if not isinstance(raw, LDict):
            raise self.err(f"{what}: expected a mapping", line)
        return raw

    def _table(self, section: Section, raw: Any, line: int) -> None:
        d = self._mapping(raw, section.name, line)
        known = dict(section.known)
        names = [f.name for f in section.fields] + list(known)
        for key, body in d.items():
            kl = d.key_line(key)
            if key in known:
                self._known(section, str(key), known[str(key)], body, kl)
                continue
            k = self.v.symbol_index(section.key or "", key, self.file, kl, section.name)
            fields = self._mapping(body, f"{section.name}.{key}", kl)
            for fname, value in fields.items():
                fl = fields.key_line(fname)
                f = section.field(str(fname))
                if f is None:
                    raise self.err(f"{section.name}.{key}: unknown field {fname!r}; expected one of: "
                                   f"{', '.join(names)}{suggest(str(fname), names)}", fl)
                what = f"{section.name}.{key}.{fname}"
                if f.by is not None:
                    sub = self._mapping(value, what, fl)
                    for sk, sv in sub.items():
                        j = self.v.symbol_index(f.by, sk, self.file, sub.key_line(sk), what)
                        self._set(self.v.flat(f.slot, k, j), sv, sub.key_line(sk), f"{what}.{sk}")
                else:
                    var = self.game.layout.slots[f.slot].var
                    if f.lookup is not None and var.type not in ("int", "bool") and value not in (None, "none"):
                        value = self.v.symbols(var.type)[self._lookup(var.type, value, f.lookup, fl, what)]
                    self._set(self.v.flat(f.slot, k), value, fl, what)

    def _known(self, section: Section, key: str, chance: str, body: Any, line: int) -> None:
        items = body if isinstance(body, list) else [body]
        fake = attrs.evolve(section, entity=chance)
        out = []
        for item in items:
            il = getattr(item, "line", line) or line
            out.append(self._entity(fake, item, il, f"{section.name}.{key}"))
        self.known[chance] = out
        self.known_keys[chance] = (section.name, key)
        self._known_lines[chance] = line

    def _placement(self, section: Section, raw: Any, line: int, values: list[int]) -> None:
        d = self._mapping(raw, section.name, line)
        names = [f.name for f in section.fields]
        for key, body in d.items():
            kl = d.key_line(key)
            where = self.v.symbol_index(section.key or "", key, self.file, kl, section.name)
            where_sym = self.v.symbols(section.key or "")[where]
            fields: dict[str, Any] = {}
            if isinstance(body, LDict):
                allowed = [section.entity or ""] + names
                for fname in body:
                    if fname not in allowed:
                        raise self.err(f"{section.name}.{key}: unknown field {fname!r}; expected one of: "
                                       f"{', '.join(allowed)}{suggest(str(fname), allowed)}", body.key_line(fname))
                if (section.entity or "") not in body:
                    raise self.err(f"{section.name}.{key}: which {section.entity}? add '{section.entity}: ...'",
                                   kl)
                ent_raw = body[section.entity or ""]
                fields = {str(f): (body[f], body.key_line(f)) for f in body if f != section.entity}
            else:
                ent_raw = body
            e = self._entity(section, ent_raw, kl, f"{section.name}.{key}")
            self._claim(e, f"{section.name}.{key}", kl, section.entity or "")
            self._set(self.v.flat(section.place or "", e), where_sym, kl, f"{section.name}.{key}")
            ent_sym = self.v.symbols(section.entity or "")[e]
            for fname, (value, fl) in fields.items():
                f = section.field(fname)
                assert f is not None
                self._set(self.v.flat(f.slot, e), value, fl, f"{section.name}.{key}.{fname}")
            for fname, expr in section.defaults:
                f = section.field(fname)
                if f is None or fname in fields:
                    continue
                value, _ = self.v.raw(expr.replace("{" + (section.entity or "") + "}", ent_sym), values,
                                      file=self.schema.file)
                self.defaults[self.v.flat(f.slot, e)] = value

    def _raw_slots(self, raw: Any, line: int) -> None:
        d = self._mapping(raw, "slots", line)
        for ref, value in d.items():
            kl = d.key_line(ref)
            flat = self.v.ref(str(ref), self.file, kl)
            self._set(flat, value, kl, f"slots.{ref}")

    def _turn(self, raw: Any) -> tuple[Step | None, int]:
        line = self.doc.key_line("turn")
        d = self._mapping(raw, "turn", line)
        for key in d:
            if key not in ("active", "step"):
                raise self.err(f"turn: unknown key {key!r}; expected active, step", d.key_line(key))
        if "active" in d:
            self._set(self.v.flat(self.schema.active), d["active"], d.key_line("active"), "turn.active")
        if "step" in d:
            step = self.schema.step(str(d["step"]))
            if step is None:
                names = [s.name for s in self.schema.steps]
                raise self.err(f"turn.step: unknown step {d['step']!r}; expected one of: {', '.join(names)}"
                               f"{suggest(str(d['step']), names)}", d.key_line("step"))
            return step, d.key_line("step")
        return None, line

    # ---- derived slots, supplies, checks -------------------------------------------------
    def _derive(self, values: list[int]) -> None:
        for entry in self.schema.derived:
            loops = list(entry.loops)
            combos: list[dict[str, int]] = [{}]
            for var, dom in loops:
                combos = [dict(c, **{var: i}) for c in combos for i in range(len(self.v.symbols(dom)))]
            scope = dict(loops)
            updates = []
            for L in combos:
                text = entry.slot
                for var, dom in loops:
                    text = _subst(text, var, self.v.symbols(dom)[L[var]])
                flat = self.v.ref(text, self.schema.file, entry.line)
                if flat in self.explicit:
                    continue
                value, _ = self.v.raw(entry.value, values, L, scope, self.schema.file, entry.line)
                updates.append((flat, int(value)))
            for flat, value in updates:
                values[flat] = value

    def _balance(self, values: list[int]) -> None:
        """Give the pools back their totals from their supply cells (those the scenario does not set)."""
        layout = self.game.layout
        for pool in self.game.spec.pools:
            width = len(layout.domains[pool.per].symbols) if pool.per else 1
            for key in range(width):
                cells: list[int] = []
                for cell in pool.cells:
                    slot = layout.slots[cell]
                    cells += [slot.offset + k for k in range(slot.count) if not pool.per or k % width == key]
                diff = pool.total - sum(values[f] for f in cells)
                if diff == 0:
                    continue
                for cell in self.schema.supply_of(pool.name):
                    slot = layout.slots[cell]
                    flat = slot.offset + (key if pool.per else 0)
                    if flat in self.explicit:
                        continue
                    var = slot.var
                    if diff > 0:
                        step = min(diff, var.hi - values[flat])
                    else:
                        step = -min(-diff, values[flat] - var.lo)
                    values[flat] += step
                    diff -= step
                    if diff == 0:
                        break
                if diff != 0:
                    lines = [self.explicit[f][1] for f in cells if f in self.explicit]
                    what = f"{pool.name}" + (f" ({layout.domains[pool.per].symbols[key]})" if pool.per else "")
                    placed = pool.total - diff
                    problem = "too many" if diff < 0 else "too few"
                    # where the scenario put them: every cell of this pool it set, with its line
                    where = ", ".join(f"{self.v.name_of(f)} = {self.explicit[f][0]} on line {self.explicit[f][1]}"
                                      for f in sorted(cells, key=lambda f: self.explicit.get(f, (0, 0))[1])
                                      if f in self.explicit)
                    raise self.err(f"{problem} {what}: the scenario accounts for {placed}"
                                   f"{' (' + where + ')' if where else ''}, the game has {pool.total}"
                                   f"{' (' + pool.text + ')' if pool.text else ''}", max(lines) if lines else 1)

    def _check(self, setup_state: State, values: list[int]) -> None:
        # the game's own checks first: they know which section of the file to point at
        for check in self.schema.checks:
            holds, _ = self.v.raw(check.holds, values, file=self.schema.file, line=check.line)
            if not holds:
                line = next((self.doc.key_line(s) for s in check.sections if s in self.doc), 1)
                raise self.err(f"the position breaks {check.rule} ({check.text}): {check.holds} is false", line)
        probe = setup_state.clone()
        probe.values = list(values)
        for problem in probe.check_invariants():
            raise self.err(f"the position is impossible: {problem}", 1)
        for chance, items in self.known.items():
            line = self._known_lines.get(chance, 1)
            for e in items:
                if e in self.placed:
                    where, other = self.placed[e]
                    raise self.err(f"{self.v.symbols(chance)[e]} cannot come next: the scenario places it "
                                   f"({where}, line {other})", line)
            if len(set(items)) != len(items):
                raise self.err("the same card cannot come next twice", line)

    # ---- the call stack ---------------------------------------------------------------
    def _stack(self, setup_state: State, values: list[int], step: tuple[Step | None, int] | None
               ) -> tuple[State, str | None, int]:
        game, doc = self.game, self.doc
        name = game.spec.name
        settings = dict(game.spec.settings)
        if "outcome" in doc or "stack" in doc:
            if step is not None and step[0] is not None:
                raise self.err("turn.step and a raw stack (or outcome) cannot be given together", step[1])
            outcome = None
            if "outcome" in doc:
                o = self._mapping(doc["outcome"], "outcome", doc.key_line("outcome"))
                outcome = {"result": str(o.get("result", "")), "rule": str(o.get("rule", "")),
                           "text": str(o.get("text", ""))}
            frames = self._raw_stack(doc.get("stack"), doc.key_line("stack") if "stack" in doc else 1)
            text = json.dumps({"game": name, "settings": settings, "values": values, "stack": frames,
                               "history": [], "outcome": outcome})
            return game.state_from_json(text, tracing=True), None, 0
        chosen = step[0] if step is not None else None
        line = step[1] if step is not None else 1
        if chosen is None:
            chosen = self.schema.step(self.schema.default_step)
            if chosen is None:
                raise ScenarioError(f"the default step {self.schema.default_step!r} is not declared", self.schema.file)
        self._reachable(chosen, values, line)
        state = build_at_step(game, self.v, self.schema, chosen, values, self.file, line)
        return state, chosen.name, len(chosen.frames)

    def _reachable(self, chosen: Step, values: list[int], line: int) -> None:
        """A named step the position cannot reach (its entering call's guards fail: a dead monk's Yang
        phase, an exorcism from the centre) is refused, naming the rule of the guard."""
        frames = []
        uncomputed = None  # the first frame local the position cannot give: its guards may still say why
        for fr in chosen.frames:
            local = {}
            for k, expr in fr.locals:
                try:
                    local[k] = int(self.v.raw(expr, values, file=self.schema.file, line=chosen.line)[0])
                except (SpecError, SpecRuntimeError, ValueError, KeyError, TypeError, IndexError) as exc:
                    message = exc.message if isinstance(exc, SpecError) else str(exc)
                    uncomputed = uncomputed or (f"turn.step: this position cannot be at step {chosen.name!r}: the "
                                                f"local {k} = {expr} of its frame {fr.proc} cannot be computed here "
                                                f"({message})")
            frames.append((fr.proc, fr.after, local))
        # a guard that needs a local left out is not judged (guards.step_blocked)
        reasons = step_blocked(self.game, values, frames)
        if uncomputed and not reasons:
            raise self.err(uncomputed, line)
        if reasons:
            why = "; ".join(f"{r['rule']}: {r['condition']} is false" + (f" (for {r['for']})" if r.get("for") else "")
                            for r in reasons)
            raise self.err(f"turn.step: this position cannot be at step {chosen.name!r}, forbidden by "
                           f"{reasons[-1]['rule']} ({why})", line)

    def _raw_stack(self, raw: Any, line: int) -> list[list[Any]]:
        if raw is None:
            return []
        if not isinstance(raw, LList):
            raise self.err("stack: expected a list of frames {proc: ..., pc: ..., locals: {...}}", line)
        out = []
        procs = self.game.program.by_name
        for fr in raw:
            fl = getattr(fr, "line", line) or line
            d = self._mapping(fr, "stack frame", fl)
            proc = str(d.get("proc", ""))
            if proc not in procs:
                raise self.err(f"stack: unknown procedure {proc!r}{suggest(proc, list(procs))}", fl)
            pc = d.get("pc", 0)
            if not isinstance(pc, int) or not 0 <= pc < len(procs[proc].code):
                raise self.err(f"stack: pc of {proc} must be 0..{len(procs[proc].code) - 1}", fl)
            loc = self._mapping(d.get("locals"), "locals", fl)
            local = {}
            for k, v in loc.items():
                if not isinstance(v, int):
                    raise self.err(f"stack: local {k} must be a whole number or true/false (the engine's encoding)",
                                   loc.key_line(k))
                local[str(k)] = v
            out.append([proc, pc, local])
        return out


_SETUPS: dict[Any, tuple[Game, State]] = {}


def _plain(x: Any) -> Any:
    """A YAML value without its line information (for cache keys)."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return x


def _subst(text: str, var: str, symbol: str) -> str:
    import re
    return re.sub(rf"\b{re.escape(var)}\b", symbol, text)
