"""Ghost Stories readings left by earlier sessions, settled (tenth session).

- GS-PTOKEN-1: after the move, a power token is no longer offered for a power whose own text places
  it before the move (Bottomless Pockets, Weakening Mantra, EL's Twin Winds) or in it (Dance of the
  Peaks); HU's Twin Winds ("Mozgása után", after his move) may still be borrowed then, and acts.
- GS-VILLAGE-CEMETERY: nobody comes back from an empty Qi supply (a monk with no Qi is dead), so the
  Cemetery is not offered then; with 1 Qi left the revived monk has 1.
- OQ-47 (Yin-Yang between the Heavenly Gust's two actions) and OQ-48 (a corner exorcism where the
  dice alone beat A and tokens would beat B instead): recorded; the tests pin the reading taken.

Layout (gs_helpers.LAYOUT):

    Herbalist(nw)   Tea House(nn)   Pavilion(ne)        green board (north)
    Sorcerer(ww)    Watchman(cc)    Temple(ee)     red (west)      blue (east)
    Circle(sw)      Cemetery(ss)    Altar(se)           yellow board (south)
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import ghostrules
from gs_helpers import COLOURS, act, exorcism_rolling, give, gs_game, kill, labels, place, roll, set_qi, set_up

SPECS = Path(__file__).resolve().parent.parent / "specs" / "ghost-stories"
EDITIONS = ("el", "hu")


# ---- GS-PTOKEN-1: a borrowed power keeps its own moment --------------------------------------

def solo_yang(edition):
    """Solo blue monk (3 power tokens); the neutral boards show Bottomless Pockets (yellow), Dance
    of the Peaks (red, GS-SETUP-SOLO-1) and Strength of the Mountain (green). His Yang phase begins."""
    game = gs_game(players=1, edition=edition)
    base = set_up(game, playing=["blue"])
    base.set("active", "blue")
    return game.state_at("yang_phase", {"m": "blue"}, base)


def to_move(s):
    """Decline every decision up to the move (the first option: keep, take nothing...)."""
    while s.prompt() != "move?":
        act(s, labels(s)[0])


def spend_labels(s):
    return sorted(x for x in labels(s) if "spends a power token" in x)


@pytest.mark.parametrize("edition", EDITIONS)
def test_before_the_move_every_neutral_power_may_be_borrowed(edition):
    """GS-PTOKEN-1: before the move the token window offers all three neutral powers."""
    s = solo_yang(edition)
    assert s.prompt() == "spend a power token?"
    assert spend_labels(s) == ["blue monk spends a power token for Bottomless Pockets",
                               "blue monk spends a power token for Dance of the Peaks",
                               "blue monk spends a power token for Strength of the Mountain"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_after_the_move_no_token_for_pockets_or_peaks(edition):
    """GS-PTOKEN-1, GS-POWER-YELLOW-POCKETS ("mozgás előtt", before moving), GS-POWER-RED-PEAKS
    ("Mozgása során", during his movement): after the move only the Mountain can still act, so only
    it is offered; before the fix Pockets and Peaks were offered too and a token spent on them did
    nothing."""
    s = solo_yang(edition)
    act(s, "keep the power tokens")
    to_move(s)
    act(s, "stays on")
    assert s.prompt() == "spend a power token?"
    assert spend_labels(s) == ["blue monk spends a power token for Strength of the Mountain"]
    act(s, "spends a power token for Strength of the Mountain")
    assert s.get("power_token", "blue") == 2 and s.get("power_token_centre") == 1
    assert s.eval("has_power(blue, mountain)") is True


def three_player_yang(edition):
    """3 players (yellow, green, blue, one power token each); the neutral red board shows the Dance of
    the Twin Winds. The blue monk's Yang phase begins."""
    game = gs_game(players=3, edition=edition)
    base = set_up(game, playing=["yellow", "green", "blue"], powers={"red": "twinwinds"})
    base.set("active", "blue")
    return game.state_at("yang_phase", {"m": "blue"}, base)


def test_el_twin_winds_is_not_offered_after_the_move():
    """GS-PTOKEN-1, GS-POWER-RED-TWINWINDS (EL "Πριν κινηθεί", before he moves): after the move the
    Twin Winds' moment has passed, so the power token window does not open for it."""
    s = three_player_yang("el")
    assert spend_labels(s) == ["blue monk spends a power token for Dance of the Twin Winds"]
    act(s, "keep the power tokens")
    to_move(s)
    act(s, "stays on")
    assert s.prompt() != "spend a power token?"
    assert s.get("power_token", "blue") == 1


def test_hu_twin_winds_borrowed_after_the_move_moves_another_monk():
    """GS-PTOKEN-1, GS-POWER-RED-TWINWINDS (HU "Mozgása után bármelyik másik szerzetesfigurával is
    léphet egyet", after his move): a token spent just after the move lends the Twin Winds, and the
    blue monk then moves another monk one step. Before the fix the Twin Winds' step had already
    passed when this token was spent: the token was lost for nothing."""
    s = three_player_yang("hu")
    act(s, "keep the power tokens")
    to_move(s)
    act(s, "stays on")
    assert spend_labels(s) == ["blue monk spends a power token for Dance of the Twin Winds"]
    act(s, "spends a power token for Dance of the Twin Winds")
    assert s.prompt() == "Dance of the Twin Winds: move another monk one step?"
    start = s.get("monk_at", "yellow")
    act(s, "move yellow monk")
    act(s, labels(s)[0])
    assert s.get("monk_at", "yellow") != start


# ---- GS-VILLAGE-CEMETERY: no revival from an empty Qi supply --------------------------------

def cemetery_base(supply):
    """The yellow monk is dead; the Qi supply holds ``supply`` tokens (the rest went to the blue
    monk); the blue monk stands on the Cemetery (ss) at Yang step 2."""
    game = gs_game()
    base = set_up(game)
    kill(base, "yellow")
    set_qi(base, "blue", base.get("qi", "blue") + base.get("qi_supply") - supply)
    assert base.get("qi_supply") == supply
    base.set("monk_at", "blue", "ss")
    base.set("active", "blue")
    return game, base


def test_cemetery_is_not_offered_when_the_qi_supply_is_empty():
    """GS-VILLAGE-CEMETERY, GS-DEATH-1 ("Az a szerzetes, akinek nem maradt több Qi-pontja, halott"),
    GS-COMP-14 (EL p3: Qi "up to the number of Qi tokens in the supply"): from an empty supply the
    dead monk would come back with no Qi, i.e. dead; the help cannot be carried out, so neither the
    tile nor a Yin-Yang call offers it. Before the fix he came back 'alive' with 0 Qi."""
    game, base = cemetery_base(0)
    s = game.state_at("take_actions", {"m": "blue"}, base)
    assert not any("asks Cemetery" in x for x in labels(s)), labels(s)
    w = game.state_at("yinyang_window", {"m": "blue"}, base)
    assert not any("calls Cemetery" in x for x in labels(w)), labels(w)


def test_cemetery_with_one_qi_left_revives_with_one():
    """GS-VILLAGE-CEMETERY, GS-COMP-14: "takes 2 Qi from the supply" as far as it holds: with 1 left
    the revived monk comes back with 1 Qi (then the curse die is rolled)."""
    game, base = cemetery_base(1)
    s = game.state_at("take_actions", {"m": "blue"}, base)
    act(s, "blue monk asks Cemetery for help")
    act(s, "yellow monk comes back to life")
    assert s.get("alive", "yellow") is True
    assert s.get("qi", "yellow") == 1 and s.get("qi_supply") == 0
    assert s.is_chance_node()


# ---- OQ-47: the Yin-Yang between the Heavenly Gust's two actions -----------------------------

def test_oq47_no_yinyang_between_the_gusts_two_actions():
    """OQ-47, GS-YY-3, GS-POWER-BLUE-GUST: after the exorcism, his own tile (the Herbalist) haunted,
    the blue monk is offered no Yin-Yang before his second action: only stopping; the Yin-Yang comes
    after step 2, when the help can no longer be asked."""
    game = gs_game()
    base = set_up(game)
    place(base, "c34_skinner", "red_3")
    base.set("monk_at", "blue", "nw")
    base.set("active", "blue")
    s = game.state_at("yang_phase", {"m": "blue"}, base)
    to_move(s)
    act(s, "stays on")
    act(s, "keep the Yin-Yang")
    act(s, "blue monk tries to exorcise")
    roll(s, "red", "green", "green")
    act(s, "Skinner is exorcised")
    s.set("haunted", "nw", True)      # as if a curse had haunted the Herbalist
    assert s.prompt() == "ask for help or exorcise?"
    assert labels(s) == ["blue monk takes no (further) action"]
    act(s, "takes no (further) action")
    assert s.prompt() == "use the Yin-Yang?" and "Yin-Yang: blue monk frees Herbalist" in labels(s)


# ---- OQ-48: the dice alone beat A, the tokens would beat B instead ---------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_oq48_dice_beat_a_tokens_would_beat_b_instead(edition):
    """OQ-48, GS-EXO-8, GS-EXO-9: Skinner (red 1) on red_3 and Zombie (yellow 2) on green_3, the
    blue monk on the corner (nw) with one yellow token; the dice show white, green, green. The dice
    alone beat Skinner; Zombie needs the white and the token; not both. The player may choose either
    (EL's choice taken over GS-EXO-8's obligation); the exorcism cannot fail."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c34_skinner", "red_3")
    place(base, "c06_zombie", "green_3")
    for c in COLOURS:
        give(base, "blue", c, -base.get("tao", "blue", c))
    give(base, "blue", "yellow", 1)
    base.set("monk_at", "blue", "nw")
    s = exorcism_rolling(game, base, "blue", "white", "green", "green")
    assert s.prompt() == "which ghosts does the exorcism defeat?"
    assert sorted(labels(s)) == ["Skinner is exorcised (red board slot 3)", "Zombie is exorcised (green board slot 3)"]


# ---- the open questions stay numbered and cited -----------------------------------------------

def test_open_questions_numbered_without_gaps_and_the_new_ones_cited():
    doc = yaml.safe_load((SPECS / "open_questions.yaml").read_text(encoding="utf-8"))
    ids = [str(q["id"]) for q in doc["open_questions"]]
    assert ids == [f"OQ-{n}" for n in range(1, len(ids) + 1)]
    for q in doc["open_questions"]:
        assert q.get("question") and q.get("natural_reading"), q["id"]
    cited = {}
    for r in ghostrules.load_game("ghost-stories").spec.rules:
        for oq in r.open_questions:
            cited.setdefault(oq, set()).add(r.id)
    assert {"GS-YY-3", "GS-POWER-BLUE-GUST"} <= cited["OQ-47"]
    assert {"GS-EXO-8", "GS-EXO-9"} <= cited["OQ-48"]
