"""Betrayal: an audit of the base rules against the Hungarian rulebook, in exact positions.

Each test builds a position and checks one rule as the rulebook states it: the Collapsed Room can be
used on purpose before anyone has fallen (BH-ROOM-COLLAPSED-2/4), monsters use the secret ways and
the Collapsed Room (BH-MONSTER-11), and before the haunt a point of damage may go to a trait at its
lowest, where it is lost (BH-DAMAGE-3, BH-OPEN-19).
"""

from __future__ import annotations

import pytest
from bh_helpers import FOUR, act, labels, monster_at, place, set_up, start_haunt

import ghostrules
from ghostrules.engine import Game, State


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def test_collapsed_room_can_be_used_on_purpose_before_anyone_has_fallen(game4: Game) -> None:
    """p.6, BH-ROOM-COLLAPSED-2/4: "Ezt követően, bármely ide belépő felfedező figyelmen kívül hagyhatja,
    vagy szándékosan felhasználhatja a szoba lehetőségeit" and "Csak az első felfedező, aki lezuhan a
    pincébe az összeomlott szobából, húzhat és helyezhet le egy pince lapkát": when the discoverer kept
    their footing, a later explorer in the room may still drop through on purpose, and being the first to
    fall, places a basement tile and the Below Collapsed Room token there."""
    base = set_up(game4, FOUR)
    place(base, "collapsed_room", "ground", "x5y6")  # east of the Entrance Hall, discovered earlier
    base.set("at", "p1", "collapsed_room")
    assert base.get("token_box", "tk_below_collapsed") == 1  # nobody has fallen yet
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "drop through the floor of the Collapsed Room on purpose")
    # the first faller draws basement tiles until one fits, and places it
    while s.is_chance_node() and s.prompt() == "draw a room":
        s.apply_action("draw: Wine Cellar")
    while not s.is_chance_node() and not s.prompt().startswith("what does"):
        s.apply_action(s.legal_actions()[0])
    while s.is_chance_node():  # the fall's damage die
        s.apply_action(s.chance_outcomes()[0][0])
        while not s.is_chance_node() and not s.prompt().startswith("what does"):
            s.apply_action(s.legal_actions()[0])
    assert s.get("rfloor", s.get("at", "p1")) == "basement"
    assert s.get("token_on", "wine_cellar", "tk_below_collapsed") == 1
    assert s.get("at", "p1") == "wine_cellar"


def monster_moves_one_point_to(game: Game, base: State, room_name: str) -> str:
    """Monster m1's move with 1 point left, taking the option that ends in ``room_name``; where it stands after."""
    base.set("mon_points", 1)
    s = game.state_at("monster_moves", {"m": "m1"}, base)
    options = [x for x in labels(s) if x.endswith(room_name)]
    assert options, labels(s)
    act(s, options[0])
    return str(s.get("mon_at", "m1"))


def test_monsters_may_use_the_secret_stairs(game4: Game) -> None:
    """p.12-13, BH-MONSTER-11: monsters "Használhatják ... a lépcső mezőket, a kártyák speciális
    mozgásaival együtt (pl. a titkos lépcső)": a monster standing at one Secret Stairs token may move to
    the other for 1 movement point, as explorers do (BX-MOVE-1)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    monster_at(base, "upper_landing")
    # the Secret Stairs card was drawn in the Upper Landing and its second token put in the Foyer
    base.set("token_box", "tk_stairs_a", 0)
    base.set("token_on", "upper_landing", "tk_stairs_a", 1)
    base.set("token_box", "tk_stairs_b", 0)
    base.set("token_on", "foyer", "tk_stairs_b", 1)
    assert monster_moves_one_point_to(game4, base, "Foyer") == "foyer"


def test_monsters_may_use_the_collapsed_room(game4: Game) -> None:
    """p.12-13, BH-MONSTER-11: monsters "Használhatják a széncsúszdát, a beomlott szobát ...": once the
    Below Collapsed Room token lies in the basement, a monster in the Collapsed Room may drop into that
    room (falling is not movement, BH-ROOM-COLLAPSED-3; monsters place no tiles, BH-MONSTER-13)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    place(base, "collapsed_room", "ground", "x5y6")
    place(base, "wine_cellar", "basement", "x4y3")  # north of the Basement Landing
    base.set("token_box", "tk_below_collapsed", 0)
    base.set("token_on", "wine_cellar", "tk_below_collapsed", 1)  # where the first faller landed
    monster_at(base, "collapsed_room")
    assert monster_moves_one_point_to(game4, base, "Wine Cellar") == "wine_cellar"


def test_before_the_haunt_a_point_may_go_to_a_trait_at_its_lowest(game4: Game) -> None:
    """p.8, BH-DAMAGE-1/3 and the digest's reading of BH-OPEN-19: the damaged player splits physical damage
    between Might and Speed as they choose ("erő és/vagy sebesség", the Jenny example), and before the
    haunt a trait "nem csökkenhet a skálán feltüntetett legkisebb szám alá (ehelyett a legkisebb értéken
    marad)": a point put on a trait already at its lowest is lost, it is not forced onto the other trait."""
    base = set_up(game4, FOUR)
    base.set("tpos", "p1", "might", "l1")   # Jenny LeClerc: Might at its lowest, Speed at l4
    s = game4.state_at("damage", {"s": "p1", "h": "physical", "n": 1}, base)
    assert any(x.startswith("the point is lost") for x in labels(s)), labels(s)
    act(s, "the point is lost")
    assert s.get("tpos", "p1", "might") == "l1" and s.get("tpos", "p1", "speed") == "l4"
