"""Betrayal: event-card readings settled against the printed cards, in exact positions.

The card facts are the paraphrases of ../shared/data/betrayal_cards.md (specs/betrayal/cards.csv, column
``effect``), checked against the two public English transcriptions the spec cites (Ongion/betrayal,
tkindy/betrayal-api); the rules are the Hungarian rulebook (shared/seeds/004_d45700e3d66fa338.txt), which
lets a card's words win ("Mi történik ha szabálykönyv és a kártya utasításai ütköznek? ... a kártya
utasításait kövesd"). Covered: the cap on the It Is Meant to Be kept roll, one freeing attempt a turn for
each stuck explorer (Debris and Webs), Bloody Vision's reach into the next room, the events that pass to
the next explorer on the left (Image in the Mirror B, Mystic Slide; BH-OPEN-39), and the Smoke's line of
sight.
"""

from __future__ import annotations

import pytest
from bh_helpers import FOUR, act, holds, labels, monster_at, place, play_out, set_up, start_haunt

import ghostrules
from ghostrules.engine import Game, State


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def blank_dice(s: State) -> int:
    """Feed blank faces while the position asks for dice; return how many."""
    n = 0
    while s.is_chance_node() and s.prompt() == "roll the die":
        s.apply_action("die: 0")
        n += 1
    return n


def level(game: Game, s: State, seat: str, trait: str) -> int:
    return game.layout.domains["lvl"].index(str(s.get("tpos", seat, trait)))


def held_cards(game: Game, s: State, seat: str) -> set[str]:
    return {c for c in game.layout.domains["card"].symbols if s.get("held", seat, c) == 1}


# ---- It Is Meant to Be: the kept roll is capped (betrayal_cards.md event 19) ---------------------------


def test_kept_roll_is_cut_to_the_most_the_replaced_roll_s_dice_can_show(game4: Game) -> None:
    """BC-EVENT-IT-IS-MEANT-TO-BE, BH-ROLL-TRAIT-1: the printed card, "If that number is higher than the
    maximum possible result, use the maximum possible result instead". Jenny's Knowledge 3 in the Drip room
    (BC-EVENT-DRIP-DRIP-DRIP: 1 die fewer) rolls 2 dice, at most 4: a kept 5 counts 4 (it counted 5). A
    Speed roll of 4 dice can show 8, so a kept 8 stands whole there."""
    base = set_up(game4, FOUR)
    base.set("saved_roll", "p1", 5)
    base.set("token_box", "tk_drip", 0)
    base.set("token_on", "entrance_hall", "tk_drip", 1)
    s = game4.state_at("trait_roll", {"s": "p1", "t": "knowledge", "extra": 0, "why": "plain"}, base, stop=True)
    act(s, "use the kept roll of 5")
    assert s.get("roll_total") == 4 and s.get("saved_roll", "p1") == -1
    base = set_up(game4, FOUR)
    base.set("saved_roll", "p1", 8)
    s = game4.state_at("trait_roll", {"s": "p1", "t": "speed", "extra": 0, "why": "plain"}, base, stop=True)
    assert s.eval("value(p1, speed)") == 4
    act(s, "use the kept roll of 8")
    assert s.get("roll_total") == 8


# ---- Debris and Webs: one attempt a turn for each stuck explorer --------------------------------------


def test_a_buried_and_a_webbed_explorer_can_both_be_tried_in_one_turn(game4: Game) -> None:
    """BC-EVENT-DEBRIS-FREE (event 8: "Once per turn any explorer (including you) may try Might 4+ to free
    you"; event 43, Webs: the same): each card allows one attempt to free its holder a turn. Jenny (p1)
    is buried and Madame Zostra (p3) webbed in the Entrance Hall; on his turn Ox Bellows (p2) tries to free
    Jenny, fails, and may still try to free Madame Zostra (a single turn flag allowed only one attempt);
    after that neither is offered again that turn."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "debris")
    holds(base, "p3", "webs")
    s = game4.state_at("explorer_turn", {"s": "p2"}, base)
    assert {"try to free Jenny LeClerc (Might roll of 4+)",
            "try to free Madame Zostra (Might roll of 4+)"} <= set(labels(s)), labels(s)
    act(s, "try to free Jenny")
    assert blank_dice(s) == 5
    assert s.get("stuck_tries", "p1") == 1
    assert "try to free Madame Zostra (Might roll of 4+)" in labels(s), labels(s)
    assert not any(x.startswith("try to free Jenny") for x in labels(s)), labels(s)
    act(s, "try to free Madame Zostra")
    assert blank_dice(s) == 5
    assert s.get("stuck_tries", "p3") == 1
    assert not any(x.startswith("try to free") for x in labels(s)), labels(s)


# ---- Bloody Vision reaches the next room (betrayal_cards.md event 3) ----------------------------------


def test_bloody_vision_frenzy_attacks_an_explorer_in_the_next_room(game4: Game) -> None:
    """BC-EVENT-BLOODY-VISION (event 3: "0-1 = you must attack an explorer or monster in your room or an
    adjacent one (if you can), choosing the lowest-Might explorer if possible"; the printed card: "If an
    explorer or monster is in your room or an adjacent one, you must attack it"). Jenny (p1) alone in the
    Entrance Hall, Ox Bellows in the Foyer next door (joined by doors), the others upstairs: a Sanity roll
    of 0 makes her attack Ox (she attacked no one). The Upper Landing is reached by stairs, not a door:
    with everyone there, no one is attacked."""
    base = set_up(game4, FOUR)
    base.set("at", "p2", "foyer")
    base.set("at", "p3", "upper_landing")
    base.set("at", "p4", "upper_landing")
    s = game4.state_at("receive_card", {"s": "p1", "c": "bloody_vision"}, base, stop=True, tracing=True)
    play_out(s)
    assert any("against Ox Bellows" in str(e) for e in s.log()), [str(e) for e in s.log()][-8:]
    base.set("at", "p2", "upper_landing")
    s = game4.state_at("receive_card", {"s": "p1", "c": "bloody_vision"}, base, stop=True, tracing=True)
    play_out(s)
    assert not any("rolls" in str(e) and "against" in str(e) for e in s.log()), [str(e) for e in s.log()]


def test_bloody_vision_prefers_the_weakest_explorer_in_reach_to_a_monster_here(game4: Game) -> None:
    """BC-EVENT-BLOODY-VISION: "Choose the explorer with the lowest Might, if possible": a hero with a
    monster in its room and explorers next door attacks the explorer of lowest Might there (Peter Akimoto,
    Might 3, in the Foyer), not the monster."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("at", "p2", "upper_landing")
    base.set("at", "p3", "foyer")
    base.set("at", "p4", "foyer")
    monster_at(base, "entrance_hall")
    s = game4.state_at("receive_card", {"s": "p1", "c": "bloody_vision"}, base, stop=True, tracing=True)
    play_out(s)
    log = [str(e) for e in s.log()]
    assert any("against Peter Akimoto" in e for e in log), log[-8:]
    assert not any("for monster 1" in e for e in log), log[-8:]


# ---- events passed to the left (BH-OPEN-39) -----------------------------------------------------------


def test_image_in_the_mirror_b_passes_to_the_next_explorer_on_the_left_with_an_item(game4: Game) -> None:
    """BC-EVENT-IMAGE-IN-THE-MIRROR-VERSION-B (event 18) and BH-OPEN-39; the printed card: "If you don't
    have any item cards, this event affects the next explorer to your left with an item card." Jenny (p1)
    and Ox (p2, on her left) have no item; Madame Zostra (p3) holds the Axe and Peter (p4) the Candle:
    Madame Zostra hands the Axe back to the deck and gains 1 Knowledge (nothing happened before)."""
    base = set_up(game4, FOUR)
    holds(base, "p3", "axe")
    holds(base, "p4", "candle")
    k3, k1 = level(game4, base, "p3", "knowledge"), level(game4, base, "p1", "knowledge")
    s = game4.state_at("receive_card", {"s": "p1", "c": "image_in_the_mirror_version_b"}, base, stop=True)
    play_out(s)
    assert s.get("held", "p3", "axe") == 0 and s.get("in_deck", "axe") == 1
    assert s.get("held", "p4", "candle") == 1
    assert level(game4, s, "p3", "knowledge") == k3 + 1
    assert level(game4, s, "p1", "knowledge") == k1
    assert s.get("discarded", "image_in_the_mirror_version_b") == 1


def test_image_in_the_mirror_b_with_no_item_anywhere_is_discarded(game4: Game) -> None:
    """The printed card: "Discard this card if no explorer has an item card": no one gains Knowledge."""
    base = set_up(game4, FOUR)
    before = {p: level(game4, base, p, "knowledge") for p in ("p1", "p2", "p3", "p4")}
    s = game4.state_at("receive_card", {"s": "p1", "c": "image_in_the_mirror_version_b"}, base, stop=True)
    play_out(s)
    assert {p: level(game4, s, p, "knowledge") for p in before} == before
    assert s.get("discarded", "image_in_the_mirror_version_b") == 1


def test_mystic_slide_drawn_in_the_basement_opens_under_the_next_explorer_above(game4: Game) -> None:
    """BC-EVENT-MYSTIC-SLIDE (event 24) and BH-OPEN-39; the printed card: "If you're in the basement, this
    event affects the next explorer to your left not in the basement", and "If it's not your turn, don't
    draw a card for that room". Jenny (p1) and Ox (p2) in the Crypt, Madame Zostra (p3) and Peter (p4) in
    the Entrance Hall: the Slide token goes into the Entrance Hall and Madame Zostra rolls Might (all
    blank), falls into a new basement room and takes 1 die of damage, drawing no card there (it is
    Jenny's turn). Jenny stays in the Crypt (before, nothing happened at all)."""
    base = set_up(game4, FOUR)
    place(base, "crypt", "basement", "x4y3")
    base.set("at", "p1", "crypt")
    base.set("at", "p2", "crypt")
    cards_before = held_cards(game4, base, "p3")
    s = game4.state_at("receive_card", {"s": "p1", "c": "mystic_slide"}, base, stop=True)
    play_out(s)
    assert s.get("token_on", "entrance_hall", "tk_slide") == 1
    where = str(s.get("at", "p3"))
    assert where not in ("entrance_hall", "crypt") and s.get("rfloor", where) == "basement"
    assert held_cards(game4, s, "p3") == cards_before
    assert s.get("at", "p1") == "crypt" and s.get("at", "p4") == "entrance_hall"
    assert s.get("discarded", "mystic_slide") == 1


def test_mystic_slide_with_everyone_in_the_basement_is_discarded(game4: Game) -> None:
    """The printed card: "Discard this card if all of the explorers are in the basement": no token, no
    roll, no new room."""
    base = set_up(game4, FOUR)
    place(base, "crypt", "basement", "x4y3")
    for p in ("p1", "p2", "p3", "p4"):
        base.set("at", p, "crypt")
    s = game4.state_at("receive_card", {"s": "p1", "c": "mystic_slide"}, base, stop=True)
    play_out(s)
    assert s.get("token_box", "tk_slide") == 1
    assert all(s.get("at", p) == "crypt" for p in ("p1", "p2", "p3", "p4"))
    assert s.get("left_for", "basement") == base.get("left_for", "basement")
    assert s.get("discarded", "mystic_slide") == 1


# ---- Smoke and the line of sight (BH-ATTACK-RANGED-1) ---------------------------------------------------


def smoke_in(s: State, room: str) -> None:
    s.set("token_box", "tk_smoke", 0)
    s.set("token_on", room, "tk_smoke", 1)


def test_smoke_blocks_the_line_out_of_and_through_its_room(game4: Game) -> None:
    """BH-ATTACK-RANGED-1, p.8: line of sight is "egy zavartalan, egyenes vonalat lehet rajzolni az
    ajtókon keresztül" *between* the two rooms ("köztetek"), one line for both ends; BC-EVENT-SMOKE (event
    35, printed card: "The Smoke blocks line of sight from adjacent rooms"). The Grand Staircase, the
    Foyer and the Entrance Hall stand in one column, joined by doors. Smoke in the Foyer: the line from the
    Grand Staircase to the Entrance Hall runs through it and is blocked, both ways (it was clear). Smoke in
    the Entrance Hall: the line is blocked both into it and out of it (only into it before)."""
    base = set_up(game4, FOUR)
    assert base.eval("in_sight(grand_staircase, entrance_hall)")
    smoke_in(base, "foyer")
    assert not base.eval("in_sight(grand_staircase, entrance_hall)")
    assert not base.eval("in_sight(entrance_hall, grand_staircase)")
    base = set_up(game4, FOUR)
    smoke_in(base, "entrance_hall")
    assert not base.eval("in_sight(foyer, entrance_hall)")
    assert not base.eval("in_sight(entrance_hall, foyer)")
    assert not base.eval("in_sight(entrance_hall, grand_staircase)")
    assert base.eval("in_sight(grand_staircase, foyer)")


def test_a_revolver_shot_out_of_the_smoke_is_not_offered(game4: Game) -> None:
    """The same in play: Jenny with the Revolver in the smoky Entrance Hall may not shoot the traitor in the
    Foyer (she could)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "revolver")
    base.set("at", "p2", "foyer")
    base.set("at", "p3", "upper_landing")
    base.set("at", "p4", "upper_landing")
    smoke_in(base, "entrance_hall")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert "attack" not in labels(s), labels(s)
