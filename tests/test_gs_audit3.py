"""Ghost Stories: a third audit, from two angles: the rules of the 1-3 player game and of the harder
levels (neutral and haunted boards GS-NEUTRAL-*/GS-HBOARD-*, power tokens GS-PTOKEN-*, the solo rules,
the smaller deck, Nightmare and Hell, the score), and whole seeded game traces read line by line
against both rulebooks. Each test pins a finding of that audit; the earlier audits' rule-by-rule
checks are in the other test_gs_audit*.py files.

Layout used (gs_helpers.LAYOUT):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)
"""

from __future__ import annotations

import pytest

from gs_helpers import act, gs_game, kill, labels, place, roll, set_up, yin_phase_of

EDITIONS = ["el", "hu"]


def two_player_game_with_a_neutral_mantra(edition):
    """Two players (red, west, and blue, east); the yellow (south) and green (north) boards are neutral,
    and the yellow board shows the Weakening Mantra. The incarnation is taken out of the deck's first
    segment so that a test may place one by hand."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["red"], powers={"yellow": "mantra"})
    assert base.get("playing", "blue") and not base.get("playing", "yellow")
    base.set("seg_incarnation", "seg1", False)
    return game, base


# ---------------------------------------------------------------------------------------------
# GS-POWER-YELLOW-MANTRA-3 with ED-21: the Mantra of a neutral yellow board and Forgotten Ones
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_forgotten_ones_takes_a_neutral_boards_mantra_only_where_it_blocks_the_power_tokens(edition):
    """The Mantra leaves the game when its monk loses his power (GS-POWER-YELLOW-MANTRA-3, HU "Ha a
    szerzetes elveszti az erejét, vegyük ki a mantra jelzőt a játékból"). A neutral yellow board has no
    monk: its power is lost when it can no longer be lent (GS-HBOARD-1, GS-PTOKEN-1). Forgotten Ones
    stops the neutral power tokens too in EL (ED-21, "συμπεριλαμβανομένων των μαρκών ουδέτερης
    δύναμης"), so there the Mantra goes; HU's Forgotten Ones stops only the monks' own powers ("a
    szerzetesek nem használhatják Erejüket"), so the Mantra stays lendable, and its token must stay
    too. Before the fix HU threw the token out while still selling the power for a power token, which
    then did nothing."""
    game, base = two_player_game_with_a_neutral_mantra(edition)
    base.set("active", "red")
    s = game.state_at("place_ghost", {"g": "c60_forgotten_ones", "by": "red"}, base, tracing=True)
    act(s, "Forgotten Ones to red board slot 1")
    if edition == "el":
        assert s.get("mantra_out") == 1 and not s.eval("borrowable(mantra)")
        return
    assert s.get("mantra_out") == 0 and s.get("mantra_home") == 1
    assert s.eval("borrowable(mantra)")
    # the red monk's next Yang phase: a power token lends the Mantra, which lands on Forgotten Ones
    y = game.state_at("yang_phase", {"m": "red"}, s, tracing=True)
    act(y, "spends a power token for Weakening Mantra")
    while "Weakening Mantra" not in y.prompt():
        act(y, labels(y)[0])
    act(y, "put the Mantra on Forgotten Ones")
    assert y.get("mantra_on", "c60_forgotten_ones") == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_forgotten_ones_still_takes_a_playing_yellow_monks_mantra(edition):
    """Control: a playing yellow monk loses his own power to Forgotten Ones in both texts, so his
    Mantra leaves the game in both."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"], powers={"yellow": "mantra"})
    base.set("seg_incarnation", "seg1", False)
    base.set("active", "yellow")
    s = game.state_at("place_ghost", {"g": "c60_forgotten_ones", "by": "yellow"}, base, tracing=True)
    act(s, "Forgotten Ones to yellow board slot 1")
    assert s.get("mantra_out") == 1


# ---------------------------------------------------------------------------------------------
# The traces: what the log says and which rule it cites
# ---------------------------------------------------------------------------------------------

def setup_lines(players, level, edition="el"):
    """The setup's log lines that describe the ghost deck, as (rule, text)."""
    # (with 2 players the second board is the one facing the first: set_up names only the first)
    playing = ["yellow"] if players == 2 else None
    base = set_up(gs_game(players=players, level=level, edition=edition), tracing=True, playing=playing)
    return [(e.rule, e.text) for e in base.log() if e.kind == "say" and "ghost" in e.text
            and e.rule in ("GS-SETUP-7", "GS-SETUP-FEW-4", "GS-LEVEL-NIGHTMARE-2")]


@pytest.mark.parametrize("players, level, removed, deck, incarnations, on_top", [
    (4, "initiation", 0, 56, 1, None), (3, "normal", 5, 51, 1, None),
    (2, "nightmare", 10, 48, 3, 15), (1, "hell", 15, 43, 3, 10), (3, "hell", 5, 54, 4, 10),
])
def test_the_setup_trace_describes_the_deck_of_each_level(players, level, removed, deck, incarnations, on_top):
    """GS-SETUP-FEW-4 (HU "3 játékosnál 5-öt, 2 játékosnál 10-et és 1 játékosnál 15-öt"), GS-SETUP-7,
    GS-LEVEL-NIGHTMARE-2 (EL p10 "αρχίζοντας από το τέλος της τράπουλας"): the trace said "Wu-Feng's
    incarnation 10 cards from the bottom" under GS-SETUP-7 at every level, also at Nightmare and Hell
    where 3 or 4 incarnations lie every 11 cards from the bottom, and never said that ghosts were set
    aside with fewer than 4 players."""
    lines = setup_lines(players, level)
    expected = []
    if removed:
        expected.append(("GS-SETUP-FEW-4", f"{removed} ghost cards are set aside unseen before the incarnation "
                                           "cards go in"))
    if incarnations == 1:
        expected.append(("GS-SETUP-7", f"the ghost deck holds {deck} cards, Wu-Feng's incarnation 10 cards "
                                       "from the bottom"))
    else:
        expected.append(("GS-LEVEL-NIGHTMARE-2", f"the ghost deck holds {deck} cards: from the bottom, 10 ghosts "
                                                 f"then an incarnation, {incarnations} times, and the other "
                                                 f"{on_top} ghosts on top"))
    assert lines == expected


def yin_phase_of_a_full_board_with_a_tormentor(game, base, colour):
    """The Yin phase of ``colour``'s board holding the Lich (a tormentor) and two Zombies, its curse die
    showing no effect: the state after it and the (rule, text) of the lines it says."""
    place(base, "c11_lich", f"{colour}_1")
    place(base, "c06_zombie", f"{colour}_2")
    place(base, "c07_zombie", f"{colour}_3")
    s = yin_phase_of(game, base, colour)
    roll(s, "no effect")
    return s, [(e.rule, e.text) for e in s.log() if e.kind == "say"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_neutral_boards_yin_phase_cites_the_neutral_rules(edition):
    """GS-NEUTRAL-4 ("the players roll the curse die and apply it to the neutral board", HU "a
    játékosoknak dobniuk kell az Átok-kockával, és annak hatását érvényesíteniük kell a semleges
    táblára") and GS-NEUTRAL-5 (the neutral board's own step 2, with its own timing, ED-5): the trace
    of a neutral board's turn said "tormentor ... makes red monk roll the curse die" and "red monk's
    board is full: lose 1 Qi, no new ghost" under the player-board rules GS-YIN-5/GS-YIN-6, naming a
    monk nobody plays."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])  # yellow (south) and green (north) play; red, blue neutral
    assert not base.get("playing", "red")
    s, said = yin_phase_of_a_full_board_with_a_tormentor(game, base, "red")
    assert ("GS-NEUTRAL-4", "tormentor Lich: the players roll the curse die for red monk's board") in said
    assert ("GS-NEUTRAL-5", "red monk's board is full: the board loses 1 Qi") in said
    assert not any("makes red monk roll" in text or "no new ghost" in text for _, text in said)
    assert s.get("qi", "red") == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_dead_monks_board_cites_the_death_rule_in_every_configuration(edition):
    """GS-DEATH-3 ("Its ghosts keep acting in Yin steps 1-2, and the other monks suffer their effects",
    EL p7 "Οι άλλοι παίκτες πρέπει να υποστούν την επίδραση"): with 4 players there is no neutral
    board, so a dead monk's board cites the death rule, which holds in every configuration, and not
    the player-board wording either."""
    game = gs_game(edition=edition)
    base = set_up(game)
    kill(base, "red")
    _, said = yin_phase_of_a_full_board_with_a_tormentor(game, base, "red")
    assert ("GS-DEATH-3", "tormentor Lich: the players roll the curse die for red monk's board") in said
    assert ("GS-DEATH-3", "red monk's board is full: the board loses 1 Qi") in said
    assert not any("makes red monk roll" in text or "no new ghost" in text for _, text in said)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_players_yin_phase_keeps_the_player_board_wording(edition):
    """Control: on a living player's board the trace still cites GS-YIN-5 and GS-YIN-6."""
    game = gs_game(edition=edition, players=2)
    base = set_up(game, playing=["yellow"])
    _, said = yin_phase_of_a_full_board_with_a_tormentor(game, base, "yellow")
    assert ("GS-YIN-5", "tormentor Lich makes yellow monk roll the curse die") in said
    assert ("GS-YIN-6", "yellow monk's board is full: lose 1 Qi, no new ghost") in said


# ---------------------------------------------------------------------------------------------
# GS-POWER-YELLOW-MANTRA-2, GS-PTOKEN-1 (OQ-50): a neutral yellow board's Mantra after it came back
# ---------------------------------------------------------------------------------------------

def blue_turn_with_a_full_board(game, base):
    """The blue monk's turn (east; in the 2-player seating red, green, blue, yellow he plays before the
    neutral yellow board): his board is full, so step 2 costs a Qi and no card is drawn; the position
    waits at his first power-token question."""
    for card, slot in (("c06_zombie", "blue_1"), ("c07_zombie", "blue_2"), ("c10_yellow_plague", "blue_3")):
        place(base, card, slot)
    place(base, "c38_bleeding_eyes", "red_2")
    base.set("active", "blue")
    s = game.state_at("play_turn", {}, base, tracing=True)
    assert s.prompt() == "spend a power token?", s.prompt()
    return s


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_neutral_mantra_that_came_back_serves_the_next_players_turn(edition):
    """OQ-50 reading 2: the Mantra of a neutral yellow board came back in the red monk's turn (its
    ghost left play); the token may be placed again "from the next turn" (HU "a következő körtől",
    EL p8 "από τον επόμενο γύρο"). The spec waited for the neutral yellow board's own turn, so the blue
    monk, who plays before it, could buy the Mantra with a power token and then not place it: a token
    paid for nothing."""
    game, base = two_player_game_with_a_neutral_mantra(edition)
    base.set("mantra_back_now", True)  # as left by the exorcism of the Mantra's ghost in red's turn
    s = blue_turn_with_a_full_board(game, base)
    act(s, "blue monk spends a power token for Weakening Mantra")
    while "Weakening Mantra" not in s.prompt() and s.prompt() != "move?":
        act(s, labels(s)[0])  # keep the Yin-Yang
    assert s.prompt() == "Weakening Mantra: place or move the token?"
    act(s, "put the Mantra on Bleeding Eyes")
    assert s.get("mantra_on", "c38_bleeding_eyes") == 1 and s.get("power_token_centre") == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_power_token_is_offered_for_a_mantra_out_of_the_game(edition):
    """GS-POWER-YELLOW-MANTRA-3, GS-PTOKEN-1: once the Mantra token has left the game (OQ-21: for
    good), lending the Weakening Mantra can do nothing, so no power token is offered for it, as none is
    for a power whose moment has passed; the other neutral power (green's) still is."""
    game, base = two_player_game_with_a_neutral_mantra(edition)
    base.set("mantra_home", 0)
    base.set("mantra_out", 1)
    s = blue_turn_with_a_full_board(game, base)
    offered = labels(s)
    assert not any("Weakening Mantra" in x for x in offered)
    assert any(x.startswith("blue monk spends a power token for") for x in offered)


# ---------------------------------------------------------------------------------------------
# GS-VILLAGE-HERBALIST, GS-VILLAGE-TEAHOUSE: the token of one's choice cites the villager
# ---------------------------------------------------------------------------------------------

def choice_rules(state):
    """The rules the trace cites for the choices of a Tao token ("... takes a <colour> Tao token")."""
    return [e.rule for e in state.log() if e.kind == "choose" and e.text.endswith(" Tao token")
            and " takes a " in e.text]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_herbalists_white_result_cites_the_herbalist(edition):
    """GS-VILLAGE-HERBALIST (HU "Ha fehér oldalt dobtál, válassz kedvedre", EL p13 "Για κάθε λευκό
    κύκλο"): the token chosen for a white result was cited as GS-CURSE-2, the rule of the ghosts'
    rewards, in the trace of every game."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("monk_at", "yellow", "nw")  # the Herbalist
    base.set("active", "yellow")
    s = game.state_at("help_herbalist", {"m": "yellow"}, base, tracing=True)
    roll(s, "white", "red")
    act(s, "yellow monk takes a green Tao token")
    assert s.get("tao", "yellow", "green") == 1 and s.get("tao", "yellow", "red") == 1
    assert choice_rules(s) == ["GS-VILLAGE-HERBALIST"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_tea_houses_token_cites_the_tea_house(edition):
    """GS-VILLAGE-TEAHOUSE: its token of any colour was cited as GS-CURSE-2 (the ghosts' rewards)."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("monk_at", "yellow", "nn")  # the Tea House
    base.set("active", "yellow")
    s = game.state_at("help_teahouse", {"m": "yellow"}, base, tracing=True)
    act(s, "yellow monk takes a blue Tao token")
    assert s.get("tao", "yellow", "blue") == 1
    assert choice_rules(s) == ["GS-VILLAGE-TEAHOUSE"]


def test_a_ghosts_tao_reward_still_cites_the_reward_rule():
    """Control: a ghost's Tao-token reward keeps citing the reward rule that offers the choice."""
    game = gs_game()
    base = set_up(game)
    base.set("active", "yellow")
    s = game.state_at("take_tao_token", {"m": "yellow"}, base, tracing=True)
    act(s, "yellow monk takes a blue Tao token")
    assert choice_rules(s) == ["GS-CURSE-2"]
