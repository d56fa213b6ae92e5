"""Betrayal: a second audit of the item and omen cards, in exact positions.

The card facts are the paraphrases of ../shared/data/betrayal_cards.md (specs/betrayal/cards.csv, column
``effect``); the rules are BC-ITEM-* and BC-OMEN-* in specs/betrayal/rules/{item,omen}_cards.yaml and the
Hungarian rulebook (shared/seeds/004_d45700e3d66fa338.txt). Earlier audits (test_bh_audit_cards.py,
test_bh_leftovers.py) settled which cards can be traded, dropped and stolen and the Grave Dirt; this file
covers what they left: the Spirit Board's timing, the Dog's fetch, the weapons, and the trait gains and
losses of cards that change hands.
"""

from __future__ import annotations

import pytest
from bh_helpers import FOUR, act, holds, labels, lies_here, monster_at, roll, set_up, start_haunt, trait_levels

import ghostrules
from ghostrules.engine import Game


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


# ---- the Spirit Board (omen 13) ------------------------------------------------------------------------


def test_the_spirit_board_is_used_before_moving(game4: Game) -> None:
    """BC-OMEN-SPIRIT-BOARD (omen 13): "Before moving on your turn, you may look at the top room tile. If you
    use it after the haunt, the traitor may move any monsters 1 space toward you." After the haunt the board
    is offered at the start of the turn, and no longer once the explorer has moved."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "spirit_board")
    for seat in ("p2", "p3", "p4"):
        base.set("at", seat, "upper_landing")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert "use the Spirit Board" in labels(s)
    act(s, "move north to Foyer")
    assert s.get("at", "p1") == "foyer"
    assert "use the Spirit Board" not in labels(s), labels(s)


def test_the_spirit_board_pulls_the_monsters_toward_its_user(game4: Game) -> None:
    """BC-OMEN-SPIRIT-BOARD, BX-REACH-3: used before moving, the traitor's player may move a monster 1 space
    closer (the Foyer is next to the Entrance Hall)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "spirit_board")
    for seat in ("p2", "p3", "p4"):
        base.set("at", seat, "upper_landing")
    monster_at(base, "foyer")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "use the Spirit Board")
    assert s.current_player_name() == "p2", s.current_player_name()
    act(s, "monster 1 moves to the Entrance Hall")
    assert s.get("mon_at", "m1") == "entrance_hall"


# ---- the Dog (omen 4) ----------------------------------------------------------------------------------


def test_the_dog_takes_the_fetched_item_out_of_its_pile(game4: Game) -> None:
    """BC-OMEN-DOG (omen 4): the Dog goes to an explored room, picks up 1 item and comes back with it. The
    fetched Amulet of the Ages is held and lies in no pile any more (BH-ITEM-3: the pick-up clears the
    pile's room; the position's card list showed it still lying in the Foyer), and it gives its +1 in every
    trait (item 2)."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "dog")
    lies_here(base, "foyer", "amulet_of_the_ages")
    before = trait_levels(game4, base, "p1")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "use the Dog")
    act(s, "the Dog fetches the Amulet of the Ages")
    assert s.get("held", "p1", "amulet_of_the_ages") == 1
    assert s.get("in_pile", "amulet_of_the_ages") == 0
    assert str(s.get("pile_room", "amulet_of_the_ages")) == "none"
    after = trait_levels(game4, s, "p1")
    assert all(after[t] == min(before[t] + 1, 8) for t in before), (before, after)
    assert "use the Dog" not in labels(s)  # once per turn


def test_the_dog_is_a_companion_it_cannot_give_away(game4: Game) -> None:
    """BH-CARD-OMEN-5, p.7: "Néhány ómen, mint pl. a kutya, nem minősül tárgynak, így nem lehet eldobni vagy
    elcserélni sem": the Dog may carry the owner's Book away, never itself."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "dog", "book")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "use the Dog")
    options = labels(s)
    assert "the Dog carries the Book away" in options
    assert not any("carries the Dog" in o for o in options), options


# ---- weapons (BX-ATTACK-3) ------------------------------------------------------------------------------


def test_one_weapon_per_attack_and_the_revolver_only_for_speed(game4: Game) -> None:
    """BC-OMEN-SPEAR, BC-ITEM-AXE ("One weapon at a time"), BC-ITEM-REVOLVER ("Attack with Speed instead of
    Might ... with +1 die"): a Might attack offers one of the Might weapons or none, never the Revolver; the
    Speed attack is the Revolver's and adds its die."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "spear", "axe", "revolver")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "attack")
    act(s, "attack Ox")
    assert sorted(labels(s)) == ["a might attack", "a speed attack"]
    act(s, "a might attack")
    assert sorted(labels(s)) == ["attack with the Axe (+1 dice)", "attack with the Spear (+2 dice)",
                                 "attack without a weapon"]
    act(s, "attack with the Spear")
    assert s.get("weapon_bonus") == 2


def test_the_blood_dagger_costs_a_speed_per_attack(game4: Game) -> None:
    """BC-ITEM-BLOOD-DAGGER (item 7): "+3 dice ... on Might attacks with it, but you lose 1 Speed each time
    you do"."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "blood_dagger")
    speed = trait_levels(game4, base, "p1")["speed"]
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "attack")
    act(s, "attack Ox")
    act(s, "attack with the Blood Dagger")  # a Might attack, the only trait offered
    assert s.get("weapon_bonus") == 3
    assert trait_levels(game4, s, "p1")["speed"] == speed - 1


def test_the_defender_adds_no_weapon(game4: Game) -> None:
    """Weapons work only when attacking (betrayal_cards.md, the weapons note): Ox, attacked while holding the
    Spear, rolls only his Might (5 dice)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p2", "spear")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base, tracing=True)
    act(s, "attack")
    act(s, "attack Ox")
    roll(s, 0, 0, 0, 0)          # Jenny: Might 4, no weapon asked of her
    roll(s, 0, 0, 0, 0, 0)       # Ox Bellows: Might 5, no Spear die
    assert not s.is_chance_node() or s.prompt() != "roll the die"
    assert any("rolls 0 against Ox Bellows's 0" in str(e) for e in s.log()), [str(e) for e in s.log()][-5:]


# ---- trait gains and losses when cards change hands (BX-CARD-1/2) -------------------------------------


def test_a_stolen_amulet_moves_its_traits_with_it(game4: Game) -> None:
    """BC-ITEM-AMULET-OF-THE-AGES (item 2): "+1 to each ... now. -3 to each if you lose it"; BH-ATTACK-STEAL-1,
    p.9: "ellophatsz tőle egy elcserélhető tárgyat". The thief gains 1 in every trait, the victim loses 3."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p2", "amulet_of_the_ages")
    for t in ("speed", "might", "sanity", "knowledge"):  # the loss of 3 leaves Ox alive (the game goes on)
        base.set("tpos", "p2", t, "l5")
    thief, victim = trait_levels(game4, base, "p1"), trait_levels(game4, base, "p2")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "attack")
    act(s, "attack Ox")
    roll(s, 2, 2, 0, 0)              # Jenny: Might 4, total 4
    roll(s, 1, 1, 0, 0, 0, 0)        # Ox Bellows: Might 6 (position 5), total 2
    act(s, "steal the Amulet of the Ages")
    assert s.get("held", "p1", "amulet_of_the_ages") == 1
    assert trait_levels(game4, s, "p1") == {t: min(v + 1, 8) for t, v in thief.items()}
    assert trait_levels(game4, s, "p2") == {t: v - 3 for t, v in victim.items()}


def test_a_worn_mask_comes_off_when_it_is_given_away(game4: Game) -> None:
    """BC-OMEN-MASK (omen 8): putting it on is +2 Knowledge, -2 Sanity; taking it off the reverse. Given
    away while worn (BH-ITEM-2: "Egy tárgy átadása egy másik felfedezőnek"), it comes off its giver, and the
    taker does not wear it."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "mask")
    base.set("mask_on", "p1", True)
    before = trait_levels(game4, base, "p1")
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "give an item")
    act(s, "the Mask")
    act(s, "Ox")
    act(s, "Ox Bellows takes the Mask")
    after = trait_levels(game4, s, "p1")
    assert (after["sanity"], after["knowledge"]) == (before["sanity"] + 2, before["knowledge"] - 2)
    assert s.get("mask_on", "p1") is False and s.get("mask_on", "p2") is False


def test_dropping_one_of_the_bell_book_and_candle_breaks_the_set(game4: Game) -> None:
    """BC-ITEM-CANDLE (item 9): "Holding the Bell, Book and Candle together gives +2 in every trait. The first
    time you later lose one of the three, lose 2 in every trait." Dropping the Bell costs its own 1 Sanity
    (item 6) and 2 in every trait; picking it up again gives back only the Bell's 1 Sanity."""
    base = set_up(game4, FOUR)
    for t in ("speed", "might", "sanity", "knowledge"):
        base.set("tpos", "p1", t, "l5")
    lies_here(base, "entrance_hall", "bell", "book", "candle")
    s = game4.state_at("pick_up_items", {"s": "p1"}, base, stop=True)
    for card in ("Bell", "Book", "Candle"):
        act(s, f"take the {card}")
    assert s.get("set_bonus", "p1") is True
    assert trait_levels(game4, s, "p1") == {"speed": 7, "might": 7, "sanity": 8, "knowledge": 8}
    t = game4.state_at("to_pile", {"s": "p1", "c": "bell"}, s)
    assert trait_levels(game4, t, "p1") == {"speed": 5, "might": 5, "sanity": 5, "knowledge": 6}
    assert t.get("set_broken", "p1") is True
    u = game4.state_at("pick_up_items", {"s": "p1"}, t, stop=True)
    act(u, "take the Bell")
    assert trait_levels(game4, u, "p1") == {"speed": 5, "might": 5, "sanity": 6, "knowledge": 6}
