"""How rules refer to each other, found by walking their formal parts.

* ``calls``/``emits``: the procedures a rule calls and the events it emits (whose triggers then
  run): the edges of the rule-dependency graph;
* ``uses``: the definitions (derived values) its conditions read;
* ``mentions``: the domain symbols its formal part names (a tile, a power, an ability ...);
* ``carries``: the rules credited (``rule: ID``) by statements inside another rule's body.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any, Iterator

import attrs
import networkx as nx

from ..spec import expr as E
from ..spec.model import GameSpec, MenuStmt, Rule, Template
from ..spec.render import iter_statements
from ..spec.model import CallStmt, EmitStmt

_EXPR_TYPES = (E.Num, E.Bool, E.NoneLit, E.Name, E.Qualified, E.Index, E.Call, E.ListLit, E.Quant, E.Unary,
               E.Binary, E.Cond)


def _exprs_in(value: Any) -> Iterator[E.Expr]:
    if isinstance(value, _EXPR_TYPES):
        yield value
    elif isinstance(value, Template):
        for part in value.parts:
            if isinstance(part, _EXPR_TYPES):
                yield part
    elif isinstance(value, tuple):
        for item in value:
            yield from _exprs_in(item)


def statement_exprs(stmt: Any) -> Iterator[E.Expr]:
    """The expressions a statement itself holds (not those of nested statements)."""
    for field in attrs.fields(type(stmt)):
        if field.name in ("then", "other", "body", "options"):
            continue
        yield from _exprs_in(getattr(stmt, field.name))
    if isinstance(stmt, MenuStmt):
        for opt in stmt.options:
            yield from _exprs_in((opt.label, opt.domain, opt.cond))


def walk(e: E.Expr) -> Iterator[E.Expr]:
    yield e
    for child in E.children(e):
        yield from walk(child)


def rule_exprs(rule: Rule) -> Iterator[E.Expr]:
    """Every expression node of a rule's formal part."""
    for top in (rule.when, rule.value):
        if top is not None:
            yield from walk(top)
    for stmt in iter_statements(rule.body):
        for e in statement_exprs(stmt):
            yield from walk(e)


@attrs.define
class Links:
    """The cross-references of one game's rules (see the module docstring)."""

    calls: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))
    called_by: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))
    emits: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))  # rule -> events
    emitted_by: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))  # event -> rules
    triggered: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))  # event -> trigger rules
    uses: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))  # rule -> defining rules
    used_by: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))
    mentions: dict[str, set[str]] = attrs.Factory(lambda: defaultdict(set))  # symbol -> rules
    carries: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))  # rule -> rules it credits
    carried_by: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))
    implements: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))  # rule -> text rules it carries
    definitions: dict[str, list[Any]] = attrs.Factory(lambda: defaultdict(list))  # rule -> Definitions citing it
    text_refs: dict[str, list[str]] = attrs.Factory(lambda: defaultdict(list))  # rule -> rules naming it in text
    graph: nx.DiGraph = attrs.Factory(nx.DiGraph)


def _add(d: dict[str, list[str]], key: str, value: str) -> None:
    if value not in d[key]:
        d[key].append(value)


def analyse(spec: GameSpec, rules: list[Rule], id_pattern: re.Pattern[str] | None = None) -> Links:
    """Cross-references of ``rules`` (all versions merged) within the configuration ``spec``."""
    links = Links()
    procs = {r.name: r.id for r in rules if r.kind == "procedure"}
    defines = {r.name: r.id for r in rules if r.kind == "define"}
    for d in spec.definitions:
        defines.setdefault(d.name, d.rule)
        if d.rule:
            links.definitions[d.rule].append(d)
    for r in rules:
        if r.kind == "trigger":
            _add(links.triggered, r.on, r.id)
    symbols = {s for dom in spec.domains for s in dom.symbols}
    for r in rules:
        links.graph.add_node(r.id)
        for stmt in iter_statements(r.body):
            if isinstance(stmt, CallStmt) and stmt.proc in procs:
                _add(links.calls, r.id, procs[stmt.proc])
                _add(links.called_by, procs[stmt.proc], r.id)
                links.graph.add_edge(r.id, procs[stmt.proc], via=f"call {stmt.proc}")
            elif isinstance(stmt, EmitStmt):
                _add(links.emits, r.id, stmt.event)
                _add(links.emitted_by, stmt.event, r.id)
            if stmt.rule and stmt.rule != r.id:
                _add(links.carries, r.id, stmt.rule)
                _add(links.carried_by, stmt.rule, r.id)
        for e in rule_exprs(r):
            name = None
            if isinstance(e, E.Call):
                name = e.func
            elif isinstance(e, E.Name):
                name = e.id
                if e.id in symbols:
                    links.mentions[e.id].add(r.id)
            elif isinstance(e, E.Qualified):
                links.mentions[e.symbol].add(r.id)
            if name is not None and name in defines and defines[name] and defines[name] != r.id:
                _add(links.uses, r.id, defines[name])
                _add(links.used_by, defines[name], r.id)
        for target in r.implemented_by:
            _add(links.implements, target, r.id)
        if id_pattern is not None:
            for m in id_pattern.finditer(" ".join((r.text, r.basis, r.reason))):
                if m.group(0) != r.id:
                    _add(links.text_refs, m.group(0), r.id)
    # a definition cited to a rule reads other definitions on that rule's behalf
    for d in spec.definitions:
        if not d.rule:
            continue
        for e in walk(d.value):
            name = e.func if isinstance(e, E.Call) else e.id if isinstance(e, E.Name) else None
            if name is not None and defines.get(name) and defines[name] != d.rule:
                _add(links.uses, d.rule, defines[name])
                _add(links.used_by, defines[name], d.rule)
    for r in rules:
        for event in links.emits.get(r.id, []):
            for t in links.triggered.get(event, []):
                links.graph.add_edge(r.id, t, via=f"emit {event}")
    return links


def dependency_graph(links: Links, rules: list[Rule]) -> nx.DiGraph:
    """The rules that call or emit, and those they reach: rule -> rules it calls or triggers."""
    g = nx.DiGraph()
    kinds = {r.id: r for r in rules}
    for u, v, data in links.graph.edges(data=True):
        g.add_edge(u, v, **data)
    for node in g.nodes:
        r = kinds.get(node)
        g.nodes[node]["group"] = r.family if r else ""
        g.nodes[node]["kind"] = r.kind if r else ""
    return g
