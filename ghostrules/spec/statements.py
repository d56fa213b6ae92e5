"""Parsing of effect lists (the ``do:`` part of rules) from spec YAML into statement objects.

Vocabulary (each statement is a mapping with one keyword, plus optional ``rule: ID``):

``set: {slot: value, ...}``            set flags, positions or card locations
``move: {n: N|all, from: cell, to: cell, upto: bool}``   transfer units of a conserved pool
``if: cond`` / ``then: [...]`` / ``else: [...]``
``for: "x in D if cond"`` / ``do: [...]``   in the domain's declared order
``let: {name: expr}``                       a local of the frame (with tracing on, a ``let`` credited to
    another rule by ``rule:`` that changes a bound local is a log entry of kind ``let``, so that rule is cited)
``call: procedure`` / ``with: {param: expr}``
``emit: event`` / ``with: {param: expr}``   fires every rule ``on`` that event, in declared order
``choose: prompt`` / ``by: player`` / ``options: [{label, for?, if?, do}]``   a decision point
    (with ``auto: true`` a single applicable option is taken without asking: no choice, no node)
``draw: "c in D if cond"`` / ``random: "x in D if cond"``   a uniform chance node
``roll: die`` / ``as: name``                a chance node over the die's faces
``end: result`` / ``text: template``         the game ends (result such as win or loss)
``say: template``                          a line in the log (``{expr}`` holes)
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .expr import Expr, ExprError, ListLit, Name, parse
from .model import (AnyStmt, CallStmt, EmitStmt, EndStmt, ForStmt, IfStmt, LetStmt, MenuOption, MenuStmt,
                    MoveStmt, RandomStmt, RollStmt, SayStmt, SetStmt, Template, Where)
from .source import LDict, LList, Located, SpecError

KEYWORDS = ("set", "move", "if", "for", "let", "call", "emit", "choose", "draw", "random", "roll", "end", "say")
_ALLOWED = {
    "set": set(), "move": set(), "if": {"then", "else"}, "for": {"do"}, "let": set(),
    "call": {"with"}, "emit": {"with"}, "choose": {"by", "options", "auto"}, "draw": set(), "random": set(),
    "roll": {"as"}, "end": {"text"}, "say": set(),
}


def where_of(obj: Any, fallback: Located | None = None) -> Where:
    src = obj if isinstance(obj, Located) else fallback
    if src is None:
        return Where("<spec>", 0)
    return Where(src.file, src.line)


def expr_at(text: Any, at: Any, owner: Located | None = None) -> Expr:
    """Parse an expression found in a spec file, turning syntax errors into SpecErrors."""
    try:
        return parse(text)
    except ExprError as exc:
        # the expression's own line where it has one (a string in the YAML), else its container's
        w = where_of(text) if isinstance(text, Located) else where_of(at, owner)
        raise SpecError(f"bad expression: {exc}", w.file, w.line) from None


def template_at(text: Any, owner: Located | None = None) -> Template:
    if not isinstance(text, str):
        w = where_of(text, owner)
        raise SpecError(f"expected a text, found {text!r}", w.file, w.line)
    parts: list[Any] = []
    pos = 0
    for m in re.finditer(r"\{([^{}]+)\}", text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        parts.append(expr_at(m.group(1), text, owner))
        pos = m.end()
    if pos < len(text):
        parts.append(text[pos:])
    return Template(tuple(parts), str(text))


_BINDER = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+?)(?:\s+if\s+(.+))?\s*$", re.S)


def binder(text: Any, owner: Located) -> tuple[str, Expr, Expr | None]:
    """Parse ``x in D [if cond]`` (D a domain name or a list)."""
    m = _BINDER.match(str(text)) if isinstance(text, str) else None
    if not m:
        w = where_of(text, owner)
        raise SpecError(f"expected 'name in domain [if condition]', found {text!r}", w.file, w.line)
    domain = expr_at(m.group(2), text, owner)
    if not isinstance(domain, (Name, ListLit)):
        w = where_of(text, owner)
        raise SpecError("a binder ranges over a domain name or a list [a, b]", w.file, w.line)
    cond = expr_at(m.group(3), text, owner) if m.group(3) else None
    return m.group(1), domain, cond


def _mapping_args(value: Any, owner: Located, what: str) -> tuple[tuple[str, Expr], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        w = where_of(value, owner)
        raise SpecError(f"{what}: expected a mapping of name: expression", w.file, w.line)
    return tuple((str(k), expr_at(v, value, owner)) for k, v in value.items())


def parse_block(items: Any, rule: str, owner: Located) -> tuple[AnyStmt, ...]:
    """Parse a list of statements; every statement is attributed to ``rule`` unless it says ``rule:``."""
    if items is None:
        return ()
    if not isinstance(items, list):
        w = where_of(items, owner)
        raise SpecError("expected a list of effects", w.file, w.line)
    return tuple(parse_stmt(item, rule, owner) for item in items)


def parse_stmt(item: Any, rule: str, owner: Located) -> AnyStmt:
    if not isinstance(item, LDict):
        w = where_of(item, owner)
        raise SpecError(f"expected an effect (a mapping with one of {', '.join(KEYWORDS)})", w.file, w.line)
    keys = [k for k in item if k in KEYWORDS]
    if len(keys) != 1:
        raise item.error(f"an effect needs exactly one of {', '.join(KEYWORDS)}; found {sorted(map(str, item))}")
    kw = keys[0]
    extra = set(item) - {kw, "rule"} - _ALLOWED[kw]
    if extra:
        raise item.error_at(sorted(extra)[0], f"'{kw}' does not take {sorted(extra)}; allowed: {sorted(_ALLOWED[kw] | {'rule'})}")
    w = where_of(item)
    arg = item[kw]
    if kw == "if":
        # 'rule:' on an if names the rule of its test and then-branch; the else-branch keeps the outer rule
        own = str(item.get("rule", rule))
        return IfStmt(own, w, expr_at(arg, item, item), parse_block(item.get("then"), own, item),
                      parse_block(item.get("else"), rule, item))
    rule = str(item.get("rule", rule))
    return _PARSERS[kw](item, arg, rule, w)


def _p_set(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    if not isinstance(arg, dict) or len(arg) != 1:
        raise item.error("set: expected one 'slot: value' pair (use several set effects for several slots)")
    (target, value), = arg.items()
    return SetStmt(rule, w, expr_at(target, item, item), expr_at(value, item, item))


def _p_move(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    if not isinstance(arg, LDict) or "from" not in arg or "to" not in arg:
        raise item.error("move: expected {n: amount or all, from: cell, to: cell, upto: true|false}")
    bad = set(arg) - {"n", "from", "to", "upto"}
    if bad:
        raise arg.error(f"move: unknown keys {sorted(bad)}")
    n = arg.get("n", 1)
    amount = None if n == "all" else expr_at(n, arg, arg)
    return MoveStmt(rule, w, amount, expr_at(arg["from"], arg, arg), expr_at(arg["to"], arg, arg),
                    bool(arg.get("upto", False)))


def _p_if(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    return IfStmt(rule, w, expr_at(arg, item, item), parse_block(item.get("then"), rule, item),
                  parse_block(item.get("else"), rule, item))


def _p_for(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    var, domain, cond = binder(arg, item)
    return ForStmt(rule, w, var, domain, cond, parse_block(item.get("do"), rule, item))


def _p_let(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    if not isinstance(arg, dict) or len(arg) != 1:
        raise item.error("let: expected one 'name: expression' pair")
    (name, value), = arg.items()
    return LetStmt(rule, w, str(name), expr_at(value, item, item))


def _p_call(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    return CallStmt(rule, w, str(arg), _mapping_args(item.get("with"), item, "with"))


def _p_emit(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    return EmitStmt(rule, w, str(arg), _mapping_args(item.get("with"), item, "with"))


def _p_choose(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    options = item.get("options")
    if not isinstance(options, LList) or not options:
        raise item.error("choose: expected 'options:' with at least one option")
    parsed = []
    for opt in options:
        if not isinstance(opt, LDict) or "label" not in opt:
            raise (opt.error if isinstance(opt, Located) else item.error)(
                "an option needs 'label:' and may have 'for:', 'if:' and 'do:'")
        bad = set(opt) - {"label", "for", "if", "do", "rule"}
        if bad:
            raise opt.error_at(sorted(bad)[0], f"option: unknown keys {sorted(bad)}")
        orule = str(opt.get("rule", rule))
        var = domain = None
        cond = expr_at(opt["if"], opt, opt) if "if" in opt else None
        if "for" in opt:
            var, domain, fcond = binder(opt["for"], opt)
            if fcond is not None:
                cond = fcond if cond is None else _and(fcond, cond)
        parsed.append(MenuOption(template_at(opt["label"], opt), var, domain, cond,
                                 parse_block(opt.get("do"), orule, opt), orule, where_of(opt)))
    by = expr_at(item.get("by", "none"), item, item)
    return MenuStmt(rule, w, by, str(arg), tuple(parsed), bool(item.get("auto", False)))


def _and(a: Expr, b: Expr) -> Expr:
    from .expr import Binary
    return Binary("and", a, b)


def _p_random(kind: str) -> Callable[[LDict, Any, str, Where], AnyStmt]:
    def p(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
        var, domain, cond = binder(arg, item)
        return RandomStmt(rule, w, kind, var, domain, cond)
    return p


def _p_roll(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    if "as" not in item:
        raise item.error("roll: expected 'as: name' for the face rolled")
    return RollStmt(rule, w, str(arg), str(item["as"]))


def _p_end(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    text = template_at(item["text"], item) if "text" in item else None
    return EndStmt(rule, w, str(arg), text)


def _p_say(item: LDict, arg: Any, rule: str, w: Where) -> AnyStmt:
    return SayStmt(rule, w, template_at(arg, item))


_PARSERS: dict[str, Callable[[LDict, Any, str, Where], AnyStmt]] = {
    "set": _p_set, "move": _p_move, "if": _p_if, "for": _p_for, "let": _p_let, "call": _p_call,
    "emit": _p_emit, "choose": _p_choose, "draw": _p_random("draw"), "random": _p_random("random"),
    "roll": _p_roll, "end": _p_end, "say": _p_say,
}
