"""The eight monk powers of Ghost Stories (rulebook section 4, EL reading), and a power switched off
by Coffin Breaker (GS-ABIL-NOPOWER).

Layout (gs_helpers.LAYOUT):

    Herbalist(nw)   Tea House(nn)   Pavilion(ne)        green board (north)
    Sorcerer(ww)    Watchman(cc)    Temple(ee)     red (west)      blue (east)
    Circle(sw)      Cemetery(ss)    Altar(se)           yellow board (south)

Default powers: yellow Bottomless Pockets, red Dance of the Peaks, green Strength of the Mountain,
blue Heavenly Gust; the other side of each board is chosen with ``set_up(game, powers=...)``.
"""

from __future__ import annotations

import pytest

from gs_helpers import rules_fired, act, gs_game, labels, place, roll, set_up

COLOURS = ("yellow", "red", "green", "blue", "black")


@pytest.fixture
def game():
    return gs_game()



def yang(game, base, monk, tile):
    """The monk stands on the tile and his Yang phase begins."""
    base.set("monk_at", monk, tile)
    base.set("active", monk)
    return game.state_at("yang_phase", {"m": monk}, base, tracing=True)


def actions(game, base, monk, tile):
    """The monk stands on the tile, it is his turn, and he is at Yang step 2."""
    base.set("monk_at", monk, tile)
    base.set("active", monk)
    return game.state_at("take_actions", {"m": monk}, base, tracing=True)


# ---- Yellow: Bottomless Pockets -------------------------------------------------------------

def test_bottomless_pockets_takes_a_token_before_moving(game):
    """GS-POWER-YELLOW-POCKETS, GS-YANG-1: at the start of his Yang phase, before moving, the yellow monk
    takes 1 Tao token of any colour left in the supply (black is exhausted at EL Initiation)."""
    base = set_up(game)
    red_before = base.get("tao", "yellow", "red")
    s = yang(game, base, "yellow", "cc")
    act(s, "keep the Yin-Yang")
    assert s.prompt() == "Bottomless Pockets: take a Tao token?"
    assert sorted(labels(s)) == sorted(["take no token"] + [f"yellow monk takes a {c} Tao token (Bottomless Pockets)"
                                                            for c in ("yellow", "red", "green", "blue")])
    act(s, "takes a red Tao token")
    assert s.get("tao", "yellow", "red") == red_before + 1
    assert s.prompt() == "move?", "the token comes before the move"
    assert s.check_invariants() == []


def test_other_monks_have_no_pockets(game):
    """GS-POWER-GEN-1: only the monk whose board shows the power has it."""
    s = yang(game, set_up(game), "red", "cc")
    act(s, "keep the Yin-Yang")
    assert s.prompt() == "move?"


# ---- Yellow: Weakening Mantra ---------------------------------------------------------------

def test_weakening_mantra_is_placed_before_moving(game):
    """GS-POWER-YELLOW-MANTRA, GS-YANG-1: before moving, the yellow monk puts the Mantra on any ghost in
    play (here on another monk's board); it leaves his hand."""
    base = set_up(game, powers={"yellow": "mantra"})
    assert base.get("mantra_home") == 1
    vampire = place(base, "c08_hopping_vampire", "red_1")
    s = yang(game, base, "yellow", "cc")
    act(s, "keep the Yin-Yang")
    assert s.prompt() == "Weakening Mantra: place or move the token?"
    act(s, "put the Mantra on Hopping Vampire")
    assert s.get("mantra_on", vampire) == 1 and s.get("mantra_home") == 0
    assert s.prompt() == "move?"
    assert s.check_invariants() == []


def test_weakening_mantra_can_be_moved_to_another_ghost(game):
    """GS-POWER-YELLOW-MANTRA: the Mantra is moved from one ghost to another."""
    base = set_up(game, powers={"yellow": "mantra"})
    vampire = place(base, "c08_hopping_vampire", "red_1")
    zombie = place(base, "c06_zombie", "yellow_2")
    base.set("mantra_home", 0)
    base.set("mantra_on", vampire, 1)
    s = yang(game, base, "yellow", "cc")
    act(s, "keep the Yin-Yang")
    assert not any(x.startswith("put the Mantra on Hopping Vampire") for x in labels(s))
    act(s, "put the Mantra on Zombie")
    assert s.get("mantra_on", zombie) == 1 and s.get("mantra_on", vampire) == 0
    assert s.check_invariants() == []


def test_weakening_mantra_lowers_resistance_for_any_monk(game):
    """GS-POWER-YELLOW-MANTRA, GS-EXO-10: the Mantra on Hopping Vampire (yellow 3); the red monk exorcises
    it with two yellow results, and the Mantra goes back to the yellow monk (GS-POWER-YELLOW-MANTRA-2)."""
    base = set_up(game, powers={"yellow": "mantra"})
    vampire = place(base, "c08_hopping_vampire", "yellow_1")
    base.set("mantra_home", 0)
    base.set("mantra_on", vampire, 1)
    base.set("monk_at", "red", "sw")
    base.set("active", "red")
    s = game.state_at("exorcise", {"m": "red"}, base, tracing=True)
    roll(s, "yellow", "yellow", "green")
    assert labels(s) == ["Hopping Vampire is exorcised (yellow board slot 1)"]
    act(s, "Hopping Vampire is exorcised")
    assert s.get("at", vampire) == "discard"
    assert s.get("mantra_home") == 1 and s.get("mantra_on", vampire) == 0
    assert s.get("mantra_back_now") is True
    assert s.check_invariants() == []


def test_without_the_mantra_two_yellow_results_are_not_enough(game):
    """GS-EXO-3 (control for the Mantra test): Hopping Vampire needs 3 yellow results."""
    base = set_up(game, powers={"yellow": "mantra"})
    place(base, "c08_hopping_vampire", "yellow_1")
    base.set("monk_at", "red", "sw")
    s = game.state_at("exorcise", {"m": "red"}, base)
    roll(s, "yellow", "yellow", "green")
    assert labels(s) == ["the exorcism fails"]


def test_mantra_returns_when_its_ghost_leaves_and_is_usable_only_next_turn(game):
    """GS-POWER-YELLOW-MANTRA-2, GS-GHOST-4, GS-TURN-1, GS-YY-1: the Mantra lies on Hopping Vampire; at the
    start of his Yang phase the yellow monk calls the Sorcerer with his Yin-Yang and banishes it: the
    Mantra comes back to him but cannot be placed this turn, though a Zombie is in play; in his next
    turn he may place it again."""
    base = set_up(game, powers={"yellow": "mantra"})
    vampire = place(base, "c08_hopping_vampire", "red_1")
    zombie = place(base, "c06_zombie", "yellow_2")
    base.set("mantra_home", 0)
    base.set("mantra_on", vampire, 1)
    s = yang(game, base, "yellow", "cc")
    act(s, "Yin-Yang: yellow monk calls Sorcerer's Hut for help")
    act(s, "Hopping Vampire is banished")
    assert s.get("at", vampire) == "discard"
    assert s.get("mantra_home") == 1 and s.get("mantra_on", vampire) == 0
    assert s.prompt() == "move?", "no Mantra decision in the same turn"
    act(s, "yellow monk stays on Night Watchman")
    assert s.check_invariants() == []

    # the yellow monk's next turn: after his Yin phase, the Mantra can be placed again
    s.set("active", "yellow")
    nxt = game.state_at("play_turn", {}, s, tracing=True)
    roll(nxt, "Skinner")
    act(nxt, "Skinner to red board slot 1")
    assert nxt.prompt() == "Weakening Mantra: place or move the token?"
    act(nxt, "put the Mantra on Zombie")
    assert nxt.get("mantra_on", zombie) == 1 and nxt.get("mantra_home") == 0
    assert nxt.check_invariants() == []


def test_mantra_leaves_the_game_when_the_power_is_lost(game):
    """GS-POWER-YELLOW-MANTRA-3, GS-ABIL-NOPOWER, GS-POWER-GEN-2: Coffin Breaker arrives on the yellow
    board: the Mantra is removed from the game, even from the ghost it lay on."""
    base = set_up(game, powers={"yellow": "mantra"})
    vampire = place(base, "c08_hopping_vampire", "red_1")
    base.set("mantra_home", 0)
    base.set("mantra_on", vampire, 1)
    s = game.state_at("bring_ghost", {"by": "yellow"}, base, tracing=True)
    roll(s, "Coffin Breaker")
    act(s, "Coffin Breaker to yellow board slot 1")
    assert s.get("at", "c03_coffin_breaker") == "yellow_1"
    roll(s, "Skinner")                       # its left stone also brings a ghost
    act(s, "Skinner to red board slot 2")
    assert s.get("mantra_out") == 1 and s.get("mantra_on", vampire) == 0 and s.get("mantra_home") == 0
    assert "GS-POWER-YELLOW-MANTRA-3" in rules_fired(s)
    assert s.check_invariants() == []


# ---- Red: Dance of the Peaks ----------------------------------------------------------------

def test_dance_of_the_peaks_flies_to_any_tile(game):
    """GS-POWER-RED-PEAKS, GS-YANG-2: from the Herbalist (nw corner) the red monk may go to any other tile,
    including the far corner (Altar)."""
    s = yang(game, set_up(game), "red", "nw")
    act(s, "keep the Yin-Yang")
    assert s.prompt() == "move?"
    moves = [x for x in labels(s) if "moves to" in x]
    assert len(moves) == 8
    act(s, "red monk moves to Taoist Altar")
    assert s.get("monk_at", "red") == "se"
    assert s.check_invariants() == []


def test_without_peaks_a_monk_moves_one_step(game):
    """GS-YANG-2: the yellow monk on the Herbalist may only step to the 3 adjacent tiles."""
    s = yang(game, set_up(game), "yellow", "nw")
    act(s, "keep the Yin-Yang")
    act(s, "take no token")
    assert sorted(x for x in labels(s) if "moves to" in x) == [
        "yellow monk moves to Night Watchman", "yellow monk moves to Sorcerer's Hut", "yellow monk moves to Tea House"]


# ---- Red: Dance of the Twin Winds -----------------------------------------------------------

def test_dance_of_the_twin_winds_moves_another_monk_one_step_before_own_move(game):
    """GS-POWER-RED-TWINWINDS (EL, ED-16), GS-YANG-1: before his own move the red monk moves the yellow
    monk one step (diagonals allowed, only adjacent tiles); then he moves himself one step."""
    base = set_up(game, powers={"red": "twinwinds"})
    base.set("monk_at", "yellow", "nw")
    s = yang(game, base, "red", "ww")
    act(s, "keep the Yin-Yang")
    assert s.prompt() == "Dance of the Twin Winds: move another monk one step?"
    assert "move red monk" not in labels(s)
    act(s, "move yellow monk")
    assert sorted(labels(s)) == ["yellow monk moves to Night Watchman", "yellow monk moves to Sorcerer's Hut",
                                 "yellow monk moves to Tea House"]
    act(s, "yellow monk moves to Night Watchman")
    assert s.get("monk_at", "yellow") == "cc"
    assert s.prompt() == "move?", "the red monk's own move comes after"
    assert "red monk moves to Taoist Altar" not in labels(s), "twin winds does not fly"
    act(s, "red monk moves to Circle of Prayer")
    assert s.get("monk_at", "red") == "sw" and s.get("monk_at", "yellow") == "cc"
    assert s.check_invariants() == []


# ---- Blue: Heavenly Gust --------------------------------------------------------------------

def test_heavenly_gust_helps_and_then_exorcises(game):
    """GS-POWER-BLUE-GUST, GS-YANG-4: on the Sorcerer's Hut the blue monk banishes the Zombie (help),
    then exorcises Skinner (red 1) on red_2 in the same turn."""
    base = set_up(game)
    zombie = place(base, "c06_zombie", "yellow_1")
    skinner = place(base, "c34_skinner", "red_2")
    s = actions(game, base, "blue", "ww")
    act(s, "blue monk asks Sorcerer's Hut for help")
    act(s, "Zombie is banished")
    assert s.get("at", zombie) == "discard" and s.get("qi", "blue") == 3
    assert sorted(labels(s)) == ["blue monk takes no (further) action", "blue monk tries to exorcise"]
    act(s, "blue monk tries to exorcise")
    roll(s, "red", "green", "green")
    act(s, "Skinner is exorcised")
    assert s.get("at", skinner) == "discard"
    assert s.check_invariants() == []


def test_heavenly_gust_exorcises_and_then_helps(game):
    """GS-POWER-BLUE-GUST: either order; after exorcising, the Herbalist still helps; no third action."""
    base = set_up(game)
    skinner = place(base, "c34_skinner", "red_3")
    s = actions(game, base, "blue", "nw")
    act(s, "blue monk tries to exorcise")
    roll(s, "red", "green", "green")
    act(s, "Skinner is exorcised")
    assert s.get("at", skinner) == "discard"
    blue_green = s.get("tao", "blue", "green")
    act(s, "blue monk asks Herbalist for help")
    roll(s, "green", "yellow")
    assert s.get("tao", "blue", "green") == blue_green + 1
    assert s.prompt() != "ask for help or exorcise?", "one help and one exorcism, no more"
    assert s.check_invariants() == []


def test_without_gust_a_single_action(game):
    """GS-YANG-4: the yellow monk who banished a ghost at the Sorcerer's cannot also exorcise."""
    base = set_up(game)
    place(base, "c06_zombie", "yellow_1")
    place(base, "c34_skinner", "red_2")
    s = actions(game, base, "yellow", "ww")
    act(s, "asks Sorcerer's Hut for help")
    act(s, "Zombie is banished")
    assert s.prompt() != "ask for help or exorcise?"


def test_heavenly_gust_does_not_give_two_helps(game):
    """GS-POWER-BLUE-GUST: help AND exorcism, not two helps."""
    base = set_up(game)
    s = actions(game, base, "blue", "nw")
    act(s, "asks Herbalist for help")
    roll(s, "red", "green")
    assert s.prompt() != "ask for help or exorcise?"


# ---- Blue: Second Wind ----------------------------------------------------------------------

def test_second_wind_asks_the_same_villager_twice(game):
    """GS-POWER-BLUE-SECONDWIND, GS-VILLAGE-HERBALIST: the blue monk asks the Herbalist twice: 4 dice'
    worth of tokens."""
    base = set_up(game, powers={"blue": "secondwind"})
    before = {c: base.get("tao", "blue", c) for c in COLOURS}
    s = actions(game, base, "blue", "nw")
    act(s, "blue monk asks Herbalist for help")
    roll(s, "red", "green")
    assert sorted(labels(s)) == ["blue monk asks Herbalist for help", "blue monk takes no (further) action"]
    act(s, "blue monk asks Herbalist for help")
    roll(s, "red", "yellow")
    after = {c: s.get("tao", "blue", c) for c in COLOURS}
    assert after["red"] == before["red"] + 2
    assert after["green"] == before["green"] + 1 and after["yellow"] == before["yellow"] + 1
    assert s.prompt() != "ask for help or exorcise?"
    assert s.check_invariants() == []


def test_second_wind_two_independent_exorcisms(game):
    """GS-POWER-BLUE-SECONDWIND, GS-EXO-2: first attempt on Bleeding Eyes (red 2) rolls one red and
    fails; the second attempt rolls all dice again (one red again): the first red does not carry over,
    so it fails too. A third roll is not allowed."""
    base = set_up(game, powers={"blue": "secondwind"})
    eyes = place(base, "c38_bleeding_eyes", "red_2")
    s = actions(game, base, "blue", "ww")
    act(s, "blue monk tries to exorcise")
    roll(s, "red", "green", "blue")
    act(s, "the exorcism fails")
    assert sorted(labels(s)) == ["blue monk takes no (further) action", "blue monk tries to exorcise"]
    act(s, "blue monk tries to exorcise")
    roll(s, "red", "yellow", "black")
    assert s.get("tray", "red") == 1 and s.get("tray", "green") == 0
    assert labels(s) == ["the exorcism fails"]
    act(s, "the exorcism fails")
    assert s.get("at", eyes) == "red_2"
    assert s.prompt() != "ask for help or exorcise?"


def test_second_wind_second_exorcism_can_succeed(game):
    """GS-POWER-BLUE-SECONDWIND: after a failed roll the second exorcism (red, red, yellow) succeeds."""
    base = set_up(game, powers={"blue": "secondwind"})
    eyes = place(base, "c38_bleeding_eyes", "red_2")
    s = actions(game, base, "blue", "ww")
    act(s, "tries to exorcise")
    roll(s, "green", "green", "blue")
    act(s, "the exorcism fails")
    act(s, "tries to exorcise")
    roll(s, "red", "red", "yellow")
    act(s, "Bleeding Eyes is exorcised")
    assert s.get("at", eyes) == "discard"
    assert s.check_invariants() == []


def test_second_wind_does_not_mix_help_and_exorcism(game):
    """GS-POWER-BLUE-SECONDWIND: twice the help OR twice the exorcism, not one of each."""
    base = set_up(game, powers={"blue": "secondwind"})
    place(base, "c06_zombie", "yellow_1")
    place(base, "c34_skinner", "red_2")
    s = actions(game, base, "blue", "ww")
    act(s, "asks Sorcerer's Hut for help")
    act(s, "Zombie is banished")
    assert "blue monk tries to exorcise" not in labels(s)


# ---- Green: Strength of the Mountain --------------------------------------------------------

def test_strength_of_the_mountain_rolls_a_fourth_die_and_no_curse_die(game):
    """GS-POWER-GREEN-MOUNTAIN, GS-EXO-2, GS-CURSE-1, GS-CURSE-3: the green monk rolls 4 Tao dice against
    the Zombie (yellow 2, curse die when exorcised): the 4th die gives the second yellow; the Zombie is
    exorcised and no curse die is rolled."""
    base = set_up(game)
    zombie = place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", "green", "ss")
    assert base.eval("exorcism_dice(green)") == 4 and base.eval("exorcism_dice(yellow)") == 3
    s = game.state_at("exorcise", {"m": "green"}, base, tracing=True)
    act(s, "green monk rolls the 4th Tao die too")  # he may leave it out: tests/test_gs_mountain.py
    roll(s, "red", "green", "yellow", "yellow")
    assert not s.is_chance_node(), "exactly 4 dice"
    act(s, "Zombie is exorcised")
    assert s.get("at", zombie) == "discard"
    assert "GS-POWER-GREEN-MOUNTAIN" in rules_fired(s)
    assert not any(e.text.startswith("curse_die:") for e in s.log())
    assert s.get("qi", "green") == 4
    assert s.check_invariants() == []


def test_mountain_is_for_exorcisms_only(game):
    """GS-POWER-GREEN-MOUNTAIN, GS-VILLAGE-HERBALIST: at the Herbalist the green monk rolls only 2 dice."""
    base = set_up(game)
    s = actions(game, base, "green", "nw")
    act(s, "asks Herbalist for help")
    roll(s, "red", "blue")
    assert s.prompt() != "roll the tao_die", "2 dice, no 4th"
    assert s.get("tray", "red") + s.get("tray", "blue") == 2


# ---- Green: Favourite of the Gods -----------------------------------------------------------

def test_favourite_rerolls_some_tao_dice_once(game):
    """GS-POWER-GREEN-FAVOURITE, GS-EXO-2: against Bleeding Eyes (red 2) the green monk rolls red, green,
    blue, keeps the red and rerolls the other two: red and yellow; the second result is kept (no further
    reroll) and the exorcism succeeds."""
    base = set_up(game, powers={"green": "favourite"})
    eyes = place(base, "c38_bleeding_eyes", "red_2")
    base.set("monk_at", "green", "ww")
    s = game.state_at("exorcise", {"m": "green"}, base, tracing=True)
    roll(s, "red", "green", "blue")
    assert not s.is_chance_node(), "only 3 dice without the Mountain"
    assert sorted(labels(s)) == ["keep the roll", "reroll some dice"]
    act(s, "reroll some dice")
    act(s, "reroll 0 red")
    act(s, "reroll 1 green")
    act(s, "reroll 1 blue")
    roll(s, "red", "yellow")
    assert [s.get("tray", f) for f in ("red", "green", "blue", "yellow")] == [2, 0, 0, 1]
    assert labels(s) == ["Bleeding Eyes is exorcised (red board slot 2)"], "the second result must be kept"
    act(s, "Bleeding Eyes is exorcised")
    assert s.get("at", eyes) == "discard"
    assert s.check_invariants() == []


def test_favourite_rerolls_the_herbalist_dice(game):
    """GS-POWER-GREEN-FAVOURITE, GS-VILLAGE-HERBALIST: the dice of a help action may be rerolled too."""
    base = set_up(game, powers={"green": "favourite"})
    before = base.get("tao", "green", "blue")
    s = actions(game, base, "green", "nw")
    act(s, "asks Herbalist for help")
    roll(s, "black", "red")
    act(s, "reroll some dice")
    act(s, "reroll 0 red")
    act(s, "reroll 1 black")
    roll(s, "blue")
    assert s.get("tao", "green", "blue") == before + 1
    assert s.check_invariants() == []


def test_favourite_rerolls_the_curse_die(game):
    """GS-POWER-GREEN-FAVOURITE, GS-CURSE-1, GS-CURSEDIE-E: the green Favourite exorcises the Zombie;
    the curse die shows "lose 1 Qi"; he rolls it again and must keep "no effect"."""
    base = set_up(game, powers={"green": "favourite"})
    zombie = place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", "green", "ss")
    s = game.state_at("exorcise", {"m": "green"}, base, tracing=True)
    roll(s, "yellow", "yellow", "green")
    act(s, "keep the roll")
    act(s, "Zombie is exorcised")
    roll(s, "lose 1 Qi")
    assert s.prompt() == "keep the curse die or roll it again?"
    act(s, "reroll lose 1 Qi")
    roll(s, "no effect")
    assert s.get("qi", "green") == 4
    assert s.get("at", zombie) == "discard"
    assert s.prompt() != "keep the curse die or roll it again?"
    assert s.check_invariants() == []


# ---- A power switched off by Coffin Breaker -------------------------------------------------

def test_coffin_breaker_disables_the_power_of_its_board(game):
    """GS-ABIL-NOPOWER, GS-POWER-GEN-1, GS-POWER-RED-PEAKS: Coffin Breaker (c03, disable_board_power) on
    the red board: the red monk on the Herbalist can only step to adjacent tiles."""
    base = set_up(game)
    place(base, "c03_coffin_breaker", "red_1")
    s = yang(game, base, "red", "nw")
    act(s, "keep the Yin-Yang")
    assert sorted(x for x in labels(s) if "moves to" in x) == [
        "red monk moves to Night Watchman", "red monk moves to Sorcerer's Hut", "red monk moves to Tea House"]
    assert s.check_invariants() == []


def test_coffin_breaker_only_disables_its_own_board(game):
    """GS-ABIL-NOPOWER: Coffin Breaker on the yellow board leaves the red monk's Peaks alone, but the yellow
    monk gets no Bottomless Pockets."""
    base = set_up(game)
    place(base, "c03_coffin_breaker", "yellow_1")
    assert base.eval("has_power(red, peaks)") is True
    s = yang(game, base, "yellow", "cc")
    act(s, "keep the Yin-Yang")
    assert s.prompt() == "move?", "no Bottomless Pockets decision"


def test_the_other_coffin_breaker_does_not_disable(game):
    """GS-ABIL-NOPOWER: only one of the two Coffin Breakers (c03) carries the power-off ability."""
    base = set_up(game)
    place(base, "c04_coffin_breaker", "red_1")
    assert base.eval("has_power(red, peaks)") is True


def test_disabled_gust_allows_one_action_and_comes_back_when_the_ghost_leaves(game):
    """GS-ABIL-NOPOWER, GS-POWER-GEN-2, GS-POWER-BLUE-GUST: Coffin Breaker on blue_1 switches off the
    Heavenly Gust; the blue monk banishes it at the Sorcerer's Hut: the power comes back at once, so he
    may still exorcise Skinner on red_2 in the same turn."""
    base = set_up(game)
    coffin = place(base, "c03_coffin_breaker", "blue_1")
    skinner = place(base, "c34_skinner", "red_2")
    assert base.eval("has_power(blue, gust)") is False
    s = actions(game, base, "blue", "ww")
    act(s, "asks Sorcerer's Hut for help")
    act(s, "Coffin Breaker is banished")
    assert s.get("at", coffin) == "discard"
    assert s.eval("has_power(blue, gust)") is True
    act(s, "blue monk tries to exorcise")
    roll(s, "red", "blue", "blue")
    act(s, "Skinner is exorcised")
    assert s.get("at", skinner) == "discard"
    assert s.check_invariants() == []


def test_disabled_gust_one_action_only(game):
    """GS-ABIL-NOPOWER, GS-YANG-4: with Coffin Breaker still on the blue board, after one help no
    exorcism follows."""
    base = set_up(game)
    place(base, "c03_coffin_breaker", "blue_1")
    place(base, "c06_zombie", "yellow_1")
    place(base, "c34_skinner", "red_2")
    s = actions(game, base, "blue", "ww")
    act(s, "asks Sorcerer's Hut for help")
    act(s, "Zombie is banished")
    assert s.prompt() != "ask for help or exorcise?"


def test_disabled_mountain_rolls_three_dice_and_the_curse_die(game):
    """GS-ABIL-NOPOWER, GS-POWER-GREEN-MOUNTAIN: Coffin Breaker on the green board: the green monk rolls
    only 3 dice and must roll the Zombie's curse die."""
    base = set_up(game)
    place(base, "c03_coffin_breaker", "green_1")
    zombie = place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", "green", "ss")
    assert base.eval("exorcism_dice(green)") == 3
    s = game.state_at("exorcise", {"m": "green"}, base, tracing=True)
    roll(s, "yellow", "yellow", "red")
    act(s, "Zombie is exorcised")
    assert s.is_chance_node() and s.prompt() == "roll the curse_die"
    roll(s, "lose 1 Qi")
    assert s.get("qi", "green") == 3 and s.get("at", zombie) == "discard"
    assert s.check_invariants() == []
