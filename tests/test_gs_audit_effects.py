"""Ghost Stories: a second audit of the ghost effects (Wu-Feng's incarnations GS-INC-*, the abilities
GS-ABIL-*, the curses and rewards GS-CURSE-*) at their edges: two effects at once, neutral and dead
monks' boards, empty supplies, the timing of each effect and its end when the ghost leaves, in both
editions where the texts differ. The row-by-row card checks are in test_gs_audit_ghosts.py, the plain
incarnation checks in test_gs_incarnations.py.

Layout used (gs_helpers.LAYOUT):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)

The yellow monk on the Cemetery (ss) faces yellow_2, whose line of tiles is ss, cc, nn.
"""

from __future__ import annotations

import pytest

from gs_helpers import (COLOURS, act, buddha_away, gather, give, gs_game, kill, labels, place, roll, set_qi, set_up,
                        spend_all)

EDITIONS = ["el", "hu"]
MONKS = ["yellow", "red", "green", "blue"]


def tokens(state, monk):
    return [state.get("tao", monk, c) for c in COLOURS]


def discard_all(state):
    """Answer 'which Tao token does the monk discard?' questions with the first option; return how many."""
    n = 0
    while not state.is_terminal() and not state.is_chance_node() and labels(state) \
            and all(" discards a " in x for x in labels(state)):
        act(state, labels(state)[0])
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Timing: HU "every further turn" (Bonecracker, Death Army)
# ---------------------------------------------------------------------------------------------

def test_hu_bonecracker_brought_by_death_armys_roll_strikes_once_in_the_turn_it_arrives():
    """HU GS-INC-BONECRACKER: "Amikor ez a megtestesülés játékba kerül, valamint minden további körben
    minden egyes szerzetesnek el kell dobnia egy Taojelzőt" (when it enters play, and in every FURTHER
    turn). HU Death Army makes the red monk roll at the start of his turn (GS-INC-DEATHARMY: "az aktív
    játékosnak minden körben ... dobnia kell az Átok-kockával"); the roll brings Bonecracker. Its
    arrival costs every monk 1 Tao token, and its own start-of-turn loss must not strike again in this
    same turn: it is not a further turn. The spec took 2 tokens from each monk (the Bonecracker
    turn_begins rule ran after Death Army's, and found the card it had just brought)."""
    game = gs_game(edition="hu", level="nightmare")
    base = set_up(game)
    for m in MONKS:
        give(base, m, m, 2)
    base.set("seg_ghosts", "seg1", 0)  # the next card is an incarnation
    place(base, "Death Army", "yellow_2")
    base.set("active", "red")
    s = game.state_at("play_turn", {}, base, tracing=True)
    assert s.prompt() == "roll the curse_die"
    roll(s, "bring a ghost")
    roll(s, "Bonecracker")
    act(s, "Bonecracker to red board slot 1")
    assert discard_all(s) == 4
    assert all(tokens(s, m) == [1 if c == m else 0 for c in COLOURS] for m in MONKS)
    assert s.check_invariants() == []
    # the next turn (blue's) is a further turn: Bonecracker strikes, then Death Army rolls
    nxt = s.clone()
    nxt.set("active", "blue")
    t = game.state_at("play_turn", {}, nxt, tracing=True)
    assert discard_all(t) == 4
    assert all(sum(tokens(t, m)) == 0 for m in MONKS)
    assert t.prompt() == "roll the curse_die"


@pytest.mark.parametrize("active, rolls", [("red", True), ("yellow", True), ("blue", True)])
def test_hu_death_army_makes_every_active_player_roll_and_is_no_tormentor(active, rolls):
    """HU GS-INC-DEATHARMY (ED-20): while it is in play the active player rolls the curse die every turn,
    on whichever board the card lies; its own board's Yin phase has no tormentor roll."""
    game = gs_game(edition="hu")
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    place(base, "Death Army", "yellow_2")
    base.set("active", active)
    s = game.state_at("play_turn", {}, base, tracing=True)
    assert (s.prompt() == "roll the curse_die") is rolls
    roll(s, "lose 1 Qi")
    assert s.get("qi", active) == 3
    y = game.state_at("yin_phase", {"m": "yellow"}, base)
    assert y.prompt() == "draw a card"  # no tormentor roll in the yellow Yin phase


def test_hu_death_army_stops_rolling_once_it_leaves_and_spares_the_mountain():
    """HU GS-INC-DEATHARMY, GS-GHOST-4: the roll stops with the card discarded; the green Mountain
    (GS-POWER-GREEN-MOUNTAIN) never rolls, Death Army or not."""
    game = gs_game(edition="hu")
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    da = place(base, "Death Army", "yellow_2")
    base.set("active", "green")
    s = game.state_at("play_turn", {}, base, tracing=True)
    assert s.prompt() == "draw a card"
    assert any("never rolls the curse die" in e.text for e in s.log())
    base.set("at", da, "discard")
    base.set("active", "red")
    s = game.state_at("play_turn", {}, base, tracing=True)
    assert s.prompt() == "draw a card"
    assert not any(e.rule == "GS-INC-DEATHARMY" for e in s.log())


# ---------------------------------------------------------------------------------------------
# Neutral boards (1-3 players)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition, rolls", [("el", True), ("hu", False)])
def test_death_army_on_a_neutral_board(edition, rolls):
    """EL: Death Army is a tormentor, so the neutral board it lies on rolls in its own Yin phase and loses
    the Qi (GS-INC-DEATHARMY, GS-NEUTRAL-*). HU: the active player rolls "every turn"; a neutral turn
    has no living active player, so nothing is rolled there (OQ-33)."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])
    base.set("seg_incarnation", "seg1", False)
    place(base, "Death Army", "red_2")
    base.set("active", "red")
    s = game.state_at("yin_phase", {"m": "red"}, base, tracing=True)
    assert (s.prompt() == "roll the curse_die") is rolls
    if rolls:
        roll(s, "lose 1 Qi")
        assert s.get("qi", "red") == 2 and s.get("qi", "yellow") == 4
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition, strikes", [("el", True), ("hu", False)])
def test_bonecracker_on_a_neutral_board_strikes_in_its_neutral_turn(edition, strikes):
    """EL GS-INC-BONECRACKER: "Το ίδιο ισχύει και όταν είναι σε ουδέτερο ταμπλό": the loss repeats at
    the start of the neutral board's Yin phase, and hits the players. HU repeats it in every further
    turn of a living active player (OQ-33), so not on the neutral board's turn."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])
    base.set("seg_incarnation", "seg1", False)
    place(base, "Bonecracker", "blue_2")
    base.set("active", "blue")
    give(base, "yellow", "yellow")
    give(base, "green", "green")
    before = sum(sum(tokens(base, m)) for m in ("yellow", "green"))
    assert before >= 2
    s = game.state_at("play_turn", {}, base, tracing=True)
    turns = [e.text for e in s.log() if e.text.startswith("--- ")]
    # EL: asked in the neutral blue turn; HU: not before the next (yellow) turn begins
    assert turns == (["--- blue board's turn (neutral) ---"] if strikes
                     else ["--- blue board's turn (neutral) ---", "--- yellow monk's turn ---"])
    assert s.prompt() == "which Tao token does the monk discard?"
    n = discard_all(s)
    assert n == 2
    assert sum(sum(tokens(s, m)) for m in ("yellow", "green")) == before - 2


@pytest.mark.parametrize("edition, blocked", [("el", True), ("hu", False)])
def test_forgotten_ones_and_the_neutral_boards_power_tokens(edition, blocked):
    """GS-INC-FORGOTTEN, GS-PTOKEN-7 (ED-21): EL blocks the power tokens too ("συμπεριλαμβανομένων των
    μαρκών ουδέτερης δύναμης"); HU stops the monks' own powers only. When it leaves, the tokens work
    again."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])
    base.set("seg_incarnation", "seg1", False)
    assert base.eval("borrowable(gust)")
    fo = place(base, "Forgotten Ones", "yellow_1")
    assert base.eval("power_disabled(yellow)") and base.eval("power_disabled(green)")
    assert base.eval("borrowable(gust)") is not blocked
    base.set("at", fo, "discard")
    assert base.eval("borrowable(gust)") and not base.eval("power_disabled(yellow)")


# ---------------------------------------------------------------------------------------------
# Buddhas and incarnations
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_uncatchable_arriving_on_a_buddha_keeps_it_curses_then_frees_it_when_exorcised(edition):
    """GS-INC-UNCATCHABLE: it may arrive on a Buddha ("akár kijátszásakor is") and stays there with it;
    its left stone still rolls the curse die for the board's holder (GS-ABIL-CURSEDIE); exorcised, the
    Buddha goes back to the Temple (EL "Ο Βούδας επανατοποθετείται")."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    buddha_away(base, "buddha_on", "yellow_2")
    s = game.state_at("place_ghost", {"g": "c57_uncatchable", "by": "yellow"}, base, tracing=True)
    act(s, "Uncatchable to yellow board slot 2")
    assert s.get("at", "c57_uncatchable") == "yellow_2" and s.get("buddha_on", "yellow_2") == 1
    assert s.prompt() == "roll the curse_die"
    roll(s, "haunt a tile")
    assert s.get("haunted", "ss") is True
    assert s.eval("attackable(c57_uncatchable)")
    s.set("haunted", "ss", False)
    s.set("monk_at", "yellow", "ss")
    x = game.state_at("exorcise", {"m": "yellow"}, s, tracing=True)
    roll(x, "black", "black", "black")
    act(x, "Uncatchable is exorcised")
    act(x, "yellow monk receives 1 Qi")
    assert x.get("at", "c57_uncatchable") == "discard"
    assert x.get("buddha_on", "yellow_2") == 0 and x.get("buddha_temple") == 2
    assert x.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_incarnation_arriving_on_a_buddha_sends_it_home_and_acts(edition):
    """GS-BUDDHA-6, GS-INC-GEN-3, GS-INC-NAMELESS: Nameless is not destroyed by the Buddha on its slot
    (the Buddha goes back to the Temple) and its arrival still sweeps the Circle of Prayer."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    buddha_away(base, "buddha_on", "yellow_1")
    base.set("tao_supply", "red", base.get("tao_supply", "red") - 1)
    base.set("circle_tao", "red", 1)
    s = game.state_at("place_ghost", {"g": "c65_nameless", "by": "yellow"}, base, tracing=True)
    act(s, "Nameless to yellow board slot 1")
    assert s.get("at", "c65_nameless") == "yellow_1"
    assert s.get("buddha_on", "yellow_1") == 0 and s.get("buddha_temple") == 2
    assert s.get("circle_tao", "red") == 0
    assert s.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Nameless, captured dice
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_nameless_makes_the_herbalists_white_results_worthless_until_it_leaves(edition):
    """GS-INC-NAMELESS: white faces are no longer jokers (HU "a kockák fehér oldala nem számít
    joker-nek"; EL p11 "Απλά, ως αποτέλεσμα αγνοείται", simply ignored), which covers the Herbalist's
    white result too (GS-VILLAGE-HERBALIST). After Nameless is discarded the white counts again."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    nl = place(base, "Nameless", "blue_1")
    before = tokens(base, "yellow")
    s = game.state_at("help_herbalist", {"m": "yellow"}, base, tracing=True)
    roll(s, "white", "red")
    after = tokens(s, "yellow")
    assert sum(after) == sum(before) + 1 and after[1] == before[1] + 1
    base.set("at", nl, "discard")
    s = game.state_at("help_herbalist", {"m": "yellow"}, base, tracing=True)
    roll(s, "white", "red")
    assert s.prompt() == "which Tao token?"


@pytest.mark.parametrize("edition", EDITIONS)
def test_three_captured_dice_leave_no_die_but_tokens_still_exorcise(edition):
    """GS-ABIL-CAPTUREDIE, GS-INC-CREEPINGHORROR: Creeping Horror and both Severed Heads hold all three
    Tao dice; the Herbalist rolls none and an exorcism rolls none (OQ-25), but Tao tokens alone still
    exorcise; the Mountain's 4th die is still rolled."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"green": "mountain"})
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    place(base, "Creeping Horror", "green_1")
    place(base, "c47_severed_heads", "blue_1")
    sh = place(base, "c48_severed_heads", "yellow_2")
    assert base.eval("captured_dice") == 3
    assert base.eval("exorcism_dice(yellow)") == 0 and base.eval("exorcism_dice(green)") == 1
    h = game.state_at("help_herbalist", {"m": "yellow"}, base, tracing=True)
    assert not any(e.text.startswith("tao_die:") for e in h.log())
    assert tokens(h, "yellow") == tokens(base, "yellow")
    base.set("monk_at", "yellow", "ss")
    give(base, "yellow", "black", 1 - base.get("tao", "yellow", "black"))
    x = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    assert not x.is_chance_node()
    act(x, "Severed Heads is exorcised")
    assert spend_all(x) == 1
    act(x, "takes a red Tao token")
    assert x.get("at", sh) == "discard" and x.eval("captured_dice") == 2
    assert x.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Two blocking effects at once
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_black_widow_leaving_does_not_lift_dark_mistress(edition):
    """GS-ABIL-NOTAO, GS-INC-DARKMISTRESS, GS-GHOST-4: two ghosts block the Tao tokens; exorcising one
    (Black Widow, with the Circle of Prayer's help) leaves the tokens blocked by the other."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    bw = place(base, "c50_black_widow", "yellow_2")
    place(base, "Dark Mistress", "blue_1")
    base.set("monk_at", "yellow", "ss")
    give(base, "blue", "black", -base.get("tao", "blue", "black"))
    base.set("tao_supply", "black", base.get("tao_supply", "black") - 1)
    base.set("circle_tao", "black", 1)
    x = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(x, "black", "red", "green")
    act(x, "Black Widow is exorcised")
    roll(x, "no effect")
    act(x, "takes 1 Qi")
    assert x.get("at", bw) == "discard"
    assert x.eval("tao_tokens_blocked")
    assert x.eval("usable_tokens(yellow, yellow)") == 0
    assert x.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Empty supplies, the Mountain, curses before rewards
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_incarnation_reward_with_an_empty_qi_supply_gives_only_the_yin_yang(edition):
    """GS-INC-GEN-5, GS-ABIL-INCREWARD: with no Qi left in the supply only the Yin-Yang is handed out,
    to a monk who spent his."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    vl = place(base, "Vampire Lord", "yellow_2")
    base.set("figure", vl, "none")
    set_qi(base, "red", base.get("qi", "red") + base.get("qi_supply"))
    assert base.get("qi_supply") == 0
    base.set("yinyang", "green", 0)
    base.set("yinyang_supply", "green", 1)
    base.set("monk_at", "yellow", "ss")
    give(base, "yellow", "yellow", 1 - base.get("tao", "yellow", "yellow"))
    x = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(x, "yellow", "yellow", "white")
    act(x, "Vampire Lord is exorcised")
    spend_all(x)
    assert x.prompt() == "who receives the incarnation's Yin-Yang?"
    assert labels(x) == ["green monk takes back the Yin-Yang"]
    act(x, "green monk takes back the Yin-Yang")
    assert x.get("yinyang", "green") == 1
    assert x.is_terminal() and x.outcome().result == "win"


@pytest.mark.parametrize("edition", EDITIONS)
def test_hope_killer_exorcised_by_the_mountain_rolls_no_curse(edition):
    """GS-INC-HOPEKILLER, GS-CURSE-3, GS-POWER-GREEN-MOUNTAIN: Hope Killer's exorcism curse is not rolled
    by the green Mountain monk, whose 4th die counts; the reward follows."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"green": "mountain"})
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "green")
    place(base, "Hope Killer", "green_2")
    base.set("monk_at", "green", "nn")
    for c in ("blue", "red", "green", "yellow"):
        give(base, "green", c, 2 - base.get("tao", "green", c))
    x = game.state_at("exorcise", {"m": "green"}, base, tracing=True)
    act(x, "green monk rolls the 4th Tao die too")
    roll(x, "blue", "blue", "red", "red")
    act(x, "Hope Killer is exorcised")
    assert spend_all(x) == 4
    assert x.prompt() == "who receives the incarnation's Qi?"
    assert any("never rolls the curse die" in e.text for e in x.log())
    act(x, "green monk receives 1 Qi")
    assert x.is_terminal() and x.outcome().result == "win"


@pytest.mark.parametrize("edition", EDITIONS)
def test_qi_or_yin_yang_reward_with_nothing_left_to_give(edition):
    """GS-ABIL-REWARD-QIYY, GS-CURSE-2: the Yin-Yang comes back only if it was spent; with an empty Qi
    supply and an unspent Yin-Yang the reward gives nothing."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    dw = place(base, "c52_dark_wraith", "yellow_2", figure="none")
    set_qi(base, "red", base.get("qi", "red") + base.get("qi_supply"))
    base.set("monk_at", "yellow", "ss")
    gather(base, "yellow", "black", 3)  # EL: each monk starts with a black token, the supply has none left (GS-SETUP-4)
    x = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(x, "red", "red", "red")
    act(x, "Dark Wraith is exorcised")
    spend_all(x)
    assert x.prompt() == "reward: 1 Qi or the Yin-Yang back?"
    assert labels(x) == ["no reward left in the supply"]
    act(x, "no reward left in the supply")
    assert x.get("at", dw) == "discard" and x.get("qi", "yellow") == 4
    assert x.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# A dead monk's board
# ---------------------------------------------------------------------------------------------

def test_bonecracker_and_death_army_on_a_dead_monks_board():
    """EL: a dead monk's board still has its Yin phase (GS-TURN-2): Bonecracker takes a token from each
    living monk (the dead red monk has none, GS-DEATH-1), then Death Army torments; its "lose 1 Qi"
    falls on the possessed board and is taken over by a living monk (GS-INC-BONECRACKER,
    GS-INC-DEATHARMY, GS-ABIL-TEAM)."""
    game = gs_game(edition="el")
    base = set_up(game)
    base.set("seg_incarnation", "seg1", False)
    kill(base, "red")
    place(base, "Death Army", "red_2")
    place(base, "Bonecracker", "red_1")
    base.set("active", "red")
    s = game.state_at("play_turn", {}, base, tracing=True)
    assert [s.current_player_name()] == ["yellow"]
    assert discard_all(s) == 3
    assert s.prompt() == "roll the curse_die"
    roll(s, "lose 1 Qi")
    assert s.prompt() == "who takes the Qi loss of the possessed board?"
    act(s, "blue monk takes the loss")
    assert s.get("qi", "blue") == 3 and s.get("qi", "red") == 0
    assert s.check_invariants() == []


def test_an_exorcist_killed_by_the_incarnations_curse_leaves_the_reward_to_a_living_monk():
    """GS-INC-GEN-5 ("a játékosok eldönthetik, melyikük kapja a jutalmat"; EL p7 "Οι παίκτες αποφασίζουν"):
    the team decides who gets the incarnation's Qi. At Nightmare, the yellow monk at 1 Qi exorcises Hope
    Killer (not the last incarnation) and its curse die takes his last Qi: the choice goes to a living
    monk (the team's voice, OQ-14), not to the dead exorcist, and the dead monk is not among the options."""
    from test_gs_audit import exorcise_from, last_exorcism_with_cards_left
    game = gs_game(level="nightmare")
    base = last_exorcism_with_cards_left(game, "el", 5)
    base.set("at", "c56_howling_nightmare", "green_1")  # another incarnation, still in play
    base.set("incarnations_left", 2)
    set_qi(base, "yellow", 1)
    s = exorcise_from(game, base, "Hope Killer is exorcised")
    roll(s, "lose 1 Qi")
    assert s.get("alive", "yellow") is False
    assert s.prompt() == "who receives the incarnation's Qi?"
    assert s.current_player_name() == "red"
    assert not any(label.startswith("yellow") for label in labels(s)), labels(s)
