"""Catalogue pages (one entry per symbol of a domain: the tiles, powers or special cards of a game) and the
sortable card table built from a game's card tables (the ``cards:`` section of game.yaml).

Which catalogues a game has is data: ``docs/games/<game>.yaml`` (``catalogues:``). A symbol's
rules are those of the named family whose ID ends with the symbol (``XX-TILES-TEMPLE`` for
``temple``; ``-2``, ``-3`` ... suffixes are versions of the same entry) or with the start of its label.
"""

from __future__ import annotations

import re
from typing import Any

from ..spec.model import Domain, Rule
from .catalog import DocsError
from .rst import esc, field_list, heading, literal, role
from .site import GamePages, first_sentence


def _squash(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def _entry_key(rule_id: str) -> str:
    parts = rule_id.split("-")
    while len(parts) > 1 and parts[-1].isdigit():
        parts.pop()
    return parts[-1].upper()


def rules_for_symbol(rules: list[Rule], symbol: str, label: str) -> list[Rule]:
    sym, lab = _squash(symbol), _squash(label)
    out = []
    for r in rules:
        key = _entry_key(r.id)
        if key == sym or (len(key) >= 4 and (lab.startswith(key) or sym.startswith(key))):
            out.append(r)
    return out


class CardTable:
    """Reads a component table (one row per symbol of the cards' domain) from the spec's tables."""

    def __init__(self, gp: GamePages, cards: dict[str, Any]) -> None:
        spec = gp.docs.spec
        self.section = cards
        self.domain: Domain = spec.domain(str(cards["domain"]))
        self.tables = {t.name: t for t in spec.tables}
        self.domains = {d.name: d for d in spec.domains}
        self.columns: list[tuple[str, Any, dict[str, Any]]] = []
        for col, body in (cards.get("columns") or {}).items():
            body = body or {}
            table = self.tables.get(str(body.get("table", col)))
            if table is not None:
                self.columns.append((str(col), table, body))
        self.totals = {str(c) for c in gp.docs.docs.get("card_totals") or []}
        self.confidence = _confidence(gp.docs.folder / str(cards.get("file", "")), len(self.domain.symbols))

    def _value(self, table: Any, row: int, body: dict[str, Any]) -> tuple[str, list[str], float | None]:
        """(text, member symbols for set columns, numeric sort key)."""
        n_cards = len(self.domain.symbols)
        if len(table.args) == 1:
            v = table.values[row]
            if table.type == "int":
                return str(v), [], float(v)
            if v < 0:
                return "", [], None
            dom = self.domains[table.type]
            return (dom.labels[v] if dom.labels else dom.symbols[v]), [], None
        dom = self.domains[table.args[1]]
        width = len(dom.symbols)
        values = table.values[row * width:(row + 1) * width]
        assert len(table.values) == n_cards * width
        if table.type == "bool":
            members = [s for s, v in zip(dom.symbols, values) if v]
            return ", ".join(members), members, None
        parts = [(s, v) for s, v in zip(dom.symbols, values) if v]
        total = sum(v for _, v in parts)
        listed = ", ".join(f"{s} {v}" for s, v in parts)
        if "bare_key" in body or table.name in self.totals:  # counts of one kind each: they add up
            return (str(total) if len(parts) <= 1 else f"{total} ({listed})"), [], float(total)
        return listed, [], None

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for i, symbol in enumerate(self.domain.symbols):
            label = self.domain.labels[i] if self.domain.labels else symbol
            row: dict[str, Any] = {"symbol": symbol, "name": label, "cells": [], "confidence": self.confidence.get(i)}
            for col, table, body in self.columns:
                text, members, key = self._value(table, i, body)
                if not text and table.type not in ("int", "bool") and body.get("none"):
                    text = str(body["none"][0])
                row["cells"].append((col, text, members, table))
            out.append(row)
        return out

    def set_domains(self) -> list[str]:
        return sorted({t.args[1] for _, t, _ in self.columns if len(t.args) == 2 and t.type == "bool"})


def _confidence(path: Any, n_rows: int) -> dict[int, str]:
    """Row index -> "medium confidence: note" for the rows of a component CSV (one symbol per row) whose
    ``confidence`` column is not ``high``; the note is the row's ``notes`` (or ``reading``) column."""
    import csv
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except OSError:
        return {}
    if len(rows) != n_rows:
        raise DocsError(f"{path}: {len(rows)} rows, but its domain has {n_rows} symbols")
    out = {}
    for i, row in enumerate(rows):
        level = (row.get("confidence") or "").strip()
        if level and level != "high":
            note = (row.get("notes") or row.get("reading") or "").strip()
            out[i] = f"{level} confidence" + (f": {note}" if note else "")
    return out


def _header(col: str) -> str:
    return col.replace("_", " ").capitalize()


def card_sections(gp: GamePages) -> list[dict[str, Any]]:
    """The ``cards:`` sections of game.yaml (one or a list), each a CSV read into a domain and tables."""
    raw = gp.docs.raw.get("cards")
    sections = raw if isinstance(raw, list) else [raw] if isinstance(raw, dict) else []
    return [s for s in sections if isinstance(s, dict) and "domain" in s]


def cards_page(gp: GamePages, title: str, section: dict[str, Any]) -> list[str]:
    ct = CardTable(gp, section)
    rows = ct.rows()
    headers = {str(k): str(v) for k, v in (gp.docs.docs.get("card_headers") or {}).items()}
    out = heading(esc(title), "=")
    kind = ct.domain.name.replace("_", " ")
    plural = kind[:-1] + "ies" if kind.endswith("y") and not kind.endswith(("ay", "ey", "oy")) else kind + "s"
    out += [f"All {len(rows)} {esc(plural)} of {esc(gp.docs.title)} with the facts the engine uses, read from the spec's "
            f"tables (declared in {literal('specs/' + gp.name + '/game.yaml')}, data in "
            f"{literal(str(section.get('file', '')))}). Click a column heading to sort; click it "
            "again to reverse."
            + (" A row whose facts are less certain says so after its name, with why." if any(r["confidence"] for r in rows)
               else ""), ""]
    out += [".. list-table::", "   :header-rows: 1", "   :class: sortable ghostrules-cards", "   :widths: auto", "",
            "   * - Name"]
    out += [f"     - {esc(headers.get(col, _header(col)))}" for col, _, _ in ct.columns]
    for row in rows:
        low = f" (*{esc(row['confidence'])}*)" if row["confidence"] else ""
        out.append(f"   * - {esc(row['name'])}{low}")
        for col, text, members, table in row["cells"]:
            if members:
                text = ", ".join(f"`{esc(m.replace('_', ' '))} <#{table.args[1]}-{m}>`__" for m in members)
            else:
                text = esc(text)
            out.append(f"     - {text}" if text else "     -")
    out.append("")
    for dom_name in ct.set_domains():
        dom = ct.domains[dom_name]
        plural = dom_name[:-1] + "ies" if dom_name.endswith("y") else dom_name + "s"
        out += heading(esc(plural.replace("_", " ").capitalize()), "-")
        out += [f"Every symbol of the domain {literal(dom_name)}: the rules whose formal part names it, and the "
                "cards that have it.", ""]
        for i, symbol in enumerate(dom.symbols):
            label = dom.labels[i] if dom.labels else symbol
            out += [f".. ghostrules-anchor:: {dom_name}-{symbol}", ""]
            out += heading(esc(label), "~")
            rules = sorted(gp.links.mentions.get(symbol, set()), key=lambda r: list(gp.rule_doc).index(r))
            holders = []
            for col, table, _ in ct.columns:
                if len(table.args) == 2 and table.args[1] == dom_name and table.type == "bool":
                    names = [row["name"] for row in rows for c, _, m, t in row["cells"] if t is table and symbol in m]
                    if names:
                        holders.append((headers.get(col, _header(col)), ", ".join(sorted(set(names)))))
            out += field_list([("Rules", ", ".join(role("rule", r) for r in rules) or "none names it")]
                              + [(esc(h), esc(names)) for h, names in holders])
    return out


def catalogue_page(gp: GamePages, entry: dict[str, Any], evaluate: Any) -> list[str]:
    """One entry per symbol of a domain, with the rules of a family that are about it."""
    spec = gp.docs.spec
    try:
        dom = spec.domain(str(entry["domain"]))
    except KeyError:
        raise DocsError(f"{gp.name}: catalogue {entry.get('page')}: unknown domain {entry.get('domain')!r}") from None
    family = str(entry.get("family", ""))
    family_rules = [r for r in gp.docs.rules if r.family == family]
    if family and not family_rules:
        raise DocsError(f"{gp.name}: catalogue {entry.get('page')}: no rules in family {family!r}")
    title = str(entry.get("title", dom.name))
    out = heading(esc(title), "=")
    if entry.get("text"):
        out += [gp.linker(str(entry["text"])), ""]
    card_rows = {}
    for section in card_sections(gp):
        if section.get("domain") == dom.name:
            card_rows = {row["symbol"]: row for row in CardTable(gp, section).rows()}
    shown = 0
    for i, symbol in enumerate(dom.symbols):
        if entry.get("only") and not evaluate(str(entry["only"]), {"x": (dom.name, i)}):
            continue
        label = dom.labels[i] if dom.labels else symbol
        rules = rules_for_symbol(family_rules, symbol, label)
        if entry.get("only") is None and not rules and entry.get("skip_unmatched", True):
            continue
        shown += 1
        out += [f".. ghostrules-anchor:: {dom.name}-{symbol}", ""]
        out += heading(esc(label), "-")
        fields: list[tuple[str, str]] = [("Symbol", literal(f"{dom.name}.{symbol}"))]
        if entry.get("group"):
            table = {t.name: t for t in spec.tables}.get(str(entry["group"]))
            if table is not None and len(table.args) == 1 and table.args[0] == dom.name:
                gdom = spec.domain(table.type) if table.type not in ("int", "bool") else None
                v = table.values[i]
                shown_v = (gdom.labels[v] if gdom and gdom.labels else gdom.symbols[v]) if gdom and v >= 0 else str(v)
                fields.append((esc(str(entry.get("group_title", table.name))), esc(shown_v)))
        if symbol in card_rows:
            for col, text, members, _ in card_rows[symbol]["cells"]:
                fields.append((esc(_header(col)), esc(text) if text else "\u2014"))
            if card_rows[symbol]["confidence"]:
                fields.append(("Data", f"*{esc(card_rows[symbol]['confidence'])}*"))
        mentions = sorted(gp.links.mentions.get(symbol, set()) - {r.id for r in rules},
                          key=lambda r: list(gp.rule_doc).index(r))
        fields.append(("Also named in the formal part of", ", ".join(role("rule", r) for r in mentions)))
        out += field_list(fields)
        for r in rules:
            out += [f"{role('rule', r.id)} ({esc(r.kind)}): {gp.linker(r.text)}", ""]
    if not shown:
        raise DocsError(f"{gp.name}: catalogue {entry.get('page')} has no entries")
    return out


def summary_of(rule: Rule) -> str:
    return first_sentence(rule.text, 90)
