"""Can the position reach a scenario's named step? The guards of the calls that enter it (game-agnostic).

A named step starts a procedure in the middle of a turn (``turn.step: exorcise``), skipping the
decisions and conditions that would have led there. In the real game a procedure is entered only
through a ``call`` whose enclosing ``if`` conditions and menu-option guards hold: a dead monk has no
Yang phase, a monk in the centre cannot exorcise, a haunted tile's villager gives no help. This module
finds every call site of each frame's procedure (in the frame below when that frame resumes after it,
else anywhere in the program), evaluates the guards that can be judged from the position and the
frames' locals, and says which rule forbids the step when no call site is open. A guard that needs a
value the position does not fix (a local of a skipped procedure, a loop variable) is not judged.
"""

from __future__ import annotations

import itertools
import re
import weakref
from collections.abc import Iterator
from typing import Any

from ..spec import expr as E
from ..spec import model as M
from .explain import _analyse, _flatten_and, _Scope

# a guard on the way to a call: (condition, negated, rule, where); a variable bound on the way (a loop's
# or a menu option's): (name, domain, rule, where)
Guard = tuple[E.Expr, bool, str, M.Where]
Binder = tuple[str, E.Expr, str, M.Where]
_MOST = 400  # at most this many combinations of bound variables are tried at one call site
_FAILED = object()
# compiled guards, domains and scopes per compiled game (its expression compiler): a scenario loaded
# again compiles nothing again
_MEMO: weakref.WeakKeyDictionary[Any, dict[Any, Any]] = weakref.WeakKeyDictionary()


def _memo(X: Any) -> dict[Any, Any]:
    memo = _MEMO.get(X)
    if memo is None:
        memo = _MEMO[X] = {}
    return memo


def _memoised(X: Any, key: tuple[Any, ...], make: Any, what: str) -> Any:
    """``make()``, memoised under ``key`` for the compiled game of ``X``; raises LookupError(what)
    when it failed (a failure is remembered too)."""
    memo = _memo(X)
    found = memo.get(key)
    if found is None:
        try:
            found = make()
        except Exception:  # noqa: BLE001 - remembered as not computable
            found = _FAILED
        memo[key] = found
    if found is _FAILED:
        raise LookupError(what)
    return found


def _compiled(X: Any, e: E.Expr, scope: dict[str, str], where: M.Where, rule: str) -> Any:
    """The compiled function of ``e`` in ``scope`` (raises if it does not compile), memoised."""
    return _memoised(X, ("expr", e, tuple(sorted(scope.items())), rule),
                     lambda: X.compile(e, scope, where, rule)[0], e.render())


def _domain(X: Any, domain: E.Expr, scope: dict[str, str], where: M.Where, rule: str) -> Any:
    """The values of ``domain`` in ``scope`` (raises if they cannot be computed), memoised."""
    return _memoised(X, ("domain", domain, tuple(sorted(scope.items())), rule),
                     lambda: X.domain_values(domain, scope, where, rule)[0], domain.render())


def _site_scope(game: Any, rule: M.Rule, call: M.CallStmt) -> dict[str, str] | None:
    """The local-variable types at the call (None if they cannot be rebuilt), memoised."""
    key = ("scope", rule.id, rule.name, call.where)
    memo = _memo(game.program.exprs)
    if key not in memo:
        scope: dict[str, str] | None = _scope_of(game, rule)
        try:
            _Scope(game).before(rule.body, scope, call)  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - a site whose locals cannot be typed is not judged
            scope = None
        memo[key] = scope
    found = memo[key]
    return dict(found) if found is not None else None


def _sites(body: tuple[M.AnyStmt, ...], callee: str, guards: tuple[Guard, ...], binders: tuple[Binder, ...] = ()
           ) -> Iterator[tuple[M.CallStmt, tuple[Guard, ...], tuple[Binder, ...]]]:
    """Every call of ``callee`` in ``body`` with the guards that must hold to reach it and the loop and
    option variables bound on the way."""
    for s in body:
        if isinstance(s, M.CallStmt) and s.proc == callee:
            yield s, guards, binders
        elif isinstance(s, M.IfStmt):
            yield from _sites(s.then, callee, guards + ((s.cond, False, s.rule, s.where),), binders)
            yield from _sites(s.other, callee, guards + ((s.cond, True, s.rule, s.where),), binders)
        elif isinstance(s, M.ForStmt):
            extra = ((s.cond, False, s.rule, s.where),) if s.cond is not None else ()
            yield from _sites(s.body, callee, guards + extra, binders + ((s.var, s.domain, s.rule, s.where),))
        elif isinstance(s, M.MenuStmt):
            for opt in s.options:
                extra = ((opt.cond, False, opt.rule or s.rule, opt.where),) if opt.cond is not None else ()
                bind = ((opt.var, opt.domain, opt.rule or s.rule, opt.where),) \
                    if opt.var is not None and opt.domain is not None else ()
                yield from _sites(opt.body, callee, guards + extra, binders + bind)


def _call_sites(game: Any, callee: str) -> list[tuple[M.Rule, M.CallStmt, tuple[Guard, ...], tuple[Binder, ...]]]:
    """Every call of ``callee`` in the program's procedures and triggers, memoised."""
    memo = _memo(game.program.exprs)
    key = ("sites", callee)
    if key not in memo:
        memo[key] = [(rule, *site) for rule in game.spec.rules if rule.kind in ("procedure", "trigger") and rule.body
                     for site in _sites(rule.body, callee, ())]
    return memo[key]  # type: ignore[no-any-return]


def _scope_of(game: Any, rule: M.Rule) -> dict[str, str]:
    if rule.kind == "procedure":
        return dict(rule.params)
    if rule.kind == "trigger" and rule.on in game.program.events:
        return dict(game.program.events[rule.on].params)
    return {}


def _judge(game: Any, values: list[int], guard: Guard, scope: dict[str, str], L: dict[str, Any]
           ) -> list[dict[str, Any]] | None:
    """The reasons a guard fails (outermost first), [] if it holds, None if it cannot be judged."""
    cond, negated, rule, where = guard
    X = game.program.exprs
    parts = [cond] if negated else _flatten_and(cond)
    judged = False
    for c in parts:
        try:
            ok = bool(_compiled(X, c, scope, where, rule)(values, L))
        except Exception:  # noqa: BLE001 - a guard on a value the position does not fix is not judged
            continue
        judged = True
        if ok == negated:
            if negated:
                return [{"rule": rule, "condition": f"not ({c.render()})"}]
            return _analyse(game, values, c, scope, L, rule, where, 0) or [{"rule": rule, "condition": c.render()}]
    return [] if judged else None


def step_blocked(game: Any, values: list[int], frames: list[tuple[str, str | None, dict[str, int]]]
                 ) -> list[dict[str, Any]]:
    """Why the position cannot be at these frames (proc, the call it resumes after, locals), outermost
    frame first: the failing guard of every call site of the first frame that cannot be entered, or []."""
    for i in range(1, len(frames)):
        callee, _, callee_locals = frames[i]
        caller, after, caller_locals = frames[i - 1]
        direct = after == callee
        reasons: list[dict[str, Any]] = []
        open_site = False
        for rule, call, guards, binders in _call_sites(game, callee):
            if direct and rule.name != caller:
                continue
            opened, why = _site(game, values, rule, call, guards, binders,
                                dict(caller_locals) if direct else {}, callee_locals)
            if opened:
                open_site = True
                break
            reasons = reasons or why
        if not open_site and reasons:
            return reasons
    return []


def _site(game: Any, values: list[int], rule: M.Rule, call: M.CallStmt, guards: tuple[Guard, ...],
          binders: tuple[Binder, ...], L0: dict[str, Any], callee_locals: dict[str, int]
          ) -> tuple[bool, list[dict[str, Any]]]:
    """(whether this call site can enter the frame, why not): some value of the variables bound on the
    way gives the frame's arguments and passes every guard that can be judged."""
    X = game.program.exprs
    scope = _site_scope(game, rule, call)
    if scope is None:
        return True, []
    L = dict(L0)
    for param, arg in call.args:
        if isinstance(arg, E.Name) and param in callee_locals and arg.id in scope:
            L.setdefault(arg.id, callee_locals[param])
    choices: list[tuple[str, list[Any]]] = []
    for var, domain, brule, bwhere in binders:
        if var in L:
            continue
        try:
            elements = _domain(X, domain, scope, bwhere, brule)
            items = list(elements) if isinstance(elements, range) else [f(values, L) for f in elements]
        except Exception:  # noqa: BLE001 - a domain that needs an unknown value: the variable stays free
            continue
        choices.append((var, items))
    reasons: list[dict[str, Any]] = []
    for n, combo in enumerate(itertools.product(*[items for _, items in choices])):
        if n >= _MOST:
            return True, []
        L2 = dict(L)
        L2.update({var: x for (var, _), x in zip(choices, combo)})
        if not _arguments_agree(game, values, call, scope, rule, L2, callee_locals):
            continue
        failed = None
        for guard in guards:
            verdict = _judge(game, values, guard, scope, L2)
            if verdict:
                failed = verdict
                break
        if failed is None:
            return True, []
        if not reasons:
            names = {var: game.layout.label(scope[var], L2[var]) if scope.get(var) not in (None, "int", "bool")
                     else str(L2[var]) for var, _ in choices}
            reasons = []
            for r in failed:
                used = {k: v for k, v in names.items() if re.search(rf"\b{re.escape(k)}\b", r["condition"])}
                reasons.append(dict(r, **({"for": ", ".join(f"{k} = {v}" for k, v in used.items())}
                                          if used and "for" not in r else {})))
    return False, reasons


def _arguments_agree(game: Any, values: list[int], call: M.CallStmt, scope: dict[str, str], rule: M.Rule,
                     L: dict[str, Any], callee_locals: dict[str, int]) -> bool:
    """Does the call pass the frame's arguments (those that can be computed)?"""
    X = game.program.exprs
    for param, arg in call.args:
        if param not in callee_locals:
            continue
        try:
            value = _compiled(X, arg, scope, call.where, call.rule or rule.id)(values, L)
        except Exception:  # noqa: BLE001 - an argument on an unknown value is not compared
            continue
        if value != callee_locals[param]:
            return False
    return True
