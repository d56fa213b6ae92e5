"""Ghost Stories: Wu-Feng's 10 incarnations (GS-INC-*), their placement, conditions, abilities and
the incarnation reward (GS-ABIL-INCREWARD), EL edition, 4 players, Initiation.

Layout used (gs_helpers.LAYOUT):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)

The yellow monk on the Cemetery (ss) faces yellow_2; on the Temple (ee) he faces blue_2.
"""

from __future__ import annotations

import pytest

from gs_helpers import COLOURS, act, give, gs_game, labels, place, roll, set_qi, set_up, spend_all

MONKS = ["yellow", "red", "green", "blue"]


@pytest.fixture(scope="module")
def game():
    return gs_game()


@pytest.fixture
def base(game):
    b = set_up(game)
    b.set("active", "green")
    b.set("seg_incarnation", "seg1", False)  # the incarnation has left the deck
    return b


def tokens(state, monk):
    return [state.get("tao", monk, c) for c in COLOURS]


# ---------------------------------------------------------------------------------------------
# Placement
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("card, by, board", [
    ("c56_howling_nightmare", "red", "red"),
    ("c57_uncatchable", "red", "red"),
    ("c58_hope_killer", "red", "red"),      # EL: counts as black
    ("c59_death_army", "red", "red"),
    ("c60_forgotten_ones", "red", "red"),
    ("c61_bonecracker", "yellow", "red"),
    ("c62_dark_mistress", "red", "blue"),
    ("c63_creeping_horror", "red", "green"),
    ("c64_vampire_lord", "red", "yellow"),
    ("c65_nameless", "yellow", "yellow"),   # EL: counts as black
])
def test_incarnation_is_placed_by_its_colour(game, base, card, by, board):
    """An incarnation enters play like a ghost of its colour; black ones and (EL) Nameless and Hope
    Killer go to the active player's board (GS-INC-GEN-1, ED-12, GS-PLACE-1, GS-PLACE-2)."""
    s = game.state_at("place_ghost", {"g": card, "by": by}, base)
    assert s.current_player_name() == by
    assert [x.rsplit(" to ", 1)[1] for x in labels(s)] == [f"{board} board slot {k}" for k in (1, 2, 3)]


# ---------------------------------------------------------------------------------------------
# Conditions
# ---------------------------------------------------------------------------------------------

def test_howling_nightmare_needs_the_opposite_slot_empty(game, base):
    """Howling Nightmare on yellow_2 can be exorcised only while green_2, the slot exactly opposite,
    is empty; other green slots do not matter (GS-INC-HOWLING, GS-GEO-4, OQ-10)."""
    assert base.eval("opposite(yellow_2)") == "green_2" and base.eval("opposite(yellow_1)") == "green_3"
    hn = place(base, "Howling Nightmare", "yellow_2")
    place(base, "Creeping One", "green_2")
    base.set("monk_at", "yellow", "ss")
    s = game.state_at("take_actions", {"m": "yellow"}, base)
    assert labels(s) == ["yellow monk takes no (further) action"]
    base.set("at", "c23_creeping_one", "discard")
    base.set("figure", "c23_creeping_one", "none")
    place(base, "Fungus Thing", "green_1")
    place(base, "Wicked One", "green_3")
    s = game.state_at("take_actions", {"m": "yellow"}, base, tracing=True)
    act(s, "yellow monk tries to exorcise")
    roll(s, "black", "black", "black")
    act(s, "Howling Nightmare is exorcised")
    act(s, "yellow monk receives 1 Qi")
    assert s.get("at", hn) == "discard"
    assert s.is_terminal() and s.outcome().result == "win"
    assert s.check_invariants() == []


def test_howling_nightmare_brings_a_ghost_on_arrival(game, base):
    """Howling Nightmare's left stone: one more ghost (GS-ABIL-NEWGHOST)."""
    s = game.state_at("place_ghost", {"g": "c56_howling_nightmare", "by": "yellow"}, base)
    act(s, "Howling Nightmare to yellow board slot 2")
    assert s.prompt() == "draw a card"
    roll(s, "Ghoul")
    assert labels(s) == ["Ghoul to yellow board slot 1", "Ghoul to yellow board slot 3"]


def test_uncatchable_can_be_exorcised_only_on_a_buddha(game, base):
    """Without a Buddha, Uncatchable cannot be attacked; arriving on a Buddha it is not destroyed and
    the Buddha stays with it; it is then exorcised normally and the Buddha goes back to the Temple
    (GS-INC-UNCATCHABLE, GS-BUDDHA-6, OQ-32)."""
    base.set("monk_at", "yellow", "ss")
    plain = base.clone()
    place(plain, "Uncatchable", "yellow_2")
    assert not plain.eval("attackable(c57_uncatchable)")
    s = game.state_at("take_actions", {"m": "yellow"}, plain)
    assert labels(s) == ["yellow monk takes no (further) action"]

    base.set("buddha_temple", 1)
    base.set("buddha_on", "yellow_2", 1)
    s = game.state_at("place_ghost", {"g": "c57_uncatchable", "by": "yellow"}, base, tracing=True)
    act(s, "Uncatchable to yellow board slot 2")
    roll(s, "no effect")  # its left-stone curse die
    assert s.get("at", "c57_uncatchable") == "yellow_2"
    assert s.get("buddha_on", "yellow_2") == 1 and s.get("buddha_temple") == 1
    assert s.eval("attackable(c57_uncatchable)")
    x = game.state_at("exorcise", {"m": "yellow"}, s, tracing=True)
    roll(x, "black", "black", "white")
    act(x, "Uncatchable is exorcised")
    act(x, "yellow monk receives 1 Qi")
    assert x.get("at", "c57_uncatchable") == "discard"
    assert x.get("buddha_on", "yellow_2") == 0 and x.get("buddha_temple") == 2
    assert x.is_terminal() and x.outcome().result == "win"
    assert x.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Abilities
# ---------------------------------------------------------------------------------------------

def test_death_army_torments_in_its_boards_yin_phase(game, base):
    """EL: Death Army is a tormentor: its board's Yin phase rolls the curse die (GS-INC-DEATHARMY,
    ED-20, GS-YIN-5)."""
    place(base, "Death Army", "yellow_2")
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True)
    assert s.prompt() == "roll the curse_die"
    roll(s, "lose 1 Qi")
    assert s.get("qi", "yellow") == 3
    s = game.state_at("yin_phase", {"m": "red"}, base)
    assert s.prompt() == "draw a card"  # not in another board's Yin phase


def test_death_army_curses_before_it_is_discarded(game, base):
    """EL: after Death Army is exorcised the curse die is rolled before the card is discarded, so a
    haunting result hits the tile in front of it; the curse comes before the reward and the
    victory (GS-INC-DEATHARMY, GS-CURSE-3, GS-END-5)."""
    da = place(base, "Death Army", "yellow_2")
    base.set("monk_at", "yellow", "ss")
    base.set("haunted", "ss", True)
    give(base, "blue", "black", -1)
    give(base, "yellow", "black", 1)  # 2 black tokens
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(s, "black", "black", "white")
    act(s, "Death Army is exorcised")
    assert spend_all(s) == 2
    assert s.prompt() == "roll the curse_die"
    assert s.get("at", da) == "yellow_2"
    roll(s, "haunt a tile")
    assert s.get("haunted", "cc") is True and s.eval("haunted_tiles") == 2
    assert s.prompt() == "who receives the incarnation's Qi?"
    act(s, "red monk receives 1 Qi")
    assert s.get("at", da) == "discard"
    assert s.is_terminal() and s.outcome().result == "win"
    assert s.get("tao", "yellow", "black") == 0 and s.get("tao_supply", "black") == 2
    assert s.check_invariants() == []


def test_forgotten_ones_disables_every_power(game, base):
    """Forgotten Ones: from its arrival no monk may use his power (GS-INC-FORGOTTEN,
    GS-ABIL-NOPOWER): no Bottomless Pockets, no 4th die for the Mountain, and the green monk rolls
    the curse die again."""
    assert base.eval("exorcism_dice(green)") == 4
    s = game.state_at("place_ghost", {"g": "c60_forgotten_ones", "by": "yellow"}, base)
    act(s, "Forgotten Ones to yellow board slot 1")
    for m in MONKS:
        assert s.eval(f"power_disabled({m})")
    assert not s.eval("has_power(yellow, pockets)") and not s.eval("has_power(green, mountain)")
    assert s.eval("exorcism_dice(green)") == 3
    y = game.state_at("yang_phase", {"m": "yellow"}, s)
    act(y, "keep the Yin-Yang")
    assert y.prompt() == "move?"  # Bottomless Pockets is not offered
    place(s, "Great Putrid", "green_2")  # tormentor
    t = game.state_at("yin_phase", {"m": "green"}, s)
    assert t.prompt() == "roll the curse_die"


def test_bonecracker_takes_a_tao_token_from_every_monk_on_arrival(game, base):
    """Bonecracker: on arrival every monk discards 1 Tao token (of his choice); a monk without
    tokens is unaffected (GS-INC-BONECRACKER, GS-ABIL-TEAM)."""
    give(base, "blue", "blue", -1)
    give(base, "blue", "black", -1)
    s = game.state_at("place_ghost", {"g": "c61_bonecracker", "by": "yellow"}, base, tracing=True)
    act(s, "Bonecracker to red board slot 1")
    for m in ("yellow", "red", "green"):
        assert s.current_player_name() == m
        act(s, f"{m} monk discards a black Tao token")
    assert s.prompt() == "draw a card"
    assert tokens(s, "yellow") == [1, 0, 0, 0, 0] and tokens(s, "red") == [0, 1, 0, 0, 0]
    assert tokens(s, "green") == [0, 0, 1, 0, 0] and tokens(s, "blue") == [0, 0, 0, 0, 0]
    assert s.get("tao_supply", "black") == 4
    assert s.check_invariants() == []


def test_bonecracker_strikes_again_in_its_boards_yin_phase(game, base):
    """EL: again at the start of each Yin phase of the board holding it, and only then (GS-INC-BONECRACKER,
    ED-22)."""
    place(base, "Bonecracker", "red_1")
    s = game.state_at("yin_phase", {"m": "yellow"}, base)
    assert s.prompt() == "draw a card"  # the yellow Yin phase: nothing
    s = game.state_at("yin_phase", {"m": "red"}, base, tracing=True)
    for m in MONKS:
        assert s.current_player_name() == m
        act(s, f"{m} monk discards a {m} Tao token")
    assert all(tokens(s, m) == [0, 0, 0, 0, 1] for m in MONKS)
    assert s.prompt() == "draw a card"  # then the red monk's step 3
    assert s.check_invariants() == []


def test_dark_mistress_blocks_tao_tokens_not_the_circle(game, base):
    """Dark Mistress: no monk may use Tao tokens; the Circle of Prayer still works
    (GS-INC-DARKMISTRESS, GS-ABIL-NOTAO, OQ-34)."""
    s = game.state_at("place_ghost", {"g": "c62_dark_mistress", "by": "yellow"}, base)
    act(s, "Dark Mistress to blue board slot 2")
    assert s.eval("tao_tokens_blocked")
    s.set("monk_at", "yellow", "ee")
    give(s, "yellow", "blue", 2)
    x = game.state_at("exorcise", {"m": "yellow"}, s)
    roll(x, "blue", "blue", "red")
    assert labels(x) == ["the exorcism fails"]
    s.set("tao_supply", "blue", s.get("tao_supply", "blue") - 1)
    s.set("circle_tao", "blue", 1)
    x = game.state_at("exorcise", {"m": "yellow"}, s)
    roll(x, "blue", "blue", "red")
    assert labels(x) == ["Dark Mistress is exorcised (blue board slot 2)"]
    act(x, "Dark Mistress is exorcised")
    act(x, "yellow monk receives 1 Qi")
    assert x.get("tao", "yellow", "blue") == 2
    assert x.is_terminal() and x.outcome().result == "win"
    assert x.check_invariants() == []


def test_creeping_horror_captures_a_tao_die(game, base):
    """Creeping Horror holds 1 Tao die until exorcised: exorcisms roll 2 dice (GS-INC-CREEPINGHORROR,
    GS-ABIL-CAPTUREDIE)."""
    s = game.state_at("place_ghost", {"g": "c63_creeping_horror", "by": "yellow"}, base)
    act(s, "Creeping Horror to green board slot 2")
    assert s.eval("captured_dice") == 1
    s.set("monk_at", "yellow", "nn")
    give(s, "yellow", "green", 2)
    x = game.state_at("exorcise", {"m": "yellow"}, s, tracing=True)
    roll(x, "green", "green")
    assert not x.is_chance_node()
    act(x, "Creeping Horror is exorcised")
    assert spend_all(x) == 2
    assert sum(1 for e in x.log() if e.text.startswith("tao_die:")) == 2
    act(x, "yellow monk receives 1 Qi")
    assert x.eval("captured_dice") == 0
    assert x.is_terminal() and x.outcome().result == "win"


def test_vampire_lord_is_a_haunter_with_resistance_4(game, base):
    """EL: Vampire Lord is simply a haunter with resistance 4 (HU: 4) (GS-INC-VAMPIRELORD, ED-23,
    OQ-35, GS-ABIL-HAUNTER)."""
    s = game.state_at("place_ghost", {"g": "c64_vampire_lord", "by": "red"}, base)
    act(s, "Vampire Lord to yellow board slot 2")
    assert s.get("figure", "c64_vampire_lord") == "on_card"
    s = game.state_at("yin_phase", {"m": "yellow"}, s)
    assert s.get("figure", "c64_vampire_lord") == "stone1"
    s = game.state_at("yin_phase", {"m": "yellow"}, s)
    assert s.get("haunted", "ss") is True and s.get("figure", "c64_vampire_lord") == "on_card"
    s.set("monk_at", "yellow", "ss")
    no_token = s.clone()
    give(no_token, "yellow", "yellow", -1)
    x = game.state_at("exorcise", {"m": "yellow"}, no_token)
    roll(x, "yellow", "yellow", "white")
    assert labels(x) == ["the exorcism fails"]
    x = game.state_at("exorcise", {"m": "yellow"}, s)
    roll(x, "yellow", "yellow", "white")
    act(x, "Vampire Lord is exorcised")
    assert spend_all(x) == 1
    act(x, "yellow monk receives 1 Qi")
    assert x.is_terminal() and x.outcome().result == "win"
    assert x.check_invariants() == []


def test_hope_killer_needs_two_of_each_of_four_colours(game, base):
    """Hope Killer: 2 blue + 2 red + 2 green + 2 yellow; each colour is met separately, black
    results count for nothing (GS-INC-HOPEKILLER, GS-INC-MULTI)."""
    hk = place(base, "Hope Killer", "yellow_2")
    base.set("monk_at", "yellow", "ss")
    give(base, "yellow", "red", 2)
    give(base, "yellow", "green", 2)
    give(base, "yellow", "blue", 1)  # 1 yellow (start), 2 red, 2 green, 1 blue
    x = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(x, "black", "black", "yellow")
    assert labels(x) == ["the exorcism fails"]  # blue is one short
    x = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(x, "red", "green", "yellow")  # yellow is one short, red and green over-covered
    assert labels(x) == ["the exorcism fails"]
    x = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(x, "blue", "black", "yellow")
    act(x, "Hope Killer is exorcised")
    assert spend_all(x) == 6
    roll(x, "no effect")  # its curse
    act(x, "blue monk receives 1 Qi")
    assert x.get("at", hk) == "discard"
    assert x.is_terminal() and x.outcome().result == "win"
    assert tokens(x, "yellow") == [0, 0, 0, 0, 1]
    assert x.check_invariants() == []


def test_nameless_sweeps_the_circle_and_whites_stop_being_jokers(game, base):
    """Nameless: on arrival the Tao token on the Circle of Prayer is discarded; while it is in play
    white faces count for nothing (EL: simply ignored) (GS-INC-NAMELESS, GS-EXO-4)."""
    base.set("tao_supply", "green", base.get("tao_supply", "green") - 1)
    base.set("circle_tao", "green", 1)
    assert base.eval("whites_wild")
    s = game.state_at("place_ghost", {"g": "c65_nameless", "by": "yellow"}, base)
    act(s, "Nameless to yellow board slot 2")
    assert s.get("circle_tao", "green") == 0 and s.get("tao_supply", "green") == 3
    assert not s.eval("whites_wild")
    s.set("monk_at", "yellow", "ss")
    give(s, "yellow", "yellow", -1)
    give(s, "yellow", "blue")
    give(s, "yellow", "green")  # blue, green, black tokens; no yellow, no red
    x = game.state_at("exorcise", {"m": "yellow"}, s)
    roll(x, "red", "white", "white")
    assert labels(x) == ["the exorcism fails"]
    x = game.state_at("exorcise", {"m": "yellow"}, s)
    roll(x, "red", "yellow", "white")
    act(x, "Nameless is exorcised")
    assert spend_all(x) == 3
    act(x, "yellow monk receives 1 Qi")
    assert x.is_terminal() and x.outcome().result == "win"
    assert x.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Reward
# ---------------------------------------------------------------------------------------------

def test_incarnation_reward_goes_to_living_monks_of_the_teams_choice(game, base):
    """Each incarnation gives the team 1 Qi and 1 Yin-Yang; the players pick who gets each; a dead
    monk can get neither (GS-INC-GEN-5, GS-ABIL-INCREWARD, GS-DEATH-5, OQ-18)."""
    set_qi(base, "red", 0)
    base.set("alive", "red", False)
    for c in COLOURS:
        give(base, "red", c, -base.get("tao", "red", c))
    for m in ("red", "blue"):
        base.set("yinyang", m, 0)
        base.set("yinyang_supply", m, 1)
    base.set("monk_at", "yellow", "ss")
    fo = place(base, "Forgotten Ones", "yellow_2")
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(s, "black", "black", "white")
    act(s, "Forgotten Ones is exorcised")
    assert s.prompt() == "who receives the incarnation's Qi?"
    assert labels(s) == ["yellow monk receives 1 Qi", "green monk receives 1 Qi", "blue monk receives 1 Qi"]
    act(s, "green monk receives 1 Qi")
    assert s.prompt() == "who receives the incarnation's Yin-Yang?"
    assert labels(s) == ["blue monk takes back the Yin-Yang"]
    act(s, "blue monk takes back the Yin-Yang")
    assert s.get("qi", "green") == 5 and s.get("yinyang", "blue") == 1
    assert s.get("qi", "red") == 0 and s.get("yinyang", "red") == 0
    assert s.get("at", fo) == "discard"
    assert s.is_terminal() and s.outcome().result == "win" and s.outcome().rule_id == "GS-END-1"
    assert s.check_invariants() == []
