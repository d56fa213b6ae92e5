"""The rules-lawyer API and command: round trips of any position, and every question on every example."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ghostrules
from ghostrules import query
from ghostrules.cli import main
from ghostrules.engine import sample_chance

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))


def test_any_position_prints_back_to_an_equal_state() -> None:
    """Positions met in seeded random games (mid-action stacks included) print and load back."""
    game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
    seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for step in range(240):
            if state.is_terminal():
                break
            action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            state.apply_action(action)
            if step % 40 == 17 or state.is_terminal():
                text = query.scenario_text(state)
                again = query.load_scenario(text)
                assert again == state, text
                assert query.scenario_text(again) == text
                seen += 1
    assert seen >= 6


def test_load_scenario_is_exported_and_takes_text_or_path(tmp_path: Path) -> None:
    text = "game: ghost-stories\nmonks:\n  yellow: {at: Tea House, qi: 2}\n"
    state = ghostrules.load_scenario(text)
    assert state.get("monk_at", "yellow") == "nn" and state.get("qi", "yellow") == 2
    assert state.get("qi_supply") == 20 - 4 * 4 + 2, "the Qi goes back to the supply"
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    assert ghostrules.load_scenario(str(path)) == state == ghostrules.load_scenario(path)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_question_works_on_every_example(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for words in (["legal"], ["next"], ["odds", "--horizon", "decision"], ["can", "lose", "within", "2"], []):
        assert main(["ask", str(path), *words]) == 0, words
        out = capsys.readouterr().out
        assert out.strip()
    assert main(["ask", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["expected"] is True and doc["rules"]


def test_legal_names_the_rule_that_forbids() -> None:
    sc = query.load(ROOT / "tests" / "scenarios" / "howling_nightmare_opposite_slot.yaml")
    answer = query.legal(sc, "yellow monk tries to exorcise")
    assert answer.data["legal"] is False and answer.data["rule"] == "GS-INC-HOWLING"
    assert "opposite" in answer.text()
    ok = query.legal(sc, "yellow monk takes no (further) action")
    assert ok.data["legal"] is True and ok.data["rule"] == "GS-YANG-4"


def test_can_gives_a_replayable_witness() -> None:
    sc = query.load(ROOT / "docs" / "examples" / "corner_two_ghosts_one_roll.yaml")
    goal = "at[c38_bleeding_eyes] == discard"
    assert query.can(sc, goal, 3).data["answer"] == "no"   # three dice, then the choice: 4 actions
    answer = query.can(sc, goal, 4)
    assert answer.data["answer"] == "yes" and answer.data["length"] == 4
    assert answer.data["witness_probability"] == "1/216"
    replay = query.next(sc, *answer.data["witness"])
    assert replay.state.get("at", "c38_bleeding_eyes") == "discard"


def test_next_reports_the_chance_node_it_stops_at() -> None:
    sc = query.load(ROOT / "docs" / "examples" / "zombie_must_be_exorcised_too.yaml")
    answer = query.next(sc, "yellow", "yellow", "white", "Coffin Breaker first")
    assert answer.data["now"]["kind"] == "chance" and answer.data["now"]["prompt"] == "roll the curse_die"
    assert {o["probability"] for o in answer.data["now"]["outcomes"]} == {"1/3", "1/6"}
    assert any(c["id"] == "GS-CURSE-3" and c["sources"] for c in answer.data["citations"])


def test_a_scenario_loaded_again_compiles_no_expression_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Query expressions are compiled once per compiled game (query/values.py), not once per load:
    the second load of the same scenario text calls the expression compiler no more."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import calls  # the odds scenario of the benchmark
    text = calls.odds_scenario(calls.ODDS_CASES[-1][1], calls.ODDS_CASES[-1][2])
    first = query.load(text)
    made: list[str] = []
    exprs = type(first.state.game.program.exprs)
    real = exprs.compile

    def counting(self, e, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(e.render())
        return real(self, e, *args, **kwargs)

    monkeypatch.setattr(exprs, "compile", counting)
    again = query.load(text)
    assert made == []
    assert again.state.values == first.state.values
