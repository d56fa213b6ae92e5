"""Betrayal: card and haunt readings that earlier audits noticed and left alone, settled in exact positions.

The card facts are the paraphrases of ../shared/data/betrayal_cards.md (specs/betrayal/cards.csv, column
``effect``); the rules are the Hungarian rulebook (shared/seeds/004_d45700e3d66fa338.txt). Each test
builds one position and checks what the card or the rulebook says: the It Is Meant to Be kept roll, the
Grave Dirt shaken off by an item, the steal threshold against the Armor, the belongings of the dead, and
the monsters' use of the Gallery (the rulebook's "erkély").
"""

from __future__ import annotations

import pytest
from bh_helpers import (FOUR, act, holds, labels, lies_here, monster_at, place, play_out, roll, set_up,
                        start_haunt)

import ghostrules
from ghostrules.engine import Game


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


# ---- Grave Dirt (betrayal_cards.md event 13) ---------------------------------------------------------


def test_grave_dirt_is_discarded_when_an_item_gained_raises_a_trait(game4: Game) -> None:
    """BC-EVENT-GRAVE-DIRT-ITEM (event 13): "Discard it when an item raises one of your traits". Picking up
    the Book (an omen that is an item, BH-CARD-OMEN-4: "+2 Knowledge now") raises Knowledge: the kept
    Grave Dirt is discarded."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "grave_dirt")
    lies_here(base, "entrance_hall", "book")
    s = game4.state_at("pick_up_items", {"s": "p1"}, base, stop=True)
    play_out(s, choose={"what does": "take the Book"})
    assert s.get("held", "p1", "book") == 1
    assert s.get("held", "p1", "grave_dirt") == 0 and s.get("discarded", "grave_dirt") == 1


def test_grave_dirt_is_discarded_when_a_healing_item_raises_a_trait(game4: Game) -> None:
    """BC-EVENT-GRAVE-DIRT-ITEM: the Healing Salve used by another explorer on the dirty one ("You or a
    living explorer in your room: raise Might and/or Speed back to their starting values", item 12) raises
    its Might: the Grave Dirt goes; the healer's own cards are untouched."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "grave_dirt")
    holds(base, "p2", "healing_salve")
    base.set("tpos", "p1", "might", "l1")
    s = game4.state_at("explorer_turn", {"s": "p2"}, base)
    act(s, "use the Healing Salve")
    act(s, "Jenny")
    assert s.get("tpos", "p1", "might") != "l1"
    assert s.get("held", "p1", "grave_dirt") == 0 and s.get("discarded", "grave_dirt") == 1


def test_grave_dirt_stays_when_a_companion_raises_a_trait(game4: Game) -> None:
    """BC-EVENT-GRAVE-DIRT-ITEM and BH-CARD-OMEN-5 ("Néhány ómen, mint pl. a kutya, nem minősül tárgynak"):
    the Dog raises Might and Sanity but is no item, so the Grave Dirt stays (the control of the tests
    above)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "grave_dirt")
    base.set("in_deck", "dog", 0)
    base.set("aside", "dog", 1)
    base.set("pile_room", "dog", "entrance_hall")
    s = game4.state_at("claim_companion", {"s": "p1", "c": "dog"}, base)
    assert s.get("held", "p1", "dog") == 1
    assert s.get("held", "p1", "grave_dirt") == 1


def test_grave_dirt_stays_when_the_item_cannot_raise_the_trait(game4: Game) -> None:
    """BC-EVENT-GRAVE-DIRT-ITEM: an item that *raises* a trait; the Holy Symbol (+2 Sanity) gained with
    Sanity at the top of its track raises nothing, and the Grave Dirt stays."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "grave_dirt")
    base.set("tpos", "p1", "sanity", "l8")
    lies_here(base, "entrance_hall", "holy_symbol")
    s = game4.state_at("pick_up_items", {"s": "p1"}, base, stop=True)
    play_out(s, choose={"what does": "take the Holy Symbol"})
    assert s.get("held", "p1", "holy_symbol") == 1
    assert s.get("held", "p1", "grave_dirt") == 1


# ---- monsters and the Gallery (BH-MONSTER-11) ----------------------------------------------------------


def test_a_monster_may_drop_from_the_gallery_into_the_ballroom(game4: Game) -> None:
    """BH-MONSTER-11, p.12: "Használhatják a széncsúszdát, a beomlott szobát, az erkélyt, a misztikus
    liftet"; the English rulebook lists "the Coal Chute, Collapsed Room, Gallery, Mystic Elevator": the
    "erkély" is the Gallery, whose drop into the Ballroom (rooms.csv) a monster may take like an explorer."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    place(base, "gallery", "upper", "x4y3")
    place(base, "ballroom", "ground", "x3y5", "r0")
    monster_at(base, "gallery")
    base.set("mon_points", 2)
    s = game4.state_at("monster_moves", {"m": "m1"}, base, stop=True)
    assert "monster 1 drops from the Gallery into the Ballroom" in labels(s), labels(s)
    act(s, "monster 1 drops from the Gallery into the Ballroom")
    assert s.get("mon_at", "m1") == "ballroom"
    place(base, "balcony", "upper", "x4y2")
    base.set("mon_at", "m1", "balcony")
    base.set("mon_points", 2)
    s = game4.state_at("monster_moves", {"m": "m1"}, base, stop=True)
    assert not any("drops" in x for x in labels(s)), labels(s)


# ---- It Is Meant to Be (betrayal_cards.md event 19) ----------------------------------------------------


def test_it_is_meant_to_be_keeps_the_total_but_caps_it_at_the_later_roll_s_maximum(game4: Game) -> None:
    """BC-EVENT-IT-IS-MEANT-TO-BE (an event, event 19): "roll 4 dice, write down the total, and later use
    it in place of one roll you make"; the printed card goes on: "If that number is higher than the
    maximum possible result, use the maximum possible result instead" (Ongion/betrayal and
    tkindy/betrayal-api transcriptions). This test used to check the opposite (a kept 8 standing in whole
    for a Knowledge roll of fewer dice); it now checks the card's rule: the total is kept as rolled (8),
    and used for a later Knowledge roll at the lowest position (Jenny's Knowledge 2: 2 dice, at most 4)
    it counts 4; it is gone after one use."""
    base = set_up(game4, FOUR)
    s = game4.state_at("receive_card", {"s": "p1", "c": "it_is_meant_to_be"}, base, stop=True)
    act(s, "roll 4 dice")
    roll(s, 2, 2, 2, 2)
    assert s.get("saved_roll", "p1") == 8
    base.set("saved_roll", "p1", 8)
    base.set("tpos", "p1", "knowledge", "l1")
    s = game4.state_at("trait_roll", {"s": "p1", "t": "knowledge", "extra": 0, "why": "plain"}, base, stop=True)
    assert s.eval("value(p1, knowledge)") == 2
    act(s, "use the kept roll of 8")
    assert s.get("roll_total") == 4 and s.get("saved_roll", "p1") == -1


# ---- the steal threshold and the Armor (BH-ATTACK-STEAL-1) ------------------------------------------


def test_a_win_by_two_may_steal_from_an_armored_defender(game4: Game) -> None:
    """BH-ATTACK-STEAL-1, p.9: "Ha megtámadsz valakit és 2 vagy több pont fizikai sérülést okozol neki";
    BH-ATTACK-3, p.8: "Az okozott sérülés egyenlő a két dobott érték különbségével" (the damage *dealt* is
    the difference of the rolls). The Armor ("Every time you take physical damage, take 1 less", item 4)
    lowers the damage its wearer *takes*, so a win by 2 over an armored traitor still offers the theft
    (of the Axe: the Armor cannot be stolen); declining it, the traitor takes 1."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p2", "armor", "axe")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "attack")
    act(s, "attack Ox")
    roll(s, 2, 2, 0, 0)              # Jenny: Might 4, total 4
    roll(s, 1, 1, 0, 0, 0)           # Ox Bellows: Might 5, total 2
    assert s.prompt() == "does Jenny LeClerc steal instead of dealing 2 damage?"
    assert sorted(labels(s)) == ["deal the damage", "steal the Axe"]
    might, speed = s.get("tpos", "p2", "might"), s.get("tpos", "p2", "speed")
    act(s, "deal the damage")
    act(s, "lower might")
    lvl = game4.layout.domains["lvl"]
    lowered = (lvl.index(str(might)) - lvl.index(str(s.get("tpos", "p2", "might")))
               + lvl.index(str(speed)) - lvl.index(str(s.get("tpos", "p2", "speed"))))
    assert lowered == 1


# ---- what the dead leave behind (BH-DEATH-4/5) ----------------------------------------------------------


def test_the_dead_leave_omen_items_in_the_pile_and_their_wards_in_place(game4: Game) -> None:
    """BH-DEATH-5, p.12: "Mikor meghalsz, minden tárgyad eldobod ... Más játékosok bemehetnek az adott
    szobába és felvehetik a tárgyaid (és elveszik a hozzá tartozó kártyákat)". An omen that is an item (the
    Book, BH-CARD-OMEN-4) goes into the item pile of the death room like any item, and the explorer who
    picks it up gains its +2 Knowledge; the Bite (no item) is set aside, out of reach; a kept event is no
    "tárgy-, és ómen kártya" and goes to the discard pile ("Ezután dobd el a kártyát", BH-CARD-EVENT-2,
    BH-OPEN-52); a ward set in a room (haunt 2) is a token of the room, not of the dead hero, and stays."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2", haunt="sealed_door")
    holds(base, "p1", "book", "bite", "grave_dirt")
    base.set("ward_box", 17)
    base.set("ward_on", "entrance_hall", 1)
    s = game4.state_at("die", {"s": "p1"}, base)
    assert (s.get("in_pile", "book"), s.get("pile_room", "book")) == (1, "entrance_hall")
    assert s.get("aside", "bite") == 1
    assert s.get("discarded", "grave_dirt") == 1 and s.get("aside", "grave_dirt") == 0
    assert s.get("ward_on", "entrance_hall") == 1 and s.check_invariants() == []
    lvl = game4.layout.domains["lvl"]
    knowledge = lvl.index(str(s.get("tpos", "p3", "knowledge")))
    t = game4.state_at("pick_up_items", {"s": "p3"}, s, stop=True)
    play_out(t, choose={"what does": "take the Book"})
    assert t.get("held", "p3", "book") == 1
    assert lvl.index(str(t.get("tpos", "p3", "knowledge"))) == min(knowledge + 2, lvl.index("l8"))
    assert not t.eval("exists(c in [bite, grave_dirt] if in_pile[c] == 1)")


# ---- a stuck hero and the traitor's movement (BH-HAUNT-MOVE-2, BH-OPEN-41) ---------------------------


def test_a_webbed_hero_still_slows_the_traitor(game4: Game) -> None:
    """BH-HAUNT-MOVE-2/4, p.12: the rulebook exempts only stunned monsters ("Az elkábított szörnyek nem
    lassítják"); a hero stuck in the Webs ("do nothing until freed", event 43) is still an opponent in the
    room (BH-OPEN-41 records the reading)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    for seat in ("p3", "p4"):
        base.set("at", seat, "foyer")
    assert base.eval("leave_cost(p2)") == 2
    holds(base, "p1", "webs")
    assert not base.eval("free_to_act(p1)")
    assert base.eval("leave_cost(p2)") == 2
