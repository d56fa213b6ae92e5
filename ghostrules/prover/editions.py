"""Where two overlays of one game (two editions) part ways, found by Z3 and replayed in the engine.

Given the specs of one configuration under two overlays ``a`` and ``b`` (same state layout), this
module:

1. lists what the overlays change: constants, definitions, the formal part of rules, the score
   sheet (``changed``); each change keeps the difference (ED-n) its overlay entry cites;
2. finds every *site* that reads a changed construct, directly or through other definitions: a
   trigger's ``when``, a procedure's ``requires``, an ``if`` test, a ``let``/``set``/``move`` value,
   a call's arguments, a decision option's guard, a chance node's condition (``sites``). Each
   site is encoded twice, with the encoder of ``a`` and of ``b``, over the same symbolic pre-state
   and with the facts the enclosing rule checked before it (``local.LocalProver``);
3. asks Z3 for a pre-state (every slot in range, every pool at its total, the boundary invariants,
   the cells the site does not read equal to a concrete base position, as few others changed as
   possible) and parameters for which the two encodings differ (``solve``);
4. replays that position in the engine under both overlays, in lockstep, until what the two
   engines show differs: the result, the prompt, the options or outcomes offered, or a slot value
   (``replay``). Only then does the difference count as shown to matter.

No game is named here; a proof file supplies the game, the overlays and the base position.
"""

from __future__ import annotations

import itertools
import time
from typing import Any, Iterable

import attrs
import z3

from ..engine import Game, State
from ..spec import expr as E
from ..spec import model as M
from ..spec.model import GameSpec, Where
from .local import Fact, LocalProver
from .symbolic import Encoder, Scope, Term, fresh_state, names_in, range_facts

_finders = itertools.count()
# ask Z3 for as few changed cells as possible (z3.Optimize; slower) rather than any position (z3.Solver)
MINIMAL = True


@attrs.define
class Change:
    difference: str
    kind: str          # constant, define, rule, score
    name: str


@attrs.define
class Site:
    """One place where a changed construct is read, encoded under both overlays."""

    change: Change
    rule: str
    kind: str                      # when, requires, if, let, set, move, call, option, random, for, score
    text: str                      # the expression, rendered
    procedure: str                 # the engine procedure whose run reaches the site
    params: tuple[tuple[str, str], ...]
    param_terms: dict[str, Term]
    facts: list[Fact]
    differs: Term                  # true when the two readings disagree
    reads: frozenset[str]
    hints: list[Term] = attrs.Factory(list)   # guards of options taken before the site (on entry)
    hint_reads: frozenset[str] = frozenset()
    state: list[Term] = attrs.Factory(list)   # the state the site reads (the entry, or a havoc after a call)
    state_facts: list[Term] = attrs.Factory(list)
    assumed: list[E.Expr] = attrs.Factory(list)
    free_too: set[str] = attrs.Factory(set)     # further slot families Z3 may change
    where: Where | None = None                  # the spec file and line of the site (None: the score sheet)


@attrs.define
class Divergence:
    """Where the two engines part: the actions both took, then what each showed."""

    actions: list[str]
    what: str
    shown_a: Any
    shown_b: Any


@attrs.define
class Witness:
    site: Site
    values: list[int]              # the pre-state Z3 chose (flat slot values)
    args: dict[str, Any]           # the procedure's arguments (symbols or ints)
    changed: dict[str, str]        # the cells that differ from the base position, readable
    divergence: Divergence
    start_a: State
    start_b: State
    seconds: float


# ---- what the overlays change -----------------------------------------------------------------


def _defines(spec: GameSpec) -> dict[str, Any]:
    out: dict[str, Any] = {r.name: r for r in spec.rules if r.kind == "define"}
    out.update({d.name: d for d in spec.definitions})
    return out


def _formal(rule: M.Rule) -> Any:
    return (rule.kind, rule.on, rule.when, rule.body, rule.requires, rule.params)


def changed(a: GameSpec, b: GameSpec) -> list[Change]:
    """The constructs whose formal content differs between the two specs, each with its difference."""
    cites: dict[str, str] = {}
    for spec in (a, b):
        for c in spec.changes:
            if c.kind in ("constant", "define", "replace", "add", "remove", "score"):
                cites.setdefault(c.target, c.difference)
    out: list[Change] = []
    ca, cb = dict(a.constants), dict(b.constants)
    for name in sorted(set(ca) | set(cb)):
        if ca.get(name) != cb.get(name):
            out.append(Change(cites.get(name, ""), "constant", name))
    da, db = _defines(a), _defines(b)
    for name in sorted(set(da) | set(db)):
        x, y = da.get(name), db.get(name)
        if x is None or y is None or x.value != y.value or tuple(x.params) != tuple(y.params):
            out.append(Change(cites.get(name, ""), "define", name))
    ra = {r.id: r for r in a.rules if r.kind in ("trigger", "procedure")}
    rb = {r.id: r for r in b.rules if r.kind in ("trigger", "procedure")}
    for rid in sorted(set(ra) | set(rb)):
        x, y = ra.get(rid), rb.get(rid)
        if x is None or y is None or _formal(x) != _formal(y):
            out.append(Change(cites.get(rid, ""), "rule", rid))
    if [(s.label, s.value) for s in a.score] != [(s.label, s.value) for s in b.score]:
        out.append(Change(cites.get("score", ""), "score", "score"))
    return out


class _Uses:
    """Which changed names an expression reads, through the definitions of either spec."""

    def __init__(self, specs: Iterable[GameSpec], names: dict[str, Change]) -> None:
        self.defs: dict[str, set[str]] = {}
        for spec in specs:
            for n, d in _defines(spec).items():
                self.defs.setdefault(n, set()).update(names_in([d.value]))
        self.names = names
        self._memo: dict[str, frozenset[str]] = {}

    def of_name(self, name: str) -> frozenset[str]:
        if name not in self._memo:
            self._memo[name] = frozenset()
            hit = {name} if name in self.names else set()
            for sub in self.defs.get(name, ()):
                hit |= self.of_name(sub)
            self._memo[name] = frozenset(hit)
        return self._memo[name]

    def of(self, e: E.Expr | None) -> frozenset[str]:
        out: set[str] = set()
        for n in names_in([e] if e is not None else []):
            out |= self.of_name(n)
        return frozenset(out)


def hybrid(a: GameSpec, b: GameSpec, difference: str) -> GameSpec:
    """Spec ``b`` with only the constructs of one difference taken from ``a``: replaying ``b``
    against it shows the consequences of that difference alone."""
    picked = [c for c in changed(a, b) if c.difference == difference]
    names = {c.name for c in picked if c.kind in ("define", "constant")}
    rule_ids = {c.name for c in picked if c.kind == "rule"}
    constants = dict(b.constants)
    constants.update({n: v for n, v in a.constants if n in names})
    a_defs = {d.name: d for d in a.definitions}
    definitions = tuple(a_defs.get(d.name, d) if d.name in names else d for d in b.definitions)
    a_rules = {r.id: r for r in a.rules}
    a_define_rules = {r.name: r for r in a.rules if r.kind == "define"}
    rules = []
    for r in b.rules:
        if r.id in rule_ids and r.id in a_rules:
            rules.append(a_rules[r.id])
        elif r.kind == "define" and r.name in names and r.name in a_define_rules:
            rules.append(a_define_rules[r.name])
        else:
            rules.append(r)
    rules += [a_rules[i] for i in rule_ids if i in a_rules and all(r.id != i for r in b.rules)]
    score = a.score if any(c.kind == "score" for c in picked) else b.score
    return attrs.evolve(b, constants=tuple(constants.items()), definitions=definitions, rules=tuple(rules),
                        score=score)


# ---- the sites ----------------------------------------------------------------------------------


class SiteFinder(LocalProver):
    """Walks the rules of spec ``b`` with the local facts, and encodes each site under ``a`` and ``b``."""

    def __init__(self, a: GameSpec, b: GameSpec, game_b: Game) -> None:
        super().__init__(b, game_b.layout)
        self.enc.atom_limit = None  # the witness search reads definitions in full
        self.enc_a = Encoder(a, game_b.layout)
        self.spec_a = a
        self.changes = changed(a, b)
        self.by_name = {c.name: c for c in self.changes if c.kind in ("constant", "define")}
        self.uses = _Uses((a, b), self.by_name)
        self.sites: list[Site] = []
        self.rule: M.Rule | None = None
        self.param_terms: dict[str, Term] = {}
        self.hints: list[Term] = []
        self.hint_reads: frozenset[str] = frozenset()
        self.entry = self.state          # the state the procedure starts from
        # ranges, pool totals and boundary invariants of the entry state (computed once, here)
        self.entry_facts: list[Term] = list(self.base) + list(self.base_inv)
        self.state_facts: list[Term] = []  # ranges, totals, invariants of the states after a havoc
        # the k-th havoc of a rule's walk is the same state in every rule (no formula mixes two
        # rules' walks): what is encoded over it, and its facts, are encoded once
        self._havoc_states: list[list[Term]] = []
        self._havoc_facts: dict[int, list[Term]] = {}
        self._havoc_count = 0
        self._prefix = f"h{next(_finders)}_"
        # a definition both specs define alike is encoded once for both
        self.enc_a.share_definitions(self.enc)

    # the procedure the engine runs to reach a statement of the current rule
    def _target(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        rule = self.rule
        assert rule is not None
        if rule.kind == "procedure":
            return rule.name, tuple(rule.params)
        ev = self.events[rule.on]
        return f"event:{ev.name}", tuple(ev.params)

    def _both(self, e: E.Expr, scope: Scope) -> tuple[Term, Term]:
        ta, _ = self.enc_a.encode(e, self.state, scope)  # the current state: the entry or a havoc
        tb, _ = self.enc.encode(e, self.state, scope)
        if z3.is_bool(ta) or z3.is_bool(tb):
            return self.enc.as_bool(ta), self.enc.as_bool(tb)
        return ta, tb

    def site(self, kind: str, e: E.Expr | None, facts: list[Fact], scope: Scope, rule: str,
             extra: list[Fact] | None = None, differs: Term | None = None, change: Change | None = None,
             where: Where | None = None) -> None:
        hits = self.uses.of(e) if e is not None else frozenset()
        if change is None:
            if not hits:
                return
            change = self.by_name[sorted(hits)[0]]
        if differs is None:
            assert e is not None
            ta, tb = self._both(e, scope)
            differs = ta != tb
        proc, params = self._target()
        self.sites.append(Site(change, rule, kind, e.render() if e is not None else "", proc, params,
                               dict(self.param_terms), list(facts) + list(extra or []), differs,
                               self.reads(e) if e is not None else frozenset(), list(self.hints),
                               self.hint_reads, self.state, list(self._facts_of_state()), where=where))

    def kill(self, facts: list[Fact], written: Iterable[str] | None) -> list[Fact]:  # type: ignore[override]
        """After a call, an event or a loop that calls out, anything may have changed: later sites
        read a fresh state (a havoc), linked to the entry state only by the hints."""
        if written is None:
            self._havoc()
        return LocalProver.kill(facts, written)

    def _havoc(self) -> None:
        k = self._havoc_count
        self._havoc_count += 1
        if k == len(self._havoc_states):
            self._havoc_states.append(fresh_state(self.layout, f"{self._prefix}{k}_"))
        self.state = self._havoc_states[k]
        self.state_facts = None  # type: ignore[assignment]  # computed when a site reads this state

    def _facts_of_state(self) -> list[Term]:
        if self.state_facts is None:
            known = self._havoc_facts.get(id(self.state))
            if known is None:
                known = list(range_facts(self.layout, self.state))
                for pool in self.spec.pools:
                    known += [t == pool.total for t in self._totals(self.state, pool)]
                known += [self.enc.as_bool(self.enc.encode(inv.holds, self.state, {})[0]) for inv in self.boundary]
                self._havoc_facts[id(self.state)] = known
            self.state_facts = known
        return self.state_facts

    # ---- no obligations: only the facts matter here -----------------------------------------
    def oblige(self, *args: Any, **kw: Any) -> None:
        return None

    def check_write(self, *args: Any, **kw: Any) -> None:
        return None

    def _post(self, name: str, index: list[Term], new_value_of: Any, base: list[Term] | None = None) -> list[Term]:
        return list(self.state if base is None else base)

    def menu(self, s: M.MenuStmt, facts: list[Fact], scope: Scope) -> list[Fact]:
        """Walk every option's body with its guard; afterwards the guard of the option taken is a hint."""
        taken = []
        for opt in s.options:
            inner_facts = list(facts)
            if opt.var is not None and opt.domain is not None:
                inner_facts += self.bind(opt.var, opt.domain, scope)
            guard = self.cond(opt.cond, scope) if opt.cond is not None else z3.BoolVal(True)
            if opt.cond is not None:
                inner_facts.append(Fact(guard, self.reads(opt.cond)))
            taken.append(z3.And([f.term for f in inner_facts[len(facts):]] or [z3.BoolVal(True)]))
            self.hint_reads |= self.reads(opt.cond)
            self.block(opt.body, inner_facts, scope)
        # the engine refuses a decision without options: some option was offered on entry
        self.hints.append(z3.Or(taken) if taken else z3.BoolVal(False))
        return self.kill(facts, self._writes_of_options(s))

    def _random(self, s: M.RandomStmt, facts: list[Fact], scope: Scope) -> list[Fact]:
        kept = facts + self.bind(s.var, s.domain, scope)
        if s.cond is not None:
            kept.append(Fact(self.cond(s.cond, scope), self.reads(s.cond)))
        return kept

    # ---- walking -------------------------------------------------------------------------------
    def walk(self) -> list[Site]:
        for rule in self.spec.rules:
            if rule.kind in ("procedure", "trigger") and self._mentions(rule):
                self.walk_rule(rule)
        self._replaced_triggers()
        return self.sites

    def walk_lazily(self, wanted: Any) -> Iterable[list[Site]]:
        """The sites rule by rule, walking only rules that read a change whose difference is still in
        ``wanted`` (a live set: the caller removes a difference once shown)."""
        self._replaced_triggers()
        yield [s for s in self.sites if s.change.difference in wanted]
        for rule in self.spec.rules:
            if rule.kind in ("procedure", "trigger"):
                hit = {self.by_name[n].difference for n in self._mentions(rule, names=True)}
                if hit & set(wanted):
                    self.sites = []
                    self.walk_rule(rule)
                    yield [s for s in self.sites if s.change.difference in wanted]

    def _mentions(self, rule: M.Rule, names: bool = False) -> Any:
        exprs: list[E.Expr | None] = [rule.when, rule.requires]
        stack: list[Any] = list(rule.body)
        while stack:
            s = stack.pop()
            for f in ("cond", "value", "amount", "domain", "target", "source", "by"):
                x = getattr(s, f, None)
                if isinstance(x, tuple(_EXPR_TYPES)):
                    exprs.append(x)
            for _, x in getattr(s, "args", ()):
                exprs.append(x)
            for f in ("then", "other", "body"):
                stack.extend(getattr(s, f, ()) or ())
            for o in getattr(s, "options", ()) or ():
                exprs.extend([o.cond, o.domain])
                stack.extend(o.body)
        if names:
            return set().union(*[self.uses.of(x) for x in exprs if x is not None])
        return any(self.uses.of(x) for x in exprs if x is not None)

    def _start(self, rule: M.Rule, params: Iterable[tuple[str, str]]) -> tuple[Scope, list[Fact]]:
        """A fresh walk of ``rule`` from the entry state: its parameters as symbols (none of them
        none), no hints yet."""
        self.rule = rule
        scope: Scope = {}
        facts: list[Fact] = []
        self.param_terms = {}
        self.hints = []
        self.hint_reads = frozenset()
        self.state = self.entry
        self.state_facts = []
        self._havoc_count = 0
        for name, t in params:
            term, dom = self.fresh(name, t, may_be_none=False)
            scope[name] = (term, t)
            self.param_terms[name] = term
            facts.append(Fact(dom, frozenset()))
        return scope, facts

    def walk_rule(self, rule: M.Rule) -> None:
        self.proc_name = rule.name if rule.kind == "procedure" else f"rule:{rule.id}"
        scope, facts = self._start(rule, rule.params if rule.kind == "procedure" else self.events[rule.on].params)
        for kind, e in (("requires", rule.requires), ("when", rule.when if rule.kind == "trigger" else None)):
            if e is not None:
                self.site(kind, e, facts, scope, rule.id, where=rule.where)
                facts.append(Fact(self.cond(e, scope), self.reads(e)))
        self.block(rule.body, facts, scope)

    def stmt(self, s: M.AnyStmt, facts: list[Fact], scope: Scope) -> list[Fact]:
        if isinstance(s, M.IfStmt):
            self.site("if", s.cond, facts, scope, s.rule, where=s.where)
        elif isinstance(s, M.LetStmt):
            self.site("let", s.value, facts, scope, s.rule, where=s.where)
        elif isinstance(s, M.SetStmt):
            self.site("set", s.value, facts, scope, s.rule, where=s.where)
        elif isinstance(s, M.MoveStmt) and s.amount is not None:
            self.site("move", s.amount, facts, scope, s.rule, where=s.where)
        elif isinstance(s, (M.CallStmt, M.EmitStmt)):
            for _, x in s.args:
                self.site("call", x, facts, scope, s.rule, where=s.where)
        elif isinstance(s, (M.ForStmt, M.RandomStmt)) and s.cond is not None and self.uses.of(s.cond):
            inner = dict(scope)
            bound = self.bind(s.var, s.domain, scope, into=inner)
            self.site("for" if isinstance(s, M.ForStmt) else "random", s.cond, facts, inner, s.rule, extra=bound,
                      where=s.where)
        elif isinstance(s, M.MenuStmt):
            for opt in s.options:
                if opt.cond is None or not self.uses.of(opt.cond):
                    continue
                inner = dict(scope)
                extra: list[Fact] = []
                if opt.var is not None and opt.domain is not None:
                    extra = self.bind(opt.var, opt.domain, scope, into=inner)
                self.site("option", opt.cond, facts, inner, opt.rule, extra=extra, where=s.where)
        if isinstance(s, M.MenuStmt):
            return self.menu(s, facts, scope)
        if isinstance(s, M.RandomStmt):
            return self._random(s, facts, scope)
        return super().stmt(s, facts, scope)

    def _replaced_triggers(self) -> None:
        """A trigger present (or different) in one spec only: does it fire where the other's does not?"""
        mine = {r.id: r for r in self.spec.rules}
        theirs = {r.id: r for r in self.spec_a.rules}
        for c in self.changes:
            if c.kind != "rule":
                continue
            ra, rb = theirs.get(c.name), mine.get(c.name)
            trig = ra if ra is not None and ra.kind == "trigger" else rb if rb is not None and rb.kind == "trigger" else None
            if trig is None:
                continue
            scope, facts = self._start(trig, self.events[trig.on].params)

            def fires(rule: M.Rule | None, enc: Encoder) -> Term:
                if rule is None or rule.kind != "trigger" or rule.on != trig.on:
                    return z3.BoolVal(False)
                if rule.when is None:
                    return z3.BoolVal(True)
                return enc.as_bool(enc.encode(rule.when, self.state, scope)[0])
            differs = fires(ra, self.enc_a) != fires(rb, self.enc)
            self.site("fires", trig.when, facts, scope, trig.id, differs=differs, change=c, where=trig.where)


_EXPR_TYPES = (E.Num, E.Bool, E.NoneLit, E.Name, E.Qualified, E.Index, E.Call, E.ListLit, E.Quant, E.Unary,
               E.Binary, E.Cond)


def score_site(finder: SiteFinder, a: GameSpec, b: GameSpec, change: Change) -> Site:
    """The score sheets as one site: the totals of the two sheets on the same position."""
    def total(spec: GameSpec, enc: Encoder) -> Term:
        return z3.Sum([enc.as_int(enc.encode(line.value, finder.state, {})[0]) for line in spec.score])
    differs = total(a, finder.enc_a) != total(b, finder.enc)
    reads: frozenset[str] = frozenset()
    for spec in (a, b):
        for line in spec.score:
            reads |= finder.reads(line.value)
    return Site(change, "score", "score", "the score sheet's total", "", (), {}, [], differs, reads)


# ---- solving ------------------------------------------------------------------------------------


def solve(finder: SiteFinder, site: Site, base: list[int], timeout_ms: int,
          extra: list[Term] | None = None, hinted: bool = False) -> tuple[str, z3.ModelRef | None]:
    """A pre-state near ``base`` where the site's two readings differ: (sat|unsat|unknown, model).

    The cells of slot families the site and its facts do not read stay at the base values; the
    others may change, as few as possible (soft constraints), within ranges, pool totals and the
    boundary invariants. ``extra`` adds assumptions (hints, blocked models)."""
    free = set(site.reads)
    for f in site.facts:
        free |= f.reads
    for e in site.assumed:
        free |= finder.reads(e)
    if hinted:
        free |= site.hint_reads
    free |= site.free_too
    if site.state is not finder.entry:  # the site reads a state after a call: only the hints bind the entry
        free = set().union(*[finder.reads(e) for e in site.assumed]) | (site.hint_reads if hinted else set())
        free |= site.free_too
    layout = finder.layout
    for pool in finder.spec.pools:  # a pool cell that may change takes its supply along
        if free & set(pool.cells):
            free |= set(pool.cells)
    # minimal changes (Optimize) where the site reads the entry; a havoc'd site is solved plainly
    minimal = MINIMAL
    opt: Any = z3.Optimize() if minimal else z3.Solver()
    opt.set("timeout", timeout_ms)
    opt.add(finder.entry_facts)
    opt.add([f.term for f in site.facts])
    opt.add(site.differs)
    opt.add(site.state_facts)
    opt.add(extra or [])
    if hinted:
        opt.add(site.hints)
    for name, slot in layout.slots.items():
        for k in range(slot.count):
            flat = slot.offset + k
            if name in free:
                if minimal:
                    opt.add_soft(finder.entry[flat] == base[flat])
            else:
                opt.add(finder.entry[flat] == base[flat])
    answer = opt.check()
    if answer == z3.sat:
        return "sat", opt.model()
    return ("unsat" if answer == z3.unsat else "unknown"), None


def assume(finder: SiteFinder, site: Site, text: str, frees: bool = True) -> Term:
    """A condition-language assumption about the site's pre-state and the procedure's parameters.

    With ``frees`` the cells it reads may move away from the base position (a hint); without, it
    only constrains cells the site frees anyway (a consistency check the base already meets)."""
    e = E.parse(text)
    if frees:
        site.assumed.append(e)
    scope: Scope = {n: (site.param_terms[n], t) for n, t in site.params}
    return finder.enc.as_bool(finder.enc.encode(e, finder.entry, scope)[0])


def model_values(finder: SiteFinder, model: z3.ModelRef) -> list[int]:
    return [model.eval(t, model_completion=True).as_long() for t in finder.entry]


def model_args(finder: SiteFinder, site: Site, model: z3.ModelRef) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, t in site.params:
        v = model.eval(site.param_terms[name], model_completion=True)
        n = v.as_long() if z3.is_int_value(v) else int(z3.is_true(v))
        out[name] = n if t in ("int", "bool") else finder.layout.symbol(t, n)
    return out


# ---- replaying ----------------------------------------------------------------------------------


def observe(state: State) -> tuple[Any, ...]:
    """What a player sees at a pause: the result, or the prompt with the options or outcomes."""
    if state.is_terminal():
        o = state.outcome()
        return ("over", o.result, o.rule_id)
    if state.is_chance_node():
        return ("chance", state.prompt(), tuple(sorted(a.label for a, _ in state.chance_outcomes())))
    return ("decide", state.prompt(), tuple(sorted(a.label for a in state.legal_actions())))


def _first_difference(sa: State, sb: State) -> tuple[str, Any, Any] | None:
    oa, ob = observe(sa), observe(sb)
    if oa != ob:
        if oa[0] != ob[0] or oa[1] != ob[1]:
            return "what happens next", oa[:2], ob[:2]
        only_a = sorted(set(oa[2]) - set(ob[2]))
        only_b = sorted(set(ob[2]) - set(oa[2]))
        return f"the {'options' if oa[0] == 'decide' else 'outcomes'} of '{oa[1]}'", only_a, only_b
    if sa.values != sb.values:
        layout = sa.game.layout
        cells = [i for i, (x, y) in enumerate(zip(sa.values, sb.values)) if x != y]
        show = lambda s: {layout.name_of(i): s.get(*_ref(layout, i)) for i in cells[:6]}  # noqa: E731
        return "the position", show(sa), show(sb)
    return None


def _ref(layout: Any, flat: int) -> tuple[Any, ...]:
    name, key = layout.owner[flat]
    var = layout.slots[name].var
    return (name, *[layout.symbol(d, k) for d, k in zip(var.index, key)])


def _moves(state: State) -> list[str]:
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return [a.label for a, _ in state.chance_outcomes()]
    return [a.label for a in state.legal_actions()]


def replay(start_a: State, start_b: State, budget: int = 300, depth: int = 8) -> Divergence | None:
    """Run both positions in lockstep, breadth first over the actions both offer, until they differ.

    Each new pair of positions is compared as soon as it is made. Returns the first divergence found
    (the common actions, then what each engine shows), or None when none shows within ``depth``
    actions and ``budget`` positions."""
    diff = _first_difference(start_a, start_b)
    if diff is not None:
        return Divergence([], diff[0], diff[1], diff[2])
    queue = [(start_a, start_b, [])]
    count = 0
    while queue:
        sa, sb, path = queue.pop(0)
        if len(path) >= depth or sa.is_terminal():
            continue
        for label in _moves(sa):
            count += 1
            if count > budget:
                return None
            na, nb = sa.clone(), sb.clone()
            na.apply_action(label)
            nb.apply_action(label)
            diff = _first_difference(na, nb)
            if diff is not None:
                return Divergence(path + [label], diff[0], diff[1], diff[2])
            queue.append((na, nb, path + [label]))
    return None


def follow(start_a: State, start_b: State, actions: list[str]) -> Divergence | None:
    """Apply the same actions to both positions; the first point where they differ (or None)."""
    sa, sb = start_a.clone(), start_b.clone()
    done: list[str] = []
    for label in [None, *actions]:
        if label is not None:
            sa.apply_action(label)
            sb.apply_action(label)
            done.append(label)
        diff = _first_difference(sa, sb)
        if diff is not None:
            return Divergence(done, diff[0], diff[1], diff[2])
    return None


def find_witness(finder: SiteFinder, site: Site, game_a: Game, game_b: Game, bases: list[Any],
                 timeout_ms: int, extra: list[Term] | None = None, attempts: int = 2) -> tuple[str, Witness | None]:
    """Solve the site near each base position, build it under both overlays, replay; retry on a miss.

    The guards of the options taken before the site (``site.hints``) are assumed first, dropped if
    that leaves no position."""
    t0 = time.perf_counter()
    status = "unsat"
    notes: list[str] = []
    for entry in bases:
        # a base is a list of values, or (values, assumptions that hold near it)
        base, near = (entry if isinstance(entry, tuple) else (entry, []))
        for hinted in (True, False):
            blocked: list[Term] = []
            for _ in range(attempts):
                status, model = solve(finder, site, base, timeout_ms, list(extra or []) + list(near) + blocked, hinted)
                if model is None:
                    break
                values = model_values(finder, model)
                args = model_args(finder, site, model)
                try:
                    states = [game.state_at(site.procedure, args, State(game, list(values), [], False), stop=True)
                              for game in (game_a, game_b)]
                    div = replay(states[0], states[1])
                except Exception as exc:  # the engine refuses the position: note it, ask for another
                    notes.append(str(exc))
                    div = None
                if div is not None:
                    layout = finder.layout
                    cells = {layout.name_of(i): layout.label(layout.slots[layout.owner[i][0]].var.type, v)
                             for i, (v, b) in enumerate(zip(values, base)) if v != b}
                    return "sat", Witness(site, values, args, cells, div, states[0], states[1],
                                          time.perf_counter() - t0)
                blocked.append(z3.Or([t != v for t, v in zip(finder.entry, values)] +
                                     [site.param_terms[n] != model.eval(site.param_terms[n], model_completion=True)
                                      for n, _ in site.params]))
                status = "unknown"
            if not site.hints:
                break
    return status, None
