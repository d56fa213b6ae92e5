"""Ghost Stories: a second audit of the turn (Yin phase, ghost placement, Yang phase, village help,
Yin-Yang, Buddhas, death) against both rulebooks, in exact positions the earlier audits
(test_gs_audit_village, test_gs_audit_powers, test_gs_yin_placement, test_gs_village,
test_gs_leftovers, test_gs_editions, test_gs_setup_end) do not build: a monk who dies in the middle
of his own turn (OQ-39) at each step, a monk standing on a haunted tile, the move, the Buddha facing a
monk, and the ghosts of a dead monk's board.

Layout (gs_helpers.LAYOUT):

    Herbalist(nw)   Tea House(nn)   Pavilion(ne)        green board (north)
    Sorcerer(ww)    Watchman(cc)    Temple(ee)     red (west)      blue (east)
    Circle(sw)      Cemetery(ss)    Altar(se)           yellow board (south)

Seating is clockwise: yellow, red, green, blue. The Herbalist (a corner) faces red_3 and green_3, the
Sorcerer's Hut faces red_2. Powers: yellow Bottomless Pockets, red Dance of the Peaks, green Strength
of the Mountain (never rolls the curse die), blue Heavenly Gust unless stated.
"""

from __future__ import annotations

import pytest

from gs_helpers import (act, buddha_away, buddha_back_in_temple, gs_game, labels, place, roll, set_qi, set_up,
                        until_next_turn, yin_phase_of)

EDITIONS = ["el", "hu"]


def turn_of(game, base, monk):
    """The whole turn of ``monk`` from its start (then play goes on), traced."""
    base.set("active", monk)
    return game.state_at("play_turn", {}, base, tracing=True)


def texts(state):
    return [e.text for e in state.log()]


def turn_texts(state, monk):
    """The log lines of ``monk``'s turn (from its first line to the start of the next turn)."""
    out, inside = [], False
    for e in state.log():
        if e.text.startswith("--- ") and e.text.endswith(" ---"):  # any board's turn, neutral or dead too
            if inside:
                break
            inside = e.text == f"--- {monk} monk's turn ---"
        if inside:
            out.append(e.text)
    return out


# ---- OQ-39: a monk dies in the middle of his own turn -----------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_killed_by_the_first_tormentor_his_board_suffers_the_second_and_brings_no_ghost(edition):
    """OQ-39, GS-YIN-5, GS-DEATH-1, GS-DEATH-3, GS-YIN-7, GS-TURN-2, OQ-14: the yellow monk (1 Qi) has
    two tormentors on his board. The first roll costs his last Qi: he dies ("Az a szerzetes, akinek nem
    maradt több Qi-pontja, halott"). His board's ghosts keep acting ("a táblán lévő szellemek továbbra
    is cselekednek"), so the second tormentor still rolls; its new ghost (black) goes on his board, the
    slot chosen by a living monk. Then no step 3 (no other card is drawn in his turn) and no Yang
    phase: the red monk's turn follows. His board being neutral from that moment, its step 2 follows the
    neutral board's timing of each edition."""
    game = gs_game(edition=edition)
    base = set_up(game)
    set_qi(base, "yellow", 1)
    place(base, "Great Putrid", "yellow_1")
    place(base, "Lich", "yellow_2")
    s = turn_of(game, base, "yellow")
    act(s, "Great Putrid torments first")
    roll(s, "lose 1 Qi")
    assert s.get("alive", "yellow") is False and s.get("monk_at", "yellow") == "ss"
    assert s.is_chance_node() and s.prompt() == "roll the curse_die", "the second tormentor still rolls"
    roll(s, "bring a ghost")
    roll(s, "Dark Wraith")
    assert labels(s) == ["Dark Wraith to yellow board slot 3"]
    assert s.current_player_name() == "red"
    act(s, "Dark Wraith to yellow board slot 3")
    # Step 2 is now that of a neutral board (GS-NEUTRAL-5, ED-5). EL judges it "at the start of this
    # step" (full now: the possessed board's Qi loss goes to a monk of the team's choice, GS-HBOARD-3);
    # HU "at the start of the turn" ("Ha a kör elején a táblán már három szellem van": two were there).
    if edition == "el":
        assert s.prompt() == "who takes the Qi loss of the possessed board?"
        act(s, "red monk takes the loss for yellow monk's board")
        assert s.get("qi", "red") == 3
    else:
        assert s.get("qi", "red") == 4
    lines = turn_texts(s, "yellow")
    assert [x for x in lines if x.startswith("draw:")] == ["draw: Dark Wraith"], "no Yin step 3"
    assert not any("stays on" in x or "moves to" in x or "Yin-Yang" in x for x in lines), "no Yang phase"
    assert "--- red monk's turn ---" in texts(s)
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_killed_by_his_full_board_in_step_2_the_turn_ends(edition):
    """OQ-39, GS-YIN-6, GS-YIN-7, GS-DEATH-1: the green monk (1 Qi) begins his turn with a full board.
    Step 2 costs his last Qi ("veszít 1 Qi-pontot, és a 3. lépés kihagyásával befejeződik körének
    Yin-fázisa"): he dies, no ghost is drawn, he has no Yang phase, and the blue monk's turn begins
    with its own draw."""
    game = gs_game(edition=edition)
    base = set_up(game)
    set_qi(base, "green", 1)
    for card, slot in (("c06_zombie", "green_1"), ("c07_zombie", "green_2"), ("c10_yellow_plague", "green_3")):
        place(base, card, slot)
    s = turn_of(game, base, "green")
    assert s.get("alive", "green") is False and s.get("qi", "green") == 0
    lines = turn_texts(s, "green")
    assert "green monk's board is full: lose 1 Qi, no new ghost" in lines
    assert not any(x.startswith("draw:") or "stays on" in x for x in lines)
    assert "--- blue monk's turn ---" in texts(s)
    assert s.is_chance_node() and s.prompt() == "draw a card"
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_heavenly_gust_monk_dead_after_his_first_action_takes_no_second(edition):
    """OQ-39, GS-POWER-BLUE-GUST, GS-YANG-4, GS-DEATH-1, GS-DEATH-4, OQ-17: the blue monk (Heavenly Gust:
    help and exorcism in one turn), on 1 Qi and holding a Buddha, stands on the Sorcerer's Hut facing
    Bleeding Eyes. He banishes Zombie and loses his last Qi: he dies at once, so the exorcism, the
    Buddha step and the Yin-Yang are no longer offered ("közvetlenül nem cselekedhet"); his Buddha goes
    back to the Temple and the yellow monk's turn begins."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"blue": "gust"})
    set_qi(base, "blue", 1)
    place(base, "Bleeding Eyes", "red_2")
    zombie = place(base, "c06_zombie", "green_1")
    buddha_away(base, "buddha_held", "blue")
    base.set("monk_at", "blue", "ww")
    base.set("active", "blue")
    s = game.state_at("take_actions", {"m": "blue"}, base, tracing=True)
    assert "blue monk tries to exorcise" in labels(s)
    act(s, "blue monk asks Sorcerer's Hut for help")
    act(s, "Zombie is banished")
    assert s.get("at", zombie) == "discard" and s.get("alive", "blue") is False
    assert buddha_back_in_temple(s, "buddha_held", "blue")
    assert s.get("at", "c38_bleeding_eyes") == "red_2"
    assert s.is_chance_node() and s.prompt() == "draw a card"
    assert "--- yellow monk's turn ---" in texts(s)
    assert s.check_invariants() == []


# ---- a monk on a haunted tile -----------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_on_a_haunted_tile_the_monk_still_exorcises_and_places_a_buddha(edition):
    """GS-YANG-3, GS-EXO-1, GS-BUDDHA-1, GS-BUDDHA-2: the haunted Herbalist gives no help, but nothing
    forbids the monk standing there to exorcise the ghost in front of it ("az általa elfoglalt falu
    lappal szomszédos helyen álló szellemet") or to place a Buddha on an empty slot facing it ("ha van a
    figurájával szomszédos üres szellemhely"). From this corner he faces red_3 (a ghost) and green_3."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("haunted", "nw", True)
    place(base, "Skinner", "red_3")
    buddha_away(base, "buddha_held", "yellow")
    base.set("monk_at", "yellow", "nw")
    base.set("active", "yellow")
    s = game.state_at("take_actions", {"m": "yellow"}, base, tracing=True)
    assert labels(s) == ["yellow monk tries to exorcise", "yellow monk takes no (further) action"]
    b = game.state_at("place_buddhas_step", {"m": "yellow"}, base.clone(), tracing=True)
    assert labels(b) == ["keep the Buddha", "yellow monk places a Buddha on green board slot 3"]
    act(b, "places a Buddha on green board slot 3")
    assert b.get("buddha_on", "green_3") == 1 and b.get("buddha_held", "yellow") == 0
    assert b.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_move_reaches_the_adjacent_tiles_diagonals_included_haunted_or_not(edition):
    """GS-YANG-2: "bármelyik szomszédos falu lapra. Lehetséges átlósan is lépni" / "Η διαγώνια κίνηση
    επιτρέπεται": from a corner 3 tiles, from an edge tile 5, haunted ones included; staying is an
    option ("mozogni egyáltalán nem kötelező"), and the monk's own tile is not offered as a move."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("haunted", "cc", True)
    expected = {"nw": ["Tea House", "Sorcerer's Hut", "Night Watchman"],
                "ee": ["Tea House", "Pavilion of the Heavenly Winds", "Night Watchman", "Cemetery", "Taoist Altar"]}
    names = {"nw": "Herbalist", "ee": "Buddhist Temple"}
    for tile, reach in expected.items():
        base.set("monk_at", "yellow", tile)
        base.set("active", "yellow")
        s = game.state_at("move_monk", {"m": "yellow"}, base.clone())
        assert labels(s) == [f"yellow monk stays on {names[tile]}"] + [f"yellow monk moves to {t}" for t in reach]


# ---- the Buddha and a Pavilion move of a haunter ----------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_pavilion_moves_a_haunter_about_to_haunt_onto_a_buddha(edition):
    """GS-BUDDHA-3, GS-BUDDHA-4, GS-VILLAGE-PAVILION-2: Bleeding Eyes, its figure on the 1st stone (it
    would haunt in its board's next Yin phase), is moved by the Pavilion onto a slot guarded by a
    Buddha: "Amint egy szellem ... átmozdul egy Buddhával védett helyre, azonnal elpusztul". The card is
    discarded with its figure, the Buddha goes back to the Temple, and the red board's next Yin phase
    haunts nothing."""
    game = gs_game(edition=edition)
    base = set_up(game)
    eyes = place(base, "Bleeding Eyes", "red_2", "stone1")
    buddha_away(base, "buddha_on", "green_1")
    base.set("monk_at", "yellow", "ne")
    base.set("active", "yellow")
    s = game.state_at("take_actions", {"m": "yellow"}, base, tracing=True)
    act(s, "yellow monk asks Pavilion of the Heavenly Winds for help")
    act(s, "move Bleeding Eyes")
    act(s, "Bleeding Eyes moves to green board slot 1")
    assert s.get("at", eyes) == "discard" and s.get("figure", eyes) == "none"
    assert buddha_back_in_temple(s, "buddha_on", "green_1")
    assert s.check_invariants() == []
    s.set("active", "red")
    yin = game.state_at("yin_phase", {"m": "red"}, s, tracing=True)
    assert not any(e.rule == "GS-YIN-3" for e in until_next_turn(yin))
    assert not any(yin.get("haunted", t) for t in ("nw", "nn", "ne", "ww", "cc", "ee", "sw", "ss", "se"))


# ---- GS-YIN-3/4: a haunter at the end of a haunted row (HU Initiation) -------------------------

def test_hu_initiation_haunter_facing_a_fully_haunted_row_loses_at_once():
    """GS-YIN-4 (HU "Megjegyzés a Beavatás szinthez": "egy nemlétező negyedik lapot kéne felfordítaniuk a
    sorban, akkor azonnal elvesztették a játékot"), GS-YIN-3, GS-END-3: at HU Initiation three haunted
    tiles do not lose (the 4th does). Skinner on red_2 (its row: Sorcerer, Watchman, Temple) reaches
    the edge of its board. With the far tile still active it flips it (the 3rd haunted tile: play goes
    on); with the whole row haunted, a 4th tile of the row would have to be flipped: the game is lost."""
    game = gs_game(edition="hu")
    base = set_up(game)
    assert [base.eval(f"in_front(red_2, {s})") for s in ("near", "middle", "far")] == ["ww", "cc", "ee"]
    place(base, "Skinner", "red_2", "stone1")
    base.set("haunted", "ww", True)
    base.set("haunted", "cc", True)
    s = yin_phase_of(game, base.clone(), "red")
    assert not s.is_terminal() and s.get("haunted", "ee") is True
    assert s.eval("haunted_tiles") == 3 and s.get("figure", "c34_skinner") == "on_card"
    base.set("haunted", "ee", True)
    s = yin_phase_of(game, base, "red")
    assert s.is_terminal() and s.outcome().result == "loss" and s.outcome().rule_id == "GS-YIN-4"
    assert s.eval("haunted_tiles") == 3
