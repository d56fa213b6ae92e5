"""The Betrayal test helpers move cards as the game does (principle 6: never created from nothing): each
card is in exactly one place (the pool ``cards`` of specs/betrayal/game.yaml: its deck, in front of a
player, in an item pile, discarded or set aside). ``holds`` and ``lies_here`` take a card out of its
deck, or out of the place the caller names; a card that is elsewhere fails, changing nothing, instead of
building a position with the card twice for the test that asked for it."""

from __future__ import annotations

import pytest
from bh_helpers import FOUR, card_place, holds, lies_here, place, set_up

import ghostrules


@pytest.fixture(scope="module")
def base():
    return set_up(ghostrules.load_game("betrayal", players=4), FOUR)


def test_holds_takes_the_card_out_of_its_deck(base) -> None:
    state = base.clone()
    totals = state.pool_totals()
    holds(state, "p1", "axe", "dog")
    assert [card_place(state, c) for c in ("axe", "dog")] == ["p1", "p1"]
    assert state.get("in_deck", "axe") == 0 and state.get("held", "p1", "axe") == 1
    assert state.pool_totals() == totals and state.check_invariants() == []


def test_a_held_card_is_not_held_again_nor_laid_in_a_room(base) -> None:
    state = base.clone()
    holds(state, "p1", "axe")
    before = list(state.values)
    with pytest.raises(ValueError, match=r"the axe is held by p1, not in its deck; .*taken_from='p1'"):
        holds(state, "p2", "axe")
    with pytest.raises(ValueError, match=r"the axe is already held by p1"):
        holds(state, "p1", "axe")
    with pytest.raises(ValueError, match=r"lies_here: the axe is held by p1"):
        lies_here(state, "foyer", "axe")
    with pytest.raises(ValueError, match=r"the book is named twice"):
        holds(state, "p2", "book", "book")
    with pytest.raises(ValueError, match=r"the axe is held by p1"):  # the Book first: nothing moves at all
        holds(state, "p2", "book", "axe")
    assert state.values == before and state.check_invariants() == []


def test_a_card_lying_in_a_room_is_not_held_unless_taken_from_there(base) -> None:
    state = base.clone()
    lies_here(state, "foyer", "bell")
    assert card_place(state, "bell") == "foyer" and str(state.get("pile_room", "bell")) == "foyer"
    before = list(state.values)
    with pytest.raises(ValueError, match=r"the bell is in the item pile in the foyer, not in its deck"):
        holds(state, "p1", "bell")
    with pytest.raises(ValueError, match=r"the bell is in the item pile in the foyer, not held by p2"):
        holds(state, "p1", "bell", taken_from="p2")
    assert state.values == before
    holds(state, "p1", "bell", taken_from="foyer")
    assert card_place(state, "bell") == "p1" and str(state.get("pile_room", "bell")) == "none"
    holds(state, "p2", "bell", taken_from="p1")
    lies_here(state, "entrance_hall", "bell", taken_from="p2")
    assert card_place(state, "bell") == "entrance_hall" and state.check_invariants() == []


def test_discarded_and_set_aside_cards_come_back_only_when_named(base) -> None:
    state = base.clone()
    state.set("in_deck", "girl", 0)
    state.set("aside", "girl", 1)  # a dead explorer's omen (BH-DEATH-4/5)
    with pytest.raises(ValueError, match=r"the girl is aside, not in its deck"):
        holds(state, "p1", "girl")
    holds(state, "p1", "girl", taken_from="aside")
    assert card_place(state, "girl") == "p1" and state.check_invariants() == []
    with pytest.raises(ValueError, match=r"taken_from='attic_x' is no place for a card"):
        holds(state, "p1", "axe", taken_from="attic_x")


def test_a_card_put_on_top_of_its_deck_leaves_the_top_when_taken(base) -> None:
    state = base.clone()
    state.set("deck_top", "item", "axe")  # the Crystal Ball put it there
    holds(state, "p1", "axe")
    assert str(state.get("deck_top", "item")) == "none"


def test_card_place_finds_a_card_in_two_places(base) -> None:
    state = base.clone()
    state.set("held", "p1", "axe", 1)  # in its deck as well: what the old helpers could build
    with pytest.raises(ValueError, match=r"the axe is in 2 places \(deck, p1\)"):
        card_place(state, "axe")
    with pytest.raises(ValueError, match=r"the axe is in 2 places"):
        holds(state, "p2", "axe")


def test_place_moves_the_tile_out_of_the_stack_and_counts_it_off(base) -> None:
    """A room put into the house by hand leaves the room stack and the count of tiles left for its
    floors (BH-DISCOVER-6), as a discovery does; a second place of it, a taken cell or a floor its
    back does not show fails, changing nothing."""
    state = base.clone()
    left = {f: state.get("left_for", f) for f in ("basement", "ground", "upper")}
    place(state, "kitchen", "ground", "x5y5")   # the Kitchen's back: basement and ground
    assert state.get("tile_stack", "kitchen") == 0 and state.get("tile_placed", "kitchen") == 1
    assert {f: state.get("left_for", f) for f in left} == {"basement": left["basement"] - 1,
                                                          "ground": left["ground"] - 1, "upper": left["upper"]}
    assert state.check_invariants() == []
    before = list(state.values)
    with pytest.raises(ValueError, match=r"the kitchen is in the house already \(ground x5y5\)"):
        place(state, "kitchen", "ground", "x3y5")
    with pytest.raises(ValueError, match=r"ground x5y5 holds the kitchen already"):
        place(state, "dining_room", "ground", "x5y5")
    with pytest.raises(ValueError, match=r"the catacombs's tile shows no upper floor \(BH-DISCOVER-2\)"):
        place(state, "catacombs", "upper", "x3y3")
    assert state.values == before
    state.set("tile_stack", "crypt", 0)
    state.set("tile_discard", "crypt", 1)   # discarded earlier (a reshuffle takes it back)
    place(state, "crypt", "basement", "x4y3")
    assert state.get("tile_discard", "crypt") == 0 and state.check_invariants() == []
