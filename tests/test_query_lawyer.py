"""The rules-lawyer tools audited as a rules lawyer uses them (``ghostrules ask`` and ghostrules.query).

Positions from the rulebooks' own situations (tests/scenarios/lawyer/*.yaml, Ghost Stories HU/EL and
Betrayal HU): each answers its own question as its ``expect:`` block says, and every probability is
checked here again by enumerating the dice (not by the engine), every legality by the rulebook's words,
and every citation against the rules of that configuration and ``ghostrules rules show``. Then bad
input: malformed scenarios fail with file, line and what was expected, and run no code; an illegal
action raises an error naming the rule and leaves the position unchanged.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import pytest

from ghostrules import query
from ghostrules.cli import main
from ghostrules.engine import IllegalActionError
from ghostrules.query.values import Values

ROOT = Path(__file__).resolve().parent.parent
LAWYER = ROOT / "tests" / "scenarios" / "lawyer"
FILES = sorted(LAWYER.glob("*.yaml"))

# ---- the dice, as the rulebooks describe them (never read from the specs) ------------------------

TAO_FACES = ("red", "green", "blue", "yellow", "black", "white")  # GS-COMP-5: 5 colours and a white joker
# GS-COMP-6 / OQ-2: 5 results on 6 faces; the blank face is the one printed twice
CURSE_FACES = ("nothing", "nothing", "haunt a tile", "new ghost", "lose all Tao", "lose 1 Qi")
BETRAYAL_DIE = (0, 0, 1, 1, 2, 2)  # BH-OPEN-6: two blank, two one-pip and two two-pip faces


def tao_rolls(n: int) -> Iterable[tuple[str, ...]]:
    return itertools.product(TAO_FACES, repeat=n)


def hits(roll: tuple[str, ...], colour: str) -> int:
    """GS-EXO-3/4: the dice showing the ghost's colour, the white joker counting as any colour."""
    return sum(f in (colour, "white") for f in roll)


def p_tao(n: int, success: object) -> Fraction:
    rolls = list(tao_rolls(n))
    return Fraction(sum(bool(success(r)) for r in rolls), len(rolls))  # type: ignore[operator]


def favourite(colour: str, need: int) -> Fraction:
    """GS-POWER-GREEN-FAVOURITE: one reroll of any of the 3 dice, the second result kept; played
    optimally by trying every subset of dice to reroll."""
    total = Fraction(0)
    for first in tao_rolls(3):
        if hits(first, colour) >= need:
            total += 1
            continue
        best = Fraction(0)
        for k in range(4):
            for chosen in itertools.combinations(range(3), k):
                kept = [f for i, f in enumerate(first) if i not in chosen]
                p = Fraction(sum(hits(tuple(kept) + again, colour) >= need for again in tao_rolls(k)), 6 ** k)
                best = max(best, p)
        total += best
    return total / 6 ** 3


def betrayal_sums(n: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for faces in itertools.product(BETRAYAL_DIE, repeat=n):
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + Fraction(1, 6 ** n)
    return out


def scenario(name: str) -> query.Scenario:
    return query.load(LAWYER / f"{name}.yaml")


def variant(name: str, old: str, new: str) -> query.Scenario:
    """The file's position with one change (the same step and horizon)."""
    text = (LAWYER / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text
    return query.load(text.replace(old, new))


def probability(answer: query.Answer) -> Fraction:
    return Fraction(answer.data["probability"])


# ---- every file: its own question, its citations, printed back ----------------------------------


def test_at_least_twelve_positions_from_the_rulebooks() -> None:
    assert len(FILES) >= 12
    assert any(f.name.startswith("bh") for f in FILES) and any(f.name.startswith("gs") for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_file_answers_its_question_and_cites_rules_of_its_configuration(path: Path) -> None:
    sc = query.load(path)
    assert sc.title and sc.description and sc.expect.get("rules")
    answer = query.ask(sc)
    assert query.check_expect(answer, sc.expect) == [], answer.text()
    settings = dict(sc.game.spec.settings)
    assert answer.data["rules"], "every answer names rule IDs"
    for rid in answer.data["rules"]:
        rule = sc.game.spec.rule(rid)  # KeyError: a rule that does not exist
        assert rule.applies_to(settings), f"{rid} does not concern {settings}"
    # the answer quotes our wording and the rulebook's words for what it cites
    cited = {c["id"]: c for c in answer.data["citations"]} if "citations" in answer.data else {}
    for rid in answer.data["rules"]:
        assert rid in cited and cited[rid]["text"], rid
    text = query.scenario_text(sc.state)
    assert query.load_scenario(text) == sc.state


@pytest.mark.parametrize("rule_id,game,words", [
    ("GS-EXO-5", "ghost-stories", "még mindig használhatja a szellem színének megfelelő Tao-jelzőit"),
    ("GS-TAO-1", "ghost-stories", "használhatja a vele egy lapon álló többi szerzetes Tao-jelzőit is"),
    ("GS-EXO-9", "ghost-stories", "ο παίκτης μπορεί να επιλέξει ποιο από τα 2 θα ξεσκαρτάρει"),
    ("GS-BUDDHA-3", "ghost-stories", "Amint egy szellem lekerül vagy átmozdul egy Buddhával védett helyre"),
    ("GS-END-3", "ghost-stories", "Μία 3 η τοποθεσία (πλακίδιο) στο χωριό στοιχειώνεται"),
    ("BH-ATTACK-3", "betrayal", "Az okozott sérülés egyenlő a két dobott érték különbségével"),
    ("BH-HAUNTROLL-1", "betrayal", "6 kockával kell dobnod a fordulód végén"),
    ("BH-ROLL-TRAIT-1", "betrayal", "dobj annyi kockával amennyi a felfedeződ adott értéke abban a pillanatban"),
])
def test_rules_show_gives_the_rulebook_words(capsys: pytest.CaptureFixture[str], rule_id: str, game: str,
                                             words: str) -> None:
    assert main(["rules", "show", rule_id, "--game", game]) == 0
    assert words in capsys.readouterr().out


# ---- exact probabilities, checked by enumeration -------------------------------------------------


def test_one_red_token_makes_up_one_missing_red() -> None:
    """HU: "csak 1 piros van. Ha van piros Tao-jelzője, most elköltheti" (GS-EXO-5)."""
    answer = query.ask(scenario("gs01_bleeding_eyes_one_red_token"))
    assert probability(answer) == p_tao(3, lambda r: hits(r, "red") + 1 >= 2) == Fraction(19, 27)


def test_mountain_fourth_die() -> None:
    answer = query.ask(scenario("gs02_mountain_fourth_die"))
    assert probability(answer) == p_tao(4, lambda r: hits(r, "red") >= 2) == Fraction(11, 27)


def test_circle_of_prayer_lowers_the_resistance_by_one() -> None:
    sc = scenario("gs03_circle_lowers_dark_wraith")
    assert probability(query.ask(sc)) == p_tao(3, lambda r: hits(r, "black") >= 3 - 1)
    without = variant("gs03_circle_lowers_dark_wraith", "circle: black\n", "")
    got = query.odds(without, outcome="at[c52_dark_wraith] == discard")
    assert probability(got) == p_tao(3, lambda r: hits(r, "black") >= 3) == Fraction(1, 27)


@pytest.mark.parametrize("outcome,need", [
    ("at[c03_coffin_breaker] == discard", 1),                                   # either: the player picks it
    ("at[c06_zombie] == discard", 2),
    ("at[c06_zombie] == discard and at[c03_coffin_breaker] == discard", 3),     # one roll for both (GS-EXO-7)
])
def test_corner_choice_between_two_ghosts_el(outcome: str, need: int) -> None:
    sc = scenario("gs04_corner_zombie_or_coffin_breaker")
    assert probability(query.odds(sc, outcome=outcome)) == p_tao(3, lambda r: hits(r, "yellow") >= need)


def test_corner_two_yellow_results_offer_either_ghost_and_never_a_failure() -> None:
    """EL p6 (GS-EXO-9): dice for either but not both: the player chooses; GS-EXO-8: dice that suffice
    must exorcise, so failing is no option."""
    answer = query.next(scenario("gs04_corner_zombie_or_coffin_breaker"), "yellow", "yellow", "green")
    options = {o["label"] for o in answer.data["now"]["options"]}
    assert options == {"Coffin Breaker is exorcised (blue board slot 3)", "Zombie is exorcised (yellow board slot 3)"}
    assert {o["rule"] for o in answer.data["now"]["options"]} == {"GS-EXO-9"}


def test_tokens_of_a_monk_on_the_same_tile_only() -> None:
    sc = scenario("gs05_shared_tokens_hopping_vampire")
    assert probability(query.ask(sc)) == p_tao(3, lambda r: hits(r, "yellow") + 2 >= 3)
    elsewhere = variant("gs05_shared_tokens_hopping_vampire", "red: {at: ss,", "red: {at: nw,")
    got = query.odds(elsewhere, outcome="at[c08_hopping_vampire] == discard")
    assert probability(got) == p_tao(3, lambda r: hits(r, "yellow") >= 3) == Fraction(1, 27)


def test_favourite_reroll_enumerated() -> None:
    answer = query.ask(scenario("gs06_favourite_reroll_scarlet_evildoer"))
    assert probability(answer) == favourite("red", 3 - 1)  # one red token of the 3 needed


def test_captured_die_leaves_two() -> None:
    answer = query.ask(scenario("gs11_severed_heads_two_dice"))
    assert probability(answer) == p_tao(2, lambda r: hits(r, "red") >= 1) == Fraction(5, 9)


def test_tormentor_curse_die_distribution() -> None:
    sc = scenario("gs10_tormentor_curse_die")
    lose_qi = Fraction(CURSE_FACES.count("lose 1 Qi"), 6)
    haunt = Fraction(CURSE_FACES.count("haunt a tile"), 6)
    assert probability(query.ask(sc)) == lose_qi
    got = query.odds(sc, outcome="haunted_tiles == 1", horizon="decision")
    assert probability(got) == haunt


def test_death_army_win_needs_the_exorcism_and_a_curse_that_does_not_haunt() -> None:
    """GS-END-5: the curse after the final exorcism; EL: the 3rd haunted tile loses. 4 black tokens
    against resistance 5: one black or white die suffices."""
    sc = scenario("gs12_death_army_win_odds")
    exorcised = p_tao(3, lambda r: hits(r, "black") + 4 >= 5)
    safe = Fraction(sum(f != "haunt a tile" for f in CURSE_FACES), 6)
    assert probability(query.ask(sc)) == exorcised * safe == Fraction(95, 162)


def test_betrayal_might_roll_enumerated() -> None:
    answer = query.ask(scenario("bh01_might_roll_ox_bellows"))
    assert probability(answer) == sum(p for t, p in betrayal_sums(5).items() if t >= 5)  # Ox: Might 5


def test_betrayal_attack_enumerated() -> None:
    """BH-ATTACK-3: the higher total deals the difference; Jenny (Might 4) against Ox (Might 5)."""
    answer = query.ask(scenario("bh02_attack_jenny_against_ox"))
    jenny, ox = betrayal_sums(4), betrayal_sums(5)
    assert probability(answer) == sum(p * q for a, p in jenny.items() for b, q in ox.items() if a > b)


def test_betrayal_attack_on_armor_enumerated_and_cites_the_armor() -> None:
    """BC-ITEM-ARMOR: Ox takes 1 less physical damage, so Jenny must beat him by 2. The Armor's line
    is logged only on the lines the odds search plays (after the position): it is cited there, and
    not when Ox has no Armor (bh02)."""
    answer = query.ask(scenario("bh05_armor_takes_a_point_of_jennys_attack"))
    jenny, ox = betrayal_sums(4), betrayal_sums(5)
    assert probability(answer) == sum(p * q for a, p in jenny.items() for b, q in ox.items() if a - b >= 2)
    assert "BC-ITEM-ARMOR" in answer.data["rules"]
    assert "BC-ITEM-ARMOR" not in query.ask(scenario("bh02_attack_jenny_against_ox")).data["rules"]


def test_betrayal_smoke_takes_two_dice_and_is_cited() -> None:
    """BC-EVENT-SMOKE: "trait rolls in this room use 2 fewer dice (min 1)": Ox Bellows (Might 5) rolls 3
    dice in the Smoke. The card acts only through the count of dice (a credited ``let``): it is cited
    from the line that changes the count, and not in the same roll without the Smoke (bh01)."""
    answer = query.ask(scenario("bh06_smoke_takes_two_dice_from_ox"))
    assert probability(answer) == sum(p for t, p in betrayal_sums(5 - 2).items() if t >= 5) == Fraction(4, 27)
    assert "BC-EVENT-SMOKE" in answer.data["rules"]
    assert "BC-EVENT-SMOKE" not in query.ask(scenario("bh01_might_roll_ox_bellows")).data["rules"]


def test_betrayal_drip_takes_a_die_and_is_cited() -> None:
    """BC-EVENT-DRIP-DRIP-DRIP: "Everyone rolls 1 fewer die (min 1) on trait rolls in this room": Peter
    Akimoto (Knowledge 4) rolls 3 dice under the Drip, and the card is cited. Without the token he rolls
    4, and the card is not cited."""
    answer = query.ask(scenario("bh07_drip_takes_a_die_from_peter"))
    assert probability(answer) == sum(p for t, p in betrayal_sums(4 - 1).items() if t >= 4) == Fraction(10, 27)
    assert "BC-EVENT-DRIP-DRIP-DRIP" in answer.data["rules"]
    dry = variant("bh07_drip_takes_a_die_from_peter", "house:\n  entrance_hall: {tokens: {tk_drip: 1}}\n", "")
    got = query.ask(dry)
    assert probability(got) == sum(p for t, p in betrayal_sums(4).items() if t >= 4) == Fraction(50, 81)
    assert "BC-EVENT-DRIP-DRIP-DRIP" not in got.data["rules"]


def test_a_cited_card_title_with_an_ellipsis_is_quoted_whole() -> None:
    """The citation line quotes a rule's first sentence: the Drip card's title "Drip... Drip... Drip..."
    ends no sentence (the line once read "BC-EVENT-DRIP-DRIP-DRIP: Drip.")."""
    text = query.ask(scenario("bh07_drip_takes_a_die_from_peter")).text()
    assert "  BC-EVENT-DRIP-DRIP-DRIP: Drip... Drip... Drip...: put the Drip token here." in text.splitlines(), text


def test_a_let_entry_is_shown_like_a_set_entry_only_with_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    """A ``let`` entry records a value (a local's), as a ``set`` entry records a slot's: a ``next`` trace
    and ``ghostrules play`` show it only with ``--verbose`` ("exorcised = 1" after "tries to exorcise"
    is no step of the game), while the answer cites its rule either way."""
    sc = query.load(ROOT / "tests" / "scenarios" / "second_wind_two_attempts.yaml")
    quiet = query.next(sc, "blue monk tries to exorcise")
    loud = query.next(sc, "blue monk tries to exorcise", verbose=True)
    lets = [e for e in loud.data["trace"] if e["kind"] == "let"]
    assert lets == [{"step": 1, "rule": "GS-EXO-1", "kind": "let", "text": "exorcised = 1"}]
    assert not any(e["kind"] == "let" for e in quiet.data["trace"])
    assert "exorcised = 1" not in quiet.text() and "[GS-EXO-1] exorcised = 1" in loud.text()
    assert "GS-EXO-1" in quiet.data["rules"]
    # ghostrules play: the let entries of a seeded Ghost Stories game appear with --verbose alone
    doc = None
    for seed in range(1, 20):
        assert main(["play", "ghost-stories", "--seed", str(seed), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        if any(e["kind"] == "let" for e in doc["log"]):
            break
    assert doc is not None
    entry = next(e for e in doc["log"] if e["kind"] == "let")
    line = f"  [{entry['rule']}] {entry['text']}"
    assert main(["play", "ghost-stories", "--seed", str(seed)]) == 0
    assert line not in capsys.readouterr().out.splitlines()
    assert main(["play", "ghost-stories", "--seed", str(seed), "--verbose"]) == 0
    assert line in capsys.readouterr().out.splitlines()


def test_a_card_that_changes_no_die_is_not_cited() -> None:
    """The Drip's "min 1" leaves a roll of 1 die at 1: the card changes nothing there, so it is not
    cited (a credited ``let`` is a log entry only when it changes the value). Jenny LeClerc's Sanity at
    its lowest position (value 1) under the Drip: 1 die, a total of 1 or more with 4 faces of 6."""
    text = (LAWYER / "bh07_drip_takes_a_die_from_peter.yaml").read_text(encoding="utf-8")
    for old, new in (("p1: {character: Jenny LeClerc}", "p1: {character: Jenny LeClerc, traits: {sanity: l1}}"),
                     ("turn: {active: p4, step: knowledge_roll}", "turn: {active: p1, step: sanity_roll}"),
                     ('outcome: "roll_total >= 4"', 'outcome: "roll_total >= 1"')):
        assert old in text
        text = text.replace(old, new)
    answer = query.ask(query.load(text))
    assert probability(answer) == sum(p for t, p in betrayal_sums(1).items() if t >= 1) == Fraction(2, 3)
    assert "BC-EVENT-DRIP-DRIP-DRIP" not in answer.data["rules"], answer.data["rules"]


def test_betrayal_first_omen_haunt_roll_enumerated() -> None:
    answer = query.ask(scenario("bh03_first_omen_haunt_roll"))
    assert probability(answer) == sum(p for t, p in betrayal_sums(6).items() if t < 1) == Fraction(1, 729)


def test_betrayal_trait_roll_distribution_matches_the_dice() -> None:
    """odds without an outcome: the whole distribution of the roll total."""
    answer = query.odds(scenario("bh01_might_roll_ox_bellows"))
    got = {row["outcome"]: Fraction(row["probability"]) for row in answer.data["distribution"]}
    for total, p in betrayal_sums(5).items():
        if total:  # a total of 0 leaves roll_total at its start value: "no change"
            assert got[f"roll_total = {total}"] == p


# ---- legality by the rulebook's words ------------------------------------------------------------


def test_one_red_die_and_a_token_may_or_may_not_be_spent() -> None:
    """GS-EXO-5: the player *may* spend tokens; GS-EXO-8: he never has to."""
    answer = query.next(scenario("gs01_bleeding_eyes_one_red_token"), "red", "green", "blue")
    assert {o["label"] for o in answer.data["now"]["options"]} == {"Bleeding Eyes is exorcised (red board slot 2)",
                                                                          "the exorcism fails"}


def test_dice_that_suffice_must_exorcise() -> None:
    answer = query.next(scenario("gs01_bleeding_eyes_one_red_token"), "red", "white", "green")
    assert answer.data["applied"][-1] == "Bleeding Eyes is exorcised (red board slot 2) (no other option)"


def test_buddha_goes_on_an_empty_adjacent_slot_only() -> None:
    """GS-BUDDHA-1: an empty slot next to the monk; from the south-west corner red_1 and yellow_1
    (GS-GEO-2), yellow_1 holds the Ghoul."""
    sc = scenario("gs13_buddha_placement_options")
    options = {o["label"] for o in query.legal(sc).data["options"]}
    assert options == {"keep the Buddha", "yellow monk places a Buddha on red board slot 1"}
    occupied = query.legal(sc, "yellow monk places a Buddha on yellow board slot 1")
    assert occupied.data["legal"] is False and occupied.data["rule"] == "GS-BUDDHA-1"
    far = query.legal(sc, "yellow monk places a Buddha on blue board slot 1")
    assert far.data["legal"] is False and "GS-GEO-2" in far.data["rules"]


def test_buddha_slot_destroys_the_drawn_ghost() -> None:
    answer = query.ask(scenario("gs07_buddha_slot_destroys_drawn_ghost"))
    assert "GS-BUDDHA-3" in answer.data["rules"]
    assert answer.state is not None and answer.state.get("at", "c35_reaper") == "discard"


def test_neutral_board_loses_qi_and_draws_no_card() -> None:
    """GS-NEUTRAL-5/3, GS-SETUP-FEW-4: 55 ghosts - 5 for 3 players + 1 incarnation - 3 in play."""
    answer = query.ask(scenario("gs09_neutral_full_board_loses_qi"))
    assert answer.state is not None
    assert answer.state.get("qi", "blue") == 3 - 1
    assert Values(answer.state.game).raw("deck_size", answer.state.values)[0] == 55 - 5 + 1 - 3


def test_third_haunted_tile_loses_in_el_not_in_hu() -> None:
    """EL p8: the 3rd haunted tile loses; HU Initiation: the 4th (GS-END-3)."""
    el = scenario("gs08_el_third_haunted_tile_loses")
    yes = query.can(el, "lose", 0)
    assert yes.data["answer"] == "yes" and "GS-END-3" in yes.data["rules"]
    hu = variant("gs08_el_third_haunted_tile_loses", "edition: el", "edition: hu")
    assert query.can(hu, "lose", 0).data["answer"] == "no"


def test_betrayal_first_turn_options_and_no_attack() -> None:
    sc = scenario("bh04_first_turn_options")
    labels = {o["label"] for o in query.legal(sc).data["options"]}
    assert "move north to Foyer" in labels and "end the turn" in labels
    assert not any("attack" in lab for lab in labels)
    assert query.legal(sc, "attack").data["legal"] is False


def test_attack_before_the_haunt_is_forbidden_by_bh_attack_2() -> None:
    """HU: 'Nem támadhatsz meg senkit, csak miután a kísértetjárás elkezdődött' (BH-ATTACK-2). The turn's
    'attack' option once tested haunt_on inline under BH-ATTACK-1, so the answer named BH-ATTACK-1."""
    answer = query.legal(scenario("bh04_first_turn_options"), "attack")
    assert answer.data["rule"] == "BH-ATTACK-2"


# ---- fixes of the query tools (each failed before) -----------------------------------------------


def test_a_finished_position_cites_the_rule_that_ended_it() -> None:
    """The scenario's step ran to the loss (GS-END-3): legal, odds and can all say why."""
    sc = scenario("gs08_el_third_haunted_tile_loses")
    assert sc.state.is_terminal()
    assert query.legal(sc).data["rules"] == ["GS-END-3"]
    assert query.legal(sc, "red monk moves").data["rule"] == "GS-END-3"
    lost = query.odds(sc, outcome="lose")
    assert lost.data["probability"] == "1" and lost.data["rules"] == ["GS-END-3"]
    assert query.odds(sc, outcome="win").data["probability"] == "0"
    assert query.odds(sc).data["distribution"][0]["probability"] == "1"
    reached = query.can(sc, "lose", 3)
    assert reached.data["witness"] == [] and {"GS-YIN-2", "GS-END-3"} <= set(reached.data["rules"])


def test_odds_cite_the_procedure_that_rolls() -> None:
    """A haunt roll's odds cite BH-HAUNTROLL-1, an attack's BH-ATTACK-3, an exorcism's GS-EXO-2, not
    only the die's BH-ROLL-2 / GS-COMP-5."""
    assert "BH-HAUNTROLL-1" in query.ask(scenario("bh03_first_omen_haunt_roll")).data["rules"]
    assert "BH-ATTACK-3" in query.ask(scenario("bh02_attack_jenny_against_ox")).data["rules"]
    assert "GS-EXO-2" in query.ask(scenario("gs02_mountain_fourth_die")).data["rules"]


def test_answers_quote_the_rulebook() -> None:
    answer = query.ask(scenario("bh03_first_omen_haunt_roll"))
    assert "6 kockával kell dobnod a fordulód végén" in answer.text()
    legal = query.legal(scenario("gs13_buddha_placement_options"))
    assert "ha valamelyik korábbi körben megszerzett egy Buddhafigurát" in legal.text()


def test_a_negated_definition_is_forbidden_by_the_rule_that_states_it() -> None:
    """'not occupied(x)' is GS-BUDDHA-1's condition ("üres szellemhely"); GS-GHOST-4 only defines
    'occupied' and is cited as such."""
    answer = query.legal(scenario("gs13_buddha_placement_options"),
                         "yellow monk places a Buddha on yellow board slot 1")
    assert answer.data["rule"] == "GS-BUDDHA-1"
    assert answer.data["because"][-1]["defined_by"] == "GS-GHOST-4"
    assert "GS-GHOST-4 defines it" in answer.text()


# ---- illegal actions: an error naming the rule, the position unchanged ---------------------------


@pytest.mark.parametrize("name,action,rule", [
    ("gs13_buddha_placement_options", "yellow monk places a Buddha on yellow board slot 1", "GS-BUDDHA-1"),
    ("gs13_buddha_placement_options", "yellow monk places a Buddha on blue board slot 1", "GS-BUDDHA-1"),
    ("bh04_first_turn_options", "attack", "BH-TURN-2"),
    ("gs01_bleeding_eyes_one_red_token", "tao_die: purple", "GS-COMP-5"),
])
def test_illegal_action_names_the_rule_and_changes_nothing(name: str, action: str, rule: str) -> None:
    sc = scenario(name)
    state = sc.state.clone()
    before = state.clone()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    assert info.value.rule_id == rule and rule in str(info.value)
    assert state == before and state.values == before.values and state.stack == before.stack
    with pytest.raises((IllegalActionError, query.QueryError)):
        query.next(sc, action)
    assert sc.state == before, "a question never changes the scenario's position"


def test_illegal_action_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = LAWYER / "gs13_buddha_placement_options.yaml"
    assert main(["ask", str(path), "next", "yellow monk places a Buddha on yellow board slot 1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "GS-BUDDHA-1" in err and "Traceback" not in err
    assert main(["ask", str(path), "legal", "yellow monk places a Buddha on yellow board slot 1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is False and doc["rule"] == "GS-BUDDHA-1"


def test_a_legal_action_carries_its_citation_like_every_other_answer(capsys: pytest.CaptureFixture[str]) -> None:
    """``legal ACTION`` for a legal action quoted its rule in the text but set no ``citations``; the
    illegal answer, odds, next and can do. Now it has them, in the same shape, through the API and
    ``ask ... --json``; the text is as before."""
    sc = scenario("bh04_first_turn_options")
    legal = query.legal(sc, "move north to Foyer")
    illegal = query.legal(sc, "attack")
    assert legal.data["legal"] is True and illegal.data["legal"] is False
    assert [c["id"] for c in legal.data["citations"]] == legal.data["rules"] == [legal.data["rule"]]
    for c in legal.data["citations"] + illegal.data["citations"]:
        assert set(c) == set(illegal.data["citations"][0]) and c["text"] and c["sources"]
    assert legal.data["citations"][0]["sources"][0]["words"] in legal.text()
    assert "Rules cited:" not in legal.text()
    assert main(["ask", str(LAWYER / "bh04_first_turn_options.yaml"), "legal", "move north to Foyer", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is True and doc["citations"] == legal.data["citations"]


def test_a_can_answer_that_says_no_has_empty_citations() -> None:
    """The same shape for ``can`` when the goal cannot be reached: no rule, and an empty ``citations``."""
    answer = query.can(scenario("bh04_first_turn_options"), "lose", 0)
    assert answer.data["answer"] == "no" and answer.data["rules"] == [] and answer.data["citations"] == []


# ---- malformed scenarios: file, line, what was expected; no code runs -----------------------------

GS = "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"
BH = ("game: betrayal\nplayers: 4\nexplorers:\n  p1: {character: Jenny LeClerc}\n  p2: {character: Ox Bellows}\n"
      "  p3: {character: Madame Zostra}\n  p4: {character: Peter Akimoto}\n")
GS3 = GS.replace("players: 4", "players: 3") + "boards: [yellow, red, green]\n"
PWNED = "h57-pwned"

# (name, text, line, words the message must contain); {tmp} is the test's folder
BAD = [
    ("YAML python tag runs nothing", GS + "monks:\n  yellow: !!python/object/apply:os.system [\"touch {tmp}/" + PWNED
     + "\"]\n", 6, "is not allowed"),
    ("Qi is a word", GS + "monks:\n  yellow: {qi: lots}\n", 6, "expected a whole number, found 'lots'"),
    ("a monk is a number", GS + "monks:\n  yellow: 3\n", 6, "monks.yellow: expected a mapping"),
    ("haunted is not a list", GS + "haunted: nw\n", 5, "haunted: expected a list"),
    ("no card 999", GS + "ghosts:\n  red_1: 999\n", 6, "no card number 999"),
    ("a card in two places", GS + "ghosts:\n  red_1: Bleeding Eyes\ndiscard: [Bleeding Eyes]\n", 7, "already placed"),
    ("three Buddhas", GS + "buddhas: {red_1: 1, red_2: 1, red_3: 1}\n", 5, "too many buddha"),
    ("more Qi than the game has", GS + "monks:\n  yellow: {qi: 10}\n  red: {qi: 10}\n", 7, "too many qi"),
    ("two Yin-Yang tokens", GS + "monks:\n  yellow: {yinyang: 2}\n", 6, "out of range"),
    ("missing game", "players: 4\nmonks:\n  yellow: {qi: 2}\n", 1, "game: missing"),
    ("unknown game", "game: chess\n", 1, "unknown game 'chess'"),
    ("unknown active monk", GS + "turn: {active: purple}\n", 5, "'purple' is not a monk"),
    ("duplicate key", GS + "ghosts:\n  red_1: Bleeding Eyes\n  red_1: Skinner\n", 7, "duplicate key 'red_1'"),
    ("empty file", "", 1, "a scenario is a mapping"),
    ("tab indentation", GS + "monks:\n\tyellow: {qi: 2}\n", 6, "not valid YAML"),
    ("the same top card twice", GS + "deck:\n  top: [Ghoul, c01_ghoul]\n", 6, "cannot come next twice"),
    ("alive is not a boolean", GS + "monks:\n  red: {alive: maybe}\n", 6, "expected true or false"),
    ("code in a raw slot", GS + "slots:\n  \"qi[__import__('os')]\": 1\n", 6, "is not a slot reference"),
    ("boards with 4 players", GS + "boards: [yellow, red]\n", 5, "the setup makes no such choice"),
    ("more boards than players", GS.replace("players: 4", "players: 3") + "boards: [yellow, red, green, blue]\n", 5,
     "lists 4, but the setup chooses 3"),
    ("code in the file's outcome", GS + "question: {ask: odds, outcome: \"__import__('os').system('touch {tmp}/"
     + PWNED + "')\"}\n", 5, "question: "),
    ("a bad bound in the file's question", GS + "question:\n  ask: can\n  goal: lose\n  within: many\n", 8,
     "whole number"),
    # a named step the position cannot reach: the guard of the call that enters it, with its rule
    ("a neutral board has no Yang phase", GS3 + "ghosts:\n  blue_2: Zombie\nmonks:\n  blue: {at: ee}\n"
     "turn: {active: blue, step: exorcise}\n", 10, "forbidden by GS-TURN-2"),
    ("a dead monk has no Yang phase", GS + "monks:\n  red: {alive: false, qi: 0}\nturn: {active: red, step: move}\n", 7,
     "forbidden by GS-TURN-2"),
    ("no exorcism from the centre", GS + "monks:\n  yellow: {at: cc}\nghosts:\n  red_2: Zombie\n"
     "turn: {active: yellow, step: exorcise}\n", 9, "forbidden by GS-EXO-1"),
    ("a haunted tile has no villager", GS + "monks:\n  yellow: {at: nw}\nhaunted: [nw]\n"
     "turn: {active: yellow, step: help}\n", 8, "GS-YANG-3: not haunted[monk_at[m]] is false"),
    ("betrayal: no haunt roll during the haunt", BH + "haunt: {scenario: hollow_hounds, traitor: p2, revealer: p2}\n"
     "turn: {active: p1, step: haunt_roll}\n", 9, "forbidden by BH-HAUNT-TURN-2"),
    # the haunt's turn order cannot be rebuilt before the haunt: the guard still names its rule (it said
    # only that a local of the frame haunt_round could not be computed)
    ("betrayal: a hero's attack before the haunt", BH + "turn: {active: p1, step: hero_attack}\n", 8,
     "cannot be at step 'hero_attack', forbidden by BH-HAUNT-TURN-2"),
    ("betrayal: nobody to attack", BH.replace("{character: Ox Bellows}", "{character: Ox Bellows, at: foyer}")
     + "haunt: {scenario: hollow_hounds, traitor: p2, revealer: p2}\nturn: {active: p1, step: hero_attack}\n", 9,
     "BH-ATTACK-2: attack_target(s) is false"),
    ("betrayal: unknown character", BH.replace("Ox Bellows", "Ox Bellowz"), 5, "did you mean Ox Bellows"),
    ("betrayal: a character and its other side", BH.replace("Ox Bellows", "Heather Granville"), 3, "BH-SETUP-2"),
    ("betrayal: a room not in the house", BH.replace("{character: Jenny LeClerc}",
                                                     "{character: Jenny LeClerc, at: catacombs}"), 3, "BH-SETUP-7"),
    ("betrayal: one omen in two hands",
     BH.replace("{character: Ox Bellows}", "{character: Ox Bellows, cards: {girl: 1}}")
     .replace("{character: Madame Zostra}", "{character: Madame Zostra, cards: {girl: 1}}"), 6,
     "too many cards (girl)"),
    ("betrayal: dead before the haunt", BH.replace("{character: Ox Bellows}",
                                                   "{character: Ox Bellows, traits: {might: skull}}"), 3, "BH-DEATH-1"),
    ("betrayal: no ninth clip position", BH.replace("{character: Ox Bellows}",
                                                    "{character: Ox Bellows, traits: {might: l9}}"), 5, "'l9'"),
    ("betrayal: two rooms in one cell", BH + "house:\n  catacombs: {floor: basement, cell: x4y3, rotation: r0}\n"
     "  furnace_room: {floor: basement, cell: x4y3, rotation: r0}\n", 8, "BH-DISCOVER-2"),
    ("betrayal: a monster before the haunt", BH + "monsters:\n  m1: {kind: hound, at: entrance_hall}\n", 8,
     "BH-MONSTER-1"),
]


@pytest.mark.parametrize("name,text,line,words", BAD, ids=[b[0] for b in BAD])
def test_bad_scenario_through_the_cli_and_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                  text: str, line: int, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace("{tmp}", str(tmp_path)), encoding="utf-8")
    code = main(["ask", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", out
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(f"error: {path}:{line}: "), err
    assert words in err, err
    with pytest.raises(query.ScenarioError) as info:
        query.ask(query.load(path))
    assert info.value.file == str(path) and info.value.line == line and words in str(info.value)
    assert not (tmp_path / PWNED).exists(), "a scenario never runs code"


@pytest.mark.parametrize("path", [ROOT / "docs" / "examples" / "bleeding_eyes_two_red.yaml",
                                  LAWYER / "bh01_might_roll_ox_bellows.yaml"], ids=lambda p: p.stem)
def test_a_bare_state_and_its_scenario_give_the_same_odds(path: Path) -> None:
    """``ghostrules.load_scenario(path)`` (a State) and ``query.load(path)`` (a Scenario) are the same
    position: odds without a horizon stop where the scenario's step returns for both (it used to be the
    innermost frame for a State, the dice roll alone: P = 0 for the exorcism)."""
    import ghostrules
    sc = query.load(path)
    state = ghostrules.load_scenario(path)
    a, b = query.odds(sc), query.odds(state)
    assert a.data["horizon"] == b.data["horizon"] and a.data["distribution"] == b.data["distribution"]


@pytest.mark.parametrize("words,expected", [
    (["odds", "--budget", "-5"], "--budget must be a positive whole number of positions, found '-5'"),
    (["odds", "--budget", "0"], "--budget must be a positive whole number"),
    (["odds", "--maximise", "tpos[p9, might]"], "error: in 'tpos[p9, might]': unknown name 'p9'\n"),
    (["odds", "--outcome", "roll_total >"], "error: 'roll_total >' is not a valid expression"),
    (["odds", "--horizon", "nonsense"], "no frame of that procedure is running"),
    (["next", "attack Ox Bellows", "3"],
     "'3' is not an outcome of this chance node (roll the die); outcomes: die: 0, die: 1, die: 2 [BH-ROLL-2]"),
])
def test_bad_question_on_the_command_line(capsys: pytest.CaptureFixture[str], words: list[str], expected: str) -> None:
    """One line naming what was expected; an expression typed on the command line has no "<query>:1:"
    place and no empty "(rule )"."""
    assert main(["ask", str(LAWYER / "bh02_attack_jenny_against_ox.yaml"), *words]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1, err
    assert "<query>" not in err and "(rule )" not in err and "Traceback" not in err


def test_a_step_that_ran_to_its_end_cites_the_step_rule() -> None:
    """A Buddha step with no Buddha to place runs alone to its end ("step over"): legal, next and odds
    still name a rule, the step's own (GS-BUDDHA-1)."""
    sc = query.load(GS + "monks:\n  yellow: {at: sw}\nturn: {active: yellow, step: place_buddha}\n")
    assert sc.state.is_terminal()
    assert query.legal(sc).data["rules"] == ["GS-BUDDHA-1"]
    assert query.next(sc).data["rules"] == ["GS-BUDDHA-1"]
    finished = query.odds(sc)
    assert finished.data["rules"] == ["GS-BUDDHA-1"]
    assert finished.data["distribution"][0]["outcome"] == "the position ends here: step over"
