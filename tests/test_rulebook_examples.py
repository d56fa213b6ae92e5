"""The worked examples of the two Ghost Stories rulebooks, replayed step by step.

Each position is the scenario file of the example (docs/examples/*.yaml, the single source: its
description quotes the book, its question and expect block are checked by test_scenarios.py); these
tests replay the book's rolls and choices on it and assert the outcome the book gives. Layout of the
scenarios (the default of specs/ghost-stories/scenario.yaml):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)

so the corner Circle of Prayer faces yellow_1 and red_1, the Altar faces yellow_3 and blue_3.
"""

from __future__ import annotations

from pathlib import Path

from gs_helpers import act, labels, roll, until_next_turn

import ghostrules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
FAQ = ROOT / "tests" / "scenarios"


def example(name: str, folder: Path = EXAMPLES) -> ghostrules.State:
    return ghostrules.load_scenario(folder / f"{name}.yaml")


def test_bleeding_eyes_needs_two_red_results():
    """HU/EL: the yellow monk attacks Bleeding Eyes (red, resistance 2): he needs 2 red (or white)
    results on the 3 Tao dice (GS-EXO-2, GS-EXO-3, GS-EXO-4)."""
    s = example("bleeding_eyes_two_red")
    roll(s, "red", "white", "green")
    assert labels(s) == ["Bleeding Eyes is exorcised (red board slot 2)"]
    act(s, "Bleeding Eyes is exorcised")
    assert s.get("at", "c38_bleeding_eyes") == "discard"


def test_one_red_and_a_red_token_exorcise_bleeding_eyes():
    """HU: "Bálint dob ... csak 1 piros van. Ha van piros Tao-jelzője, most elköltheti" (GS-EXO-5)."""
    s = example("red_token_completes_exorcism")
    supply_before = s.get("tao_supply", "red")
    roll(s, "red", "green", "blue")
    # the player is never obliged to spend tokens (GS-EXO-8): failing is an option too
    assert sorted(labels(s)) == ["Bleeding Eyes is exorcised (red board slot 2)", "the exorcism fails"]
    act(s, "Bleeding Eyes is exorcised")
    assert labels(s) == ["spend a red Tao token"]
    act(s, "spend a red Tao token")
    assert s.get("at", "c38_bleeding_eyes") == "discard"
    assert s.get("tao", "yellow", "red") == 0 and s.get("tao_supply", "red") == supply_before + 1
    assert s.check_invariants() == []


def test_corner_exorcism_of_two_ghosts_with_one_roll():
    """HU/EL corner example: Bleeding Eyes (red 2) and Perfidious Nymph (blue 1); roll red, white,
    yellow; a red token completes Bleeding Eyes and the white joker counts as blue (GS-EXO-7)."""
    s = example("corner_two_ghosts_one_roll")
    roll(s, "red", "white", "yellow")
    act(s, "Perfidious Nymph and Bleeding Eyes are exorcised")
    act(s, "spend a red Tao token")
    act(s, "Perfidious Nymph first")
    assert s.get("at", "c38_bleeding_eyes") == "discard"
    assert s.get("at", "c15_perfidious_nymph") == "discard"


def test_dice_that_suffice_must_exorcise_the_zombie_too():
    """HU Bálint / EL Κώστας: Zombie (yellow 2) and Coffin Breaker (yellow 1) from a corner; the roll
    2 yellow + 1 white defeats both, so both are exorcised, and the Zombie's curse die is rolled
    (GS-EXO-8, GS-CURSE-1)."""
    s = example("zombie_must_be_exorcised_too")
    zombie, coffin = "c06_zombie", "c03_coffin_breaker"
    roll(s, "yellow", "yellow", "white")
    # only exorcising both is allowed: the dice alone defeat each of them
    assert labels(s) == ["Coffin Breaker and Zombie are exorcised"]
    act(s, "Coffin Breaker and Zombie are exorcised")
    act(s, "Coffin Breaker first")
    assert s.get("at", coffin) == "discard"
    assert s.is_chance_node() and s.prompt() == "roll the curse_die"
    assert s.node_rule() == "GS-CURSE-1"
    roll(s, "no effect")
    assert s.get("at", zombie) == "discard"


def test_sharing_tao_tokens_on_the_same_tile():
    """HU: Bálint joins Samu (red) on a tile; Hopping Vampire (yellow 3); roll green, yellow, red;
    Samu's 2 yellow tokens make up the 3 yellow results (GS-TAO-1)."""
    s = example("sharing_tao_tokens")
    vampire = "c08_hopping_vampire"
    roll(s, "green", "yellow", "red")
    act(s, "Hopping Vampire is exorcised")
    act(s, "spend a yellow Tao token")
    act(s, "spend a yellow Tao token")
    assert s.get("at", vampire) == "discard"
    assert s.get("tao", "red", "yellow") == 0


def test_tokens_of_a_monk_on_another_tile_cannot_help():
    s = example("tokens_of_a_monk_elsewhere_cannot_help", FAQ)
    roll(s, "green", "yellow", "red")
    assert labels(s) == ["the exorcism fails"]


def test_dark_wraith_reward_yinyang_back():
    """HU Bálint / EL Κώστας: Dark Wraith (black 3) exorcised; he takes back his Yin-Yang instead of
    1 Qi (GS-ABIL-REWARD-QIYY, GS-CURSE-2)."""
    s = example("dark_wraith_yinyang_back")
    wraith = "c52_dark_wraith"
    roll(s, "black", "black", "white")
    act(s, "Dark Wraith is exorcised")
    assert sorted(labels(s)) == ["yellow monk takes 1 Qi", "yellow monk takes back the Yin-Yang"]
    act(s, "takes back the Yin-Yang")
    assert s.get("yinyang", "yellow") == 1 and s.get("at", wraith) == "discard"


def test_yinyang_calls_the_circle_then_exorcism():
    """HU Samu / EL Μήτσος: no black token; the Yin-Yang calls the Circle of Prayer, a black token goes
    on it; roll black, white, green; with the Circle's -1 the Dark Wraith (black 3) falls
    (GS-YY-1, GS-VILLAGE-CIRCLE, GS-EXO-10)."""
    s = example("yinyang_calls_circle")
    wraith = "c52_dark_wraith"
    act(s, "Yin-Yang: yellow monk calls Circle of Prayer for help")
    act(s, "a black token goes on the Circle of Prayer")
    assert s.get("circle_tao", "black") == 1 and s.get("yinyang", "yellow") == 0
    act(s, "take no token")        # Bottomless Pockets, declined
    act(s, "stays on")
    act(s, "tries to exorcise")
    roll(s, "black", "white", "green")
    act(s, "Dark Wraith is exorcised")
    act(s, "takes 1 Qi")
    assert s.get("at", wraith) == "discard"
    assert s.get("circle_tao", "black") == 1, "the Circle's token stays (GS-VILLAGE-CIRCLE-2)"


def test_monk_sacrifices_himself_at_the_sorcerer():
    """HU Samu / EL Μήτσος: 2 tiles haunted (EL), a haunter would haunt the third next Yin phase; the
    monk with 1 Qi banishes it at the Sorcerer's Hut and dies (GS-DEATH-4, GS-VILLAGE-SORCERER)."""
    s = example("sorcerer_sacrifice")
    haunter = "c09_hopping_vampire"
    act(s, "asks Sorcerer's Hut for help")
    act(s, "Hopping Vampire is banished")
    assert s.get("at", haunter) == "discard"
    assert s.get("alive", "red") is False and s.get("qi", "red") == 0
    assert s.get("monk_at", "red") == "ss", "the dead monk lies on the Cemetery (GS-DEATH-1)"
    assert not s.is_terminal()
    assert any(e.rule == "GS-DEATH-1" for e in s.log())


def test_severed_heads_on_a_full_village():
    """HU Bálint: Severed Heads (black) fills his own board; no Qi lost for a full board this turn;
    its left stone must bring a ghost, but all 12 slots are full, so he loses 1 Qi instead; it
    captures a Tao die (GS-PLACE-2, GS-PLACE-4, GS-ABIL-CAPTUREDIE)."""
    s = example("severed_heads_full_village")
    roll(s, "Severed Heads")
    assert labels(s) == ["Severed Heads to yellow board slot 3"]
    act(s, "Severed Heads to yellow board slot 3")
    step = [e.text for e in until_next_turn(s)]
    assert "yellow monk loses 1 Qi (3 left)" in step
    assert sum(t.startswith("yellow monk loses 1 Qi (") for t in step) == 1, "no Qi for the full board now"
    assert s.eval("captured_dice") == 1 and s.eval("exorcism_dice(yellow)") == 2
    assert any(e.rule == "GS-PLACE-4" for e in s.log())


def test_curse_after_the_final_exorcism_can_still_lose():
    """HU/EL: after the last incarnation is exorcised its curse still applies; a haunting result that
    flips the losing tile loses the game (GS-END-5)."""
    s = example("curse_after_final_exorcism")
    hope = "c58_hope_killer"
    roll(s, "yellow", "yellow", "white")
    act(s, "Hope Killer is exorcised")
    spent = 0
    while not s.is_chance_node():  # 2 red, 2 green and 1 blue token; the joker covers the other blue
        act(s, labels(s)[0])
        spent += 1
    assert spent == 5
    assert s.get("at", hope) == "yellow_2", "the curse comes before the card leaves play"
    roll(s, "haunt a tile")
    assert s.is_terminal()
    assert s.outcome().result == "loss" and s.outcome().rule_id == "GS-END-3"


def test_final_exorcism_without_a_losing_curse_wins():
    s = example("final_exorcism_needs_fourth_result", FAQ)
    roll(s, "yellow", "yellow", "white")
    give_tokens = labels(s)
    assert give_tokens == ["the exorcism fails"]  # resistance 4 needs a 4th result
    s = example("final_exorcism_wins", FAQ)
    roll(s, "yellow", "yellow", "white")
    act(s, "Vampire Lord is exorcised")
    act(s, "yellow monk receives 1 Qi")
    act(s, "takes back the Yin-Yang") if any("Yin-Yang" in x for x in labels(s)) else None
    assert s.is_terminal() and s.outcome().result == "win" and s.outcome().rule_id == "GS-END-1"
