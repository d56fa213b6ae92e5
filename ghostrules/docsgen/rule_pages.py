"""One page per rule family: every rule with its text, sources, formal part and connections."""

from __future__ import annotations

from typing import Any

import attrs

from ..spec.model import Rule
from ..spec.render import render_definition, render_rule_formal
from .rst import code_block, esc, field_list, heading, literal, role
from .site import GamePages, first_sentence, settings_label


def rule_title(rule: Rule) -> str:
    return f"{rule.id} \u00b7 {first_sentence(rule.text, 64)}" if rule.text else rule.id


def _links(kind: str, ids: list[str]) -> str:
    return ", ".join(role(kind, i) for i in ids)


def _kind(rule: Rule) -> str:
    params = ", ".join(f"{n}: {d}" for n, d in rule.params)
    if rule.kind == "trigger":
        return f"trigger on the event {literal(rule.on)}" if rule.on else "trigger"
    if rule.kind == "procedure":
        return f"procedure {literal(f'{rule.name}({params})')}"
    if rule.kind == "define":
        return f"definition {literal(f'{rule.name}({params})')}"
    return "text (no formal part of its own)"


def _by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(i["id"]): i for i in items}


def _difference_lines(gp: GamePages, ids: list[str]) -> list[str]:
    diffs = _by_id(gp.docs.differences)
    out = []
    for ident in ids:
        d = diffs.get(ident)
        if d is None:
            out.append(f"- {esc(ident)} (not in differences.yaml)")
            continue
        sides = "; ".join(f"**{esc(e)}**: {gp.linker(str(d[e]))}" for e in gp.docs.editions if e in d)
        out.append(f"- {role('ed', ident)} {gp.linker(str(d.get('topic', '')))}" + (f" \u2014 {sides}" if sides else ""))
    return out + [""] if out else []


def _question_lines(gp: GamePages, ids: list[str]) -> list[str]:
    oqs = _by_id(gp.docs.open_questions)
    out = []
    for ident in ids:
        q = oqs.get(ident)
        if q is None:
            out.append(f"- {esc(ident)} (not in open_questions.yaml)")
            continue
        reading = q.get("natural_reading")
        out.append(f"- {role('oq', ident)} {gp.linker(str(q.get('question', '')))}"
                   + (f" \u2014 *natural reading:* {gp.linker(str(reading))}" if reading else ""))
    return out + [""] if out else []


def _source_lines(rule: Rule) -> list[str]:
    out = []
    for src in rule.sources:
        where = f"**{esc(src.edition)}**" + (f", p. {src.page}" if src.page is not None else "")
        encoded = f" (in the rulebook file's broken font: \u201c{esc(src.encoded)}\u201d)" if src.encoded else ""
        out.append(f"- {where}: \u201c{esc(src.words)}\u201d{encoded}")
    return out + [""] if out else []


def rule_section(gp: GamePages, rule: Rule) -> list[str]:
    L = gp.links
    docs = gp.docs
    out = [f".. ghostrules-anchor:: {rule.id}", ""]
    out += heading(esc(rule_title(rule)), "-")
    if rule.text:
        out += [gp.linker(rule.text), ""]
    diff_ids = list(rule.differs) + [str(d["id"]) for d in docs.differences
                                     if rule.id in (d.get("rules") or []) and str(d["id"]) not in rule.differs]
    configurations = "; ".join(f"{k} in {', '.join(map(str, v))}" for k, v in getattr(rule, "configurations", ()))
    out += field_list([
        ("Kind", _kind(rule)),
        ("Editions", esc(", ".join(rule.editions)) if rule.editions else "all"),
        ("Applies to", esc(configurations)),
        ("This version", f"from the overlay for {gp.linker(rule.overlay)}" if rule.overlay else ""),
        ("Spec", literal(str(rule.where))),
    ])
    if rule.sources:
        out += [".. rubric:: Rulebook words", ""] + _source_lines(rule)
    if rule.basis:
        out += [f"*Basis:* {gp.linker(rule.basis)}", ""]
    if diff_ids:
        out += [".. rubric:: Differences between editions", ""] + _difference_lines(gp, diff_ids)
    if rule.open_questions:
        out += [".. rubric:: Open questions", ""] + _question_lines(gp, list(rule.open_questions))
    out += [".. rubric:: Formal part", ""] + code_block(render_rule_formal(rule))
    versions = docs.versions.get(rule.id, [])
    if versions:
        out += [".. rubric:: Other versions", ""]
        for v in versions:
            if v.rule is None:
                out += [f"- with {literal(v.label)}: the rule is removed", ""]
            else:
                origin = f" (overlay for {gp.linker(v.rule.overlay)})" if v.rule.overlay else ""
                adopted = [a for a in v.rule.adopted if a not in rule.adopted]
                if adopted and attrs.evolve(v.rule, adopted=rule.adopted) == rule:
                    # the same rule, which that configuration's edition adopts where its text is silent
                    out += [f"- with {literal(v.label)}{origin}: the same rule applies, adopted by the overlay: "
                            + "; ".join(gp.linker(a) for a in adopted), ""]
                    continue
                out += [f"- with {literal(v.label)}{origin}:", ""]
                if v.rule.text != rule.text:
                    out += [f"  {gp.linker(v.rule.text)}", ""]
                if adopted:
                    out += ["  Adopted by the overlay: " + "; ".join(gp.linker(a) for a in adopted), ""]
                out += code_block(render_rule_formal(v.rule), indent="  ")
    out += _connections(gp, rule)
    defs = L.definitions.get(rule.id, [])
    variant_defs = [(changed, d) for changed, vspec in docs.variants for d in vspec.definitions
                    if d.rule == rule.id and d not in defs]
    if defs or variant_defs:
        out += [".. rubric:: Definitions citing this rule", ""]
        for d in defs:
            out += [f"- {literal(render_definition(d)[0])}" + (f": {gp.linker(d.text)}" if d.text else ""), ""]
        for changed, d in variant_defs:
            out += [f"- with {literal(settings_label(changed))}: {literal(render_definition(d)[0])}"
                    + (f": {gp.linker(d.text)}" if d.text else ""), ""]
    return out


def _connections(gp: GamePages, rule: Rule) -> list[str]:
    L = gp.links
    rid = rule.id
    emits = []
    for event in L.emits.get(rid, []):
        targets = L.triggered.get(event, [])
        emits.append(f"{literal(event)}" + (f" \u2192 {_links('rule', targets)}" if targets else " (no rule)"))
    triggered_by = ""
    if rule.kind == "trigger" and rule.on:
        sources = L.emitted_by.get(rule.on, [])
        triggered_by = f"the event {literal(rule.on)}" + (f", emitted by {_links('rule', sources)}" if sources else "")
    fields = [
        ("Calls", _links("rule", L.calls.get(rid, []))),
        ("Emits", "; ".join(emits)),
        ("Triggered by", triggered_by),
        ("Called by", _links("rule", L.called_by.get(rid, []))),
        ("Reads definitions of", _links("rule", L.uses.get(rid, []))),
        ("Read by", _links("rule", L.used_by.get(rid, []))),
        ("Implemented by", _links("rule", [i for i in rule.implemented_by if i in gp.rule_doc])
         + "".join(f" {esc(i)} (unknown rule)" for i in rule.implemented_by if i not in gp.rule_doc)),
        ("Why no formal part", gp.linker(rule.reason) if rule.reason else ""),
        ("Carries the text rules", _links("rule", L.implements.get(rid, []))),
        ("Credits", _links("rule", [i for i in L.carries.get(rid, []) if i in gp.rule_doc])),
        ("Its effects also appear in", _links("rule", L.carried_by.get(rid, []))),
        ("Named in the text of", _links("rule", L.text_refs.get(rid, []))),
    ]
    body = field_list(fields)
    return ([".. rubric:: Connections", ""] + body) if body else []


def family_page(gp: GamePages, family: Any, rules: list[Rule]) -> list[str]:
    out = heading(esc(family.title), "=")
    out += [f"The {len(rules)} rules of the family {literal(family.name)} of {esc(gp.docs.title)}, "
            f"from {literal('specs/' + family.file)}. Each rule's heading is its ID; the formal part is "
            f"rendered from the spec (see :doc:`/reference/language`).", ""]
    out += [".. list-table::", "   :header-rows: 1", "   :widths: 22 14 64", "   :class: ghostrules-summary", "",
            "   * - Rule", "     - Kind", "     - Text"]
    for r in rules:
        out += [f"   * - {role('rule', r.id)}", f"     - {esc(r.kind)}", f"     - {esc(first_sentence(r.text, 110))}"]
    out.append("")
    for r in rules:
        out += rule_section(gp, r)
    return out
