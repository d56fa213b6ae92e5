"""State.set, the low-level setter for building positions, refuses what no position can hold
(principle 5: bad input fails clearly and leaves the state unchanged; principle 6: tokens are never
created from nothing, so no count goes below 0 or above its declared range)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ghostrules
from ghostrules.spec import load_spec

FIXTURES = Path(__file__).parent / "fixtures" / "specs"


@pytest.fixture(scope="module")
def game() -> ghostrules.Game:
    return ghostrules.Game(load_spec("toy", root=FIXTURES))


@pytest.mark.parametrize("args, words", [
    (("supply", -1), ["supply", "-1", "0..10"]),
    (("supply", 11), ["supply", "11", "0..10"]),
    (("stock", "bob", -3), ["stock[bob]", "-3", "0..10"]),
    (("stock", 1, 12), ["stock[bob]", "12", "0..10"]),
    (("active", "carol"), ["active", "'carol'", "player", "ann, bob"]),
    (("active", 2), ["active", "2", "-1..1"]),
    (("supply", "3"), ["supply", "'3'", "int"]),
    (("supply", 2.5), ["supply", "2.5", "int"]),
])
def test_set_refuses_a_value_outside_the_slot_and_changes_nothing(game: ghostrules.Game, args: tuple,
                                                                   words: list[str]) -> None:
    state = game.new_initial_state()
    before = (state.to_json(), list(state.values))
    with pytest.raises(ValueError) as err:
        state.set(*args)
    for word in words:
        assert word in str(err.value), (word, str(err.value))
    assert (state.to_json(), list(state.values)) == before


@pytest.mark.parametrize("args, words", [
    (("stock", "carol", 1), ["stock", "'carol'", "player", "ann, bob"]),
    (("stock", 2, 1), ["stock", "2", "player"]),
    (("stock", 1), ["stock", "takes 1 ind"]),
])
def test_set_refuses_an_unknown_index_as_get_does_and_changes_nothing(game: ghostrules.Game, args: tuple,
                                                                      words: list[str]) -> None:
    """An index that names no cell of the slot is a KeyError, for set as for get."""
    state = game.new_initial_state()
    before = (state.to_json(), list(state.values))
    with pytest.raises(KeyError) as err:
        state.set(*args)
    for word in words:
        assert word in str(err.value), (word, str(err.value))
    assert (state.to_json(), list(state.values)) == before


@pytest.mark.parametrize("args, shown", [
    (("supply", 0), 0), (("supply", 10), 10), (("stock", "bob", 10), 10), (("stock", 0, 0), 0),
    (("active", "bob"), "bob"), (("active", "none"), "none"), (("active", 0), "ann"),
])
def test_set_accepts_every_value_in_range(game: ghostrules.Game, args: tuple, shown: object) -> None:
    state = game.new_initial_state()
    state.set(*args)
    assert state.get(*args[:-1]) == shown


def test_set_accepts_bools_for_a_bool_slot() -> None:
    game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
    state = game.new_initial_state()
    state.set("alive", "red", False)
    assert state.get("alive", "red") is False
    with pytest.raises(ValueError, match=r"alive\[red\].*2.*0\.\.1"):
        state.set("alive", "red", 2)
    assert state.get("alive", "red") is False


def test_a_docs_example_moving_tokens_its_source_lacks_fails_as_a_docs_error() -> None:
    """docsgen: an example's ``move`` that State.set refuses is reported where the example is."""
    from ghostrules.docsgen.catalog import DocsError
    from ghostrules.docsgen.examples import build_example

    game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
    example = {"move": [{"n": 5, "from": "tao_supply[red]", "to": "tao[yellow, red]"}]}
    with pytest.raises(DocsError, match=r"example X: cannot move 5 from tao_supply\[red\].*outside its declared"):
        build_example(game, [], example, "example X")
