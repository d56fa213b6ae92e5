"""Properties of Ghost Stories (4 players, Initiation, el) over many random games.

After every action: no exception, every pool holds its total and every slot lies in its range,
at most one ghost per slot (so at most 3 per board), every card is in a valid place, and chance
outcomes sum to 1. At a few random points per game: illegal actions are refused without a trace,
replay and JSON reproduce the state, and a clone is independent.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ghostrules
from ghostrules import TERMINAL, Action, IllegalActionError
from ghostrules.engine.game import sample_chance

MAX_ACTIONS = 5_000
EXPECTED_POOLS = {"qi": [20], "tao": [4] * 5, "yinyang": [1] * 4, "buddha": [2], "power_token": [3], "mantra": [1]}


@pytest.fixture(scope="module")
def game() -> ghostrules.Game:
    return ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")


class Facts:
    """Static facts of the compiled game used by the checks."""

    def __init__(self, game: ghostrules.Game) -> None:
        domains = game.layout.domains
        self.cards = domains["card"].symbols
        self.slots = domains["slot"].symbols
        self.places = set(domains["place"].symbols)
        self.monks = domains["monk"].symbols
        self.board_of = {s: s.rsplit("_", 1)[0] for s in self.slots}
        assert set(self.board_of.values()) == set(self.monks)
        assert all(list(self.board_of.values()).count(m) == 3 for m in self.monks)


@pytest.fixture(scope="module")
def facts(game: ghostrules.Game) -> Facts:
    return Facts(game)


def options(state: ghostrules.State) -> list[Action]:
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def check_every_step(state: ghostrules.State, facts: Facts) -> None:
    assert state.check_invariants() == []
    assert state.pool_totals() == EXPECTED_POOLS
    assert all(state.get("qi", m) >= 0 for m in facts.monks)
    per_slot: Counter[str] = Counter()
    for card in facts.cards:
        place = state.get("at", card)
        assert place in facts.places, f"{card} is at {place!r}"
        if place in facts.board_of:
            per_slot[place] += 1
    assert all(n == 1 for n in per_slot.values()), f"two ghosts share a slot: {per_slot}"
    per_board = Counter(facts.board_of[s] for s in per_slot.elements())
    assert all(n <= 3 for n in per_board.values()), f"more than 3 ghosts on a board: {per_board}"
    if state.is_terminal():
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        assert state.current_player() == TERMINAL
    elif state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes and all(isinstance(p, Fraction) and 0 < p <= 1 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert len(set(a for a, _ in outcomes)) == len(outcomes)
        assert state.legal_actions() == []
    else:
        legal = state.legal_actions()
        assert legal and 0 <= state.current_player() < len(facts.monks)
        assert len({a.label for a in legal}) == len(legal), "two options print the same"


def check_illegal_refused(state: ghostrules.State, action: Action | str) -> None:
    text = state.to_json()
    copy = state.clone()
    history = [a.to_json() for a in state.history()]
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    assert info.value.rule_id
    assert state.to_json() == text
    assert state == copy
    assert [a.to_json() for a in state.history()] == history


def check_sometimes(game: ghostrules.Game, state: ghostrules.State, seen: list[Action], rng: random.Random) -> None:
    # a made-up label
    check_illegal_refused(state, "fly to the moon")
    # a valid-looking action from another state that is not legal here
    here = options(state)
    foreign = [a for a in seen if a not in here]
    if foreign:
        check_illegal_refused(state, rng.choice(foreign))
    # replay and JSON reproduce the state
    again = game.replay(state.history())
    assert again == state and again.to_json() == state.to_json()
    text = state.to_json()
    restored = game.state_from_json(text)
    assert restored == state and restored.to_json() == text
    # a clone moves on alone
    if not state.is_terminal():
        copy = state.clone()
        copy.apply_action(rng.choice(options(copy)))
        assert state.to_json() == text
        assert state == restored


def play_checked(game: ghostrules.Game, facts: Facts, seed: int, checks_per_game: float = 3.0) -> ghostrules.State:
    rng = random.Random(seed)
    side = random.Random(seed ^ 0x5EED)
    state = game.new_initial_state()
    check_every_step(state, facts)
    seen: list[Action] = []
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        if side.random() < checks_per_game / 100:
            check_sometimes(game, state, seen, side)
        here = options(state)
        if len(seen) < 400:
            seen.extend(here)
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
        check_every_step(state, facts)
    else:
        pytest.fail(f"seed {seed}: no end after {MAX_ACTIONS} actions")
    check_sometimes(game, state, seen, side)
    return state


@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_invariants(game: ghostrules.Game, facts: Facts, seed: int) -> None:
    state = play_checked(game, facts, seed)
    outcome = state.outcome()
    assert outcome is not None and outcome.result and outcome.rule_id


def test_initial_state(game: ghostrules.Game, facts: Facts) -> None:
    state = game.new_initial_state()
    assert state.is_chance_node()
    check_every_step(state, facts)
    assert all(state.get("at", c) == "deck" for c in facts.cards)


@pytest.fixture(scope="module")
def hundred_games(game: ghostrules.Game) -> dict[int, ghostrules.State]:
    return {seed: ghostrules.play(game, seed=seed) for seed in range(100)}


def test_hundred_seeded_games_end_by_an_end_rule(hundred_games: dict[int, ghostrules.State]) -> None:
    bad = {}
    for seed, state in hundred_games.items():
        outcome = state.outcome()
        if outcome is None or not outcome.rule_id.startswith(("GS-END", "GS-YIN-4")):
            bad[seed] = outcome
        assert state.check_invariants() == [], seed
    assert bad == {}


def test_same_seed_same_history(game: ghostrules.Game, hundred_games: dict[int, ghostrules.State]) -> None:
    for seed, first in hundred_games.items():
        second = ghostrules.play(game, seed=seed)
        assert [a.to_json() for a in second.history()] == [a.to_json() for a in first.history()], seed
        assert [a.label for a in second.history()] == [a.label for a in first.history()], seed
        assert second == first and second.to_json() == first.to_json(), seed
