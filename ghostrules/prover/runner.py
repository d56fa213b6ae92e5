"""Run the proof obligations of a game's configurations and report them (behind `ghostrules prove`).

The termination row is in termination.py, counterexample scenario files in counterexamples.py.

Speed comes from these things:

- each obligation is solved with only the facts it can use: the ranges, pool totals and
  invariants of the slot families its formulas read (the other slots are unconstrained, so
  leaving their facts out cannot change the answer's validity: a proof stays a proof);
- an invariant obligation is first proved for one instance of its invariant
  (``LocalProver.instance_goal`` says why that is sound), and only then as stated;
- the obligations of a rule depend only on what the rule reads (its fingerprint, see
  ``LocalProver.fingerprint``): a rule whose fingerprint was proved in another configuration is
  not walked nor solved again, its results are reused;
- the distinct rules are dealt out one by one to worker processes (forked after every
  configuration was loaded and fingerprinted), so that the few slow rules do not hold one worker;
- definitions encoded over the pre-state are shared between configurations that read the same
  things (``symbolic.Encoder.define_key``), so walking a rule in a new configuration is cheap;
- a failed obligation keeps the solver's first model; only the failures a report shows are made
  plausible positions (``refine``: z3.Optimize toward a set-up position, for the scenario file).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

import attrs
import z3

from ..engine.layout import Layout
from ..spec.model import GameSpec

# re-exported: the proof files and the tests import these from here
from .counterexamples import counterexample_state, write_scenario  # noqa: F401
from .local import LocalProver, Obligation
from .symbolic import atom_definitions
from .termination import _is_node, _walk, call_cycles, call_graph, termination_row  # noqa: F401

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


def _check(facts_list: list[Any], ob: Obligation, timeout_ms: int) -> tuple[Any, z3.Solver]:
    """Is the obligation proved (unsat)? Large definitions are atoms (Encoder.atom_limit): first
    without their meaning (a proof that does not need it is a proof), then with it."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
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
    shared.set("timeout", min(timeout_ms, 50))
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
        solver.set("timeout", timeout_ms)
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
        # a short first try where the invariants come next (the facts with them include these)
        short = ob.split or with_invariants
        answer, solver = _check(plain, ob, min(timeout_ms, 1000) if short else timeout_ms)
        if answer == z3.unknown and ob.split:
            answer, solver = _split_check(plain, ob, timeout_ms)
    if answer != z3.unsat and with_invariants:
        first = min(timeout_ms, 1000) if ob.split else timeout_ms
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


RETRY_FACTOR = 4


def solve(prover: LocalProver, facts: Facts, ob: Obligation, timeout_ms: int, solved: Solved | None = None,
          readable: bool = True) -> Result:
    """Prove one obligation. An invariant obligation is first tried through one instance of its
    invariant (``_check_instance``). The boundary invariants are quantified formulas over many
    slots: the obligation is then tried without them (most need none), and again with them if that
    fails (``_solve_as_stated``).

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
    answer = _check_instance(prover, facts, ob, timeout_ms)
    solver = None
    if answer != z3.unsat:
        answer, solver = _solve_as_stated(facts, ob, timeout_ms)
    if answer == z3.unknown:
        # the timeouts are wall-clock: on a loaded machine an obligation that takes a second alone
        # can run out of time. An unknown gets one more try with RETRY_FACTOR times the time (a
        # proof is a proof whenever it comes; normally no obligation gets here)
        answer, solver = _solve_as_stated(facts, ob, RETRY_FACTOR * timeout_ms)
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
        plausible.set("timeout", 3 * timeout_ms)  # failures are few: a readable one is worth the wait
        plausible.add(facts.for_families(wider))
        plausible.add([t for _, t in checks])
        plausible.add(ob.assumptions)
        plausible.add(z3.Not(ob.goal))
        plausible.add(atom_definitions(list(ob.assumptions) + [ob.goal] + facts.for_families(wider)
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


@contextmanager
def _yaml_memo() -> Iterator[None]:
    """Parse each spec file once while many configurations of a game are loaded (the loader only
    reads the parsed documents). The cache key includes the modification time."""
    from ..spec import loader
    original = loader.load_yaml_file
    memo: dict[tuple[str, float, str], Any] = {}

    def cached(path: Path, root: Path | None = None) -> Any:
        key = (str(path), path.stat().st_mtime, str(root))
        if key not in memo:
            memo[key] = original(path, root)
        return memo[key]

    loader.load_yaml_file = cached  # type: ignore[assignment]
    try:
        yield
    finally:
        loader.load_yaml_file = original  # type: ignore[assignment]


def configurations(game: str, root: Path | None = None, everything: bool = True) -> list[dict[str, Any]]:
    """Every combination of the game's parameter values (or just the defaults)."""
    from ..spec.loader import parameter_names
    allowed = parameter_names(game, root)
    if not everything:
        return [{}]
    names = list(allowed)
    return [dict(zip(names, combo)) for combo in itertools.product(*(allowed[n] for n in names))]


def label(spec: GameSpec, order: Iterable[str] | None = None) -> str:
    settings = dict(spec.settings)
    names = list(order) if order else [p.name for p in spec.parameters]
    return " ".join(f"{k}={settings[k]}" for k in names if k in settings)


def initial_records(prover: LocalProver) -> list[dict[str, Any]]:
    """The initial state (every slot at its declared initial value) is within the ranges and
    satisfies every invariant: the base case of the induction."""
    from .symbolic import concrete, evaluate
    layout = prover.layout
    init = layout.initial_values()
    out = []
    bad = [layout.name_of(i) for i, v in enumerate(init)
           if not layout.slots[layout.owner[i][0]].var.lo <= v <= layout.slots[layout.owner[i][0]].var.hi]
    out.append({"kind": "initial", "rule": "", "where": "game.yaml state", "text": "every slot starts in its range",
                "procedure": "", "status": "failed" if bad else "proved", "seconds": 0.0,
                "counterexample": {b: "out of range" for b in bad}, "values": None, "call": None})
    for inv in prover.spec.invariants:
        start = time.perf_counter()
        holds = evaluate(prover.enc.as_bool(prover.enc.encode(inv.holds, concrete(init), {})[0]))
        out.append({"kind": "initial", "rule": inv.rule, "where": str(inv.where), "invariant": inv.id,
                    "text": f"{inv.id} ({inv.text}) holds initially", "procedure": "",
                    "status": "proved" if holds is True else "failed", "seconds": time.perf_counter() - start,
                    "counterexample": {}, "values": None, "call": None})
    return out


_LOADED: dict[Any, tuple[GameSpec, LocalProver]] = {}


def _config_key(game: str, root: str | None, params: dict[str, Any]) -> Any:
    return (game, root, tuple(sorted((k, repr(v)) for k, v in params.items())))


def _loaded(game: str, root: str | None, params: dict[str, Any]) -> tuple[GameSpec, LocalProver]:
    """The spec and prover of a configuration, loaded once per process (worker processes are
    forked after the main process loaded every configuration, and find them here)."""
    key = _config_key(game, root, params)
    if key not in _LOADED:
        from ..spec import load_spec
        spec = load_spec(game, root=Path(root) if root else None, **params)
        _LOADED[key] = (spec, LocalProver(spec, Layout(spec)))
    return _LOADED[key]


def _load_all(game: str, root: str | None, configs: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Any, Any]]:
    """(parameters, spec, prover) of each configuration, the spec files parsed once."""
    out = []
    with _yaml_memo():
        for params in configs:
            spec, prover = _loaded(game, root, params)
            out.append((params, spec, prover))
    return out


def _facts(prover: LocalProver) -> Facts:
    facts = getattr(prover, "_facts", None)
    if facts is None:
        facts = prover._facts = Facts(prover)  # type: ignore[attr-defined]
    return facts


def _prove_rules(game: str, root: str | None, work: list[tuple[dict[str, Any], list[str]]], timeout_ms: int,
                 kinds: frozenset[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Records by fingerprint for the given rules: (configuration parameters, rule IDs) pairs,
    only the obligations of ``kinds`` (None: every kind) solved.
    A failure keeps the solver's first model; ``refine`` makes it readable if a report shows it."""
    out: dict[str, list[dict[str, Any]]] = {}
    solved = _SOLVED
    loaded = _load_all(game, root, [params for params, _ in work])
    for (params, ids), (_, spec, prover) in zip(work, loaded):
        wanted = set(ids)
        for position, rule in enumerate(spec.rules):
            if rule.kind in ("procedure", "trigger") and rule.id in wanted:
                key = prover.fingerprint(rule)
                if key in out:
                    continue
                records = []
                for index, ob in enumerate(prover.walk_rule(rule)):
                    if kinds is not None and ob.kind not in kinds:
                        continue
                    result = solve(prover, _facts(prover), ob, timeout_ms, solved, readable=False)
                    rec = record(result)
                    if result.raw:
                        rec["refine"] = {"game": game, "root": root, "params": dict(params), "rule": position,
                                         "index": index, "timeout_ms": timeout_ms}
                    records.append(rec)
                out[key] = records
    return out


# answers by formula, shared by the tasks a process runs (see Solved); emptied by prove_configurations
_SOLVED = Solved()


def _prove_task(task: tuple[str, str | None, list[tuple[dict[str, Any], list[str]]], int, frozenset[str] | None]
                ) -> dict[str, list[dict[str, Any]]]:
    return _prove_rules(*task)


_WALKED: dict[Any, list[Obligation]] = {}


def refine(rec: dict[str, Any]) -> None:
    """Make a failed record's counterexample a plausible position (see ``solve``), in place: the
    obligation is built again in its configuration and solved with ``readable``. Records are
    shared by the configurations with the same fingerprint, so this runs once per record."""
    info = rec.pop("refine", None)
    if not info:
        return
    try:
        spec, prover = _loaded(info["game"], info["root"], info["params"])
        wkey = (_config_key(info["game"], info["root"], info["params"]), info["rule"])
        if wkey not in _WALKED:
            _WALKED[wkey] = prover.walk_rule(spec.rules[info["rule"]])
        ob = _WALKED[wkey][info["index"]]
        result = solve(prover, _facts(prover), ob, info["timeout_ms"])
    except Exception:  # noqa: BLE001 - keep the first model
        return
    if result.status == "failed":
        rec.update(counterexample=result.counterexample, values=result.values, call=result.call)


def prove_configurations(game: str, root: Path | None = None, everything: bool = True, timeout_ms: int = 5000,
                         jobs: int | None = None, kinds: Iterable[str] | None = None
                         ) -> list[tuple[str, float, list[dict[str, Any]]]]:
    """(configuration label, seconds, result records) for every configuration of a game; with
    ``kinds``, only the obligations of those kinds are solved (the proof files that run need no
    other).

    Every configuration is loaded (the spec files parsed once) and each rule fingerprinted; the
    distinct fingerprints (a rule as one configuration reads it) are then proved once, spread over
    ``jobs`` worker processes, and every configuration gets the results of its rules."""
    start = time.perf_counter()
    configs = configurations(game, root, everything)
    rootstr = str(root) if root else None
    _LOADED.clear()  # the spec files may have changed since an earlier call
    _WALKED.clear()
    _SOLVED.answers.clear()
    loaded = _load_all(game, rootstr, configs)
    first_seen: dict[str, tuple[int, str]] = {}
    per_config: list[list[str]] = []
    initial: dict[str, list[dict[str, Any]]] = {}
    for i, (params, spec, prover) in enumerate(loaded):
        keys = []
        ikey = "initial " + prover._global_digest()
        if ikey not in initial:
            initial[ikey] = initial_records(prover)
        keys.append(ikey)
        for rule in spec.rules:
            if rule.kind in ("procedure", "trigger"):
                key = prover.fingerprint(rule)
                first_seen.setdefault(key, (i, rule.id))
                keys.append(key)
        per_config.append(keys)
    # the work: for each configuration, the rules whose fingerprint it is the first to show
    by_config: dict[int, list[str]] = {}
    for i, rid in first_seen.values():
        by_config.setdefault(i, []).append(rid)
    items = [(configs[i], ids) for i, ids in sorted(by_config.items())]
    jobs = jobs or min(2, os.cpu_count() or 1)
    wanted = frozenset(kinds) if kinds is not None else None
    results: dict[str, list[dict[str, Any]]] = dict(initial)
    if jobs <= 1 or len(items) < 2:
        results.update(_prove_rules(game, rootstr, items, timeout_ms, wanted))
    else:
        # one task per rule, dealt out to the workers as they get free (a few rules hold most of
        # the solving time: a static split would leave one worker waiting for the other); the
        # configurations are loaded already, the forked workers find them in _LOADED
        tasks = [(game, rootstr, [(params, [rid])], timeout_ms, wanted) for params, ids in items for rid in ids]
        ctx = multiprocessing.get_context("fork") if hasattr(os, "fork") else multiprocessing.get_context()
        with ctx.Pool(jobs) as pool:
            for part in pool.imap_unordered(_prove_task, tasks, chunksize=1):
                results.update(part)
    seconds = time.perf_counter() - start
    out = []
    for (params, spec, _), keys in zip(loaded, per_config):
        records = [rec for key in keys for rec in results.get(key, [])]
        out.append((label(spec), seconds / max(1, len(loaded)), records))
    return out


def label_of(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


# ---- the proofs/ folder: one short file per property ------------------------------------------

PROOFS_ROOT = Path(__file__).resolve().parent.parent.parent / "proofs"
STATUSES = ("proved", "failed", "unknown")


def discover(game: str, root: Path | None = None) -> list[Any]:
    """The proof modules of ``proofs/`` (beside ``specs/``) whose ``GAME`` is ``game``, by file name.

    A proof module has a docstring (the property in English and its rule IDs), ``GAME``,
    ``RULE_IDS`` and ``run(options) -> list[dict]``."""
    import importlib.util
    folder = root or Path(os.environ.get("GHOSTRULES_PROOFS", PROOFS_ROOT))
    out = []
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        name = f"ghostrules_proofs.{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if getattr(module, "GAME", None) == game and callable(getattr(module, "run", None)):
            out.append(module)
    return out


_SESSIONS: dict[Any, list[tuple[str, float, list[dict[str, Any]]]]] = {}


def session(game: str, options: dict[str, Any]) -> list[tuple[str, float, list[dict[str, Any]]]]:
    """Every obligation of the game's configurations, solved once per process and shared by the
    proof files (each reads the kinds it states)."""
    root = options.get("specs_root")
    kinds = options.get("kinds")
    kinds = None if kinds is None else tuple(sorted(kinds))
    key = (game, bool(options.get("all_configurations", True)), int(options.get("timeout_ms", 5000)), str(root),
           kinds)
    if key not in _SESSIONS:
        _SESSIONS[key] = prove_configurations(game, Path(root) if root else None, key[1], key[2],
                                              options.get("jobs"), kinds)
    return _SESSIONS[key]


_WRITTEN: dict[tuple[str, str, str, str, str], str | None] = {}


def property_rows(game: str, prop: str, kinds: Iterable[str], rule_ids: Iterable[str], options: dict[str, Any],
                  select: Any = None) -> list[dict[str, Any]]:
    """One row per configuration for a property made of obligations of some kinds.

    A row is failed if an obligation failed, unknown if one timed out, proved otherwise; a failed
    row carries the first counterexample (our notation) and writes it as a scenario file."""
    kinds = tuple(kinds)
    rows = []
    for config, _, records in session(game, options):
        mine = [r for r in records if r["kind"] in kinds and (select is None or select(r))]
        counts = {s: sum(1 for r in mine if r["status"] == s) for s in STATUSES}
        status = "failed" if counts["failed"] else "unknown" if counts["unknown"] else "proved"
        by_kind = ", ".join(f"{k} {sum(1 for r in mine if r['kind'] == k)}" for k in kinds)
        detail = f"{counts['proved']}/{len(mine)} obligations proved ({by_kind})"
        bad = [r for r in mine if r["status"] != "proved"]
        if bad:
            detail += "; " + "; ".join(f"{r['status']}: [{r['rule']}] {r['where']}: {r['text']}" for r in bad[:5])
            if len(bad) > 5:
                detail += f"; ... {len(bad) - 5} more"
        counterexample, scenario = None, None
        first = next((r for r in mine if r["status"] == "failed"), None)
        if first is not None:
            refine(first)
            counterexample = {"rule": first["rule"], "where": first["where"], "obligation": first["text"],
                              "procedure": first["procedure"], "state": first["counterexample"]}
            out_dir = options.get("out_dir")
            same = (str(out_dir), prop, first["rule"], first["where"], first["text"])
            if out_dir and same in _WRITTEN:
                scenario = _WRITTEN[same]  # the same obligation failed in an earlier configuration
                detail += " (counterexample scenario from an earlier configuration)"
            elif out_dir:
                scenario = write_scenario(game, config, first, Path(out_dir), prop, options.get("specs_root"))
                _WRITTEN[same] = scenario
                if first.get("scenario_error"):
                    detail += f" (counterexample scenario: {first['scenario_error']})"
        rows.append({"property": prop, "configuration": config, "status": status,
                     "seconds": round(sum(r["seconds"] for r in mine), 3), "rule_ids": list(rule_ids),
                     "detail": detail, "counterexample": counterexample, "scenario": scenario})
    return rows


# ---- the properties, as rows per component and configuration (used by the files of proofs/) ----

def _spec(game: str, options: dict[str, Any]) -> GameSpec:
    from ..spec import load_spec
    root = options.get("specs_root")
    return load_spec(game, root=Path(root) if root else None)


def _cited(text: str) -> list[str]:
    import re
    return re.findall(r"\b[A-Z]{2,}(?:-[A-Z0-9]+)+\b", text)


def conservation_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Per pool (component) and configuration: every write to the pool's cells keeps its totals."""
    rows: list[dict[str, Any]] = []
    for pool in _spec(game, options).pools:
        rows += property_rows(game, f"conservation: {pool.name}", ["conservation"], _cited(pool.text), options,
                              select=lambda r, name=pool.name: r["text"].startswith(f"pool {name} "))
    return rows


def invariant_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Per declared invariant and configuration: it holds initially and every write keeps it; and
    the slot ranges: they hold initially and every write stays within them."""
    spec = _spec(game, options)
    rows = property_rows(game, "invariant: slot ranges", ["initial", "range"], ["(every slot)"], options,
                         select=lambda r: r["kind"] == "range" or r["text"] == "every slot starts in its range")
    for inv in spec.invariants:
        rows += property_rows(game, f"invariant: {inv.id}", ["initial", "invariant"], [inv.rule] if inv.rule else [],
                              options, select=lambda r, i=inv.id: r["text"].startswith(f"{i} ("))
    return rows


def contract_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every call meets the callee's ``requires`` (so the engine's run-time check never fires)."""
    spec = _spec(game, options)
    ids = sorted({r.id for r in spec.rules if r.kind == "procedure" and r.requires is not None})
    return property_rows(game, "contracts (requires)", ["requires"], ids, options)


def dead_end_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every decision offers an option and every chance node an outcome, wherever it is reached."""
    spec = _spec(game, options)
    ids = sorted({s.rule for r in spec.rules for s in _walk(r.body) if _is_node(s)})
    return property_rows(game, "no dead ends: decisions and chance nodes", ["options"], ids, options)
