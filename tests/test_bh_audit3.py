"""Betrayal: third audit (helper-59), in exact positions.

The rules are the Hungarian rulebook (shared/seeds/004_d45700e3d66fa338.txt). The traitor "Felhasználhatod,
vagy figyelmen kívül hagyhatod egy szoba vagy kártya olyan hatásait, amik nem sebeznek" (may use or ignore
any effect of a room or card that does not deal damage), for example "eldöntheted, hogy hová mozog a
misztikus lift"; monsters likewise: "Az árulóhoz hasonlóan a szörnyek is figyelmen kívül hagyhatják a
nem-sebző szoba hatásokat" (p.12).
"""

from __future__ import annotations

import pytest
from bh_helpers import FOUR, act, elevator_east_of_the_entrance_hall, monster_by_the_elevator, holds, labels, monster_at, place, set_up, start_haunt

import ghostrules
from ghostrules.engine import Game, State


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


# ---- the Mystic Elevator's move is an effect the traitor and monsters may ignore (BH-TRAITOR-5, BX-TILE-2)


def test_a_monster_may_leave_the_mystic_elevator_where_it_is(game4: Game) -> None:
    """BH-MONSTER-10/11 and BH-TRAITOR-5: the elevator's move deals no damage, so the traitor may leave it
    where it is when a monster steps in; the monster then goes on from the elevator's old place, and the
    elevator, not used, may still move later in the turn."""
    s = monster_by_the_elevator(game4)
    act(s, "monster 1 moves east to Mystic Elevator")
    assert s.prompt() == "where does the traitor send the Mystic Elevator?", s.prompt()
    assert "leave the Mystic Elevator where it is" in labels(s), labels(s)
    act(s, "leave the Mystic Elevator where it is")
    assert s.get("rfloor", "mystic_elevator") == "ground" and s.get("rcell", "mystic_elevator") == "x5y6"
    assert s.get("mon_at", "m1") == "mystic_elevator" and s.get("elevator_used") is False
    assert "monster 1 moves west to Entrance Hall" in labels(s), labels(s)


def test_the_traitor_may_leave_the_mystic_elevator_where_it_is(game4: Game) -> None:
    """BH-TRAITOR-5: the traitor entering the Mystic Elevator may ignore its move (no roll, no move)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p1")
    elevator_east_of_the_entrance_hall(base)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "move east to Mystic Elevator")
    assert not s.is_chance_node() and s.prompt() == "where does the traitor send the Mystic Elevator?"
    act(s, "leave the Mystic Elevator where it is")
    assert not s.is_chance_node() and s.prompt().startswith("what does"), s.prompt()
    assert s.get("rcell", "mystic_elevator") == "x5y6" and s.get("at", "p1") == "mystic_elevator"


def test_a_hero_cannot_leave_the_mystic_elevator_where_it_is(game4: Game) -> None:
    """BH-ROOM-ELEVATOR-1/3: a hero rolls, and on a roll for the elevator's own floor it still moves to
    another empty door ("a liftet azon a szinten kösd össze egy üres ajtóval")."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    elevator_east_of_the_entrance_hall(base)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "move east to Mystic Elevator")
    assert s.is_chance_node()
    s.apply_action("die: 1")
    s.apply_action("die: 1")  # 2: the ground floor, where it is
    assert s.prompt() == "next to which empty door does the elevator stop?", s.prompt()
    assert not any("where it is" in a for a in labels(s)), labels(s)


# ---- a dead explorer's cards: the rule each move cites (BH-DEATH-4 companions, BH-DEATH-5 the rest) ----


def test_a_dead_explorers_bite_is_set_aside_under_the_death_rule_not_the_companion_rule(game4: Game) -> None:
    """p.13, BH-DEATH-5: "rakd félre a tárgy-, és ómen kártyáid" sets aside the Bite (an omen that is no
    item); BH-DEATH-4 ("Ha meghalsz és van társad ... Rakd félre a hozzá tartozó ómen kártyát") is the
    companions' rule: the trace cited it for every card set aside, the Bite and event cards included."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "bite", "girl", "axe")
    s = game4.state_at("die", {"s": "p1"}, base, stop=True, tracing=True)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.get("aside", "bite") == 1 and s.get("aside", "girl") == 1 and s.get("in_pile", "axe") == 1
    cited = {line.split("-> aside[")[1].rstrip("]"): line.split("]")[0].lstrip("[")
             for line in map(str, s.log()) if "-> aside[" in line}
    assert cited == {"bite": "BH-DEATH-5", "girl": "BH-DEATH-4"}, cited


# ---- the readings recorded as open questions (BH-OPEN-50, BH-OPEN-51): what the spec does -------------


def test_a_card_moving_an_explorer_out_of_the_junk_room_makes_no_exit_roll(game4: Game) -> None:
    """BH-OPEN-50: the Junk Room's roll ("On leaving, attempt a Might roll of 3+ ... but keep moving") is
    made on the explorer's own way out; The Walls ("draw the next room tile, put it in the house, and move
    your explorer there") moves it without one, as a fall through the Collapsed Room is no movement ("A
    pincébe zuhanás nem számít mozgásnak")."""
    base = set_up(game4, FOUR)
    place(base, "junk_room", "ground", "x5y6")
    base.set("at", "p1", "junk_room")
    s = game4.state_at("receive_card", {"s": "p1", "c": "the_walls"}, base, stop=True, tracing=True)
    assert s.is_chance_node() and s.prompt() != "roll the die", s.prompt()  # the tile draw, no Might roll
    while not s.is_terminal():
        s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    assert s.get("at", "p1") != "junk_room"
    assert not any("BT-EXIT-ROLL" in str(e) or "leaving the Junk Room" in str(e) for e in s.log())


def test_a_passed_event_the_traitor_declines_goes_no_further(game4: Game) -> None:
    """BH-OPEN-51: the Mystic Slide drawn in the basement "affects the next explorer to your left not in
    the basement"; that explorer is the traitor, who declines it (BH-TRAITOR-6): the event is over, it
    does not pass on to the next explorer, and no Slide token is put."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("at", "p1", "basement_landing")
    s = game4.state_at("receive_card", {"s": "p1", "c": "mystic_slide"}, base, stop=True, tracing=True)
    assert s.prompt() == "does the Mystic Slide affect the traitor?" and s.current_player_name() == "p2", s.prompt()
    act(s, "Mystic Slide: the traitor ignores it")
    while not s.is_terminal():
        s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    assert not any("makes a might roll" in str(e) for e in s.log())
    assert s.get("token_box", "tk_slide") == 1
    assert s.get("discarded", "mystic_slide") == 1
    assert [s.get("at", p) for p in ("p2", "p3", "p4")] == ["entrance_hall"] * 3


# ---- a room holding one end of the Secret Passage and one of the Secret Stairs (BX-MOVE-1) --------------


def both_secret_ways_in_the_entrance_hall(state: State) -> None:
    """The Secret Passage joins the Entrance Hall and the Foyer; the Secret Stairs the Entrance Hall and the
    Upper Landing (each card puts its first token where it is drawn and the second elsewhere)."""
    for token, room in (("tk_passage_a", "entrance_hall"), ("tk_passage_b", "foyer"),
                        ("tk_stairs_a", "entrance_hall"), ("tk_stairs_b", "upper_landing")):
        state.set("token_box", token, 0)
        state.set("token_on", room, token, 1)


def test_an_explorer_may_take_either_secret_way_from_a_room_holding_both(game4: Game) -> None:
    """BC-EVENT-SECRET-PASSAGE ("Moving between the two tokens counts as 1 space, for anyone later") and
    BC-EVENT-SECRET-STAIRS (the same for its two tokens): each card gives its own way. In a room holding an
    end of both, only the Secret Passage was offered (one "secret passage" option named the first token
    found), and the Secret Stairs were out of reach; each way is now an option, citing its own card."""
    base = set_up(game4, FOUR)
    both_secret_ways_in_the_entrance_hall(base)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base, tracing=True)
    assert "go through the secret passage to the Foyer" in labels(s), labels(s)
    assert "climb the secret stairs to the Upper Landing" in labels(s), labels(s)
    act(s, "climb the secret stairs to the Upper Landing")
    assert s.get("at", "p1") == "upper_landing" and s.get("moves_used") == 1
    assert any(str(e).startswith("[BC-EVENT-SECRET-STAIRS] player 1 chooses: climb the secret stairs")
               for e in s.log()), [str(e) for e in s.log()][-5:]


def test_a_monster_may_take_either_secret_way_from_a_room_holding_both(game4: Game) -> None:
    """BH-MONSTER-11: monsters use "a kártyák speciális mozgásaival együtt (pl. a titkos lépcső)": from a
    room holding an end of the Secret Passage and of the Secret Stairs, both ways are open to a monster."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    both_secret_ways_in_the_entrance_hall(base)
    monster_at(base, "entrance_hall")
    base.set("mon_points", 1)
    s = game4.state_at("monster_moves", {"m": "m1"}, base)
    assert "monster 1 takes the secret way to the Foyer" in labels(s), labels(s)
    assert "monster 1 takes the secret way to the Upper Landing" in labels(s), labels(s)
