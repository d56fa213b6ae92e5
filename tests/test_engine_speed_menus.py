"""Each decision lists its options by its own generated function (engine/menus.py), and ``play``
takes its own actions without apply_action's rollback journal (engine/game.py); each against the
plain way it replaces:

* the generated function gives what the generic loop ``State._menu_options_generic`` gives: the
  same Actions (the same objects, from the same caches), labels, rules and order, repeated labels
  numbered, over the positions of random games of both games and over those positions with slots
  changed at random (where a guard or a label may fail: then both fail alike);
* ``play`` without ``on_step`` gives the games the public loop gives, and an action that fails in it
  raises the error apply_action raises; with ``on_step`` (which sees the state) it still rolls back.
"""

from __future__ import annotations

import ast
import random
import re
from typing import Any

import pytest
from speed_helpers import positions_along

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine.game import Game, random_policy, sample_chance
from ghostrules.engine.program import MenuI
from ghostrules.engine.state import State

CONFIGS = [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
           ("ghost-stories", {"players": 3, "level": "normal", "edition": "hu"}),
           ("ghost-stories", {"players": 1, "level": "nightmare", "edition": "hu"}),
           ("betrayal", {"players": 4}),
           ("betrayal", {"players": 3})]


@pytest.fixture(scope="module", params=range(len(CONFIGS)), ids=[f"{n}-{sorted(p.items())}" for n, p in CONFIGS])
def game(request: Any) -> Game:
    name, params = CONFIGS[request.param]
    return ghostrules.load_game(name, **params)


def _listing(state: State, method: str) -> tuple[str, Any]:
    """What listing the pending decision's options gives: ("ok", the Actions) or ("error", the fault)."""
    try:
        return "ok", getattr(state, method)(state._node())
    except (SpecRuntimeError, KeyError, IndexError, TypeError) as exc:
        return "error", (type(exc), str(exc))


def _shown(actions: list[Any]) -> list[tuple[Any, ...]]:
    return [(a.kind, a.key, a.label, a.rule) for a in actions]


def test_every_decision_lists_what_the_generic_loop_lists(game: Game) -> None:
    """Along random games: the same Actions in the same order, with the same labels and rules; an
    Action kept in an option's cache is the very object the generic loop gives (they share the caches)."""
    decisions_seen = same_objects = 0
    for state, _ in positions_along(game, range(3), every=1):
        if type(state._node()) is not MenuI:
            continue
        decisions_seen += 1
        new = state._menu_options(state._node())
        old = state._menu_options_generic(state._node())
        assert _shown(new) == _shown(old)
        same_objects += sum(a is b for a, b in zip(new, old))
    assert decisions_seen > 40 and same_objects > decisions_seen


def test_decisions_agree_on_changed_positions(game: Game) -> None:
    """The positions of random games with a few slots set to random values in their ranges (guards
    then meet values a game would not reach, and some fail): the same options, or the same fault."""
    rng = random.Random(7)
    layout = game.layout
    compared = faults = 0
    for state, _ in positions_along(game, range(3), every=2):
        if type(state._node()) is not MenuI:
            continue
        for _ in range(4):
            trial = state.clone()
            for _ in range(rng.choice((1, 3, 12))):
                k = rng.randrange(len(trial.values))
                trial.values[k] = rng.randint(layout.lows[k], layout.highs[k])
            new = _listing(trial, "_menu_options")
            old = _listing(trial, "_menu_options_generic")
            if new[0] == "ok" and old[0] == "ok":
                assert _shown(new[1]) == _shown(old[1])
            else:
                assert new == old
                faults += 1
            compared += 1
    assert compared > 60


def test_legal_actions_and_child_follow_the_generated_listing(game: Game) -> None:
    """The public API on the generated listing: legal_actions, apply_action by label and child give
    the positions the generic listing's actions give."""
    for state, _ in positions_along(game, range(1), every=3):
        if type(state._node()) is not MenuI:
            continue
        offered = state.legal_actions()
        plain = state._menu_options_generic(state._node())
        assert _shown(offered) == _shown(plain)
        action = plain[len(plain) // 2]
        by_label = state.clone()
        by_label.apply_action(action.label)
        assert state.child(action).to_json() == by_label.to_json()


def _failing_run(after: int) -> Any:
    """A Machine._run that fails at its ``after``-th call (after running, so the state has changed)."""
    run = State._run
    calls = [0]

    def failing(self: State) -> Any:
        calls[0] += 1
        answer = run(self)
        if calls[0] == after:
            raise SpecRuntimeError("injected fault", "X-1", "here")
        return answer
    return failing


def test_play_without_on_step_gives_the_public_games() -> None:
    game = ghostrules.load_game("ghost-stories", players=2, level="hell", edition="el")
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else random_policy(state, rng))
        played = ghostrules.play(game, seed=seed)
        assert played.to_json() == state.to_json()
        assert [a.label for a in played.history()] == [a.label for a in state.history()]


@pytest.mark.parametrize("after", [2, 17, 60])
def test_a_fault_in_play_raises_as_apply_action_and_rolls_back_where_seen(monkeypatch: Any, after: int) -> None:
    """An action that fails: play (no on_step) raises the fault apply_action raises; with on_step, the
    state it saw last is the state after the failure too (rolled back), as apply_action guarantees."""
    game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
    with monkeypatch.context() as m:
        m.setattr(State, "_run", _failing_run(after))
        with pytest.raises(SpecRuntimeError, match="injected fault"):
            ghostrules.play(game, seed=5)
    seen: list[tuple[State, str]] = []
    with monkeypatch.context() as m:
        m.setattr(State, "_run", _failing_run(after))
        with pytest.raises(SpecRuntimeError, match="injected fault"):
            ghostrules.play(game, seed=5, on_step=lambda s: seen.append((s, s.to_json())))
    if seen:
        state, last = seen[-1]
        assert state.to_json() == last
        state.legal_actions() if not state.is_chance_node() else state.chance_outcomes()


# ---- the generated source: the expressions' own forms, names of constants only ------------------
_NAMES = re.compile(r"^(v|L|_a|_l|_at|_out|_seen|_cv|_w\d+|_x\d+|_t\d+|_g\d+_\d+|_L\d+|_K\d+|_m\d+|_m\d+_plain|_q\d+|_k\d+|_d\d+|_t\d+|_ck|_bad|"
                    r"_first|_firsts|_members|_within|_within_list|_match|_pick|_pick_at|_div|_mod|_label|sum|any|all|next|min|max|abs|"
                    r"str|len|range|set|Exception)$")


@pytest.mark.parametrize("name,params", [CONFIGS[0], CONFIGS[3]])
def test_decision_sources_hold_no_spec_text(name: str, params: dict[str, Any]) -> None:
    """Spec names reach the generated source only as string keys of the locals (``L['m']``); every
    other name is generated or one of a few builtins, and no string but a key, ``choose`` or ''."""
    game = ghostrules.load_game(name, **params)
    sources = [menu.source for menu in game.menus.values()]
    assert len(sources) > 20
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name):
                assert _NAMES.match(node.id), node.id
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value in ("", "choose", " #") or re.fullmatch(r"[A-Za-z_]\w*", node.value), node.value
            elif isinstance(node, ast.Attribute):
                assert node.attr in ("get", "append", "label", "copy", "join"), node.attr
