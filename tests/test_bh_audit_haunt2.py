"""Betrayal: a second audit of the haunt phase (the haunt roll, the traitor, monsters, death, the end), in
exact positions the first audit (test_bh_audit_haunt.py) did not build.

Each test checks one rule as the Hungarian rulebook (shared/seeds/004_d45700e3d66fa338.txt) states it:
wins reached in the middle of a turn, several hounds on one movement roll, the last hero killed in the
monster turn, damage that could take two traits to the skull, a monster stunned by its own lost attack,
a traitor killed on his own turn, the dead hero's companion and items, and the haunt roll's threshold
with many omens drawn.
"""

from __future__ import annotations

import pytest
from bh_helpers import FOUR, act, holds, labels, place, roll, set_up, start_haunt

import ghostrules
from ghostrules.engine import Game, State


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def hounds(state: State, n: int, room: str, speed: int = 2, might: int = 4) -> None:
    """Bring hounds m1..mn into play in ``room`` (the haunt must have started)."""
    for i in range(1, n + 1):
        m = f"m{i}"
        state.set("mon_in", m, True)
        state.set("mon_kind", m, "hound")
        state.set("mon_at", m, room)
        state.set("mon_trait", m, "speed", speed)
        state.set("mon_trait", m, "might", might)


def value(state: State, seat: str, trait: str) -> int:
    return state.eval(f"value({seat}, {trait})")


# ---- the end of the game (BH-WIN) ----------------------------------------------------------------


def test_the_third_ward_wins_at_once_though_the_hero_dies_later_in_the_turn(game4: Game) -> None:
    """p.13, BH-WIN-1/4: "Az a fél ..., amelyik előbb éri el a szellemjárás neki kijelölt céljait, megnyeri
    a játékot" and "A játék véget ér, ha az egyik fél végrehajtja a céljait": the last living hero sets the
    third ward of haunt 2; the heroes have won then and there. The spec checked the goals only at the end
    of the turn, so the same hero could attack the traitor, die, and hand the traitor the win."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2", haunt="sealed_door")
    place(base, "dining_room", "ground", "x3y5")        # a room with an omen symbol
    for seat in ("p1", "p2"):
        base.set("at", seat, "dining_room")
    base.set("alive", "p3", False)
    base.set("alive", "p4", False)
    for room, cell in (("abandoned_room", "x3y4"), ("kitchen", "x2y5")):  # two wards set already, in omen rooms
        place(base, room, "ground", cell)
        base.set("ward_on", room, 1)
    base.set("ward_box", 16)                             # (the two wards came out of the box)
    base.set("tpos", "p1", "might", "l1")
    assert base.check_invariants() == []                 # 18 wards, each in the box or in a room
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "take the haunt's action")
    roll(s, *[2] * value(s, "p1", "knowledge"))          # the Knowledge roll: 5 or more
    assert s.get("ward_box") == 15
    assert s.is_terminal() and s.outcome() is not None
    assert str(s.outcome()).startswith("heroes")


def test_destroying_the_last_hound_after_the_traitor_died_wins_at_once(game4: Game) -> None:
    """p.13, BH-WIN-1/4 and haunt 1's H1-WIN-HEROES (the traitor dead, every hound destroyed): the hero whose
    attack destroys the last hound wins at that moment, not at the end of the turn (when the same hero
    might have died since, say from the end-of-turn room damage)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    hounds(base, 1, "entrance_hall", might=1)
    base.set("alive", "p2", False)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "attack")
    act(s, "attack monster 1")
    roll(s, *[2] * value(s, "p1", "might"))              # Jenny: 8 with Might 4
    roll(s, 0)                                           # the hound: 0, destroyed (3 or more)
    assert s.get("mon_in", "m1") is False
    assert s.is_terminal() and str(s.outcome()).startswith("heroes")


@pytest.mark.parametrize("traitor_dead", [False, True])
def test_the_last_hero_killed_in_the_monster_turn_ends_the_game_before_the_next_hound(game4: Game,
                                                                                      traitor_dead: bool) -> None:
    """p.11 and p.13, BH-DEATH-2, BH-WIN-1 (H1-WIN-TRAITOR): the first hound kills the last hero; the game is
    over and the second hound neither moves nor is asked to attack. A dead traitor wins all the same
    (BH-WIN-3: "az áruló akár a halála után is nyerjen")."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("alive", "p2", not traitor_dead)
    hounds(base, 2, "entrance_hall")
    base.set("alive", "p3", False)
    base.set("alive", "p4", False)
    base.set("tpos", "p1", "might", "l1")
    s = game4.state_at("monster_turn", {}, base, stop=True)
    roll(s, 0, 0)                                        # no movement points for the hounds
    act(s, "monster 1 attacks Jenny")
    roll(s, 2, 2, 2, 2)                                  # the hound: 8
    roll(s, 0, 0, 0)                                     # Jenny: Might 3 at position 1, 0
    act(s, "lower might")
    assert s.get("alive", "p1") is False
    assert s.is_terminal() and str(s.outcome()).startswith("traitor")


# ---- monsters (BH-MONSTER) -----------------------------------------------------------------------


def test_three_hounds_move_on_one_roll_of_their_speed(game4: Game) -> None:
    """p.12, BH-MONSTER-2/3: "dobj annyi kockával, mint a szörny sebessége" and "az egész csoportra érvényes
    a dobás": three hounds of Speed 2 make one roll of 2 dice, and each of them has its 2 points."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    hounds(base, 3, "grand_staircase")
    for seat in ("p1", "p3", "p4"):
        base.set("at", seat, "upper_landing")            # no hero to attack in the hounds' way
    s = game4.state_at("monster_turn", {}, base, stop=True)
    roll(s, 1, 1)
    for m in ("monster 1", "monster 2", "monster 3"):
        assert s.prompt().startswith(f"where does {m} (Hollow Hound) go? (2 points left)")
        act(s, f"{m} moves south to Foyer")
        assert s.prompt().startswith(f"where does {m} (Hollow Hound) go? (1 points left)")
        act(s, f"{m} moves south to Entrance Hall")
    assert s.is_terminal() and not s.is_chance_node()    # no second roll: the monster turn is over
    assert [s.get("mon_at", m) for m in ("m1", "m2", "m3")] == ["entrance_hall"] * 3


def test_a_hound_stunned_by_its_own_lost_attack_misses_the_next_monster_turn_only(game4: Game) -> None:
    """p.12, BH-MONSTER-4/5 (BH-OPEN-23): a hound that loses its attack by 1 is stunned ("kihagyja a következő
    fordulóját"); it hinders no one meanwhile (BH-MONSTER-6); the next monster turn rolls no dice for it and
    flips it back at the end ("A szörnyek következő fordulójának végén"); the one after, it rolls again."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    hounds(base, 1, "entrance_hall")
    s = game4.state_at("monster_turn", {}, base, stop=True)
    roll(s, 0, 0)
    act(s, "monster 1 attacks Jenny")
    roll(s, 0, 0, 0, 0)                                  # the hound: 0
    roll(s, 1, 0, 0, 0)                                  # Jenny: 1, the hound takes 1 damage
    assert s.get("mon_stunned", "m1") is True and s.get("mon_in", "m1") is True
    assert s.eval("leave_cost(p1)") == 2                 # the traitor counts, the stunned hound does not
    skipped = game4.state_at("monster_turn", {}, s, stop=True)
    assert skipped.is_terminal() and not skipped.is_chance_node()
    assert skipped.get("mon_stunned", "m1") is False
    again = game4.state_at("monster_turn", {}, skipped, stop=True)
    assert again.is_chance_node() and again.prompt() == "roll the die"


def test_a_traitor_killed_on_his_own_turn_still_runs_the_monster_turn(game4: Game) -> None:
    """p.11-12, BH-HAUNT-TURN-6, BH-TRAITOR-8, BH-WIN-2/3: the traitor attacks a hero, loses and dies on his
    own turn; with a hound still in the house the game goes on and the monster turn follows at once."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    hounds(base, 1, "foyer")
    base.set("tpos", "p2", "might", "l1")
    base.set("tpos", "p2", "speed", "l1")
    s = game4.state_at("haunt_round", {}, base, stop=True, tracing=True)
    for _ in range(3):                                   # p3, p4, p1: the heroes end their turns
        act(s, "end the turn")
    assert s.prompt() == "what does Ox Bellows do?"
    act(s, "attack")
    act(s, "attack Jenny")
    roll(s, *[0] * value(s, "p2", "might"))
    roll(s, *[1] * value(s, "p1", "might"))
    act(s, "lower might")
    assert s.get("alive", "p2") is False and not s.is_terminal()
    assert s.is_chance_node() and s.prompt() == "roll the die"   # the hound's movement roll
    headers = [e.text for e in s.log() if e.text.startswith("---")]
    assert headers[-1].startswith("--- monster turn")


# ---- damage and death (BH-DAMAGE, BH-DEATH) ------------------------------------------------------


def test_damage_that_could_take_two_traits_to_the_skull_kills_once_and_stops(game4: Game) -> None:
    """p.8 and p.11, BH-DAMAGE-1, BH-DEATH-2: 8 points of physical damage against Might and Speed at their
    lowest: the first point lowered to the skull kills; no further point is asked for, Speed stays, and the
    next hound sees only the living heroes."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    hounds(base, 2, "entrance_hall")
    base.set("tpos", "p1", "might", "l1")
    base.set("tpos", "p1", "speed", "l1")
    s = game4.state_at("monster_turn", {}, base, stop=True)
    roll(s, 0, 0)
    act(s, "monster 1 attacks Jenny")
    roll(s, 2, 2, 2, 2)
    roll(s, 0, 0, 0)
    assert sorted(labels(s)) == ["lower might (now 3)", "lower speed (now 2)"]
    act(s, "lower might")
    assert s.get("alive", "p1") is False
    assert (s.get("tpos", "p1", "might"), s.get("tpos", "p1", "speed")) == ("skull", "l1")
    assert s.prompt() == "does monster 2 (Hollow Hound) attack?"
    assert not any("Jenny" in x for x in labels(s))


def test_a_hero_killed_by_a_hound_leaves_its_dog_and_items_in_that_room(game4: Game) -> None:
    """p.12, BH-DEATH-4/5: "a jelzője azon a szobán marad, ahol meghaltál" and "minden tárgyad eldobod": the
    Dog is set aside in the Foyer, the Axe goes to an item pile there; a hero who comes in may take both."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    hounds(base, 1, "foyer")
    holds(base, "p1", "dog", "axe")
    base.set("at", "p1", "foyer")
    base.set("tpos", "p1", "might", "l1")
    s = game4.state_at("monster_turn", {}, base, stop=True)
    roll(s, 0, 0)
    act(s, "monster 1 attacks Jenny")
    roll(s, 2, 2, 2, 2)
    roll(s, *[0] * value(s, "p1", "might"))
    act(s, "lower might")
    assert s.get("alive", "p1") is False
    assert (s.get("aside", "dog"), s.get("pile_room", "dog")) == (1, "foyer")
    assert (s.get("in_pile", "axe"), s.get("pile_room", "axe")) == (1, "foyer")
    assert s.get("held", "p1", "dog") == 0 and s.get("held", "p1", "axe") == 0
    hero = game4.state_at("explorer_turn", {"s": "p3"}, s)
    act(hero, "move north to Foyer")
    assert {"take the Dog along", "pick up items from the item pile"} <= set(labels(hero))


# ---- the haunt roll with many omens (BH-HAUNTROLL) ------------------------------------------------


@pytest.mark.parametrize("total,starts", [(11, True), (12, False)])
def test_with_twelve_omens_drawn_only_a_roll_under_twelve_starts_the_haunt(game4: Game, total: int,
                                                                         starts: bool) -> None:
    """p.9, BH-HAUNTROLL-2: "Ha kevesebbet dobsz, mint ... felhúzott ómen kártyák száma": with 12 omens drawn,
    the highest roll (12) does not start the haunt, 11 does."""
    base = set_up(game4, FOUR)
    place(base, "catacombs", "basement", "x4y3")
    base.set("omens_drawn", 12)
    base.set("turn_omens", 1)
    base.set("omen_order", "girl", 1)
    base.set("omen_room", "girl", "catacombs")
    holds(base, "p1", "girl")
    s = game4.state_at("haunt_rolls", {"s": "p1"}, base, stop=True)
    roll(s, *([2] * (total // 2) + [1] * (total % 2) + [0] * (6 - total // 2 - total % 2)))
    assert s.get("haunt_on") is starts
