"""Ghost Stories: random games that reach Wu-Feng's incarnations, at every level, in both editions.

Plain random games almost never see an incarnation: it lies 10 cards from the bottom of the deck
(GS-INC-GEN-1), and random monks die long before. Here each game is set up, then its deck is
shortened: every segment that ends with an incarnation keeps at most 4 of its ghosts before it, the
others go to the last segment (the deck holds the same cards, only their order changes). Draws
bring an incarnation whenever one can come, and the monks try to exorcise when they can (70 %), so
the incarnations' arrival, abilities, exorcism, reward and the victory (GS-END-1) are played.

After every action the state keeps its invariants (pools, ranges, the spec's invariants), no slot
holds two ghosts, and chance outcomes sum to 1; at the end JSON reproduces the state.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ghostrules
from ghostrules import Action

MAX_ACTIONS = 5_000
# (edition, level, players): every level in both editions, every player count
CONFIGURATIONS = [
    ("el", "initiation", 4), ("hu", "initiation", 1), ("el", "normal", 2), ("hu", "normal", 3),
    ("el", "nightmare", 3), ("hu", "nightmare", 4), ("el", "hell", 1), ("hu", "hell", 2),
]


def game_for(edition: str, level: str, players: int) -> ghostrules.Game:
    """The compiled game (load_game gives the same Game for the same configuration)."""
    return ghostrules.load_game("ghost-stories", players=players, level=level, edition=edition)


@functools.cache
def incarnation_names(game: ghostrules.Game) -> frozenset[str]:
    cards = game.layout.domains["card"]
    state = game.new_initial_state()
    return frozenset(label for symbol, label in zip(cards.symbols, cards.labels or cards.symbols)
                     if state.eval(f"is_incarnation({symbol})"))


def bring_incarnations_forward(state: ghostrules.State, rng: random.Random) -> None:
    """Keep at most 4 ghosts before each incarnation; the rest go to the last segment."""
    segments = state.game.layout.domains["segment"].symbols
    spare = 0
    for seg in segments:
        if state.get("seg_incarnation", seg) and state.get("seg_ghosts", seg) > 4:
            keep = rng.randint(0, 4)
            spare += int(state.get("seg_ghosts", seg)) - keep
            state.set("seg_ghosts", seg, keep)
    plain = [seg for seg in segments if not state.get("seg_incarnation", seg)]
    last = plain[-1] if plain else segments[-1]
    state.set("seg_ghosts", last, int(state.get("seg_ghosts", last)) + spare)


def check_step(state: ghostrules.State, cards: list[str], slots: set[str]) -> None:
    assert state.check_invariants() == []
    on_slot = Counter(p for p in (state.get("at", c) for c in cards) if p in slots)
    assert all(n == 1 for n in on_slot.values()), f"two ghosts share a slot: {on_slot}"
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes and sum(p for _, p in outcomes) == 1
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)


def play_towards_incarnations(game: ghostrules.Game, seed: int) -> tuple[ghostrules.State, int]:
    """A game as described above; the answer is its end and how many incarnations arrived."""
    rng = random.Random(seed)
    names = incarnation_names(game)
    cards = list(game.layout.domains["card"].symbols)
    slots = set(game.layout.domains["slot"].symbols)
    state = game.new_initial_state()
    arrived = 0
    rigged = False
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        if not rigged and not state.is_chance_node() and state.get("active") != "none":
            bring_incarnations_forward(state, rng)  # setup is done: the first draw comes next
            rigged = True
        action: Action
        if state.is_chance_node():
            actions, weights, _total = state.chance_weights()
            wanted = [a for a in actions if a.label.split(": ", 1)[-1] in names]
            arrived += bool(wanted)
            action = rng.choice(wanted) if wanted else rng.choices(actions, weights)[0]
        else:
            legal = state.legal_actions()
            exorcise = [a for a in legal if "tries to exorcise" in a.label]
            action = rng.choice(exorcise) if exorcise and rng.random() < 0.7 else rng.choice(legal)
        state.apply_action(action)
        check_step(state, cards, slots)
    else:
        pytest.fail(f"seed {seed}: no end after {MAX_ACTIONS} actions")
    text = state.to_json()
    assert game.state_from_json(text) == state
    return state, arrived


@settings(max_examples=24, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGURATIONS), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_games_with_incarnations_keep_invariants(config: tuple[str, str, int], seed: int) -> None:
    state, _arrived = play_towards_incarnations(game_for(*config), seed)
    outcome = state.outcome()
    assert outcome is not None and outcome.rule_id.startswith(("GS-END", "GS-YIN-4"))


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}p")
def test_incarnations_arrive_in_the_shortened_deck(config: tuple[str, str, int]) -> None:
    game = game_for(*config)
    several = game.new_initial_state().eval("incarnation_count") > 1  # Nightmare and Hell
    # at least five games, and more (up to twelve) until one brings the second incarnation: about 40 % of
    # the Hell 1p games do, so five seeds alone all fell short once a rule fix changed the random paths
    arrivals: list[int] = []
    for seed in range(12):
        arrivals.append(play_towards_incarnations(game, seed)[1])
        if len(arrivals) >= 5 and max(arrivals) >= (2 if several else 1):
            break
    assert max(arrivals) >= (2 if several else 1), arrivals
    assert max(arrivals) <= (4 if several else 1)


def test_won_games_end_by_the_last_incarnations_exorcism_and_score_the_victory() -> None:
    game = game_for("el", "initiation", 4)
    won = []
    for seed in range(40):
        state, _ = play_towards_incarnations(game, seed)
        outcome = state.outcome()
        assert outcome is not None
        points = {label: p for label, _rule, p in state.score().lines}
        if outcome.result == "win":
            won.append(state)
            assert outcome.rule_id == "GS-END-1"
            assert state.get("incarnations_left") == 0 and state.get("victory") is True
            assert points["victory"] == 10  # GS-SCORE-EL at Initiation
        else:
            assert state.get("victory") is False and points["victory"] == 0
    assert len(won) >= 2  # seeds 13, 16, 26 and 39 of these 40 are won
