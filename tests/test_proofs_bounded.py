"""proofs/bounded_*.py: each bounded question is answered, and each witness replays in the engine."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from ghostrules.prover.bounded import compiled, replay
from ghostrules.query import load_scenario

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = {
    "bounded_first_round_loss": "proved",
    "bounded_monk_dies_in_one_turn": "proved",
    "bounded_twelve_slots": "proved",
}


def _proof(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "proofs" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_answer_and_witness_replays(name, tmp_path):
    proof = _proof(name)
    assert proof.GAME == "ghost-stories" and proof.RULE_IDS and proof.__doc__
    (row,) = proof.run({"all_configurations": False, "timeout_ms": 5000, "out_dir": str(tmp_path)})
    assert set(row) >= {"property", "configuration", "status", "seconds", "rule_ids", "detail", "counterexample",
                        "scenario"}
    assert row["status"] == QUESTIONS[name], row["detail"]
    # the witness: the scenario file is the start, the actions file the line; the engine replays it
    start = load_scenario(Path(row["scenario"]))
    # the header says where the question comes from: its proof file, to open from the checkout
    assert f"# asked in: proofs/{name}.py (QUESTION; rules " in Path(row["scenario"]).read_text()
    actions = json.loads(Path(row["scenario"]).with_suffix(".actions.json").read_text())
    assert actions == row["counterexample"]["actions"]
    end = replay(start, actions)
    assert compiled(start.game, proof.QUESTION.goal)(end)
    # within the horizon: every action is taken before the active monk changed as many times as
    # the question has turns (after the last one the engine runs on to its next node, which may
    # be in the next turn)
    marker = compiled(start.game, proof.QUESTION.turn)
    s, last, changes = start.clone(), marker(start), 0
    for a in actions:
        assert changes < proof.QUESTION.turns
        s.apply_action(a)
        changes += marker(s) != last
        last = marker(s)


def test_first_round_loss_is_by_haunting():
    proof = _proof("bounded_first_round_loss")
    (row,) = proof.run({"all_configurations": False, "timeout_ms": 5000, "out_dir": None})
    assert "GS-END-3" in row["detail"]


def test_monk_dies_in_his_own_turn():
    proof = _proof("bounded_monk_dies_in_one_turn")
    start = load_scenario(proof.START)
    assert start.get("qi", "yellow") == 4
    line = ["Lich torments first", "curse_die: lose 1 Qi", "Soul Eater torments first", "curse_die: lose 1 Qi",
            "curse_die: lose 1 Qi"]
    assert proof.died_in_own_turn(start, line)
    assert not proof.died_in_own_turn(start, line[:2])


def test_a_question_proved_impossible_removes_an_earlier_witness(tmp_path):
    """A witness file an earlier run wrote for a question now proved impossible is removed (with its
    actions file) and the row says so; an unknown answer removes nothing, and a file with the
    witness's name but not its header stays."""
    from fractions import Fraction

    from ghostrules.prover.bounded import Answer, Question, report
    q = Question("Can it happen?", goal="x == 1", turn="0", turns=1)
    witness = tmp_path / "bounded_q.yaml"
    actions = tmp_path / "bounded_q.actions.json"

    def earlier_run():
        witness.write_text("# Can it happen?\n# witness: from this position, apply these 1 actions\ngame: x\n")
        actions.write_text("[]")

    def run(status):
        return report(q, Answer(status, [], Fraction(0), 3, 0.1), None, "", "default", ["R-1"], str(tmp_path),
                      "bounded_q", "1 turn")
    earlier_run()
    row = run("unknown")
    assert row["removed"] == [] and witness.exists() and actions.exists()
    row = run("impossible")
    assert row["status"] == "proved"
    assert row["removed"] == [str(witness), str(actions)] and "removed" in row["detail"]
    assert not witness.exists() and not actions.exists()
    witness.write_text("# Can it happen?\n# my notes\n")
    assert run("impossible")["removed"] == [] and witness.exists()
