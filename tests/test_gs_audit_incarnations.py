"""Ghost Stories audit of the end game (twelfth session, helper "incarnations"): Wu-Feng's
incarnations, the win, the deck-out loss and the scoring of both editions, read against the
rulebooks. Each test failed before its fix (see the commit messages)."""

from __future__ import annotations

import pytest

from gs_helpers import act, gather, gs_game, place, roll, set_up, spend_all


def last_exorcism_then_a_losing_curse(edition: str):
    """Death Army is the last incarnation; the yellow monk exorcises it from the Cemetery, and the
    curse die rolled before it is discarded haunts the losing tile (the 4th in HU Initiation, the
    3rd in EL): the rulebooks' own example of GS-END-5."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("active", "green")
    base.set("seg_incarnation", "seg1", False)  # the incarnation has left the deck
    place(base, "Death Army", "yellow_2")
    base.set("monk_at", "yellow", "ss")
    for tile in ["nw", "nn", "ne"][: (3 if edition == "hu" else 2)]:
        base.set("haunted", tile, True)
    gather(base, "yellow", "black", 2)  # EL: the supply has no black token left (GS-SETUP-4)
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(s, "black", "black", "white")
    act(s, "Death Army is exorcised")
    assert spend_all(s) == 2
    assert s.get("incarnations_left") == 0
    roll(s, "haunt a tile")
    assert s.is_terminal() and s.outcome().result == "loss" and s.outcome().rule_id == "GS-END-3"
    return {label: points for label, _, points in s.score().lines}


def test_hu_scores_defeating_the_last_incarnation_even_when_its_curse_loses():
    """GS-SCORE-HU (OQ-53): HU gives "10 pont az utolsó megtestesülés legyőzéséért" (10 points for
    defeating the last incarnation), not for the victory; its own example of GS-END-5 ("a
    Szerzetesek elűzik Wu Feng A Halál Serege megtestesülését ... A játékosok az utolsó lehetséges
    pillanatban vesztették el a játékot") has the monks defeat the last incarnation and still lose.
    The HU sheet scored the line only for a victory."""
    lines = last_exorcism_then_a_losing_curse("hu")
    assert lines["defeating the last incarnation"] == 10


def test_el_scores_the_victory_only():
    """GS-SCORE-EL: EL gives "+10 πόντους σε περίπτωση νίκης" (in case of victory): the same loss
    scores no victory points (unchanged; the contrast with HU)."""
    lines = last_exorcism_then_a_losing_curse("el")
    assert lines["victory"] == 0
