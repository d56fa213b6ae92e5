"""Betrayal: a second audit of the 45 event cards, in exact positions.

The card facts are the paraphrases of ../shared/data/betrayal_cards.md (specs/betrayal/cards.csv, column
``effect``), the rules BC-EVENT-* in specs/betrayal/rules/event_cards.yaml, and the Hungarian rulebook
(shared/seeds/004_d45700e3d66fa338.txt) for trait rolls ("dobj annyi kockával amennyi a felfedeződ adott
értéke abban a pillanatban") and damage. The earlier audits (test_bh_audit_cards.py, test_bh_leftovers.py,
test_bh_followups.py) are not repeated here. The first tests pin the result bands of the cards at their
boundaries; the later ones are the bugs this audit fixed.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from bh_helpers import FOUR, act, place, play_out, set_up, trait_levels

import ghostrules
from ghostrules.engine import Game, State


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def change(game: Game, card: str, faces: list[int], setup=None, choose=None) -> dict[str, int]:
    """Jenny LeClerc (p1) draws ``card`` in the Entrance Hall, before the haunt; the dice show ``faces``.
    Returns the change of each of her traits (in track positions)."""
    base = set_up(game, FOUR)
    if setup:
        setup(base)
    before = trait_levels(game, base)
    s = game.state_at("receive_card", {"s": "p1", "c": card}, base, stop=True, tracing=True)
    play_out(s, faces, choose)
    after = trait_levels(game, s)
    return {t: after[t] - before[t] for t in before if after[t] != before[t]}


CARDS_CSV = Path(__file__).resolve().parent.parent / "specs" / "betrayal" / "cards.csv"


def test_every_event_row_has_the_header_columns() -> None:
    """cards.csv: each event row has exactly the columns of the header. The Mystic Slide's reading,
    "later use of the slide: the Slide token's action (BC-EVENT-MYSTIC-SLIDE-USE, BX-CARD-9)", was not
    quoted, so its comma split it into a 15th column that no header names (DictReader's key None) and the
    reading column held only half of it."""
    rows = list(csv.reader(CARDS_CSV.open(encoding="utf-8")))
    header = rows[0]
    events = [r for r in rows[1:] if r[header.index("deck")] == "event"]
    assert len(events) == 45
    assert [r[1] for r in events if len(r) != len(header)] == []
    slide = next(r for r in events if r[1] == "Mystic Slide")
    assert "BX-CARD-9)" in slide[header.index("reading")]


N = 8  # more zeros than any trait has dice: the rest of a roll shows 0


# ---- the result bands at their boundaries ------------------------------------------------------------
# Jenny LeClerc: Speed 4 dice, Might 4, Sanity 4 (position 5), Knowledge 3.


@pytest.mark.parametrize(("card", "faces", "expected"), [
    # Angry Being (event 2): "Speed roll: 5+ = +1 Speed; 2-4 = 1 die of mental damage; 0-1 = 1 die of
    # mental and 1 die of physical damage"; the damage dice show 1 each
    ("angry_being", [2, 2, 1, 0], {"speed": 1}),
    ("angry_being", [2, 2, 0, 0, 1], {"sanity": -1}),
    ("angry_being", [1, 0, 0, 0, 1, 1], {"sanity": -1, "speed": -1}),
    # Rotten (event 29): "5+ = +1 Sanity; 2-4 = -1 Might; 1 = -1 Might and -1 Speed; 0 = -1 in every trait"
    ("rotten", [2, 2, 1, 0], {"sanity": 1}),
    ("rotten", [2, 2, 0, 0], {"might": -1}),
    ("rotten", [2, 0, 0, 0], {"might": -1}),
    ("rotten", [1, 0, 0, 0], {"might": -1, "speed": -1}),
    ("rotten", [0] * N, {"might": -1, "speed": -1, "sanity": -1, "knowledge": -1}),
    # Something Slimy (event 37): "Speed roll: 4+ = +1 Speed; 1-3 = -1 Might; 0 = -1 Might and -1 Speed"
    ("something_slimy", [2, 2, 0, 0], {"speed": 1}),
    ("something_slimy", [2, 1, 0, 0], {"might": -1}),
    ("something_slimy", [0] * N, {"might": -1, "speed": -1}),
    # Night View (event 25): "Knowledge roll: 5+ = +1 Knowledge; 0-4 = nothing"
    ("night_view", [2, 2, 1], {"knowledge": 1}),
    ("night_view", [2, 2, 0], {}),
    # Phone Call (event 26): "Roll 2 dice: 4 = +1 Sanity; 3 = +1 Knowledge; 1-2 = 1 die of mental damage;
    # 0 = 2 dice of physical damage"
    ("phone_call", [2, 2], {"sanity": 1}),
    ("phone_call", [2, 1], {"knowledge": 1}),
    ("phone_call", [1, 1, 1], {"sanity": -1}),
    ("phone_call", [0, 0, 1, 1], {"speed": -2}),
    # Bloody Vision (event 3): "4+ = +1 Sanity; 2-3 = -1 Sanity"
    ("bloody_vision", [2, 2, 0, 0], {"sanity": 1}),
    ("bloody_vision", [2, 1, 0, 0], {"sanity": -1}),
    # Funeral (event 12): "4+ = +1 Sanity; 2-3 = -1 Sanity; 0-1 = -1 Sanity and -1 Might" (no Graveyard
    # or Crypt in the house: no move)
    ("funeral", [2, 2, 0, 0], {"sanity": 1}),
    ("funeral", [2, 1, 0, 0], {"sanity": -1}),
    ("funeral", [1, 0, 0, 0], {"sanity": -1, "might": -1}),
    # Debris (event 8): "Speed roll: 3+ = +1 Speed; 1-2 = buried, 1 die of physical damage; 0 = buried,
    # 2 dice of physical damage"
    ("debris", [2, 1, 0, 0], {"speed": 1}),
    ("debris", [2, 0, 0, 0, 1], {"speed": -1}),
    ("debris", [0, 0, 0, 0, 1, 1], {"speed": -2}),
    # Spider (event 38), rolling Sanity: "4+ = +1 in the trait you rolled; 1-3 = 1 die of physical
    # damage; 0 = 2 dice of physical damage"
    ("spider", [2, 2, 0, 0], {"sanity": 1}),
    ("spider", [2, 1, 0, 0, 1], {"speed": -1}),
    ("spider", [0, 0, 0, 0, 1, 1], {"speed": -2}),
])
def test_result_bands(game4: Game, card: str, faces: list[int], expected: dict[str, int]) -> None:
    """Each band of the card as betrayal_cards.md gives it, at the totals on either side of a boundary;
    physical damage is taken on Speed (the first option), mental on Sanity."""
    assert change(game4, card, faces, choose={"how does": "roll sanity"}) == expected


def test_mists_from_the_walls_adds_dice_in_an_event_room(game4: Game) -> None:
    """BC-EVENT-MISTS-FROM-THE-WALLS (event 23): "1-3 = 1 die of mental damage (+1 die if in a room with an
    event symbol); 0 = 1 die of mental damage (+2 dice if in an event-symbol room)". In the Crypt (an event
    room of the basement) Jenny's Sanity roll (4 dice) of 1 costs 2 dice, of 0 three."""
    def rolled(faces: list[int]) -> int:
        base = set_up(game4, FOUR)
        place(base, "crypt", "basement", "x4y3")
        base.set("at", "p1", "crypt")
        s = game4.state_at("receive_card", {"s": "p1", "c": "mists_from_the_walls"}, base, stop=True)
        return play_out(s, faces)
    assert rolled([1]) == 4 + 2
    assert rolled([]) == 4 + 3


def test_disquieting_sounds_equal_to_the_omens_is_enough(game4: Game) -> None:
    """BC-EVENT-DISQUIETING-SOUNDS (event 9): "If the total is equal to or more than the number of omens
    revealed, +1 Sanity; otherwise 1 die of mental damage" (unlike the haunt roll, where equal is safe
    too, "Ha kevesebbet dobsz"): with 2 omens out, a total of 2 gains, a total of 1 costs a die."""
    def omens(base: State) -> None:
        base.set("omens_drawn", 2)
    assert change(game4, "disquieting_sounds", [2], omens) == {"sanity": 1}
    assert change(game4, "disquieting_sounds", [1, 0, 0, 0, 0, 0, 1], omens) == {"sanity": -1}


# ---- the Mystic Slide drawn in the basement (BH-OPEN-39) ----------------------------------------------


def test_mystic_slide_drawn_in_the_basement_does_nothing(game4: Game) -> None:
    """BC-EVENT-MYSTIC-SLIDE (event 24: "The floor falls from under you"; "5+ = go to any explored room on a
    lower floor. 0-4 = draw tiles until a basement room turns up, place it, fall into it, and take 1 die of
    physical damage"), and BH-OPEN-39: the card, drawn in the basement, goes to the next explorer on the
    left who is not there, and "Discard this card if all of the explorers are in the basement". Drawn in
    the Crypt with everyone there, the card asked a Might roll and dropped the explorer into a new
    basement room; now no roll, no Slide token, no new room and no damage."""
    base = set_up(game4, FOUR)
    place(base, "crypt", "basement", "x4y3")
    for seat in ("p1", "p2", "p3", "p4"):
        base.set("at", seat, "crypt")
    before = trait_levels(game4, base)
    s = game4.state_at("receive_card", {"s": "p1", "c": "mystic_slide"}, base, stop=True, tracing=True)
    assert play_out(s, []) == 0
    assert s.get("at", "p1") == "crypt"
    assert s.get("token_box", "tk_slide") == 1
    assert s.get("discarded", "mystic_slide") == 1
    assert trait_levels(game4, s) == before
    assert s.get("left_for", "basement") == base.get("left_for", "basement")


def test_mystic_slide_drawn_above_the_basement_still_opens(game4: Game) -> None:
    """The control: drawn on the ground floor the Slide token is put and the Might roll made (Jenny's 4
    dice, all blank: she falls into a new basement room)."""
    base = set_up(game4, FOUR)
    place(base, "gardens", "ground", "x5y6")
    base.set("at", "p1", "gardens")
    s = game4.state_at("receive_card", {"s": "p1", "c": "mystic_slide"}, base, stop=True)
    play_out(s, [])
    assert s.get("token_on", "gardens", "tk_slide") == 1
    assert s.get("rfloor", str(s.get("at", "p1"))) == "basement"


# ---- the Revolving Wall with nowhere to turn ----------------------------------------------------------


def test_revolving_wall_with_no_room_for_the_floor_puts_no_token(game4: Game) -> None:
    """BC-EVENT-REVOLVING-WALL (event 28): "If no room lies beyond it, draw tiles until one fits this floor
    and place it there; if this floor has no tiles left, discard the event." The Gardens far from the house
    (no room beyond its door-less walls) with no ground-floor tile left: the card is discarded and the Wall
    Switch token, which the rule put in the room even so, stays in the box; there is no wall to pass."""
    base = set_up(game4, FOUR)
    place(base, "gardens", "ground", "x1y1")
    base.set("at", "p1", "gardens")
    base.set("left_for", "ground", 0)
    s = game4.state_at("receive_card", {"s": "p1", "c": "revolving_wall"}, base, stop=True)
    play_out(s, [])
    assert s.get("discarded", "revolving_wall") == 1
    assert s.get("token_box", "tk_wall") == 1
    assert s.get("token_on", "gardens", "tk_wall") == 0
    assert s.get("at", "p1") == "gardens" and str(s.get("wall_room")) == "none"


# ---- the roll to free a buried or webbed explorer is an event roll (the Candle) ------------------------


def freeing_dice(game: Game, rescuer_cards: tuple[str, ...]) -> tuple[int, int]:
    """Ox Bellows (p2) tries to free Jenny LeClerc (p1), caught in the Webs in the Entrance Hall; returns
    the dice he rolls and his Might value."""
    base = set_up(game, FOUR)
    base.set("in_deck", "webs", 0)
    base.set("held", "p1", "webs", 1)
    for card in rescuer_cards:
        base.set("in_deck", card, 0)
        base.set("held", "p2", card, 1)
    s = game.state_at("explorer_turn", {"s": "p2"}, base)
    act(s, "try to free Jenny")
    dice = 0
    while s.is_chance_node() and s.prompt() == "roll the die":
        dice += 1
        s.apply_action("die: 0")
    return dice, int(base.eval("value(p2, might)"))


def test_freeing_roll_takes_the_candle_die(game4: Game) -> None:
    """BC-EVENT-DEBRIS-FREE (events 8 and 43: "Once per turn any explorer ... may try Might 4+ to free you")
    and BC-ITEM-CANDLE (item 9: "+1 die (max 8) on trait rolls made for event cards"; BH-OPEN-38: "Every
    event roll of the Candle's holder"): the Might roll the Webs card asks of a rescuer is a trait roll
    made for an event card, like the Safe's or the Skeletons' rolls, so the Candle adds its die. It was
    rolled as a plain trait roll, without it."""
    plain, might = freeing_dice(game4, ())
    assert plain == might
    with_candle, _ = freeing_dice(game4, ("candle",))
    assert with_candle == might + 1
