"""Citations and reasons: the rule text and rulebook words behind a rule ID, and why an option is
not legal (which condition of its guard fails, followed into the definitions it uses)."""

from __future__ import annotations

from typing import Any

from ..engine import State
from ..engine.program import MenuI
from ..spec import expr as E
from ..spec import model as M
from ..spec.model import Where
from ..spec.render import iter_statements
from ..spec.source import SpecError
from ..spec.words import first_sentence, shorten
from .search import node_of


def cite(game: Any, rule_id: str) -> dict[str, Any]:
    """A rule's ID, our wording and the rulebook words (the game's edition first)."""
    try:
        rule = game.spec.rule(rule_id)
    except KeyError:
        return {"id": rule_id, "text": "", "sources": []}
    edition = dict(game.spec.settings).get("edition")
    sources = sorted(rule.sources, key=lambda s: s.edition != edition)
    return {"id": rule.id, "text": " ".join(rule.text.split()),
            "sources": [{"edition": s.edition, "page": s.page, "words": " ".join(s.words.split())} for s in sources]}


def citation_line(c: dict[str, Any], width: int = 110) -> list[str]:
    """A cited rule as the answers print it: its ID and the first sentence of its text (cut at
    ``width``), then the rulebook's words of its first two sources. A sentence ends at a full stop
    and a space, never at an ellipsis's ("Drip... Drip... Drip...: put the Drip token here.")."""
    text = c["text"]
    first = first_sentence(text)
    if first and not first.endswith((".", "!", "?")):
        first += "."
    first = shorten(first, width, marker="...")
    lines = [f"  {c['id']}: {first}"]
    for s in c["sources"][:2]:
        page = f" p{s['page']}" if s.get("page") is not None else ""
        lines.append(f"      {s['edition'].upper()}{page}: \u201c{s['words']}\u201d")
    return lines


def _flatten_and(e: E.Expr) -> list[E.Expr]:
    if isinstance(e, E.Binary) and e.op == "and":
        return _flatten_and(e.left) + _flatten_and(e.right)
    return [e]


class _Scope:
    """Rebuilds the local-variable types at a statement, as the program compiler saw them."""

    def __init__(self, game: Any) -> None:
        self.X = game.program.exprs

    def before(self, body: tuple[M.AnyStmt, ...], scope: dict[str, str], target: Any) -> bool:
        X = self.X
        for s in body:
            if s is target:
                return True
            w, r = s.where, s.rule
            if isinstance(s, M.LetStmt):
                scope[s.name] = X.compile(s.value, scope, w, r)[1]
            elif isinstance(s, M.ForStmt):
                scope[s.var] = X.domain_values(s.domain, scope, w, r)[1]
                if self.before(s.body, scope, target):
                    return True
            elif isinstance(s, M.IfStmt):
                if self.before(s.then, scope, target) or self.before(s.other, scope, target):
                    return True
            elif isinstance(s, M.MenuStmt):
                for opt in s.options:
                    if opt.var is not None and opt.domain is not None:
                        scope[opt.var] = X.domain_values(opt.domain, scope, opt.where, opt.rule)[1]
                    if self.before(opt.body, scope, target):
                        return True
            elif isinstance(s, M.RandomStmt):
                scope[s.var] = X.domain_values(s.domain, scope, w, r)[1]
            elif isinstance(s, M.RollStmt):
                scope[s.var] = next(d.domain for d in X.spec.dice if d.name == s.die)
        return False


def _menu_statement(game: Any, proc_rule: str, where: Where) -> tuple[M.Rule, M.MenuStmt] | None:
    try:
        rule = game.spec.rule(proc_rule)
    except KeyError:
        return None
    for s in iter_statements(rule.body):
        if isinstance(s, M.MenuStmt) and s.where == where:
            return rule, s
    return None


def _matches(label: str, text: str) -> bool:
    return label == text or label.lower() == text.lower() or text.lower() in label.lower()


def forbidding(state: State, text: str) -> list[dict[str, Any]]:
    """Why the option labelled ``text`` is not offered now: the failing conditions, outermost first,
    each with the rule it belongs to. Empty if no option of the current decision has that label."""
    node = node_of(state)
    if not isinstance(node, MenuI):
        return []
    game = state.game
    frame = state.stack[-1]
    proc = game.program.procs[frame[0]]
    found = _menu_statement(game, proc.rule, node.where)
    if found is None:
        return []
    rule, stmt = found
    scope: dict[str, str] = dict(rule.params) if rule.kind == "procedure" else dict(
        game.program.events[rule.on].params) if rule.kind == "trigger" else {}
    try:
        _Scope(game).before(rule.body, scope, stmt)
    except (SpecError, StopIteration):
        return []
    for opt_i, opt_s in zip(node.options, stmt.options):
        if opt_i.var is None:
            values: Any = (0,)
        elif opt_i.values is not None:
            values = opt_i.values
        else:
            values = [f(state.values, frame[2]) for f in opt_i.item_fns]
        for value in values:
            L = dict(frame[2])
            if opt_i.var is not None:
                L[opt_i.var] = value
            try:
                label = opt_i.label(state.values, L)
            except Exception:  # noqa: BLE001 - a label of an impossible value may not render
                continue
            if not _matches(label, text) or opt_i.cond is None or opt_i.cond(state.values, L):
                continue
            inner = dict(scope)
            if opt_s.var is not None:
                inner[opt_s.var] = opt_i.type
            assert opt_s.cond is not None
            reasons = _analyse(game, state.values, opt_s.cond, inner, L, opt_s.rule, opt_s.where, 0)
            for r in reasons:
                r["option"] = label
            return reasons
    return []


def _definition(X: Any, e: E.Expr) -> Any:
    return X.defines.get(e.func) if isinstance(e, E.Call) else None


def _bind(X: Any, d: Any, call: E.Call, values: list[int], scope: dict[str, str], L: dict[str, Any],
          where: Where, rule: str) -> tuple[dict[str, str], dict[str, Any]] | None:
    try:
        args = [X.compile(a, scope, where, rule)[0](values, L) for a in call.args]
    except (SpecError, KeyError, TypeError, IndexError):
        return None
    return dict(d.params), {p: a for (p, _), a in zip(d.params, args)}


def _rule_of(d: Any) -> str:
    return d.id if isinstance(d, M.Rule) else d.rule


def _analyse(game: Any, values: list[int], e: E.Expr, scope: dict[str, str], L: dict[str, Any], rule: str,
             where: Where, depth: int) -> list[dict[str, Any]]:
    """The first failing conjunct of ``e``, followed into the definitions and quantifiers it uses."""
    X = game.program.exprs
    for c in _flatten_and(e):
        try:
            fn, _ = X.compile(c, scope, where, rule)
            ok = fn(values, L)
        except Exception:  # noqa: BLE001 - diagnostics only
            continue
        if ok:
            continue
        out = [{"rule": rule, "condition": c.render()}]
        if depth >= 5:
            return out
        inner = c.operand if isinstance(c, E.Unary) and c.op == "not" else c
        # "x != none" failing: x found nothing; look into what x searches
        if isinstance(c, E.Binary) and c.op == "!=" and isinstance(c.right, E.NoneLit):
            inner = c.left
        d = _definition(X, inner)
        if d is not None and inner is c or (d is not None and inner is not c and not isinstance(c, E.Unary)):
            bound = _bind(X, d, inner, values, scope, L, where, rule)
            if bound is None:
                return out
            dscope, dL = bound
            body = d.value
            assert body is not None
            out[-1]["rule"] = rule
            if isinstance(body, E.Quant):
                out += _near_miss(game, values, body, dscope, dL, _rule_of(d), getattr(d, "where", where), depth + 1)
            else:
                out += _analyse(game, values, body, dscope, dL, _rule_of(d), getattr(d, "where", where), depth + 1)
        elif isinstance(inner, E.Quant):
            out += _near_miss(game, values, inner, scope, L, rule, where, depth + 1)
        elif d is not None:
            # a negated definition that holds (``not occupied(x)``): the condition is the option's rule's,
            # the definition only says what the word means
            out[-1]["defined_by"] = _rule_of(d)
        return out
    return []


def _near_miss(game: Any, values: list[int], q: E.Quant, scope: dict[str, str], L: dict[str, Any], rule: str,
               where: Where, depth: int) -> list[dict[str, Any]]:
    """A search (first/exists) that found nothing: the first element that fails only one condition."""
    if q.kind not in ("first", "exists", "count") or q.cond is None:
        return [{"rule": rule, "condition": q.render()}]
    X = game.program.exprs
    try:
        elements, dtype = X.domain_values(q.domain, scope, where, rule)
    except SpecError:
        return []
    inner = dict(scope)
    inner[q.var] = dtype
    conjuncts = _flatten_and(q.cond)
    items = list(elements) if isinstance(elements, range) else [f(values, L) for f in elements]
    misses = []  # (index of the only failing condition, element): the earliest condition is the telling one
    for x in items:
        L2 = dict(L)
        L2[q.var] = x
        failing = []
        for i, c in enumerate(conjuncts):
            try:
                ok = X.compile(c, inner, where, rule)[0](values, L2)
            except Exception:  # noqa: BLE001 - diagnostics: an element the condition cannot even judge fails it
                ok = False
            if not ok:
                failing.append(i)
        if len(failing) == 1:
            misses.append((failing[0], x))
    if misses:
        index, x = min(misses, key=lambda m: m[0])
        L2 = dict(L)
        L2[q.var] = x
        name = game.layout.label(dtype, x) if dtype not in ("int", "bool") else str(x)
        found = _analyse(game, values, conjuncts[index], inner, L2, rule, where, depth)
        for f in found:
            f.setdefault("for", f"{q.var} = {name}")
        return found
    return [{"rule": rule, "condition": q.render()}]
