"""Ghost Stories: an audit of the monk powers (GS-POWER-*), the Yin phase (GS-YIN-*), ghost placement
(GS-PLACE-*) and exorcism (GS-EXO-*) against both rulebooks (HU older edition, EL revised edition), in
exact positions that random play rarely reaches. The village layout and the Circle of Prayer corner
(sw, facing yellow_1 and red_1) are those drawn in test_gs_audit.py.
"""

from __future__ import annotations

import pytest

from gs_helpers import COLOURS, act, exorcism_rolling, give, gs_game, labels, place, roll, set_up, yin_phase_of

EDITIONS = ["el", "hu"]


def no_tokens(state, monk):
    for c in COLOURS:
        give(state, monk, c, -state.get("tao", monk, c))


# ---- Yin phase ------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_a_tormentor_that_arrives_during_step_1_does_not_roll_in_the_same_yin_phase(edition):
    """GS-YIN-1, GS-YIN-5: step 1 resolves the middle stones of the ghosts on the board at the start of
    the turn. HU: "Köre kezdetén a játékos teljesíti a tábláján lévő összes szellem közéső kövén
    található utasításokat"; EL p4: "Στην αρχή της σειράς του, ο ενεργός παίκτης αναγγέλλει (?) τα
    φαντάσματα που υπάρχουν στο ταμπλό του. Οι ιδιότητες της κεντρικής πέτρας των φαντασμάτων
    εφαρμόζονται τώρα". Lich (a yellow tormentor) rolls "a new ghost"; the black tormentor Soul Eater
    arrives on the yellow (active) board. It was not on the board when step 1 began, so it does not
    roll now (as a haunter arriving in step 1 does not move); the Yin phase goes on to step 3. The
    engine used to let Soul Eater roll the curse die in the same step 1."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c11_lich", "yellow_1")
    s = yin_phase_of(game, base, "yellow")
    roll(s, "bring a ghost")
    roll(s, "Soul Eater")
    act(s, "Soul Eater to yellow board slot 2")
    while not s.is_chance_node() and labels(s) and "discards" in labels(s)[0]:
        act(s, labels(s)[0])  # Soul Eater's left stone: every monk discards a Tao token
    assert s.is_chance_node() and s.prompt() == "draw a card", "step 3 follows, no second curse roll"
    assert not any("tormentor Soul Eater" in e.text for e in s.log())
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_both_tormentors_on_the_board_at_the_start_roll(edition):
    """GS-YIN-5 (control): two tormentors on the board at the start of the turn both roll."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c11_lich", "yellow_1")
    place(base, "c55_soul_eater", "yellow_3")
    s = yin_phase_of(game, base, "yellow")
    act(s, "Lich torments first")
    roll(s, "no effect")
    roll(s, "no effect")
    assert sum("makes yellow monk roll the curse die" in e.text for e in s.log()) == 2
    assert s.prompt() == "draw a card"


# ---- Exorcism: the Weakening Mantra on a multi-colour incarnation ----------------------------

def mantra_corner(game, tokens):
    """Hope Killer (2 blue, 2 red, 2 green, 2 yellow) carries the Weakening Mantra on red_1; Dark Wraith
    (black 3) is on yellow_1; the yellow monk stands on the corner between them with ``tokens``."""
    base = set_up(game, powers={"yellow": "mantra"})
    base.set("seg_incarnation", "seg1", False)
    hope = place(base, "Hope Killer", "red_1")
    place(base, "c52_dark_wraith", "yellow_1")
    base.set("mantra_home", 0)
    base.set("mantra_on", hope, 1)
    no_tokens(base, "yellow")
    for c, n in tokens.items():
        give(base, "yellow", c, n)
    base.set("monk_at", "yellow", "sw")
    base.set("active", "yellow")
    return base


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_mantra_on_a_multicolour_incarnation_does_not_lower_the_other_ghosts_need(edition):
    """GS-POWER-YELLOW-MANTRA-4, GS-EXO-7, GS-EXO-3: against a multi-colour incarnation the Mantra's -1
    goes to a colour chosen after the roll, but it lowers the resistance of the ghost it lies on only
    (HU: "Az így gyengített szellem ellenállása 1-gyel csökken"; EL p8: "Το φάντασμα υπό την
    επίδραση του Mantra αποκτά μειωμένη αντοχή κατά 1"; EL p8: "το χρώμα του Mantra μπορεί να
    επιλεγεί μετά τη ζαριά"). Dice black, black, red: Dark Wraith lacks a black result, which no
    token can give, so it cannot fall; Hope Killer alone can (tokens + Mantra). The engine used to
    count the Mantra against the missing black result and offered to exorcise both."""
    game = gs_game(edition=edition)
    base = mantra_corner(game, {"blue": 2, "red": 2, "green": 2, "yellow": 2})
    s = exorcism_rolling(game, base, "yellow", "black", "black", "red", tracing=True)
    assert "Dark Wraith and Hope Killer are exorcised" not in labels(s)
    assert "Hope Killer is exorcised (red board slot 1)" in labels(s)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_mantra_covers_a_missing_colour_of_the_incarnation_in_a_corner(edition):
    """GS-POWER-YELLOW-MANTRA-4 (control): with one yellow token short, the Mantra's -1 goes to Hope
    Killer's yellow after the roll; three black dice defeat Dark Wraith: both fall."""
    game = gs_game(edition=edition)
    base = mantra_corner(game, {"blue": 2, "red": 2, "green": 2, "yellow": 1})
    s = exorcism_rolling(game, base, "yellow", "black", "black", "black", tracing=True)
    assert labels(s) == ["Dark Wraith and Hope Killer are exorcised", "Dark Wraith is exorcised (yellow board slot 1)"]
    act(s, "Dark Wraith and Hope Killer are exorcised")
    while labels(s) and labels(s)[0].startswith("spend a "):
        act(s, labels(s)[0])
    assert sum(s.get("tao", "yellow", c) for c in COLOURS) == 0
    assert s.get("at", "c58_hope_killer") == "discard" or s.prompt() != "spend which Tao token?"


# ---- Exorcism: the obligation to exorcise a ghost the dice alone defeat ---------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_a_ghost_the_dice_alone_defeat_cannot_be_left_for_the_other_one(edition):
    """GS-EXO-8, GS-EXO-7, GS-EXO-9: the rulebook's corner (Bleeding Eyes, red 2, and Perfidious Nymph,
    blue 1). Dice red, blue, green and one red Tao token: the blue die alone defeats the Nymph, and with
    the token both ghosts fall. HU: "egy játékosnak sosem muszáj Tao-jelzőt költenie, ha nem akar, de
    ha a kockadobás elegendő egy szellem legyőzéséhez, akkor azt mindenképpen el kell űznie"; EL p6:
    "αν η ζαριά επαρκεί για τον εξορκισμό ενός φαντάσματος, πρέπει να το εξορκίσει". The choice of
    GS-EXO-9 (EL p6: "επιτρέπει τον εξορκισμό οποιωνδήποτε από τα 2 (αλλά όχι και των 2)") does not
    arise, since both can fall. So the player exorcises both (spending the token) or the Nymph alone,
    never Bleeding Eyes alone. The engine used to offer Bleeding Eyes alone."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c38_bleeding_eyes", "red_1")
    place(base, "c15_perfidious_nymph", "yellow_1")
    no_tokens(base, "yellow")
    give(base, "yellow", "red", 1)
    base.set("monk_at", "yellow", "sw")
    base.set("active", "yellow")
    s = exorcism_rolling(game, base, "yellow", "red", "blue", "green", tracing=True)
    assert sorted(labels(s)) == ["Perfidious Nymph and Bleeding Eyes are exorcised",
                                 "Perfidious Nymph is exorcised (yellow board slot 1)"]
    assert not any(x.startswith("Bleeding Eyes is exorcised") for x in labels(s))


@pytest.mark.parametrize("edition", EDITIONS)
def test_either_ghost_when_the_dice_cannot_defeat_both(edition):
    """GS-EXO-9 (control): dice red, blue, green and no token: the dice defeat the Nymph, Bleeding Eyes
    cannot fall; dice red, white, green and a red token: the dice alone defeat either ghost but not
    both, so the player may pick either, or both with the token."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c38_bleeding_eyes", "red_1")
    place(base, "c15_perfidious_nymph", "yellow_1")
    no_tokens(base, "yellow")
    base.set("monk_at", "yellow", "sw")
    base.set("active", "yellow")
    s = exorcism_rolling(game, base, "yellow", "red", "blue", "green", tracing=True)
    assert labels(s) == ["Perfidious Nymph is exorcised (yellow board slot 1)"]
    give(base, "yellow", "red", 1)
    s = exorcism_rolling(game, base, "yellow", "red", "white", "green", tracing=True)
    assert sorted(labels(s)) == ["Bleeding Eyes is exorcised (red board slot 1)",
                                 "Perfidious Nymph and Bleeding Eyes are exorcised",
                                 "Perfidious Nymph is exorcised (yellow board slot 1)"]


# ---- Checked and right: the Mantra on a single-colour incarnation, the Mountain and dead boards --

@pytest.mark.parametrize("edition", EDITIONS)
def test_the_mantra_on_a_single_colour_incarnation_lowers_its_resistance(edition):
    """GS-POWER-YELLOW-MANTRA, GS-EXO-10: the Mantra goes on "any ghost in play" (HU: "bármely játékban
    lévő szellemre"), an incarnation too: Death Army (black 5) with the Mantra needs 4 black results."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"yellow": "mantra"})
    army = place(base, "Death Army", "yellow_2")
    assert base.eval(f"need({army}, black)") == 5
    base.set("mantra_home", 0)
    base.set("mantra_on", army, 1)
    assert base.eval(f"need({army}, black)") == 4


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_mountain_protects_only_a_living_green_monk(edition):
    """GS-POWER-GREEN-MOUNTAIN, GS-YIN-5, GS-HBOARD-3: Great Putrid (a tormentor) on the green board: the
    green Mountain monk never rolls the curse die (HU: "soha nem kell dobnia az Átok-kockával"); once
    he is dead his board rolls, and its Qi loss goes to a player of the team's choice."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c33_great_putrid", "green_1")
    s = yin_phase_of(game, base, "green")
    assert any(e.text == "green monk never rolls the curse die" for e in s.log())
    assert s.prompt() == "draw a card"
    base.set("qi_supply", base.get("qi_supply") + base.get("qi", "green"))
    base.set("qi", "green", 0)
    base.set("alive", "green", False)
    base.set("monk_at", "green", "ss")
    s = game.state_at("yin_phase", {"m": "green"}, base, tracing=True)
    roll(s, "lose 1 Qi")
    assert s.prompt() == "who takes the Qi loss of the possessed board?"
