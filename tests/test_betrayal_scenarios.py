"""Betrayal positions as scenario files (specs/betrayal/scenario.yaml): the rulebook's worked examples
(docs/examples/betrayal-*.yaml) and edge cases (tests/scenarios/betrayal/*.yaml) answer their own
questions, print back, give the exact odds the dice give, and malformed files fail with file:line.

tests/test_scenarios.py checks docs/examples/*.yaml too; the files of tests/scenarios/betrayal/ are
checked here.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

import ghostrules
from ghostrules import query
from ghostrules.cli import main
from ghostrules.query import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("betrayal-*.yaml"))
EDGE_CASES = sorted((ROOT / "tests" / "scenarios" / "betrayal").glob("*.yaml"))
HEAD = ("game: betrayal\nplayers: 4\nexplorers:\n  p1: {character: Jenny LeClerc}\n  p2: {character: Ox Bellows}\n"
        "  p3: {character: Madame Zostra}\n  p4: {character: Peter Akimoto}\n")


def dice_sum(n: int) -> dict[int, Fraction]:
    """The exact distribution of the total of n Betrayal dice (faces 0, 0, 1, 1, 2, 2)."""
    out: dict[int, Fraction] = {}
    for faces in product((0, 1, 2), repeat=n):
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + Fraction(1, 3 ** n)
    return out


def test_the_six_worked_examples_are_scenario_files() -> None:
    names = {p.stem for p in EXAMPLES}
    assert names == {"betrayal-speed-3-move", "betrayal-sanity-4-roll", "betrayal-six-against-five",
                     "betrayal-jenny-against-the-werewolf", "betrayal-haunt-roll-4-or-less",
                     "betrayal-girl-in-the-catacombs"}


@pytest.mark.parametrize("path", EDGE_CASES, ids=lambda p: p.stem)
def test_edge_case_answers_its_question(path: Path) -> None:
    scenario = query.load(path)
    assert scenario.title and scenario.description and scenario.expect.get("rules")
    answer = query.ask(scenario)
    assert query.check_expect(answer, scenario.expect) == [], answer.text()


@pytest.mark.parametrize("path", EXAMPLES + EDGE_CASES, ids=lambda p: p.stem)
def test_betrayal_scenario_prints_back(path: Path) -> None:
    scenario = query.load(path)
    text = query.scenario_text(scenario.state)
    again = query.load_scenario(text)
    assert again == scenario.state
    assert query.scenario_text(again) == text
    for derived in ("room_at", "left_for", "tile_placed", "tpos", "mon_in", "haunt_on", "turn_omens"):
        assert f"{derived}[" not in text and f"{derived}:" not in text, "derived slots are not printed raw"


# ---- the examples, asked through the API ----------------------------------------------------------


def example(name: str) -> query.Scenario:
    return query.load(ROOT / "docs" / "examples" / f"betrayal-{name}.yaml")


def test_speed_3_move_legal_moves_step_by_step() -> None:
    sc = example("speed-3-move")
    first = query.legal(sc)
    assert [o["label"] for o in first.data["options"]] == [
        "move north to Foyer", "discover a new room through the west door of the Entrance Hall", "end the turn"]
    after_two = query.next(sc, "move north to Foyer", "move east to Kitchen")
    options = [o["label"] for o in after_two.data["now"]["options"]]
    assert "move south to Dining Room" in options and "move west to Foyer" in options
    assert query.can(sc, "at[p3] == dining_room", 2).data["answer"] == "no"
    assert query.can(sc, "at[p3] == dining_room", 3).data["answer"] == "yes"
    # no fourth step: after three rooms only ending the turn is left (the file's own question)
    assert query.ask(sc).data["applied"][-1] == "end the turn (no other option)"


def test_sanity_4_roll_exact_odds() -> None:
    sc = example("sanity-4-roll")
    assert sc.state.eval("value(p1, sanity)") == 4
    exact = dice_sum(4)
    for total in (0, 4, 6, 8):
        answer = query.odds(sc, outcome=f"roll_total == {total}")
        assert Fraction(answer.data["probability"]) == exact[total], total
    assert Fraction(query.odds(sc, outcome="roll_total >= 6").data["probability"]) == Fraction(5, 27)


def test_six_against_five_and_jenny_against_the_werewolf() -> None:
    six = query.ask(example("six-against-five"))
    assert six.state is not None and six.state.get("tpos", "p2", "might") == "l3"
    six2 = query.next(six.state, "lower might")
    assert six2.state.get("tpos", "p2", "might") == "l2" and six2.state.eval("value(p2, might)") == 5
    wolf = query.ask(example("jenny-against-the-werewolf"))
    assert wolf.state is not None
    assert (wolf.state.eval("value(p1, might)"), wolf.state.eval("value(p1, speed)")) == (3, 4)
    assert wolf.state.get("alive", "p1") is True


@pytest.mark.parametrize("omens", [1, 5, 9, 13])
def test_haunt_roll_odds_for_any_omen_count(omens: int) -> None:
    """BH-HAUNTROLL-2: the haunt starts when 6 dice total less than the omens drawn so far."""
    text = (ROOT / "docs" / "examples" / "betrayal-haunt-roll-4-or-less.yaml").read_text(encoding="utf-8")
    text = text.replace("turn: {active: p1", f"counters: {{omens_drawn: {omens}}}\nturn: {{active: p1")
    sc = query.load(text)
    assert sc.state.get("omens_drawn") == omens
    answer = query.odds(sc, outcome="haunt_starts(roll_total)", horizon="roll_dice")
    want = sum((p for total, p in dice_sum(6).items() if total < omens), Fraction(0))
    assert Fraction(answer.data["probability"]) == want


def test_haunt_roll_example_is_56_over_243() -> None:
    sc = example("haunt-roll-4-or-less")
    assert sc.state.get("omens_drawn") == 5, "4 omens in the others' hands and the Girl: 5 drawn"
    assert Fraction(query.ask(sc).data["probability"]) == Fraction(56, 243)


def test_girl_in_the_catacombs_with_load_scenario() -> None:
    state = ghostrules.load_scenario(ROOT / "docs" / "examples" / "betrayal-girl-in-the-catacombs.yaml")
    assert state.eval("revealed_haunt(girl, catacombs)") == "hollow_hounds"
    for _ in range(6):
        state.apply_action("die: 0")
    assert state.get("haunt") == "hollow_hounds" and state.get("traitor") == "p3"
    assert state.check_invariants() == []


# ---- the scenario vocabulary ------------------------------------------------------------------------


def test_defaults_come_from_the_characters() -> None:
    state = ghostrules.load_scenario(HEAD)
    assert [state.get("char", s) for s in ("p1", "p2", "p3", "p4")] == [
        "jenny_leclerc", "ox_bellows", "madame_zostra", "peter_akimoto"]
    assert state.eval("value(p1, might)") == 4 and state.eval("value(p3, speed)") == 3
    assert state.get("first_seat") == "p1", "Jenny's birthday (4 March) is the soonest (BH-SETUP-9)"
    placed = ghostrules.load_scenario(HEAD + "house:\n  vault: {floor: upper, cell: x4y3, rotation: r0}\n")
    assert placed.get("room_at", "upper", "x4y3") == "vault" and placed.get("tile_stack", "vault") == 0
    assert placed.get("left_for", "upper") == state.get("left_for", "upper") - 1
    assert placed.get("left_for", "basement") == state.get("left_for", "basement") - 1
    assert placed.check_invariants() == []


def test_steps_resume_inside_loops() -> None:
    """A step's outer frames resume inside `for` loops (the turn's action loop, the haunt round's hero
    loop) at the item the frame names: after Jenny's turn (the third hero left of Ox) the traitor plays."""
    sc = query.load(HEAD + "haunt: {scenario: sealed_door, traitor: p2, revealer: p2, round: 1}\n"
                    "turn: {active: p1, step: hero_action}\n")
    answer = query.next(sc, "end the turn")
    headers = [e["text"] for e in answer.data["trace"] if e["text"].startswith("---")]
    assert headers[0].startswith("--- traitor turn: Ox Bellows"), headers
    # before the haunt the action step is the position play reaches at the start of a turn
    a = query.load(HEAD + "turn: {active: p3, step: action}\n").state
    b = query.load(HEAD + "turn: {active: p3}\n").state
    assert a == b


# ---- malformed files --------------------------------------------------------------------------------

# (name, text, line of the error, words the message must contain); HEAD's explorers are on lines 3-7


def p1(fields: str) -> str:
    return HEAD.replace("p1: {character: Jenny LeClerc}", "p1: {character: Jenny LeClerc, " + fields + "}")


BAD = [
    ("misspelt character", HEAD.replace("Jenny LeClerc", "Jenny LeClerk"), 4, "did you mean Jenny LeClerc"),
    ("the same character twice", HEAD.replace("Ox Bellows", "Jenny LeClerc"), 3, "BH-SETUP-2"),
    ("dead before the haunt", p1("alive: false"), 3, "BH-DEATH-1"),
    ("clip off the track", p1("traits: {might: l9}"), 4, "l9"),
    ("room on a floor its back does not show",
     HEAD + "house:\n  catacombs: {floor: upper, cell: x4y3, rotation: r0}\n", 8, "BH-DISCOVER-2"),
    ("two rooms in one cell", HEAD + "house:\n  catacombs: {floor: basement, cell: x4y3, rotation: r0}\n"
     "  crypt: {floor: basement, cell: x4y3, rotation: r0}\n", 8, "BH-DISCOVER-2"),
    ("a card in two hands", p1("cards: {girl: 1}").replace("Ox Bellows}", "Ox Bellows, cards: {girl: 1}}"), 5,
     "too many cards (girl)"),
    # a card in two places or in none names every place the file put it, with its line (it named one line)
    ("a card held and lying in a pile", p1("cards: {axe: 1}") + "cards:\n  axe: {in_pile: 1, pile: entrance_hall}\n",
     9, "too many cards (axe): the scenario accounts for 2 (held[p1, axe] = 1 on line 4, in_pile[axe] = 1 on line 9)"),
    ("a card held and discarded", p1("cards: {axe: 1}") + "cards:\n  axe: {discarded: 1}\n",
     9, "too many cards (axe): the scenario accounts for 2 (held[p1, axe] = 1 on line 4, discarded[axe] = 1 on line 9)"),
    ("a card in a pile and set aside", HEAD + "cards:\n  bell: {in_pile: 1, pile: entrance_hall, aside: 1}\n",
     9, "(in_pile[bell] = 1 on line 9, aside[bell] = 1 on line 9)"),
    ("a pile's room for a card in no pile (it stayed in its deck)", HEAD + "cards:\n  bell: {pile: entrance_hall}\n",
     8, "BH-ITEM-3 (a card given a pile's room lies in that pile"),
    ("a card missing", HEAD + "slots:\n  in_deck[book]: 0\n",
     9, "too few cards (book): the scenario accounts for 0 (in_deck[book] = 0 on line 9), the game has 1"),
    ("a monster before the haunt", HEAD + "monsters:\n  m1: {kind: hound, at: entrance_hall}\n", 8,
     "BH-MONSTER-1"),
    ("a haunt without a traitor", HEAD + "haunt: {scenario: hollow_hounds}\n", 8, "BH-TRAITOR-1"),
    ("unknown step", HEAD + "turn: {active: p1, step: atack}\n", 8, "unknown step 'atack'"),
    ("unknown section", HEAD + "explorer:\n  p1: {at: foyer}\n", 8, "unknown key 'explorer'"),
    ("unknown field", p1("speed: 3"), 4, "unknown field 'speed'"),
    ("explorer in a room not in the house", p1("at: kitchen"), 3, "BH-SETUP-7"),
]


@pytest.mark.parametrize("name,text,line,words", BAD, ids=[b[0] for b in BAD])
def test_bad_betrayal_scenario_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                  text: str, line: int, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["ask", str(path), "legal"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(f"error: {path}:{line}: "), err
    assert words in err, err
    with pytest.raises(ScenarioError) as info:
        query.load(path)
    assert info.value.line == line
