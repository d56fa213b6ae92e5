"""Generic spec features added for the second game, each on a toy fixture.

- ``cards:`` in game.yaml may be a list of component tables, each its own domain;
- ``symbols: name`` names a table's rows by their label alone ("Cellar Hatch" -> cellar_hatch)
  instead of ``c<number>_<label>``.
"""

from __future__ import annotations

from pathlib import Path

from ghostrules.engine import Game
from ghostrules.spec.loader import load_spec

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "specs"


def test_several_component_tables_each_make_a_domain() -> None:
    spec = load_spec("toy_tables", root=FIXTURES)
    assert spec.domain("key").symbols == ("c01_red_key", "c02_blue_key")
    assert spec.domain("door").symbols == ("front_door", "cellar_hatch")
    assert spec.domain("door").labels == ("Front Door", "Cellar Hatch")
    tables = {t.name: t for t in spec.tables}
    assert tables["opened_by"].args == ("door",) and tables["opened_by"].type == "key"
    assert tables["weight"].values == (3, 5)


def test_row_names_are_usable_in_expressions() -> None:
    game = Game(load_spec("toy_tables", root=FIXTURES))
    state = game.new_initial_state()
    assert state.eval("key_colour[opened_by[front_door]]") == "red"
    assert state.is_terminal() and state.outcome().text == "Blue Key opens the Cellar Hatch (5)"
