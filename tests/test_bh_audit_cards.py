"""Betrayal: an audit of the card effects (omens, items, events) in exact positions.

The card facts are the paraphrases of ../shared/data/betrayal_cards.md, copied into
specs/betrayal/cards.csv (column ``effect``); the rules are BC-* in specs/betrayal/rules/*_cards.yaml.
Each test plays one card from a built position and checks what the card says.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from bh_helpers import FOUR, labels, monster_at, place, set_up, start_haunt

import ghostrules
from ghostrules.engine import Game, State

CARDS_CSV = Path(__file__).resolve().parent.parent / "specs" / "betrayal" / "cards.csv"


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def drive(s: State, faces: list[int] | None = None, rooms: list[str] | None = None,
          choose: dict[str, str] | None = None) -> list[str]:
    """Play the position to its end (built with ``stop=True``). Die rolls take the given faces in order
    (then 0), room draws take the given rooms in order, a decision takes the first option whose label
    starts with the text given for its prompt's start (``choose``), else its first option. Returns the
    prompts of the chance nodes met, in order."""
    faces = list(faces or [])
    rooms = list(rooms or [])
    choose = dict(choose or {})
    seen: list[str] = []
    while not s.is_terminal():
        if s.is_chance_node():
            prompt = s.prompt()
            seen.append(prompt)
            if prompt == "roll the die":
                s.apply_action(f"die: {faces.pop(0) if faces else 0}")
            elif prompt == "draw a room" and rooms:
                s.apply_action(f"draw: {rooms.pop(0)}")
            else:
                s.apply_action(s.chance_outcomes()[0][0])
            continue
        prompt = s.prompt()
        picked = None
        for start, option in choose.items():
            if prompt.startswith(start):
                picked = next((a for a in s.legal_actions() if a.label.startswith(option)), None)
                assert picked is not None, (prompt, option, labels(s))
        s.apply_action(picked if picked is not None else s.legal_actions()[0])
    return seen


def draw_event(game: Game, base: State, seat: str, card: str) -> State:
    """The position where ``seat`` has just drawn ``card`` from its deck (it resolves on the first step)."""
    return game.state_at("receive_card", {"s": seat, "c": card}, base, stop=True, tracing=True)


def physical(s: State, seat: str) -> tuple[str, str]:
    return (str(s.get("tpos", seat, "might")), str(s.get("tpos", seat, "speed")))


def test_every_card_has_its_rule(game4: Game) -> None:
    """cards.csv: 13 omens, 22 items, 45 events, each naming a BC-* rule the spec defines."""
    rows = list(csv.DictReader(CARDS_CSV.open(encoding="utf-8")))
    decks = [r["deck"] for r in rows]
    assert (decks.count("omen"), decks.count("item"), decks.count("event")) == (13, 22, 45)
    known = {r.id for r in ghostrules.load_spec("betrayal").rules}
    assert {r["rule"] for r in rows} <= known


def test_the_lost_one_basement_costs_no_damage(game4: Game) -> None:
    """BC-EVENT-THE-LOST-ONE (betrayal_cards.md event 40): "Knowledge roll: 5+ = +1 Knowledge. Otherwise
    roll 3 dice: ... 0-1 = the same for a basement room" (draw tiles until a basement room, place it and go
    there). Unlike the Mystic Slide ("fall into it, and take 1 die of physical damage"), the card names no
    damage: the wanderer lands unhurt."""
    base = set_up(game4, FOUR)
    before = physical(base, "p1")
    s = draw_event(game4, base, "p1", "the_lost_one")
    # Knowledge roll all blanks, then the 3 dice show 0: a new basement room (no card symbol)
    seen = drive(s, faces=[0] * 8, rooms=["Creaky Hallway"])
    assert s.get("at", "p1") == "creaky_hallway"
    assert s.get("rfloor", "creaky_hallway") == "basement"
    # the Knowledge roll and the 3 dice come before the room; no die of damage after the landing
    assert seen[-1] == "draw a room", seen
    assert physical(s, "p1") == before


def test_mystic_slide_fall_costs_one_die_of_damage(game4: Game) -> None:
    """BC-EVENT-MYSTIC-SLIDE (event 24): "0-4 = draw tiles until a basement room turns up, place it, fall
    into it, and take 1 die of physical damage"."""
    base = set_up(game4, FOUR)
    place(base, "gardens", "ground", "x5y6")
    base.set("at", "p1", "gardens")
    s = draw_event(game4, base, "p1", "mystic_slide")
    might = int(s.game.layout.domains["lvl"].index(str(base.get("tpos", "p1", "might"))))
    # Might roll: Jenny's Might (4 dice) all blank, then the damage die shows 2
    seen = drive(s, faces=[0, 0, 0, 0, 2], rooms=["Creaky Hallway"], choose={"which trait": "lower might"})
    assert s.get("at", "p1") == "creaky_hallway"
    assert seen[-2:] == ["draw a room", "roll the die"], seen
    assert int(s.game.layout.domains["lvl"].index(str(s.get("tpos", "p1", "might")))) == might - 2


def test_music_box_mesmerises_an_explorer_starting_its_turn_in_its_room(game4: Game) -> None:
    """BC-ITEM-MUSIC-BOX (betrayal_cards.md item 16): "While it is open, any explorer or monster with
    Sanity that enters or starts its turn in the room must roll Sanity 4+ or end its turn (mesmerised)".
    An explorer who starts its turn where the open box lies rolls Sanity first; on a failure its turn is
    over before it can act."""
    base = set_up(game4, FOUR)
    base.set("held", "p2", "music_box", 0)
    base.set("in_deck", "music_box", 0)
    base.set("in_pile", "music_box", 1)
    base.set("pile_room", "music_box", "entrance_hall")
    base.set("music_open", True)
    assert base.get("at", "p1") == "entrance_hall"
    s = game4.state_at("explorer_turn", {"s": "p1"}, base, stop=True)
    assert s.is_chance_node() and s.prompt() == "roll the die", s.prompt()
    while s.is_chance_node() and s.prompt() == "roll the die":
        s.apply_action("die: 0")
    # mesmerised: p1's turn is over before a single action was offered
    assert s.is_terminal()
    assert s.get("turn_over") is True or s.get("turn_over") == 1


def test_music_box_closed_lets_the_turn_start(game4: Game) -> None:
    """BC-ITEM-MUSIC-BOX: a closed box does nothing (the control of the test above)."""
    base = set_up(game4, FOUR)
    base.set("in_deck", "music_box", 0)
    base.set("in_pile", "music_box", 1)
    base.set("pile_room", "music_box", "entrance_hall")
    base.set("music_open", False)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert s.prompt().startswith("what does Jenny"), s.prompt()


def shrieking_wind_rollers(game: Game, room: str) -> list[str]:
    """Who rolls for the Shrieking Wind drawn by p2 in the Entrance Hall while p1 stands in ``room``."""
    base = set_up(game, FOUR)
    place(base, room, "ground", "x5y6")
    base.set("at", "p1", room)
    s = game.state_at("receive_card", {"s": "p2", "c": "shrieking_wind"}, base, stop=True, tracing=True)
    drive(s)
    return [str(e) for e in s.log() if "makes a might roll" in str(e)]


def test_shrieking_wind_names_its_rooms(game4: Game) -> None:
    """BC-EVENT-SHRIEKING-WIND (betrayal_cards.md event 32): "Every explorer in the Gardens, Graveyard,
    Patio, Tower or Balcony, or in a room with an outside-facing window, rolls Might". The Conservatory
    is neither named nor a room with a window (rooms.csv features: outside only), so an explorer there
    is not blown about, as for The Beckoning (event 39, the same list without the Patio)."""
    assert len(shrieking_wind_rollers(game4, "gardens")) == 1
    assert shrieking_wind_rollers(game4, "conservatory") == []


def test_revolving_wall_leads_into_a_room_already_beyond_it(game4: Game) -> None:
    """BC-EVENT-REVOLVING-WALL (betrayal_cards.md event 28): "Put the Wall Switch token on a wall with no
    exit ... of this room. If no room lies beyond it, draw tiles until one fits this floor and place it
    there ... Move into that room." A wall without a door with a room already beyond it is a wall the
    token may go on: the explorer turns into that room, and the wall joins the two rooms from then on."""
    base = set_up(game4, FOUR)
    place(base, "gardens", "ground", "x5y6")  # doors north and south: its west wall backs the Entrance Hall
    base.set("at", "p1", "gardens")
    s = draw_event(game4, base, "p1", "revolving_wall")
    assert not s.is_chance_node()
    assert "the west wall, into the Entrance Hall" in labels(s), labels(s)
    drive(s, choose={"behind which wall": "the west wall, into the Entrance Hall"})
    assert s.get("at", "p1") == "entrance_hall"
    assert s.get("wall_room") == "entrance_hall"
    assert s.get("token_on", "gardens", "tk_wall") == 1


def footsteps_dice(game: Game, drawer_room: str, other_room: str) -> int:
    """How many dice p1 rolls for Footsteps drawn in ``drawer_room`` while p2 stands in ``other_room``."""
    base = set_up(game, FOUR)
    place(base, "chapel", "ground", "x5y6", "r0")
    base.set("at", "p1", drawer_room)
    base.set("at", "p2", other_room)
    s = draw_event(game, base, "p1", "footsteps")
    return drive(s, faces=[0, 0]).count("roll the die")


def test_footsteps_extra_die_is_for_the_drawer_in_the_chapel(game4: Game) -> None:
    """BC-EVENT-FOOTSTEPS (betrayal_cards.md event 11): "Roll 1 die (+1 die for an explorer in the
    Chapel)"; the card (ON transcription): "Roll 1 die. (An explorer in the Chapel rolls 1 additional die
    on this roll.)". Only the drawer rolls, so the extra die is the drawer's when it stands in the Chapel,
    as the same wording on the Groundskeeper ("An explorer in the Gardens rolls 2 fewer dice on this
    roll") is read for the drawer (BC-EVENT-GROUNDSKEEPER). Another explorer in the Chapel adds nothing."""
    assert footsteps_dice(game4, "entrance_hall", "chapel") == 1
    assert footsteps_dice(game4, "chapel", "entrance_hall") == 2


def assert_only_the_traitor_skips_the_shriek(s: State) -> None:
    """Play a Hideous Shriek position (traitor p2, Ox Bellows) to its end, every die showing 2, the
    traitor taking "ignores it" whenever offered: the traitor was asked whether the card affects it,
    and the three others (not Ox Bellows) made a Sanity roll."""
    prompts: list[str] = []
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action("die: 2" if s.prompt() == "roll the die" else s.chance_outcomes()[0][0])
            continue
        prompts.append(s.prompt())
        ignore = [a for a in s.legal_actions() if "ignores it" in a.label]
        s.apply_action(ignore[0] if ignore else s.legal_actions()[0])
    assert any("affect the traitor" in p for p in prompts), prompts
    rollers = [str(e) for e in s.log() if "makes a sanity roll" in str(e)]
    assert len(rollers) == 3, rollers
    assert not any("Ox Bellows" in r for r in rollers), rollers


def test_the_traitor_may_ignore_an_event_drawn_by_a_hero(game4: Game) -> None:
    """BH-TRAITOR-6, p.10 (the traitor's part): "Eldöntheted, hogy egy esemény kártya hatással van-e rád
    vagy sem. Ha úgy döntessz hogy igen, akkor el kell végezned a kapcsolódó dobásokat": the traitor
    decides for every event card that would affect it, not only for the ones it draws. When a hero draws
    the Hideous Shriek ("Every explorer rolls Sanity"), the traitor may stay out of it; the other
    explorers roll."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    s = game4.state_at("receive_card", {"s": "p1", "c": "hideous_shriek"}, base, stop=True, tracing=True)
    assert_only_the_traitor_skips_the_shriek(s)


def test_the_lost_one_with_no_room_left_for_the_floor_leads_to_the_entrance_hall(game4: Game) -> None:
    """BC-EVENT-THE-LOST-ONE (event 40; the card as ON transcribes it): "If you reach the end of the stack
    without drawing a room for the floor you rolled, put your explorer in the Entrance Hall instead."
    With no upper-floor room left, a 2-3 on the 3 dice leaves the explorer in the Entrance Hall, not in a
    room of the upper floor."""
    base = set_up(game4, FOUR)
    place(base, "gardens", "ground", "x5y6")
    base.set("at", "p1", "gardens")
    base.set("left_for", "upper", 0)
    s = draw_event(game4, base, "p1", "the_lost_one")
    # Knowledge roll (3 dice) all blank, then the 3 dice: 2 + 0 + 0 = 2, the upper floor
    drive(s, faces=[0, 0, 0, 2, 0, 0])
    assert s.get("at", "p1") == "entrance_hall"


@pytest.mark.parametrize(("card", "trade", "drop", "steal"), [
    ("armor", False, True, False),        # BH-ITEM-4; the card: "This item can't be stolen"
    ("blood_dagger", False, False, True),  # "can't be traded or dropped. If it's stolen ..."
    ("bite", False, False, False),         # BH-CARD-OMEN-4: not an item
    ("dog", False, False, False),          # BH-CARD-OMEN-5: companions
    ("girl", False, False, False),
    ("madman", False, False, False),
    ("book", True, True, True),            # every other omen is an item (BH-CARD-OMEN-4)
    ("spear", True, True, True),
    ("axe", True, True, True),
])
def test_which_cards_can_be_traded_dropped_stolen(game4: Game, card: str, trade: bool, drop: bool,
                                                  steal: bool) -> None:
    """BH-ITEM-4 "Néhány tárgyat, mint pl. a páncélt, nem lehet elcserélni" (but it can be dropped);
    BH-CARD-OMEN-4 "kivéve a harapás kártya"; BH-CARD-OMEN-5 "A kutya, a kislány, és az őrült mind így
    működik"; cards.csv features (betrayal_cards.md items 4 and 7)."""
    base = set_up(game4, FOUR)
    assert (base.eval(f"tradable({card})"), base.eval(f"droppable({card})"),
            base.eval(f"stealable({card})")) == (trade, drop, steal)


def test_creepy_crawlies_boundaries(game4: Game) -> None:
    """BC-EVENT-CREEPY-CRAWLIES (event 6): "Sanity roll: 5+ = +1 Sanity; 1-4 = -1 Sanity; 0 = -2 Sanity"
    (the ON card: "5+ ... Gain 1 Sanity. 1-4 Lose 1 Sanity. 0 Lose 2 Sanity"): a 4 costs 1, a 0 costs 2."""
    lvl = game4.layout.domains["lvl"]

    def after(faces: list[int]) -> int:
        base = set_up(game4, FOUR)
        base.set("tpos", "p1", "sanity", "l5")
        s = draw_event(game4, base, "p1", "creepy_crawlies")
        drive(s, faces=faces)
        return lvl.index(str(s.get("tpos", "p1", "sanity"))) - lvl.index("l5")

    n = 8  # more faces than Sanity dice: the rest of the roll shows 0
    assert after([2, 2] + [0] * n) == -1     # 4
    assert after([2, 2, 1] + [0] * n) == 1   # 5
    assert after([0] * n) == -2              # 0
    assert after([1] + [0] * n) == -1        # 1


def test_lights_out_is_discarded_when_the_candle_is_gained_later(game4: Game) -> None:
    """BC-EVENT-LIGHTS-OUT (event 21): "Also discard it if you hold the Candle"; the card (ON): "If you
    have the Candle or end your turn in the Furnace Room, discard this card." Picking up the Candle while
    Lights Out is kept ends it, not only holding the Candle when the card is drawn."""
    base = set_up(game4, FOUR)
    base.set("in_deck", "lights_out", 0)
    base.set("held", "p1", "lights_out", 1)
    base.set("in_deck", "candle", 0)
    base.set("in_pile", "candle", 1)
    base.set("pile_room", "candle", "entrance_hall")
    s = game4.state_at("pick_up_items", {"s": "p1"}, base, stop=True)
    drive(s, choose={"what does": "take the Candle"})
    assert s.get("held", "p1", "candle") == 1
    assert s.get("held", "p1", "lights_out") == 0


def test_bloody_vision_frenzy_attacks_a_monster_when_no_explorer_is_there(game4: Game) -> None:
    """BC-EVENT-BLOODY-VISION (event 3): "0-1 = you must attack an explorer or monster in your room or an
    adjacent one (if you can), choosing the lowest-Might explorer if possible" (the ON card: "If an
    explorer or monster is in your room ... you must attack it (if you can)"). A hero alone with a monster
    in its room, the others out of reach (the Upper Landing is reached by stairs, not through a door),
    attacks the monster."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    for seat in ("p2", "p3", "p4"):
        base.set("at", seat, "upper_landing")
    monster_at(base, "entrance_hall")
    s = draw_event(game4, base, "p1", "bloody_vision")
    drive(s)  # every die blank: the Sanity roll is 0
    assert any("for monster 1" in str(e) for e in s.log()), [str(e) for e in s.log()][-10:]


def test_creepy_puppet_armor_absorbing_the_hit_gives_the_spear_nothing(game4: Game) -> None:
    """BC-EVENT-CREEPY-PUPPET (event 7): "If you take damage, whoever holds the Spear gains 2 Might"; the
    ON card: "If you take any damage from this attack". With the Armor ("Every time you take physical
    damage, take 1 less", item 4) a 1-point hit does no damage, so the Spear's holder gains nothing."""
    lvl = game4.layout.domains["lvl"]
    base = set_up(game4, FOUR)
    for card, seat in (("armor", "p1"), ("spear", "p3")):
        base.set("in_deck", card, 0)
        base.set("held", seat, card, 1)
    p1_before = physical(base, "p1")
    spear_might = lvl.index(str(base.get("tpos", "p3", "might")))
    s = draw_event(game4, base, "p1", "creepy_puppet")
    drive(s, faces=[1])  # the attack's 4 dice: 1, 0, 0, 0; Jenny's Might dice all blank
    assert any("rolls 1 against" in str(e) for e in s.log()), [str(e) for e in s.log()]
    assert physical(s, "p1") == p1_before
    assert lvl.index(str(s.get("tpos", "p3", "might"))) == spear_might


def test_a_traitor_ignoring_its_own_shriek_spares_only_itself(game4: Game) -> None:
    """BH-TRAITOR-6: "Eldöntheted, hogy egy esemény kártya hatással van-e rád vagy sem" ("whether an event
    card affects YOU"): a traitor who draws the Hideous Shriek ("Every explorer rolls Sanity", event 16)
    and stays out of it does not spare the heroes, who still roll."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    s = draw_event(game4, base, "p2", "hideous_shriek")
    assert_only_the_traitor_skips_the_shriek(s)
