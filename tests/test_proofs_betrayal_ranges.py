"""Betrayal's slot ranges and call contracts (proofs/betrayal_contracts.py, the range obligations):
the spec bugs they found, replayed by the engine, and the obligations of the rules they concern."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import ghostrules
from ghostrules.engine import Game, State

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_betrayal import FOUR, act, set_up, start_haunt  # noqa: E402


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def roll_all(state: State, face: int) -> None:
    while state.is_chance_node():
        state.apply_action(f"die: {face}")


def test_the_puzzle_box_of_an_explorer_killed_by_the_idol_stays_in_the_pile(game4: Game) -> None:
    """BC-ITEM-PUZZLE-BOX, BC-ITEM-IDOL, BH-DEATH-5. Found by the range obligation "move 1 from
    held[s, puzzle_box]: the source holds enough": the Idol's Sanity cost during the Knowledge roll
    killed the explorer (Sanity at its lowest, after the haunt), who dropped the box; a 6+ then moved
    the box out of a hand that no longer held it, and the engine stopped with an error."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    for card in ("idol", "puzzle_box"):
        base.set("in_deck", card, 0)
        base.set("held", "p1", card, 1)
    base.set("tpos", "p1", "sanity", "l1")
    s = game4.state_at("turn_action", {"s": "p1"}, base, stop=True)
    act(s, "use the Puzzle Box")
    act(s, "use the Idol")
    assert s.get("alive", "p1") is False
    roll_all(s, 2)  # every die a 2: well past 6
    assert s.get("in_pile", "puzzle_box") == 1 and s.get("discarded", "puzzle_box") == 0
    assert s.check_invariants() == []


PUZZLE_MOVE = "move 1 from held[s, puzzle_box] to discarded[puzzle_box]: the source holds enough and the target has room"


def _records(root: str | None, rule_ids: list[str]) -> list[dict]:
    from ghostrules.prover.runner import _prove_rules
    found = _prove_rules("betrayal", root, [({}, rule_ids)], 5000, frozenset({"range", "requires"}))
    return [r for recs in found.values() for r in recs]


def test_the_puzzle_box_obligations_are_proved_and_the_bug_is_caught(tmp_path: Path) -> None:
    """The range obligations of BC-ITEM-PUZZLE-BOX are proved; without the guard that the box is
    still held (the bug above), the move's obligation fails."""
    import shutil

    from ghostrules.prover.runner import PROOFS_ROOT
    records = _records(None, ["BC-ITEM-PUZZLE-BOX"])
    assert records and all(r["status"] == "proved" for r in records), [r["text"] for r in records]
    specs = PROOFS_ROOT.parent / "specs"
    shutil.copytree(specs / "betrayal", tmp_path / "betrayal")
    path = tmp_path / "betrayal" / "rules" / "item_cards.yaml"
    text = path.read_text()
    assert 'if: "roll_total >= 6 and held[s, puzzle_box] == 1"' in text
    path.write_text(text.replace('if: "roll_total >= 6 and held[s, puzzle_box] == 1"', 'if: "roll_total >= 6"', 1))
    broken = {r["text"]: r["status"] for r in _records(str(tmp_path), ["BC-ITEM-PUZZLE-BOX"])}
    assert broken[PUZZLE_MOVE] == "failed"


@pytest.mark.parametrize("rule_id", ["BH-DAMAGE-3", "BX-TRAIT-1", "BH-CARD-EVENT-1", "BX-ITEM-3", "BX-TILE-1"])
def test_procedures_that_index_by_their_parameters_are_proved_within_their_requires(rule_id: str) -> None:
    """lose, gain, receive_card, hand_over and move_tile index slots by their parameters: their
    `requires` (an explorer, a trait, a card, a tile that is not none, the card where it is moved
    from) make every write name a slot and stay in range."""
    records = _records(None, [rule_id])
    assert records and all(r["status"] == "proved" for r in records), \
        [(r["status"], r["text"]) for r in records if r["status"] != "proved"]
