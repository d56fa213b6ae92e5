"""Declared ordering of simultaneous triggers: a player's choice where the rulebook gives none."""

from pathlib import Path

from ghostrules.engine import Game
from ghostrules.spec import load_spec

FIXTURES = Path(__file__).parent / "fixtures" / "specs"


def game() -> Game:
    return Game(load_spec("toy_order", root=FIXTURES))


def test_the_player_picks_which_rule_resolves_first():
    state = game().new_initial_state()
    labels = [a.label for a in state.legal_actions()]
    assert len(labels) == 2 and labels[0].startswith("O-A first") and labels[1].startswith("O-B first")
    assert state.current_player() == 0  # ann
    state.apply_action(state.legal_actions()[1])  # B first
    # only A is left, but it is still offered as the next choice (one option)
    assert [a.label.split()[0] for a in state.legal_actions()] == ["O-A"]
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.get("log_b") == 1 and state.get("log_a") == 2


def test_rules_whose_condition_fails_are_not_offered():
    state = game().new_initial_state()
    assert all("O-C" not in a.label for a in state.legal_actions())
