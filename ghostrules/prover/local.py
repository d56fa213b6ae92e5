"""Proof obligations with local facts: what the rule itself checked before acting.

Each obligation is a formula over one arbitrary state that satisfies the declared ranges and
boundary invariants, plus the *facts in force* at that statement: the procedure's ``requires``,
the ``when`` of a triggered rule, the guards of the enclosing ``if``/``for``/options and the
values of ``let`` names, each kept only until a statement writes a slot it reads (or a call,
an event or a decision hands control elsewhere). That is sound and small: every formula is about
one statement, so Z3 answers in milliseconds.

Obligations:
- conservation: a write to a pool cell keeps every pool's totals (for all states);
- range: a written slot stays in its range; a move's source holds enough and its target has room;
- invariant: a write keeps every boundary invariant (inductive, one statement at a time);
- requires: a call satisfies the callee's precondition;
- options: a decision offers an option, a chance node an outcome.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any, Iterable

import attrs
import z3

from ..engine.layout import Layout
from ..spec import expr as E
from ..spec import model as M
from ..spec.model import GameSpec, Where
from .symbolic import Encoder, Scope, Term, names_in, range_facts

_ids = itertools.count()

# boolean definitions whose unfolding encodes more expressions than this are atoms in the
# obligations, their meaning added only when a proof needs it (Betrayal's line of sight: 4 x 47
# rooms of board geometry, about 15,000; no Ghost Stories definition reaches 6,000)
ATOM_LIMIT = 10000


@attrs.define
class Obligation:
    kind: str
    rule: str
    where: Where
    text: str
    assumptions: list[Term]
    goal: Term
    procedure: str = ""
    locals: dict[str, tuple[Term, str]] = attrs.field(factory=dict)
    # the slot families the formulas read: only their ranges, pools and invariants are assumed
    families: frozenset[str] = frozenset()
    params: tuple[str, ...] = ()   # the procedure's parameters (the counterexample's call)
    # symbolic indices of the write, with their domain sizes: a hard obligation is split on them
    split: tuple[tuple[Term, int], ...] = ()
    # an invariant obligation: the invariant and the post-state its goal reads (see
    # LocalProver.instance_goal, the one-instance form the runner tries first)
    invariant: M.Invariant | None = None
    post: list[Term] | None = None
    pre: list[Term] | None = None   # the state the facts are about (the write's pre-state)


@attrs.define
class Fact:
    term: Term          # over the current pre-state and the scope's symbols
    reads: frozenset[str]


class LocalProver:
    """Collects the obligations of one configuration (one fresh pre-state shared by all)."""

    def __init__(self, spec: GameSpec, layout: Layout) -> None:
        self.spec = spec
        self.layout = layout
        self.enc = Encoder(spec, layout)
        self.enc.atom_limit = ATOM_LIMIT
        self.state = [z3.Int(f"v{i}") for i in range(layout.size)]
        self.enc.pre_state = self.state
        # the background facts (ranges, pool totals, boundary invariants) are in runner.Facts, by family
        self.boundary = [inv for inv in spec.invariants if inv.boundary]
        self.procs = {r.name: r for r in spec.rules if r.kind == "procedure"}
        self.events = {e.name: e for e in spec.events}
        self.pool_of = {c: p for p in spec.pools for c in p.cells}
        self.defines: dict[str, Any] = self.enc.defines
        self._reads: dict[str, frozenset[str]] = {}
        self.obligations: list[Obligation] = []
        self._ids = itertools.count()
        self.proc_name = ""
        self.params: tuple[str, ...] = ()
        # families read by terms bound in the scope without a fact (arguments encoded in place)
        self.scope_reads: frozenset[str] = frozenset()

    # ---- background facts over the whole state (runner.Facts gives them by slot family) ----
    @property
    def base(self) -> list[Term]:
        """Every slot in its range and every pool holding its total."""
        out = range_facts(self.layout, self.state)
        for pool in self.spec.pools:  # the conservation proofs make this inductive
            out += [t == pool.total for t in self._totals(self.state, pool)]
        return out

    @property
    def base_inv(self) -> list[Term]:
        """The boundary invariants over the pre-state."""
        return [self.enc.as_bool(self.enc.encode(inv.holds, self.state, {})[0]) for inv in self.boundary]

    # ---- static read sets --------------------------------------------------------------
    def reads(self, e: E.Expr | None) -> frozenset[str]:
        if e is None:
            return frozenset()
        out: set[str] = set()
        for x in E.walk(e):
            if isinstance(x, E.Index) and x.name in self.layout.slots:
                out.add(x.name)
            elif isinstance(x, E.Name):
                if x.id in self.layout.slots:
                    out.add(x.id)
                elif x.id in self.defines:
                    out |= self.define_reads(x.id)
            elif isinstance(x, E.Call) and x.func in self.defines:
                out |= self.define_reads(x.func)
        return frozenset(out)

    def define_reads(self, name: str) -> frozenset[str]:
        if name not in self._reads:
            self._reads[name] = frozenset()  # no recursion in definitions; guard anyway
            self._reads[name] = self.reads(self.defines[name].value)
        return self._reads[name]

    # ---- helpers -------------------------------------------------------------------------
    def value(self, e: E.Expr, scope: Scope) -> tuple[Term, str]:
        return self.enc.encode(e, self.state, scope)

    def cond(self, e: E.Expr, scope: Scope) -> Term:
        return self.enc.as_bool(self.value(e, scope)[0])

    def facts_of(self, e: E.Expr, scope: Scope) -> list[Fact]:
        """A condition as facts, one per conjunct: a write kills only the conjuncts that read
        what it writes (``a > 0 and b < 2`` keeps ``b < 2`` after a write to ``a``)."""
        if isinstance(e, E.Binary) and e.op == "and":
            return self.facts_of(e.left, scope) + self.facts_of(e.right, scope)
        return [Fact(self.cond(e, scope), self.reads(e))]

    def bind(self, name: str, domain: E.Expr, scope: Scope, into: Scope | None = None) -> list[Fact]:
        """``name`` as a fresh element of ``domain`` (never none), bound in ``into`` (default
        ``scope``); returns the facts that say so (its type's range, its membership)."""
        t = self._domain_type(domain, scope)
        var, dom = self.fresh(name, t, may_be_none=False)
        (scope if into is None else into)[name] = (var, t)
        return [Fact(dom, frozenset()), Fact(self._member(var, domain, scope), frozenset())]

    def fresh(self, name: str, t: str, may_be_none: bool = True) -> tuple[Term, Term]:
        """A fresh symbol of a type; a parameter may be none, an element of a domain never is."""
        if t == "bool":
            return z3.Bool(f"{name}#{next(self._ids)}"), z3.BoolVal(True)
        v = z3.Int(f"{name}#{next(self._ids)}")
        if t == "int":
            return v, z3.BoolVal(True)
        return v, z3.And(v >= (-1 if may_be_none else 0), v < self.enc.size(t))

    def oblige(self, kind: str, rule: str, where: Where, text: str, facts: list[Fact], goal: Term,
               scope: Scope, reads: Iterable[str] = (), split: tuple[tuple[Term, int], ...] = (),
               invariant: M.Invariant | None = None, post: list[Term] | None = None) -> None:
        families = frozenset(reads).union(*(f.reads for f in facts), self.scope_reads)
        self.obligations.append(Obligation(kind, rule, where, text, [f.term for f in facts], goal,
                                           self.proc_name, dict(scope), families, self.params, split,
                                           invariant, post, self.state))

    def instance_goal(self, ob: Obligation) -> tuple[int, Term] | None:
        """The invariant obligation ``ob`` as one instance of its invariant, or None.

        For an invariant ``forall(v in D if c : b)`` (D a domain) the goal "the invariant holds
        after the write" is replaced by ``0 <= s < |D| and c(s) and b(s) before the write implies
        c(s) -> b(s) after it``, for a fresh symbol ``s``. Returned: the invariant's index in
        ``self.boundary`` and that goal.

        Sound: ``s`` occurs in no fact, so proving this goal under the obligation's facts proves,
        for every element s of D, that the instance at s holds after the write whenever it held
        before; the invariant before the write gives every instance before it, hence the
        invariant after it. The solver then needs none of the other |D| - 1 instances before the
        write (one ghost per slot: one count over 65 cards instead of 12); if the instance is not
        enough, the runner proves the obligation as stated."""
        inv, pre, post = ob.invariant, ob.pre, ob.post
        q = inv.holds if inv is not None else None
        # the background facts the runner adds (ranges, pools, the other invariants) are about self.state
        if post is None or pre is not self.state or not isinstance(q, E.Quant) or q.kind != "forall" \
                or not isinstance(q.domain, E.Name) or q.domain.id in ("bool", "int") or q.body is None:
            return None
        try:
            index = next(i for i, b in enumerate(self.boundary) if b is inv)
        except StopIteration:
            return None
        s = z3.Int(f"{q.var}@{inv.id}")
        scope: Scope = {q.var: (s, q.domain.id)}

        def instance(state: list[Term]) -> Term:
            body = self.enc.as_bool(self.enc.encode(q.body, state, scope)[0])
            if q.cond is None:
                return body
            return z3.Implies(self.enc.as_bool(self.enc.encode(q.cond, state, scope)[0]), body)
        known = z3.And(s >= 0, s < self.enc.size(q.domain.id), instance(pre))
        return index, z3.Implies(known, instance(post))

    @staticmethod
    def kill(facts: list[Fact], written: Iterable[str] | None) -> list[Fact]:
        """Facts that survive a write to these slot families (None: every fact that reads the state)."""
        if written is None:
            return [f for f in facts if not f.reads]
        w = set(written)
        return [f for f in facts if not (f.reads & w)]

    # ---- walking -------------------------------------------------------------------------
    def run(self, rules: Iterable[M.Rule] | None = None) -> list[Obligation]:
        for rule in self.spec.rules if rules is None else rules:
            if rule.kind in ("procedure", "trigger"):
                self.walk_rule(rule)
        return self.obligations

    def walk_rule(self, rule: M.Rule) -> list[Obligation]:
        """The obligations of one rule (also appended to ``self.obligations``)."""
        first = len(self.obligations)
        # fresh symbols are numbered per rule: equal rules of two configurations give equal terms
        self._ids = itertools.count()
        self.proc_name = rule.name if rule.kind == "procedure" else f"rule:{rule.id}"
        params = rule.params if rule.kind == "procedure" else self.events[rule.on].params
        self.params = tuple(n for n, _ in params)
        scope: Scope = {}
        facts: list[Fact] = []
        for name, t in params:
            term, dom = self.fresh(name, t)
            scope[name] = (term, t)
            facts.append(Fact(dom, frozenset()))
        contract = self.events[rule.on].requires if rule.kind == "trigger" else None  # proved at each emit
        for e in (rule.requires, contract, rule.when if rule.kind == "trigger" else None):
            if e is not None:
                facts += self.facts_of(e, scope)
        self.block(rule.body, facts, scope)
        return self.obligations[first:]

    # ---- what a rule's obligations depend on (to share proofs between configurations) ----
    def fingerprint(self, rule: M.Rule) -> str:
        """A digest of everything the obligations of ``rule`` are built from in this configuration:
        the rule, the definitions, tables, constants and parameter values it reads (transitively),
        the contracts of the procedures it calls, the invariants and the state layout. Two
        configurations with the same fingerprint for a rule have the same obligations for it."""
        text = repr(rule)
        parts = [text, self._global_digest()]
        if rule.kind == "trigger":
            parts.append(repr((self.events[rule.on].params, self.events[rule.on].requires)))
        for event in dict.fromkeys(s.event for s in _stmts_of(rule.body) if isinstance(s, M.EmitStmt)):
            parts.append(f"emit {event} {self.events[event].params!r} requires {self.events[event].requires!r}")
        # the names the rule's own expressions use and the procedures it calls do not depend on
        # the configuration: found once per rule text
        shape = _RULE_SHAPES.get(text)
        if shape is None:
            calls = tuple(dict.fromkeys(s.proc for s in _stmts_of(rule.body) if isinstance(s, M.CallStmt)))
            shape = _RULE_SHAPES[text] = (frozenset(names_in(list(_exprs_of(rule)))), calls)
        names, calls = shape
        meanings: set[str] = set()
        for n in names:
            meanings |= self.enc.name_meanings(n)
        for proc in calls:
            if proc in self.procs:
                callee = self.procs[proc]
                parts.append(f"call {proc} {callee.params!r} requires {callee.requires!r}")
                if callee.requires is not None:
                    meanings |= self.enc.meanings([callee.requires])
        parts += sorted(meanings)
        return hashlib.sha1("\n".join(parts).encode()).hexdigest()

    def _global_digest(self) -> str:
        if not hasattr(self, "_global"):
            inv_exprs = [inv.holds for inv in self.spec.invariants]
            text = "\n".join([repr(self.spec.vars), repr(self.spec.domains), repr(self.spec.pools),
                              repr(self.spec.dice), repr(self.spec.invariants)] + sorted(self.enc.meanings(inv_exprs)))
            self._global = hashlib.sha1(text.encode()).hexdigest()
        return self._global

    def block(self, stmts: tuple[M.AnyStmt, ...], facts: list[Fact], scope: Scope) -> list[Fact]:
        for s in stmts:
            facts = self.stmt(s, facts, scope)
        return facts

    def stmt(self, s: M.AnyStmt, facts: list[Fact], scope: Scope) -> list[Fact]:  # noqa: C901
        if isinstance(s, M.SayStmt):
            return facts
        if isinstance(s, M.LetStmt):
            term, t = self.value(s.value, scope)
            name, dom = self.fresh(s.name, t)
            scope[s.name] = (name, t)
            eq = (name == self.enc.as_bool(term)) if t == "bool" else (name == self.enc.as_int(term))
            # a value of a domain type is one of its symbols or none (slots, tables and symbols are)
            kept = [Fact(dom, frozenset())] if t not in ("int", "bool") else []
            return facts + [Fact(eq, self.reads(s.value))] + kept
        if isinstance(s, M.SetStmt):
            return self.write(s, facts, scope)
        if isinstance(s, M.MoveStmt):
            return self.move(s, facts, scope)
        if isinstance(s, M.IfStmt):
            after_then = self.block(s.then, facts + self.facts_of(s.cond, scope), scope)
            neg = Fact(z3.Not(self.cond(s.cond, scope)), self.reads(s.cond))
            after_else = self.block(s.other, facts + [neg], scope)
            return [f for f in facts if f in after_then and f in after_else]
        if isinstance(s, M.ForStmt):
            bound = self.bind(s.var, s.domain, scope)
            # the body may run many times: facts it invalidates are gone for later iterations too;
            # the loop's condition is tested again before every iteration (ForNextI), so it holds
            # when the body starts whatever an earlier iteration did
            killed = self._writes_of(s.body)
            inner = self.kill(facts, killed) + bound
            if s.cond is not None:
                inner += self.facts_of(s.cond, scope)
            self.block(s.body, inner, scope)
            return self.kill(facts, killed)
        if isinstance(s, (M.CallStmt, M.EmitStmt)):
            contract = self.procs[s.proc].requires if isinstance(s, M.CallStmt) else self.events[s.event].requires
            if contract is not None:
                what = f"call {s.proc}" if isinstance(s, M.CallStmt) else f"emit {s.event}"
                inner = {n: self.value(e, scope) for n, e in s.args}
                reads = self.reads(contract).union(*(self.reads(e) for _, e in s.args))
                self.oblige("requires", s.rule, s.where, f"{what} with {contract.render()}",
                            facts, self.enc.as_bool(self.enc.encode(contract, self.state, inner)[0]),
                            scope, reads)
            return self.kill(facts, None)
        if isinstance(s, M.MenuStmt):
            return self.menu(s, facts, scope)
        if isinstance(s, M.RandomStmt):
            t = self._domain_type(s.domain, scope)
            conds = []
            for term in self._elements(s.domain, scope):
                inner = dict(scope)
                inner[s.var] = (term, t)
                conds.append(self.enc.as_bool(self.enc.encode(s.cond, self.state, inner)[0])
                             if s.cond is not None else z3.BoolVal(True))
            self.oblige("options", s.rule, s.where, f"the chance node '{s.kind} {s.var}' has an outcome", facts,
                        z3.Or(conds) if conds else z3.BoolVal(False), scope, self.reads(s.cond) | self.reads(s.domain))
            kept = facts + self.bind(s.var, s.domain, scope)
            if s.cond is not None:
                kept += self.facts_of(s.cond, scope)
            return kept
        if isinstance(s, M.RollStmt):
            die = next(d for d in self.spec.dice if d.name == s.die)
            dom = self.layout.domains[die.domain]
            var = z3.Int(f"{s.var}#{next(self._ids)}")
            scope[s.var] = (var, die.domain)
            return facts + [Fact(z3.Or([var == dom.index(f) for f in die.faces]), frozenset())]
        if isinstance(s, M.EndStmt):
            return facts
        raise TypeError(s)

    def menu(self, s: M.MenuStmt, facts: list[Fact], scope: Scope) -> list[Fact]:
        offered = []
        for opt in s.options:
            inner_facts = list(facts)
            if opt.var is not None and opt.domain is not None:
                t = self._domain_type(opt.domain, scope)
                conds = []
                for term in self._elements(opt.domain, scope):
                    inner = dict(scope)
                    inner[opt.var] = (term, t)
                    conds.append(self.enc.as_bool(self.enc.encode(opt.cond, self.state, inner)[0])
                                 if opt.cond is not None else z3.BoolVal(True))
                offered.append(z3.Or(conds) if conds else z3.BoolVal(False))
                inner_facts += self.bind(opt.var, opt.domain, scope)
            elif opt.cond is None:
                offered.append(z3.BoolVal(True))
            else:
                offered.append(self.cond(opt.cond, scope))
            if opt.cond is not None:
                inner_facts += self.facts_of(opt.cond, scope)
            self.block(opt.body, inner_facts, scope)
        reads = frozenset().union(*(self.reads(o.cond) | self.reads(o.domain) for o in s.options))
        self.oblige("options", s.rule, s.where, f"the decision '{s.prompt}' offers an option", facts, z3.Or(offered),
                    scope, reads)
        return self.kill(facts, self._writes_of_options(s))

    def _writes_of_options(self, s: M.MenuStmt) -> set[str] | None:
        out: set[str] = set()
        for o in s.options:
            w = self._writes_of(o.body)
            if w is None:
                return None
            out |= w
        return out

    def _writes_of(self, stmts: Iterable[M.AnyStmt]) -> set[str] | None:
        """Slot families a block writes; None if it calls out (anything may change)."""
        out: set[str] = set()
        for s in stmts:
            if isinstance(s, M.SetStmt):
                out.add(_name(s.target))
            elif isinstance(s, M.MoveStmt):
                out |= {_name(s.source), _name(s.target)}
            elif isinstance(s, (M.CallStmt, M.EmitStmt)):
                return None
            elif isinstance(s, M.IfStmt):
                for part in (s.then, s.other):
                    w = self._writes_of(part)
                    if w is None:
                        return None
                    out |= w
            elif isinstance(s, M.ForStmt):
                w = self._writes_of(s.body)
                if w is None:
                    return None
                out |= w
            elif isinstance(s, M.MenuStmt):
                w2 = self._writes_of_options(s)
                if w2 is None:
                    return None
                out |= w2
        return out

    def _domain_type(self, domain: E.Expr, scope: Scope) -> str:
        if isinstance(domain, E.Name):
            return domain.id
        assert isinstance(domain, E.ListLit)
        return self.value(domain.items[0], scope)[1] if domain.items else "int"

    def _elements(self, domain: E.Expr, scope: Scope) -> list[Term]:
        if isinstance(domain, E.Name):
            if domain.id == "bool":
                return [z3.BoolVal(False), z3.BoolVal(True)]
            return [z3.IntVal(i) for i in range(self.enc.size(domain.id))]
        assert isinstance(domain, E.ListLit)
        return [self.value(i, scope)[0] for i in domain.items]

    def _member(self, var: Term, domain: E.Expr, scope: Scope) -> Term:
        if isinstance(domain, E.Name):
            return z3.BoolVal(True)
        items = self._elements(domain, scope)
        return z3.Or([var == i for i in items]) if items else z3.BoolVal(False)

    # ---- writes --------------------------------------------------------------------------
    def _post(self, name: str, index: list[Term], new_value_of: Any, base: list[Term] | None = None) -> list[Term]:
        """The state after writing new_value_of(old) into name[index] (of ``base``, default the pre-state)."""
        base = self.state if base is None else base
        post = list(base)
        off, sizes, strides = self.enc.slot_cells(name)
        for combo in itertools.product(*(range(n) for n in sizes)):
            flat = off + sum(c * st for c, st in zip(combo, strides))
            hit = z3.And([t == c for t, c in zip(index, combo)]) if index else z3.BoolVal(True)
            post[flat] = z3.If(hit, new_value_of(base[flat]), base[flat])
        return post

    def check_write(self, s: M.AnyStmt, names: list[str], post: list[Term], facts: list[Fact], scope: Scope,
                    reads: frozenset[str] = frozenset(), split: tuple[tuple[Term, int], ...] = (),
                    deltas: list[tuple[str, list[Term], Term]] | None = None) -> None:
        """The conservation and invariant obligations of a write. ``deltas`` (a move: the cells it
        changes and by how much) states conservation as "the changes of each group sum to 0"
        instead of comparing every total before and after: the same goal, a far smaller formula."""
        for pool in {self.pool_of[n].name: self.pool_of[n] for n in names if n in self.pool_of}.values():
            if deltas is not None:
                goal = z3.And([d == 0 for d in self._total_changes(pool, deltas)])
            else:
                goal = z3.And([a == b for a, b in zip(self._totals(self.state, pool), self._totals(post, pool))])
            self.oblige("conservation", s.rule, s.where, f"pool {pool.name} keeps its totals", facts, goal, scope,
                        reads | set(pool.cells), split)
        for inv in self.boundary:
            if self.reads(inv.holds) & set(names):
                goal = self.enc.as_bool(self.enc.encode(inv.holds, post, {})[0])
                self.oblige("invariant", s.rule, s.where, f"{inv.id} ({inv.text}) still holds", facts, goal, scope,
                            reads | self.reads(inv.holds), split, inv, post)

    def _totals(self, state: list[Term], pool: M.Pool) -> list[Term]:
        width = self.enc.size(pool.per) if pool.per else 1
        sums: list[list[Term]] = [[] for _ in range(width)]
        for cell in pool.cells:
            slot = self.layout.slots[cell]
            for k in range(slot.count):
                sums[k % width if pool.per else 0].append(state[slot.offset + k])
        return [z3.Sum(x) for x in sums]

    def _total_changes(self, pool: M.Pool, deltas: list[tuple[str, list[Term], Term]]) -> list[Term]:
        """How much each total of ``pool`` (one per group, as in ``_totals``) changes when these
        cells change by these amounts: a cell's group is its position in its slot modulo the
        size of the ``per`` domain."""
        width = self.enc.size(pool.per) if pool.per else 1
        changes: list[list[Term]] = [[] for _ in range(width)]
        for name, index, delta in deltas:
            if name not in pool.cells:
                continue
            if width == 1:
                changes[0].append(delta)
                continue
            _, sizes, strides = self.enc.slot_cells(name)
            if index and strides[-1] == 1 and sizes[-1] == width:
                group = index[-1]  # the per domain is the last index (valid: 0 <= it < width)
            else:
                flat: Term = z3.IntVal(0)
                for t, st in zip(index, strides):
                    flat = flat + t * st
                group = z3.simplify(flat % width)
            if z3.is_int_value(group):
                changes[group.as_long()].append(delta)
            else:
                for k in range(width):
                    changes[k].append(z3.If(group == k, delta, 0))
        return [z3.Sum(c) if c else z3.IntVal(0) for c in changes]

    def valid_index(self, name: str, index: list[Term]) -> Term:
        _, sizes, _ = self.enc.slot_cells(name)
        return z3.And([z3.And(t >= 0, t < n) for t, n in zip(index, sizes)]) if index else z3.BoolVal(True)

    def write(self, s: M.SetStmt, facts: list[Fact], scope: Scope) -> list[Fact]:
        name = _name(s.target)
        index = [self.enc.as_int(self.value(a, scope)[0]) for a in getattr(s.target, "args", ())]
        valid = self.valid_index(name, index)
        reads = self.reads(s.target) | self.reads(s.value) | {name}
        self.oblige("range", s.rule, s.where, f"{s.target.render()} names a slot (no index is none)", facts, valid,
                    scope, reads)
        facts = facts + [Fact(valid, frozenset())]
        value = self.enc.as_int(self.value(s.value, scope)[0])
        var = self.layout.slots[name].var
        self.oblige("range", s.rule, s.where, f"{s.target.render()} = {s.value.render()} stays in {var.lo}..{var.hi}",
                    facts, z3.And(value >= var.lo, value <= var.hi), scope, reads)
        post = self._post(name, index, lambda old: value)
        self.check_write(s, [name], post, facts, scope, reads, self._split(name, index))
        return self.kill(facts, {name})

    def move(self, s: M.MoveStmt, facts: list[Fact], scope: Scope) -> list[Fact]:
        src_name, dst_name = _name(s.source), _name(s.target)
        si = [self.enc.as_int(self.value(a, scope)[0]) for a in getattr(s.source, "args", ())]
        di = [self.enc.as_int(self.value(a, scope)[0]) for a in getattr(s.target, "args", ())]
        valid = z3.And(self.valid_index(src_name, si), self.valid_index(dst_name, di))
        reads = self.reads(s.source) | self.reads(s.target) | self.reads(s.amount) | {src_name, dst_name}
        self.oblige("range", s.rule, s.where, f"move {s.source.render()} -> {s.target.render()} names slots "
                    f"(no index is none)", facts, valid, scope, reads)
        facts = facts + [Fact(valid, frozenset())]
        src = self.enc.read_slot(self.state, src_name, si)
        dst = self.enc.read_slot(self.state, dst_name, di)
        hi = self.layout.slots[dst_name].var.hi
        amount = src if s.amount is None else self.enc.as_int(self.value(s.amount, scope)[0])
        if s.upto:
            amount = z3.If(amount < src, amount, src)
            amount = z3.If(amount < hi - dst, amount, hi - dst)
        self.oblige("range", s.rule, s.where,
                    f"move {s.amount.render() if s.amount else 'all'} from {s.source.render()} to {s.target.render()}: "
                    f"the source holds enough and the target has room", facts,
                    z3.And(amount >= 0, amount <= src, dst + amount <= hi), scope, reads)
        amt = z3.Int(f"amount#{next(self._ids)}")
        facts_with_amount = facts + [Fact(amt == amount, frozenset({src_name, dst_name}))]
        post = self._post(src_name, si, lambda old: old - amt)
        post = self._post(dst_name, di, lambda old: old + amt, base=post)
        self.check_write(s, [src_name, dst_name], post, facts_with_amount, scope, reads,
                         self._split(src_name, si) + self._split(dst_name, di),
                         deltas=[(src_name, si, -amt), (dst_name, di, amt)])
        return self.kill(facts, {src_name, dst_name})

    def _split(self, name: str, index: list[Term]) -> tuple[tuple[Term, int], ...]:
        _, sizes, _ = self.enc.slot_cells(name)
        return tuple((t, n) for t, n in zip(index, sizes) if not z3.is_int_value(t))

    def _family(self, name: str) -> range:
        slot = self.layout.slots[name]
        return range(slot.offset, slot.offset + slot.count)


# rule text -> (the names its expressions use, the procedures it calls), see fingerprint
_RULE_SHAPES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}


def _stmts_of(stmts: Iterable[M.AnyStmt]) -> Iterable[M.AnyStmt]:
    for s in stmts:
        yield s
        if isinstance(s, M.IfStmt):
            yield from _stmts_of(s.then)
            yield from _stmts_of(s.other)
        elif isinstance(s, M.ForStmt):
            yield from _stmts_of(s.body)
        elif isinstance(s, M.MenuStmt):
            for o in s.options:
                yield from _stmts_of(o.body)


def _exprs_of(obj: Any) -> Iterable[E.Expr]:
    """Every expression inside a rule (statements, options, templates, contracts)."""
    if isinstance(obj, (tuple, list)):
        for x in obj:
            yield from _exprs_of(x)
    elif isinstance(obj, (E.Num, E.Bool, E.NoneLit, E.Name, E.Qualified, E.Index, E.Call, E.ListLit, E.Quant,
                          E.Unary, E.Binary, E.Cond)):
        yield obj
    elif attrs.has(type(obj)):
        for f in attrs.fields(type(obj)):
            if f.name not in ("where", "sources", "formal_at", "on_where"):
                yield from _exprs_of(getattr(obj, f.name))


def _name(e: E.Expr) -> str:
    return getattr(e, "name", None) or getattr(e, "id")
