"""Ghost Stories: a second audit of the eight monk powers (GS-POWER-*) and the exorcism rules they touch
(GS-EXO-*, GS-PTOKEN-*), in exact positions, in both editions where the texts differ: a power whose
board is disabled, a borrowed power, powers combined in one turn, Nameless, captured dice, the blue
monk's second action after a curse, the Favourite's rerolls, the Mountain's 4th die, the Mantra's
token, the Twin Winds and the Peaks.

Layout (gs_helpers.LAYOUT):

    Herbalist(nw)   Tea House(nn)   Pavilion(ne)        green board (north)
    Sorcerer(ww)    Watchman(cc)    Temple(ee)     red (west)      blue (east)
    Circle(sw)      Cemetery(ss)    Altar(se)           yellow board (south)
"""

from __future__ import annotations

import pytest

from gs_helpers import act, borrow_then_try_to_exorcise, exorcism_rolling, gs_game, kill, labels, place, roll, set_qi, set_up

EDITIONS = ("el", "hu")


# ---- GS-PTOKEN-1, GS-POWER-GEN-1: a borrowed power dies with its board ------------------------

def full_village_three_players(edition):
    """3 players (yellow, red, blue; blue has the Heavenly Gust, one power token); the neutral green
    board shows the Strength of the Mountain. The blue, yellow and red boards are full, so the next
    ghost goes to the green board. Skinner (red 1) on green_2 faces the Tea House (nn), where the blue
    monk stands; his Yang phase begins."""
    game = gs_game(players=3, edition=edition)
    base = set_up(game, playing=["yellow", "red", "blue"])
    fill = ["c06_zombie", "c01_ghoul", "c02_walking_corpse", "c05_restless_dead", "c07_zombie",
            "c10_yellow_plague", "c12_drowned_maiden", "c16_sticky_feet", "c19_ooze_devil"]
    for i, board in enumerate(("blue", "yellow", "red")):
        for k in (1, 2, 3):
            place(base, fill[3 * i + k - 1], f"{board}_{k}")
    place(base, "c34_skinner", "green_2")
    base.set("monk_at", "blue", "nn")
    base.set("active", "blue")
    return game, game.state_at("yang_phase", {"m": "blue"}, base, tracing=True)


def borrow_mountain_and_call_the_tea_house(s):
    act(s, "spends a power token for Strength of the Mountain")
    while s.prompt() != "move?":
        act(s, labels(s)[0])
    act(s, "stays on")
    while s.prompt() != "ask for help or exorcise?":
        act(s, labels(s)[0])
    act(s, "asks Tea House for help")
    while not s.is_chance_node():
        act(s, labels(s)[0])  # the Tea House's Tao token
    assert s.prompt() == "draw a card"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_borrowed_power_stops_when_a_ghost_disables_its_board(edition):
    """GS-PTOKEN-1, GS-ABIL-NOPOWER, GS-POWER-GEN-1, GS-POWER-GREEN-MOUNTAIN: the blue monk borrows the
    neutral green board's Mountain, then the Tea House brings Coffin Breaker (disable power) onto the
    green board. A borrowed power is that board's power, and "Amíg ezt a szellemet el nem űzik, az
    általa elfoglalt tábla Ereje nem használható" (HU aid; EL p14 "η δύναμη του ταμπλό, όπου
    βρίσκεται η κάρτα του φαντάσματος, δεν μπορεί να χρησιμοποιηθεί"). The Heavenly Gust's exorcism
    that follows rolls 3 Tao dice, not 4. The engine used to keep the borrowed power: 4 dice."""
    game, s = full_village_three_players(edition)
    borrow_mountain_and_call_the_tea_house(s)
    roll(s, "Coffin Breaker")
    act(s, "Coffin Breaker to green board slot 1")
    roll(s, "Hopping Vampire")  # Coffin Breaker brings another ghost: the last free slot, green_3
    while s.prompt() != "ask for help or exorcise?":
        act(s, labels(s)[0])
    assert s.get("at", "c03_coffin_breaker") == "green_1"
    assert s.eval("has_power(blue, mountain)") is False
    act(s, "tries to exorcise")
    roll(s, "red", "green", "blue")
    assert not s.is_chance_node(), "a 4th Tao die was rolled"
    assert s.eval("exorcism_dice(blue)") == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_borrowed_power_without_a_disabling_ghost_keeps_acting(edition):
    """GS-PTOKEN-1 (control): the Tea House brings Hopping Vampire (no power-disabling ability) onto the
    green board: the borrowed Mountain still gives the 4th die."""
    game, s = full_village_three_players(edition)
    borrow_mountain_and_call_the_tea_house(s)
    roll(s, "Hopping Vampire")
    while s.prompt() != "ask for help or exorcise?":
        act(s, labels(s)[0])
    assert s.get("at", "c08_hopping_vampire") in ("green_1", "green_3")
    assert s.eval("has_power(blue, mountain)") is True
    act(s, "tries to exorcise")
    act(s, "blue monk rolls the 4th Tao die too")
    roll(s, "red", "green", "blue", "yellow")
    assert s.eval("exorcism_dice(blue)") == 4


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_borrowed_power_stops_when_its_board_is_possessed(edition):
    """GS-PTOKEN-1, GS-HBOARD-1: "A megszállott tábla Ereje hatástalanná válik" (HU); EL p10 "Η
    δύναμη που του αντιστοιχεί δεν γίνεται πλέον να χρησιμοποιηθεί μέσω των μαρκών ουδέτερης
    δύναμης". The green neutral board loses its last Qi after the Mountain was borrowed (e.g. a
    whole-team Qi loss): the power stops acting."""
    game, s = full_village_three_players(edition)
    act(s, "spends a power token for Strength of the Mountain")
    assert s.eval("has_power(blue, mountain)") is True
    set_qi(s, "green", 0)
    assert s.eval("possessed(green)") is True
    assert s.eval("has_power(blue, mountain)") is False
    assert s.eval("exorcism_dice(blue)") == 3


# ---- Checked and right: the blue monk's second action after a curse -------------------------

def blue_exorcises_the_zombie(game, base):
    """The blue monk, on the Temple (ee), exorcises the Zombie on blue_2 with yellow, yellow, red; the
    Zombie's curse die comes next."""
    place(base, "c06_zombie", "blue_2")
    base.set("monk_at", "blue", "ee")
    base.set("active", "blue")
    s = game.state_at("take_actions", {"m": "blue"}, base, tracing=True)
    act(s, "tries to exorcise")
    roll(s, "yellow", "yellow", "red")
    act(s, "Zombie is exorcised")
    return s


@pytest.mark.parametrize("edition", EDITIONS)
def test_gust_no_help_after_the_curse_haunts_the_monks_tile(edition):
    """GS-POWER-BLUE-GUST, GS-CURSEDIE-B, GS-YANG-3: the blue monk exorcises the Zombie (blue_2) from the
    Temple; its curse die haunts the first active tile in front of it, the Temple itself. A haunted
    tile shows no villager, so the Gust's help is no longer offered."""
    game = gs_game(edition=edition)
    s = blue_exorcises_the_zombie(game, set_up(game))
    roll(s, "haunt a tile")
    assert s.get("haunted", "ee") is True
    assert not any("asks Buddhist Temple for help" in e.text for e in s.log())
    assert not any(e.text.startswith("blue monk chooses: blue monk asks") for e in s.log())


@pytest.mark.parametrize("edition", EDITIONS)
def test_second_wind_no_second_exorcism_after_the_curse_kills_him(edition):
    """GS-POWER-BLUE-SECONDWIND, GS-CURSEDIE-E, GS-DEATH-1: the blue monk (1 Qi) exorcises the Zombie;
    its curse die takes his last Qi. A dead monk cannot act: no second exorcism of Bleeding Eyes."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"blue": "secondwind"})
    set_qi(base, "blue", 1)
    s = blue_exorcises_the_zombie(game, base)
    roll(s, "lose 1 Qi")
    assert s.get("alive", "blue") is False
    assert sum(e.text == "blue monk attempts to exorcise Zombie" for e in s.log()) == 1
    assert "tries to exorcise" not in " ".join(labels(s))


# ---- Checked and right: the Twin Winds and a haunted tile ------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_twin_winds_may_move_a_monk_onto_a_haunted_tile(edition):
    """GS-POWER-RED-TWINWINDS, GS-YANG-2: the other monk moves "by the normal movement rules" (EL p8
    "σύμφωνα με τους κανόνες κίνησης"; HU "léphet egyet"): one step, and nothing forbids a haunted
    tile. The yellow monk on the Tea House may be moved to the haunted Herbalist, not two steps away."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"red": "twinwinds"})
    base.set("haunted", "nw", True)
    base.set("monk_at", "yellow", "nn")
    base.set("monk_at", "red", "ss")
    base.set("active", "red")
    s = game.state_at("twin_winds", {"m": "red"}, base, tracing=True)
    assert "move red monk" not in labels(s)
    act(s, "move yellow monk")
    assert "yellow monk moves to Herbalist" in labels(s)
    assert "yellow monk moves to Circle of Prayer" not in labels(s)
    act(s, "yellow monk moves to Herbalist")
    assert s.get("monk_at", "yellow") == "nw"


# ---- Checked and right: the Mountain with a captured die, the Favourite borrowed -------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_mountain_with_a_captured_die_rolls_three_and_no_curse_die(edition):
    """GS-POWER-GREEN-MOUNTAIN, GS-ABIL-CAPTUREDIE, GS-EXO-2: Severed Heads holds a Tao die; the green
    Mountain monk rolls 2 + his 4th die = 3 dice against the Zombie, and never the curse die."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c47_severed_heads", "red_2")
    place(base, "c06_zombie", "green_2")
    base.set("monk_at", "green", "nn")
    base.set("active", "green")
    assert base.eval("exorcism_dice(green)") == 3
    s = game.state_at("exorcise", {"m": "green"}, base, tracing=True)
    act(s, "green monk rolls the 4th Tao die too")
    roll(s, "yellow", "yellow", "red")
    assert not s.is_chance_node()
    act(s, "Zombie is exorcised")
    assert s.get("at", "c06_zombie") == "discard"
    assert any(e.text == "green monk never rolls the curse die" for e in s.log())


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_borrowed_favourite_rerolls_the_curse_die(edition):
    """GS-POWER-GREEN-FAVOURITE, GS-PTOKEN-1: 2 players (red, blue); the neutral green board shows the
    Favourite of the Gods. The blue monk borrows it, rerolls one Tao die of his exorcism (only that
    one: the other two stay), then rerolls the Zombie's curse die and must keep the second."""
    game = gs_game(players=2, edition=edition)
    base = set_up(game, playing=["red"], powers={"green": "favourite"})
    place(base, "c06_zombie", "blue_2")
    base.set("monk_at", "blue", "ee")
    base.set("active", "blue")
    s = game.state_at("yang_phase", {"m": "blue"}, base, tracing=True)
    borrow_then_try_to_exorcise(s, "Favourite of the Gods")
    roll(s, "yellow", "red", "green")
    act(s, "reroll some dice")
    while s.prompt().startswith("how many"):
        f = s.prompt().split()[2]
        act(s, f"reroll {1 if f == 'red' else 0} {f}")
    roll(s, "yellow")
    assert s.get("tray", "yellow") == 2 and s.get("tray", "green") == 1 and s.get("tray", "red") == 0
    act(s, "Zombie is exorcised")
    roll(s, "lose 1 Qi")
    assert s.prompt() == "keep the curse die or roll it again?"
    act(s, "reroll")
    roll(s, "no effect")
    assert not any("blue monk loses 1 Qi" in e.text for e in s.log())


# ---- Checked and right: the Mantra's token -------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_a_borrowed_mantra_moves_from_ghost_to_ghost(edition):
    """GS-POWER-YELLOW-MANTRA, GS-PTOKEN-1: 2 players (red, blue); the neutral yellow board shows the
    Mantra, which lies on Hopping Vampire. The blue monk borrows it and moves it onto Skinner: the
    token leaves Hopping Vampire (one token only)."""
    game = gs_game(players=2, edition=edition)
    base = set_up(game, playing=["red"], powers={"yellow": "mantra"})
    vamp = place(base, "c08_hopping_vampire", "yellow_2")
    skin = place(base, "c34_skinner", "red_2")
    base.set("mantra_home", 0)
    base.set("mantra_on", vamp, 1)
    base.set("active", "blue")
    s = game.state_at("yang_phase", {"m": "blue"}, base, tracing=True)
    act(s, "spends a power token for Weakening Mantra")
    while s.prompt() != "Weakening Mantra: place or move the token?":
        act(s, labels(s)[0])
    assert not any(x.startswith("put the Mantra on Hopping Vampire") for x in labels(s))
    act(s, "put the Mantra on Skinner")
    assert s.get("mantra_on", vamp) == 0 and s.get("mantra_on", skin) == 1
    assert s.eval(f"need({vamp}, yellow)") == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_mantra_leaves_the_game_when_the_yellow_monk_dies(edition):
    """GS-POWER-YELLOW-MANTRA-3, GS-HBOARD-1: the yellow monk (1 Qi, Mantra on Hopping Vampire) loses his
    last Qi; his board is possessed and its power inactive ("A megszállott tábla Ereje hatástalanná
    válik"), so the Mantra leaves the game at once and the Vampire needs 3 yellow results again."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"yellow": "mantra"})
    vamp = place(base, "c08_hopping_vampire", "red_2")
    base.set("mantra_home", 0)
    base.set("mantra_on", vamp, 1)
    set_qi(base, "yellow", 1)
    s = game.state_at("lose_qi", {"m": "yellow"}, base, tracing=True)
    assert s.get("alive", "yellow") is False
    assert s.get("mantra_on", vamp) == 0 and s.get("mantra_out") == 1
    assert s.eval(f"need({vamp}, yellow)") == 3


# ---- Checked and right: the Mountain and the Cemetery's curse die (ED-17) --------------------

@pytest.mark.parametrize("edition, rolls", [("el", False), ("hu", True)])
def test_mountain_and_the_cemetery_curse_die(edition, rolls):
    """GS-POWER-GREEN-MOUNTAIN, GS-VILLAGE-CEMETERY-2: the green Mountain monk revives the yellow monk.
    EL: the active player rolls the curse die, and the green monk "δεν ρίχνει ποτέ το Καταραμένο
    ζάρι": no roll. HU: the revived monk rolls ("Kap 2 Qi-t, majd dobnia kell az Átok-kockával"), and
    he has no Mountain."""
    game = gs_game(edition=edition)
    base = set_up(game)
    kill(base, "yellow")
    base.set("monk_at", "green", "ss")
    base.set("active", "green")
    s = game.state_at("take_actions", {"m": "green"}, base, tracing=True)
    act(s, "asks Cemetery for help")
    act(s, "yellow monk comes back to life")
    assert (s.prompt() == "roll the curse_die") is rolls
    assert any(e.text == "green monk never rolls the curse die" for e in s.log()) is not rolls


def test_second_wind_asks_twice_only_on_the_tile_where_it_began():
    """GS-POWER-BLUE-SECONDWIND (HU "Az általa elfoglalt helyszínen kétszer kérheti az ott lévő falubeli
    segítségét"; EL p9 "Από το πλακίδιο που βρίσκεται, μπορεί να ζητήσει 2 φορές τη βοήθεια ενός χωρικού"):
    the villager of his tile, twice. Solo, EL's Pavilion may move his own monk; moved to the Herbalist by
    the first help, he was offered the Herbalist's help as the second one."""
    game = gs_game(players=1, edition="el")
    base = set_up(game, powers={"blue": "secondwind"}, playing=["blue"])
    base.set("monk_at", "blue", "ne")
    base.set("active", "blue")
    place(base, "c06_zombie", "blue_2")
    s = game.state_at("take_actions", {"m": "blue"}, base, tracing=True)
    act(s, "blue monk asks Pavilion")
    act(s, "no ghost is moved")
    act(s, "move blue monk")
    act(s, "blue monk moves to Herbalist")
    assert s.get("monk_at", "blue") == "nw"
    assert not any("asks Herbalist" in e.text for e in s.log())
    assert s.prompt() != "ask for help or exorcise?", labels(s)
