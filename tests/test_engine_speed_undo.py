"""The mechanisms of the 16:30 speed work (bench/README.md, "Undo journal, fixed parameters, reused
Actions"), each against the plain way it replaces:

* apply_action undoes a failed action from a journal of the slots written (State._undo), in place,
  instead of copying the values beforehand;
* the compiled blocks hold a procedure's fixed parameters in Python variables (blocks._fixed_params);
* an option whose label reads slots reuses the Action made for the same value and label
  (MenuOptionI.by_label);
* the outcomes of a draw found when the machine stopped there are reused while the frame, values and
  locals are the same (State._drawn);
* a loop shorter than hoist.LOOKUPS_FROM scans the run instead of building a set or table;
* the range checks ``_ck`` and ``_within`` of a simple value are written in place (hoist.inline_checks).
"""

from __future__ import annotations

import random
import re

import pytest
from speed_helpers import compile_hoisted, positions_along, traced_record

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import blocks as blocks_module
from ghostrules.engine.game import Game, sample_chance
from ghostrules.engine.hoist import LOOKUPS_FROM, inline_checks
from ghostrules.engine.program import MenuI, RandomI
from ghostrules.engine.runtime import _RUNTIME
from ghostrules.engine.state import State
from ghostrules.spec.loader import load_spec

CONFIGS = [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
           ("betrayal", {"players": 4})]


@pytest.mark.parametrize("name,params", CONFIGS)
def test_fixed_parameters_in_variables_play_the_same(name: str, params: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = ghostrules.load_game(name, **params)
    assert any("    _p0 = L[" in s for s in fast.program.exprs.block_sources), "no parameter held in a variable"
    with monkeypatch.context() as m:
        m.setattr(blocks_module, "_fixed_params", lambda proc: {})
        plain = Game(load_spec(name, **params))
    assert not any("_p0" in s for s in plain.program.exprs.block_sources)
    for seed in range(3):
        assert traced_record(fast, seed, 300) == traced_record(plain, seed, 300)


@pytest.mark.parametrize("name,params", CONFIGS)
def test_a_failed_action_undoes_every_write_in_place(name: str, params: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault after the whole action has run (every write of it journalled): the values come back,
    in the same list, and so do the frames, the history and the log."""
    game = ghostrules.load_game(name, **params)
    positions = positions_along(game, range(2), every=2)
    advance = State._advance

    def failing(self: State, node: object, chosen: object) -> None:
        advance(self, node, chosen)
        raise SpecRuntimeError("injected")

    changed = 0
    for state, action in positions:
        after = state.child(action)
        changed += after.values != state.values
        before = (state.to_json(), state.clone(), list(state.values))
        values = state.values
        with monkeypatch.context() as m:
            m.setattr(State, "_advance", failing)
            with pytest.raises(SpecRuntimeError, match="injected"):
                state.apply_action(action)
        assert state.values is values and state.values == before[2]
        assert state.to_json() == before[0] and state == before[1]
        assert state._undo == []
        state.apply_action(action)  # and it still plays on, to the same position as the child
        assert state == after
    assert changed > 20


def _labels(state: State) -> list[tuple]:
    return [(a.kind, a.key, a.label, a.rule) for a in state.legal_actions()]


def test_actions_of_options_with_slot_labels_are_reused_correctly() -> None:
    game = ghostrules.load_game(*CONFIGS[0][:1], **CONFIGS[0][1])
    options = [o for p in game.program.procs for ins in p.code if type(ins) is MenuI for o in ins.options
               if o.by_label is not None]
    assert options, "no option label reads a slot"
    reused = 0
    first_seen: dict[tuple, object] = {}
    for state, _ in positions_along(game, range(3), every=1):
        if state.is_chance_node() or state.is_terminal():
            continue
        node = state._node()
        actions = state.legal_actions()
        for a in actions:
            if node.options[a.key[0]].by_label is None:
                continue
            seen = first_seen.setdefault((node.options[a.key[0]], a.key, a.label), a)
            reused += seen is a  # the first sighting, or the same object again
        kept = [o.by_label for o in options]
        for o in options:
            o.by_label = {}
        try:
            assert _labels(state) == [(a.kind, a.key, a.label, a.rule) for a in actions]  # as made afresh
        finally:
            for o, d in zip(options, kept):
                o.by_label = d
    assert reused > len(first_seen)  # the same Action objects offered again at later positions


def test_draw_outcomes_are_reused_only_while_valid() -> None:
    """Reused at the node the machine stopped at; recomputed after the values or the locals change
    underneath (as a search writes them), and on a clone."""
    game = ghostrules.load_game(*CONFIGS[0][:1], **CONFIGS[0][1])
    rng = random.Random(5)
    layout = game.layout
    hits = 0
    for seed in range(2):
        play = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            action = sample_chance(state, play) if state.is_chance_node() else play.choice(state.legal_actions())
            probe = state.child(action)  # stopped by its own machine: the draw's outcomes kept
            state.apply_action(action)
            if not probe.is_chance_node() or type(probe._node()) is not RandomI:
                continue
            node, frame = probe._node(), probe.stack[-1]
            assert probe._drawn is not None and probe._drawn[0] is frame
            assert [a.key[0] for a in probe.chance_weights()[0]] == node.members(probe.values, frame[2])
            hits += 1
            for _ in range(3):  # values or locals changed in place: the outcomes of the new ones
                if rng.random() < 0.2 and frame[2]:
                    name = rng.choice(sorted(frame[2]))
                    frame[2][name] = rng.randint(-1, 3)
                else:
                    flat = rng.randrange(len(probe.values))
                    probe.values[flat] = rng.randint(layout.lows[flat], layout.highs[flat])
                try:
                    want = node.members(probe.values, frame[2])
                except Exception:  # noqa: BLE001 - a position the spec cannot be in
                    break
                if not want:
                    break
                assert [a.key[0] for a in probe.chance_weights()[0]] == want
                assert [a.key[0] for a in probe.clone().chance_weights()[0]] == want
    assert hits > 20


@pytest.mark.parametrize("n", [3, LOOKUPS_FROM, 12])
def test_short_loops_scan_long_loops_use_tables(n: int) -> None:
    code = f"[_q1 for _q1 in range({n}) if not _q1 in v[0:40] and _first(v, 40, 40, L['a'] + _q1) != -1 and v[L['b']] > 0]"
    fast, plain, helpers = compile_hoisted(code)
    tables = bool(helpers) and "_members(v, 0, 40)" in helpers[0] and "_firsts(v, 40, 40)" in helpers[0]
    assert tables == (n >= LOOKUPS_FROM)
    rng = random.Random(n)
    for _ in range(200):
        v = [rng.randint(-1, 45) for _ in range(80)]
        L = {"a": rng.randint(0, 30), "b": rng.randint(0, 79)}
        assert fast(v, L) == plain(v, L)


def test_range_checks_written_in_place_agree_with_the_helpers() -> None:
    code = ("[(_ck(_q1, 5, _k1) + _within(v[3 + _q1], 4) + _ck(L['a'], 3, _k2) + _within(a0, 2)"
            " + _ck(v[2 + (1 if a0 else 0)], 9, _k1), _label(_k3, v[5 + _q1])) for _q1 in range(7)]")  # _label: kept
    fast = inline_checks(code)
    assert "_ck(_q1" not in fast and "_within(v[3 + _q1]" not in fast and "_ck(L['a']" not in fast
    assert "_within(a0" not in fast and "_ck(v[2 + (1" in fast  # a computed index is left to the helper
    assert "_label(_k3, v[5 + _q1])" in fast
    ns = dict(_RUNTIME, _k1="first out of range", _k2="second out of range", _k3=("zero", "one", "two"))
    inlined = eval(f"lambda v, L, a0: {fast}", ns)  # noqa: S307 - the test's own code
    plain = eval(f"lambda v, L, a0: {code}", ns)  # noqa: S307

    def outcome(fn, *args):
        try:
            return ("value", fn(*args))
        except SpecRuntimeError as exc:
            return ("error", str(exc))

    rng = random.Random(7)
    for _ in range(300):
        v = [rng.randint(-2, 10) for _ in range(12)]
        args = (v, {"a": rng.randint(-1, 3)}, rng.randint(-1, 2))
        assert outcome(inlined, *args) == outcome(plain, *args)
    game = ghostrules.load_game(*CONFIGS[0][:1], **CONFIGS[0][1])
    sources = game.program.exprs.block_sources  # both forms are written in place in the real game's blocks
    assert any("if 0 <= _t" in s and "else _bad(" in s for s in sources)  # _ck on a temporary
    assert any(re.search(r"\(v\[\d+ \+ _q\d+\] if 0 <= v\[\d+ \+ _q\d+\] < \d+ else -1\)", s) for s in sources)  # _within
