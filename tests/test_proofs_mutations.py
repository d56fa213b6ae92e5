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


def site_of(path: str) -> tuple[Path, int, str]:
    """The site a counterexample file's header names (``# Site: FILE:LINE (...)``): the file, the
    line and that line's text (the file must be there, the line in it)."""
    site = next(line for line in Path(path).read_text().splitlines() if line.startswith("# Site: "))
    file, _, line = site[len("# Site: "):].split(" (", 1)[0].rpartition(":")
    text = Path(file).read_text().splitlines()
    assert 1 <= int(line) <= len(text), site
    return Path(file), int(line), text[int(line) - 1]


def test_a_tao_token_created_from_nothing_fails_conservation(spec_copy: Path, tmp_path: Path) -> None:
    """(a) The Herbalist gives Tao tokens by `set` instead of taking them from the supply."""
    mutate(spec_copy, "rules/village.yaml",
           '- move: {n: "tray[c]", from: "tao_supply[c]", to: "tao[m, c]", upto: true}',
           '- set: {"tao[m, c]": "tao[m, c] + tray[c]"}')
    rec, path = counterexample_scenario(spec_copy, tmp_path, "conservation", ["help_herbalist"],
                                        "GS-VILLAGE-HERBALIST", "pool tao", "conservation: tao")
    assert any(k.startswith("tao[") or k.startswith("tray[") for k in rec["counterexample"])
    replays(path)
    # the header names the site, in the specs the prover read: the mutated write
    file, _, line = site_of(path)
    assert file == spec_copy / "ghost-stories" / "rules" / "village.yaml"
    assert '"tao[m, c]": "tao[m, c] + tray[c]"' in line, line


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
    file, _, line = site_of(path)
    assert file == spec_copy / "ghost-stories" / "rules" / "village.yaml"
    assert "(the decision or chance node of rule GS-VILLAGE-SORCERER)" in Path(path).read_text()
    assert "choose:" in line, line


def test_a_site_in_the_shipped_specs_is_shown_from_the_checkout() -> None:
    """A counterexample's site in the shipped specs reads ``specs/<game>/...:LINE`` (opened from the
    checkout); a record without a file and line (the initial ranges) has no site line."""
    from ghostrules.prover.counterexamples import site_line
    rec = {"kind": "range", "rule": "GS-X-1", "where": "ghost-stories/rules/village.yaml:7"}
    assert site_line(rec, SPECS_ROOT) == "# Site: specs/ghost-stories/rules/village.yaml:7 (the write of rule GS-X-1)"
    assert site_line(dict(rec, where="game.yaml state"), SPECS_ROOT) is None
    assert site_line(dict(rec, where="ghost-stories/rules/nowhere.yaml:7"), SPECS_ROOT) is None
