"""An event's ``requires``: a contract on its parameters, checked by the engine at every ``emit``,
proved by the prover there and assumed in every rule the event triggers; refused by the loader
when it reads the state (the rules fired on one event may change the state, not the parameters).

Each test copies the toy spec (tests/fixtures/specs/toy: ``gained(p: player)``, emitted by the
turn with ``p: active``, triggering T-WIN) and gives the event a contract.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ghostrules
from ghostrules import SpecError
from ghostrules.engine import Game
from ghostrules.engine.errors import SpecRuntimeError
from ghostrules.prover import prove
from ghostrules.spec import load_spec

TOY = Path(__file__).parent / "fixtures" / "specs" / "toy"
DECLARED = "gained: {params: {p: player}}"


def toy_with(tmp_path: Path, event: str, *edits: tuple[str, str, str]) -> Path:
    """A copy of the toy spec whose ``gained`` declaration is ``event``, with more edits
    (file, old, new) applied; returns the specs root."""
    root = tmp_path / "specs"
    shutil.copytree(TOY, root / "toy")
    for file, old, new in (("game.yaml", DECLARED, event),) + edits:
        path = root / "toy" / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    return root


def line_of(root: Path, file: str, marker: str) -> int:
    lines = (root / "toy" / file).read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if marker in line)


def test_the_contract_is_read_and_shown(tmp_path: Path) -> None:
    root = toy_with(tmp_path, 'gained: {params: {p: player}, requires: "p != none"}')
    event = load_spec("toy", root=root).events[0]
    assert event.requires is not None and event.requires.render() == "p != none"
    assert event.where is not None and event.where.line == line_of(root, "game.yaml", "gained:")


def test_a_contract_that_reads_a_state_slot_is_refused(tmp_path: Path) -> None:
    root = toy_with(tmp_path, 'gained: {params: {p: player}, requires: "stock[p] >= 1"}')
    with pytest.raises(SpecError) as info:
        load_spec("toy", root=root)
    err = info.value
    assert err.line == line_of(root, "game.yaml", "gained:") and Path(err.file).as_posix() == "toy/game.yaml"
    assert "'stock'" in err.message and "parameters" in err.message


def test_a_contract_that_reads_the_state_through_a_definition_is_refused(tmp_path: Path) -> None:
    root = toy_with(tmp_path, 'gained: {params: {p: player}, requires: "p != none and ahead(p)"}',
                    ("game.yaml", "events:", 'definitions:\n  - name: ahead\n    params: {q: player}\n'
                     '    value: "stock[q] > supply"\nevents:'))
    with pytest.raises(SpecError, match=r"'(stock|supply)' \(through ahead\)"):
        load_spec("toy", root=root)


def test_a_contract_on_parameters_through_a_definition_is_accepted(tmp_path: Path) -> None:
    """A definition that reads only its own parameters (here shadowing no slot) is fine."""
    root = toy_with(tmp_path, 'gained: {params: {p: player}, requires: "seated(p)"}',
                    ("game.yaml", "events:", 'definitions:\n  - name: seated\n    params: {q: player}\n'
                     '    value: "q != none"\nevents:'))
    assert load_spec("toy", root=root).events[0].requires is not None


def test_an_unknown_key_of_an_event_is_refused(tmp_path: Path) -> None:
    root = toy_with(tmp_path, 'gained: {params: {p: player}, require: "p != none"}')
    with pytest.raises(SpecError, match="unknown key 'require'") as info:
        load_spec("toy", root=root)
    assert info.value.line == line_of(root, "game.yaml", "gained:")


def take_stones(state: ghostrules.State) -> ghostrules.Action:
    """Roll a non-zero face, then the menu's 'take' option."""
    while state.is_chance_node():
        outcome = next(a for a, _ in state.chance_outcomes() if "zero" not in a.label)
        state.apply_action(outcome)
    return next(a for a in state.legal_actions() if a.label.startswith("take"))


def test_the_engine_checks_the_contract_at_the_emit_and_leaves_the_state_unchanged(tmp_path: Path) -> None:
    """Ann takes stones, the turn emits gained(ann), and the contract says only Bob may gain: the
    action fails with an error naming the event and its declaration, and nothing changes."""
    root = toy_with(tmp_path, 'gained: {params: {p: player}, requires: "p == bob"}')
    state = Game(load_spec("toy", root=root)).new_initial_state()
    action = take_stones(state)
    before = state.to_json()
    with pytest.raises(SpecRuntimeError) as info:
        state.apply_action(action)
    assert info.value.rule_id == "event gained"
    assert "p == bob" in str(info.value) and f"toy/game.yaml:{line_of(root, 'game.yaml', 'gained:')}" in \
        info.value.where.replace("\\", "/")
    assert state.to_json() == before


def test_a_contract_that_holds_changes_no_game(tmp_path: Path) -> None:
    plain = Game(load_spec("toy", root=TOY.parent))
    bound = Game(load_spec("toy", root=toy_with(tmp_path, 'gained: {params: {p: player}, requires: "p != none"}')))
    for seed in range(20):
        a, b = ghostrules.play(plain, seed=seed), ghostrules.play(bound, seed=seed)
        assert [x.label for x in a.history()] == [x.label for x in b.history()]
        assert a.outcome() == b.outcome()


GAIN_AGAIN = ("rules/core.yaml", "      - end: win\n",
              '      - move: {n: 1, from: supply, to: "stock[p]", upto: true}\n      - end: win\n')


def obligations(root: Path, rule: str, kind: str) -> list[tuple[str, str]]:
    return [(r.obligation.text, r.status) for r in prove(load_spec("toy", root=root), kinds=[kind])
            if r.obligation.rule == rule]


def test_the_prover_assumes_the_contract_in_the_triggered_rules(tmp_path: Path) -> None:
    """T-WIN writes stock[p]: without the contract p could be none for all the prover knows."""
    without = obligations(toy_with(tmp_path / "a", DECLARED, GAIN_AGAIN), "T-WIN", "range")
    assert ("move supply -> stock[p] names slots (no index is none)", "failed") in without
    root = toy_with(tmp_path / "b", 'gained: {params: {p: player}, requires: "p != none"}', GAIN_AGAIN)
    assert all(status == "proved" for _, status in obligations(root, "T-WIN", "range"))


def test_the_prover_proves_the_contract_at_every_emit(tmp_path: Path) -> None:
    """Mutation: a contract the emitter does not meet (ann may gain too) is a failed obligation."""
    ok = toy_with(tmp_path / "a", 'gained: {params: {p: player}, requires: "p != none"}')
    assert obligations(ok, "T-TURN", "requires") == [("emit gained with p != none", "proved")]
    bad = toy_with(tmp_path / "b", 'gained: {params: {p: player}, requires: "p == bob"}')
    assert obligations(bad, "T-TURN", "requires") == [("emit gained with p == bob", "failed")]


def test_the_betrayal_events_carry_their_contracts() -> None:
    """The Betrayal events about an explorer declare it (and their triggers need not restate it)."""
    spec = ghostrules.load_game("betrayal").spec
    contracts = {e.name: e.requires.render() for e in spec.events if e.requires is not None}
    assert contracts["card_drawn"] == "(s != none) and (c != none)"
    assert set(contracts) == {"card_drawn", "item_used", "token_action", "turn_started", "explorer_died",
                              "haunt_action"}
