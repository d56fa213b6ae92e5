"""Readable renderings of a spec's formal parts: statements, rules and definitions.

Game-agnostic: it turns the statement objects of :mod:`ghostrules.spec.model` into indented
pseudo-code lines (expressions via their own ``render()``, templates via their source text), for
the command line and the documentation generator alike::

    if qi[m] > 0:
      move 1 from qi[m] to qi_supply
    choose "move?" (by m):
      - "{m} moves to {tile_at[t]}" for t in pos if adjacent[monk_at[m], t]:
          set monk_at[m] = t

A statement attributed to another rule than the one around it says so: ``  [RULE-ID]``.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from .expr import NoneLit
from .model import (AnyStmt, CallStmt, Definition, EmitStmt, EndStmt, ForStmt, IfStmt, LetStmt, MenuOption,
                    MenuStmt, MoveStmt, RandomStmt, RollStmt, Rule, SayStmt, SetStmt, Template)

INDENT = "  "

__all__ = ["INDENT", "iter_statements", "render_definition", "render_rule_formal", "render_statement",
           "render_statements", "render_template"]


def render_template(t: Template) -> str:
    """A template as written in the spec, quoted."""
    return f'"{t.source}"'


def _args(args: tuple[tuple[str, object], ...]) -> str:
    return ", ".join(f"{name}={expr.render()}" for name, expr in args)  # type: ignore[attr-defined]


def _params(params: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{name}: {dom}" for name, dom in params)


def _tag(rule: str, enclosing: str | None) -> str:
    return f"  [{rule}]" if enclosing is not None and rule and rule != enclosing else ""


def _block(stmts: Iterable[AnyStmt], indent: int, rule: str) -> list[str]:
    lines = render_statements(tuple(stmts), indent, rule=rule)
    return lines or [INDENT * indent + "(nothing)"]


def render_statement(s: AnyStmt, indent: int = 0, rule: str | None = None) -> list[str]:
    """One statement (with its nested blocks) as lines; ``rule`` is the enclosing rule's ID."""
    pad = INDENT * indent
    tag = _tag(s.rule, rule)
    if isinstance(s, SetStmt):
        return [f"{pad}set {s.target.render()} = {s.value.render()}{tag}"]
    if isinstance(s, MoveStmt):
        amount = "all" if s.amount is None else s.amount.render()
        upto = "up to " if s.upto and s.amount is not None else ""
        return [f"{pad}move {upto}{amount} from {s.source.render()} to {s.target.render()}{tag}"]
    if isinstance(s, IfStmt):
        lines = [f"{pad}if {s.cond.render()}:{tag}"] + _block(s.then, indent + 1, s.rule)
        # the else branch belongs to the rule around the if (see statements.parse_stmt)
        else_rule = rule if rule is not None else s.rule
        while len(s.other) == 1 and isinstance(s.other[0], IfStmt):
            s = s.other[0]
            lines.append(f"{pad}else if {s.cond.render()}:{_tag(s.rule, else_rule)}")
            lines += _block(s.then, indent + 1, s.rule)
        if s.other:
            lines.append(f"{pad}else:")
            lines += _block(s.other, indent + 1, else_rule)
        return lines
    if isinstance(s, ForStmt):
        cond = f" if {s.cond.render()}" if s.cond is not None else ""
        return [f"{pad}for {s.var} in {s.domain.render()}{cond}:{tag}"] + _block(s.body, indent + 1, s.rule)
    if isinstance(s, LetStmt):
        return [f"{pad}let {s.name} = {s.value.render()}{tag}"]
    if isinstance(s, CallStmt):
        return [f"{pad}call {s.proc}({_args(s.args)}){tag}"]
    if isinstance(s, EmitStmt):
        return [f"{pad}emit {s.event}({_args(s.args)}){tag}"]
    if isinstance(s, MenuStmt):
        how = [] if isinstance(s.by, NoneLit) else [f"by {s.by.render()}"]
        if getattr(s, "auto", False):  # a single applicable option is taken without asking
            how.append("auto")
        by = f" ({', '.join(how)})" if how else ""
        lines = [f'{pad}choose "{s.prompt}"{by}:{tag}']
        for opt in s.options:
            lines += _render_option(opt, indent + 1, s.rule)
        return lines
    if isinstance(s, RandomStmt):
        cond = f" if {s.cond.render()}" if s.cond is not None else ""
        return [f"{pad}{s.kind} {s.var} in {s.domain.render()}{cond}{tag}"]
    if isinstance(s, RollStmt):
        return [f"{pad}roll {s.die} -> {s.var}{tag}"]
    if isinstance(s, EndStmt):
        text = f": {render_template(s.text)}" if s.text is not None else ""
        return [f"{pad}end {s.result}{text}{tag}"]
    if isinstance(s, SayStmt):
        return [f"{pad}say {render_template(s.text)}{tag}"]
    raise TypeError(f"cannot render statement {s!r}")


def _render_option(opt: MenuOption, indent: int, rule: str) -> list[str]:
    pad = INDENT * indent
    head = f"{pad}- {render_template(opt.label)}"
    if opt.var is not None and opt.domain is not None:
        head += f" for {opt.var} in {opt.domain.render()}"
    if opt.cond is not None:
        head += f" if {opt.cond.render()}"
    tag = _tag(opt.rule, rule)
    if not opt.body:
        return [head + tag]
    return [f"{head}:{tag}"] + render_statements(opt.body, indent + 2, rule=opt.rule)


def render_statements(stmts: Iterable[AnyStmt], indent: int = 0, rule: str | None = None) -> list[str]:
    """Statements as indented lines (two spaces a level).

    ``rule`` is the ID of the enclosing rule: statements attributed to another rule are tagged
    ``[ID]``. Without it the top-level statements are not tagged, nested ones are tagged when they
    differ from the statement around them."""
    lines: list[str] = []
    for s in stmts:
        lines += render_statement(s, indent, rule)
    return lines


def iter_statements(stmts: Iterable[AnyStmt]) -> Iterator[AnyStmt]:
    """Every statement of a block, nested ones included (depth first, in order)."""
    for s in stmts:
        yield s
        if isinstance(s, IfStmt):
            yield from iter_statements(s.then)
            yield from iter_statements(s.other)
        elif isinstance(s, ForStmt):
            yield from iter_statements(s.body)
        elif isinstance(s, MenuStmt):
            for opt in s.options:
                yield from iter_statements(opt.body)


def render_rule_formal(rule: Rule, indent: int = 0) -> list[str]:
    """The formal part of a rule: trigger, procedure, definition, or what carries a text rule."""
    pad = INDENT * indent
    if rule.kind == "trigger":
        head = f"{pad}on {rule.on}" if rule.on else f"{pad}always"
        if rule.when is not None:
            head += f" when {rule.when.render()}"
        if rule.priority:
            head += f" (priority {rule.priority})"
        return [head + ":"] + _block(rule.body, indent + 1, rule.id)
    if rule.kind == "procedure":
        return [f"{pad}procedure {rule.name}({_params(rule.params)}):"] + _block(rule.body, indent + 1, rule.id)
    if rule.kind == "define":
        value = rule.value.render() if rule.value is not None else "?"
        return [f"{pad}define {rule.name}({_params(rule.params)}) = {value}"]
    lines = []
    if rule.implemented_by:
        lines.append(f"{pad}implemented by: {', '.join(rule.implemented_by)}")
    if rule.reason:
        lines.append(f"{pad}reason: {rule.reason}")
    return lines or [f"{pad}(no formal part)"]


def render_definition(d: Definition, indent: int = 0) -> list[str]:
    """A derived value: ``name(params) = value``."""
    return [f"{INDENT * indent}{d.name}({_params(d.params)}) = {d.value.render()}"]
