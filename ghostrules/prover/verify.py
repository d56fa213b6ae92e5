"""Proof obligations from the specs, by symbolic execution of every procedure and triggered rule.

Each procedure is executed symbolically from an arbitrary state that satisfies the declared ranges,
the boundary invariants and the procedure's ``requires``. Branches are merged with if-then-else
terms, loops over finite domains are unrolled, decisions and chance outcomes become fresh symbols
constrained by their guards, and a call or an event havocs exactly the slots its rules may write
(computed from the specs), after which the boundary invariants are assumed again. Along the way it
collects obligations, each a Z3 formula that must hold:

- conservation: every write to a pool cell keeps every pool's totals;
- range: every written slot stays within its declared range, and no move takes more than its
  source holds (no zone goes negative);
- requires: every call satisfies the callee's precondition;
- invariant: the boundary invariants hold again when a procedure returns and before every call,
  and every invariant holds at every decision and chance node;
- options: every decision offers at least one option, every chance node at least one outcome.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterable

import attrs
import z3

from ..engine.layout import Layout
from ..spec import model as M
from ..spec.expr import Expr
from ..spec.model import GameSpec, Where
from .symbolic import Encoder, Scope, Term, fresh_state, range_facts

_counter = itertools.count()


@attrs.define
class Obligation:
    kind: str  # conservation, range, requires, invariant, options
    rule: str
    where: Where
    text: str
    assumptions: list[Term]
    goal: Term
    context: dict[str, Any] = attrs.field(factory=dict)  # what a counterexample needs to replay


@attrs.define
class Path:
    state: list[Term]
    facts: list[Term]
    scope: Scope
    live: bool = True

    def copy(self) -> "Path":
        return Path(list(self.state), list(self.facts), dict(self.scope), self.live)


def write_sets(spec: GameSpec) -> dict[str, set[str]]:
    """The slot families each procedure, triggered rule and event may write, transitively."""
    direct: dict[str, set[str]] = {}
    calls: dict[str, set[str]] = {}
    by_event: dict[str, list[str]] = {}
    for rule in spec.rules:
        if rule.kind == "trigger":
            by_event.setdefault(rule.on, []).append(f"rule:{rule.id}")

    def scan(stmts: Iterable[M.AnyStmt], key: str) -> None:
        for s in stmts:
            if isinstance(s, M.SetStmt):
                direct[key].add(_slot_name(s.target))
            elif isinstance(s, M.MoveStmt):
                direct[key].add(_slot_name(s.source))
                direct[key].add(_slot_name(s.target))
            elif isinstance(s, M.CallStmt):
                calls[key].add(s.proc)
            elif isinstance(s, M.EmitStmt):
                calls[key].update(by_event.get(s.event, []))
            elif isinstance(s, M.IfStmt):
                scan(s.then, key)
                scan(s.other, key)
            elif isinstance(s, M.ForStmt):
                scan(s.body, key)
            elif isinstance(s, M.MenuStmt):
                for o in s.options:
                    scan(o.body, key)

    for rule in spec.rules:
        if rule.kind in ("procedure", "trigger"):
            key = rule.name if rule.kind == "procedure" else f"rule:{rule.id}"
            direct.setdefault(key, set())
            calls.setdefault(key, set())
            scan(rule.body, key)
    result = {k: set(v) for k, v in direct.items()}
    changed = True
    while changed:
        changed = False
        for k, callees in calls.items():
            for c in callees:
                extra = result.get(c, set()) - result[k]
                if extra:
                    result[k] |= extra
                    changed = True
    for event, rules in by_event.items():
        result[f"event:{event}"] = set().union(*(result[r] for r in rules))
    return result


def _slot_name(e: Expr) -> str:
    return getattr(e, "name", None) or getattr(e, "id")


class Walker:
    """Symbolic execution of one configuration's procedures, collecting obligations."""

    def __init__(self, spec: GameSpec, layout: Layout, strict: bool = True) -> None:
        self.spec = spec
        self.layout = layout
        self.enc = Encoder(spec, layout)
        self.writes = write_sets(spec)
        self.procs = {r.name: r for r in spec.rules if r.kind == "procedure"}
        self.events = {e.name: e for e in spec.events}
        self.pool_of = {c: p for p in spec.pools for c in p.cells}
        self.obligations: list[Obligation] = []
        self.boundary = [inv for inv in spec.invariants if inv.boundary]
        self.strict = strict

    # ---- entry points --------------------------------------------------------------------
    def run(self) -> list[Obligation]:
        for rule in self.spec.rules:
            if rule.kind in ("procedure", "trigger"):
                self.walk_rule(rule)
        return self.obligations

    def walk_rule(self, rule: M.Rule) -> None:
        state0 = fresh_state(self.layout, f"s{next(_counter)}_")
        params = rule.params if rule.kind == "procedure" else self.events[rule.on].params
        scope: Scope = {}
        facts = range_facts(self.layout, state0) + self.invariant_facts(state0, self.boundary)
        for name, t in params:
            term, fact = self.fresh_value(f"{rule.id}.{name}", t)
            scope[name] = (term, t)
            facts.append(fact)
        self.context = {"rule": rule, "state0": state0, "scope0": dict(scope)}
        if rule.requires is not None:
            facts.append(self.cond(rule.requires, state0, scope))
        if rule.kind == "trigger" and rule.when is not None:
            facts.append(self.cond(rule.when, state0, scope))
        path = Path(state0, facts, scope)
        path = self.block(rule.body, path, rule.id)
        if path.live and self.boundary:
            self.invariants_hold(path, self.boundary, rule.id, rule.where, "when the procedure returns")

    # ---- helpers -------------------------------------------------------------------------
    def fresh_value(self, name: str, t: str) -> tuple[Term, Term]:
        if t == "bool":
            v = z3.Bool(f"{name}#{next(_counter)}")
            return v, z3.BoolVal(True)
        v = z3.Int(f"{name}#{next(_counter)}")
        if t == "int":
            return v, z3.BoolVal(True)
        return v, z3.And(v >= -1, v < self.enc.size(t))

    def value(self, e: Expr, path: Path) -> tuple[Term, str]:
        return self.enc.encode(e, path.state, path.scope)

    def cond(self, e: Expr, state: list[Term], scope: Scope) -> Term:
        return self.enc.as_bool(self.enc.encode(e, state, scope)[0])

    def invariant_facts(self, state: list[Term], invariants: Iterable[M.Invariant]) -> list[Term]:
        return [self.cond(inv.holds, state, {}) for inv in invariants]

    def oblige(self, kind: str, rule: str, where: Where, text: str, path: Path, goal: Term) -> None:
        self.obligations.append(Obligation(kind, rule, where, text, list(path.facts), goal, dict(self.context)))

    def invariants_hold(self, path: Path, invariants: Iterable[M.Invariant], rule: str, where: Where,
                        when: str) -> None:
        for inv in invariants:
            self.oblige("invariant", rule, where, f"{inv.id} ({inv.text}) holds {when}", path,
                        self.cond(inv.holds, path.state, {}))

    def havoc(self, path: Path, slots: set[str]) -> None:
        for name in slots:
            off, sizes, _ = self.enc.slot_cells(name)
            count = 1
            for s in sizes:
                count *= s
            var = self.layout.slots[name].var
            for k in range(count):
                t = z3.Int(f"h{next(_counter)}_{name}")
                path.state[off + k] = t
                path.facts.append(z3.And(t >= var.lo, t <= var.hi))
        if slots:
            path.facts.extend(self.invariant_facts(path.state, self.boundary))

    def cells(self, name: str, index: list[Term]) -> list[tuple[int, Term]]:
        """(flat position, condition that the index points there) for every cell of a slot family."""
        off, sizes, strides = self.enc.slot_cells(name)
        out = []
        for combo in itertools.product(*(range(s) for s in sizes)):
            flat = off + sum(c * st for c, st in zip(combo, strides))
            conds = [t == c for t, c in zip(index, combo)]
            cond = z3.And(conds) if conds else z3.BoolVal(True)
            out.append((flat, z3.simplify(cond)))
        return [(f, c) for f, c in out if not z3.is_false(c)]

    def pool_totals(self, state: list[Term], pool: M.Pool) -> list[Term]:
        width = self.enc.size(pool.per) if pool.per else 1
        sums: list[list[Term]] = [[] for _ in range(width)]
        for cell in pool.cells:
            slot = self.layout.slots[cell]
            for k in range(slot.count):
                sums[k % width if pool.per else 0].append(state[slot.offset + k])
        return [z3.Sum(s) for s in sums]

    # ---- statements ----------------------------------------------------------------------
    def block(self, stmts: tuple[M.AnyStmt, ...], path: Path, rule: str) -> Path:
        for s in stmts:
            if not path.live:
                break
            path = self.stmt(s, path)
        return path

    def stmt(self, s: M.AnyStmt, path: Path) -> Path:  # noqa: C901 - one case per statement kind
        if isinstance(s, M.SayStmt):
            return path
        if isinstance(s, M.LetStmt):
            term, t = self.value(s.value, path)
            path.scope[s.name] = (term, t)
            return path
        if isinstance(s, M.SetStmt):
            return self.write(s, path)
        if isinstance(s, M.MoveStmt):
            return self.move(s, path)
        if isinstance(s, M.IfStmt):
            c = self.cond(s.cond, path.state, path.scope)
            a = path.copy()
            a.facts.append(c)
            a = self.block(s.then, a, s.rule)
            b = path.copy()
            b.facts.append(z3.Not(c))
            b = self.block(s.other, b, s.rule)
            return self.merge([(c, a), (z3.Not(c), b)], path)
        if isinstance(s, M.ForStmt):
            elements = self.elements(s.domain, path)
            for term, t in elements:
                if not path.live:
                    break
                path.scope[s.var] = (term, t)
                c = self.cond(s.cond, path.state, path.scope) if s.cond is not None else z3.BoolVal(True)
                a = path.copy()
                a.facts.append(c)
                a = self.block(s.body, a, s.rule)
                b = path.copy()
                b.facts.append(z3.Not(c))
                path = self.merge([(c, a), (z3.Not(c), b)], path)
            return path
        if isinstance(s, (M.CallStmt, M.EmitStmt)):
            if isinstance(s, M.CallStmt):
                callee = self.procs[s.proc]
                key = s.proc
                args = {name: self.value(e, path) for name, e in s.args}
                if callee.requires is not None:
                    inner = {n: (t, typ) for n, (t, typ) in args.items()}
                    self.oblige("requires", s.rule, s.where, f"call {s.proc}: {callee.requires.render()}", path,
                                self.cond(callee.requires, path.state, inner))
            else:
                key = f"event:{s.event}"
            if self.boundary:
                self.invariants_hold(path, self.boundary, s.rule, s.where, f"before {key}")
            self.havoc(path, self.writes.get(key, set()))
            return path
        if isinstance(s, M.MenuStmt):
            return self.menu(s, path)
        if isinstance(s, M.RandomStmt):
            elements = self.elements(s.domain, path)
            conds = []
            for term, t in elements:
                inner = dict(path.scope)
                inner[s.var] = (term, t)
                conds.append(self.cond(s.cond, path.state, inner) if s.cond is not None else z3.BoolVal(True))
            self.invariants_hold(path, self.spec.invariants, s.rule, s.where, f"at the chance node '{s.kind}'")
            self.oblige("options", s.rule, s.where, f"the chance node '{s.kind} {s.var}' has an outcome", path,
                        z3.Or(conds) if conds else z3.BoolVal(False))
            t = elements[0][1] if elements else "int"
            v, fact = self.fresh_value(s.var, t)
            path.facts.append(fact)
            path.facts.append(z3.Or([z3.And(v == term, c) for (term, _), c in zip(elements, conds)]))
            path.scope[s.var] = (v, t)
            return path
        if isinstance(s, M.RollStmt):
            die = next(d for d in self.spec.dice if d.name == s.die)
            dom = self.layout.domains[die.domain]
            v = z3.Int(f"{s.var}#{next(_counter)}")
            path.facts.append(z3.Or([v == dom.index(f) for f in die.faces]))
            self.invariants_hold(path, self.spec.invariants, s.rule, s.where, "at a roll")
            path.scope[s.var] = (v, die.domain)
            return path
        if isinstance(s, M.EndStmt):
            path.live = False
            return path
        raise TypeError(s)

    def elements(self, domain: Expr, path: Path) -> list[tuple[Term, str]]:
        from ..spec.expr import ListLit, Name
        if isinstance(domain, Name):
            if domain.id == "bool":
                return [(z3.BoolVal(False), "bool"), (z3.BoolVal(True), "bool")]
            return [(z3.IntVal(i), domain.id) for i in range(self.enc.size(domain.id))]
        assert isinstance(domain, ListLit)
        return [self.value(i, path) for i in domain.items]

    def menu(self, s: M.MenuStmt, path: Path) -> Path:
        branches = []
        any_option = []
        self.invariants_hold(path, self.spec.invariants, s.rule, s.where, f"at the decision '{s.prompt}'")
        for k, opt in enumerate(s.options):
            if opt.var is not None and opt.domain is not None:
                elements = self.elements(opt.domain, path)
                t = elements[0][1] if elements else "int"
                conds = []
                for term, tt in elements:
                    inner = dict(path.scope)
                    inner[opt.var] = (term, tt)
                    conds.append(self.cond(opt.cond, path.state, inner) if opt.cond is not None else z3.BoolVal(True))
                any_option.append(z3.Or(conds) if conds else z3.BoolVal(False))
                v, fact = self.fresh_value(opt.var, t)
                guard = z3.Or([z3.And(v == term, c) for (term, _), c in zip(elements, conds)]) if conds \
                    else z3.BoolVal(False)
                branch = path.copy()
                branch.scope[opt.var] = (v, t)
                branch.facts += [fact, guard]
            else:
                guard = self.cond(opt.cond, path.state, path.scope) if opt.cond is not None else z3.BoolVal(True)
                any_option.append(guard)
                branch = path.copy()
                branch.facts.append(guard)
            branch = self.block(opt.body, branch, opt.rule)
            branches.append((guard, branch))
        self.oblige("options", s.rule, s.where, f"the decision '{s.prompt}' offers an option", path, z3.Or(any_option))
        choice = z3.Int(f"choice#{next(_counter)}")
        keyed = [(z3.And(choice == k, g), b) for k, (g, b) in enumerate(branches)]
        return self.merge(keyed, path)

    def merge(self, branches: list[tuple[Term, Path]], before: Path) -> Path:
        live = [(c, p) for c, p in branches if p.live]
        if not live:
            out = before.copy()
            out.live = False
            return out
        base = before.facts
        n = len(base)
        facts = list(base)
        if len(live) < len(branches):
            facts.append(z3.Or([c for c, _ in live]))
        for c, p in live:
            extra = p.facts[n:]
            if extra:
                facts.append(z3.Implies(c, z3.And(extra)))
        state = list(live[-1][1].state)
        for i in range(len(state)):
            terms = [p.state[i] for _, p in live]
            if all(t.eq(terms[0]) for t in terms[1:]):
                state[i] = terms[0]
                continue
            merged = terms[-1]
            for (c, _), t in zip(reversed(live[:-1]), reversed(terms[:-1])):
                merged = z3.If(c, t, merged)
            # a fresh name for the merged value keeps later terms small (static single assignment)
            name = z3.Int(f"m{next(_counter)}_{i}")
            facts.append(name == merged)
            state[i] = name
        scope = dict(live[-1][1].scope)
        for name in scope:
            vals = [p.scope.get(name) for _, p in live]
            if any(v is None for v in vals):
                continue
            terms = [v[0] for v in vals]  # type: ignore[index]
            if all(t.eq(terms[0]) for t in terms[1:]):
                continue
            merged = terms[-1]
            for (c, _), t in zip(reversed(live[:-1]), reversed(terms[:-1])):
                merged = z3.If(c, t, merged)
            scope[name] = (merged, scope[name][1])
        return Path(state, facts, scope, True)

    # ---- writes --------------------------------------------------------------------------
    def assign(self, path: Path, flat: int, value: Term) -> None:
        """Give a written cell a fresh name equal to its new value (keeps terms small)."""
        if z3.is_int_value(value) or z3.is_const(value):
            path.state[flat] = value
            return
        name = z3.Int(f"w{next(_counter)}_{flat}")
        path.facts.append(name == value)
        path.state[flat] = name

    def write(self, s: M.SetStmt, path: Path) -> Path:
        name = _slot_name(s.target)
        index = [self.enc.as_int(self.value(a, path)[0]) for a in getattr(s.target, "args", ())]
        value, _ = self.value(s.value, path)
        value = self.enc.as_int(value)
        var = self.layout.slots[name].var
        before = list(path.state)
        self.oblige("range", s.rule, s.where, f"{s.target.render()} = {s.value.render()} stays in {var.lo}..{var.hi}",
                    path, z3.And(value >= var.lo, value <= var.hi))
        for flat, c in self.cells(name, index):
            self.assign(path, flat, value if z3.is_true(c) else z3.If(c, value, path.state[flat]))
        if name in self.pool_of:
            self.conserve(self.pool_of[name], before, path, s)
        return path

    def move(self, s: M.MoveStmt, path: Path) -> Path:
        src_name, dst_name = _slot_name(s.source), _slot_name(s.target)
        si = [self.enc.as_int(self.value(a, path)[0]) for a in getattr(s.source, "args", ())]
        di = [self.enc.as_int(self.value(a, path)[0]) for a in getattr(s.target, "args", ())]
        src = self.enc.read_slot(path.state, src_name, si)
        dst = self.enc.read_slot(path.state, dst_name, di)
        hi = self.layout.slots[dst_name].var.hi
        amount = src if s.amount is None else self.enc.as_int(self.value(s.amount, path)[0])
        if s.upto:
            amount = z3.If(amount < src, amount, src)
            amount = z3.If(amount < hi - dst, amount, hi - dst)
        self.oblige("range", s.rule, s.where,
                    f"move {s.amount.render() if s.amount else 'all'} from {s.source.render()} to "
                    f"{s.target.render()}: the source holds enough and the target has room",
                    path, z3.And(amount >= 0, amount <= src, dst + amount <= hi))
        before = list(path.state)
        amount_name = z3.Int(f"amount{next(_counter)}")
        path.facts.append(amount_name == amount)
        for flat, c in self.cells(src_name, si):
            self.assign(path, flat, path.state[flat] - amount_name if z3.is_true(c)
                        else z3.If(c, path.state[flat] - amount_name, path.state[flat]))
        for flat, c in self.cells(dst_name, di):
            self.assign(path, flat, path.state[flat] + amount_name if z3.is_true(c)
                        else z3.If(c, path.state[flat] + amount_name, path.state[flat]))
        pools = {self.pool_of[n].name: self.pool_of[n] for n in (src_name, dst_name) if n in self.pool_of}
        for pool in pools.values():
            self.conserve(pool, before, path, s)
        return path

    def conserve(self, pool: M.Pool, before: list[Term], path: Path, s: M.AnyStmt) -> None:
        totals_before = self.pool_totals(before, pool)
        totals_after = self.pool_totals(path.state, pool)
        goal = z3.And([a == b for a, b in zip(totals_before, totals_after)])
        self.oblige("conservation", s.rule, s.where, f"pool {pool.name} keeps its totals", path, goal)
