"""The prover: Z3's reading of the specs agrees with the engine, conservation is proved, and
broken specs are caught with a counterexample (GS-COMP-*, the pools of game.yaml)."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import attrs
import pytest
import z3
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import ghostrules
from ghostrules.engine.game import sample_chance
from ghostrules.engine.layout import Layout
from ghostrules.prover import prove
from ghostrules.prover.symbolic import Encoder, concrete, evaluate
from ghostrules.spec import load_spec
from ghostrules.spec.expr import parse
from ghostrules.spec.loader import SPECS_ROOT

GAME = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")


def position(seed: int) -> ghostrules.State:
    """A position reached by seeded random play."""
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    for _ in range(rng.randrange(0, 120)):
        if state.is_terminal():
            break
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


DEFINITIONS = sorted({d.name: d for d in GAME.spec.definitions}.values(), key=lambda d: d.name) + \
    sorted((r for r in GAME.spec.rules if r.kind == "define"), key=lambda r: r.name)


@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 400), which=st.integers(0, len(DEFINITIONS) - 1), pick=st.integers(0, 10_000))
def test_z3_encoding_agrees_with_the_engine(seed: int, which: int, pick: int) -> None:
    """Differential test: every definition, at concrete positions, with arguments drawn from their
    domains, means the same to the engine's closures and to the Z3 encoding."""
    state = position(seed % 40)
    d = DEFINITIONS[which]
    rng = random.Random(pick)
    domains = GAME.layout.domains
    args = []
    for _, t in d.params:
        if t == "bool":
            args.append(rng.choice(["true", "false"]))
        elif t == "int":
            args.append(str(rng.randrange(0, 3)))
        else:
            args.append(f"{t}.{rng.choice(domains[t].symbols)}")
    text = f"{d.name}({', '.join(args)})" if d.params else d.name
    try:
        engine_value = state.eval(text)
    except ghostrules.SpecRuntimeError:
        assume(False)  # undefined here (e.g. a table looked up with none before setup): nothing to compare
    encoder = Encoder(GAME.spec, GAME.layout)
    term, t = encoder.encode(parse(text), concrete(state.values), {})
    z3_value = evaluate(term)
    if t not in ("int", "bool", "none") and isinstance(z3_value, int):
        z3_value = GAME.layout.symbol(t, z3_value)
    assert z3_value == engine_value, text


def test_conservation_is_proved_for_every_pool_write() -> None:
    results = prove(GAME.spec, kinds=["conservation"])
    assert len(results) >= 40
    assert all(r.status == "proved" for r in results), [(r.obligation.rule, r.obligation.text) for r in results
                                                        if r.status != "proved"]


@pytest.fixture
def spec_copy(tmp_path: Path) -> Path:
    shutil.copytree(SPECS_ROOT / "ghost-stories", tmp_path / "ghost-stories")
    return tmp_path


def mutate(root: Path, file: str, old: str, new: str) -> None:
    path = root / "ghost-stories" / "rules" / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_a_buddha_created_from_nothing_is_caught(spec_copy: Path) -> None:
    """Mutation: the dying monk's Buddha goes back to the Temple by `set` instead of `move`, which
    creates a Buddha. The engine refuses such a spec when it compiles; the prover, reading the same
    data independently, finds the broken conservation and shows a position."""
    mutate(spec_copy, "death.yaml", 'move: {n: all, from: "buddha_held[m]", to: buddha_temple}',
           'set: {buddha_temple: "buddha_temple + buddha_held[m]"}')
    spec = load_spec("ghost-stories", root=spec_copy)
    results = [r for r in prove(spec, kinds=["conservation"]) if r.status == "failed"]
    assert results and results[0].obligation.rule == "GS-DEATH-1"  # monk_dies's own rule (OQ-17)
    assert "pool buddha" in results[0].obligation.text
    cx = results[0].counterexample
    assert any(k.startswith("buddha_held") for k in cx), cx
    with pytest.raises(ghostrules.SpecError, match="belongs to pool buddha"):
        ghostrules.engine.Game(spec)


def test_a_decision_with_no_options_is_reported(spec_copy: Path) -> None:
    """Mutation: the Sorcerer's choice can only pick incarnations, which it may never banish."""
    mutate(spec_copy, "village.yaml", 'for: "g in card if in_play(g) and not is_incarnation(g)"',
           'for: "g in card if in_play(g) and is_incarnation(g) and not in_play(g)"')
    spec = load_spec("ghost-stories", root=spec_copy)
    failed = [r for r in prove(spec, kinds=["options"])
              if r.status == "failed" and r.obligation.rule == "GS-VILLAGE-SORCERER"]
    assert failed and "offers an option" in failed[0].obligation.text


def test_token_from_nothing_in_a_move_amount_is_caught(spec_copy: Path) -> None:
    """Mutation: a move whose amount can be negative (it would take from the target)."""
    mutate(spec_copy, "village.yaml", 'move: {n: 1, from: qi_supply, to: "qi[m]", upto: true}',
           'move: {n: -1, from: qi_supply, to: "qi[m]"}')
    spec = load_spec("ghost-stories", root=spec_copy)
    failed = [r for r in prove(spec, kinds=["range"])
              if r.status == "failed" and r.obligation.rule == "GS-VILLAGE-TEAHOUSE" and "holds enough" in r.obligation.text]
    assert failed


def test_recursion_through_no_node_is_reported(spec_copy: Path) -> None:
    """Mutation: the victory check calls itself; nothing on that cycle asks a player or the dice,
    so the engine could run forever between two nodes (the no-dead-end termination row)."""
    from ghostrules.prover.runner import termination_row
    assert termination_row("ghost-stories", {"specs_root": str(spec_copy)})["status"] == "proved"
    mutate(spec_copy, "end.yaml", """            text: "Wu-Feng's last incarnation is exorcised"
""", """            text: "Wu-Feng's last incarnation is exorcised"
      - call: check_victory
""")
    row = termination_row("ghost-stories", {"specs_root": str(spec_copy)})
    assert row["status"] == "failed" and "check_victory -> check_victory" in row["detail"]


@pytest.mark.parametrize("game", ["ghost-stories", "betrayal"])
def test_every_call_cycle_of_the_shipped_specs_reaches_a_node(game: str) -> None:
    """Betrayal's fall into the basement (enter_room -> collapsed_discovery -> fall_into_basement
    -> enter_room) holds no node itself: its Speed roll is in trait_roll, which it calls."""
    from ghostrules.prover.runner import call_cycles, termination_row
    from ghostrules.spec import load_spec
    assert call_cycles(load_spec(game))
    assert termination_row(game, {})["status"] == "proved"


def test_a_session_solves_only_the_kinds_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof files name the obligation kinds they read; the others are not solved."""
    from ghostrules.prover import runner
    spec = load_spec("ghost-stories")
    params: dict[str, object] = {}  # the default configuration
    rule = next(r for r in spec.rules if r.id == "GS-VILLAGE-TEAHOUSE")
    every = runner._prove_rules("ghost-stories", None, [(params, [rule.id])], 5000)
    only = runner._prove_rules("ghost-stories", None, [(params, [rule.id])], 5000, frozenset({"range"}))
    kinds = {r["kind"] for recs in every.values() for r in recs}
    assert len(kinds) > 1 and "range" in kinds
    assert {r["kind"] for recs in only.values() for r in recs} == {"range"}
    assert len(list(only.values())[0]) == sum(1 for recs in every.values() for r in recs if r["kind"] == "range")


FAKE_PROOF = '''"""A stand-in property (for the command's own test).

Rules: GS-COMP-9.
"""
GAME = "ghost-stories"
RULE_IDS = ("GS-COMP-9",)


def run(options):
    status = "{status}"
    return [{{"property": "stand-in", "configuration": "all", "status": status, "seconds": 0.01,
              "rule_ids": list(RULE_IDS), "detail": "canned", "scenario": None,
              "counterexample": {{"state": {{"qi[red]": 3}}}} if status == "failed" else None}}]
'''


@pytest.mark.parametrize("status, code", [("proved", 0), ("failed", 1), ("unknown", 1)])
def test_prove_command_runs_the_proof_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str], status: str, code: int) -> None:
    """`ghostrules prove` discovers proofs/*.py by their GAME, prints a table and fails on any
    failure or unknown; --json prints the rows."""
    from ghostrules.cli import main
    (tmp_path / "stand_in.py").write_text(FAKE_PROOF.format(status=status))
    (tmp_path / "other_game.py").write_text(FAKE_PROOF.format(status="failed").replace(
        'GAME = "ghost-stories"', 'GAME = "betrayal"'))
    monkeypatch.setenv("GHOSTRULES_PROOFS", str(tmp_path))
    assert main(["prove"]) == code
    out = capsys.readouterr().out
    assert "stand-in" in out and status in out and "GS-COMP-9" in out
    if status == "failed":
        assert "qi[red] = 3" in out
    assert main(["prove", "--json"]) == code
    rows = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in rows] == [status]


def test_a_run_removes_its_stale_counterexample_of_an_obligation_proved_now(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A counterexample file an earlier run wrote for an obligation this run proves is stale: the
    run removes it and says so. Only a file with the prover's name for that obligation AND its
    header line goes; a file with that name but another first line, and other files, stay."""
    from ghostrules.cli import main
    from ghostrules.prover import runner
    from ghostrules.prover.counterexamples import header_line, scenario_path
    options = {"all_configurations": False, "timeout_ms": 5000, "kinds": ["conservation"]}
    ((config, _, records),) = runner.session("ghost-stories", options)  # shared with the run below
    proved = [r for r in records if r["kind"] == "conservation" and r["status"] == "proved"]
    rules = sorted({r["rule"] for r in proved})
    stale_rec = next(r for r in proved if r["rule"] == rules[0])
    foreign_rec = next(r for r in proved if r["rule"] == rules[1])

    def prop(rec: dict) -> str:
        return "conservation: " + rec["text"].split()[1]  # "pool qi keeps its totals"
    stale = scenario_path(tmp_path, prop(stale_rec), config, stale_rec["rule"])
    stale.write_text(header_line(prop(stale_rec), config, stale_rec) + "\n# old run\ngame: ghost-stories\n")
    foreign = scenario_path(tmp_path, prop(foreign_rec), config, foreign_rec["rule"])
    foreign.write_text("# my own notes, named like a counterexample\n")
    other = tmp_path / "notes.yaml"
    other.write_text(header_line(prop(stale_rec), config, stale_rec) + "\n")
    assert main(["prove", "--only", "conservation", "--default-configuration", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert not stale.exists()
    assert foreign.exists() and other.exists()
    assert "removed 1 stale file" in out and str(stale) in out
    stale.write_text(header_line(prop(stale_rec), config, stale_rec) + "\n")
    assert main(["prove", "--only", "conservation", "--default-configuration", "--out", str(tmp_path),
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [path for r in rows for path in r["removed"]] == [str(stale)] and not stale.exists()


def test_every_proof_file_follows_the_interface() -> None:
    from ghostrules.prover.runner import PROOFS_ROOT, discover
    modules = discover("ghost-stories", PROOFS_ROOT)
    names = {m.__name__.rsplit(".", 1)[-1] for m in modules}
    assert {"conservation", "inductive_invariant", "no_dead_ends", "contracts"} <= names
    for m in modules:
        assert m.__doc__ and "GS-" in m.__doc__, m.__name__
        assert isinstance(m.RULE_IDS, tuple) and m.RULE_IDS
        assert isinstance(m.KINDS, tuple), m.__name__


def test_large_definitions_as_atoms_change_no_answer(spec_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a tiny atom limit most definitions become atoms whose meaning the solver gets only
    when a first try fails: the answers stay the same, a proof that needs a definition's meaning
    still finds it, and a broken spec still fails (the Sorcerer with no option)."""
    from ghostrules.prover import local, symbolic
    spec = load_spec("ghost-stories")
    rules = ["exorcise", "pay_token", "help_sorcerer", "bring_ghost", "draw_ghost"]
    full = [(r.obligation.where, r.obligation.text, r.status) for r in prove(spec, rules=rules)]
    monkeypatch.setattr(local, "ATOM_LIMIT", 200)
    atoms_before = len(symbolic._ATOMS)
    small = [(r.obligation.where, r.obligation.text, r.status) for r in prove(spec, rules=rules)]
    assert len(symbolic._ATOMS) > atoms_before  # definitions did become atoms
    assert small == full and all(s == "proved" for _, _, s in full)
    mutate(spec_copy, "village.yaml", 'for: "g in card if in_play(g) and not is_incarnation(g)"',
           'for: "g in card if in_play(g) and is_incarnation(g) and not in_play(g)"')
    broken = load_spec("ghost-stories", root=spec_copy)
    failed = [r for r in prove(broken, kinds=["options"], rules=["help_sorcerer"]) if r.status == "failed"]
    assert failed and failed[0].counterexample


def test_betrayal_line_of_sight_is_an_atom_and_the_attack_menu_is_proved() -> None:
    """BH-ATTACK-1: the attack's targets (in_sight over 4 x 47 rooms) are an atom shared by the
    caller's guard, the procedure's requires and its menu: the menu's obligation needs no geometry.

    Only the obligations cited to BH-ATTACK-1 itself are solved: the procedure's ranged-attack calls
    (BH-ATTACK-RANGED-1) take about a minute more and are proved in CI by the Betrayal contracts."""
    from ghostrules.prover import solving, symbolic
    from ghostrules.prover.local import LocalProver
    spec = load_spec("betrayal", players=4)
    prover = LocalProver(spec, Layout(spec))
    obligations = [ob for ob in prover.run([r for r in spec.rules if r.id == "BH-ATTACK-1"])
                   if ob.rule == "BH-ATTACK-1" and ob.kind in ("options", "requires")]
    assert {ob.kind for ob in obligations} == {"options", "requires"}
    facts, solved = solving.Facts(prover), solving.Solved()
    results = [solving.solve(prover, facts, ob, 5000, solved) for ob in obligations]
    assert all(r.status == "proved" for r in results)
    assert any(name.startswith("in_sight!") for name in symbolic._ATOMS)


def test_an_invariant_obligation_is_proved_through_one_instance() -> None:
    """One card per ghost slot after a ghost is placed (GS-PLACE-6) is proved for one instance of
    INV-SLOT; the same obligation without the placement's test that the slot is free is not."""
    from ghostrules.prover import solving
    from ghostrules.prover.local import LocalProver
    spec = load_spec("ghost-stories")
    prover = LocalProver(spec, Layout(spec))
    facts = solving.Facts(prover)
    rule = next(r for r in spec.rules if r.id == "GS-PLACE-3" and r.kind == "procedure")
    ob = next(o for o in prover.walk_rule(rule) if o.rule == "GS-PLACE-6" and o.text.startswith("INV-SLOT"))
    assert prover.instance_goal(ob) is not None
    assert solving._check_instance(prover, facts, ob, 20000) == z3.unsat
    # without the option's test (placement_allowed, whose first conjunct is "the slot is free")
    weaker = attrs.evolve(ob, assumptions=[a for a in ob.assumptions if not str(a).startswith("And(Not(Or(v")])
    assert len(weaker.assumptions) < len(ob.assumptions)
    assert solving._check_instance(prover, facts, weaker, 20000) == z3.sat


def test_files_with_their_own_search_run_beside_the_session() -> None:
    """prover.lanes: files with KINDS = () run in a second process; rows come back in file order."""
    from types import SimpleNamespace

    from ghostrules.prover import lanes
    seen: list[str] = []

    def module(name: str, kinds: tuple[str, ...] | None) -> SimpleNamespace:
        m = SimpleNamespace(__name__=name, run=lambda options: [{"property": name, "pid": os.getpid(),
                                                                  "jobs": options.get("jobs")}])
        if kinds is not None:
            m.KINDS = kinds
        return m
    files = [module("session_a", ("range",)), module("search_b", ()), module("any_c", None), module("search_d", ())]
    assert [lanes.independent(m) for m in files] == [False, True, False, True]
    ran = lanes.run_files(files, {"jobs": None}, jobs=2, progress=lambda m, rows, s: seen.append(m.__name__))
    assert [m.__name__ for m, _, _ in ran] == ["session_a", "search_b", "any_c", "search_d"]
    pids = {m.__name__: rows[0]["pid"] for m, rows, _ in ran}
    assert pids["session_a"] == pids["any_c"] == os.getpid() != pids["search_b"] == pids["search_d"]
    assert {m.__name__: rows[0]["jobs"] for m, rows, _ in ran}["session_a"] == 1
    assert sorted(seen) == sorted(pids)
    one = lanes.run_files(files, {}, jobs=1)
    assert {rows[0]["pid"] for _, rows, _ in one} == {os.getpid()}


def _betrayal_obligation() -> tuple[object, object, object]:
    """A prover, its facts and one obligation of Betrayal's (its formulas replaced by the tests)."""
    from ghostrules.prover import solving
    from ghostrules.prover.local import LocalProver
    spec = load_spec("betrayal")
    prover = LocalProver(spec, Layout(spec))
    ob = next(iter(prover.walk_rule(next(r for r in spec.rules if r.kind == "procedure"))))
    return prover, solving.Facts(prover), ob


@pytest.mark.parametrize("answers, status", [([z3.unknown, z3.unsat], "proved"),
                                             ([z3.unknown, z3.unknown], "unknown"),
                                             ([z3.unsat], "proved")])
def test_an_unknown_gets_one_longer_try(monkeypatch: pytest.MonkeyPatch, answers: list, status: str) -> None:
    """An obligation unknown within its budget is tried once more with RETRY_FACTOR times it; a
    proved obligation is not tried again (a goal that is no conjunction: see the next tests)."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    ob = attrs.evolve(ob, goal=prover.state[0] >= -1)
    asked: list[int] = []

    def stated(facts: object, ob: object, timeout_ms: int) -> tuple[object, z3.Solver]:
        asked.append(timeout_ms)
        return answers[len(asked) - 1], z3.Solver()
    monkeypatch.setattr(solving, "_check_instance", lambda *a: None)
    monkeypatch.setattr(solving, "_solve_as_stated", stated)
    result = solving.solve(prover, facts, ob, 700)
    assert result.status == status
    assert asked == [700, 700 * solving.RETRY_FACTOR][:len(answers)]


def test_the_whole_goal_and_each_conjunct_get_the_retry_from_one_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    """The "unknown: once more with RETRY_FACTOR times the budget" policy lives in one helper
    (solving._with_retry), used for a whole goal (_attempt: only a goal that is no conjunction)
    and for each conjunct (_by_conjunct), so the two cannot drift apart."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    calls: list[tuple[int, bool]] = []

    def spy(facts: object, one: object, timeout_ms: int, retry: bool = True) -> tuple[object, None]:
        calls.append((timeout_ms, retry))
        return z3.unknown, None
    monkeypatch.setattr(solving, "_with_retry", spy)
    monkeypatch.setattr(solving, "_check_instance", lambda *a: None)
    single = attrs.evolve(ob, goal=prover.state[0] >= -1)
    both = attrs.evolve(ob, goal=z3.And(prover.state[0] >= -1, prover.state[1] >= -1))
    assert solving._attempt(prover, facts, single, 700)[0] == z3.unknown
    assert solving._attempt(prover, facts, both, 700)[0] == z3.unknown
    assert solving._by_conjunct(facts, both, 700)[0] == z3.unknown
    assert calls == [(700, True), (700, False), (700, True), (700, True)]


def test_a_tiny_resource_limit_is_unknown_whatever_the_load() -> None:
    """The limits are Z3 resource limits (rlimit), not wall-clock timeouts: a goal that needs real
    search is unknown, every time, within a budget of 1 ms's worth of resources (and its retry),
    because the resource limit ran out, not a clock; the units are those of solving.rlimit."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    x, y, z = z3.Ints("x_r y_r z_r")
    # no positive cubes x^3 + y^3 = z^3 below 40: true (Euler), but only by search
    hard = attrs.evolve(ob, assumptions=[x > 0, y > 0, z > 0, x < 40, y < 40, z < 40],
                        goal=x * x * x + y * y * y != z * z * z, families=frozenset())
    assert solving.rlimit(1) == solving.RLIMIT_PER_MS and solving.rlimit(0) == 1  # 0 would be no limit
    for _ in range(3):
        answer, solver = solving._check([], hard, 1)
        assert answer == z3.unknown
        # z3 says "canceled" or "max. resource limit exceeded" when the rlimit runs out, "timeout" for a clock
        assert solver.reason_unknown() in ("canceled", "max. resource limit exceeded")
        assert solving.solve(prover, facts, hard, 1).status == "unknown"


class _LostOnConjunctions:
    """_solve_as_stated as Z3 lost on a conjunction: unknown for a conjunctive goal (and for the
    goals in ``lost``), the real answer otherwise; records the goals and budgets asked."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, lost: tuple = ()) -> None:
        from ghostrules.prover import solving
        self.real = solving._solve_as_stated
        self.lost = lost
        self.asked: list[tuple[str, int]] = []
        monkeypatch.setattr(solving, "_solve_as_stated", self)

    def __call__(self, facts: object, ob: object, timeout_ms: int) -> tuple[object, object]:
        self.asked.append((str(ob.goal), timeout_ms))
        if z3.is_and(ob.goal) or any(ob.goal.eq(g) for g in self.lost):
            return z3.unknown, z3.Solver()
        return self.real(facts, ob, timeout_ms)


def test_a_conjunction_unknown_as_a_whole_is_proved_conjunct_by_conjunct(monkeypatch: pytest.MonkeyPatch) -> None:
    """A conjunctive goal whose whole is unknown is proved one conjunct at a time (nested
    conjunctions flattened, repeats once): the row is proved when every conjunct is."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    a, b = prover.state[0], prover.state[1]
    first, second = a + 1 > a, b * 2 == b + b
    ob = attrs.evolve(ob, goal=z3.And(first, z3.And(second, first)))
    assert [str(c) for c in solving.conjuncts(ob.goal)] == [str(first), str(second)]
    lost = _LostOnConjunctions(monkeypatch)
    assert solving.solve(prover, facts, ob, 700).status == "proved"
    assert (str(first), 700) in lost.asked and (str(second), 700) in lost.asked


@pytest.mark.parametrize("readable", [True, False])
def test_a_failed_conjunct_fails_the_row_with_its_counterexample(monkeypatch: pytest.MonkeyPatch,
                                                                  readable: bool) -> None:
    """A conjunct that fails fails the whole goal, and its model is the counterexample: here the
    turn slot at its highest value, which the second conjunct excludes."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    layout = prover.layout
    var = layout.slots["active"].var
    flat = layout.slots["active"].offset
    ob = attrs.evolve(ob, goal=z3.And(prover.state[flat] >= var.lo, prover.state[flat] != var.hi),
                      assumptions=[], families=frozenset({"active"}))
    _LostOnConjunctions(monkeypatch)
    result = solving.solve(prover, facts, ob, 700, readable=readable)
    assert result.status == "failed"
    assert result.values[flat] == var.hi
    assert result.counterexample[layout.name_of(flat)] == layout.label(var.type, var.hi)


def test_a_goal_conjunct_among_the_facts_needs_no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """A conjunct of the goal that is a conjunct of an assumption (a test restated by the callee's
    contract) is proved as it is: Z3 is asked only the others, or nothing. Here Z3 is lost on
    anything that mentions the restated term, as it was on a restated line of sight."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    a, b = prover.state[0], prover.state[1]
    restated, other = a * a >= b, b + 1 > b
    asked: list[str] = []
    real = solving._solve_as_stated

    def stated(facts: object, ob: object, timeout_ms: int) -> tuple[object, object]:
        asked.append(str(ob.goal))
        if str(restated) in str(ob.goal):
            return z3.unknown, z3.Solver()
        return real(facts, ob, timeout_ms)
    monkeypatch.setattr(solving, "_solve_as_stated", stated)
    given = attrs.evolve(ob, assumptions=[z3.And(a >= 0, restated)], goal=z3.And(restated, other))
    assert solving.solve(prover, facts, given, 700).status == "proved"
    assert asked == [str(other)]
    asked.clear()
    alone = attrs.evolve(given, goal=z3.And(a >= 0, restated))
    assert solving.solve(prover, facts, alone, 700).status == "proved"
    assert asked == []
    # not among the facts: asked as before (and lost)
    assert solving.solve(prover, facts, attrs.evolve(given, assumptions=[a >= 0]), 700).status == "unknown"


@pytest.mark.parametrize("needs_the_large_fact", [False, True])
def test_a_goal_is_tried_first_from_the_small_facts(monkeypatch: pytest.MonkeyPatch,
                                                    needs_the_large_fact: bool) -> None:
    """An obligation with a large assumption (a line of sight) is first tried from its small
    assumptions alone: a proof there is a proof, without the large one (here Z3 is lost on the whole
    problem, as it took 7-31 s on Betrayal's attacks). A goal that needs the large assumption is
    not failed by that try's model: it goes on as before (lost here: unknown)."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    a, b = prover.state[0], prover.state[1]
    bits = z3.Ints(" ".join(f"los_{i}" for i in range(200)))
    large = z3.And([z3.Or(x > i, x < b + i) for i, x in enumerate(bits)] + [a == b + 3])
    goal = a > b + 2 if needs_the_large_fact else a != b
    assert not solving._is_small(large) and solving._is_small(goal)
    asked: list[str] = []

    def stated(facts: object, ob: object, timeout_ms: int) -> tuple[object, object]:
        asked.append(str(ob.goal))
        return z3.unknown, z3.Solver()
    monkeypatch.setattr(solving, "_solve_as_stated", stated)
    monkeypatch.setattr(solving, "_check_instance", lambda *a: None)
    obligation = attrs.evolve(ob, assumptions=[a > b, large], goal=goal)
    result = solving.solve(prover, facts, obligation, 700)
    if needs_the_large_fact:
        assert result.status == "unknown" and asked  # not "failed": a small try's model proves nothing
    else:
        assert result.status == "proved" and not asked


def test_a_conjunct_still_unknown_after_its_retry_leaves_the_row_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other conjuncts proved, one unknown even with RETRY_FACTOR times the budget: unknown."""
    from ghostrules.prover import solving
    prover, facts, ob = _betrayal_obligation()
    a, b = prover.state[0], prover.state[1]
    easy, hard = a + 1 > a, b * 2 == b + b
    ob = attrs.evolve(ob, goal=z3.And(hard, easy))
    lost = _LostOnConjunctions(monkeypatch, lost=(hard,))
    assert solving.solve(prover, facts, ob, 700).status == "unknown"
    assert [t for g, t in lost.asked if g == str(hard)] == [700, 700 * solving.RETRY_FACTOR]
    assert [t for g, t in lost.asked if g == str(easy)] == [700]


def test_a_term_gets_only_the_atom_definitions_it_reaches(monkeypatch: pytest.MonkeyPatch) -> None:
    """atom_definitions walks a term for the atoms it reaches: an unrelated large definition known to
    the process is not handed to Z3 (it made a one-line Betrayal obligation take 13 s after another
    rule's lines of sight became atoms); past the walk limit, with few atoms, all of them are given
    (sound: an unused definition constrains nothing)."""
    import z3

    from ghostrules.prover import symbolic
    x, y = z3.Ints("x_t y_t")
    far = z3.Bool("far!t")
    near = z3.Bool("near!t")
    inner = z3.Bool("inner!t")
    atoms = {"far!t": (far, z3.And([x > k for k in range(50)])),
             "near!t": (near, z3.Or(inner, y > 1)),
             "inner!t": (inner, y < 5)}
    monkeypatch.setattr(symbolic, "_ATOMS", atoms)
    assert symbolic.atom_definitions([x > 0]) == []
    got = symbolic.atom_definitions([z3.Implies(near, x > 0)])
    assert {str(d) for d in got} == {str(near == atoms["near!t"][1]), str(inner == atoms["inner!t"][1])}
    # a term larger than the walk limit: every definition (few atoms), or still the walk (many)
    assert len(symbolic.atom_definitions([x > 0], walk_limit=1)) == 3
    monkeypatch.setattr(symbolic, "ALL_ATOMS_UP_TO", 2)
    assert symbolic.atom_definitions([x > 0], walk_limit=1) == []


def test_a_split_obligation_gets_a_long_whole_check_before_the_case_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (CI of 2026-12-01): BT-PLACE's tile conservation, which the whole check proves in
    about a second, missed a 1 s first try and took 9 minutes case by case. The whole check of an
    obligation with symbolic write indices now gets SPLIT_FIRST_MS before the split is tried."""
    from ghostrules.prover import solving
    from ghostrules.prover.local import Obligation
    from ghostrules.spec.model import Where

    class NoInvariants:
        def needs_invariants(self, families: object) -> bool:
            return False

        def for_families(self, families: object, invariants: bool = True) -> list:
            return []

    asked: list[int] = []
    monkeypatch.setattr(solving, "_check", lambda facts, ob, ms: (asked.append(ms), (z3.unsat, z3.Solver()))[1])
    monkeypatch.setattr(solving, "_split_check", lambda *a: pytest.fail("split although the whole check answered"))
    ob = Obligation("conservation", "BT-PLACE", Where("tiles.yaml", 1), "pool tiles keeps its totals", [],
                    z3.BoolVal(True), split=((z3.Int("i"), 3),))
    answer, _ = solving._solve_as_stated(NoInvariants(), ob, 5000)
    assert answer == z3.unsat and asked == [solving.SPLIT_FIRST_MS] and solving.SPLIT_FIRST_MS >= 3000
