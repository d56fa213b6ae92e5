"""Ghost Stories: an audit of the end of the game, the incarnations and the 1-3 player rules
against both rulebooks, in exact positions that random play almost never reaches.

Layout used (gs_helpers.LAYOUT):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)

A monk on the Circle of Prayer (sw, a corner) faces yellow_1 and red_1.
"""

from __future__ import annotations

import pytest

from gs_helpers import COLOURS, act, give, gs_game, place, roll, set_up, spend_all

EDITIONS = ["el", "hu"]


def cards(game):
    return list(game.layout.domains["card"].symbols)


def exorcise_from(game, base, exorcised):
    """The yellow monk's exorcism from ``base``: three black dice, ``exorcised`` chosen, every token spent."""
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(s, "black", "black", "black")
    act(s, exorcised)
    spend_all(s)
    return s


def corner_position(game):
    """Forgotten Ones (black 3) on yellow_1 and Blood Drinker (red 2, curse die when exorcised) on
    red_1; the yellow monk stands on the corner between them with 3 red Tao tokens."""
    base = set_up(game)
    base.set("active", "green")
    base.set("seg_incarnation", "seg1", False)  # the (only) incarnation has left the deck
    base.set("monk_at", "yellow", "sw")
    place(base, "Forgotten Ones", "yellow_1")
    place(base, "c39_blood_drinker", "red_1")
    for c in COLOURS:
        give(base, "yellow", c, -base.get("tao", "yellow", c))
    give(base, "yellow", "red", 3)
    return base


@pytest.mark.parametrize("edition", EDITIONS)
def test_corner_exorcism_of_the_last_incarnation_first_still_exorcises_the_other_ghost(edition):
    """From a corner one roll exorcises both ghosts (GS-EXO-7); whichever right stone the player
    resolves first (GS-CURSE-5, OQ-13), the other exorcised ghost still suffers/gives its right
    stone and goes to the discard pile ("as soon as a ghost is exorcised, its card is discarded",
    GS-EXO-6) before the victory is declared (GS-END-1, GS-END-5). The engine used to declare the
    victory in the middle: Blood Drinker's curse was skipped and the card stayed on red_1, so the
    HU score counted its slot as occupied (GS-SCORE-HU: 2 points per empty slot)."""
    game = gs_game(edition=edition)
    base = corner_position(game)
    s = exorcise_from(game, base, "Blood Drinker and Forgotten Ones are exorcised")
    act(s, "Forgotten Ones first")
    act(s, "green monk receives 1 Qi")  # the incarnation reward
    assert not s.is_terminal()
    assert s.prompt() == "roll the curse_die"  # Blood Drinker's curse
    roll(s, "no effect")
    assert s.get("at", "c39_blood_drinker") == "discard" and s.get("at", "c60_forgotten_ones") == "discard"
    assert s.is_terminal() and s.outcome().result == "win" and s.outcome().rule_id == "GS-END-1"
    if edition == "hu":
        lines = {label: points for label, _, points in s.score().lines}
        assert lines["empty ghost slots"] == 24
    assert s.check_invariants() == []


def test_the_other_ghosts_curse_after_the_final_exorcism_can_still_lose():
    """EL: the players win only if no curse of the final exorcism makes them lose (GS-END-5): the
    Blood Drinker exorcised with the last incarnation haunts the 3rd tile (GS-END-3)."""
    game = gs_game()
    base = corner_position(game)
    base.set("haunted", "nn", True)
    base.set("haunted", "ee", True)
    s = exorcise_from(game, base, "Blood Drinker and Forgotten Ones are exorcised")
    act(s, "Forgotten Ones first")
    act(s, "green monk receives 1 Qi")
    roll(s, "haunt a tile")
    assert s.get("haunted", "sw") is True
    assert s.is_terminal() and s.outcome().result == "loss" and s.outcome().rule_id == "GS-END-3"
    assert s.get("victory") is False


def last_exorcism_with_cards_left(game, edition, left):
    """Hope Killer (its right stone: the curse die) is the last incarnation and `left` ghost cards
    remain in the deck; the yellow monk faces it with 2 tokens of each of its colours."""
    base = set_up(game)
    base.set("active", "green")
    hk = place(base, "Hope Killer", "yellow_2")
    keep = {hk, "c01_ghoul"} if left else {hk}
    for c in cards(game):
        if c not in keep:
            base.set("at", c, "box" if game.layout.domains["card"].symbols.index(c) >= 55 else "discard")
    for seg in game.layout.domains["segment"].symbols:
        base.set("seg_ghosts", seg, 0)
        base.set("seg_incarnation", seg, False)
    base.set("seg_ghosts", "seg1", left)
    base.set("monk_at", "yellow", "ss")
    for c in ("red", "green", "blue", "yellow"):
        give(base, "yellow", c, 2 - base.get("tao", "yellow", c))
    assert base.eval("deck_size") == left
    return base


@pytest.mark.parametrize("edition, left", [("el", 1), ("hu", 0)])
def test_the_final_curse_bringing_a_ghost_from_the_end_of_the_deck_does_not_lose(edition, left):
    """The deck-out loss needs an incarnation not yet exorcised: EL "the last ghost card of the deck
    enters play while Wu-Feng's incarnation has not been exorcised yet"; HU "the ghost deck runs out
    and Wu-Feng's incarnation is still in play" (GS-END-4, ED-13). After a successful exorcism of the
    last incarnation its curse still applies (GS-END-5), and a "bring a ghost" result then brings in
    the deck's last card (EL) or finds the deck empty (HU): the incarnation is already exorcised, so
    this is no loss and the players win. The engine used to count the incarnation as not exorcised
    until its card was discarded, after its curse, and declared the deck-out loss."""
    game = gs_game(edition=edition)
    base = last_exorcism_with_cards_left(game, edition, left)
    s = exorcise_from(game, base, "Hope Killer is exorcised")
    roll(s, "bring a ghost")
    if left:
        act(s, "Ghoul to yellow board slot 1")
        assert s.get("at", "c01_ghoul") == "yellow_1" and s.eval("deck_size") == 0
    assert not s.is_terminal()
    act(s, "green monk receives 1 Qi")
    assert s.is_terminal() and s.outcome().result == "win" and s.outcome().rule_id == "GS-END-1"
    assert s.get("at", "c58_hope_killer") == "discard" and s.get("incarnations_left") == 0
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_curse_bringing_the_last_card_before_the_last_incarnation_still_loses(edition):
    """Nightmare: exorcising an incarnation that is not the last one leaves one to exorcise, so its
    curse bringing in the deck's last card (EL) is still the deck-out loss (GS-END-4)."""
    game = gs_game(edition=edition, level="nightmare")
    base = last_exorcism_with_cards_left(game, edition, 1)
    base.set("at", "c56_howling_nightmare", "green_1")  # another incarnation, still in play
    base.set("incarnations_left", 2)
    s = exorcise_from(game, base, "Hope Killer is exorcised")
    roll(s, "bring a ghost")
    act(s, "Ghoul to yellow board slot 1")
    if edition == "el":
        assert s.is_terminal() and s.outcome().result == "loss" and s.outcome().rule_id == "GS-END-4"
    else:  # HU: the loss comes when a card must be drawn from the empty deck (OQ-19): next turn
        act(s, "green monk receives 1 Qi")
        assert s.get("at", "c58_hope_killer") == "discard" and s.get("incarnations_left") == 1
        assert s.is_terminal() and s.outcome().result == "loss" and s.outcome().rule_id == "GS-END-4"


# ---------------------------------------------------------------------------------------------
# 1-3 players: neutral boards
# ---------------------------------------------------------------------------------------------

def test_a_neutral_board_possessed_at_its_last_qi_loses_the_weakening_mantra_at_once():
    """3 players; the neutral yellow board shows the Weakening Mantra, whose token (placed earlier
    through a power token) lies on Blood Drinker (red 2). The yellow board is full and loses its
    last Qi in its Yin step 2: it is possessed and its power becomes inactive (GS-HBOARD-1, HU "A
    megszállott tábla Ereje hatástalanná válik"), and a Mantra whose power is lost leaves the game
    (GS-POWER-YELLOW-MANTRA-3, HU "vegyük ki a mantra jelzőt a játékból"). The engine used to
    remove it only when the next ghost entered play, so in the meantime (e.g. the next monk's
    board is full, no ghost arrives) Blood Drinker still had resistance 1."""
    game = gs_game(players=3)
    base = set_up(game, playing=["red", "green", "blue"], powers={"yellow": "mantra"})
    for card, slot in (("c06_zombie", "yellow_1"), ("c07_zombie", "yellow_2"), ("c10_yellow_plague", "yellow_3")):
        place(base, card, slot)
    base.set("qi_supply", base.get("qi_supply") + base.get("qi", "yellow") - 1)
    base.set("qi", "yellow", 1)
    bd = place(base, "c39_blood_drinker", "red_2")
    base.set("mantra_home", 0)
    base.set("mantra_on", bd, 1)
    assert base.eval(f"need({bd}, red)") == 1
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True, stop=True)
    assert s.get("qi", "yellow") == 0 and s.eval("possessed(yellow)")
    assert s.get("mantra_on", bd) == 0 and s.get("mantra_out") == 1
    assert s.eval(f"need({bd}, red)") == 2
    assert s.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Scoring at the multi-incarnation levels (checked right; kept as a regression test)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition, players, expected", [
    # points for the incarnations: after 0, 1, 2, ... exorcised; the last one means victory
    ("el", 4, [(0, 0), (0, 2), (0, 6), (0, 12), (20, 12)]),   # +2/+4/+6, +20 victory at Hell
    ("el", 2, [(0, 0), (0, 2), (0, 6), (20, 6)]),              # 3 incarnations with 1-2 players
    ("hu", 4, [(0, 0), (0, 2), (0, 6), (0, 12), (10, 12)]),   # 2, 4, 6 and 10 for the last
    ("hu", 2, [(0, 0), (0, 4), (0, 10), (10, 10)]),            # 1-2 players: 4, 6 and 10
])
def test_incarnation_points_at_hell(edition, players, expected):
    """GS-SCORE-EL ("+2/+4/+6 for the 1st/2nd/3rd incarnation at Nightmare and Hell (3/4 players)",
    "+20 for the victory at Hell") and GS-SCORE-HU ("10 for the last incarnation, 2, 4, 6 for the
    others, with 1 or 2 players 4, 6")."""
    game = gs_game(edition=edition, players=players, level="hell")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    n = state.get("incarnations_left")
    assert n == len(expected) - 1
    got = []
    for k in range(n + 1):
        state.set("incarnations_left", n - k)
        state.set("victory", k == n)
        lines = [points for label, _, points in state.score().lines]
        got.append((lines[0] if edition == "el" else lines[4], lines[5]))
    assert got == expected


@pytest.mark.parametrize("level, ghosts, incarnations", [("initiation", 55, 1), ("nightmare", 55, 4)])
def test_a_lost_game_counts_the_ghost_cards_left_in_the_deck_not_the_incarnations(level, ghosts, incarnations):
    """EL scoring: "-1 for each ghost card (κάρτα φαντάσματος) left in the deck if you lost"; the EL
    text names the deck "45 ghost cards, 1 incarnation card of Wu-Feng, 10 ghost cards", so an
    incarnation card still in the deck is not a ghost card (GS-SCORE-EL). The engine used to count
    every card of the deck, the incarnations too."""
    game = gs_game(level=level)
    state = set_up(game)
    assert state.eval("deck_size") == ghosts + incarnations
    lines = {label: points for label, _, points in state.score().lines}
    assert lines["ghost cards left in the deck (+1 each if won, -1 if lost)"] == -ghosts
