"""Mutation tests of the proofs: a broken copy of the specs must make the prover fail with a
counterexample, and the counterexample, written as a scenario file, must load in the engine and
replay (GS-COMP-8, GS-COMP-1, GS-VILLAGE-SORCERER)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ghostrules
from ghostrules.prover.runner import prove, record, write_scenario
from ghostrules.spec import load_spec
from ghostrules.spec.loader import SPECS_ROOT

CONFIG = "players=4 level=initiation edition=el easy=no"


@pytest.fixture
def spec_copy(tmp_path: Path) -> Path:
    shutil.copytree(SPECS_ROOT / "ghost-stories", tmp_path / "specs" / "ghost-stories")
    return tmp_path / "specs"


def mutate(root: Path, file: str, old: str, new: str) -> None:
    path = root / "ghost-stories" / file
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def replays(path: str, steps: int = 30) -> ghostrules.State:
    """Load the scenario and play on from it (first option, first outcome): the engine either goes on
    or stops on the very fault the prover found (a SpecRuntimeError names the rule)."""
    state = ghostrules.load_scenario(path)
    try:
        for _ in range(steps):
            if state.is_terminal() or not (state.is_chance_node() or state.legal_actions()):
                break  # the end, or a procedure's start where the engine stopped on the fault
            state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    except ghostrules.SpecRuntimeError:
        pass  # the engine's own report of the fault (e.g. a decision with no options)
    return state


def counterexample_scenario(root: Path, tmp_path: Path, kind: str, rules: list[str], rule_id: str, text: str,
                            prop: str) -> tuple[dict, str]:
    spec = load_spec("ghost-stories", root=root)
    failed = [r for r in prove(spec, kinds=[kind], rules=rules)
              if r.status == "failed" and r.obligation.rule == rule_id and text in r.obligation.text]
    assert failed, f"the prover did not catch the mutation ({kind} at {rule_id})"
    rec = record(failed[0])
    assert rec["counterexample"], "a failure comes with a counterexample state"
    path = write_scenario("ghost-stories", CONFIG, rec, tmp_path / "cx", prop, str(root))
    assert path is not None, rec.get("scenario_error")
    assert "scenario_error" not in rec, rec["scenario_error"]
    assert Path(path).read_text().startswith("# Counterexample to")
    assert rec["replay"].startswith("the engine"), rec
    return rec, path


def test_a_tao_token_created_from_nothing_fails_conservation(spec_copy: Path, tmp_path: Path) -> None:
    """(a) The Herbalist gives Tao tokens by `set` instead of taking them from the supply."""
    mutate(spec_copy, "rules/village.yaml",
           '- move: {n: "tray[c]", from: "tao_supply[c]", to: "tao[m, c]", upto: true}',
           '- set: {"tao[m, c]": "tao[m, c] + tray[c]"}')
    rec, path = counterexample_scenario(spec_copy, tmp_path, "conservation", ["help_herbalist"],
                                        "GS-VILLAGE-HERBALIST", "pool tao", "conservation: tao")
    assert any(k.startswith("tao[") or k.startswith("tray[") for k in rec["counterexample"])
    replays(path)


def test_a_fourth_ghost_on_a_board_fails_the_slot_invariant(spec_copy: Path, tmp_path: Path) -> None:
    """(b) Placement forgets that the slot must be free: INV-SLOT (one card per slot, hence at most
    3 ghosts per board) is no longer preserved."""
    mutate(spec_copy, "rules/placement.yaml",
           'value: "not occupied(x) and (slot_board[x] == home_board(g, by) or board_full(home_board(g, by)))"',
           'value: "slot_board[x] == home_board(g, by) or board_full(home_board(g, by))"')
    rec, path = counterexample_scenario(spec_copy, tmp_path, "invariant", ["place_ghost"], "GS-PLACE-6",
                                        "INV-SLOT", "invariant: INV-SLOT")
    assert any(k.startswith("at[") for k in rec["counterexample"])
    replays(path)


def test_a_decision_with_no_options_fails_no_dead_ends(spec_copy: Path, tmp_path: Path) -> None:
    """(c) The Sorcerer's choice can only pick ghosts that are not in play: no option at all."""
    mutate(spec_copy, "rules/village.yaml", 'for: "g in card if in_play(g) and not is_incarnation(g)"',
           'for: "g in card if in_play(g) and is_incarnation(g) and not in_play(g)"')
    rec, path = counterexample_scenario(spec_copy, tmp_path, "options", ["help_sorcerer"], "GS-VILLAGE-SORCERER",
                                        "offers an option", "no dead ends")
    assert rec["procedure"] == "help_sorcerer"
    replays(path)
