"""Solve one proof obligation with Z3 (behind ``runner``, which runs them for every configuration).

Each obligation is solved with only the facts it can use: the ranges, pool totals and invariants of
the slot families its formulas read (the other slots are unconstrained, so leaving their facts out
cannot change the answer's validity: a proof stays a proof). An invariant obligation is first
proved for one instance of its invariant (``LocalProver.instance_goal`` says why that is sound), and
only then as stated. A failure keeps the solver's first model, made a plausible position on demand.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterable

import attrs
import z3

from ..engine.layout import Layout
from ..spec.model import GameSpec
from .local import LocalProver, Obligation
from .symbolic import atom_definitions

KINDS = ("conservation", "range", "invariant", "requires", "options")
# Kinds whose every obligation must be proved for `prove` to pass: all of them.
ENFORCED = KINDS


@attrs.define
class Result:
    obligation: Obligation
    status: str  # proved, failed, unknown
    seconds: float
    counterexample: dict[str, Any] = attrs.field(factory=dict)
    values: dict[int, int] | None = None   # the counterexample's slots that matter (flat -> value)
    call: dict[str, int] | None = None     # the procedure's parameters in the counterexample
    raw: bool = False                      # a failure's first model, not yet made plausible (see solve)


def set_up_values(spec: GameSpec) -> list[int]:
    """The values of a set-up position of the game (the real one, from specs/, so that a broken copy
    of a spec still has one), or the declared initial values if there is none."""
    try:
        import ghostrules
        game = ghostrules.load_game(spec.name, **dict(spec.settings))
        state = game.new_initial_state()
        for _ in range(10_000):
            if state.is_terminal() or not state.is_chance_node():
                break
            state.apply_action(state.chance_outcomes()[0][0])
        if len(state.values) == Layout(spec).size:
            return list(state.values)
    except Exception:  # noqa: BLE001 - no engine game for this spec: the declared initial values
        pass
    return Layout(spec).initial_values()


def readable_model(model: z3.ModelRef, prover: LocalProver, ob: Obligation, base: list[int] | None = None
                   ) -> dict[str, Any]:
    """The counterexample as named slot values: those the obligation reads that differ from the
    set-up position ``base`` (default: the initial state)."""
    layout = prover.layout
    init = base if base is not None else layout.initial_values()
    out: dict[str, Any] = {}
    cone = _cone(prover, ob)
    for flat, term in enumerate(prover.state):
        if flat not in cone:
            continue  # a slot the obligation does not read: any value will do
        v = model.eval(term, model_completion=True).as_long()
        if v != init[flat]:
            name, _ = layout.owner[flat]
            out[layout.name_of(flat)] = layout.label(layout.slots[name].var.type, v)
    for local, (term, t) in ob.locals.items():
        val = model.eval(term, model_completion=True)
        if z3.is_int_value(val):
            out[f"local {local}"] = layout.label(t, val.as_long()) if t not in ("int", "bool") else val.as_long()
        elif z3.is_true(val) or z3.is_false(val):
            out[f"local {local}"] = z3.is_true(val)
    return out


def _cone(prover: LocalProver, ob: Obligation) -> set[int]:
    """The flat slots the obligation reads, with the other cells of their pools."""
    families = set(ob.families)
    for pool in prover.spec.pools:
        if families & set(pool.cells):
            families |= set(pool.cells)
    out: set[int] = set()
    for name in families:
        slot = prover.layout.slots.get(name)
        if slot is not None:
            out.update(range(slot.offset, slot.offset + slot.count))
    return out


def _model_values(model: z3.ModelRef, prover: LocalProver, ob: Obligation) -> tuple[dict[int, int], dict[str, int]]:
    """The slots the obligation reads (and the other cells of their pools), and the call's arguments."""
    values = {flat: model.eval(prover.state[flat], model_completion=True).as_long() for flat in sorted(_cone(prover, ob))}
    call: dict[str, int] = {}
    for name in ob.params:
        if name in ob.locals:
            val = model.eval(ob.locals[name][0], model_completion=True)
            call[name] = val.as_long() if z3.is_int_value(val) else int(z3.is_true(val))
    return values, call


_BASES: dict[Any, list[int]] = {}


class Facts:
    """The background facts of one configuration, by slot family (built once, shared by all)."""

    def __init__(self, prover: LocalProver) -> None:
        # built lazily, by family: most obligations read a few families, and many configurations
        # have no obligation left to solve once their rules' fingerprints were seen elsewhere
        self._ranges: dict[str, list[Any]] = {}
        self._pools: list[tuple[frozenset[str], list[Any]]] | None = None
        self._invariants: list[tuple[frozenset[str], Any]] | None = None
        self._invariant_reads = [prover.reads(inv.holds) for inv in prover.boundary]
        self.prover = prover
        self._checks: list[tuple[frozenset[str], Any]] | None = None

    def range_of(self, name: str) -> list[Any]:
        if name not in self._ranges:
            slot = self.prover.layout.slots.get(name)
            if slot is None:
                self._ranges[name] = []
            else:
                var, state = slot.var, self.prover.state
                self._ranges[name] = [z3.And(t >= var.lo, t <= var.hi)
                                      for t in state[slot.offset:slot.offset + slot.count]]
        return self._ranges[name]

    @property
    def pools(self) -> list[tuple[frozenset[str], list[Any]]]:
        if self._pools is None:
            prover = self.prover
            self._pools = [(frozenset(p.cells), [t == p.total for t in prover._totals(prover.state, p)])
                           for p in prover.spec.pools]
        return self._pools

    @property
    def invariants(self) -> list[tuple[frozenset[str], Any]]:
        if self._invariants is None:
            enc, state = self.prover.enc, self.prover.state
            self._invariants = [(reads, enc.as_bool(enc.encode(inv.holds, state, {})[0]))
                                for reads, inv in zip(self._invariant_reads, self.prover.boundary)]
        return self._invariants

    def base_values(self) -> list[int]:
        """A set-up position of the real game (first outcome of every setup chance node): what a
        counterexample is shown against, and what its other slots are taken from."""
        if not hasattr(self, "_base"):
            spec = self.prover.spec
            key = (spec.name, str(spec.root), repr(sorted(dict(spec.settings).items())), self.prover.layout.size)
            if key not in _BASES:
                _BASES[key] = set_up_values(spec)
            self._base = _BASES[key]
        return self._base

    def checks(self) -> list[tuple[frozenset[str], Any]]:
        """The sanity checks a scenario file must pass (specs/<game>/scenario.yaml), as formulas:
        a counterexample that satisfies them loads as a scenario. Checks the encoder cannot read
        are left out."""
        if self._checks is None:
            from ..spec import expr as E
            from ..spec.source import load_yaml_file
            self._checks = []
            path = Path(self.prover.spec.root) / "scenario.yaml"
            if path.exists():
                doc = load_yaml_file(path)
                for check in (doc or {}).get("checks") or []:
                    try:
                        e = E.parse(str(check["holds"]))
                        term = self.prover.enc.as_bool(self.prover.enc.encode(e, self.prover.state, {})[0])
                    except Exception:  # noqa: BLE001 - a check in words the encoder does not know
                        continue
                    self._checks.append((self.prover.reads(e), term))
        return self._checks

    def needs_invariants(self, families: frozenset[str]) -> bool:
        return any(reads & families for reads in self._invariant_reads)

    def for_families(self, families: frozenset[str], invariants: bool = True, skip: int | None = None) -> list[Any]:
        """The ranges, pool totals and (with ``invariants``) boundary invariants, but the one at
        index ``skip``, of these slot families and of those they pull in."""
        wanted = set(families)
        out: list[Any] = []
        for cells, totals in self.pools:
            if cells & wanted:
                wanted |= cells
                out += totals
        for index, (reads, holds) in enumerate(self.invariants if invariants else ()):
            if index == skip:
                continue
            if reads & wanted:
                out.append(holds)
                wanted |= reads
        for name in sorted(wanted):
            out += self.range_of(name)
        return out


class Solved:
    """Answers by formula: equal obligations (same assumptions, goal and facts) are solved once.
    Z3 shares equal terms within a context, so a formula is keyed by its terms' ids (the terms are
    kept alive here, so the ids stay theirs)."""

    def __init__(self) -> None:
        self.answers: dict[Any, tuple[Any, Result]] = {}
        self.hits = 0


# The limits are Z3 resource limits (rlimit), not wall-clock timeouts, so that an obligation's answer
# (proved, failed, unknown) does not depend on how loaded the machine is: a check stops after the same
# amount of work whatever the clock says. Every budget of this module is still stated in milliseconds
# (``timeout_ms``, the CLI's --timeout-ms), converted at RLIMIT_PER_MS units a millisecond. Calibrated
# on the reference machine (2 cores, 2026-12-01) over every check above 20 ms of CPU, in units per CPU
# millisecond: Betrayal's call contracts, median 1183 (p25 661, p75 1496); Ghost Stories' default
# configuration, median 2696 (p25 2200, p75 5051). 2000 lies between: a budget is roughly the time
# it used to be. A check counts its units from where it starts (z3's scoped limit), so the limit is
# per check, as the timeout was. No wall-clock cap is kept: Z3 reads its timeout's flag where it
# counts units, so a check neither stops in between; a phase that counts few units goes on longer
# for the same budget (one check of Betrayal's default contracts ran 61 s of CPU, past its 15 s
# timeout, at 111 units a millisecond). One caveat: Z3 numbers its terms as they are made,
# and with several worker processes the order in which a worker made its terms depends on which
# rules it solved before, so a proof near its limit may still go either way between two runs.
RLIMIT_PER_MS = 2000


def rlimit(ms: float) -> int:
    """The resource limit for a budget of ``ms`` reference milliseconds (never 0: that means no
    limit to Z3)."""
    return max(1, int(ms * RLIMIT_PER_MS))


def _limit(solver: Any, ms: float) -> None:
    solver.set("rlimit", rlimit(ms))


def _check(facts_list: list[Any], ob: Obligation, timeout_ms: int) -> tuple[Any, z3.Solver]:
    """Is the obligation proved (unsat)? Large definitions are atoms (Encoder.atom_limit): first
    without their meaning (a proof that does not need it is a proof), then with it."""
    solver = z3.Solver()
    _limit(solver, timeout_ms)
    solver.add(facts_list)
    solver.add(ob.assumptions)
    solver.add(z3.Not(ob.goal))
    answer = solver.check()
    if answer != z3.unsat:
        meaning = atom_definitions(list(facts_list) + list(ob.assumptions) + [ob.goal])
        if meaning:
            solver.add(meaning)
            answer = solver.check()
    return answer, solver


def _split_check(facts_list: list[Any], ob: Obligation, timeout_ms: int) -> tuple[Any, z3.Solver]:
    """The obligation case by case on the value of the write's symbolic index. Each case is first
    asked of one incremental solver holding the whole problem (``index == value`` as an
    assumption: what it learnt in earlier cases is kept, most cases take milliseconds); a case it
    does not settle at once is solved alone with the index substituted by its value and the
    formulas simplified: the written cell is known and the tables indexed by it are constants, so
    it is a small quantifier-free problem (one ghost per slot: 65 cards times 12 slots becomes 65
    easy checks)."""
    term, size = ob.split[0]
    formulas = list(facts_list) + list(ob.assumptions) + [z3.Not(ob.goal)]
    formulas += atom_definitions(formulas)
    verdict = z3.unsat
    shared = z3.Solver()
    _limit(shared, min(timeout_ms, 50))
    shared.add(formulas)
    solver = shared
    settled = unsettled = 0  # the incremental solver is left aside once it proves useless here
    for value in range(size):
        if settled or unsettled < 3:
            answer = shared.check(term == value)
            if answer == z3.unsat:
                settled += 1
                continue
            unsettled += 1
        case = [z3.simplify(z3.substitute(f, (term, z3.IntVal(value)))) for f in formulas]
        if any(z3.is_false(f) for f in case):
            continue
        solver = z3.Solver()
        _limit(solver, timeout_ms)
        solver.add([f for f in case if not z3.is_true(f)])
        solver.add(term == value)
        answer = solver.check()
        if answer == z3.sat:
            return answer, solver
        if answer == z3.unknown:
            verdict = z3.unknown
    return verdict, solver


def _check_instance(prover: LocalProver, facts: Facts, ob: Obligation, timeout_ms: int) -> Any:
    """An invariant obligation proved through one instance of its invariant
    (``LocalProver.instance_goal``, where the argument why that is sound is): the background facts
    but the invariant itself, the instance before the write, the instance after it. Returns unsat
    (proved), sat or unknown (then the obligation is proved as stated), or None when it is not
    tried: not an invariant obligation, or an invariant whose body has no quantifier (its
    instances are single atoms; an instance at a symbolic element only adds a chain of reads)."""
    if ob.kind != "invariant" or ob.invariant is None or not _has_quantifier(getattr(ob.invariant.holds, "body", None)):
        return None
    instance = prover.instance_goal(ob)
    if instance is None:
        return None
    index, goal = instance
    answer, _ = _check(facts.for_families(ob.families, skip=index), attrs.evolve(ob, goal=goal),
                       timeout_ms)
    return answer


def _has_quantifier(e: Any) -> bool:
    from ..spec import expr as E
    return any(isinstance(x, E.Quant) for x in E.walk(e))


# The whole check before a case split (``_split_check``) gets this long: splitting is slow where the
# formulas are large (each case substitutes and simplifies them all), and BT-PLACE's tile conservation,
# which the whole check proves in 0.7-1.1 s, once missed a 1 s limit on a slow moment and took 9
# minutes case by case (CI of 2026-12-01 00:44). In the default configurations no obligation of the
# shipped specs reaches the split (counted on 2026-12-01).
SPLIT_FIRST_MS = 4000


def _solve_as_stated(facts: Facts, ob: Obligation, timeout_ms: int) -> tuple[Any, z3.Solver]:
    """The obligation with its own goal: first without the boundary invariants (most need none;
    not tried for an invariant obligation, whose goal needs the invariant before the write; at
    most a second when the invariants are tried next), then with them. An obligation with symbolic
    write indices gets a short first try, then goes case by case (``_split_check``)."""
    answer: Any = z3.unknown
    solver = z3.Solver()
    with_invariants = facts.needs_invariants(ob.families)
    if ob.kind != "invariant" or not with_invariants:
        plain = facts.for_families(ob.families, invariants=False)
        # a short first try where the invariants or the case split come next
        short = ob.split or with_invariants
        answer, solver = _check(plain, ob, min(timeout_ms, SPLIT_FIRST_MS if ob.split else 1000) if short
                                else timeout_ms)
        if answer == z3.unknown and ob.split:
            answer, solver = _split_check(plain, ob, timeout_ms)
    if answer != z3.unsat and with_invariants:
        first = min(timeout_ms, SPLIT_FIRST_MS) if ob.split else timeout_ms
        answer, solver = _check(facts.for_families(ob.families), ob, first)
        if answer == z3.unknown and ob.split:
            answer, solver = _split_check(facts.for_families(ob.families), ob, timeout_ms)
    if answer == z3.unknown and not ob.split:
        # a few obligations take seconds (the exorcism's choice of results: a case analysis over
        # feasible(...); Betrayal's lines of sight): one longer try, on simplified formulas (on
        # terms this large z3's own preprocessing is most of the time)
        simple = attrs.evolve(ob, assumptions=[z3.simplify(a) for a in ob.assumptions], goal=z3.simplify(ob.goal))
        answer, solver = _check([z3.simplify(f) for f in facts.for_families(ob.families)], simple, 3 * timeout_ms)
    return answer, solver


# An obligation still unknown within its budget gets one more try with RETRY_FACTOR times it (a proof
# is a proof whenever it comes; normally no obligation gets here).
RETRY_FACTOR = 4


def _with_retry(facts: Facts, ob: Obligation, timeout_ms: int, retry: bool = True) -> tuple[Any, Any]:
    """The obligation as stated (``_solve_as_stated``) within ``timeout_ms``; if that is unknown
    and ``retry``, once more within RETRY_FACTOR times the budget (the one place of that policy:
    a whole goal in ``_attempt``, each conjunct in ``_by_conjunct``). Returns the last answer and
    its solver."""
    answer, solver = _solve_as_stated(facts, ob, timeout_ms)
    if answer == z3.unknown and retry:
        answer, solver = _solve_as_stated(facts, ob, RETRY_FACTOR * timeout_ms)
    return answer, solver


def conjuncts(goal: Any) -> list[Any]:
    """The conjuncts of a goal, nested conjunctions flattened, without repeats or ``True``s (a
    goal that is not a conjunction is its one conjunct)."""
    out: list[Any] = []
    stack = [goal]
    while stack:
        term = stack.pop()
        if z3.is_and(term):
            stack.extend(reversed(term.children()))
        elif not z3.is_true(term) and not any(term.eq(seen) for seen in out):
            out.append(term)
    return out or [goal]


def _given(ob: Obligation) -> Obligation | None:
    """The obligation without the conjuncts of its goal that are conjuncts of its assumptions (the
    same Z3 term: a test's definition restated by the callee's contract), or None when every one
    is. Sound: the assumptions imply each of their conjuncts. Z3 would need no search for them
    either, but its preprocessing of a large restated definition (a line of sight) can take tens
    of seconds."""
    parts = conjuncts(ob.goal)
    known = {c.get_id() for a in ob.assumptions for c in conjuncts(a)}
    rest = [c for c in parts if c.get_id() not in known]
    if not rest:
        return None
    if len(rest) == len(parts):
        return ob
    return attrs.evolve(ob, goal=rest[0] if len(rest) == 1 else z3.And(rest))


# An assumption of more distinct subterms than this is left out of the first, small try (``_small_first``).
SMALL_TERM = 300


def _is_small(term: Any, limit: int = SMALL_TERM) -> bool:
    """Has the term at most ``limit`` distinct subterms? (The walk stops past the limit.)"""
    seen: set[int] = set()
    stack = [term]
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if len(seen) > limit:
            return False
        stack.extend(t.children())
    return True


def _small_first(facts: Facts, ob: Obligation, timeout_ms: int) -> bool:
    """Is the obligation proved from its small assumptions alone and the slot ranges (no pools, no
    invariants)? Tried only when some assumption is large: a goal such as ``a != none and o != none
    and a != o`` under a test that also states a line of sight took Z3 7-31 s with every fact (most
    of it preprocessing the line of sight) and takes milliseconds without it. A proof from fewer
    assumptions is a proof; anything else (a model of the fewer facts need not be a position the
    rule reaches) goes on with every assumption, as before. One check, within a fifth of the budget."""
    small = [a for a in ob.assumptions if _is_small(a)]
    if len(small) == len(ob.assumptions) or not _is_small(ob.goal):
        return False
    answer, _ = _check(facts.for_families(ob.families, invariants=False), attrs.evolve(ob, assumptions=small),
                       timeout_ms / 5)
    return answer == z3.unsat


def _attempt(prover: LocalProver, facts: Facts, ob: Obligation, timeout_ms: int) -> tuple[Any, Any]:
    """One obligation as it is: through one instance of its invariant first (``_check_instance``),
    then as stated (``_solve_as_stated``); a goal that is not a conjunction gets one more try with
    RETRY_FACTOR times the budget if that is unknown (a conjunction goes conjunct by conjunct
    instead, each with the retry: ``_by_conjunct``)."""
    answer = _check_instance(prover, facts, ob, timeout_ms)
    solver = None
    if answer != z3.unsat:
        answer, solver = _with_retry(facts, ob, timeout_ms, retry=len(conjuncts(ob.goal)) < 2)
    return answer, solver


def _by_conjunct(facts: Facts, ob: Obligation, timeout_ms: int) -> tuple[Any, Any, Obligation]:
    """A conjunctive goal that came back unknown as a whole, proved conjunct by conjunct (each as
    stated, with the same facts and budget, and the retry): proved if every conjunct is, failed
    on the first conjunct that fails (its model is a counterexample of the whole goal), else
    unknown. Z3 can be lost on a conjunction whose conjuncts are each easy: the negated goal is a
    disjunction, and its case split multiplies with the facts' own. Returned: the answer, its
    solver and the obligation it is about (the failing conjunct's, for the readable model)."""
    answer: Any = z3.unsat
    solver = None
    for part in conjuncts(ob.goal):
        one = attrs.evolve(ob, goal=part, invariant=None)
        got, got_solver = _with_retry(facts, one, timeout_ms)
        if got == z3.sat:
            return got, got_solver, one
        if got == z3.unknown:
            answer, solver = got, got_solver
    return answer, solver, ob


def solve(prover: LocalProver, facts: Facts, ob: Obligation, timeout_ms: int, solved: Solved | None = None,
          readable: bool = True) -> Result:
    """Prove one obligation. An invariant obligation is first tried through one instance of its
    invariant (``_check_instance``). The boundary invariants are quantified formulas over many
    slots: the obligation is then tried without them (most need none), and again with them if that
    fails (``_solve_as_stated``). The conjuncts of the goal that are among the assumptions are
    proved as they are (``_given``), the rest first from the small assumptions alone
    (``_small_first``); a conjunctive goal still unknown is proved conjunct by conjunct
    (``_by_conjunct``).

    With ``readable`` false, a failed obligation keeps the solver's first model as its
    counterexample (``Result.raw``); ``refine`` later makes it a plausible position, for the
    failures a report shows."""
    key = None
    if solved is not None:
        # the background facts differ between configurations with other slots, pools or invariants
        key = (ob.goal.get_id(), tuple(a.get_id() for a in ob.assumptions), ob.families, prover._global_digest())
        hit = solved.answers.get(key)
        if hit is not None:
            solved.hits += 1
            old = hit[1]
            return Result(ob, old.status, 0.0, old.counterexample, old.values, old.call, old.raw)
    start = time.perf_counter()
    target = _given(ob)  # the obligation whose negated goal a failure's model satisfies
    if target is None or _small_first(facts, target, timeout_ms):
        answer, solver = z3.unsat, None
    else:
        answer, solver = _attempt(prover, facts, target, timeout_ms)
        if answer == z3.unknown and len(conjuncts(target.goal)) > 1:
            answer, solver, target = _by_conjunct(facts, target, timeout_ms)
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        result = Result(ob, "proved", seconds)
    elif answer == z3.sat and not readable:
        model = solver.model()
        values, call = _model_values(model, prover, ob)
        result = Result(ob, "failed", seconds, readable_model(model, prover, ob), values, call, raw=True)
    elif answer == z3.sat:
        model = solver.model()
        # prefer a counterexample that is a possible position, as close as can be to a set-up one:
        # it then reads as a few differences and loads as a scenario
        checks = facts.checks()
        wider = frozenset(ob.families).union(*(r for r, _ in checks))
        wide_ob = attrs.evolve(ob, families=wider)
        base = facts.base_values()
        plausible = z3.Optimize()
        _limit(plausible, 3 * timeout_ms)  # failures are few: a readable one is worth the wait
        plausible.add(facts.for_families(wider))
        plausible.add([t for _, t in checks])
        plausible.add(ob.assumptions)
        plausible.add(z3.Not(target.goal))
        plausible.add(atom_definitions(list(ob.assumptions) + [target.goal] + facts.for_families(wider)
                                       + [t for _, t in checks]))
        for flat in sorted(_cone(prover, wide_ob)):
            plausible.add_soft(prover.state[flat] == base[flat])
        if plausible.check() == z3.sat:
            model = plausible.model()
            ob = wide_ob
        values, call = _model_values(model, prover, ob)
        result = Result(ob, "failed", seconds, readable_model(model, prover, ob, facts.base_values()), values, call)
    else:
        result = Result(ob, "unknown", seconds)
    if solved is not None:
        solved.answers[key] = ((ob.goal, ob.assumptions), result)
    return result


def prove(spec: GameSpec, kinds: Iterable[str] | None = None, timeout_ms: int = 5000,
          rules: Iterable[str] | None = None) -> list[Result]:
    """Every obligation of one configuration (optionally only some kinds, or only the rules with
    these IDs or procedure names), solved."""
    prover = LocalProver(spec, Layout(spec))
    chosen = set(rules) if rules is not None else None
    obligations = prover.run(None if chosen is None else [r for r in spec.rules if r.id in chosen or r.name in chosen])
    facts = Facts(prover)
    wanted = set(kinds) if kinds else None
    solved = Solved()
    return [solve(prover, facts, ob, timeout_ms, solved) for ob in obligations if not wanted or ob.kind in wanted]


def summary(results: list[Result]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for r in results:
        row = table.setdefault(r.obligation.kind, {"proved": 0, "failed": 0, "unknown": 0})
        row[r.status] += 1
    return table


def passed(results: list[Result]) -> bool:
    return all(r.status == "proved" for r in results if r.obligation.kind in ENFORCED)


# ---- many configurations ------------------------------------------------------------------------


def record(r: Result) -> dict[str, Any]:
    """A result as plain data (it crosses process boundaries and is cached between configurations)."""
    ob = r.obligation
    return {"kind": ob.kind, "rule": ob.rule, "where": str(ob.where), "text": ob.text, "procedure": ob.procedure,
            "status": r.status, "seconds": r.seconds, "counterexample": r.counterexample, "values": r.values,
            "call": r.call}
