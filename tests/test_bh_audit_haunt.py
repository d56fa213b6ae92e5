"""Betrayal: an audit of the base rules of the turn, attacks, the haunt and death, in exact positions.

Each test builds a position that random play rarely reaches and checks one rule as the Hungarian
rulebook (shared/seeds/004_d45700e3d66fa338.txt) states it: the exact edges of the haunt roll, two
omens in one turn, traitor ties with 3 and 6 players, the haunt's turn order at 3 and 6 players, a
dead traitor, attacks that a defender wins, ranged attacks, stealing, the first step out of a room full
of opponents, and death at the skull during an attack.
"""

from __future__ import annotations

import re

import pytest
from bh_helpers import FOUR, JENNY, act, haunt_round_turns, labels, monster_at, place, roll, set_up, start_haunt

import ghostrules
from ghostrules.engine import Game, State

SIX = [JENNY, "Ox Bellows", "Madame Zostra", "Peter Akimoto", "Missy Dubourde", "Professor Longfellow"]


@pytest.fixture(scope="module")
def game3() -> Game:
    return ghostrules.load_game("betrayal", players=3)


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


@pytest.fixture(scope="module")
def game6() -> Game:
    return ghostrules.load_game("betrayal", players=6)


def omens_this_turn(base: State, drawn: int, omens: list[str], room: str = "catacombs") -> None:
    """``drawn`` omens in the game so far, the last ``omens`` (in order) drawn by p1 this turn in ``room``."""
    place(base, "catacombs", "basement", "x4y3")
    base.set("omens_drawn", drawn)
    base.set("turn_omens", len(omens))
    for i, c in enumerate(omens):
        base.set("omen_order", c, i + 1)
        base.set("omen_room", c, room)
        base.set("in_deck", c, 0)
        base.set("held", "p1", c, 1)


def faces_for(total: int, dice: int = 6) -> list[int]:
    faces = [2] * (total // 2) + [1] * (total % 2)
    return faces + [0] * (dice - len(faces))


# ---- the haunt roll (BH-HAUNTROLL) ---------------------------------------------------------------


def test_with_one_omen_drawn_only_a_blank_roll_starts_the_haunt(game4: Game) -> None:
    """p.9, BH-HAUNTROLL-2: "Ha kevesebbet dobsz, mint az eddig a játékosok által felhúzott ómen kártyák
    száma, akkor a szellemjárás elkezdődik": with the first omen of the game, a 0 is less than 1, a 1 is
    not."""
    for total, starts in ((0, True), (1, False)):
        base = set_up(game4, FOUR)
        omens_this_turn(base, 1, ["girl"])
        s = game4.state_at("haunt_rolls", {"s": "p1"}, base, stop=True)
        roll(s, *faces_for(total))
        assert s.get("haunt_on") is starts


def test_with_thirteen_omens_drawn_even_twelve_starts_the_haunt(game4: Game) -> None:
    """p.9, BH-HAUNTROLL-1/2: six dice ("6 kockával") of at most 2 pips total at most 12, which is less
    than 13 omens: the roll that follows the last omen always starts the haunt."""
    base = set_up(game4, FOUR)
    omens_this_turn(base, 13, ["girl"])
    s = game4.state_at("haunt_rolls", {"s": "p1"}, base, stop=True)
    roll(s, 2, 2, 2, 2, 2, 2)
    assert s.get("haunt_on") is True and s.get("revealed_by") == "p1"


def test_two_omens_in_one_turn_make_two_rolls_and_the_second_names_the_haunt(game4: Game) -> None:
    """p.9, BH-HAUNTROLL-1, BH-REVEAL-2 (BH-OPEN-11): "minden alkalommal mikor a fordulód során egy ómen
    kártyát húzol" one haunt roll, and the table uses "annak az ómen kártyának a nevét, amit a
    szellemjárás dobás előtt húztál": the first roll fails, the second starts the haunt with the Dog."""
    base = set_up(game4, FOUR)
    omens_this_turn(base, 6, ["girl", "dog"])
    s = game4.state_at("haunt_rolls", {"s": "p1"}, base, stop=True)
    roll(s, *faces_for(6))          # the Girl's roll: 6 is not less than 6
    assert s.get("haunt_on") is False
    roll(s, *faces_for(5))          # the Dog's roll: 5 is
    assert s.get("haunt_on") is True and s.get("haunt_omen") == "dog"
    # the room where the Dog was drawn, not the Entrance Hall where p1 stands at the end of the turn
    assert s.get("at", "p1") == "entrance_hall" and s.get("haunt_room") == "catacombs"
    assert s.get("haunt") == s.eval("haunt_of[dog, catacombs]")
    assert s.get("turn_omens") == 0 and s.get("omen_order", "girl") == 0


def test_the_first_roll_that_starts_the_haunt_is_the_last(game4: Game) -> None:
    """p.11, BH-HAUNTROLL-4: once the haunt is on, "nem végeznek már több szellemjárás dobást": the
    second omen of the turn gets no roll."""
    base = set_up(game4, FOUR)
    omens_this_turn(base, 6, ["girl", "dog"])
    s = game4.state_at("haunt_rolls", {"s": "p1"}, base, stop=True)
    roll(s, *faces_for(0))
    assert s.get("haunt_on") is True and s.get("haunt_omen") == "girl"
    assert not s.is_chance_node()


# ---- the traitor and the haunt's turn order (BH-TRAITOR, BH-HAUNT-TURN) -----------------------------


def test_left_of_the_revealer_wraps_round_the_table_with_three_and_six_players(game3: Game, game6: Game) -> None:
    """p.10, BH-TRAITOR-4 and BH-SETUP-10: the player to the left of the last seat is the first seat,
    with 3 as with 6 players."""
    for game, names, last in ((game3, FOUR[:3], "p3"), (game6, SIX, "p6")):
        base = set_up(game, names)
        base.set("revealed_by", last)
        assert base.eval("traitor_pick(left_of_revealer)") == "p1"


def test_tie_without_the_revealer_goes_to_the_nearest_on_the_left_with_six_players(game6: Game) -> None:
    """p.10, BH-TRAITOR-4: "a szellemjárást felfedő játékostól balra haladva számított közelebbi személy
    lesz az áruló a jelöltek közül": p5 reveals, p2 and p4 tie for the highest Might: p2 is 3 seats to
    p5's left (p6, p1, p2), p4 is 5."""
    base = set_up(game6, SIX)
    base.set("tpos", "p2", "might", "l8")   # Ox Bellows: Might 8
    base.set("tpos", "p4", "might", "l8")   # Peter Akimoto: Might 8
    assert base.eval("value(p2, might)") == base.eval("value(p4, might)") == 8
    base.set("revealed_by", "p5")
    assert base.eval("traitor_pick(highest_might)") == "p2"
    base.set("revealed_by", "p3")
    assert base.eval("traitor_pick(highest_might)") == "p4"
    base.set("revealed_by", "p4")           # the revealer among the candidates (BH-TRAITOR-3)
    assert base.eval("traitor_pick(highest_might)") == "p4"


@pytest.mark.parametrize("players", [3, 6])
def test_haunt_rounds_start_left_of_the_traitor_with_three_and_six_players(players: int, game3: Game,
                                                                            game6: Game) -> None:
    """p.11, BH-HAUNT-TURN-1/2: "Az első forduló mindig az árulótól balra ülő játékossal kezdődik", every
    hero once, then the traitor, then again from the traitor's left."""
    game, names = (game3, FOUR[:3]) if players == 3 else (game6, SIX)
    base = set_up(game, names)
    start_haunt(base, traitor="p2")
    heroes = {3: ["p3", "p1"], 6: ["p3", "p4", "p5", "p6", "p1"]}[players]
    assert haunt_round_turns(game, base, 2 * players)[1] == (heroes + ["p2"]) * 2


def test_a_dead_traitor_loses_the_turn_but_the_monsters_still_move(game4: Game) -> None:
    """p.11 and p.12, BH-HAUNT-TURN-5/6, BH-TRAITOR-8: "Még ha az áruló meg is hal ... a szörnyek
    elvégezhetik a fordulójukat (és az áruló irányítja őket)": the traitor's turn is gone, the monster
    turn is still played by the traitor's player; dead heroes are skipped too."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    monster_at(base, "upper_landing", speed=1, might=1)
    base.set("alive", "p2", False)
    base.set("alive", "p4", False)
    s, order = haunt_round_turns(game4, base, 3, note_others=True)
    assert order[:2] == ["p3", "p1"]
    headers = [e.text.split(",")[0] for e in s.log() if e.text.startswith("---")]
    assert headers[2].startswith("--- traitor turn: Ox Bellows is dead")
    assert headers[3].startswith("--- monster turn")
    assert order[2] == "p3"                  # round 2, after the hound's turn


# ---- attacks (BH-ATTACK) -------------------------------------------------------------------------


def hero_attacks_traitor(game: Game, base: State, target: str = "attack Ox") -> State:
    s = game.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "attack")
    act(s, target)
    return s


def test_no_attack_before_the_haunt(game4: Game) -> None:
    """p.8, BH-ATTACK-2: "Nem támadhatsz meg senkit, csak miután a kísértetjárás elkezdődött"."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert "attack" not in labels(s)
    assert not s.eval("can_attack(p1)")


def test_a_dead_traitor_can_be_neither_attacked_nor_shot(game4: Game) -> None:
    """p.8, BH-ATTACK-1 and p.11, BH-DEATH-2: a dead explorer is no opponent: no attack on the traitor's
    body in the room, and no shot at it with the Revolver."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("in_deck", "revolver", 0)
    base.set("held", "p1", "revolver", 1)
    base.set("alive", "p2", False)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert "attack" not in labels(s)
    base.set("at", "p2", "grand_staircase")  # in line of sight, two rooms north
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    assert "attack" not in labels(s)


def test_a_defender_who_wins_deals_the_damage_and_cannot_steal(game4: Game) -> None:
    """p.8-9, BH-ATTACK-3 and BH-ATTACK-STEAL-1: "Aki a nagyobb értéket dobja, az fizikai sérülést okoz":
    the defender who rolls 2 more hurts the attacker; stealing is for the one who attacks ("Ha megtámadsz
    valakit"), so the attacker takes the 2 points and keeps its Axe."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("in_deck", "axe", 0)
    base.set("held", "p1", "axe", 1)
    s = hero_attacks_traitor(game4, base)
    act(s, "attack without a weapon")
    roll(s, 0, 0, 0, 0)              # Jenny: Might 4, total 0
    roll(s, 1, 1, 0, 0, 0)           # Ox Bellows: Might 5, total 2
    assert s.prompt() == "which trait of Jenny LeClerc takes the point?"
    act(s, "lower might")
    act(s, "lower speed")
    assert s.get("held", "p1", "axe") == 1 and s.get("held", "p2", "axe") == 0
    assert (s.get("tpos", "p1", "might"), s.get("tpos", "p1", "speed")) == ("l2", "l3")


def test_one_point_of_damage_is_not_enough_to_steal(game4: Game) -> None:
    """p.9, BH-ATTACK-STEAL-1: "2 vagy több pont fizikai sérülést okozol": a win by 1 deals the damage."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("in_deck", "axe", 0)
    base.set("held", "p2", "axe", 1)
    s = hero_attacks_traitor(game4, base)
    roll(s, 1, 1, 1, 0)              # Jenny: 3
    roll(s, 1, 1, 0, 0, 0)           # Ox Bellows: 2
    assert s.prompt() == "which trait of Ox Bellows takes the point?"


def test_mental_damage_of_two_or_more_cannot_be_taken_as_a_theft(game4: Game) -> None:
    """p.9, BH-ATTACK-STEAL-1, BH-ATTACK-5: the theft replaces *physical* damage ("fizikai sérülést"); a
    Sanity attack (the Ring) that wins by 6 deals mental damage."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    for card in ("ring", "axe"):
        base.set("in_deck", card, 0)
    base.set("held", "p1", "ring", 1)
    base.set("held", "p2", "axe", 1)
    s = hero_attacks_traitor(game4, base)
    act(s, "a sanity attack")
    roll(s, 2, 2, 2, 2)              # Jenny: Sanity 4, total 8
    roll(s, 1, 1, 0)                 # Ox Bellows: Sanity 3, total 2
    assert s.prompt() == "which trait of Ox Bellows takes the point?"
    assert sorted(labels(s)) == ["lower knowledge (now 3)", "lower sanity (now 3)"]


def test_a_ranged_shot_that_loses_costs_nothing_and_one_that_wins_cannot_steal(game4: Game) -> None:
    """p.9, BH-ATTACK-RANGED-1/2, BH-ATTACK-STEAL-2: "Nem szenvedsz sérülést, ha a távolsági támadás
    célpontja legyőz a kockadobásnál" and "Távolsági támadás esetén ezt nem teheted meg"."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("in_deck", "revolver", 0)
    base.set("held", "p1", "revolver", 1)
    base.set("in_deck", "axe", 0)
    base.set("held", "p2", "axe", 1)
    base.set("at", "p2", "grand_staircase")  # two rooms north of the Entrance Hall
    s = hero_attacks_traitor(game4, base, target="shoot Ox")
    roll(s, 0, 0, 0, 0, 0)           # Jenny: Speed 4 + the Revolver's die, total 0
    roll(s, 2, 2, 2, 2)              # Ox Bellows: Speed 4, total 8
    assert s.prompt().startswith("what does Jenny LeClerc do")
    assert (s.get("tpos", "p1", "speed"), s.get("tpos", "p1", "might")) == ("l4", "l3")
    s = hero_attacks_traitor(game4, base, target="shoot Ox")
    roll(s, 2, 2, 2, 0, 0)           # Jenny: 6
    roll(s, 0, 0, 0, 0)              # Ox Bellows: 0
    assert s.prompt() == "which trait of Ox Bellows takes the point?"


def test_an_attacker_killed_by_the_defender_ends_its_turn(game4: Game) -> None:
    """p.8 and p.11, BH-ATTACK-3, BH-DEATH-2: a hero at Might and Speed 1 (position 1) who attacks and
    loses by 1 drops to the skull and dies; the turn is over and the next hero plays."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("tpos", "p1", "might", "l1")
    base.set("tpos", "p1", "speed", "l1")
    s = hero_attacks_traitor(game4, base)
    roll(s, 0, 0, 0)                 # Jenny: Might 3 at position 1, total 0
    roll(s, 1, 0, 0, 0, 0)           # Ox Bellows: 1
    act(s, "lower might")
    assert s.get("alive", "p1") is False and s.get("tpos", "p1", "might") == "skull"
    assert s.prompt() == "what does Madame Zostra do?"


# ---- movement with opponents (BH-HAUNT-MOVE) -----------------------------------------------------


def test_the_first_step_out_of_a_crowded_room_is_always_allowed(game4: Game) -> None:
    """p.12, BH-HAUNT-MOVE-1/3: leaving costs 1 more per opponent, "Függetlenül az adott fordulódra érvényes
    mozgási többletköltségektől, mindig mozoghatsz legalább egy mezőnyit": Jenny at Speed 2 with the
    traitor and a hound in the room (cost 3) may take one step, and no second."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    monster_at(base, "entrance_hall")
    base.set("tpos", "p1", "speed", "l1")   # Jenny: Speed 2
    assert base.eval("leave_cost(p1)") == 3
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "move north")
    assert s.get("at", "p1") == "foyer"
    assert not any(x.startswith(("move ", "take the stairs", "discover")) for x in labels(s))


def test_the_traitor_is_slowed_by_heroes_not_by_its_monsters_nor_the_dead(game4: Game) -> None:
    """p.12, BH-HAUNT-MOVE-1/2/4: an opponent is one "ami igyekszik megállítani a mozgásod": the traitor
    pays 1 more for each living hero in the room, nothing for its own hound; a stunned hound slows no
    hero."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    monster_at(base, "entrance_hall")
    assert base.eval("leave_cost(p2)") == 4          # three heroes
    base.set("alive", "p3", False)
    assert base.eval("leave_cost(p2)") == 3
    assert base.eval("leave_cost(p1)") == 3          # the traitor and the hound
    base.set("mon_stunned", "m1", True)
    assert base.eval("leave_cost(p1)") == 2


# ---- rule texts ----------------------------------------------------------------------------------


def test_rule_texts_of_the_audited_families_keep_rule_ids_whole(game4: Game) -> None:
    """BH-ATTACK-5 and BH-ATTACK-7 cite BH-DAMAGE-2 and BH-ATTACK-STEAL-1 as the digest writes them; a
    folded line must not break an ID into "BH- DAMAGE-2" (what `ghostrules rules show` printed)."""
    broken = [r.id for r in game4.spec.rules if re.search(r"\b(BH|BX|BC|OQ)- ", r.text)]
    assert broken == []  # every family (BH-CARD-OMEN-3 in cards.yaml had one too)
