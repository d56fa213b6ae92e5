"""The mechanisms of the per-action speed work on the engine's own path (state.py, machine.py, game.py),
each against the plain way it replaces:

* ``State._step`` (what ``apply_action`` runs) and ``Machine._run`` answer the node the machine
  stopped at, and ``play`` takes it from there instead of asking ``is_chance_node``, ``legal_actions``
  and ``sample_chance`` to look it up again; at a draw it reuses the outcomes the machine kept
  (``State._drawn``) unless ``on_step`` ran since;
* ``State.child`` copies only the top frame: the frames below are shared by both states until either
  machine returns into one, which copies it first (``State._shared``), so neither state ever sees the
  other's changes;
* ``_menu_options`` split by the kind of label: the same Actions, labels and duplicate marks.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from speed_helpers import positions_along
from toy_copies import toy_copy

import ghostrules
from ghostrules import IllegalActionError, SpecRuntimeError
from ghostrules.engine.game import Game, random_policy, sample_chance
from ghostrules.engine.program import RandomI
from ghostrules.engine.state import State
from ghostrules.spec.loader import load_spec

CONFIGS = [("ghost-stories", {"players": 4, "level": "initiation", "edition": "el"}),
           ("ghost-stories", {"players": 2, "level": "hell", "edition": "hu"}),
           ("betrayal", {"players": 4})]


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {f"{name}{sorted(params.items())}": ghostrules.load_game(name, **params) for name, params in CONFIGS}


def _game(games: dict[str, Game], k: int) -> Game:
    name, params = CONFIGS[k]
    return games[f"{name}{sorted(params.items())}"]


def _public_play(game: Game, seed: int, policy: Any = random_policy, tracing: bool = False,
                 on_step: Any = None) -> State:
    """``play`` as the loop of public calls it stands for."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing)
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else policy(state, rng)
        state.apply_action(action)
        if on_step is not None:
            on_step(state)
    return state


def _same(a: State, b: State) -> None:
    assert [x.to_json() for x in a.history()] == [x.to_json() for x in b.history()]
    assert [x.label for x in a.history()] == [x.label for x in b.history()]
    assert [str(e) for e in a.log()] == [str(e) for e in b.log()]
    assert a.to_json() == b.to_json() and a == b


@pytest.mark.parametrize("k", range(len(CONFIGS)))
def test_play_is_the_loop_of_public_calls(games: dict[str, Game], k: int) -> None:
    game = _game(games, k)
    for seed in range(3):
        _same(ghostrules.play(game, seed=seed), _public_play(game, seed))
    _same(ghostrules.play(game, seed=7, tracing=True), _public_play(game, 7, tracing=True))

    def other(state: State, rng: random.Random) -> Any:  # not random_policy: called as given
        return rng.choice(state.legal_actions()[::-1])

    _same(ghostrules.play(game, seed=3, policy=other), _public_play(game, 3, policy=other))


def test_play_recomputes_the_draw_after_on_step_changes_the_position(games: dict[str, Game]) -> None:
    """An on_step that moves a card out of the deck while a draw is pending: the draw must not offer
    it (the outcomes the machine kept at the pause are stale then)."""
    game = _game(games, 0)
    cards = game.layout.domains["card"].symbols
    changed = 0

    def on_step(state: State) -> None:
        nonlocal changed
        node = state._node()
        if type(node) is RandomI and state.prompt() == "draw a card":
            members = state._random_members(node)
            if len(members) > 2:
                state.set("at", cards[members[0]], "discard")
                changed += 1

    for seed in range(3):
        played = ghostrules.play(game, seed=seed, on_step=on_step)
        _same(played, _public_play(game, seed, on_step=on_step))
    assert changed > 10


@pytest.mark.parametrize("k", range(len(CONFIGS)))
def test_step_answers_the_pending_node(games: dict[str, Game], k: int) -> None:
    game = _game(games, k)
    seen = set()
    for state, action in positions_along(game, range(2), every=3):
        node = state._step(action)
        assert node is state._node()
        seen.add(type(node).__name__)
        if node is not None:  # already at a pause: the machine stays there, and says so
            other = state.clone()
            assert other._run() is node and other == state
    assert {"MenuI", "RandomI"} <= seen


def _deep(state: State) -> Any:
    """The stack as values, and the values."""
    return [[f[0], f[1], dict(f[2])] for f in state.stack], list(state.values), [a.to_json() for a in state.history()]


@pytest.mark.parametrize("k", range(len(CONFIGS)))
def test_child_shares_frames_yet_neither_state_sees_the_other(games: dict[str, Game], k: int) -> None:
    """A child and its parent share the frames below the top; playing either on (as far as the end
    of the game) changes neither the other nor what the other then plays, against copies made with
    ``clone()`` (all frames copied)."""
    game = _game(games, k)
    shared = 0
    positions = positions_along(game, range(2), every=2)
    positions = positions[::max(1, len(positions) // 80)]  # (Betrayal's games are long)
    for n, (state, action) in enumerate(positions):
        parent_before = _deep(state)
        child = state.child(action)
        assert _deep(state) == parent_before
        depth = min(len(state.stack), len(child.stack)) - 1
        shared += sum(child.stack[i] is state.stack[i] for i in range(depth))
        reference = state.clone()
        reference.apply_action(action)
        assert child == reference and _deep(child) == _deep(reference)
        child_after = _deep(child)
        rng = random.Random(n)
        # the parent plays on: the child does not move
        parent_ref = state.clone()
        for _ in range(4 if n % 8 else 200):
            if state.is_terminal():
                break
            a = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            state.apply_action(a)
            parent_ref.apply_action(a)
            assert _deep(state) == _deep(parent_ref)
        assert _deep(child) == child_after
        # the child plays on (and has children of its own): the parent does not move
        parent_now = _deep(state)
        for _ in range(4 if n % 8 else 200):
            if child.is_terminal():
                break
            a = sample_chance(child, rng) if child.is_chance_node() else rng.choice(child.legal_actions())
            grandchild = child.child(a)
            child.apply_action(a)
            reference.apply_action(a)
            assert _deep(child) == _deep(reference) == _deep(grandchild)
        assert _deep(state) == parent_now
    assert shared > 30  # the mechanism is in use: frames below the top are shared, not copied


@pytest.mark.parametrize("k", [0, 2])
def test_failed_action_on_a_state_with_shared_frames_restores_it(games: dict[str, Game], k: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault after a whole action (it returned into frames shared with the parent, and copied
    them): the state comes back as it was, frames still shared, and plays on as a copy would."""
    game = _game(games, k)
    advance = State._advance

    def failing(self: State, node: object, chosen: object) -> None:
        advance(self, node, chosen)
        raise SpecRuntimeError("injected")

    returned = 0
    positions = positions_along(game, range(2), every=2)
    positions = positions[::max(1, len(positions) // 150)]
    for parent, action in positions:
        child = parent.child(action)
        if child.is_terminal():
            continue
        rng = random.Random(len(child.history()))
        step = sample_chance(child, rng) if child.is_chance_node() else rng.choice(child.legal_actions())
        before = (child.to_json(), child.clone(), _deep(child), child._shared, list(child.stack))
        parent_before = _deep(parent)
        with monkeypatch.context() as m:
            m.setattr(State, "_advance", failing)
            with pytest.raises(SpecRuntimeError, match="injected"):
                child.apply_action(step)
        assert child.to_json() == before[0] and child == before[1] and _deep(child) == before[2]
        assert child._shared == before[3] and all(a is b for a, b in zip(child.stack, before[4]))
        assert _deep(parent) == parent_before
        expected = before[1]
        expected.apply_action(step)
        returned += len(expected.stack) < len(child.stack)
        child.apply_action(step)
        assert _deep(child) == _deep(expected) and _deep(parent) == parent_before
    assert returned > 5  # some of the actions returned into the shared frames


@pytest.mark.parametrize("k", [0, 2])
def test_illegal_action_leaves_child_and_parent_unchanged_and_names_the_rule(games: dict[str, Game], k: int) -> None:
    game = _game(games, k)
    checked = 0
    for parent, action in positions_along(game, range(2), every=5):
        child = parent.child(action)
        if child.is_terminal():
            continue
        before, parent_before = (child.to_json(), _deep(child), child._shared), _deep(parent)
        rule = child.node_rule()
        for bad in ("fly to the moon", ghostrules.Action("choose", (999, 0), "nowhere")):
            with pytest.raises(IllegalActionError) as info:
                child.apply_action(bad)
            assert info.value.rule_id == rule and rule
            with pytest.raises(IllegalActionError):
                child.child(bad)
            assert (child.to_json(), _deep(child), child._shared) == before and _deep(parent) == parent_before
        checked += 1
    assert checked > 10


def test_a_child_of_a_finished_game_is_refused(games: dict[str, Game]) -> None:
    game = _game(games, 0)
    state = ghostrules.play(game, seed=1)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.child(state.history()[-1])
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(state.history()[-1])


@pytest.mark.parametrize("k", range(len(CONFIGS)))
def test_options_are_the_plain_enumeration(games: dict[str, Game], k: int) -> None:
    """Every decision's options against a plain enumeration of the menu (guard, value, label, '#n'
    for a repeated label), and the same Action objects offered again for the same value and label."""
    game = _game(games, k)
    again = 0
    for state, _ in positions_along(game, range(2), every=1):
        node = state._node()
        if state.is_chance_node() or state.is_terminal():
            continue
        got = state.legal_actions()
        want = []
        seen: dict[str, int] = {}
        base = state.stack[-1][2]
        for o_index, opt in enumerate(node.options):
            for value in state._option_values(opt, base):
                L = dict(base)
                if opt.var is not None:
                    L[opt.var] = value
                if opt.cond is not None and not opt.cond(state.values, L):
                    continue
                label = opt.label(state.values, L)
                seen[label] = seen.get(label, 0) + 1
                want.append(("choose", (o_index, value), label if seen[label] == 1 else f"{label} #{seen[label]}",
                             opt.rule))
        assert [(a.kind, a.key, a.label, a.rule) for a in got] == want
        twice = state.legal_actions()
        again += sum(a is b for a, b in zip(got, twice))
        assert twice == got
    assert again > 100


@pytest.mark.parametrize("label", ['"take {f}"', '"holds {stock[active]}"'])
def test_a_repeated_label_is_numbered_in_both_kinds_of_option(tmp_path: Path, label: str) -> None:
    """Two options of the toy game given the same label: one that reads only locals (the Actions kept
    per value, ``MenuOptionI.actions``) and one that reads a slot (kept per value and label,
    ``MenuOptionI.by_label``); the second is marked '#2', is taken by that label, and stays so when
    the options are listed again."""
    root = toy_copy(tmp_path, ("rules/core.yaml", 'label: "take {f}"', f"label: {label}"),
                    ("rules/core.yaml", "label: pass", f"label: {label}"))
    game = Game(load_spec("toy", root=root))
    for _ in range(3):
        state = game.new_initial_state()
        (two,) = [a for a, _ in state.chance_outcomes() if a.label == "d3: two"]
        state.apply_action(two)
        first = "take two" if "{f}" in label else "holds 0"
        assert [(a.key, a.label) for a in state.legal_actions()] == [((0, 0), first), ((1, 0), f"{first} #2")]
        assert [(a.key, a.label) for a in state.legal_actions()] == [((0, 0), first), ((1, 0), f"{first} #2")]
        other = state.child(f"{first} #2")
        assert other.get("stock", "ann") == 0 and other.get("active") == "bob"
        state.apply_action(first)
        assert state.get("stock", "ann") == 2 and state.get("active") == "bob"
