"""A ``let`` that a rule credits is a log entry of kind ``let`` when it changes a bound name.

A rule may act only through a local: Betrayal's Smoke and Drip cards take dice from a trait roll by
``let: {n: "max(n - 2, 1)"}`` inside an ``if`` that names the card's rule. Such a rule wrote nothing
to the log, so the rules-lawyer's answers (which cite the rules of the log's entries) never named it.
Now a *credited* ``let`` (a ``rule:`` on it or on an ``if`` or option around it names a rule other
than its procedure's) that *rebinds* a name already bound in its frame to a *different* value is an
entry (kind ``let``, the credited rule, ``name = value``); a first binding, a value that stays the
same, a name first bound in a loop's body (afresh on each pass), or a procedure's own scratch name
(loop flags, counters) is none: those would cite rules that changed nothing (GS-YIN-6's first
bindings in Ghost Stories), or cite a loop's rule on some passes and not on its first. With
tracing off nothing is written; with tracing ``"rules"`` the entry is its rule alone. The same holds
for the compiled blocks (engine/blocks.py) and the interpreter (engine/machine.py)."""

from __future__ import annotations

import pytest
from speed_helpers import spec_game

import ghostrules
from ghostrules.engine.actions import RULES

_GAME = """\
game: letlog
title: A count of dice changed by rules that act through a local only
players: player
flow: {setup: setup, turn: turn}
domains:
  player: [ann]
state:
  smoky: {type: bool}
  dice: {range: [0, 9]}
"""

_RULES = """\
family: core
title: Core
rules:
  - id: T-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {dice: 0}
  - id: T-TURN
    text: Ann rolls 4 dice, fewer in the smoke; the count is kept.
    procedure: turn
    do:
      - choose: "smoke?"
        by: ann
        options:
          - label: "smoke"
            do:
              - set: {smoky: true}
          - label: "clear"
      - let: {n: 4}
      - let: {spare: 0}
      - if: "smoky"
        rule: T-SMOKE
        then:
          - let: {n: "max(n - 2, 1)"}
      - if: "n > 0"
        rule: T-FLOOR
        then:
          - let: {n: "max(n, 1)"}
      - let: {seen: 0}
      - for: "k in [1, 2, 3]"
        do:
          - let: {last: k}
          - if: "k >= 2"
            rule: T-COUNT
            then:
              - let: {seen: k}
              - let: {big: k}
      - set: {dice: n}
      - end: win
  - id: T-SMOKE
    text: The smoke takes 2 dice (at least 1 is left).
    reason: carried by T-TURN
  - id: T-FLOOR
    text: A roll keeps at least 1 die.
    reason: carried by T-TURN
  - id: T-COUNT
    text: The last pass of the count is remembered.
    reason: carried by T-TURN
"""


def _game(tmp_path) -> ghostrules.Game:
    return spec_game(tmp_path, "letlog", _GAME, _RULES)


@pytest.fixture(params=["blocks", "interpreter"])
def game(request, tmp_path, monkeypatch) -> ghostrules.Game:
    g = _game(tmp_path)
    if request.param == "interpreter":  # every instruction run by Machine._run
        monkeypatch.setattr(g.program, "blocks", [[None] * len(p.code) for p in g.program.procs])
    return g


def _lets(state) -> list[tuple[str, str]]:
    return [(e.rule, e.text) for e in state.log() if e.kind == "let"]


def test_a_rule_acting_through_a_let_is_logged_with_its_rule(game) -> None:
    state = game.new_initial_state(tracing=True)
    state.apply_action("smoke")
    assert state.eval("dice") == 2
    # n: 4 -> 2 by T-SMOKE; T-FLOOR's max(2, 1) leaves it; `seen`, bound before the loop, changes on its
    # second and third passes (T-COUNT); `big` is first bound in the loop's body (afresh on each pass)
    # and `last` is T-TURN's own scratch name (no `rule:` credits it): neither is logged
    assert _lets(state) == [("T-SMOKE", "n = 2"), ("T-COUNT", "seen = 2"), ("T-COUNT", "seen = 3")]


def test_no_entry_without_a_change(game) -> None:
    state = game.new_initial_state(tracing=True)
    state.apply_action("clear")
    assert state.eval("dice") == 4
    assert ("T-SMOKE", "n = 2") not in _lets(state)
    assert not any(rule in ("T-SMOKE", "T-FLOOR") for rule, _ in _lets(state))


def test_rules_tracing_cites_the_rule_of_the_let(game) -> None:
    state = game.new_initial_state(tracing=RULES)
    state.apply_action("smoke")
    assert "T-SMOKE" in state.take_rules(0)
    state = game.new_initial_state(tracing=RULES)
    state.apply_action("clear")
    assert "T-SMOKE" not in state.take_rules(0)


def test_tracing_off_writes_nothing(game) -> None:
    state = game.new_initial_state()
    state.apply_action("smoke")
    assert state.eval("dice") == 2 and state.log() == []
