"""Ghost Stories: the words of options and turn headings, as rules lawyers and trace readers meet them.

The rules ask for one ghost among several ("bármelyik játékban lévő szellemet", any ghost in play: the
Sorcerer's Hut; "Mozgass át egy Szellemet", move a ghost: the Pavilion; "bármely játékban lévő
szellemre", on any ghost in play: the Weakening Mantra), and the deck holds two copies of many ghosts
(two Zombies, two Hopping Vampires, ...: cards.csv). An option naming only the card ("Zombie is
banished", then "Zombie is banished #2", the engine's numbering of equal labels) does not say which of
the two is meant: an option naming a ghost in play ends with the slot it is on, in parentheses. The
same holds where the team orders its haunters (GS-YIN-2, OQ-5) and where a monk in a corner faces two
copies (GS-EXO-9, GS-CURSE-5).

The neutral boards (GS-NEUTRAL-3: "A Semleges táblák Yin-fázisa rövidebb", 1-3 players) and a dead
monk's board (GS-DEATH-3: "A halott szerzetes táblája megszállottá válik") still take turns
(GS-TURN-2): the trace heads them as the board's turn, not as the turn of a monk nobody plays.
"""

from __future__ import annotations

import re

import ghostrules
import pytest

from gs_helpers import act, gs_game, kill, labels, place, roll, set_up, yin_phase_of

EDITIONS = ["el", "hu"]
NUMBERED = re.compile(r" #\d+$")


def two_copies(labels_: list[str], name: str) -> list[str]:
    """The options naming the card ``name``: exactly two, different, neither numbered by the engine."""
    found = [x for x in labels_ if name in x]
    assert len(found) == 2, labels_
    assert found[0] != found[1] and not any(NUMBERED.search(x) for x in labels_), labels_
    return found


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_sorcerer_names_the_slot_of_each_zombie(edition):
    """GS-VILLAGE-SORCERER: "Discard any one ghost in play": two Zombies, on the yellow board's slot 1
    and the blue board's slot 3; each option says which one is banished."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c06_zombie", "yellow_1")
    place(base, "c07_zombie", "blue_3")
    place(base, "Ghoul", "red_2")
    s = game.state_at("help_sorcerer", {"m": "yellow"}, base)
    assert s.prompt() == "which ghost does the Sorcerer banish?"
    assert two_copies(labels(s), "Zombie") == ["Zombie is banished (yellow board slot 1)",
                                               "Zombie is banished (blue board slot 3)"]
    assert "Ghoul is banished (red board slot 2)" in labels(s)
    act(s, "Zombie is banished (blue board slot 3)")
    assert s.get("at", "c07_zombie") == "discard" and s.get("at", "c06_zombie") == "yellow_1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_pavilion_names_the_slot_of_each_hopping_vampire(edition):
    """GS-VILLAGE-PAVILION: "Mozgass át egy Szellemet bármelyik üres szellemhelyre": two Hopping
    Vampires; the option says which one moves, and the next decision where it goes."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c08_hopping_vampire", "red_1")
    place(base, "c09_hopping_vampire", "green_2")
    s = game.state_at("help_pavilion", {"m": "yellow"}, base)
    assert s.prompt() == "move a ghost?"
    assert two_copies(labels(s), "Hopping Vampire") == ["move Hopping Vampire (red board slot 1)",
                                                        "move Hopping Vampire (green board slot 2)"]
    act(s, "move Hopping Vampire (green board slot 2)")
    act(s, "Hopping Vampire moves to blue board slot 1")
    assert s.get("at", "c09_hopping_vampire") == "blue_1" and s.get("at", "c08_hopping_vampire") == "red_1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_weakening_mantra_names_the_slot_of_each_fallen_monk(edition):
    """GS-POWER-YELLOW-MANTRA: "bármely játékban lévő szellemre": two Fallen Monks."""
    game = gs_game(edition=edition)
    base = set_up(game, powers={"yellow": "mantra"})
    place(base, "c25_fallen_monk", "green_1")
    place(base, "c26_fallen_monk", "yellow_3")
    s = game.state_at("weakening_mantra", {"m": "yellow"}, base)
    assert s.prompt() == "Weakening Mantra: place or move the token?"
    assert two_copies(labels(s), "Fallen Monk") == ["put the Mantra on Fallen Monk (green board slot 1)",
                                                    "put the Mantra on Fallen Monk (yellow board slot 3)"]
    act(s, "green board slot 1")
    assert s.get("mantra_on", "c25_fallen_monk") == 1 and s.get("mantra_on", "c26_fallen_monk") == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_order_of_two_identical_haunters_names_their_slots(edition):
    """GS-YIN-2 (OQ-5: the team orders its haunters): two Hopping Vampires on the yellow board."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, "c08_hopping_vampire", "yellow_1", figure="stone1")
    place(base, "c09_hopping_vampire", "yellow_3", figure="stone1")
    s = yin_phase_of(game, base, "yellow")
    assert s.prompt() == "which haunter moves next?"
    assert two_copies(labels(s), "Hopping Vampire") == ["Hopping Vampire moves first (yellow board slot 1)",
                                                        "Hopping Vampire moves first (yellow board slot 3)"]


def corner(edition: str, first: str, second: str):
    """The yellow monk on the Circle of Prayer (south-west corner): he faces yellow_1 and red_1."""
    game = gs_game(edition=edition)
    base = set_up(game)
    place(base, first, "yellow_1")
    place(base, second, "red_1")
    base.set("monk_at", "yellow", "sw")
    base.set("active", "yellow")
    return game, base


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_corner_exorcism_of_either_zombie_names_its_slot(edition):
    """GS-EXO-9: "either of the two, not both": two Zombies (yellow 2), the dice give yellow, yellow,
    green. The two options say which Zombie goes."""
    game, base = corner(edition, "c06_zombie", "c07_zombie")
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "yellow", "yellow", "green")
    assert s.prompt() == "which ghosts does the exorcism defeat?"
    assert two_copies(labels(s), "Zombie is exorcised") == ["Zombie is exorcised (yellow board slot 1)",
                                                 "Zombie is exorcised (red board slot 1)"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_order_of_two_identical_right_stones_names_their_slots(edition):
    """GS-CURSE-5: both Coffin Breakers (yellow 1) are exorcised from the corner; which one's right
    stone resolves first is asked with their slots."""
    game, base = corner(edition, "c03_coffin_breaker", "c04_coffin_breaker")
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "yellow", "yellow", "green")
    act(s, "are exorcised")
    assert s.prompt() == "which ghost's right stone resolves first?"
    assert two_copies(labels(s), "Coffin Breaker") == ["Coffin Breaker first (yellow board slot 1)",
                                                       "Coffin Breaker first (red board slot 1)"]


def headings(state) -> list[tuple[str, str]]:
    return [(e.rule, e.text) for e in state.log() if e.kind == "say" and e.text.startswith("--- ")]


@pytest.mark.parametrize("players, edition", [(1, "el"), (2, "hu")])
def test_a_neutral_board_turn_is_headed_as_the_board(players, edition):
    """GS-NEUTRAL-3: "A Semleges táblák Yin-fázisa rövidebb a megszokottnál": a board without a player
    takes its turn; the trace names the board, neutral, never a monk nobody plays."""
    game = gs_game(players=players, level="initiation", edition=edition)
    state = ghostrules.play(game, seed=3, tracing=True)
    played = [m for m in ("yellow", "red", "green", "blue") if state.get("playing", m)]
    seen = headings(state)
    assert len(seen) > 4
    for rule, text in seen:
        board = re.fullmatch(r"--- (\w+) (?:monk's|board's) turn.*", text).group(1)
        if board in played:
            assert (rule, text) == ("GS-TURN-1", f"--- {board} monk's turn ---") or rule == "GS-DEATH-3"
        else:
            assert (rule, text) == ("GS-NEUTRAL-3", f"--- {board} board's turn (neutral) ---")
    assert {m for m in ("yellow", "red", "green", "blue") if m not in played} <= {
        re.match(r"--- (\w+)", t).group(1) for r, t in seen if r == "GS-NEUTRAL-3"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_dead_monk_board_turn_is_headed_as_the_board(edition):
    """GS-DEATH-3: "A halott szerzetes táblája megszállottá válik": the dead red monk's board still takes
    its turn (GS-TURN-2); the trace says it is his board and that he is dead."""
    game = gs_game(edition=edition)
    base = set_up(game)
    kill(base, "red")
    base.set("active", "red")
    s = game.state_at("play_turn", {}, base, tracing=True, stop=True)
    assert headings(s) == [("GS-DEATH-3", "--- red board's turn (neutral: the red monk is dead) ---")]
