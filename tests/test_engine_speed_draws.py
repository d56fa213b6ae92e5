"""A draw whose outcomes are the places of a run of slots holding one value (compile_expr.Scan) is counted
by the machine for game.play's own loop, and its outcome found without listing the others: the same
outcomes, in the same order, and the same games as with the list."""

from __future__ import annotations

import random

import pytest

import ghostrules
from ghostrules.engine import machine as machine_module
from ghostrules.engine.game import play
from ghostrules.engine.program import RandomI
from ghostrules.engine.compile_expr import scan_of
from ghostrules.engine.runtime import _RUNTIME, nth

CONFIGS = [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
           ("betrayal", {"players": 4})]


def test_nth_finds_the_jth_hit() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.randrange(1, 70)
        p = rng.random()
        values: list[int] | tuple[int, ...] = [0 if rng.random() < p else rng.randrange(1, 4) for _ in range(n)]
        if rng.random() < 0.5:
            values = tuple(values)
        where = [i for i in range(n) if values[i] == 0]
        assert [nth(values, 0, len(where), j) for j in range(len(where))] == where


def _fn(fast: str, **names: object) -> object:
    space = dict(_RUNTIME, **names)
    fn = eval(f"lambda v, L: {fast}", space)  # noqa: S307 - test source
    fn.fast = fast
    return fn


def test_only_scans_with_conditions_decided_once_are_counted() -> None:
    table = (0, 5, 0, 5, 5, 0)
    plain = scan_of(_fn("_match(v, 2, 6, L['x'])"))
    assert plain is not None and plain.places == range(6)
    fn = _fn("[_q1 for _q1 in _match(v, 2, 6, 1) if (_k1[_q1] > 1)]", _k1=table)
    kept = scan_of(fn)
    assert kept is not None and list(kept.places) == [1, 3, 4]
    v = [9, 9, 1, 1, 1, 0, 1, 1]
    hits, run, x = kept.run(v, {})
    assert [kept.places[nth(run, x, hits, j)] for j in range(hits)] == fn(v, {}) == [1, 4]
    # the state or a local read, a call, a condition that can fail: listed as before
    assert scan_of(_fn("[_q1 for _q1 in _match(v, 2, 6, 1) if v[_q1] > 0]")) is None
    assert scan_of(_fn("[_q1 for _q1 in _match(v, 2, 6, 1) if L['y'] > 0]")) is None
    assert scan_of(_fn("[_q1 for _q1 in _match(v, 2, 6, 1) if _d1(_q1)]", _d1=lambda q: q)) is None
    assert scan_of(_fn("[_q1 for _q1 in _match(v, 2, 6, 1) if _k1[_q1] > 1]", _k1=(1, 2))) is None
    assert scan_of(_fn("[_q1 for _q1 in range(6) if v[_q1] == 1]")) is None


@pytest.mark.parametrize("name,params", CONFIGS)
def test_counted_draws_give_the_listed_outcomes(name: str, params: dict) -> None:
    game = ghostrules.load_game(name, **params)
    draws = [ins for proc in game.program.procs for ins in proc.code if type(ins) is RandomI]
    scanned = [ins for ins in draws if scan_of(ins.members) is not None]
    if name == "ghost-stories":
        assert scanned, "no draw counted"
    rng = random.Random(1)
    for seed in range(3):
        state = game.new_initial_state()
        moves = random.Random(seed)
        while not state.is_terminal():
            for ins in scanned:
                scan = scan_of(ins.members)
                try:
                    want = ins.members(state.values, state.stack[-1][2])
                except Exception:  # noqa: BLE001 - a local the draw reads is not bound here
                    continue
                hits, run, x = scan.run(state.values, state.stack[-1][2])
                assert [scan.places[nth(run, x, hits, j)] for j in range(hits)] == want
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_weights()[0]))
            else:
                state.apply_action(moves.choice(state.legal_actions()))


@pytest.mark.parametrize("name,params", CONFIGS)
def test_counted_draws_play_the_same_games(name: str, params: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    game = ghostrules.load_game(name, **params)
    counted = [play(game, seed).history() for seed in range(4)]
    monkeypatch.setattr(machine_module, "scan_of", lambda fn: None)
    assert [play(game, seed).history() for seed in range(4)] == counted
