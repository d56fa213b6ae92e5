"""The compiled procedures (engine/blocks.py) and the cheaper atomic apply_action do what the
plain interpreter does: the same games, the same logs, the same errors, the state unchanged after
a fault at any depth of the call stack, and generated code built from a closed set of forms."""

from __future__ import annotations

import ast
import random
import re

import pytest
from speed_helpers import positions_along

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import machine as machine_module
from ghostrules.engine.game import sample_chance

CONFIGS = [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
           ("ghost-stories", {"players": 2, "level": "hell", "edition": "hu"}),
           ("betrayal", {"players": 4})]


def _game_record(game: ghostrules.Game, seed: int, max_actions: int = 400) -> tuple:
    rng = random.Random(seed)
    state = game.new_initial_state(tracing=True)
    steps = 0
    while not state.is_terminal() and steps < max_actions:
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            actions = state.legal_actions()
            action = rng.choice(actions)
            assert len({a.label for a in actions}) == len(actions)
        state.apply_action(action)
        steps += 1
    return ([a.to_json() for a in state.history()], [a.label for a in state.history()],
            [str(e) for e in state.log()], state.to_json())


@pytest.mark.parametrize("name,params", CONFIGS)
def test_blocks_play_as_the_interpreter(name: str, params: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """With every block removed the interpreter runs each instruction itself: same games, same logs."""
    game = ghostrules.load_game(name, **params)
    seeds = range(4)
    compiled = [_game_record(game, s) for s in seeds]
    monkeypatch.setattr(game.program, "blocks", [[None] * len(p.code) for p in game.program.procs])
    interpreted = [_game_record(game, s) for s in seeds]
    assert compiled == interpreted


@pytest.mark.parametrize("name,params", [CONFIGS[0], CONFIGS[2]])
def test_fault_at_any_depth_leaves_the_state_unchanged(name: str, params: dict,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """apply_action saves a frame only when the machine first comes back to it. A fault injected
    after k dispatches of the machine (the endless-loop guard, made small) strikes at every depth
    of the stack, after frames were popped and new ones pushed: the state must be as before."""
    game = ghostrules.load_game(name, **params)
    positions = positions_along(game, range(2), every=3, tracing=True)
    faults = 0
    for state, action in positions:
        before = (state.to_json(), state.clone(), len(state.log()), [a.to_json() for a in state.history()])
        for limit in (1, 2, 3, 5, 8, 13):
            monkeypatch.setattr(machine_module, "STEP_LIMIT", limit)
            trial = state.clone()
            try:
                trial.apply_action(action)
            except SpecRuntimeError as exc:
                assert "endless loop" in str(exc)
                faults += 1
                assert trial.to_json() == before[0]
                assert trial == before[1]
                assert len(trial.log()) == before[2]
                assert [a.to_json() for a in trial.history()] == before[3]
                assert [[f[0], f[1], f[2]] for f in trial.stack] == [[f[0], f[1], f[2]] for f in before[1].stack]
            else:
                break
        monkeypatch.setattr(machine_module, "STEP_LIMIT", 2_000_000)
        state.apply_action(action)  # and the original still plays on
    assert faults > 20


# (_t\d+, Exception, set, _firsts, _members and .get: the helpers of engine/hoist.py, which compute loop-invariant
# and repeated parts into temporaries, speculatively; _p\d+: a procedure's fixed parameters held in
# variables; _U: the state's undo list, _S._undo; _j, _vs and _e with a number: a for loop's counter, values and
# variable, and enumerate, which counts for it)
_BLOCK_NAMES = re.compile(r"^(v|L|F|_S|tracing|_i|_x|_y|_mh|_ma|_k|_vs|_n|_c|_cv|_r|_e|_U|_p\d+|_h\d+|_j\d+|_vs\d+|_e\d+|enumerate|_q\d+|_k\d+|_d\d+|_t\d+|a\d+|_b\d+_\d+|_ck|_bad|_first|_firsts|_members|set|"
                          r"_within|_within_list|_match|_pick|_pick_at|_div|_mod|sum|any|all|next|iter|min|max|abs|str|len|range|hasattr|"
                          r"_label)$")
_BLOCK_ATTRS = {"count", "join", "pop", "append", "insert", "get", "stack", "_undo", "rule", "block_pc", "__traceback__", "tb_lineno", "_out_of_range", "_trace_set", "_move", "_move_fails", "_trace_move",
                "_note", "_cite", "_popped", "_precondition_fails", "_traced_let"}


def _audit_block_source(source: str) -> list[str]:
    bad = []
    allowed = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign, ast.AugAssign, ast.If,
               ast.While, ast.For, ast.Break, ast.Continue, ast.Pass, ast.Try, ast.ExceptHandler, ast.Raise, ast.Expr,
               ast.Load, ast.Store, ast.Name, ast.Constant, ast.Subscript, ast.Slice, ast.BinOp, ast.UnaryOp,
               ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.GeneratorExp, ast.comprehension, ast.Tuple,
               ast.List, ast.ListComp, ast.Dict, ast.keyword, ast.Attribute, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
               ast.NamedExpr)  # (a check written in place holds its value in _cv: engine/passed.py)
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, allowed):
            bad.append(f"node {type(node).__name__}")
        elif isinstance(node, ast.Name) and not _BLOCK_NAMES.match(node.id) and node.id not in ("BaseException", "Exception"):
            bad.append(f"name {node.id}")
        elif isinstance(node, ast.keyword) and node.arg != "default":
            bad.append(f"keyword {node.arg}")
        elif isinstance(node, ast.Attribute) and node.attr not in _BLOCK_ATTRS:
            bad.append(f"attribute {node.attr}")
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, str, type(None))):
            bad.append(f"constant {node.value!r}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and not (
                node.value == "" or re.fullmatch(r"#?[A-Za-z_][\w:]*|say|block_pc", node.value)):
            bad.append(f"string {node.value!r}")
        elif isinstance(node, ast.FunctionDef) and not re.fullmatch(r"_b\d+_\d+|_d\d+", node.name):
            bad.append(f"function {node.name}")
    return bad


@pytest.mark.parametrize("game", ["ghost-stories", "betrayal"])
def test_block_sources_use_only_the_compilers_own_forms(game: str) -> None:
    """The compiled procedures are built from a closed set of forms too: spec names appear only as
    string keys of the locals (``L['m']``), every other name is generated or one of a few builtins."""
    program = ghostrules.load_game(game).program
    sources = program.exprs.block_sources
    assert sources and sum(s.count("\ndef ") for s in sources) > 100
    problems = {p for src in sources for p in _audit_block_source(src)}
    assert problems == set()


# ---- a filter that does not read the loop variable is tested once per pass ---------------------------------

_FIXED_FILTER_GAME = """\
game: fixedfilter
title: Loop filters that do not read the loop variable
players: player
flow: {setup: setup, turn: turn}
domains:
  player: [ann]
  face: [zero, one]
  slot: [s1, s2, s3, s4]
state:
  cnt: {range: [0, 30]}
  lim: {range: [0, 30], init: 3}
  hits: {range: [0, 30]}
  rolls: {range: [0, 30]}
dice:
  d1: {faces: [one], domain: face}
"""

_FIXED_FILTER_RULES = """\
family: core
title: Core
rules:
  - id: F-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {cnt: 0}
  - id: F-TURN
    text: Loops whose filters read the loop variable or not, then a choice.
    procedure: turn
    do:
      - for: "a in [1, 2, 3, 4, 5] if cnt < lim"
        do:
          - set: {cnt: "cnt + 1"}
      - for: "b in [1, 2, 3, 4] if cnt > 100"
        do:
          - set: {hits: "hits + 1"}
      - for: "c in [1, 2, 3, 4, 5, 6] if c > cnt"
        do:
          - set: {hits: "hits + 1"}
      - for: "e in [2, 3, 4] if lim > 0"
        do:
          - set: {hits: "hits + 1"}
      - for: "g in [1, 2, 3] if rolls < 2"
        do:
          - roll: d1
            as: f
          - set: {rolls: "rolls + 1"}
      - for: "h in [1, 2, 3, 4, 5, 6, 7] if rolls > 5 and h > 0"
        do:
          - set: {hits: "hits + 10"}
      - for: "q in slot if lim > 5"
        do:
          - set: {hits: "hits + 10"}
      - for: "w in slot if cnt < lim + 2"
        do:
          - set: {cnt: "cnt + 1"}
      - choose: done?
        by: ann
        options:
          - label: stop
            do:
              - end: win
"""


def _fixed_filter_game(tmp_path) -> ghostrules.Game:
    from ghostrules.spec import load_spec
    root = tmp_path / "specs" / "fixedfilter"
    (root / "rules").mkdir(parents=True)
    (root / "game.yaml").write_text(_FIXED_FILTER_GAME, encoding="utf-8")
    (root / "rules" / "core.yaml").write_text(_FIXED_FILTER_RULES, encoding="utf-8")
    return ghostrules.Game(load_spec("fixedfilter", root=tmp_path / "specs"))


def _to_first_decision(game: ghostrules.Game) -> ghostrules.State:
    state = game.new_initial_state(tracing=True)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, random.Random(0)))
    return state


def _fixed_filter_run(game: ghostrules.Game) -> tuple:
    state = _to_first_decision(game)
    return state.to_json(), [str(e) for e in state.log()]


def test_a_filter_that_does_not_read_the_variable_is_tested_once(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``for x in D if cond`` where cond does not read x: one test per pass instead of a scan of the
    values left, leaving the same values, locals (the last value of D bound when the loop ends) and
    log as the scan, compiled or interpreted; a filter that reads x keeps the scan."""
    import json
    from ghostrules.engine import program as program_module
    from ghostrules.engine.program import ForNextI
    from ghostrules.engine import blocks as blocks_module
    monkeypatch.setattr(blocks_module, "FOR_LOOPS", False)  # the heads written as the interpreter's steps
    game = _fixed_filter_game(tmp_path)
    monkeypatch.undo()
    heads = {ins.var: ins for ins in game.program.by_name["turn"].code if type(ins) is ForNextI}
    assert {v for v, ins in heads.items() if ins.cond_fixed} == {"a", "b", "e", "g", "q", "w"}
    source = "".join(game.program.exprs.block_sources)
    assert "while _k < _n:" in source and "if _k >= _n:" in source  # the scan and the single test
    compiled = _to_first_decision(game)
    # a: passes 3 times then fails; b, q: false from the start; c, h: read their variable (scan);
    # e: always true; g: a roll in the body (the interpreter's step), fails after 2; w: over a domain
    assert compiled.values == [5, 3, 6, 2]  # cnt, lim, hits, rolls
    (frame,) = json.loads(compiled.to_json())["stack"]
    assert frame[0] == "turn"
    assert frame[2] == {"a": 5, "b": 4, "c": 6, "e": 4, "f": 1, "g": 3, "h": 7, "q": 3, "w": 3}
    new = _fixed_filter_run(game)
    monkeypatch.setattr(game.program, "blocks", [[None] * len(p.code) for p in game.program.procs])
    assert _fixed_filter_run(game) == new  # the interpreter's ForNextI
    python_for = _fixed_filter_game(tmp_path / "for")  # loops that never leave their block as Python for loops
    assert "for _h" in "".join(python_for.program.exprs.block_sources)
    assert _fixed_filter_run(python_for) == new
    monkeypatch.setattr(program_module, "_reads_not", lambda fn, name: False)  # every filter scans, as before
    scanning = _fixed_filter_game(tmp_path / "scan")
    assert not any(type(ins) is ForNextI and ins.cond_fixed for ins in scanning.program.by_name["turn"].code)
    assert _fixed_filter_run(scanning) == new
    monkeypatch.setattr(scanning.program, "blocks", [[None] * len(p.code) for p in scanning.program.procs])
    assert _fixed_filter_run(scanning) == new
