"""The type a ``let`` gives a local (engine/program.py, ``_let_type``).

The compiler reads a procedure's scope in the order of the spec's text, so a ``let`` inside one option
or branch types its name for all the code written after it. A ``let`` of ``none`` once made the name
of type "none" from there on: a later label printed the constant "none" where the name held a floor
(found by the third Betrayal audit: the Mystic Elevator's "the none floor, north of the Upper Landing").
``none`` now keeps the type the name has; a name first bound to ``none`` takes the type of its next
value; a real change of type is refused at the ``let``'s line."""

from __future__ import annotations

import pytest
from speed_helpers import spec_game

import ghostrules
from ghostrules.spec.source import SpecError

_GAME = """\
game: lettypes
title: A local bound to none in one option, read by a later label
players: player
flow: {setup: setup, turn: turn}
domains:
  player: [ann]
  floor: [basement, ground, upper]
state:
  n: {range: [0, 3]}
"""

_RULES = """\
family: core
title: Core
rules:
  - id: L-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {n: 0}
  - id: L-TURN
    text: Pick a floor or none, then see the floor picked, named in a label.
    procedure: turn
    do:
      - let: {target: ground}
      - choose: "pick"
        by: ann
        options:
          - label: "the {f} floor"
            for: "f in floor"
            do:
              - let: {target: f}
          - label: "no floor"
            do:
              - let: {target: none}
      - choose: "where?"
        by: ann
        options:
          - label: "at the {target} floor"
            do:
              - end: win
"""


def _game(tmp_path, first_let: str = "ground") -> ghostrules.Game:
    return spec_game(tmp_path, "lettypes", _GAME, _RULES.replace("{target: ground}", "{target: %s}" % first_let))


@pytest.mark.parametrize("first_let", ["ground", "none"])
def test_a_label_reads_the_floor_a_local_holds_after_a_let_of_none_elsewhere(tmp_path, first_let: str) -> None:
    game = _game(tmp_path, first_let)
    for picked, shown in (("the upper floor", "at the upper floor"), ("the basement floor", "at the basement floor"),
                          ("no floor", "at the none floor")):
        state = game.new_initial_state()
        state.apply_action(picked)
        assert [a.label for a in state.legal_actions()] == [shown], (picked, state.legal_actions())


def test_a_let_that_changes_a_locals_type_is_refused_at_its_line(tmp_path) -> None:
    root = tmp_path / "specs" / "lettypes"
    with pytest.raises(SpecError) as err:
        _game(tmp_path, "n")  # target first holds an int, then a floor
    assert "let target" in str(err.value) and "core.yaml" in str(err.value), str(err.value)
    assert root.exists()
