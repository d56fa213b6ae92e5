"""The worked examples of the two Ghost Stories rulebooks, replayed as positions.

Each test names the example (HU: Bálint/Samu, EL: Κώστας/Μήτσος), the rules it exercises and
asserts the outcome the book gives. Layout used throughout (gs_helpers.LAYOUT):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)

so the corner Circle of Prayer faces yellow_1 and red_1, the Altar faces yellow_3 and blue_3.
"""

from __future__ import annotations

from gs_helpers import act, gs_game, give, labels, place, roll, set_qi, set_up

import pytest


@pytest.fixture
def game():
    return gs_game()


def at_exorcism(game, monk="yellow", tile="sw", **powers):
    base = set_up(game, powers=powers or None)
    base.set("monk_at", monk, tile)
    return base


def test_bleeding_eyes_needs_two_red_results(game):
    """HU/EL: the yellow monk attacks Bleeding Eyes (red, resistance 2): he needs 2 red (or white)
    results on the 3 Tao dice (GS-EXO-2, GS-EXO-3, GS-EXO-4)."""
    base = at_exorcism(game, tile="ww")
    place(base, "Bleeding Eyes", "red_2")
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    roll(s, "red", "white", "green")
    assert labels(s) == ["Bleeding Eyes is exorcised"]
    act(s, "Bleeding Eyes is exorcised")
    assert s.get("at", "c38_bleeding_eyes") == "discard"


def test_one_red_and_a_red_token_exorcise_bleeding_eyes(game):
    """HU: "Bálint dob ... csak 1 piros van. Ha van piros Tao-jelzője, most elköltheti" (GS-EXO-5)."""
    base = at_exorcism(game, tile="ww")
    place(base, "Bleeding Eyes", "red_2")
    give(base, "yellow", "red")
    supply_before = base.get("tao_supply", "red")
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "red", "green", "blue")
    # the player is never obliged to spend tokens (GS-EXO-8): failing is an option too
    assert sorted(labels(s)) == ["Bleeding Eyes is exorcised", "the exorcism fails"]
    act(s, "Bleeding Eyes is exorcised")
    assert labels(s) == ["spend a red Tao token"]
    act(s, "spend a red Tao token")
    assert s.get("at", "c38_bleeding_eyes") == "discard"
    assert s.get("tao", "yellow", "red") == 0 and s.get("tao_supply", "red") == supply_before + 1
    assert s.check_invariants() == []


def test_corner_exorcism_of_two_ghosts_with_one_roll(game):
    """HU/EL corner example: Bleeding Eyes (red 2) and Perfidious Nymph (blue 1); roll red, white,
    yellow; a red token completes Bleeding Eyes and the white joker counts as blue (GS-EXO-7)."""
    base = at_exorcism(game, tile="sw")
    place(base, "Bleeding Eyes", "red_1")
    place(base, "c15_perfidious_nymph", "yellow_1")
    give(base, "yellow", "red")
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "red", "white", "yellow")
    act(s, "Perfidious Nymph and Bleeding Eyes are exorcised")
    act(s, "spend a red Tao token")
    act(s, "Perfidious Nymph first")
    assert s.get("at", "c38_bleeding_eyes") == "discard"
    assert s.get("at", "c15_perfidious_nymph") == "discard"


def test_dice_that_suffice_must_exorcise_the_zombie_too(game):
    """HU Bálint / EL Κώστας: Zombie (yellow 2) and Coffin Breaker (yellow 1) from a corner; the roll
    2 yellow + 1 white defeats both, so both are exorcised, and the Zombie's curse die is rolled
    (GS-EXO-8, GS-CURSE-1)."""
    base = at_exorcism(game, tile="se")
    zombie = place(base, "c06_zombie", "yellow_3")
    coffin = place(base, "c03_coffin_breaker", "blue_3")
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
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


def test_sharing_tao_tokens_on_the_same_tile(game):
    """HU: Bálint joins Samu (red) on a tile; Hopping Vampire (yellow 3); roll green, yellow, red;
    Samu's 2 yellow tokens make up the 3 yellow results (GS-TAO-1)."""
    base = at_exorcism(game, tile="ss")
    base.set("monk_at", "red", "ss")
    vampire = place(base, "c08_hopping_vampire", "yellow_2")
    give(base, "yellow", "yellow", -1)  # Bálint has no yellow token
    give(base, "red", "yellow", 2)
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "green", "yellow", "red")
    act(s, "Hopping Vampire is exorcised")
    act(s, "spend a yellow Tao token")
    act(s, "spend a yellow Tao token")
    assert s.get("at", vampire) == "discard"
    assert s.get("tao", "red", "yellow") == 0


def test_tokens_of_a_monk_on_another_tile_cannot_help(game):
    base = at_exorcism(game, tile="ss")
    base.set("monk_at", "red", "cc")
    place(base, "c08_hopping_vampire", "yellow_2")
    give(base, "red", "yellow", 2)
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "green", "yellow", "red")
    assert labels(s) == ["the exorcism fails"]


def test_dark_wraith_reward_yinyang_back(game):
    """HU Bálint / EL Κώστας: Dark Wraith (black 3) exorcised; he takes back his Yin-Yang instead of
    1 Qi (GS-ABIL-REWARD-QIYY, GS-CURSE-2)."""
    base = at_exorcism(game, tile="ss")
    wraith = place(base, "c52_dark_wraith", "yellow_2")
    base.set("yinyang", "yellow", 0)
    base.set("yinyang_supply", "yellow", 1)
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "black", "black", "white")
    act(s, "Dark Wraith is exorcised")
    assert sorted(labels(s)) == ["yellow monk takes 1 Qi", "yellow monk takes back the Yin-Yang"]
    act(s, "takes back the Yin-Yang")
    assert s.get("yinyang", "yellow") == 1 and s.get("at", wraith) == "discard"


def test_yinyang_calls_the_circle_then_exorcism(game):
    """HU Samu / EL Μήτσος: no black token; the Yin-Yang calls the Circle of Prayer, a black token goes
    on it; roll black, white, green; with the Circle's -1 the Dark Wraith (black 3) falls
    (GS-YY-1, GS-VILLAGE-CIRCLE, GS-EXO-10)."""
    base = set_up(game)
    base.set("monk_at", "yellow", "ss")
    wraith = place(base, "c52_dark_wraith", "yellow_2")
    base.set("tao", "yellow", "black", 0)
    base.set("tao_supply", "black", base.get("tao_supply", "black") + 1)
    s = game.state_at("yang_phase", {"m": "yellow"}, base, tracing=True)
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


def test_monk_sacrifices_himself_at_the_sorcerer(game):
    """HU Samu / EL Μήτσος: 2 tiles haunted (EL), a haunter would haunt the third next Yin phase; the
    monk with 1 Qi banishes it at the Sorcerer's Hut and dies (GS-DEATH-4, GS-VILLAGE-SORCERER)."""
    base = set_up(game)
    base.set("haunted", "nn", True)
    base.set("haunted", "ne", True)
    base.set("monk_at", "red", "ww")
    haunter = place(base, "c09_hopping_vampire", "yellow_1", figure="stone1")
    set_qi(base, "red", 1)
    s = game.state_at("take_actions", {"m": "red"}, base, tracing=True)
    act(s, "asks Sorcerer's Hut for help")
    act(s, "Hopping Vampire is banished")
    assert s.get("at", haunter) == "discard"
    assert s.get("alive", "red") is False and s.get("qi", "red") == 0
    assert s.get("monk_at", "red") == "ss", "the dead monk lies on the Cemetery (GS-DEATH-1)"
    assert not s.is_terminal()
    assert any(e.rule == "GS-DEATH-1" for e in s.log())


def test_severed_heads_on_a_full_village(game):
    """HU Bálint: Severed Heads (black) fills his own board; no Qi lost for a full board this turn;
    its left stone must bring a ghost, but all 12 slots are full, so he loses 1 Qi instead; it
    captures a Tao die (GS-PLACE-2, GS-PLACE-4, GS-ABIL-CAPTUREDIE)."""
    base = set_up(game)
    fillers = ["c01_ghoul", "c02_walking_corpse", "c12_drowned_maiden", "c13_hound_of_death", "c16_sticky_feet",
               "c23_creeping_one", "c24_fungus_thing", "c27_restless_spirit", "c34_skinner", "c35_reaper",
               "c38_bleeding_eyes"]
    slots = ["yellow_1", "yellow_2", "blue_1", "blue_2", "blue_3", "green_1", "green_2", "green_3", "red_1", "red_2",
             "red_3"]
    for card, slot in zip(fillers, slots):
        place(base, card, slot)
    s = game.state_at("bring_ghost", {"by": "yellow"}, base, tracing=True)
    roll(s, "Severed Heads")
    assert labels(s) == ["Severed Heads to yellow board slot 3"]
    act(s, "Severed Heads to yellow board slot 3")
    step = [e.text for e in s.log()[:[e.rule for e in s.log()].index("GS-TURN-1")]]
    assert "yellow monk loses 1 Qi (3 left)" in step
    assert sum(t.startswith("yellow monk loses 1 Qi (") for t in step) == 1, "no Qi for the full board now"
    assert s.eval("captured_dice") == 1 and s.eval("exorcism_dice(yellow)") == 2
    assert any(e.rule == "GS-PLACE-4" for e in s.log())


def test_curse_after_the_final_exorcism_can_still_lose(game):
    """HU/EL: after the last incarnation is exorcised its curse still applies; a haunting result that
    flips the losing tile loses the game (GS-END-5)."""
    base = set_up(game)
    base.set("haunted", "nn", True)
    base.set("haunted", "ne", True)
    base.set("monk_at", "yellow", "ss")
    hope = place(base, "Hope Killer", "yellow_2")
    base.set("seg_ghosts", "seg1", 0)
    base.set("seg_incarnation", "seg1", False)
    for colour in ("blue", "red", "green"):
        give(base, "yellow", colour, 2)
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
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


def test_final_exorcism_without_a_losing_curse_wins(game):
    base = set_up(game)
    base.set("monk_at", "yellow", "ss")
    place(base, "Vampire Lord", "yellow_2")
    give(base, "yellow", "yellow", -1)
    base.set("seg_ghosts", "seg1", 0)
    base.set("seg_incarnation", "seg1", False)
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "yellow", "yellow", "white")
    give_tokens = labels(s)
    assert give_tokens == ["the exorcism fails"]  # resistance 4 needs a 4th result
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    base2 = s  # noqa: F841
    base.set("circle_tao", "yellow", 1)
    base.set("tao_supply", "yellow", base.get("tao_supply", "yellow") - 1)
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "yellow", "yellow", "white")
    act(s, "Vampire Lord is exorcised")
    act(s, "yellow monk receives 1 Qi")
    act(s, "takes back the Yin-Yang") if any("Yin-Yang" in x for x in labels(s)) else None
    assert s.is_terminal() and s.outcome().result == "win" and s.outcome().rule_id == "GS-END-1"
