"""Betrayal: an audit of exploration, the room tiles, movement, setup and the characters, in exact positions.

Each test builds a position and checks one rule as the Hungarian rulebook
(shared/seeds/004_d45700e3d66fa338.txt) states it, with the printed tile rules and the character tracks
taken from shared/data (betrayal_rooms.csv, betrayal_characters.csv): the room stack and its reshuffle,
how a new tile is turned, discovery without and with a card symbol, the stairs, the Coal Chute, the Mystic
Elevator, the Gallery, obstacles, the rolls on leaving a room, the end-of-turn rooms, the choice of
characters, the starting values and the first player.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from bh_helpers import FOUR, JENNY, act, labels, place, roll, set_up, start_haunt, to_menu

import ghostrules
from ghostrules.engine import Game, State

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"  # the shared facts (../shared/data from the repository)
needs_shared = pytest.mark.skipif(not (SHARED / "betrayal_rooms.csv").exists(), reason="no ../shared/data")


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def sym(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def spec_rooms() -> list[dict[str, str]]:
    with open(ROOT / "specs" / "betrayal" / "rooms.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# ---- the room stack (BH-DISCOVER-4/5/6) -----------------------------------------------------------


def test_a_discovery_reaches_the_last_fitting_tile_after_a_long_reshuffle(game4: Game) -> None:
    """p.5, BH-DISCOVER-4/5: "Addig kell félreraknod a lapkákat, míg egy megfelelőt nem találsz" and "Ha
    elfogynak a szoba lapkák a pakliból, akkor keverd meg a dobópakli lapkáit": one ground-floor tile is
    left, in the discard pile; the stack holds 20 tiles of other floors. All 20 go to the discard pile, it
    is reshuffled, and the other 21 come up before the last ground tile: 42 draws, and the ground tile is
    still found (the draw loop once stopped after 40)."""
    base = set_up(game4, FOUR)
    rows = [r for r in spec_rooms() if "start_tile" not in r["features"]]
    ground = [sym(r["name"]) for r in rows if "ground" in r["floors"]]
    others = [sym(r["name"]) for r in rows if "ground" not in r["floors"]]
    assert len(ground) == 21 and len(others) == 21
    for k in ground:  # every ground tile but the Kitchen is in the house ...
        base.set("tile_stack", k, 0)
        base.set("tile_placed", k, 1)
    base.set("tile_placed", "kitchen", 0)  # ... and the Kitchen lies in the discard pile
    base.set("tile_discard", "kitchen", 1)
    base.set("tile_stack", others[20], 0)
    base.set("tile_discard", others[20], 1)
    base.set("left_for", "ground", 1)
    s = game4.state_at("draw_tile", {"f": "ground"}, base)
    draws = 0
    while s.is_chance_node():
        outcomes = [o for o, _ in s.chance_outcomes()]
        s.apply_action(next((o for o in outcomes if o.label != "draw: Kitchen"), outcomes[0]))
        draws += 1
    assert s.get("new_room") == "kitchen"
    assert draws >= 40  # (a single-outcome draw is taken without a chance node)


def test_no_discovery_on_a_floor_whose_tiles_are_all_used(game4: Game) -> None:
    """p.5, BH-DISCOVER-6: "Ha elfogynak ház egy adott szintjéhez tartozó lapkák ... akkor már nem tudsz új
    szobákat felfedezni azon a szinten": with no basement tile left, the Basement Landing's doors lead
    nowhere, while the ground floor can still be explored."""
    base = set_up(game4, FOUR)
    base.set("at", "p1", "basement_landing")
    base.set("left_for", "basement", 0)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert not [x for x in labels(s) if x.startswith("discover")], labels(s)
    base.set("at", "p1", "entrance_hall")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert "discover a new room through the east door of the Entrance Hall" in labels(s)


def test_a_tile_for_another_floor_goes_to_the_discard_pile(game4: Game) -> None:
    """p.5, BH-DISCOVER-2/4: a tile whose back shows another floor is put face down on the discard pile
    and the next is looked at; a tile fitting the floor is placed at the door just used."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Entrance Hall")
    s.apply_action("draw: Attic")  # upper floor only
    assert s.get("tile_discard", "attic") == 1 and s.get("tile_placed", "attic") == 0
    s.apply_action("draw: Creaky Hallway")
    to_menu(s)
    assert s.get("rfloor", "creaky_hallway") == "ground" and s.get("rcell", "creaky_hallway") == "x5y6"


# ---- placing and turning a tile (BH-DISCOVER-3, BH-OPEN-1) -----------------------------------------


def test_a_new_tile_is_turned_so_a_door_meets_the_door_used(game4: Game) -> None:
    """p.5, BH-DISCOVER-2/3: "illeszd hozzá az ajtóhoz, amin éppen beléptél" and "szomszédos, ajtókkal
    összekötött szobákat alkotva": the Kitchen (doors north and east) found through the Entrance Hall's
    east door is offered only in the two turns that put a door on its west side."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Entrance Hall")
    s.apply_action("draw: Kitchen")
    assert labels(s) == ["Kitchen turned 180 degrees", "Kitchen turned 270 degrees"]
    act(s, "Kitchen turned 270 degrees")
    assert s.eval("joined(entrance_hall, east)") and s.eval("joined(kitchen, west)")


# ---- discovering and card symbols (BH-MOVE-1/2, BH-CARD-1) ----------------------------------------


def test_a_room_without_a_symbol_lets_the_explorer_move_on(game4: Game) -> None:
    """p.5 example, BH-MOVE-1: "Ha az új szoba nem írja elő egy kártya felhúzását, akkor mehetsz tovább":
    discovering the Creaky Hallway costs one step and movement goes on."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Entrance Hall")
    s.apply_action("draw: Creaky Hallway")
    to_menu(s)
    assert s.get("at", "p1") == "creaky_hallway" and s.get("moves_used") == 1 and not s.get("move_stop")
    assert any(x.startswith("discover a new room through the north door of the Creaky Hallway") for x in labels(s))


# ---- leaving a room: the printed exit rolls (BT-EXIT-ROLL) -----------------------------------------


def discover_from_junk_room(game4: Game, base: State) -> State:
    """p1's turn in the Junk Room (east of the Entrance Hall), opening its east door onto no room yet."""
    place(base, "junk_room", "ground", "x5y6")
    base.set("at", "p1", "junk_room")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Junk Room")
    return s


def test_the_exit_roll_comes_before_the_new_room_is_found(game4: Game) -> None:
    """p.7, BH-ROLL-1 and the Junk Room's printed rule (betrayal_rooms.csv: "On leaving, attempt a Might
    roll of 3+; on a failure lose 1 Speed"): the roll is made on leaving, before the explorer goes
    through the door. During the haunt a hero at the lowest Speed who fails dies in the Junk Room, so no
    tile is drawn or placed behind the door."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("tpos", "p1", "speed", "l1")
    s = discover_from_junk_room(game4, base)
    assert s.is_chance_node() and s.prompt() == "roll the die", s.prompt()  # the Might roll, not a tile
    roll(s, 0, 0, 0, 0)  # Jenny's Might is 4: a total of 0 fails
    assert s.get("alive", "p1") is False
    assert s.get("room_at", "ground", "x6y6") == "none"
    assert s.get("left_for", "ground") == base.get("left_for", "ground")


def test_the_exit_roll_is_made_on_every_way_out_through_a_door(game4: Game) -> None:
    """The Junk Room's printed rule: walking out through a joined door makes the Might roll, and a failure
    costs 1 Speed but the explorer still moves on (betrayal_rooms.csv: "lose 1 Speed but keep moving")."""
    base = set_up(game4, FOUR)
    place(base, "junk_room", "ground", "x5y6")
    base.set("at", "p1", "junk_room")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "move west to Entrance Hall")
    roll(s, 0, 0, 0, 0)
    to_menu(s)
    assert s.get("at", "p1") == "entrance_hall"
    assert s.get("tpos", "p1", "speed") == "l3" and s.get("moves_used") == 1
    assert "move north to Foyer" in labels(s)


# ---- stairs, Coal Chute, Mystic Elevator, Gallery (BH-MOVE-6/7, BH-ROOM-CHUTE, BH-ROOM-ELEVATOR) --------


def test_the_basement_stairs_work_only_once_found_and_both_ways(game4: Game) -> None:
    """p.5, BH-MOVE-6/7: "A nagy lépcsőház mindig a felső csarnokhoz kapcsolódik" and "Nem használhatod a
    pince lépcsőjét, míg meg nem találod ezt a szobát a pincében": the Grand Staircase leads to the Upper
    Landing for one step; the Foyer's secret door opens only once the Stairs from Basement are placed."""
    base = set_up(game4, FOUR)
    base.set("at", "p1", "grand_staircase")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "take the stairs to Upper Landing")
    assert s.get("at", "p1") == "upper_landing" and s.get("moves_used") == 1
    base.set("at", "p1", "foyer")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert not [x for x in labels(s) if x.startswith("take the stairs")], labels(s)
    place(base, "stairs_from_basement", "basement", "x4y3")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "take the stairs to Stairs from Basement")
    act(s, "take the stairs to Foyer")
    assert s.get("at", "p1") == "foyer" and s.get("moves_used") == 2


def test_the_coal_chute_and_the_slide_are_one_step(game4: Game) -> None:
    """p.6, BH-ROOM-CHUTE-1/2: "A széncsúszda lapkára lépés, majd a lecsúszás a pincébe egy mozgásnak
    számít" and no turn ends on the chute: discovering the Coal Chute lands the explorer in the Basement
    Landing (the tile's destination) for one step, with movement left to go on."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Entrance Hall")
    s.apply_action("draw: Coal Chute")
    to_menu(s)
    assert s.get("at", "p1") == "basement_landing" and s.get("moves_used") == 1
    assert any(x.startswith("discover a new room through") for x in labels(s))


def test_the_mystic_elevator_moves_on_entering_once_per_turn(game4: Game) -> None:
    """p.6, BH-ROOM-ELEVATOR-1/4: "Ez a lapka elmozdul, ahogy belépsz. Dobj 2 kockával és rakd a megfelelő
    emelet egyik üres ajtója mellé" and "A liftet fordulónként egyszer használhatod": a roll of 3 sends it
    to the upper floor (the tile's table), next to an empty door the explorer picks, each named by its side;
    walking out and back in the same turn does not move it again."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Entrance Hall")
    s.apply_action("draw: Mystic Elevator")
    assert s.is_chance_node() and s.prompt() == "roll the die", s.prompt()  # it moves at once
    roll(s, 1, 2)
    assert s.prompt() == "next to which empty door does the elevator stop?"
    assert sorted(labels(s)) == sorted(f"the upper floor, {d} of the Upper Landing"
                                       for d in ("north", "east", "south", "west"))
    act(s, "the upper floor, west of the Upper Landing")
    assert s.get("rfloor", "mystic_elevator") == "upper" and s.get("rcell", "mystic_elevator") == "x3y4"
    assert s.get("at", "p1") == "mystic_elevator"
    act(s, "move east to Upper Landing")
    act(s, "move west to Mystic Elevator")
    assert not s.is_chance_node() and s.prompt().startswith("what does")
    assert s.get("rcell", "mystic_elevator") == "x3y4" and s.get("moves_used") == 3


def test_the_gallery_drop_needs_the_ballroom_and_costs_no_step(game4: Game) -> None:
    """The Gallery's printed rule (betrayal_rooms.csv: "You may choose to drop down into the Ballroom (if
    placed), taking 1 die of physical damage"): no drop while the Ballroom is not in the house; the drop
    is a choice, uses no movement and deals one die of physical damage."""
    base = set_up(game4, FOUR)
    place(base, "gallery", "upper", "x4y3")
    base.set("at", "p1", "gallery")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert not [x for x in labels(s) if x.startswith("jump")], labels(s)
    place(base, "ballroom", "ground", "x5y6")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "jump down from the Gallery into the Ballroom")
    roll(s, 2)
    assert not s.is_chance_node() and s.prompt().startswith("which trait")
    act(s, "lower might")
    act(s, "lower might")
    to_menu(s)
    assert s.get("at", "p1") == "ballroom" and s.get("moves_used") == 0
    assert s.get("tpos", "p1", "might") == "l1"


# ---- obstacles (BH-ROOM-OBSTACLE) ------------------------------------------------------------------


def test_an_obstacle_roll_once_per_turn_and_a_failure_leaves_only_the_way_back(game4: Game) -> None:
    """p.6, BH-ROOM-OBSTACLE-2..5: the Chasm needs a Speed roll of 3+ (the tile); "Fordulónként egyszer
    kísérelhetsz meg ilyen dobást", "nem haladhatsz át az akadályon, de visszafelé még elindulhatsz
    (amerről jöttél)"; a success takes the explorer across without a step ("nem minősül mozgásnak")."""
    base = set_up(game4, FOUR)
    place(base, "chasm", "basement", "x5y4")  # east of the Basement Landing, doors east and west
    base.set("at", "p1", "chasm")
    base.set("entered_from", "p1", "west")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert not [x for x in labels(s) if "east" in x], labels(s)
    act(s, "try to cross the Chasm (speed roll of 3+)")
    roll(s, 0, 0, 1, 1)  # Jenny's Speed is 4: 2 fails
    assert labels(s) == ["move west to Basement Landing", "end the turn"]
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "try to cross the Chasm (speed roll of 3+)")
    roll(s, 0, 0, 1, 2)
    assert "discover a new room through the east door of the Chasm" in labels(s)
    assert "move west to Basement Landing" not in labels(s)
    assert not [x for x in labels(s) if x.startswith("try to cross")]
    assert s.get("moves_used") == 0


# ---- the end of the turn (BT-END-OF-TURN) ----------------------------------------------------------


def end_turn_in(game: Game, base: State, room: str, floor: str) -> State:
    place(base, room, floor, "x5y3")
    base.set("at", "p1", room)
    s = game.state_at("end_turn_room", {"s": "p1"}, base)
    to_menu(s)  # (damage: the first trait offered takes the point)
    return s


@pytest.mark.parametrize(("room", "floor", "trait", "change"), [
    ("crypt", "basement", "sanity", -1),         # 1 mental damage (the first option: Sanity)
    ("furnace_room", "basement", "speed", -1),   # 1 physical damage (the first option: Speed)
    ("chapel", "ground", "sanity", 1),
    ("gymnasium", "upper", "speed", 1),
    ("larder", "basement", "might", 1),
    ("library", "ground", "knowledge", 1),
])
def test_rooms_that_act_at_the_end_of_the_turn(game4: Game, room: str, floor: str, trait: str,
                                               change: int) -> None:
    """The printed end-of-turn rules (betrayal_rooms.csv): the Crypt deals 1 mental damage, the Furnace
    Room 1 physical; the Chapel, Gymnasium, Larder and Library give +1 Sanity, Speed, Might, Knowledge."""
    base = set_up(game4, FOUR)
    before = int(str(base.get("tpos", "p1", trait))[1:])
    s = end_turn_in(game4, base, room, floor)
    assert int(str(s.get("tpos", "p1", trait))[1:]) == before + change


def test_the_room_bonus_is_once_per_game(game4: Game) -> None:
    """The Library's printed rule (betrayal_rooms.csv: "Once per game per explorer, ending your turn here
    gives +1 Knowledge"): a second turn ended there gives nothing; another explorer still gets it."""
    base = set_up(game4, FOUR)
    s = end_turn_in(game4, base, "library", "ground")
    assert s.get("tpos", "p1", "knowledge") == "l4"
    s2 = game4.state_at("end_turn_room", {"s": "p1"}, s)
    assert s2.get("tpos", "p1", "knowledge") == "l4"
    s.set("at", "p2", "library")
    s3 = game4.state_at("end_turn_room", {"s": "p2"}, s)
    assert s3.get("tpos", "p2", "knowledge") != s.get("tpos", "p2", "knowledge")


# ---- the data: rooms and characters against shared/data --------------------------------------------


@needs_shared
def test_rooms_csv_matches_the_shared_tile_facts() -> None:
    """Every tile of specs/betrayal/rooms.csv has the floors, doors, card symbol and printed rule of
    shared/data/betrayal_rooms.csv, with its confidence."""
    sides = {"N": "north", "E": "east", "S": "south", "W": "west"}
    with open(SHARED / "betrayal_rooms.csv", encoding="utf-8") as f:
        shared = {r["name"]: r for r in csv.DictReader(f)}
    ours = {r["name"]: r for r in spec_rooms()}
    assert set(ours) == set(shared)
    for name, r in ours.items():
        t = shared[name]
        assert r["floors"].split(";") == t["floors"].split("|"), name
        assert r["doors"].split(";") == [sides[x] for x in t["doors"].split(",")], name
        assert r["symbol"] == t["card_symbol"], name
        assert (r["rule_keyword"], r["rule"], r["confidence"]) == (
            t["special_rule_keyword"], t["special_rule_paraphrase"], t["confidence"]), name
        for kind in ("window", "outside"):
            assert (kind in r["features"].split(";")) == (t["window_outside"] == kind), name


TRACKS = ("speed", "might", "sanity", "knowledge")


@needs_shared
def test_characters_csv_matches_the_shared_tracks_row_by_row() -> None:
    """Every character of specs/betrayal/characters.csv has the shared file's card partner, colour, age,
    birthday, the 8 values of each trait track (lowest first) and the green start (index from 0)."""
    with open(SHARED / "betrayal_characters.csv", encoding="utf-8") as f:
        shared = {r["name"]: r for r in csv.DictReader(f)}
    with open(ROOT / "specs" / "betrayal" / "characters.csv", encoding="utf-8") as f:
        ours = {r["name"]: r for r in csv.DictReader(f)}
    assert set(ours) == set(shared) and len(ours) == 12
    for name, r in ours.items():
        t = shared[name]
        assert t["confidence"] == "high"
        assert r["flip_side"] == sym(t["flip_side"]), name
        assert (r["colour"], r["age"], r["birthday"]) == (t["colour"], t["age"], t["birthday"]), name
        for tr in TRACKS:
            values = [int(x.split(":")[1]) for x in r[f"{tr}_track"].split("|")]
            assert [x.split(":")[0] for x in r[f"{tr}_track"].split("|")] == [f"l{i}" for i in range(1, 9)]
            assert values == [int(x) for x in t[f"{tr}_track"].split()], (name, tr)
            start = int(r[f"{tr}_start"][1:]) - 1
            assert start == int(t[f"{tr}_start_index"]), (name, tr)
            assert values[start] == int(t[f"{tr}_start_value"]), (name, tr)


# ---- setup (BH-SETUP) ------------------------------------------------------------------------------


def test_a_chosen_card_takes_both_its_sides_out(game4: Game) -> None:
    """p.3, BH-SETUP-2: "Minden játékos választ egy karakter kártyát. A lapok oldalain különféle karakterek
    vannak. Válassz egyet.": once Jenny LeClerc is chosen, neither she nor Heather Granville (the other side
    of her card) can be chosen again."""
    s = game4.new_initial_state()
    assert len(labels(s)) == 12
    s.apply_action(JENNY)
    assert JENNY not in labels(s) and "Heather Granville" not in labels(s) and len(labels(s)) == 10


@needs_shared
def test_explorers_start_in_the_entrance_hall_at_their_green_values(game4: Game) -> None:
    """p.3, BH-SETUP-3/7: the clips point at the green starting values and every figure stands in the
    Entrance Hall; the three starting tiles are laid out (BH-SETUP-5)."""
    with open(SHARED / "betrayal_characters.csv", encoding="utf-8") as f:
        shared = {r["name"]: r for r in csv.DictReader(f)}
    chosen = ["Vivian Lopez", "Father Rhinehardt", "Zoe Ingstrom", "Darrin \"Flash\" Williams"]
    s = set_up(game4, chosen)
    for seat, name in zip(("p1", "p2", "p3", "p4"), chosen):
        assert s.get("at", seat) == "entrance_hall"
        for tr in TRACKS:
            assert s.eval(f"value({seat}, {tr})") == int(shared[name][f"{tr}_start_value"]), (name, tr)
    for room in ("basement_landing", "entrance_hall", "foyer", "grand_staircase", "upper_landing"):
        assert s.get("tile_placed", room) == 1
    assert s.eval("count(r in room if tile_stack[r] == 1)") == 42


def test_the_soonest_birthday_goes_first_and_play_is_clockwise(game4: Game) -> None:
    """p.3, BH-SETUP-9/10: the first player is the one whose character's birthday comes soonest (counted
    from the game's day, 1 January: BH-OPEN-27); turns then pass clockwise."""
    s = set_up(game4, ["Ox Bellows", "Madame Zostra", "Jenny LeClerc", "Peter Akimoto"])
    assert s.get("first_seat") == "p3" and s.get("active") == "p3"  # 4 March before 3 Sep, 18 Oct, 10 Dec
    assert s.eval("next_seat(p3)") == "p4" and s.eval("next_seat(p4)") == "p1"


# ---- the Collapsed Room on discovery (BH-ROOM-COLLAPSED-1) --------------------------------------------


def test_only_the_discoverer_of_the_collapsed_room_rolls(game4: Game) -> None:
    """p.6, BH-ROOM-COLLAPSED-1: "Csak az összeomlott szobát elsőként felfedező játékosnak kell a leírt
    sebességre dobást elvégeznie": the discoverer rolls Speed (5+ on the tile) and, on a success, stays and
    may move on; an explorer walking in later makes no roll."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Entrance Hall")
    s.apply_action("draw: Collapsed Room")
    assert s.is_chance_node() and s.prompt() == "roll the die"
    roll(s, 2, 2, 1, 0)  # Jenny's Speed is 4: 5 holds
    assert not s.is_chance_node() and s.prompt().startswith("what does")
    assert s.get("at", "p1") == "collapsed_room" and s.get("token_box", "tk_below_collapsed") == 1
    assert any(x.startswith("discover") for x in labels(s))
    s2 = game4.state_at("explorer_turn", {"s": "p2"}, s)
    act(s2, "move east to Collapsed Room")
    assert not s2.is_chance_node() and s2.prompt().startswith("what does")
    assert s2.get("at", "p2") == "collapsed_room"


def test_after_a_passed_exit_roll_the_new_room_is_found(game4: Game) -> None:
    """BT-EXIT-ROLL then BH-DISCOVER-1/2: a Might roll of 3+ on leaving the Junk Room, then the tile behind
    the door is drawn, placed and entered, all for one step."""
    s = discover_from_junk_room(game4, set_up(game4, FOUR))
    roll(s, 1, 1, 1, 0)
    assert s.is_chance_node() and s.prompt() == "draw a room"
    s.apply_action("draw: Dusty Hallway")
    to_menu(s)
    assert s.get("at", "p1") == "dusty_hallway" and s.get("room_at", "ground", "x6y6") == "dusty_hallway"
    assert s.get("tpos", "p1", "speed") == "l4" and s.get("moves_used") == 1
