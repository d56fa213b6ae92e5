"""The nine village tiles of Ghost Stories (rulebook section 5, EL reading), one position each.

Layout (gs_helpers.LAYOUT), with the boards around it:

    Herbalist(nw)   Tea House(nn)   Pavilion(ne)        green board (north)
    Sorcerer(ww)    Watchman(cc)    Temple(ee)     red (west)      blue (east)
    Circle(sw)      Cemetery(ss)    Altar(se)           yellow board (south)

so yellow_2 faces the Cemetery, red_2 the Sorcerer's Hut, blue_2 the Temple, green_2 the Tea House.
"""

from __future__ import annotations

import pytest

from gs_helpers import COLOURS, act, give, gs_game, kill, labels, place, roll, rules_fired, set_qi, set_up


@pytest.fixture
def game():
    return gs_game()


def tokens(state, monk):
    return {c: state.get("tao", monk, c) for c in COLOURS}


def supply(state):
    return {c: state.get("tao_supply", c) for c in COLOURS}



def helping(game, base, monk, tile):
    """The monk stands on the tile, it is his turn, and he is at Yang step 2."""
    base.set("monk_at", monk, tile)
    base.set("active", monk)
    return game.state_at("take_actions", {"m": monk}, base, tracing=True)


# ---- Cemetery -------------------------------------------------------------------------------

def test_cemetery_revives_a_dead_monk_with_2_qi_and_haunting_flips_it(game):
    """GS-VILLAGE-CEMETERY, GS-VILLAGE-CEMETERY-2, GS-VILLAGE-CEMETERY-3, GS-CURSEDIE-B: the red monk is
    dead; the yellow monk asks the Cemetery: red comes back standing on the Cemetery with 2 Qi, then the
    curse die is rolled; its haunting face flips the Cemetery itself."""
    base = set_up(game)
    kill(base, "red")
    qi_supply = base.get("qi_supply")
    s = helping(game, base, "yellow", "ss")
    act(s, "yellow monk asks Cemetery for help")
    assert labels(s) == ["red monk comes back to life"]
    act(s, "red monk comes back to life")
    assert s.get("alive", "red") is True
    assert s.get("qi", "red") == 2 and s.get("qi_supply") == qi_supply - 2
    assert s.get("monk_at", "red") == "ss"
    assert s.is_chance_node() and s.prompt() == "roll the curse_die"
    roll(s, "haunt a tile")
    assert s.get("haunted", "ss") is True
    assert [t for t in ("nw", "nn", "ne", "ww", "cc", "ee", "sw", "se") if s.get("haunted", t)] == []
    assert s.get("qi", "yellow") == 4 and s.get("qi", "red") == 2
    assert "GS-VILLAGE-CEMETERY" in rules_fired(s)
    assert s.check_invariants() == []


def test_cemetery_curse_die_is_rolled_by_the_active_player(game):
    """GS-VILLAGE-CEMETERY-2 (EL): the active player rolls the Cemetery's curse die, so a "lose 1 Qi"
    result costs the active yellow monk, not the revived red monk; GS-CURSEDIE-E."""
    base = set_up(game)
    kill(base, "red")
    s = helping(game, base, "yellow", "ss")
    act(s, "asks Cemetery for help")
    act(s, "red monk comes back to life")
    roll(s, "lose 1 Qi")
    assert s.get("qi", "yellow") == 3 and s.get("qi", "red") == 2
    assert s.get("haunted", "ss") is False
    assert s.check_invariants() == []


def test_cemetery_needs_a_dead_monk(game):
    """GS-VILLAGE-CEMETERY-4, GS-YANG-3: with every monk alive there is no help to ask at the Cemetery."""
    s = helping(game, set_up(game), "yellow", "ss")
    assert not any("Cemetery" in x for x in labels(s))


# ---- Taoist Altar ---------------------------------------------------------------------------

def test_altar_frees_a_haunted_tile_then_brings_a_ghost(game):
    """GS-VILLAGE-ALTAR, GS-PLACE-5, GS-PLACE-1: the Tea House and the Herbalist are haunted; the monk
    on the Altar frees the Tea House, then draws a ghost (Bleeding Eyes, red) onto the red board."""
    base = set_up(game)
    base.set("haunted", "nn", True)
    base.set("haunted", "nw", True)
    s = helping(game, base, "yellow", "se")
    act(s, "asks Taoist Altar for help")
    assert sorted(labels(s)) == ["Herbalist is no longer haunted", "Tea House is no longer haunted"]
    act(s, "Tea House is no longer haunted")
    assert s.get("haunted", "nn") is False and s.get("haunted", "nw") is True
    assert s.is_chance_node(), "a new ghost comes into play"
    roll(s, "Bleeding Eyes")
    assert sorted(labels(s)) == [f"Bleeding Eyes to red board slot {k}" for k in (1, 2, 3)]
    act(s, "Bleeding Eyes to red board slot 2")
    assert s.get("at", "c38_bleeding_eyes") == "red_2"
    assert s.get("figure", "c38_bleeding_eyes") == "on_card"
    assert s.check_invariants() == []


def test_altar_is_no_help_without_a_haunted_tile(game):
    """GS-VILLAGE-ALTAR, GS-YANG-3: nothing to free, so the Altar cannot be asked."""
    s = helping(game, set_up(game), "yellow", "se")
    assert not any("Taoist Altar" in x for x in labels(s))


# ---- Herbalist ------------------------------------------------------------------------------

def test_herbalist_two_dice_give_tokens_and_white_a_token_of_choice(game):
    """GS-VILLAGE-HERBALIST, GS-CURSE-2 (take_tao_token): 2 Tao dice; red -> a red token; white -> a
    token of the player's choice (blue here)."""
    base = set_up(game)
    before, stock = tokens(base, "yellow"), supply(base)
    s = helping(game, base, "yellow", "nw")
    act(s, "asks Herbalist for help")
    roll(s, "red", "white")
    assert "yellow monk takes a blue Tao token" in labels(s)
    act(s, "yellow monk takes a blue Tao token")
    after = tokens(s, "yellow")
    assert after["red"] == before["red"] + 1 and after["blue"] == before["blue"] + 1
    assert sum(after.values()) == sum(before.values()) + 2
    assert supply(s)["red"] == stock["red"] - 1 and supply(s)["blue"] == stock["blue"] - 1
    assert s.check_invariants() == []


def test_herbalist_two_whites_give_two_tokens_of_choice(game):
    """GS-VILLAGE-HERBALIST: each white result gives a token of the player's choice."""
    base = set_up(game)
    before = tokens(base, "yellow")
    s = helping(game, base, "yellow", "nw")
    act(s, "asks Herbalist for help")
    roll(s, "white", "white")
    act(s, "yellow monk takes a green Tao token")
    act(s, "yellow monk takes a green Tao token")
    assert tokens(s, "yellow")["green"] == before["green"] + 2
    assert sum(tokens(s, "yellow").values()) == sum(before.values()) + 2
    assert s.check_invariants() == []


def test_herbalist_is_limited_by_the_supply(game):
    """GS-VILLAGE-HERBALIST, GS-COMP-14: two green results but only 1 green token left in the supply."""
    base = set_up(game)
    give(base, "red", "green", 2)  # supply: 1 green left
    assert base.get("tao_supply", "green") == 1
    s = helping(game, base, "yellow", "nw")
    act(s, "asks Herbalist for help")
    roll(s, "green", "green")
    assert s.get("tao", "yellow", "green") == 1 and s.get("tao_supply", "green") == 0
    assert s.check_invariants() == []


# ---- Sorcerer's Hut -------------------------------------------------------------------------

def test_sorcerer_discards_a_ghost_without_curse_and_costs_1_qi(game):
    """GS-VILLAGE-SORCERER, GS-CURSE-4, GS-INC-GEN-3: the Zombie (curse die when exorcised) is banished:
    no curse die is rolled, the card is discarded, the monk loses 1 Qi; the incarnation in play (Vampire
    Lord) cannot be targeted."""
    base = set_up(game)
    zombie = place(base, "c06_zombie", "yellow_2")
    lord = place(base, "Vampire Lord", "yellow_1")
    qi_supply = base.get("qi_supply")
    s = helping(game, base, "red", "ww")
    act(s, "asks Sorcerer's Hut for help")
    assert labels(s) == ["Zombie is banished (yellow board slot 2)"]
    act(s, "Zombie is banished")
    assert s.get("at", zombie) == "discard"
    assert s.get("at", lord) == "yellow_1"
    assert s.get("qi", "red") == 3 and s.get("qi_supply") == qi_supply + 1
    assert "GS-CURSE-1" not in rules_fired(s), "no curse die for a banished ghost"
    assert s.prompt() != "roll the curse_die"
    assert s.check_invariants() == []


def test_sorcerer_gives_no_reward(game):
    """GS-VILLAGE-SORCERER, GS-CURSE-4: a banished Dark Wraith ("1 Qi or Yin-Yang") rewards nothing."""
    base = set_up(game)
    wraith = place(base, "c52_dark_wraith", "green_1")
    s = helping(game, base, "red", "ww")
    act(s, "asks Sorcerer's Hut for help")
    act(s, "Dark Wraith is banished")
    assert s.get("at", wraith) == "discard"
    assert s.get("qi", "red") == 3 and s.get("yinyang", "red") == 1
    assert not any("Qi" in x or "Yin-Yang" in x for x in labels(s) if "takes" in x)
    assert s.check_invariants() == []


def test_sorcerer_cannot_be_asked_with_only_an_incarnation_in_play(game):
    """GS-INC-GEN-3, GS-YANG-3: the Sorcerer cannot target an incarnation."""
    base = set_up(game)
    place(base, "Vampire Lord", "yellow_1")
    s = helping(game, base, "red", "ww")
    assert not any("Sorcerer" in x for x in labels(s))


# ---- Buddhist Temple and Buddhas ------------------------------------------------------------

def yang(game, base, monk, tile):
    base.set("monk_at", monk, tile)
    base.set("active", monk)
    return game.state_at("yang_phase", {"m": monk}, base, tracing=True)


def test_temple_buddha_is_placed_only_in_a_later_turn_facing_the_monk(game):
    """GS-VILLAGE-TEMPLE, GS-BUDDHA-1, GS-TURN-1: the blue monk on the Temple takes a Buddha; in the same
    turn's step 3 he cannot place it; in a later turn he places it on the empty slot his tile faces
    (blue_2), and only there."""
    base = set_up(game)
    base.set("monk_at", "blue", "ee")
    base.set("active", "blue")
    s = game.state_at("play_turn", {}, base, tracing=True)
    roll(s, "Bleeding Eyes")                # blue's Yin phase brings a ghost
    act(s, "Bleeding Eyes to red board slot 1")
    act(s, "keep the Yin-Yang")
    act(s, "blue monk stays on Buddhist Temple")
    act(s, "keep the Yin-Yang")
    act(s, "blue monk asks Buddhist Temple for help")
    assert s.get("buddha_held", "blue") == 1 and s.get("buddha_temple") == 1
    act(s, "keep the Yin-Yang")
    # step 3 of the same turn: no "place a Buddha?" decision, straight to the last Yin-Yang window
    assert s.prompt() == "use the Yin-Yang?"
    act(s, "keep the Yin-Yang")
    # the turn has passed to the yellow monk (his Yin phase draws a ghost)
    assert s.get("active") == "yellow" and s.is_chance_node()
    assert s.get("buddha_held", "blue") == 1
    assert s.get("buddha_taken_now", "blue") == 0

    later = yang(game, s, "blue", "ee")
    act(later, "keep the Yin-Yang")
    act(later, "blue monk stays on Buddhist Temple")
    act(later, "keep the Yin-Yang")
    act(later, "blue monk takes no (further) action")
    act(later, "keep the Yin-Yang")
    assert later.prompt() == "place a Buddha?"
    assert sorted(labels(later)) == ["blue monk places a Buddha on blue board slot 2", "keep the Buddha"]
    act(later, "blue monk places a Buddha on blue board slot 2")
    assert later.get("buddha_on", "blue_2") == 1 and later.get("buddha_held", "blue") == 0
    assert later.check_invariants() == []

    # a ghost later arriving on that Buddha is destroyed, and the Buddha goes back to the Temple (GS-BUDDHA-3)
    arrival = game.state_at("bring_ghost", {"by": "blue"}, later, tracing=True)
    roll(arrival, "Sticky Feet")
    act(arrival, "Sticky Feet to blue board slot 2")
    assert arrival.get("at", "c16_sticky_feet") == "discard"
    assert arrival.get("buddha_on", "blue_2") == 0 and arrival.get("buddha_temple") == 2
    assert arrival.check_invariants() == []


def test_buddha_needs_an_empty_slot_facing_the_monk(game):
    """GS-BUDDHA-1: a Buddha held from an earlier turn cannot go on an occupied slot."""
    base = set_up(game)
    base.set("buddha_temple", 1)
    base.set("buddha_held", "blue", 1)
    place(base, "c16_sticky_feet", "blue_2")
    s = yang(game, base, "blue", "ee")
    act(s, "keep the Yin-Yang")
    act(s, "stays on")
    act(s, "keep the Yin-Yang")
    act(s, "blue monk takes no (further) action")
    act(s, "keep the Yin-Yang")
    assert s.prompt() == "use the Yin-Yang?", "no Buddha decision: blue_2 is occupied"
    assert s.get("buddha_held", "blue") == 1


def test_temple_cannot_be_asked_with_no_buddha_on_it(game):
    """GS-VILLAGE-TEMPLE (EL): both Buddhas are away from the Temple, so its help is not available."""
    base = set_up(game)
    base.set("buddha_temple", 0)
    base.set("buddha_held", "yellow", 1)
    base.set("buddha_on", "green_3", 1)
    s = helping(game, base, "blue", "ee")
    assert labels(s) == ["blue monk takes no (further) action"]
    assert s.check_invariants() == []


def test_ghost_arriving_on_a_buddha_is_destroyed_and_the_buddha_returns(game):
    """GS-BUDDHA-3, GS-BUDDHA-4, GS-BUDDHA-5, GS-PLACE-3: a Buddha on blue_2; a blue ghost (Abysmal, curse
    die when exorcised) is drawn and placed there: discarded at once, no curse, the Buddha goes back to
    the Temple."""
    base = set_up(game)
    base.set("buddha_temple", 1)
    base.set("buddha_on", "blue_2", 1)
    base.set("active", "blue")
    s = game.state_at("bring_ghost", {"by": "blue"}, base, tracing=True)
    roll(s, "Abysmal")
    act(s, "Abysmal to blue board slot 2")
    abysmal = "c17_abysmal" if s.get("at", "c17_abysmal") != "deck" else "c18_abysmal"
    assert s.get("at", abysmal) == "discard"
    assert s.get("buddha_on", "blue_2") == 0 and s.get("buddha_temple") == 2
    assert "GS-CURSE-1" not in rules_fired(s) and s.prompt() != "roll the curse_die"
    assert s.check_invariants() == []


def test_ghost_with_left_stone_landing_on_a_buddha_does_nothing(game):
    """GS-BUDDHA-5 (EL): Coffin Breaker (left stone: new ghost, power off) lands on a Buddha: destroyed
    before its left stone, so no further ghost is drawn and the yellow power still works."""
    base = set_up(game)
    base.set("buddha_temple", 1)
    base.set("buddha_on", "yellow_3", 1)
    s = game.state_at("bring_ghost", {"by": "yellow"}, base, tracing=True)
    roll(s, "Coffin Breaker")
    act(s, "Coffin Breaker to yellow board slot 3")
    coffins = ["c03_coffin_breaker", "c04_coffin_breaker"]
    assert [s.get("at", c) for c in coffins].count("discard") == 1
    assert s.get("buddha_temple") == 2
    assert s.eval("has_power(yellow, pockets)") is True
    assert sum(1 for c in game.layout.domains["card"].symbols if s.eval(f"in_play({c})")) == 0


# ---- Night Watchman -------------------------------------------------------------------------

def test_watchman_sends_the_haunters_of_one_board_back_onto_their_cards(game):
    """GS-VILLAGE-WATCHMAN: red board: Skinner on the 1st stone, Bleeding Eyes on its card; blue board:
    Drowned Maiden on the 1st stone. Patrolling the red board puts Skinner back on its card; the other
    boards keep their figures."""
    base = set_up(game)
    skinner = place(base, "c34_skinner", "red_1", figure="stone1")
    eyes = place(base, "c38_bleeding_eyes", "red_3", figure="on_card")
    maiden = place(base, "c12_drowned_maiden", "blue_1", figure="stone1")
    s = helping(game, base, "yellow", "cc")
    act(s, "asks Night Watchman for help")
    assert sorted(labels(s)) == sorted(f"the Night Watchman patrols {m} monk's board"
                                       for m in ("yellow", "red", "green", "blue"))
    act(s, "patrols red monk's board")
    assert s.get("figure", skinner) == "on_card"
    assert s.get("figure", eyes) == "on_card"
    assert s.get("figure", maiden) == "stone1"
    assert [s.get("at", g) for g in (skinner, eyes, maiden)] == ["red_1", "red_3", "blue_1"]
    assert s.check_invariants() == []


# ---- Circle of Prayer -----------------------------------------------------------------------

def test_circle_places_then_replaces_its_token(game):
    """GS-VILLAGE-CIRCLE, GS-VILLAGE-CIRCLE-2: a red token goes from the supply onto the Circle; a later
    call replaces it with a blue one, and the red token goes back to the supply."""
    base = set_up(game)
    red = base.get("tao_supply", "red")
    s = helping(game, base, "yellow", "sw")
    act(s, "asks Circle of Prayer for help")
    act(s, "a red token goes on the Circle of Prayer")
    assert s.get("circle_tao", "red") == 1 and s.get("tao_supply", "red") == red - 1
    assert s.check_invariants() == []

    s2 = helping(game, s, "green", "sw")
    act(s2, "asks Circle of Prayer for help")
    act(s2, "a blue token goes on the Circle of Prayer")
    assert s2.get("circle_tao", "red") == 0 and s2.get("tao_supply", "red") == red
    assert s2.get("circle_tao", "blue") == 1
    assert sum(s2.get("circle_tao", c) for c in COLOURS) == 1
    assert s2.check_invariants() == []


def test_circle_lowers_resistance_of_its_colour_for_any_monk(game):
    """GS-VILLAGE-CIRCLE, GS-EXO-10, GS-EXO-3: a red token on the Circle; the green monk (not the one who
    put it there) exorcises Bleeding Eyes (red 2) with a single red result."""
    base = set_up(game, powers={"green": "favourite"})
    base.set("tao_supply", "red", base.get("tao_supply", "red") - 1)
    base.set("circle_tao", "red", 1)
    eyes = place(base, "Bleeding Eyes", "red_2")
    base.set("monk_at", "green", "ww")
    s = game.state_at("exorcise", {"m": "green"}, base)
    roll(s, "red", "green", "blue")
    act(s, "keep the roll")
    assert labels(s) == ["Bleeding Eyes is exorcised (red board slot 2)"]
    act(s, "Bleeding Eyes is exorcised")
    assert s.get("at", eyes) == "discard"
    assert s.get("circle_tao", "red") == 1, "the token stays after the exorcism (GS-VILLAGE-CIRCLE-2)"
    assert s.check_invariants() == []


def test_circle_does_not_lower_other_colours(game):
    """GS-VILLAGE-CIRCLE: a black token on the Circle does not help against a red ghost."""
    base = set_up(game)
    base.set("tao", "blue", "black", base.get("tao", "blue", "black") - 1)  # the supply has none (GS-SETUP-4)
    base.set("circle_tao", "black", 1)
    place(base, "Bleeding Eyes", "red_2")
    base.set("monk_at", "yellow", "ww")
    s = game.state_at("exorcise", {"m": "yellow"}, base)
    roll(s, "red", "green", "blue")
    assert labels(s) == ["the exorcism fails"]


# ---- Pavilion of the Heavenly Winds ---------------------------------------------------------

def test_pavilion_moves_a_ghost_with_its_figure_and_mantra_then_another_monk_anywhere(game):
    """GS-VILLAGE-PAVILION, GS-VILLAGE-PAVILION-2, GS-POWER-YELLOW-MANTRA-5: Skinner (haunter on its 1st
    stone, Mantra on it) moves from red_1 to the empty green_3; figure and Mantra go with it; then the
    monk moves the red monk from the centre to the far corner (not adjacent)."""
    base = set_up(game, powers={"yellow": "mantra"})
    skinner = place(base, "c34_skinner", "red_1", figure="stone1")
    base.set("mantra_home", 0)
    base.set("mantra_on", skinner, 1)
    place(base, "c23_creeping_one", "green_1")
    s = helping(game, base, "yellow", "ne")
    act(s, "asks Pavilion of the Heavenly Winds for help")
    act(s, "move Skinner")
    assert "Skinner moves to green board slot 1" not in labels(s), "only empty slots"
    act(s, "Skinner moves to green board slot 3")
    assert s.get("at", skinner) == "green_3"
    assert s.get("figure", skinner) == "stone1"
    assert s.get("mantra_on", skinner) == 1
    assert s.prompt() == "move another monk?"
    assert "move yellow monk" not in labels(s), "EL: a monk other than your own"
    act(s, "move red monk")
    assert "red monk moves to Taoist Altar" in labels(s)
    act(s, "red monk moves to Taoist Altar")
    assert s.get("monk_at", "red") == "se" and s.get("monk_at", "yellow") == "ne"
    assert s.check_invariants() == []


def test_pavilion_ghost_moved_onto_a_buddha_is_destroyed(game):
    """GS-VILLAGE-PAVILION, GS-BUDDHA-3, GS-BUDDHA-4: Zombie (curse die when exorcised) is moved onto the
    Buddha of blue_2: discarded, no curse, the Buddha returns to the Temple."""
    base = set_up(game)
    zombie = place(base, "c06_zombie", "yellow_1")
    base.set("buddha_temple", 1)
    base.set("buddha_on", "blue_2", 1)
    s = helping(game, base, "yellow", "ne")
    act(s, "asks Pavilion")
    act(s, "move Zombie")
    act(s, "Zombie moves to blue board slot 2")
    assert s.get("at", zombie) == "discard"
    assert s.get("buddha_on", "blue_2") == 0 and s.get("buddha_temple") == 2
    assert s.prompt() == "move another monk?"
    assert "GS-CURSE-1" not in rules_fired(s)
    assert s.check_invariants() == []


def test_pavilion_moving_a_power_disabler_frees_the_old_board(game):
    """GS-VILLAGE-PAVILION-2, GS-POWER-GEN-2, GS-ABIL-NOPOWER: Coffin Breaker moved from the red board to
    the green board: red gets Dance of the Peaks back, green loses Strength of the Mountain."""
    base = set_up(game)
    coffin = place(base, "c03_coffin_breaker", "red_1")
    assert base.eval("has_power(red, peaks)") is False
    s = helping(game, base, "yellow", "ne")
    act(s, "asks Pavilion")
    act(s, "move Coffin Breaker")
    act(s, "Coffin Breaker moves to green board slot 2")
    assert s.get("at", coffin) == "green_2"
    assert s.eval("has_power(red, peaks)") is True
    assert s.eval("has_power(green, mountain)") is False
    act(s, "no monk is moved")
    assert s.check_invariants() == []


# ---- Tea House ------------------------------------------------------------------------------

def test_teahouse_gives_a_token_of_choice_and_1_qi_then_a_ghost(game):
    """GS-VILLAGE-TEAHOUSE, GS-CURSE-2, GS-PLACE-5: a blue token of the player's choice, +1 Qi, then a
    ghost (Skinner, red) comes into play."""
    base = set_up(game)
    qi_supply = base.get("qi_supply")
    s = helping(game, base, "yellow", "nn")
    act(s, "asks Tea House for help")
    assert sorted(labels(s)) == sorted(f"yellow monk takes a {c} Tao token"
                                       for c in ("yellow", "red", "green", "blue"))
    act(s, "yellow monk takes a blue Tao token")
    assert s.get("tao", "yellow", "blue") == 1
    assert s.get("qi", "yellow") == 5 and s.get("qi_supply") == qi_supply - 1
    assert s.is_chance_node(), "then a ghost comes into play"
    roll(s, "Skinner")
    act(s, "Skinner to red board slot 3")
    assert s.get("at", "c34_skinner") == "red_3"
    assert s.check_invariants() == []


def test_a_living_monk_with_no_qi_who_loses_qi_dies() -> None:
    """GS-QI-1 / GS-DEATH-1: a monk revived at the Cemetery from an empty Qi supply lives on 0 Qi
    (GS-VILLAGE-CEMETERY takes 2 Qi up to what the supply holds); a Qi loss then kills him instead
    of taking a token he does not have (the engine used to stop on the empty source)."""
    game = gs_game()
    state = set_up(game)
    set_qi(state, "red", 0)
    assert state.eval("alive[red]")
    after = game.state_at("lose_qi", {"m": "red"}, state, stop=True)
    assert after.is_terminal() and not after.eval("alive[red]") and after.eval("qi[red]") == 0
