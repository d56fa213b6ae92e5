"""The Ghost Stories heuristic (specs/ghost-stories/policy.yaml) in exact positions: choices that its
data is meant to make. Layout of gs_helpers.LAYOUT (the yellow monk on the Temple, ee, faces blue_2)."""

from __future__ import annotations

import pytest

from gs_helpers import at_step, gs_game, place, set_up
from ghostrules.simulate.policy import load_policy


@pytest.fixture(scope="module")
def game():
    return gs_game()


def _decision(state, rule):
    """Play the first option of every decision with one option up to the first decision of ``rule``."""
    while not state.is_terminal():
        assert not state.is_chance_node(), state.prompt()
        if state.node_rule() == rule and len(state.legal_actions()) > 1:
            return state
        state.apply_action(state.legal_actions()[0])
    raise AssertionError(f"no decision of {rule}")


def test_heuristic_attacks_the_incarnation_rather_than_take_a_buddha(game):
    # Forgotten Ones (black, resistance 3) faces the yellow monk, who holds 1 black Tao token: three
    # dice give the 2 missing results 26 % of the time. Exorcising the incarnation wins the game
    # (GS-END-1), which the one-step lookahead does not see (it stops at the exorcism's choice): the
    # policy's `worth` of an incarnation says so. Without it (worth 38, like a plain resistance-3
    # ghost) the Buddha on offer scored higher and the monk walked away from the win.
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)  # the incarnation has left the deck
    place(base, "c60_forgotten_ones", "blue_2")
    state = _decision(at_step(game, base, "yellow", "ee", "take_actions"), "GS-YANG-4")
    labels = [a.label for a in state.legal_actions()]
    assert any("Buddhist Temple" in label for label in labels) and any("exorcise" in label for label in labels)
    policy = load_policy("ghost-stories", "heuristic")
    scores = {a.label: s for a, s in policy.scores(state)}
    exorcise = next(s for label, s in scores.items() if "tries to exorcise" in label)
    temple = next(s for label, s in scores.items() if "Buddhist Temple" in label)
    assert exorcise > temple
