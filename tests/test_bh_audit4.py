"""Betrayal: fourth audit's follow-ups (helper-61), in exact positions.

The rules are the Hungarian rulebook (shared/seeds/004_d45700e3d66fa338.txt). At death the rulebook sets
aside only item and omen cards: "Mikor meghalsz, minden tárgyad eldobod. Rakj abba a szobába egy
tárgyhalom jelzőt, és rakd félre a tárgy-, és ómen kártyáid" (p.13, BH-DEATH-5); an event card goes to the
discard pile: "Ezután dobd el a kártyát, hacsak a lap ezt nem tiltja, vagy ha hosszantartó hatása van"
(p.4, BH-CARD-EVENT-2), and a lasting effect on a dead explorer is over (BH-OPEN-52). A roll's result is
the sum of its faces ("add össze a kockákon látható pontokat", BH-ROLL-2): the spec keeps how many dice
show each face, all that the Rabbit's Foot and the Lucky Stone read, so equal rolls are one position.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bh_helpers import FOUR, act, holds, labels, play_out, roll, set_up, start_haunt

import ghostrules
from ghostrules import query
from ghostrules.engine import Game, State

LAWYER = Path(__file__).parent / "scenarios" / "lawyer"


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


def card_moves(state: State) -> dict[str, tuple[str, str]]:
    """Each card moved by the trace, mapped to (the rule cited, the zone it went to), its last move."""
    moves: dict[str, tuple[str, str]] = {}
    for line in map(str, state.log()):
        if " cards: " not in line or " -> " not in line:
            continue
        rule = line.split("]")[0].lstrip("[")
        zone = line.split(" -> ")[1]
        card = zone.split("[")[1].rstrip("]").split(", ")[-1]
        moves[card] = (rule, zone.split("[")[0])
    return moves


# ---- the cards of the dead: events are discarded (BH-CARD-EVENT-2), items and omens not (BH-DEATH-5) ---


def test_a_dead_explorers_kept_events_are_discarded_not_set_aside(game4: Game) -> None:
    """BH-DEATH-5 sets aside "a tárgy-, és ómen kártyáid" only: the Webs and the Grave Dirt, events kept for
    their lasting effect, go to the discard pile citing BH-CARD-EVENT-2; the Bite (an omen, no item) is
    still set aside and the Axe still dropped in the room (the control)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    holds(base, "p1", "webs", "grave_dirt", "bite", "axe")
    s = game4.state_at("die", {"s": "p1"}, base, stop=True, tracing=True)
    play_out(s)
    assert s.get("discarded", "webs") == 1 and s.get("discarded", "grave_dirt") == 1
    assert s.get("aside", "webs") == 0 and s.get("aside", "grave_dirt") == 0
    assert s.get("aside", "bite") == 1 and s.get("in_pile", "axe") == 1 and s.check_invariants() == []
    moves = card_moves(s)
    assert moves["webs"] == ("BH-CARD-EVENT-2", "discarded"), moves
    assert moves["grave_dirt"] == ("BH-CARD-EVENT-2", "discarded"), moves
    assert moves["bite"] == ("BH-DEATH-5", "aside"), moves


def test_the_event_that_kills_its_drawer_is_discarded_and_still_reaches_the_others(game4: Game) -> None:
    """The Silence ("every explorer in the basement rolls Sanity ... 0: 2 dice of mental damage", event 33)
    kills Jenny, who drew it: the card goes to the discard pile with her death (BH-CARD-EVENT-2), not aside,
    and Madame Zostra, also in the basement, still makes her Sanity roll."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    for seat in ("p1", "p3"):
        base.set("at", seat, "basement_landing")
    base.set("tpos", "p1", "sanity", "l1")
    base.set("tpos", "p1", "knowledge", "l1")
    s = game4.state_at("receive_card", {"s": "p1", "c": "silence"}, base, stop=True, tracing=True)
    play_out(s, [0, 2, 2])  # Jenny's Sanity roll 0, then 4 mental damage
    assert s.get("alive", "p1") is False
    assert s.get("discarded", "silence") == 1 and s.get("aside", "silence") == 0 and s.check_invariants() == []
    assert card_moves(s)["silence"] == ("BH-CARD-EVENT-2", "discarded")
    assert any(str(e).endswith("Madame Zostra makes a sanity roll: 0") for e in s.log())


# ---- a roll keeps how many dice show each face, not which die shows which (BH-ROLL-2) -----------------


def test_two_rolls_with_the_same_faces_in_another_order_are_one_position(game4: Game) -> None:
    """BH-ROLL-2, p.5: "add össze a kockákon látható pontokat": a roll's result is the sum of its faces,
    and nothing later reads which die showed which face. Rolling 0 then 2 and rolling 2 then 0 leave the
    same position (the faces of each die were kept, so the rules-lawyer's search could not merge them)."""
    base = set_up(game4, FOUR)
    first = game4.state_at("roll_dice", {"n": 2}, base, stop=True)
    second = first.clone()
    roll(first, 0, 2)
    roll(second, 2, 0)
    assert first.get("roll_total") == second.get("roll_total") == 2
    assert first == second


def test_an_attacks_odds_need_few_positions() -> None:
    """The odds that Jenny (Might 4) wounds Ox Bellows (Might 5) by attacking (BH-ATTACK-3) are found in
    fewer than 2 000 positions (16 047 when each die's face was kept; now 1 583)."""
    sc = query.load(LAWYER / "bh02_attack_jenny_against_ox.yaml")
    answer = query.odds(sc, "attack Ox Bellows", outcome="tpos[p2, might] != l3 or tpos[p2, speed] != l5",
                        budget=2_000)
    assert answer.to_json()["probability"] == "5365/19683"


def test_the_rabbits_foot_rerolls_a_die_showing_a_face(game4: Game) -> None:
    """BC-ITEM-RABBITS-FOOT ("Once per turn, reroll one die. You must keep the new result", item 19): after
    a Might roll of 0, 1, 2, 2 the choice is of a face below 2 (which of the dice showing it is rerolled
    does not matter); the 0 rerolled as a 2 makes the total 7."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "rabbit_s_foot")
    s = game4.state_at("trait_roll", {"s": "p1", "t": "might", "extra": 0, "why": "plain"}, base, stop=True)
    assert s.get("tpos", "p1", "might") == "l3" and base.eval("value(p1, might)") == 4
    roll(s, 0, 1, 2, 2)
    assert s.prompt() == "does Jenny LeClerc reroll a die with the Rabbit's Foot?", s.prompt()
    assert labels(s) == ["reroll a die that shows 0", "reroll a die that shows 1", "keep the dice"], labels(s)
    act(s, "reroll a die that shows 0")
    roll(s, 2)
    assert s.is_terminal() and s.get("roll_total") == 7 and s.get("used", "rabbit_s_foot") is True


def test_the_lucky_stone_rerolls_every_die_showing_less_than_two(game4: Game) -> None:
    """BC-ITEM-LUCKY-STONE ("After any roll, reroll any number of its dice once. Discard after use", item
    14; the reading rerolls every die below 2): after 0, 0, 1, 2 three dice are rolled again; 2, 1, 0 make
    the total 5, and the stone is discarded."""
    base = set_up(game4, FOUR)
    holds(base, "p1", "lucky_stone")
    s = game4.state_at("trait_roll", {"s": "p1", "t": "might", "extra": 0, "why": "plain"}, base, stop=True)
    roll(s, 0, 0, 1, 2)
    act(s, "reroll every die that shows less than 2")
    roll(s, 2, 1, 0)
    assert s.is_terminal() and s.get("roll_total") == 5 and s.get("discarded", "lucky_stone") == 1
