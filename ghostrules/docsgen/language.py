"""The spec language reference, generated from the engine's own vocabulary.

Statements come from :data:`ghostrules.spec.statements.KEYWORDS` and ``_ALLOWED`` (their keys) with
the syntax line of the module's docstring; the condition language from :mod:`ghostrules.spec.expr`
(its infix operators, ``QUANTIFIERS`` and ``BUILTINS``); rule kinds and declarations from the loader
and the model's docstrings. Each entry shows one real example found in the games' specs.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any, Iterator

import attrs

from ..spec import expr as E
from ..spec import loader, model, statements
from ..spec.render import iter_statements, render_rule_formal, render_statement
from .catalog import GameDocs
from .links import rule_exprs
from .rst import code_block, esc, heading, literal, role

# Words for the few keywords whose docstring line has no description of its own.
_FALLBACK = {
    "if": "a condition, the effects when it holds (``then``) and, optionally, those when it does not (``else``)",
}
_STMT_CLASS = {"choose": model.MenuStmt, "draw": model.RandomStmt, "random": model.RandomStmt}


def _docstring_vocabulary() -> dict[str, tuple[str, str]]:
    """keyword -> (syntax, description) from the docstring of ghostrules.spec.statements."""
    doc = inspect.getdoc(statements) or ""
    entries: dict[str, list[str]] = {}
    current = None
    for line in doc.splitlines():
        m = re.match(r"^``([a-z]+):", line)
        if m and m.group(1) in statements.KEYWORDS:
            current = m.group(1)
            entries[current] = [line]
        elif current and line.startswith((" ", "\t")) and line.strip():
            entries[current].append(line.strip())
        else:
            current = None
    out = {}
    for kw, lines in entries.items():
        first = lines[0]
        m = re.match(r"^(.*``)\s{2,}(.*)$", first)
        syntax, desc = (m.group(1), m.group(2)) if m else (first, "")
        desc = " ".join([desc] + lines[1:]).strip()
        out[kw] = (syntax.strip(), desc)
    return out


def doc_text(text: str) -> str:
    """A docstring as reST (the code base writes them in reST), on one line."""
    return " ".join(text.split())


def _class_for(kw: str) -> type | None:
    if kw in _STMT_CLASS:
        return _STMT_CLASS[kw]
    return getattr(model, kw.capitalize() + "Stmt", None)


def yaml_snippet(root: Path, where: Any, limit: int = 14) -> list[str]:
    """The YAML item that starts at ``where`` (a list item or mapping), dedented; [] if unreadable."""
    try:
        lines = (root / where.file).read_text(encoding="utf-8").splitlines()
    except (OSError, AttributeError):
        return []
    i = where.line - 1
    if not 0 <= i < len(lines):
        return []
    first = lines[i]
    col = len(first) - len(first.lstrip())
    out = [first[col:]]
    for line in lines[i + 1:]:
        if line.strip() and (len(line) - len(line.lstrip())) <= col:
            break
        if line.strip().startswith("#"):
            continue
        out.append(line[col:] if line.strip() else "")
    while out and not out[-1].strip():
        out.pop()
    if len(out) > limit:
        out = out[:limit] + ["# ..."]
    return out


def _statements(games: list[GameDocs]) -> Iterator[tuple[GameDocs, model.Rule, Any]]:
    for g in games:
        for r in g.rules:
            for s in iter_statements(r.body):
                yield g, r, s


def _best(found: list[tuple[int, Any]]) -> Any:
    return min(found, key=lambda t: t[0])[1] if found else None


def _where_link(g: GameDocs, rule: model.Rule) -> str:
    return f"{role('rule', f'{g.name}:{rule.id}', rule.id)} ({literal(str(rule.where.file))})"


def statements_section(games: list[GameDocs], root: Path) -> list[str]:
    vocab = _docstring_vocabulary()
    out = heading("Effects (statements)", "-")
    out += ["The ``do:`` part of a trigger or procedure is a list of effects. Each effect is a mapping with "
            "exactly one keyword below, the keys that keyword allows, and optionally ``rule: ID`` to credit "
            "another rule with it (the log and the rule pages then cite that rule). "
            f"The keywords are {', '.join(literal(k) for k in statements.KEYWORDS)}.", ""]
    for kw in statements.KEYWORDS:
        syntax, desc = vocab.get(kw, ("", ""))
        desc = desc or _FALLBACK.get(kw, "")
        out += heading(f"``{kw}``", "~")
        if desc:
            out += [doc_text(desc[0].upper() + desc[1:]) + ("" if desc.endswith(".") else "."), ""]
        if syntax:
            out += code_block([re.sub(r"``", "", syntax)], language="text")
        keys = sorted(statements._ALLOWED.get(kw, set()) | {"rule"})
        out += [f"Keys besides ``{kw}``: {', '.join(literal(k) for k in keys)}.", ""]
        cls = _class_for(kw)
        if cls is not None:
            fields = [f.name for f in attrs.fields(cls) if f.name not in ("rule", "where")]
            doc = (cls.__doc__ or "").strip()
            out += [f"Parsed into {literal(cls.__name__)} ({', '.join(literal(f) for f in fields)})"
                    + (f": {doc_text(doc)}" if doc and not doc.startswith(cls.__name__) else ".")]
            out += [""]
            found = []
            for g, r, s in _statements(games):
                if isinstance(s, cls) and (cls is not model.RandomStmt or s.kind == kw):
                    size = len(render_statement(s))
                    found.append((size if size > 1 or kw in ("set", "let", "say", "call", "emit", "move", "end",
                                                             "draw", "random", "roll") else 99, (g, r, s)))
                    if len(found) > 400:
                        break
            best = _best(found)
            if best is not None:
                g, r, s = best
                snippet = yaml_snippet(root, s.where)
                out += [f"Example from {_where_link(g, r)}:", ""]
                if snippet:
                    out += code_block(snippet, language="yaml")
                out += ["rendered as", ""] + code_block(render_statement(s, rule=r.id)[:16])
            else:
                out += ["No spec uses it yet.", ""]
    return out


def _expr_examples(games: list[GameDocs]) -> dict[str, tuple[int, str, GameDocs, model.Rule]]:
    """For each construct, its shortest occurrence: (length, rendering, game, rule)."""
    best: dict[str, tuple[int, str, GameDocs, model.Rule]] = {}

    def note(key: str, e: Any, g: GameDocs, r: model.Rule) -> None:
        text = e.render()
        if 3 <= len(text) and (key not in best or len(text) < best[key][0]):
            best[key] = (len(text), text, g, r)

    for g in games:
        for r in g.rules:
            for e in rule_exprs(r):
                if isinstance(e, E.Binary):
                    note(f"op:{e.op}", e, g, r)
                elif isinstance(e, E.Unary):
                    if e.op == "not" and isinstance(e.operand, E.Binary) and e.operand.op == "in":
                        note("op:not in", e, g, r)
                    else:
                        note(f"unary:{e.op}", e, g, r)
                elif isinstance(e, E.Quant):
                    note(f"quant:{e.kind}", e, g, r)
                elif isinstance(e, E.Call):
                    note(f"call:{e.func}" if e.func in E.BUILTINS else "call:definition", e, g, r)
                elif isinstance(e, E.Cond):
                    note("cond", e, g, r)
                elif isinstance(e, E.Index):
                    note("index", e, g, r)
                elif isinstance(e, E.Qualified):
                    note("qualified", e, g, r)
                elif isinstance(e, E.ListLit):
                    note("list", e, g, r)
                elif isinstance(e, E.NoneLit):
                    pass
    return best


def conditions_section(games: list[GameDocs]) -> list[str]:
    ex = _expr_examples(games)
    out = heading("Conditions (the expression language)", "-")
    doc = inspect.getdoc(E) or ""
    intro = doc.split("\n\n")[1] if "\n\n" in doc else doc
    # the module docstring is reST already; its "::" introduces the quantifiers, listed below
    out += [" ".join(intro.split()).replace("::", ":"), "",
            "Every value is an int, a bool or a symbol of a domain (``none`` when there is none). Names are "
            "locals and parameters, state slots, static tables, constants, game parameters, domain symbols "
            "and definitions. There are no loops, no recursion and no calls into Python.", ""]

    def example(key: str) -> str:
        if key not in ex:
            return "\u2014"
        _, text, g, r = ex[key]
        return f"{literal(text)} ({role('rule', f'{g.name}:{r.id}', r.id)})"

    infix = dict(getattr(E, "_INFIX", {}))
    out += heading("Operators", "~")
    out += ["From the loosest to the tightest binding; ``a if c else b`` binds looser than all of them.", ""]
    out += [".. list-table::", "   :header-rows: 1", "   :widths: 18 12 70", "", "   * - Operator",
            "     - Binding", "     - Example from the specs"]
    for op, power in sorted(infix.items(), key=lambda kv: (kv[1], kv[0])):
        out += [f"   * - {literal(op)}", f"     - {power}", f"     - {example('op:' + op)}"]
    out += ["   * - ``not``", "     - 30", f"     - {example('unary:not')}",
            "   * - ``-`` (negation)", "     - 70", f"     - {example('unary:-')}",
            "   * - ``x not in [a, b]``", "     - 40", f"     - {example('op:not in')}",
            "   * - ``a if c else b``", "     - 5", f"     - {example('cond')}",
            "   * - ``v[a, b]`` (indexing)", "     - \u2014", f"     - {example('index')}",
            "   * - ``domain.symbol``", "     - \u2014", f"     - {example('qualified')}",
            "   * - ``[a, b]`` (a list)", "     - \u2014", f"     - {example('list')}",
            "   * - ``name(args)`` (a definition)", "     - \u2014", f"     - {example('call:definition')}", ""]
    out += heading("Quantifiers", "~")
    described = {}
    for line in doc.splitlines():
        m = re.match(r"^\s+([a-z]+)\((.*?)\)\s{2,}(.*)$", line)
        if m:
            described[m.group(1)] = (f"{m.group(1)}({m.group(2)})", m.group(3))
    out += ["Bounded quantifiers over a finite domain (or a list), in the domain's declared order:", ""]
    out += [".. list-table::", "   :header-rows: 1", "   :widths: 30 30 40", "", "   * - Form", "     - Meaning",
            "     - Example from the specs"]
    for q in E.QUANTIFIERS:
        form, meaning = described.get(q, (f"{q}(x in D if cond)", ""))
        out += [f"   * - {literal(form)}", f"     - {esc(meaning) or chr(8212)}", f"     - {example('quant:' + q)}"]
    out += [""]
    out += heading("Built-in functions", "~")
    out += [f"- {literal(b + '(a, b)' if b != 'abs' else 'abs(a)')}: {example('call:' + b)}" for b in E.BUILTINS]
    out += [""]
    return out


def kinds_section(games: list[GameDocs], root: Path) -> list[str]:
    out = heading("Rules", "-")
    out += [doc_text(model.Rule.__doc__ or ""), "",
            f"A rule file (``rules/<family>.yaml``) has ``family:``, ``title:`` and ``rules:``; a rule's keys are "
            f"{', '.join(literal(k) for k in sorted(loader.RULE_KEYS))}. The kind is given by one of "
            f"{', '.join(literal(k + ':') for k in loader.RULE_KINDS)} (a rule with none of them is a text rule).", ""]
    kinds = {"trigger": "``on``", "procedure": "``procedure``", "define": "``define``", "text": "no kind key"}
    for kind, key in kinds.items():
        out += heading(f"{kind.capitalize()} rules ({key})", "~")
        example = None
        for g in games:
            candidates = [r for r in g.rules if r.kind == kind and r.sources]
            if candidates:
                example = (g, min(candidates, key=lambda r: len(render_rule_formal(r)) + len(r.text) // 60))
                break
        if example is None:
            out += ["No spec uses it yet.", ""]
            continue
        g, r = example
        out += [f"Example: {_where_link(g, r)}", ""]
        out += code_block(yaml_snippet(root, r.where, limit=24), language="yaml")
        out += ["Its formal part, rendered:", ""] + code_block(render_rule_formal(r))
    return out


def declarations_section(games: list[GameDocs], root: Path) -> list[str]:
    out = heading("Declarations in game.yaml", "-")
    out += ["``game.yaml`` declares the static facts and the state. Each kind below is a value object of "
            ":mod:`ghostrules.spec.model`; the fields are those of the class.", ""]
    kinds = [("Parameters", model.Parameter, "parameters"), ("Domains", model.Domain, "domains"), ("Static tables", model.Table, "tables"),
             ("State slots", model.Var, "vars"), ("Pools", model.Pool, "pools"), ("Dice", model.Die, "dice"),
             ("Events", model.EventDecl, "events"), ("Definitions", model.Definition, "definitions")]
    for title, cls, attr in kinds:
        out += heading(title, "~")
        doc = doc_text(cls.__doc__ or "")
        if doc:
            out += [doc, ""]
        fields = [f.name for f in attrs.fields(cls) if f.name != "where"]
        out += [f"Fields: {', '.join(literal(f) for f in fields)}.", ""]
        for g in games:
            items = list(getattr(g.spec, attr, ()))
            if not items:
                continue
            item = min(items[:40], key=lambda i: len(repr(i)))
            where = getattr(item, "where", None)
            snippet = yaml_snippet(root, where, limit=10) if where is not None else []
            out += [f"Example from {literal(g.name)}: {literal(_describe(item))}", ""]
            if snippet:
                out += code_block(snippet, language="yaml")
            break
    return out


def _describe(item: Any) -> str:
    if isinstance(item, model.Parameter):
        only = "".join(f", only with {k} in {list(v)}" for k, v in item.only)
        return f"{item.name}: {', '.join(map(str, item.values))} (default {item.default}{only})"
    if isinstance(item, model.Domain):
        return f"{item.name}: {', '.join(item.symbols[:8])}" + (" ..." if len(item.symbols) > 8 else "")
    if isinstance(item, model.Table):
        return f"{item.name}[{', '.join(item.args)}] -> {item.type}"
    if isinstance(item, model.Var):
        idx = f"[{', '.join(item.index)}]" if item.index else ""
        return f"{item.name}{idx}: " + (f"{item.lo}..{item.hi}" if item.type == "int" else item.type)
    if isinstance(item, model.Pool):
        return f"{item.name}: total {item.total}" + (f" per {item.per}" if item.per else "") + f" over {', '.join(item.cells)}"
    if isinstance(item, model.Die):
        return f"{item.name}: {', '.join(item.faces)}"
    if isinstance(item, model.EventDecl):
        return f"{item.name}({', '.join(f'{n}: {t}' for n, t in item.params)}), order {item.order}"
    if isinstance(item, model.Definition):
        return f"{item.name}({', '.join(f'{n}: {t}' for n, t in item.params)}) = {item.value.render()}"
    return repr(item)


def language_page(games: list[GameDocs], root: Path) -> list[str]:
    out = heading("The spec language", "=")
    out += ["A game is data: ``specs/<game>/game.yaml`` declares its state and static facts, ``rules/*.yaml`` "
            "its rules (one file per family), ``editions/*.yaml`` overlays that replace, add or remove rules, each "
            "citing its difference. This page is generated from the vocabulary the engine itself accepts "
            "(:mod:`ghostrules.spec.statements`, :mod:`ghostrules.spec.expr`, :mod:`ghostrules.spec.loader`); every "
            "example is a real piece of a spec.", ""]
    out += kinds_section(games, root)
    out += statements_section(games, root)
    out += conditions_section(games)
    out += declarations_section(games, root)
    return out
