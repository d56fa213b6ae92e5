"""A game's overview, edition differences, open questions, components and dependency graph pages."""

from __future__ import annotations

from typing import Any

from ..render.graph import graph_to_svg
from ..spec.render import render_definition
from .links import dependency_graph
from .rst import esc, field_list, heading, literal, raw_html, role
from .site import GamePages, UriFn, first_sentence, settings_label

_KNOWN_DIFF_KEYS = {"id", "topic", "rules", "effect"}


def _cell(text: str) -> str:
    return text if text.strip() else "\u2014"


def index_page(gp: GamePages, pages: list[tuple[str, str]], families: list[tuple[Any, int]]) -> list[str]:
    docs = gp.docs
    spec = docs.spec
    out = heading(esc(docs.title), "=")
    params = "; ".join(f"{literal(p.name)} in {esc(', '.join(map(str, p.values)))} (default {esc(str(p.default))})"
                       for p in spec.parameters)
    counts: dict[str, int] = {}
    for r in docs.rules:
        counts[r.kind] = counts.get(r.kind, 0) + 1
    overlays = "; ".join(literal(settings_label(c)) for c, _ in docs.variants)
    out += [f"Generated from {literal('specs/' + docs.name)}: every page below is built from the spec data, "
            "so the reference and the engine cannot disagree.", ""]
    out += field_list([
        ("Parameters", params),
        ("Rules", f"{len(docs.rules)} in {len(families)} families ("
                  + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) + ")"),
        ("Documented configurations", literal(settings_label(spec.settings))
         + (f"; overlays read with {overlays}" if overlays else "")),
        ("Differences between editions", str(len(docs.differences)) if docs.differences else ""),
        ("Open questions", str(len(docs.open_questions)) if docs.open_questions else ""),
    ])
    out += [".. list-table:: Rule families", "   :header-rows: 1", "   :widths: 30 10 60", "",
            "   * - Family", "     - Rules", "     - Spec file"]
    for fam, n in families:
        out += [f"   * - :doc:`{esc(fam.title)} <rules/{fam.name}>`", f"     - {n}", f"     - {literal('specs/' + fam.file)}"]
    out += ["", ".. toctree::", "   :caption: Rule families", "   :maxdepth: 1", ""]
    out += [f"   rules/{fam.name}" for fam, _ in families]
    out += ["", ".. toctree::", "   :caption: Components, differences and questions", "   :maxdepth: 1", ""]
    out += [f"   {page}" for page, _ in pages]
    return out + [""]


def differences_page(gp: GamePages) -> list[str]:
    docs = gp.docs
    editions = docs.editions or sorted({k for d in docs.differences for k in d} - _KNOWN_DIFF_KEYS)
    out = heading("Differences between editions", "=")
    out += [f"The {len(docs.differences)} differences between the rulebooks of {esc(docs.title)}, side by side "
            f"(from {literal('specs/' + docs.name + '/editions/differences.yaml')}). Each names the rules it "
            "affects; the sections below also show how each edition's overlay encodes it.", ""]
    widths = " ".join(["8", "18"] + [str(max(10, 56 // max(1, len(editions))))] * len(editions) + ["18"])
    out += [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}", "   :class: ghostrules-differences", "",
            "   * - ID", "     - Topic"] + [f"     - {esc(e)}" for e in editions] + ["     - Rules"]
    for d in docs.differences:
        ident = str(d["id"])
        out += [f"   * - {role('ed', ident)}", f"     - {_cell(esc(str(d.get('topic', ''))))}"]
        out += [f"     - {_cell(gp.linker(str(d.get(e, ''))))}" for e in editions]
        out += [f"     - {_cell(', '.join(role('rule', r) if r in gp.rule_doc else esc(r) for r in d.get('rules') or []))}"]
    out.append("")
    changes: dict[str, list[tuple[str, Any]]] = {}
    for settings, spec in [({}, docs.spec)] + list(docs.variants):
        for c in getattr(spec, "changes", ()):
            entry = (c.overlay, c)
            if entry not in changes.setdefault(c.difference, []):
                changes[c.difference].append(entry)
    for d in docs.differences:
        ident = str(d["id"])
        out += [f".. ghostrules-anchor:: {ident}", ""]
        out += heading(esc(f"{ident} \u00b7 {d.get('topic', '')}"), "-")
        out += field_list([(esc(e), gp.linker(str(d[e]))) for e in editions if e in d]
                          + [("Effect", esc(str(d.get("effect", "")))),
                             ("Rules", ", ".join(role("rule", r) if r in gp.rule_doc else esc(r)
                                                 for r in d.get("rules") or []))]
                          + [(esc(str(k)), gp.linker(str(v))) for k, v in d.items()
                             if k not in _KNOWN_DIFF_KEYS and k not in editions])
        citing = [r.id for r in docs.rules if ident in r.differs or r.overlay == ident]
        if citing:
            out += [f"Rules that cite it: {', '.join(role('rule', r) for r in citing)}", ""]
        encoded = changes.get(ident, [])
        if encoded:
            out += [".. rubric:: How the overlays encode it", ""]
            for overlay, c in encoded:
                target = gp.linker(c.target) if c.target else ""
                note = f": {gp.linker(c.note)}" if c.note else ""
                out += [f"- {literal(overlay)}, {esc(c.kind)} {target}{note}"]
            out.append("")
    return out


def open_questions_page(gp: GamePages) -> list[str]:
    docs = gp.docs
    out = heading("Open questions", "=")
    out += [f"Points where the rulebooks of {esc(docs.title)} are unclear, with the reading the spec takes "
            f"(from {literal('specs/' + docs.name + '/open_questions.yaml')}).", ""]
    for q in docs.open_questions:
        ident = str(q["id"])
        out += [f".. ghostrules-anchor:: {ident}", ""]
        out += heading(esc(f"{ident} \u00b7 {first_sentence(str(q.get('question', '')), 80)}"), "-")
        fields = [(esc(str(k).replace("_", " ").capitalize()), gp.linker(str(v))) for k, v in q.items() if k != "id"]
        out += field_list(fields)
        citing = [r.id for r in docs.rules if ident in r.open_questions]
        named = [r.id for r in docs.rules if ident not in r.open_questions and ident in gp.linker.ids(
            " ".join((r.text, r.basis, r.reason)))]
        if citing:
            out += [f"Rules that cite it: {', '.join(role('rule', r) for r in citing)}", ""]
        if named:
            out += [f"Named in the text of: {', '.join(role('rule', r) for r in named)}", ""]
    return out


def components_page(gp: GamePages) -> list[str]:
    """The static facts and the state of a game: domains, tables, slots, pools, dice, events, definitions."""
    spec = gp.docs.spec
    out = heading("Components and state", "=")
    out += [f"What {literal('specs/' + gp.name + '/game.yaml')} declares, in the default configuration "
            f"({literal(settings_label(spec.settings))}). See :doc:`/reference/language` for what each kind of "
            "declaration means.", ""]
    out += heading("Domains", "-")
    for d in spec.domains:
        shown = [f"{s} ({l})" if l and l != s else s for s, l in zip(d.symbols, d.labels or d.symbols)]
        more = f", \u2026 ({len(shown)} in all)" if len(shown) > 14 else ""
        out += [f"- {literal(d.name)}: {esc(', '.join(shown[:14]))}{more}"]
    out += [""]
    if spec.constants:
        out += heading("Constants", "-")
        out += [f"- {literal(k)} = {v}" for k, v in spec.constants] + [""]
    out += heading("State slots", "-")
    for v in spec.vars:
        index = f"[{', '.join(v.index)}]" if v.index else ""
        type_ = f"{v.lo}..{v.hi}" if v.type == "int" else v.type
        out += [f"- {literal(v.name + index)}: {esc(type_)}" + (f" \u2014 {gp.linker(v.text)}" if v.text else "")]
    out += [""]
    if spec.pools:
        out += heading("Pools (conserved components)", "-")
        for p in spec.pools:
            per = f" per {p.per}" if p.per else ""
            out += [f"- {literal(p.name)}: {p.total}{esc(per)} over {esc(', '.join(p.cells))}"
                    + (f" \u2014 {gp.linker(p.text)}" if p.text else "")]
        out += [""]
    if spec.dice:
        out += heading("Dice", "-")
        for d in spec.dice:
            out += [f"- {literal(d.name)}: faces {esc(', '.join(d.faces))}" + (f" \u2014 {gp.linker(d.text)}" if d.text else "")]
        out += [""]
    if spec.events:
        out += heading("Events", "-")
        for e in spec.events:
            params = ", ".join(f"{n}: {t}" for n, t in e.params)
            triggers = gp.links.triggered.get(e.name, [])
            emitted = gp.links.emitted_by.get(e.name, [])
            order = f" (order: {e.order})" if e.order != "declared" else ""
            out += [f"- {literal(f'{e.name}({params})')}{order}" + (f" \u2014 {gp.linker(e.text)}" if e.text else "")]
            if e.requires is not None:
                out += [f"  Requires {literal(e.requires.render())} at every emit (proved; a fact in the rules it triggers)."]
            if emitted:
                out += [f"  Emitted by {', '.join(role('rule', r) for r in emitted)}."]
            if triggers:
                out += [f"  Triggers {', '.join(role('rule', r) for r in triggers)}."]
        out += [""]
    if spec.tables:
        out += heading("Static tables", "-")
        for t in spec.tables:
            out += [f"- {literal(f'{t.name}[{chr(44).join(t.args)}]')}: {esc(t.type)}"
                    + (f" \u2014 {gp.linker(t.text)}" if t.text else "")]
        out += [""]
    if spec.definitions:
        out += heading("Definitions", "-")
        out += ["Derived values, each citing the rule it expresses (rules of kind *define* are on their "
                "family's page).", ""]
        for d in spec.definitions:
            cite = f" ({role('rule', d.rule)})" if d.rule in gp.rule_doc else ""
            out += [f"- {literal(render_definition(d)[0])}{cite}" + (f" \u2014 {gp.linker(d.text)}" if d.text else "")]
        out += [""]
    return out


def dependencies_page(gp: GamePages, uri: UriFn) -> list[str]:
    docname = gp.doc("dependencies")
    g = dependency_graph(gp.links, gp.docs.rules)
    for node in g.nodes:
        target = gp.rule_doc.get(node)
        if target:
            g.nodes[node]["href"] = f"{uri(docname, target)}#{node}"
        try:
            g.nodes[node]["title"] = f"{node}: {first_sentence(gp.docs.rule(node).text, 120)}"
        except KeyError:
            pass
    out = heading("Rule dependencies", "=")
    out += [f"Which rules feed which in {esc(gp.docs.title)}: an arrow goes from a rule to the procedures it "
            "calls and to the triggers of the events it emits (found by walking the formal parts; "
            f"{g.number_of_nodes()} rules, {g.number_of_edges()} arrows). Colours group rule families; click a "
            "rule to open it.", ""]
    if g.number_of_nodes():
        out += raw_html('<div class="ghostrules-graph">' + graph_to_svg(g, title=f"{gp.docs.title}: rule dependencies")
                        + "</div>")
    out += heading("As a list", "-")
    for node in sorted(g.nodes, key=lambda n: (gp.docs.rules.index(gp.docs.rule(n)) if n in gp.rule_doc else 0)):
        succ = sorted(g.successors(node))
        if succ:
            vias = {v: g.edges[node, v].get("via", "") for v in succ}
            out += [f"- {role('rule', node)} \u2192 "
                    + ", ".join(f"{role('rule', v)} ({literal(vias[v])})" for v in succ)]
    return out + [""]
