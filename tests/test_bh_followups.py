"""Betrayal: follow-ups of the rooms and left-over audits, in exact positions.

The rules are the Hungarian rulebook (shared/seeds/004_d45700e3d66fa338.txt) and the printed room and card
texts of ../shared/data (betrayal_rooms.csv, betrayal_cards.md): the roll printed on a room is made on
leaving it ("On leaving, attempt a ... roll"), also by a secret way (the Secret Passage, the Secret
Stairs, the Revolving Wall); a monster may use the Mystic Elevator ("Használhatják ... a misztikus
liftet"), and the traitor decides where it goes ("eldöntheted, hogy hová mozog a misztikus lift").
"""

from __future__ import annotations

import pytest
from bh_helpers import FOUR, act, elevator_east_of_the_entrance_hall, monster_by_the_elevator, labels, monster_at, place, roll, set_up, start_haunt, to_menu

import ghostrules
from ghostrules.engine import Game, State


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def token_in(state: State, room: str, token: str) -> None:
    state.set("token_box", token, 0)
    state.set("token_on", room, token, 1)


# ---- leaving by a secret way makes the room's exit roll (BT-EXIT-ROLL, BX-MOVE-1/2) ------------------


def test_leaving_the_junk_room_by_the_secret_passage_makes_its_roll(game4: Game) -> None:
    """The Junk Room (betrayal_rooms.csv: "On leaving, attempt a Might roll of 3+; on a failure lose 1
    Speed but keep moving") and the Secret Passage (event 30: "Moving between the tokens counts as 1
    space"): going through the passage leaves the room, so the Might roll comes first; a failure costs 1
    Speed and the explorer still arrives, for one step. The rulebook names the roll as one of leaving
    ("elhagyhatod a lomos szobát dobás nélkül", the traitor's exemption)."""
    base = set_up(game4, FOUR)
    place(base, "junk_room", "ground", "x5y6")
    token_in(base, "junk_room", "tk_passage_a")
    token_in(base, "foyer", "tk_passage_b")
    base.set("at", "p1", "junk_room")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "go through the secret passage to the Foyer")
    assert s.is_chance_node() and s.prompt() == "roll the die", s.prompt()  # the Might roll
    roll(s, 0, 0, 0, 0)  # Jenny's Might is 4: a total of 0 fails
    to_menu(s)
    assert s.get("at", "p1") == "foyer" and s.get("moves_used") == 1
    assert s.get("tpos", "p1", "speed") == "l3"


def test_a_hero_who_dies_on_the_exit_roll_does_not_take_the_passage(game4: Game) -> None:
    """BT-EXIT-ROLL during the haunt: a hero at the lowest Speed who fails the Junk Room's roll on leaving
    by the secret passage dies in the Junk Room, as on leaving through a door; it never reaches the other
    token's room."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    place(base, "junk_room", "ground", "x5y6")
    token_in(base, "junk_room", "tk_passage_a")
    token_in(base, "foyer", "tk_passage_b")
    base.set("at", "p1", "junk_room")
    base.set("tpos", "p1", "speed", "l1")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "go through the secret passage to the Foyer")
    roll(s, 0, 0, 0, 0)
    assert s.get("alive", "p1") is False
    assert s.get("at", "p1") != "foyer"


def test_passing_the_revolving_wall_out_of_the_junk_room_makes_its_roll(game4: Game) -> None:
    """The Revolving Wall (event 28: "an explorer in either room may try Knowledge 3+ to pass through")
    out of the Junk Room: the Knowledge roll opens the wall, then leaving the Junk Room takes its Might
    roll; a failure costs 1 Speed and the explorer is through. Passing is still no move."""
    base = set_up(game4, FOUR)
    place(base, "junk_room", "ground", "x5y6")
    token_in(base, "junk_room", "tk_wall")
    base.set("wall_room", "foyer")
    base.set("at", "p1", "junk_room")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "try to pass through the Revolving Wall")
    roll(s, 2, 1, 0)  # Jenny's Knowledge is 3: a total of 3 opens the wall
    assert s.is_chance_node() and s.prompt() == "roll the die", s.prompt()  # the Junk Room's Might roll
    roll(s, 0, 0, 0, 0)
    to_menu(s)
    assert s.get("at", "p1") == "foyer" and s.get("moves_used") == 0
    assert s.get("tpos", "p1", "speed") == "l3"


def test_the_wall_into_the_junk_room_asks_no_roll_of_the_room_left(game4: Game) -> None:
    """The control of the test above: passing the Revolving Wall from the Foyer (no printed roll) into the
    Junk Room takes only the Knowledge roll; the Junk Room's roll is for leaving it, not entering."""
    base = set_up(game4, FOUR)
    place(base, "junk_room", "ground", "x5y6")
    token_in(base, "foyer", "tk_wall")
    base.set("wall_room", "junk_room")
    base.set("at", "p1", "foyer")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "try to pass through the Revolving Wall")
    roll(s, 2, 1, 0)
    assert not s.is_chance_node() and s.prompt().startswith("what does"), s.prompt()
    assert s.get("at", "p1") == "junk_room" and s.get("tpos", "p1", "speed") == "l4"


def test_taking_a_new_secret_passage_at_once_out_of_the_graveyard_makes_its_roll(game4: Game) -> None:
    """The Secret Passage drawn in the Graveyard (an event room; betrayal_rooms.csv: "On leaving, attempt a
    Sanity roll of 4+; on a failure lose 1 Knowledge") and used at once ("You may use it at once, even
    with no movement left"): the explorer leaves the Graveyard, so the Sanity roll comes first."""
    base = set_up(game4, FOUR)
    place(base, "graveyard", "ground", "x5y6", "r270")
    base.set("at", "p1", "graveyard")
    s = game4.state_at("receive_card", {"s": "p1", "c": "secret_passage"}, base, stop=True)
    roll(s, 1, 1, 1)  # 3 dice for the second token: 3 is a ground-floor room
    act(s, "to the Foyer")
    act(s, "go through the passage to the Foyer")
    assert s.is_chance_node() and s.prompt() == "roll the die", s.prompt()  # Jenny's Sanity roll (4 dice)
    roll(s, 0, 0, 0, 0)
    assert s.get("at", "p1") == "foyer" and s.get("tpos", "p1", "knowledge") == "l2"


def test_climbing_new_secret_stairs_at_once_out_of_the_attic_makes_its_roll(game4: Game) -> None:
    """The Secret Stairs drawn in the Attic (an event room; betrayal_rooms.csv: "On leaving, attempt a Speed
    roll of 3+; on a failure lose 1 Might") and climbed at once (event 31: "You may use them at once"):
    the Speed roll comes first; a failure costs 1 Might, and the explorer arrives below."""
    base = set_up(game4, FOUR)
    place(base, "attic", "upper", "x4y3", "r180")
    base.set("at", "p1", "attic")
    s = game4.state_at("receive_card", {"s": "p1", "c": "secret_stairs"}, base, stop=True)
    act(s, "to the Foyer")
    act(s, "climb the secret stairs to the Foyer")
    assert s.is_chance_node() and s.prompt() == "roll the die", s.prompt()  # Jenny's Speed roll (4 dice)
    roll(s, 0, 0, 0, 0)
    assert s.get("at", "p1") == "foyer" and s.get("tpos", "p1", "might") == "l2"


# ---- monsters and the Mystic Elevator (BH-MONSTER-11, BH-TRAITOR-5) -----------------------------------


def test_the_traitor_sends_the_elevator_where_a_monster_rides(game4: Game) -> None:
    """BH-MONSTER-11, p.12: "Használhatják ... a misztikus liftet", and the traitor "eldöntheted, hogy hová
    mozog a misztikus lift": a monster stepping into the Mystic Elevator rides it; the traitor picks the
    floor (no roll) and the empty door, and the monster goes on from there with its points left."""
    s = monster_by_the_elevator(game4)
    act(s, "monster 1 moves east to Mystic Elevator")
    assert not s.is_chance_node(), s.prompt()
    assert s.prompt() == "where does the traitor send the Mystic Elevator?"
    assert s.current_player_name() == "p2"
    act(s, "to the upper floor")
    assert s.prompt() == "next to which empty door does the elevator stop?"
    act(s, "the upper floor, west of the Upper Landing")
    assert s.get("rfloor", "mystic_elevator") == "upper" and s.get("rcell", "mystic_elevator") == "x3y4"
    assert s.get("mon_at", "m1") == "mystic_elevator" and s.get("elevator_used") is True
    assert "monster 1 moves east to Upper Landing" in labels(s), labels(s)
    act(s, "monster 1 moves east to Upper Landing")
    assert s.get("mon_at", "m1") == "upper_landing"


def test_the_elevator_moves_once_per_turn_for_monsters_too(game4: Game) -> None:
    """BH-ROOM-ELEVATOR-4: "A liftet fordulónként egyszer használhatod": once the elevator has moved in this
    turn, a monster stepping in stays where the elevator is."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    elevator_east_of_the_entrance_hall(base)
    monster_at(base, "entrance_hall")
    base.set("mon_points", 3)
    base.set("elevator_used", True)
    s = game4.state_at("monster_moves", {"m": "m1"}, base, stop=True)
    act(s, "monster 1 moves east to Mystic Elevator")
    assert s.prompt().startswith("where does monster 1"), s.prompt()
    assert s.get("rcell", "mystic_elevator") == "x5y6"


def test_the_monster_turn_is_a_new_turn_for_the_elevator(game4: Game) -> None:
    """BH-ROOM-ELEVATOR-4 and the monster turn ("Az áruló fordulója után következik az áruló által
    irányított szörnyek fordulója"): the traitor's ride in its own turn does not keep the monsters out of
    the elevator in theirs."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    elevator_east_of_the_entrance_hall(base)
    monster_at(base, "entrance_hall")
    base.set("elevator_used", True)
    s = game4.state_at("monster_turn", {}, base, stop=True)
    roll(s, 1, 1, 1)  # the group's Speed roll: 3 points
    act(s, "monster 1 moves east to Mystic Elevator")
    assert s.prompt() == "where does the traitor send the Mystic Elevator?", s.prompt()


def test_the_traitor_explorer_still_sends_the_elevator_and_takes_no_damage(game4: Game) -> None:
    """BH-TRAITOR-5, p.12: "eldöntheted, hogy hová mozog a misztikus lift": the traitor entering the
    Mystic Elevator picks the floor (here the basement, where a roll of 0 would hurt) and the door; no
    dice are rolled and no damage is taken."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p1")
    elevator_east_of_the_entrance_hall(base)
    might, speed = base.get("tpos", "p1", "might"), base.get("tpos", "p1", "speed")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "move east to Mystic Elevator")
    assert not s.is_chance_node() and s.prompt() == "where does the traitor send the Mystic Elevator?"
    act(s, "to the basement floor")
    act(s, "the basement floor, north of the Basement Landing")
    assert not s.is_chance_node() and s.prompt().startswith("what does"), s.prompt()
    assert s.get("rfloor", "mystic_elevator") == "basement" and s.get("at", "p1") == "mystic_elevator"
    assert (s.get("tpos", "p1", "might"), s.get("tpos", "p1", "speed")) == (might, speed)
