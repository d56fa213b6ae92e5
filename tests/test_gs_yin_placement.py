"""Ghost Stories: the Yin phase (GS-YIN-*), ghost placement (GS-PLACE-*), Buddhas on arrival
(GS-BUDDHA-3..6) and the left-stone / "while in play" ghost abilities (GS-ABIL-*), EL edition.

Layout used (gs_helpers.LAYOUT):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)

In front of yellow_1: sw, ww, nw; yellow_2: ss, cc, nn; yellow_3: se, ee, ne; red_1: sw, ss, se.

``game.state_at`` runs one procedure and then goes on with the turn of ``active``; most tests set
``active`` to a monk with an empty board so that what follows is a plain draw in his Yin phase.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from gs_helpers import COLOURS, until_next_turn, act, give, gs_game, labels, place, roll, set_qi, set_up

MONKS = ["yellow", "red", "green", "blue"]
SLOTS = [f"{m}_{k}" for m in MONKS for k in (1, 2, 3)]


@pytest.fixture(scope="module")
def game():
    return gs_game()


@pytest.fixture
def base(game):
    b = set_up(game)
    b.set("active", "green")
    return b



def draw(state, card):
    """Fix the next draw to a given card symbol (for cards with two copies)."""
    syms = state.game.layout.domains["card"].symbols
    for action, _ in state.chance_outcomes():
        if syms[action.key[0]] == card:
            state.apply_action(action)
            return
    raise AssertionError(f"{card} cannot be drawn here")


def draws(entries):
    return [e.text for e in entries if e.text.startswith("draw:")]


def fill_yellow(b):
    place(b, "c06_zombie", "yellow_1")
    place(b, "c07_zombie", "yellow_2")
    place(b, "c10_yellow_plague", "yellow_3")


# ---------------------------------------------------------------------------------------------
# Yin phase: haunters
# ---------------------------------------------------------------------------------------------

def test_haunter_card_stone_haunt_and_back(game, base):
    """A haunter's figure goes card -> 1st stone (nothing else happens) -> edge: it haunts the 1st
    tile in front and returns to the card; next time round the haunted tile is skipped and the
    next one in the row is flipped (GS-YIN-2, GS-YIN-3, GS-ABIL-HAUNTER, GS-GEO-3)."""
    ghoul = place(base, "Ghoul", "yellow_1")
    assert base.get("figure", ghoul) == "on_card"
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True)
    assert s.get("figure", ghoul) == "stone1" and s.eval("haunted_tiles") == 0
    assert s.prompt() == "draw a card"  # step 3 of the yellow Yin phase
    s = game.state_at("yin_phase", {"m": "yellow"}, s, tracing=True)
    assert s.get("figure", ghoul) == "on_card"
    assert s.get("haunted", "sw") is True and s.eval("haunted_tiles") == 1
    assert any(e.rule == "GS-COMP-3" and "Circle of Prayer is haunted" in e.text for e in s.log())
    s = game.state_at("yin_phase", {"m": "yellow"}, s)
    assert s.get("figure", ghoul) == "stone1" and s.eval("haunted_tiles") == 1
    s = game.state_at("yin_phase", {"m": "yellow"}, s)
    assert s.get("figure", ghoul) == "on_card"
    assert s.get("haunted", "ww") is True and s.get("haunted", "nw") is False
    assert not s.is_terminal()
    assert s.check_invariants() == []


def test_haunter_of_red_slot_1_haunts_along_the_south_row(game, base):
    """red_1's row runs sw, ss, se; with sw haunted the Cemetery is flipped (GS-YIN-3, GS-GEO-3)."""
    base.set("haunted", "sw", True)
    skinner = place(base, "Skinner", "red_1", figure="stone1")
    s = game.state_at("yin_phase", {"m": "red"}, base, tracing=True)
    assert s.get("haunted", "ss") is True and s.get("haunted", "ww") is False
    assert s.get("figure", skinner) == "on_card"
    assert s.check_invariants() == []


def test_haunter_of_another_board_does_not_move(game, base):
    """Middle stones act only in the Yin phase of the board the ghost is on (GS-YIN-1, GS-GHOST-2)."""
    skinner = place(base, "Skinner", "red_1", figure="stone1")
    s = game.state_at("yin_phase", {"m": "yellow"}, base)
    assert s.get("figure", skinner) == "stone1" and s.eval("haunted_tiles") == 0


def test_fast_haunter_starts_on_the_first_stone(game, base):
    """Dark Wraith's figure goes straight onto the 1st stone, so it haunts at its board's next Yin
    phase (GS-ABIL-FASTHAUNTER, GS-PLACE-2)."""
    s = game.state_at("place_ghost", {"g": "c52_dark_wraith", "by": "yellow"}, base, tracing=True)
    assert labels(s) == ["Dark Wraith to yellow board slot 1", "Dark Wraith to yellow board slot 2",
                         "Dark Wraith to yellow board slot 3"]
    act(s, "Dark Wraith to yellow board slot 1")
    assert s.get("at", "c52_dark_wraith") == "yellow_1"
    assert s.get("figure", "c52_dark_wraith") == "stone1"
    s = game.state_at("yin_phase", {"m": "yellow"}, s, tracing=True)
    assert s.get("haunted", "sw") is True
    assert s.get("figure", "c52_dark_wraith") == "on_card"
    assert s.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Yin phase: tormentors
# ---------------------------------------------------------------------------------------------

def test_curse_die_has_two_blank_faces(game, base):
    """The curse die: 2 blank faces, then one face each for (b)-(e) (GS-COMP-6, OQ-2 default)."""
    place(base, "Lich", "yellow_2")
    s = game.state_at("yin_phase", {"m": "yellow"}, base)
    assert s.prompt() == "roll the curse_die"
    probs = {a.label: p for a, p in s.chance_outcomes()}
    assert probs == {"curse_die: no effect": Fraction(1, 3), "curse_die: bring a ghost": Fraction(1, 6),
                     "curse_die: haunt a tile": Fraction(1, 6), "curse_die: lose all Tao tokens": Fraction(1, 6),
                     "curse_die: lose 1 Qi": Fraction(1, 6)}


def tormented(game, base, face):
    base.set("active", "yellow")  # the tormentor acts in the yellow monk's own turn
    place(base, "Lich", "yellow_2")
    give(base, "yellow", "red")
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True)
    assert s.prompt() == "roll the curse_die"
    roll(s, face)
    return s


def test_tormentor_no_effect(game, base):
    """(a) no effect; then step 3 brings the yellow monk's new ghost (GS-YIN-5, GS-CURSEDIE-A)."""
    s = tormented(game, base, "no effect")
    assert s.get("qi", "yellow") == 4 and s.eval("haunted_tiles") == 0
    assert [s.get("tao", "yellow", c) for c in COLOURS] == [1, 1, 0, 0, 1]
    assert s.prompt() == "draw a card" and s.eval("deck_size") == 56
    assert s.check_invariants() == []


def test_tormentor_haunts_the_tile_in_front_of_it(game, base):
    """(b) the 1st active tile in front of the tormentor is haunted (GS-CURSEDIE-B)."""
    base.set("haunted", "ss", True)
    s = tormented(game, base, "haunt a tile")
    assert s.get("haunted", "cc") is True and s.eval("haunted_tiles") == 2
    assert not s.is_terminal()
    assert s.check_invariants() == []


def test_tormentor_brings_a_ghost_for_the_active_player(game, base):
    """(c) the active player brings a ghost by the placement rules; step 3 then brings another
    (GS-CURSEDIE-C, GS-PLACE-5, GS-YIN-7)."""
    s = tormented(game, base, "bring a ghost")
    assert s.prompt() == "draw a card"
    roll(s, "Gravewalker")  # black: the active player's board
    assert labels(s) == ["Gravewalker to yellow board slot 1", "Gravewalker to yellow board slot 3"]
    assert s.current_player_name() == "yellow"
    act(s, "Gravewalker to yellow board slot 3")
    assert s.get("at", "c49_gravewalker") == "yellow_3" and s.get("qi", "yellow") == 3
    assert s.prompt() == "draw a card"  # step 3
    assert s.eval("deck_size") == 55
    assert s.check_invariants() == []


def test_tormentor_takes_all_tao_tokens(game, base):
    """(d) the player discards all his Tao tokens to the supply (GS-CURSEDIE-D)."""
    s = tormented(game, base, "lose all Tao tokens")
    assert all(s.get("tao", "yellow", c) == 0 for c in COLOURS)
    assert [s.get("tao_supply", c) for c in COLOURS] == [4, 3, 3, 3, 1]
    assert s.get("tao", "red", "red") == 1  # only the active player
    assert s.check_invariants() == []


def test_tormentor_costs_a_qi(game, base):
    """(e) the active monk loses 1 Qi (GS-CURSEDIE-E, GS-QI-1)."""
    s = tormented(game, base, "lose 1 Qi")
    assert s.get("qi", "yellow") == 3 and s.get("qi_supply") == 5
    assert all(s.get("qi", m) == 4 for m in ("red", "green", "blue"))
    assert s.check_invariants() == []


def test_haunters_move_before_tormentors_roll(game, base):
    """Step 1: (A) haunters, then (B) tormentors (GS-YIN-1, OQ-5)."""
    ghoul = place(base, "Ghoul", "yellow_1", figure="stone1")
    place(base, "Lich", "yellow_2")
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True)
    assert s.prompt() == "roll the curse_die"
    assert s.get("haunted", "sw") is True and s.get("figure", ghoul) == "on_card"


# ---------------------------------------------------------------------------------------------
# Yin phase: full board and arrival
# ---------------------------------------------------------------------------------------------

def test_full_board_costs_one_qi_and_no_new_ghost(game, base):
    """A board full at the start of the turn: 1 Qi lost, step 3 skipped (GS-YIN-6)."""
    fill_yellow(base)
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True)
    step = until_next_turn(s)
    assert s.get("qi", "yellow") == 3 and s.get("qi_supply") == 5
    assert draws(step) == [] and any(e.rule == "GS-YIN-6" for e in step)
    assert s.get("seg_ghosts", "seg1") == 45
    # what follows is the green monk's turn and its own draw
    assert s.prompt() == "draw a card"
    assert s.check_invariants() == []


def test_board_filled_during_step_1_costs_no_qi(game, base):
    """EL: the board is checked at the start of the turn; a ghost added in step 1 costs no Qi and
    step 3 still brings a ghost, which goes elsewhere when its board is full (GS-YIN-6, ED-5, OQ-6,
    GS-PLACE-1)."""
    place(base, "Lich", "yellow_1")
    place(base, "c06_zombie", "yellow_2")
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True)
    roll(s, "bring a ghost")
    roll(s, "Yellow Plague")
    assert labels(s) == ["Yellow Plague to yellow board slot 3"]
    act(s, "Yellow Plague to yellow board slot 3")
    assert s.eval("board_full(yellow)")
    assert s.prompt() == "draw a card"  # step 3 still happens
    roll(s, "Hopping Vampire")
    assert s.current_player_name() == "yellow"
    assert sorted(labels(s)) == sorted(f"Hopping Vampire to {m} board slot {k}"
                                       for m in ("red", "green", "blue") for k in (1, 2, 3))
    act(s, "Hopping Vampire to blue board slot 2")
    assert s.get("at", "c08_hopping_vampire") == "blue_2"
    assert s.get("qi", "yellow") == 4
    assert s.check_invariants() == []


def test_ghost_arrives_in_a_players_turn(game, base):
    """Step 3: the green monk draws the top card; a yellow ghost goes to the yellow board, on a slot
    the active player picks (GS-YIN-7, GS-PLACE-1, GS-PLACE-6)."""
    s = game.state_at("yin_phase", {"m": "green"}, base, tracing=True)
    assert s.prompt() == "draw a card"
    roll(s, "Zombie")
    assert s.current_player_name() == "green"
    assert labels(s) == ["Zombie to yellow board slot 1", "Zombie to yellow board slot 2",
                         "Zombie to yellow board slot 3"]
    act(s, "Zombie to yellow board slot 2")
    assert s.get("at", "c06_zombie") == "yellow_2"
    assert s.get("seg_ghosts", "seg1") == 44
    assert s.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Placement
# ---------------------------------------------------------------------------------------------

def test_coloured_ghost_with_its_board_full_goes_to_any_empty_slot(game, base):
    """Yellow board full: the active (green) monk picks any empty slot of any board (GS-PLACE-1)."""
    fill_yellow(base)
    place(base, "Drowned Maiden", "blue_1")
    s = game.state_at("yin_phase", {"m": "green"}, base)
    roll(s, "Hopping Vampire")
    assert s.current_player_name() == "green"
    expected = [x for x in SLOTS if not x.startswith("yellow") and x != "blue_1"]
    assert labels(s) == [f"Hopping Vampire to {x.split('_')[0]} board slot {x[-1]}" for x in expected]
    act(s, "Hopping Vampire to red board slot 3")
    assert s.get("at", "c08_hopping_vampire") == "red_3"
    assert s.check_invariants() == []


def test_black_ghost_goes_to_the_active_players_board(game, base):
    """A black ghost goes to the active player's board (GS-PLACE-2, GS-PLACE-1 placement colour)."""
    s = game.state_at("yin_phase", {"m": "green"}, base)
    roll(s, "Black Widow")
    assert labels(s) == ["Black Widow to green board slot 1", "Black Widow to green board slot 2",
                         "Black Widow to green board slot 3"]
    act(s, "Black Widow to green board slot 3")
    assert s.get("at", "c50_black_widow") == "green_3"


def test_black_ghost_with_the_active_board_full_goes_to_any_empty_slot(game, base):
    """GS-PLACE-2: the active board is full, so the active player picks any other empty slot."""
    place(base, "Creeping One", "green_1")
    place(base, "Fungus Thing", "green_2")
    s = game.state_at("place_ghost", {"g": "c50_black_widow", "by": "green"}, base)
    act(s, "Black Widow to green board slot 3")
    s = game.state_at("place_ghost", {"g": "c51_black_widow", "by": "green"}, s)
    assert s.current_player_name() == "green"
    assert len(labels(s)) == 9 and not any("green board" in x for x in labels(s))
    act(s, "Black Widow to yellow board slot 1")
    assert s.get("at", "c51_black_widow") == "yellow_1"
    assert s.check_invariants() == []


def test_all_twelve_slots_full_costs_qi_and_draws_nothing(game, base):
    """12 slots taken: the active player loses 1 Qi instead; no card is drawn, the deck is
    unchanged (GS-PLACE-4, OQ-7)."""
    quiet = ["c06_zombie", "c07_zombie", "c10_yellow_plague", "c39_blood_drinker", "c40_blood_drinker",
             "c43_flesh_devourer", "c28_rotten_soul", "c29_rotten_soul", "c32_green_abomination",
             "c17_abysmal", "c18_abysmal", "c21_liquid_horror"]
    for card, x in zip(quiet, SLOTS):
        place(base, card, x)
    base.set("active", "yellow")
    in_deck = [c for c in base.game.layout.domains["card"].symbols if base.get("at", c) == "deck"]
    s = game.state_at("bring_ghost", {"by": "green"}, base, tracing=True)
    step = until_next_turn(s)
    assert draws(step) == []
    assert s.get("qi", "green") == 3
    assert s.eval("deck_size") == 56 and s.get("seg_ghosts", "seg1") == 45
    assert all(s.get("at", c) == "deck" for c in in_deck)
    assert any(e.rule == "GS-PLACE-4" for e in s.log())
    assert s.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Buddhas on arrival
# ---------------------------------------------------------------------------------------------

def with_buddha(b, slot):
    b.set("buddha_temple", b.get("buddha_temple") - 1)
    b.set("buddha_on", slot, 1)


def test_buddha_destroys_an_arriving_ghost_before_its_left_stone(game, base):
    """Coffin Breaker (new ghost + power off) lands on a Buddha: destroyed at once, the Buddha goes
    back to the Temple, no new ghost, no power lost (GS-BUDDHA-3, GS-BUDDHA-4, GS-BUDDHA-5 EL,
    GS-PLACE-3, GS-PLACE-6)."""
    with_buddha(base, "yellow_1")
    s = game.state_at("place_ghost", {"g": "c03_coffin_breaker", "by": "yellow"}, base, tracing=True)
    assert "Coffin Breaker to yellow board slot 1" in labels(s)  # a Buddha slot counts as empty
    act(s, "Coffin Breaker to yellow board slot 1")
    step = until_next_turn(s)
    assert s.get("at", "c03_coffin_breaker") == "discard"
    assert s.get("buddha_on", "yellow_1") == 0 and s.get("buddha_temple") == 2
    assert draws(step) == []
    assert not s.eval("power_disabled(yellow)")
    assert any(e.rule == "GS-BUDDHA-3" for e in step)
    assert s.check_invariants() == []


def test_buddha_destroys_gravewalker_without_qi_loss(game, base):
    """EL: a ghost destroyed by a Buddha applies none of its abilities: no Qi lost, no haunter
    figure (GS-BUDDHA-5, ED-10)."""
    with_buddha(base, "yellow_2")
    s = game.state_at("place_ghost", {"g": "c49_gravewalker", "by": "yellow"}, base)
    act(s, "Gravewalker to yellow board slot 2")
    assert s.get("qi", "yellow") == 4
    assert s.get("at", "c49_gravewalker") == "discard" and s.get("figure", "c49_gravewalker") == "none"
    assert s.get("buddha_temple") == 2
    assert s.check_invariants() == []


def test_incarnation_on_a_buddha_survives_and_the_buddha_returns(game, base):
    """An incarnation placed on a Buddha slot is not destroyed; the Buddha goes back to the Temple
    (GS-BUDDHA-6, GS-INC-GEN-3)."""
    with_buddha(base, "yellow_1")
    s = game.state_at("place_ghost", {"g": "c64_vampire_lord", "by": "yellow"}, base, tracing=True)
    act(s, "Vampire Lord to yellow board slot 1")
    assert s.get("at", "c64_vampire_lord") == "yellow_1"
    assert s.get("figure", "c64_vampire_lord") == "on_card"
    assert s.get("buddha_on", "yellow_1") == 0 and s.get("buddha_temple") == 2
    assert s.get("incarnations_left") == 1
    assert s.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Left-stone abilities
# ---------------------------------------------------------------------------------------------

def test_new_ghost_ability_brings_another_ghost(game, base):
    """Coffin Breaker (copy B) brings one more ghost, by the placement rules (GS-ABIL-NEWGHOST,
    GS-PLACE-5)."""
    base.set("active", "yellow")
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True)
    draw(s, "c04_coffin_breaker")
    act(s, "Coffin Breaker to yellow board slot 1")
    assert s.prompt() == "draw a card"
    roll(s, "Dark Wraith")
    assert labels(s) == ["Dark Wraith to yellow board slot 2", "Dark Wraith to yellow board slot 3"]
    act(s, "Dark Wraith to yellow board slot 2")
    assert s.get("at", "c52_dark_wraith") == "yellow_2"
    assert s.get("seg_ghosts", "seg1") == 43
    assert s.check_invariants() == []


def test_black_ghost_brought_by_a_ghost_on_another_board_goes_to_the_active_board(game, base):
    """Red monk's turn: Perfidious Nymph (blue, new ghost) goes to the blue board; the ghost it brings,
    Dark Wraith (black), goes on the active (red) player's board (GS-PLACE-2, GS-ABIL-NEWGHOST,
    GS-PLACE-5)."""
    base.set("active", "red")
    s = game.state_at("yin_phase", {"m": "red"}, base, tracing=True)
    draw(s, "c15_perfidious_nymph")
    act(s, "Perfidious Nymph to blue board slot 1")
    roll(s, "Dark Wraith")
    assert s.current_player_name() == "red"
    assert labels(s) == ["Dark Wraith to red board slot 1", "Dark Wraith to red board slot 2",
                         "Dark Wraith to red board slot 3"]


def test_twelve_full_after_a_new_ghost_costs_the_active_player(game, base):
    """Red monk's turn: the drawn Perfidious Nymph takes the last empty slot (blue_3) and must bring a
    ghost; all 12 slots are full, so the active (red) player loses 1 Qi (GS-PLACE-4)."""
    quiet = ["c06_zombie", "c07_zombie", "c10_yellow_plague", "c39_blood_drinker", "c40_blood_drinker",
             "c43_flesh_devourer", "c28_rotten_soul", "c29_rotten_soul", "c32_green_abomination",
             "c17_abysmal", "c18_abysmal"]
    for card, x in zip(quiet, SLOTS):
        place(base, card, x)
    base.set("active", "red")
    s = game.state_at("place_ghost", {"g": "c15_perfidious_nymph", "by": "red"}, base, tracing=True)
    act(s, "Perfidious Nymph to blue board slot 3")
    losses = [e.text for e in until_next_turn(s) if " loses 1 Qi (" in e.text]
    assert losses == ["red monk loses 1 Qi (3 left)"]
    assert s.get("qi", "blue") == 4


def test_haunt_ability_flips_the_first_active_tile_in_front(game, base):
    """Shapeless Evil haunts the 1st active tile in front of it on arrival: se is haunted already,
    so ee (GS-ABIL-HAUNT)."""
    base.set("haunted", "se", True)
    s = game.state_at("place_ghost", {"g": "c54_shapeless_evil", "by": "yellow"}, base, tracing=True)
    act(s, "Shapeless Evil to yellow board slot 3")
    assert s.get("haunted", "ee") is True and s.get("haunted", "ne") is False
    assert s.eval("haunted_tiles") == 2 and not s.is_terminal()
    assert s.check_invariants() == []


def test_lose_qi_ability_hits_the_holder_of_the_board(game, base):
    """Gravewalker placed on the red board (the yellow board being full): the red monk loses 1 Qi
    (GS-ABIL-LOSEQI, OQ-29); it is a haunter too (GS-ABIL-HAUNTER)."""
    fill_yellow(base)
    s = game.state_at("place_ghost", {"g": "c49_gravewalker", "by": "yellow"}, base)
    assert len(labels(s)) == 9
    act(s, "Gravewalker to red board slot 2")
    assert s.get("qi", "red") == 3 and s.get("qi", "yellow") == 4
    assert s.get("figure", "c49_gravewalker") == "on_card"
    assert s.check_invariants() == []


def test_curse_die_ability_on_arrival(game, base):
    """Uncatchable's left stone: the holder rolls the curse die on arrival (GS-ABIL-CURSEDIE)."""
    s = game.state_at("place_ghost", {"g": "c57_uncatchable", "by": "yellow"}, base, tracing=True)
    act(s, "Uncatchable to yellow board slot 2")
    assert s.prompt() == "roll the curse_die"
    roll(s, "haunt a tile")
    assert s.get("haunted", "ss") is True
    assert s.check_invariants() == []


def test_team_loses_a_tao_token(game, base):
    """Soul Eater: every living monk with a Tao token discards one of his choice; a monk without
    tokens, or a dead monk, is not asked (GS-ABIL-TEAM, GS-ABIL-LOSETAO, OQ-31)."""
    give(base, "blue", "blue", -1)
    give(base, "blue", "black", -1)
    set_qi(base, "red", 0)
    base.set("alive", "red", False)
    s = game.state_at("place_ghost", {"g": "c55_soul_eater", "by": "yellow"}, base, tracing=True)
    act(s, "Soul Eater to yellow board slot 2")
    assert s.current_player_name() == "yellow"
    assert labels(s) == ["yellow monk discards a yellow Tao token", "yellow monk discards a black Tao token"]
    act(s, "yellow monk discards a black Tao token")
    assert s.current_player_name() == "green"
    act(s, "green monk discards a green Tao token")
    assert s.prompt() == "draw a card"  # nobody else is asked
    assert [s.get("tao", "yellow", c) for c in COLOURS] == [1, 0, 0, 0, 0]
    assert [s.get("tao", "green", c) for c in COLOURS] == [0, 0, 0, 0, 1]
    assert [s.get("tao", "red", c) for c in COLOURS] == [0, 1, 0, 0, 1]
    assert s.check_invariants() == []


def test_captured_die_means_one_die_fewer(game, base):
    """Repellent Beauty captures a Tao die on arrival: exorcisms roll 2 dice; with Creeping Horror
    too, 1 die; the die comes back when its ghost leaves play (GS-ABIL-CAPTUREDIE, GS-EXO-2,
    GS-GHOST-4)."""
    s = game.state_at("place_ghost", {"g": "c46_repellent_beauty", "by": "yellow"}, base)
    act(s, "Repellent Beauty to yellow board slot 1")
    assert s.eval("captured_dice") == 1 and s.eval("exorcism_dice(yellow)") == 2
    s.set("monk_at", "yellow", "ww")
    place(s, "Bleeding Eyes", "red_2")
    x = game.state_at("exorcise", {"m": "yellow"}, s, tracing=True)
    roll(x, "red", "red")
    assert not x.is_chance_node()  # two dice only
    assert labels(x) == ["Bleeding Eyes is exorcised (red board slot 2)"]
    act(x, "Bleeding Eyes is exorcised")
    assert x.get("at", "c38_bleeding_eyes") == "discard"
    assert sum(1 for e in x.log() if e.text.startswith("tao_die:")) == 2
    place(s, "Creeping Horror", "green_1")
    assert s.eval("exorcism_dice(yellow)") == 1
    s.set("at", "c46_repellent_beauty", "discard")
    assert s.eval("captured_dice") == 1 and s.eval("exorcism_dice(yellow)") == 2


def test_blocked_tao_tokens_but_the_circle_still_works(game, base):
    """Black Widow in play: Tao tokens cannot be used; the Circle of Prayer's token still lowers the
    resistance (GS-ABIL-NOTAO, GS-VILLAGE-CIRCLE, GS-EXO-10)."""
    s = game.state_at("place_ghost", {"g": "c50_black_widow", "by": "green"}, base)
    act(s, "Black Widow to green board slot 1")
    assert s.eval("tao_tokens_blocked")
    s.set("monk_at", "yellow", "ww")
    place(s, "Bleeding Eyes", "red_2")
    give(s, "yellow", "red", 2)
    x = game.state_at("exorcise", {"m": "yellow"}, s)
    roll(x, "red", "green", "blue")
    assert labels(x) == ["the exorcism fails"]
    s.set("circle_tao", "red", 1)
    s.set("tao_supply", "red", s.get("tao_supply", "red") - 1)
    x = game.state_at("exorcise", {"m": "yellow"}, s)
    roll(x, "red", "green", "blue")
    assert labels(x) == ["Bleeding Eyes is exorcised (red board slot 2)"]
    act(x, "Bleeding Eyes is exorcised")
    assert x.get("at", "c38_bleeding_eyes") == "discard"
    assert x.get("tao", "yellow", "red") == 2 and x.get("circle_tao", "red") == 1
    assert x.check_invariants() == []


def test_dice_immune_ghost_needs_tokens(game, base):
    """Walking Corpse is immune to Tao dice: 2 yellow and a white do nothing; a yellow Tao token
    exorcises it whatever the dice (GS-ABIL-DICEIMMUNE)."""
    corpse = place(base, "Walking Corpse", "yellow_2")
    base.set("monk_at", "yellow", "ss")
    no_token = base.clone()
    give(no_token, "yellow", "yellow", -1)
    x = game.state_at("exorcise", {"m": "yellow"}, no_token)
    roll(x, "yellow", "yellow", "white")
    assert labels(x) == ["the exorcism fails"]
    x = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(x, "red", "green", "blue")
    assert labels(x) == ["Walking Corpse is exorcised (yellow board slot 2)", "the exorcism fails"]
    act(x, "Walking Corpse is exorcised")
    assert x.get("at", corpse) == "discard"
    assert x.get("tao", "yellow", "yellow") == 0 and x.get("tao_supply", "yellow") == 4
    assert x.check_invariants() == []
