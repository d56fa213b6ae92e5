"""Ghost Stories: Strength of the Mountain's 4th Tao die is optional (GS-POWER-GREEN-MOUNTAIN, OQ-52).

HU "Szelleműzésnél használhat egy negyedik Tao-kockát is" (when exorcising he *may* use a fourth Tao
die too), EL p9 "Μπορεί να ρίξει ένα 4 ο ζάρι όταν εκτελεί έναν εξορκισμό" (he *may* roll a 4th die
when he performs an exorcism). The exorcism (GS-EXO-2) asks before the roll whenever the power applies:
the green monk's own power, or a neutral green board's lent by a power token (GS-PTOKEN-1); not when
the power is disabled (GS-ABIL-NOPOWER), and never for another monk. The curse-die exemption stays
whichever option is taken.

Layout (gs_helpers.LAYOUT):

    Herbalist(nw)   Tea House(nn)   Pavilion(ne)        green board (north)
    Sorcerer(ww)    Watchman(cc)    Temple(ee)     red (west)      blue (east)
    Circle(sw)      Cemetery(ss)    Altar(se)           yellow board (south)
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from ghostrules import query
from gs_helpers import act, borrow_then_try_to_exorcise, gs_game, labels, place, roll, rules_fired, set_up

PROMPT = "Strength of the Mountain: roll a 4th Tao die?"
TAKE = "green monk rolls the 4th Tao die too"
LEAVE = "green monk rolls without the 4th Tao die"
EDITIONS = ("el", "hu")


def at_least(r: int, n: int, p: Fraction) -> Fraction:
    """P(at least r successes among n dice), each a success with probability p."""
    return sum((math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(r, n + 1)), Fraction(0))


def rolled(state) -> int:
    """How many Tao dice the last roll put on the tray."""
    return sum(state.get("tray", f) for f in ("red", "green", "blue", "yellow", "black", "white"))


def green_exorcism(edition="el", **set_up_options):
    """The green monk (Strength of the Mountain) on the Cemetery (ss) faces the Zombie (yellow 2,
    curse die when exorcised) on yellow_2 and starts his exorcism."""
    game = gs_game(edition=edition)
    base = set_up(game, **set_up_options)
    place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", "green", "ss")
    base.set("active", "green")
    return game, base, game.state_at("exorcise", {"m": "green"}, base, tracing=True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_green_monks_exorcism_asks_for_the_fourth_die(edition):
    """The decision comes before the roll, with both options, each citing GS-POWER-GREEN-MOUNTAIN.
    The spec used to roll 4 dice at once: the position was the roll (a chance node)."""
    _, _, s = green_exorcism(edition)
    assert not s.is_chance_node(), "the 4th die was rolled without asking"
    assert s.prompt() == PROMPT
    assert s.node_rule() == "GS-POWER-GREEN-MOUNTAIN"
    options = s.legal_actions()
    assert [a.label for a in options] == [TAKE, LEAVE]
    assert all(a.rule == "GS-POWER-GREEN-MOUNTAIN" for a in options)


@pytest.mark.parametrize("edition", EDITIONS)
def test_declining_rolls_three_dice_and_still_no_curse_die(edition):
    """Without the 4th die: 3 Tao dice; the Zombie falls to two yellow results and the curse die is
    still not rolled (the exemption, "Mindezen felül, soha nem kell dobnia az Átok-kockával", does not
    depend on the 4th die)."""
    _, _, s = green_exorcism(edition)
    act(s, LEAVE)
    roll(s, "yellow", "yellow", "red")
    assert not s.is_chance_node(), "a 4th Tao die was rolled"
    assert rolled(s) == 3
    act(s, "Zombie is exorcised")
    assert s.get("at", "c06_zombie") == "discard"
    assert not any(e.text.startswith("curse_die:") for e in s.log())
    assert "GS-POWER-GREEN-MOUNTAIN" in rules_fired(s)
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_accepting_rolls_four_dice(edition):
    _, _, s = green_exorcism(edition)
    act(s, TAKE)
    roll(s, "red", "green", "yellow", "yellow")
    assert not s.is_chance_node(), "a 5th Tao die was rolled"
    assert rolled(s) == 4
    act(s, "Zombie is exorcised")
    assert s.get("at", "c06_zombie") == "discard"


def test_the_odds_of_three_and_four_dice():
    """Bleeding Eyes (red 2) in front of the green monk: a die gives red or white (the joker) with
    probability 1/3. Without the 4th die the exorcism succeeds with P(>= 2 of 3) = 7/27, with it
    P(>= 2 of 4) = 11/27; the exorcism's odds without an action take the better option (11/27)."""
    sc = query.load(
        "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"
        "monks:\n  green: {at: ww}\nghosts:\n  red_2: Bleeding Eyes\n"
        "turn: {active: green, step: exorcise}\n")
    assert sc.state.prompt() == PROMPT
    won = "at[c38_bleeding_eyes] == discard"
    third = Fraction(1, 3)
    three = Fraction(query.odds(sc, action=LEAVE, outcome=won).data["probability"])
    four = Fraction(query.odds(sc, action=TAKE, outcome=won).data["probability"])
    assert three == at_least(2, 3, third) == Fraction(7, 27)
    assert four == at_least(2, 4, third) == Fraction(11, 27)
    assert Fraction(query.odds(sc, outcome=won).data["probability"]) == four


@pytest.mark.parametrize("monk", ["yellow", "red", "blue"])
def test_no_decision_for_another_monk(monk):
    """A monk without the Mountain rolls his 3 dice at once."""
    game = gs_game()
    base = set_up(game)
    place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", monk, "ss")
    base.set("active", monk)
    s = game.state_at("exorcise", {"m": monk}, base, tracing=True)
    assert s.is_chance_node() and s.prompt() == "roll the tao_die"
    roll(s, "red", "green", "blue")
    assert not s.is_chance_node() and rolled(s) == 3


def test_no_decision_while_coffin_breaker_disables_the_mountain():
    """GS-ABIL-NOPOWER: Coffin Breaker on the green board: no 4th die to choose, 3 dice."""
    game = gs_game()
    base = set_up(game)
    place(base, "c03_coffin_breaker", "green_1")
    place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", "green", "ss")
    base.set("active", "green")
    s = game.state_at("exorcise", {"m": "green"}, base, tracing=True)
    assert s.is_chance_node() and s.prompt() == "roll the tao_die"
    roll(s, "yellow", "yellow", "red")
    assert not s.is_chance_node() and rolled(s) == 3


def test_no_decision_for_the_favourite():
    """The other side of the green board (Favourite of the Gods) has no 4th die."""
    _, _, s = green_exorcism(powers={"green": "favourite"})
    assert s.is_chance_node() and s.prompt() == "roll the tao_die"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_borrowed_mountain_asks_the_borrower(edition):
    """GS-PTOKEN-1: 2 players (red, blue); the neutral green board shows the Mountain. The blue monk
    spends a power token on it: his exorcism asks him, and declining rolls 3 dice. Without the token
    his exorcism rolls 3 dice at once."""
    game = gs_game(players=2, edition=edition)
    base = set_up(game, playing=["red"])
    place(base, "c06_zombie", "blue_2")
    base.set("monk_at", "blue", "ee")
    base.set("active", "blue")
    plain = game.state_at("exorcise", {"m": "blue"}, base, tracing=True)
    assert plain.is_chance_node(), "asked without the borrowed power"
    s = game.state_at("yang_phase", {"m": "blue"}, base, tracing=True)
    borrow_then_try_to_exorcise(s, "Strength of the Mountain")
    assert s.prompt() == PROMPT
    assert labels(s) == ["blue monk rolls the 4th Tao die too", "blue monk rolls without the 4th Tao die"]
    act(s, "blue monk rolls without the 4th Tao die")
    roll(s, "yellow", "yellow", "red")
    assert not s.is_chance_node() and rolled(s) == 3
