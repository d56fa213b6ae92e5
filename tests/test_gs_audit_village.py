"""Ghost Stories: an audit of the village tiles, the Yang phase, the Yin-Yang and the Buddhas against
both rulebooks (HU and EL), in exact positions that random play rarely reaches: help whose
precondition fails, haunted tiles, costs that cannot be paid, neutral boards, dead monks.

Layout used (gs_helpers.LAYOUT):

    Herbalist(nw)   Tea House(nn)   Pavilion(ne)        green board (north)
    Sorcerer(ww)    Watchman(cc)    Temple(ee)     red (west)      blue (east)
    Circle(sw)      Cemetery(ss)    Altar(se)           yellow board (south)

A monk on the Cemetery faces yellow_2, on the Circle of Prayer (a corner) yellow_1 and red_1.
With 2 players the yellow and green monks play; the red and blue boards are neutral.
"""

from __future__ import annotations

import pytest

from gs_helpers import (COLOURS, act, buddha_away, buddha_back_in_temple, give, gs_game, kill, labels, place, roll,
                        rules_fired, set_qi, set_up)

EDITIONS = ["el", "hu"]
SLOTS = [f"{b}_{k}" for b in ("yellow", "red", "green", "blue") for k in (1, 2, 3)]


def at(game, base, monk, tile, procedure):
    """The monk stands on the tile, it is his turn, and ``procedure`` (yang_phase, take_actions) begins;
    the position ends when that step is over."""
    base.set("monk_at", monk, tile)
    base.set("active", monk)
    return game.state_at(procedure, {"m": monk}, base, tracing=True, stop=True)


def skip_to(state, prompt):
    """Decline the optional decisions (Yin-Yang, Pockets, moving) until ``prompt`` is asked."""
    while state.prompt() != prompt:
        options = labels(state)
        for pick in ("keep the Yin-Yang", "take no token", " stays on "):
            found = [x for x in options if pick in x]
            if found:
                act(state, found[0])
                break
        else:
            raise AssertionError(f"stuck at {state.prompt()!r}: {options}")


def asks_for_help(game, base, monk, tile, villager, procedure="take_actions"):
    """The monk on ``tile`` asks ``villager`` for help in his turn's ``procedure`` (in the Yang phase, after
    declining the optional steps before it); the position continues from the villager's help."""
    s = at(game, base, monk, tile, procedure)
    if procedure == "yang_phase":
        skip_to(s, "ask for help or exorcise?")
    act(s, f"{monk} monk asks {villager} for help")
    return s


def exorcise_the_wraith_for_the_yinyang(s, wraith, *faces):
    """At "ask for help or exorcise?" the yellow monk exorcises Dark Wraith (on his board) with the dice
    showing ``faces`` and takes its reward, the Yin-Yang back: the ghost is discarded, he holds the
    Yin-Yang and is asked to use it."""
    act(s, "yellow monk tries to exorcise")
    roll(s, *faces)
    act(s, "Dark Wraith is exorcised")
    act(s, "yellow monk takes back the Yin-Yang")
    assert s.get("at", wraith) == "discard" and s.get("yinyang", "yellow") == 1
    assert s.prompt() == "use the Yin-Yang?"


def empty_supply(state, monk):
    """Every Tao token of the supply goes to ``monk`` (totals kept)."""
    for c in COLOURS:
        give(state, monk, c, state.get("tao_supply", c))


# ---- haunted tiles and the Yin-Yang ---------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_a_haunted_tile_gives_no_help_until_the_yinyang_frees_it(edition):
    """GS-YANG-3, GS-COMP-3, GS-YY-1 (b), GS-YY-2, GS-YY-3: the red monk stands on the haunted Tea House.
    Its villager is gone, so step 2 offers no help (HU "annak a lapnak a tulajdonosától, amelyiken épp
    áll"; a haunted tile shows no owner). Spent before step 1, the Yin-Yang flips the tile back
    ("egy kísértetjárta lapot visszafordíthat, visszahozva annak tulajdonosát"), with no new ghost, and
    the Tea House then helps as the normal action ("nem számít bele a játékos általános akcióiba")."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("haunted", "nn", True)

    refused = at(game, base.clone(), "red", "nn", "yang_phase")
    assert "Yin-Yang: red monk calls Tea House for help" not in labels(refused)
    skip_to(refused, "ask for help or exorcise?")
    assert labels(refused) == ["red monk takes no (further) action"]

    s = at(game, base.clone(), "red", "nn", "yang_phase")
    act(s, "Yin-Yang: red monk frees Tea House")
    assert s.get("haunted", "nn") is False
    assert s.get("yinyang", "red") == 0 and s.get("yinyang_supply", "red") == 1
    assert not s.is_chance_node(), "freeing a tile with the Yin-Yang brings no ghost"
    skip_to(s, "ask for help or exorcise?")
    assert "red monk asks Tea House for help" in labels(s)
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_yinyang_calls_only_villagers_that_can_help(edition):
    """GS-YY-1 (a), GS-YANG-3: the Yin-Yang asks a villager "without standing on that tile", so only an
    active tile whose help can be carried out is offered: not the haunted Tea House, not the Cemetery
    (nobody is dead), not the Sorcerer (only an incarnation is in play, GS-INC-GEN-3), not the Temple
    (both Buddhas are away, EL "αν δεν υπάρχει διαθέσιμος Βούδας στο πλακίδιο"), not the Circle (the
    supply is empty). The Altar can help: a tile is haunted."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("haunted", "nn", True)
    place(base, "Vampire Lord", "blue_1")
    base.set("buddha_temple", 0)
    base.set("buddha_held", "green", 2)
    empty_supply(base, "green")
    s = at(game, base, "red", "cc", "yang_phase")
    calls = sorted(x.split(" calls ")[1] for x in labels(s) if " calls " in x)
    assert calls == ["Herbalist for help", "Night Watchman for help", "Pavilion of the Heavenly Winds for help",
                     "Taoist Altar for help"]
    assert "Yin-Yang: red monk frees Tea House" in labels(s)


@pytest.mark.parametrize("edition", EDITIONS)
def test_yinyang_spent_then_regained_by_a_reward_is_offered_again_in_the_same_turn(edition):
    """GS-YY-5 (EL "Οι μοναχοί μπορούν να χρησιμοποιήσουν το Yin-Yang τους δύο φορές στον ίδιο γύρο"; HU
    silent, ED-11 keeps it), GS-YY-4, GS-VILLAGE-CIRCLE: the rulebook example. The yellow monk spends his
    Yin-Yang on the Circle of Prayer (a black token), exorcises Dark Wraith (black 3) with two black
    results, takes back the Yin-Yang as its reward, and is offered it again after step 2."""
    game = gs_game(edition=edition)
    base = set_up(game)
    wraith = place(base, "c52_dark_wraith", "yellow_2")
    if base.get("tao_supply", "black") == 0:
        give(base, "green", "black", -1)
    s = at(game, base, "yellow", "ss", "yang_phase")
    act(s, "Yin-Yang: yellow monk calls Circle of Prayer for help")
    act(s, "a black token goes on the Circle of Prayer")
    assert s.get("circle_tao", "black") == 1 and s.get("yinyang", "yellow") == 0
    skip_to(s, "ask for help or exorcise?")
    exorcise_the_wraith_for_the_yinyang(s, wraith, "black", "black", "green")
    assert "Yin-Yang: yellow monk calls Tea House for help" in labels(s)
    assert s.check_invariants() == []


# ---- help whose precondition fails ----------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_circle_of_prayer_cannot_help_from_an_empty_supply(edition):
    """GS-VILLAGE-CIRCLE, GS-YANG-3: the Circle's token comes "a készletből" / "από τις προμήθειες" (from
    the supply). With the supply empty there is nothing to put or to swap in, even though a token lies
    on the Circle: no help, neither on the tile nor through the Yin-Yang; the token stays."""
    game = gs_game(edition=edition)
    base = set_up(game)
    give(base, "green", "red", 1)
    base.set("tao", "green", "red", base.get("tao", "green", "red") - 1)
    base.set("circle_tao", "red", 1)
    empty_supply(base, "green")
    s = at(game, base.clone(), "yellow", "sw", "take_actions")
    assert labels(s) == ["yellow monk takes no (further) action"]
    y = at(game, base, "yellow", "cc", "yang_phase")
    assert not any("Circle of Prayer" in x for x in labels(y))
    assert y.get("circle_tao", "red") == 1
    assert y.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_tea_house_and_herbalist_still_help_from_an_empty_supply(edition):
    """GS-VILLAGE-TEAHOUSE, GS-VILLAGE-HERBALIST, GS-CURSE-2: the tokens are taken "csak a készlet
    erejéig" (only as far as the supply allows). The Tea House still heals 1 Qi and brings a ghost;
    the Herbalist's roll gives nothing."""
    game = gs_game(edition=edition)
    base = set_up(game)
    empty_supply(base, "green")
    s = asks_for_help(game, base.clone(), "yellow", "nn", "Tea House")
    assert labels(s) == ["no Tao token left in the supply"]
    act(s, "no Tao token left in the supply")
    assert s.get("qi", "yellow") == 5
    assert s.is_chance_node() and s.prompt() == "draw a card"

    h = asks_for_help(game, base, "yellow", "nw", "Herbalist")
    roll(h, "red", "white")
    act(h, "no Tao token left in the supply")
    assert all(h.get("tao", "yellow", c) == base.get("tao", "yellow", c) for c in COLOURS)
    assert h.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_tea_house_with_twelve_full_slots_heals_then_costs_the_qi(edition):
    """GS-VILLAGE-TEAHOUSE, GS-PLACE-4: "gyógyulj 1 Qi-t. Ezután hozz játékba egy új szellemet": the new
    ghost cannot come in (12 slots full), so the active player loses 1 Qi instead; the healed Qi comes
    first, so a monk on 1 Qi survives."""
    game = gs_game(edition=edition)
    base = set_up(game)
    deck = [c for c in game.layout.domains["card"].symbols
            if base.get("at", c) == "deck" and not base.eval(f"is_incarnation({c})")]
    for card, slot in zip(deck, SLOTS):
        place(base, card, slot)
    set_qi(base, "yellow", 1)
    s = asks_for_help(game, base, "yellow", "nn", "Tea House")
    act(s, "yellow monk takes a blue Tao token")
    assert s.get("alive", "yellow") is True and s.get("qi", "yellow") == 1
    assert s.get("tao", "yellow", "blue") == base.get("tao", "yellow", "blue") + 1
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_sorcerer_offers_the_ghosts_but_never_the_incarnation(edition):
    """GS-VILLAGE-SORCERER, GS-INC-GEN-3: "Wu Feng megtestesüléseire nincs hatással ... a Varázsló
    Kunyhója": with an incarnation and a ghost in play only the ghost can be banished."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "Vampire Lord", "yellow_1")
    place(base, "c38_bleeding_eyes", "green_3")
    s = asks_for_help(game, base, "red", "ww", "Sorcerer's Hut")
    assert labels(s) == ["Bleeding Eyes is banished (green board slot 3)"]


# ---- costs that cannot be paid: the Sorcerer at the last Qi ---------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_sorcerer_at_the_last_qi_banishes_the_ghost_and_kills_the_monk(edition):
    """GS-VILLAGE-SORCERER, GS-DEATH-1, GS-DEATH-4, OQ-17, OQ-39: the HU example ("Segítséget kér a
    varázslótól, és bár így elveszti utolsó Qi-pontját, a szellemet visszaűzte a pokolba"). The yellow
    monk on 1 Qi holding a Buddha banishes Zombie: the ghost is discarded without its curse, then he
    loses his last Qi and dies; his Buddha goes back to the Temple and his turn has no Buddha step."""
    game = gs_game(edition=edition)
    base = set_up(game)
    set_qi(base, "yellow", 1)
    zombie = place(base, "c06_zombie", "red_1")
    buddha_away(base, "buddha_held", "yellow")
    s = asks_for_help(game, base, "yellow", "ww", "Sorcerer's Hut", "yang_phase")
    act(s, "Zombie is banished")
    assert s.get("at", zombie) == "discard"
    assert s.get("alive", "yellow") is False and s.get("qi", "yellow") == 0
    assert buddha_back_in_temple(s, "buddha_held", "yellow")
    assert s.get("monk_at", "yellow") == "ss"
    assert "GS-CURSE-1" not in rules_fired(s)
    assert not any(e.rule == "GS-BUDDHA-1" and "places" in e.text for e in s.log())
    assert s.outcome().result not in ("win", "loss"), "three monks still live"
    assert s.check_invariants() == []


# ---- the Cemetery ---------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_cemetery_in_a_two_player_game_revives_the_player_not_a_possessed_neutral_board(edition):
    """GS-VILLAGE-CEMETERY, GS-NEUTRAL-1, GS-HBOARD-1: with 2 players the red and blue boards are neutral.
    A possessed neutral board (0 Qi) has no monk to bring back: only the dead green player returns
    ("Egy halott szerzetes visszakerül a játékba")."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])
    set_qi(base, "red", 0)
    kill(base, "green")
    s = asks_for_help(game, base, "yellow", "ss", "Cemetery")
    assert labels(s) == ["green monk comes back to life"]
    act(s, "green monk comes back to life")
    assert s.get("alive", "green") is True and s.get("qi", "green") == 2
    assert s.get("qi", "red") == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_cemetery_haunted_by_its_own_roll_refuses_a_second_revival(edition):
    """GS-VILLAGE-CEMETERY, GS-YANG-3, GS-POWER-BLUE-SECONDWIND: two monks are dead; the blue monk (Second
    Wind: "kétszer kérheti az ott lévő falubeli segítségét") revives one, and the curse die haunts the
    Cemetery ("akkor a Temetőt kell átfordítani"). Its villager is gone, so the second help is refused.
    (Under the Mountain power the revived green monk would not roll in HU, so red and yellow die here.)"""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"blue": "secondwind"})
    kill(base, "red")
    kill(base, "yellow")
    for face, second in (("no effect", True), ("haunt a tile", False)):
        s = at(game, base.clone(), "blue", "ss", "take_actions")
        act(s, "blue monk asks Cemetery for help")
        act(s, "red monk comes back to life")
        roll(s, face)
        assert s.get("alive", "red") is True and s.get("alive", "yellow") is False
        assert s.get("haunted", "ss") is not second
        asked_again = not s.is_terminal() and "blue monk asks Cemetery for help" in labels(s)
        assert asked_again is second


@pytest.mark.parametrize("edition", EDITIONS)
def test_revived_monk_plays_his_next_turn_normally(edition):
    """GS-VILLAGE-CEMETERY-3 (EL "Από τον επόμενο γύρο, ο παίκτης παίζει κανονικά"), GS-TURN-2: a dead
    monk's board has no Yin step 3 and no Yang phase; once revived at the Cemetery, the red monk's next
    turn has both (a ghost is drawn, then he may move from the Cemetery)."""
    game = gs_game(edition=edition)
    base = set_up(game)
    kill(base, "red")
    s = asks_for_help(game, base, "yellow", "ss", "Cemetery")
    act(s, "red monk comes back to life")
    if s.is_chance_node() and s.prompt() == "roll the curse_die":
        roll(s, "no effect")
    s.set("active", "red")
    turn = game.state_at("play_turn", {}, s, tracing=True)
    assert turn.is_chance_node() and turn.prompt() == "draw a card"  # Yin step 3
    roll(turn, "Bleeding Eyes")
    act(turn, "Bleeding Eyes to red board slot 1")
    skip_to(turn, "move?")
    assert "red monk stays on Cemetery" in labels(turn)
    assert turn.check_invariants() == []


# ---- neutral boards ------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_watchman_patrols_a_neutral_board(edition):
    """GS-VILLAGE-WATCHMAN: "bármelyik tábla" / "σε ένα ταμπλό (της επιλογής σας)": any board, so also a
    neutral one. The haunter on the neutral red board's 1st stone goes back onto its card."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])
    skinner = place(base, "c34_skinner", "red_1", figure="stone1")
    s = asks_for_help(game, base, "yellow", "cc", "Night Watchman")
    act(s, "the Night Watchman patrols red monk's board")
    assert s.get("figure", skinner) == "on_card"


@pytest.mark.parametrize("edition", EDITIONS)
def test_buddha_on_a_neutral_board_destroys_the_ghost_placed_there(edition):
    """GS-BUDDHA-1, GS-BUDDHA-3, GS-PLACE-1: with 2 players a Buddha may guard a slot of the neutral red
    board; the red ghost drawn goes to the red board and, put on the Buddha, is destroyed at once; the
    Buddha goes back to the Temple."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])
    buddha_away(base, "buddha_on", "red_2")
    base.set("active", "yellow")
    s = game.state_at("bring_ghost", {"by": "yellow"}, base, tracing=True)
    roll(s, "Bleeding Eyes")
    act(s, "Bleeding Eyes to red board slot 2")
    assert s.get("at", "c38_bleeding_eyes") == "discard"
    assert buddha_back_in_temple(s, "buddha_on", "red_2")
    assert s.check_invariants() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_pavilion_moves_only_a_living_companion(edition):
    """GS-VILLAGE-PAVILION, GS-DEATH-1: "mozgasd valamelyik társadat" / "ένα μοναχό (όχι τον δικό σας)":
    with 3 players and the red monk dead (lying on the Cemetery), the yellow monk may move the green
    monk only; the blue board is neutral and has no monk."""
    game = gs_game(edition=edition, players=3)
    base = set_up(game, playing=["yellow", "red", "green"])
    kill(base, "red")
    s = asks_for_help(game, base, "yellow", "ne", "Pavilion of the Heavenly Winds")
    act(s, "no ghost is moved")
    assert sorted(labels(s)) == ["move green monk", "no monk is moved"]


# ---- Buddhas --------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_buddha_taken_with_the_yinyang_after_step_2_waits_for_a_later_turn(edition):
    """GS-VILLAGE-TEMPLE, GS-BUDDHA-1, GS-YY-3: the Yin-Yang may be spent between steps 2 and 3; a Buddha
    so taken at the Temple is not placed at step 3 of the same turn ("valamelyik korábbi körben
    megszerzett" / "σε προηγούμενο γύρο"), though the empty yellow_2 faces the monk."""
    game = gs_game(edition=edition)
    base = set_up(game)
    s = at(game, base, "yellow", "ss", "yang_phase")
    skip_to(s, "ask for help or exorcise?")
    act(s, "yellow monk takes no (further) action")
    assert s.prompt() == "use the Yin-Yang?"
    act(s, "Yin-Yang: yellow monk calls Buddhist Temple for help")
    assert s.get("buddha_held", "yellow") == 1 and s.get("buddha_taken_now", "yellow") == 1
    assert s.is_terminal(), "no step-3 decision: the Yang phase is over"
    assert s.get("buddha_on", "yellow_2") == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_pavilion_moves_an_incarnation_onto_a_buddha_without_destroying_it(edition):
    """GS-BUDDHA-6, GS-INC-GEN-3, GS-VILLAGE-PAVILION-2: incarnations are immune to Buddhas ("nem semmisül
    meg, viszont a Buddha így is visszakerül a Templom lapra"): Vampire Lord moved onto the Buddha of
    blue_2 stays in play there, and the Buddha goes back to the Temple."""
    game = gs_game(edition=edition)
    base = set_up(game)
    lord = place(base, "Vampire Lord", "yellow_1")
    buddha_away(base, "buddha_on", "blue_2")
    s = asks_for_help(game, base, "yellow", "ne", "Pavilion of the Heavenly Winds")
    act(s, "move Vampire Lord")
    act(s, "Vampire Lord moves to blue board slot 2")
    assert s.get("at", lord) == "blue_2"
    assert buddha_back_in_temple(s, "buddha_on", "blue_2")
    assert s.check_invariants() == []


def test_herbalist_white_result_is_ignored_while_nameless_is_in_play():
    """GS-VILLAGE-HERBALIST, GS-INC-NAMELESS (EL "ο λευκός κύκλος στα ζάρια Tao δεν μετράει πια για άλλο
    χρώμα. Απλά, ως αποτέλεσμα αγνοείται"): a white Herbalist result gives no token of choice while
    Nameless is in play; the red result still gives a red token."""
    game = gs_game(edition="el")
    base = set_up(game)
    place(base, "Nameless", "green_1")
    s = asks_for_help(game, base, "yellow", "nw", "Herbalist")
    roll(s, "red", "white")
    assert s.get("tao", "yellow", "red") == base.get("tao", "yellow", "red") + 1
    assert sum(s.get("tao", "yellow", c) for c in COLOURS) == sum(base.get("tao", "yellow", c) for c in COLOURS) + 1
    assert s.prompt() != "which Tao token?"


@pytest.mark.parametrize("edition", EDITIONS)
def test_at_hell_there_is_no_yinyang_until_a_reward_gives_it(edition):
    """GS-LEVEL-TABLE ("a szerzetesek a Yin-Yang jelzőjük nélkül kezdik a játékot"), GS-YY-1, GS-YY-4,
    OQ-38: at Hell no monk holds a Yin-Yang, so none can be spent (no Yin-Yang decision at all); Dark
    Wraith's reward "1 Qi or the Yin-Yang back" hands one over, and it is offered after step 2."""
    game = gs_game(edition=edition, level="hell")
    base = set_up(game)
    wraith = place(base, "c52_dark_wraith", "yellow_2")
    s = at(game, base, "yellow", "ss", "yang_phase")
    assert "use the Yin-Yang?" != s.prompt()
    skip_to(s, "ask for help or exorcise?")
    assert not any(e.text.startswith("yellow monk chooses: keep the Yin-Yang") for e in s.log())
    exorcise_the_wraith_for_the_yinyang(s, wraith, "black", "black", "black")
    assert s.check_invariants() == []
