"""Ghost Stories: an audit of the 55 ghost cards, their abilities (GS-ABIL-*), curses and rewards
(GS-CURSE-*, GS-CURSEDIE-*) and the general ghost rules (GS-GHOST-*) against the card facts
(../shared/data/ghost_stories_cards.csv) and both rulebooks, in exact positions.

Layout used (gs_helpers.LAYOUT):

    Herbalist   Tea House   Pavilion          green board (north)
    Sorcerer    Watchman    Temple       red (west)      blue (east)
    Circle      Cemetery    Altar             yellow board (south)

The yellow monk on the Cemetery (ss) faces yellow_2, whose line of tiles is ss, cc, nn.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gs_helpers import COLOURS, act, exorcism_rolling, gather, give, gs_game, labels, place, roll, set_qi, set_up, spend_all

EDITIONS = ["el", "hu"]
ROOT = Path(__file__).resolve().parents[1]
SPEC_CARDS = ROOT / "specs" / "ghost-stories" / "cards.csv"
DATA_CARDS = ROOT.parent / "shared" / "data" / "ghost_stories_cards.csv"  # ../shared, when present


@pytest.fixture(scope="module", params=EDITIONS)
def game(request):
    return gs_game(edition=request.param)


@pytest.fixture
def base(game):
    b = set_up(game)
    b.set("active", "yellow")
    b.set("seg_incarnation", "seg1", False)  # the incarnation has left the deck
    for c in COLOURS:
        give(b, "yellow", c, -b.get("tao", "yellow", c))
    return b


def tokens(state, monk):
    return sum(state.get("tao", monk, c) for c in COLOURS)


def fill_slots(state, keep_empty=(), skip=()):
    """Fill every slot except ``keep_empty`` with ghosts from the deck that have no left-stone ability."""
    plain = [g for g in state.game.layout.domains["card"].symbols
             if state.get("at", g) == "deck" and g not in skip and not state.eval(f"is_incarnation({g})")
             and not any(state.eval(f"left_stone[{g}, {a}]") for a in state.game.layout.domains["ability"].symbols)]
    for x in state.game.layout.domains["slot"].symbols:
        if x in keep_empty or state.eval(f"occupied({x})"):
            continue
        place(state, plain.pop(0), x)


# ---------------------------------------------------------------------------------------------
# The card data
# ---------------------------------------------------------------------------------------------

@pytest.mark.skipif(not DATA_CARDS.exists(), reason="shared card facts not available")
def test_spec_card_list_equals_the_card_facts():
    """GS-GHOST-1/5, OQ-4: cards.csv is the public card facts, row by row and column by column
    (colour, resistance, the three stones, confidence): any difference must be deliberate."""
    spec = list(csv.DictReader(SPEC_CARDS.open(encoding="utf-8")))
    data = list(csv.DictReader(DATA_CARDS.open(encoding="utf-8")))
    assert len(spec) == len(data) == 65
    diffs = [(d["number"], k, s.get(k), d[k]) for s, d in zip(spec, data) for k in d if s.get(k) != d[k]]
    assert diffs == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_loaded_card_tables_follow_the_card_file(edition):
    """GS-GHOST-1/2: "A szellemek fő jellemzői a szín (1), ellenállás (2), tulajdonságok (3)": each card's
    colour, resistance and stones, as the engine loads them, are the rows of cards.csv (left stone =
    on_arrival, middle = each_yin, right = on_exorcism)."""
    game = gs_game(edition=edition)
    s = game.new_initial_state()
    symbols = list(game.layout.domains["card"].symbols)
    abilities = list(game.layout.domains["ability"].symbols)
    rows = list(csv.DictReader(SPEC_CARDS.open(encoding="utf-8")))
    for g, row in zip(symbols, rows):
        assert s.eval(f"card_number[{g}]") == int(row["number"])
        colour = None if row["color"] == "multicolour" else row["color"]
        assert s.eval(f"card_colour[{g}]") == (colour or "none")
        want = ({row["color"]: int(row["resistance"])} if colour
                else {c: int(n) for c, n in (p.split(":") for p in row["resistance"].split("|"))})
        assert {c: s.eval(f"resist[{g}, {c}]") for c in COLOURS if s.eval(f"resist[{g}, {c}]")} == want
        for stone, col in (("left_stone", "on_arrival"), ("middle_stone", "each_yin"),
                           ("right_stone", "on_exorcism")):
            have = {a for a in abilities if s.eval(f"{stone}[{g}, {a}]")}
            assert have == set(filter(None, row[col].split(";"))), (g, stone)


# ---------------------------------------------------------------------------------------------
# Left stone (arrival)
# ---------------------------------------------------------------------------------------------

def test_severed_heads_fills_the_last_slot_the_new_ghost_costs_a_qi_instead(game, base):
    """The rulebook example (both editions): the black Severed Heads goes on the active player's board,
    filling the 12th slot; no Qi is lost for the full board (that is step 2), it captures a Tao die
    (GS-ABIL-CAPTUREDIE), and its "new ghost" (GS-ABIL-NEWGHOST) costs 1 Qi instead of a card
    (GS-PLACE-4). HU: "újabb szellem húzása helyett Bálint veszít 1 Qi-t. Végül a 3 Tao-kocka egyikét a
    most lerakott Levágott fejek kártyájára teszi." EL p5: "δεδομένου ότι και οι 12 θέσεις είναι πλέον
    κατειλημμένες, χάνει 1 μάρκα Qi, αντί να προσθέσει το φάντασμα"."""
    fill_slots(base, keep_empty=("yellow_3",))
    deck = base.eval("deck_size")
    s = game.state_at("place_ghost", {"g": "c47_severed_heads", "by": "yellow"}, base, tracing=True, stop=True)
    act(s, "Severed Heads to yellow board slot 3")
    assert s.outcome().result == "step over"
    assert s.get("qi", "yellow") == 3 and s.eval("deck_size") == deck
    assert s.eval("captured_dice") == 1 and s.eval("exorcism_dice(yellow)") == 2


def test_two_captured_dice_add_up_and_come_back_with_the_ghost(game, base):
    """GS-ABIL-CAPTUREDIE, GS-GHOST-4: each Severed Heads holds a die until it is exorcised; HU
    "exorcising Severed Heads gives back the Tao die it held" ("a csapat visszakapja a Tao-kockát")."""
    place(base, "c47_severed_heads", "yellow_2")
    place(base, "c48_severed_heads", "red_2")
    assert base.eval("exorcism_dice(yellow)") == 1
    base.set("monk_at", "yellow", "ss")
    s = exorcism_rolling(game, base, "yellow", "black", tracing=True, stop=True)
    act(s, "Severed Heads is exorcised")
    act(s, "takes a black Tao token")  # reward: 1 Tao token
    assert s.get("at", "c47_severed_heads") == "discard"
    assert s.eval("exorcism_dice(yellow)") == 2 and s.get("tao", "yellow", "black") == 1


def test_perfidious_nymph_on_another_board_brings_a_ghost_for_the_active_player(game, base):
    """GS-ABIL-NEWGHOST / GS-PLACE-5: the blue Perfidious Nymph drawn in the yellow player's turn goes to
    the blue board and brings one more ghost ("Még egy szellem kijátszása"), placed by the usual rules:
    a black ghost on the active player's board (HU "A fekete szellemeket, amennyiben lehetséges, az
    aktív játékos táblájára kell tenni")."""
    s = game.state_at("place_ghost", {"g": "c15_perfidious_nymph", "by": "yellow"}, base, stop=True)
    act(s, "Perfidious Nymph to blue board slot 1")
    assert s.prompt() == "draw a card"
    roll(s, "Gloomy Minion")
    assert labels(s) == [f"Gloomy Minion to yellow board slot {k}" for k in (1, 2, 3)]


def test_coffin_breaker_copy_a_disables_its_boards_power_until_it_leaves(game, base):
    """GS-ABIL-NOPOWER: "Amíg ezt a szellemet el nem űzik, az általa elfoglalt tábla Ereje nem
    használható" / EL "η δύναμη του ταμπλό, όπου βρίσκεται η κάρτα του φαντάσματος, δεν μπορεί να
    χρησιμοποιηθεί". Only copy A (card 3) has the icon; the power comes back when it is exorcised
    (GS-GHOST-4) and it follows the card to another board (GS-POWER-GEN-2)."""
    place(base, "c04_coffin_breaker", "yellow_1")
    assert base.eval("has_power(yellow, pockets)")
    place(base, "c03_coffin_breaker", "yellow_2")
    assert not base.eval("has_power(yellow, pockets)")
    assert base.eval("has_power(red, peaks)") and base.eval("has_power(green, mountain)")
    moved = base.clone()
    moved.set("at", "c03_coffin_breaker", "red_2")
    assert moved.eval("has_power(yellow, pockets)") and not moved.eval("has_power(red, peaks)")
    base.set("monk_at", "yellow", "ss")
    s = exorcism_rolling(game, base, "yellow", "yellow", "red", "red", tracing=True, stop=True)
    act(s, "Coffin Breaker is exorcised")
    assert s.get("at", "c03_coffin_breaker") == "discard"
    assert s.eval("has_power(yellow, pockets)")


def test_gravewalker_takes_a_qi_from_the_board_it_lands_on(game, base):
    """GS-ABIL-LOSEQI: "A játékos vagy a semleges tábla elveszít 1 Qi-t" / EL "Ο παίκτης ή το ουδέτερο
    ταμπλό χάνει 1 Qi"; as a haunter its figure goes on the card (GS-ABIL-HAUNTER)."""
    s = game.state_at("place_ghost", {"g": "c49_gravewalker", "by": "yellow"}, base, stop=True)
    act(s, "Gravewalker to yellow board slot 2")
    assert s.get("qi", "yellow") == 3 and s.get("figure", "c49_gravewalker") == "on_card"


def test_gravewalker_kills_a_monk_on_his_last_qi(game, base):
    """GS-ABIL-LOSEQI with GS-DEATH-1: a monk with 1 Qi who loses it dies."""
    set_qi(base, "yellow", 1)
    s = game.state_at("place_ghost", {"g": "c49_gravewalker", "by": "yellow"}, base, stop=True)
    act(s, "Gravewalker to yellow board slot 2")
    assert s.get("qi", "yellow") == 0 and s.get("alive", "yellow") is False


def test_shapeless_evil_haunts_the_first_active_tile_in_front(game, base):
    """GS-ABIL-HAUNT: "A szellem előtt lévő első aktív falulap Kísértetjárta lesz" / EL "το 1ο ενεργό
    πλακίδιο": the nearest tile is already haunted, so the next one in the line is flipped."""
    base.set("haunted", "ss", True)
    s = game.state_at("place_ghost", {"g": "c54_shapeless_evil", "by": "yellow"}, base, stop=True)
    act(s, "Shapeless Evil to yellow board slot 2")
    assert s.get("haunted", "cc") is True and s.get("haunted", "nn") is False


def test_dark_wraith_figure_starts_on_the_first_stone_and_haunts_next_yin(game, base):
    """GS-ABIL-FASTHAUNTER: "a figuráját egyből a táblára, a kártya előtti első helyre tegyük" / EL "Ο
    υπόλοιπος κύκλος στοιχειώματος είναι κανονικός": it haunts in its board's next Yin phase."""
    s = game.state_at("place_ghost", {"g": "c52_dark_wraith", "by": "yellow"}, base, stop=True)
    act(s, "Dark Wraith to yellow board slot 2")
    assert s.get("figure", "c52_dark_wraith") == "stone1"
    t = game.state_at("yin_phase", {"m": "yellow"}, s, stop=True)
    assert t.get("haunted", "ss") is True and t.get("figure", "c52_dark_wraith") == "on_card"


def test_soul_eater_takes_one_tao_token_from_each_monk_who_has_one(game, base):
    """GS-ABIL-TEAM + GS-ABIL-LOSETAO: "A teljes csapat" / "Az aktív játékos, ha van neki, elveszít egy
    Tao-jelzőt": every monk with a token discards one (he picks which); a monk without one is
    unaffected."""
    give(base, "yellow", "red", 2)
    give(base, "yellow", "blue", 1)
    for m in ("red", "green", "blue"):
        for c in COLOURS:
            give(base, m, c, -base.get("tao", m, c))
    give(base, "green", "green", 1)
    s = game.state_at("place_ghost", {"g": "c55_soul_eater", "by": "yellow"}, base, stop=True)
    act(s, "Soul Eater to yellow board slot 2")
    assert s.current_player_name() == "yellow"
    assert labels(s) == ["yellow monk discards a red Tao token", "yellow monk discards a blue Tao token"]
    act(s, "discards a blue")
    act(s, "green monk discards a green Tao token")  # red has none: not asked
    assert s.outcome().result == "step over"
    assert (s.get("tao", "yellow", "red"), s.get("tao", "yellow", "blue")) == (2, 0)
    assert tokens(s, "green") == 0 and tokens(s, "red") == 0


# ---------------------------------------------------------------------------------------------
# Middle stone (continuous and each Yin phase)
# ---------------------------------------------------------------------------------------------

def test_walking_corpse_ignores_the_dice_but_not_the_tokens(game, base):
    """GS-ABIL-DICEIMMUNE: "A Tao-kocka nincs hatással erre a szellemre. Az Imádság Köre, a Tao-jelzők
    ... azonban kifejtik rá hatásukat" / EL "Τα ζάρια Tao δεν έχουν κανένα αποτέλεσμα"."""
    place(base, "c02_walking_corpse", "yellow_2")
    base.set("monk_at", "yellow", "ss")
    s = exorcism_rolling(game, base, "yellow", "yellow", "yellow", "white", stop=True)
    assert labels(s) == ["the exorcism fails"]
    give(base, "yellow", "yellow", 1)
    s = exorcism_rolling(game, base, "yellow", "red", "red", "red", stop=True)
    act(s, "Walking Corpse is exorcised")
    assert s.get("at", "c02_walking_corpse") == "discard" and tokens(s, "yellow") == 0


def test_black_widow_blocks_tao_tokens_until_exorcised_but_not_the_circle(game, base):
    """GS-ABIL-NOTAO: "Amíg ezt a szellemet el nem űzik, a játékosok nem használhatják a Tao-jelzőiket (az
    Imádság Köre továbbra is használható)"; GS-CURSE-3: its curse comes before its reward ("Az átkok
    mindig előbb fogannak meg")."""
    place(base, "c50_black_widow", "red_2")
    place(base, "c10_yellow_plague", "yellow_2")  # yellow 4
    give(base, "yellow", "yellow", 2)
    base.set("circle_tao", "yellow", 1)
    base.set("tao_supply", "yellow", base.get("tao_supply", "yellow") - 1)
    base.set("monk_at", "yellow", "ss")
    assert base.eval("usable_tokens(yellow, yellow)") == 0
    # yellow, yellow, white: 3 with the Circle's -1: enough without tokens
    s = exorcism_rolling(game, base, "yellow", "yellow", "yellow", "white", stop=True)
    act(s, "Yellow Plague is exorcised")
    act(s, "takes a red Tao token")
    act(s, "takes a red Tao token")  # reward: 2 Tao tokens
    assert s.get("at", "c10_yellow_plague") == "discard" and s.get("tao", "yellow", "yellow") == 2
    # exorcising the Black Widow: curse die first, then the reward; tokens usable again afterwards
    base.set("monk_at", "yellow", "ww")
    base.set("at", "c10_yellow_plague", "discard")
    s = exorcism_rolling(game, base, "yellow", "black", "black", "red", tracing=True, stop=True)
    act(s, "Black Widow is exorcised")
    assert s.prompt() == "roll the curse_die"
    roll(s, "no effect")
    act(s, "takes 1 Qi")
    assert s.get("qi", "yellow") == 5 and s.eval("usable_tokens(yellow, yellow)") == 2


def test_tormentor_curse_haunts_past_an_already_haunted_tile(game, base):
    """GS-CURSEDIE-B: "(b): a szellem előtt található első aktív falu lap kísértetjártává válik" / EL "το
    1 ο ενεργό πλακίδιο μπροστά από το φάντασμα στοιχειώνεται": the first ACTIVE tile, past a haunted
    one."""
    place(base, "c11_lich", "yellow_2")
    base.set("haunted", "ss", True)
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True, stop=True)
    roll(s, "haunt a tile")
    assert s.get("haunted", "cc") is True and s.get("haunted", "nn") is False


def test_curse_losing_all_tao_tokens_from_a_monk_without_any(game, base):
    """GS-CURSEDIE-D: "a játékosnak el kell dobnia az összes Tao-jelzőjét": with none, nothing happens."""
    place(base, "c11_lich", "yellow_2")
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True, stop=True)
    roll(s, "lose all Tao tokens")
    assert tokens(s, "yellow") == 0 and s.get("qi", "yellow") == 4
    assert s.prompt() == "draw a card"  # step 3 goes on as usual


def test_tormentor_on_a_dead_monks_board(game, base):
    """GS-YIN-5 with GS-DEATH-3 / GS-HBOARD-3: a tormentor on a dead monk's board still rolls in that
    board's turn (HU "a táblán lévő szellemek továbbra is cselekednek"), and "lose 1 Qi" goes to a living
    monk of the group's choice because the board has no Qi (HU "a többi játékosnak kell átvállalnia,
    eldönthetik, melyiküknek")."""
    place(base, "c11_lich", "yellow_2")
    base.set("alive", "yellow", False)
    set_qi(base, "yellow", 0)
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True, stop=True)
    roll(s, "lose 1 Qi")
    assert labels(s)[0].endswith("takes the loss for yellow monk's board")
    act(s, "red monk takes the loss")
    assert s.get("qi", "red") == 3 and s.get("qi", "yellow") == 0


# ---------------------------------------------------------------------------------------------
# Right stone (curses and rewards)
# ---------------------------------------------------------------------------------------------

def test_zombie_curse_can_haunt_in_front_of_the_exorcised_ghost(game, base):
    """GS-CURSE-1 + GS-CURSEDIE-B: the exorcised ghost's curse haunts the first active tile in front of
    it, as in the HU example "(c) egy falu lap kísértése, amikor a szellem elűzésre került"; it is still on
    its slot while its right stone resolves (GS-EXO-6), and discarded afterwards."""
    place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", "yellow", "ss")
    s = exorcism_rolling(game, base, "yellow", "yellow", "yellow", "red", tracing=True, stop=True)
    act(s, "Zombie is exorcised")
    roll(s, "haunt a tile")
    assert s.get("haunted", "ss") is True and s.get("at", "c06_zombie") == "discard"


def test_curse_kills_the_exorcist_before_the_reward(game, base):
    """GS-CURSE-3: "Οι κατάρες εφαρμόζονται πάντα πριν τις ανταμοιβές"; a monk killed by the curse gets
    no reward (a dead monk holds nothing, GS-DEATH-1)."""
    place(base, "c50_black_widow", "yellow_2")
    set_qi(base, "yellow", 1)
    base.set("monk_at", "yellow", "ss")
    s = exorcism_rolling(game, base, "yellow", "black", "black", "red", tracing=True, stop=True)
    act(s, "Black Widow is exorcised")
    roll(s, "lose 1 Qi")
    assert s.outcome().result == "step over"  # no "1 Qi or the Yin-Yang" choice for a dead monk
    assert s.get("alive", "yellow") is False and s.get("qi", "yellow") == 0


def test_reward_two_tao_tokens_from_a_short_supply(game, base):
    """GS-ABIL-REWARD-TAO2: "2 μάρκες Tao της επιλογής του (αν είναι διαθέσιμες)" / HU "A játékos kap két
    szabadon választott Tao-jelzőt": with one token left in the supply he gets that one only."""
    place(base, "c10_yellow_plague", "yellow_2")
    base.set("monk_at", "yellow", "ss")
    for c in COLOURS:
        base.set("tao_supply", c, 0)
    base.set("tao_supply", "blue", 1)
    s = exorcism_rolling(game, base, "yellow", "yellow", "white", "white", tracing=True, stop=True)
    assert labels(s) == ["the exorcism fails"]  # yellow 4 needs 4 results
    base.set("circle_tao", "yellow", 1)
    s = exorcism_rolling(game, base, "yellow", "yellow", "white", "white", tracing=True, stop=True)
    act(s, "Yellow Plague is exorcised")
    assert labels(s) == ["yellow monk takes a blue Tao token"]
    act(s, "takes a blue Tao token")
    assert labels(s) == ["no Tao token left in the supply"]
    act(s, "no Tao token left")
    assert s.outcome().result == "step over" and tokens(s, "yellow") == 1


def test_sorcerer_removal_rolls_no_curse(game, base):
    """GS-CURSE-4: "ha a szellemet a falubeli Varázsló vagy Buddha pusztította el, nem kell dobni" / EL
    "δεν χρειάζεται να ρίξετε το ζάρι"."""
    place(base, "c06_zombie", "yellow_2")
    base.set("monk_at", "yellow", "ww")
    s = game.state_at("take_actions", {"m": "yellow"}, base, tracing=True, stop=True)
    act(s, "Sorcerer")
    act(s, "Zombie")
    assert s.get("at", "c06_zombie") == "discard"
    assert not s.is_chance_node() or s.prompt() != "roll the curse_die"


# ---------------------------------------------------------------------------------------------
# Leaving play, and the corner cases of curses
# ---------------------------------------------------------------------------------------------

def test_sorcerer_banishing_coffin_breaker_and_severed_heads_ends_their_effects(game, base):
    """GS-GHOST-4: "Amint egy szellem a dobott pakliba kerül, a tulajdonságai érvényüket vesztik" / EL
    "οι ιδιότητές του δεν υφίστανται πλέον": a ghost banished by the Sorcerer gives its board's power
    back (GS-ABIL-NOPOWER) and its captured die (GS-ABIL-CAPTUREDIE), with no curse or reward
    (GS-CURSE-4)."""
    place(base, "c03_coffin_breaker", "yellow_2")
    place(base, "c47_severed_heads", "red_1")
    assert not base.eval("has_power(yellow, pockets)") and base.eval("exorcism_dice(yellow)") == 2
    base.set("monk_at", "yellow", "ww")
    s = game.state_at("help_sorcerer", {"m": "yellow"}, base, tracing=True, stop=True)
    act(s, "Coffin Breaker is banished")
    assert s.eval("has_power(yellow, pockets)") and s.get("qi", "yellow") == 3
    s = game.state_at("help_sorcerer", {"m": "yellow"}, base, tracing=True, stop=True)
    act(s, "Severed Heads is banished")
    assert s.eval("exorcism_dice(yellow)") == 3 and tokens(s, "yellow") == 0
    assert s.outcome().result == "step over"


def test_a_ghost_destroyed_by_a_buddha_on_arrival_applies_no_left_stone(game, base):
    """GS-BUDDHA-3 with GS-PLACE-3: EL p7 "Αυτό το φάντασμα δεν έχει το χρόνο να εφαρμόσει καμία από τις
    δυνητικές του ιδιότητες, ούτε εκείνες στην αριστερή πέτρα": Severed Heads landing on a Buddha
    captures no die and brings no ghost."""
    base.set("buddha_temple", base.get("buddha_temple") - 1)
    base.set("buddha_on", "yellow_2", 1)
    deck = base.eval("deck_size")
    s = game.state_at("place_ghost", {"g": "c47_severed_heads", "by": "yellow"}, base, tracing=True, stop=True)
    act(s, "Severed Heads to yellow board slot 2")
    assert s.outcome().result == "step over"
    assert s.get("at", "c47_severed_heads") == "discard" and s.eval("captured_dice") == 0
    assert s.eval("deck_size") == deck and s.get("buddha_on", "yellow_2") == 0


def test_tormentor_bringing_a_ghost_when_every_slot_is_full_costs_a_qi(game, base):
    """GS-CURSEDIE-C with GS-PLACE-4: "(c): a játékosnak új szellemet kell kijátszania a lerakási szabályok
    szem előtt tartásával"; with all 12 slots taken "az aktív játékos veszít 1 Qi-t" (and no card is
    drawn); the full board then costs another Qi in step 2 (GS-YIN-6)."""
    place(base, "c11_lich", "yellow_2")
    fill_slots(base)
    deck = base.eval("deck_size")
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True, stop=True)
    roll(s, "bring a ghost")
    assert s.outcome().result == "step over"
    assert s.eval("deck_size") == deck and s.get("qi", "yellow") == 2


def test_curse_on_a_living_monk_with_no_qi_kills_him(game, base):
    """GS-CURSEDIE-E + GS-DEATH-1: a monk revived at the Cemetery from an empty Qi supply has no Qi; "(e): a
    Szerzetes elveszít 1 Qi-pontot" / EL "(e): ο μοναχός χάνει 1 μάρκα Qi" then kills him (there is
    nothing to take, and he cannot go below 0)."""
    place(base, "c11_lich", "yellow_2")
    set_qi(base, "yellow", 0)
    s = game.state_at("yin_phase", {"m": "yellow"}, base, tracing=True, stop=True)
    roll(s, "lose 1 Qi")
    assert s.get("qi", "yellow") == 0 and s.get("alive", "yellow") is False


def test_a_new_ghost_from_the_last_card_of_the_deck(game, base):
    """GS-ABIL-NEWGHOST with GS-END-4: Perfidious Nymph, the deck's last card, brings a ghost that is not
    there; the game is lost in both editions (HU "Elfogy a szellempakli, és Wu Feng megtestesülése még mindig
    játékban van", EL "Η τελευταία κάρτα φαντάσματος της τράπουλας εισέρχεται στο παιχνίδι"), and the
    position is consistent."""
    for g in base.game.layout.domains["card"].symbols:
        if base.get("at", g) == "deck" and g != "c15_perfidious_nymph" and not base.eval(f"is_incarnation({g})"):
            base.set("at", g, "discard")
    for seg in base.game.layout.domains["segment"].symbols:
        base.set("seg_ghosts", seg, 0)
        base.set("seg_incarnation", seg, False)
    place(base, "c56_howling_nightmare", "green_2")  # the incarnation is in play
    assert base.eval("deck_size") == 0  # the Nymph has just been drawn
    s = game.state_at("place_ghost", {"g": "c15_perfidious_nymph", "by": "yellow"}, base, tracing=True)
    act(s, "Perfidious Nymph to blue board slot 1")
    assert s.is_terminal() and s.outcome().result == "loss" and s.outcome().rule_id == "GS-END-4"
    assert s.check_invariants() == []


# ---------------------------------------------------------------------------------------------
# Every ghost, row by row: what the engine does on arrival and on exorcism is what its card shows
# ---------------------------------------------------------------------------------------------

GHOSTS = [f"{i:02d}" for i in range(1, 56)]
POWER_OF = {"yellow": "pockets", "red": "peaks", "green": "mountain", "blue": "gust"}


def _symbol(game, number):
    return next(g for g in game.layout.domains["card"].symbols if g.startswith(f"c{number}_"))


def _has(state, stone, g, ability):
    return bool(state.eval(f"{stone}[{g}, {ability}]"))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("number", GHOSTS)
def test_each_ghost_arrives_as_its_card_shows(number, edition):
    """GS-GHOST-2/3 and GS-ABIL-*: the left stone applies when the ghost enters play, and its middle-stone
    state (haunter figure, tormentor, immunity) is in place, for each of the 55 ghosts (EL, the yellow
    player active), in both editions."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("active", "yellow")
    base.set("seg_incarnation", "seg1", False)
    for m in ("yellow", "red", "green", "blue"):
        for c in COLOURS:
            give(base, m, c, -base.get("tao", m, c))
        give(base, m, "red", 1)
    g = _symbol(game, number)
    s = game.state_at("place_ghost", {"g": g, "by": "yellow"}, base, tracing=True, stop=True)
    act(s, labels(s)[0])
    x = s.eval(f"slot_of({g})")
    holder = s.eval(f"holder({g})")
    assert holder == ("yellow" if s.eval(f"card_colour[{g}]") == "black" else s.eval(f"card_colour[{g}]"))
    # left stone
    if _has(s, "left_stone", g, "group_lose_tao"):
        for m in ("yellow", "red", "green", "blue"):
            act(s, f"{m} monk discards a red Tao token")
    assert all(s.get("tao", m, "red") == (0 if _has(s, "left_stone", g, "group_lose_tao") else 1)
               for m in ("yellow", "red", "green", "blue"))
    assert (s.get("qi", holder) == 3) == _has(s, "left_stone", g, "lose_qi")
    assert (s.eval("haunted_tiles") == 1) == _has(s, "left_stone", g, "haunt_tile")
    assert (s.eval("captured_dice") == 1) == _has(s, "left_stone", g, "capture_tao_die")
    assert (not s.eval(f"has_power({holder}, {POWER_OF[holder]})")) == _has(s, "left_stone", g, "disable_board_power")
    assert bool(s.eval("tao_tokens_blocked")) == _has(s, "left_stone", g, "block_tao_tokens")
    if _has(s, "left_stone", g, "bring_ghost"):
        assert s.prompt() == "draw a card"
    else:
        assert s.outcome().result == "step over"
    # middle stone
    want = ("stone1" if _has(s, "left_stone", g, "haunter_fast")
            else "on_card" if _has(s, "middle_stone", g, "haunter") else "none")
    assert s.get("figure", g) == want
    assert bool(s.eval(f"is_tormentor({g})")) == _has(s, "middle_stone", g, "tormentor")
    assert bool(s.eval(f"immune_to_dice({g})")) == _has(s, "middle_stone", g, "dice_immune")
    assert s.get("at", g) == x


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("number", GHOSTS)
def test_each_ghost_curses_and_rewards_as_its_card_shows(number, edition):
    """GS-CURSE-1/2/3 and GS-ABIL-REWARD-*: on exorcism the right stone applies, the curse die first, then
    the reward ("Az átkok mindig előbb fogannak meg, minthogy a játékos elnyerné a jutalmat"), and the
    card is discarded (GS-EXO-6), for each of the 55 ghosts."""
    game = gs_game(edition=edition)
    base = set_up(game)
    base.set("active", "yellow")
    base.set("seg_incarnation", "seg1", False)
    g = _symbol(game, number)
    colour = base.eval(f"card_colour[{g}]")
    place(base, g, "yellow_2")
    base.set("monk_at", "yellow", "ss")
    for c in COLOURS:
        give(base, "yellow", c, -base.get("tao", "yellow", c))
    gather(base, "yellow", colour, 4)  # the supply holds 3 of a monk's colour: the rest from the other monks
    base.set("yinyang", "yellow", 0)  # spent: the Yin-Yang can come back
    base.set("yinyang_supply", "yellow", 1)
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True, stop=True)
    roll(s, *[colour] * (s.eval("exorcism_dice(yellow)")))
    act(s, "is exorcised")
    spend_all(s)
    right = {a for a in game.layout.domains["ability"].symbols if _has(s, "right_stone", g, a)}
    if "curse_die" in right:
        assert s.prompt() == "roll the curse_die"
        roll(s, "no effect")
    if "reward_qi_or_yinyang" in right:
        assert labels(s) == ["yellow monk takes 1 Qi", "yellow monk takes back the Yin-Yang"]
        act(s, "takes back the Yin-Yang")
    tao_reward = 2 if "reward_tao_2" in right else 1 if "reward_tao_1" in right else 0
    other = "yellow" if colour != "yellow" else "red"
    for _ in range(tao_reward):
        act(s, f"takes a {other} Tao token")
    assert s.outcome().result == "step over"
    assert s.get("at", g) == "discard"
    assert s.get("yinyang", "yellow") == (1 if "reward_qi_or_yinyang" in right else 0)
    assert s.get("tao", "yellow", other) == tao_reward
    assert s.get("qi", "yellow") == 4


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_rulebook_examples_match_the_card_data(edition):
    """GS-GHOST-5: the only card data in the texts are the examples: HU "Vérző Szemek (piros, ellenállás:
    2) és Álnok Nimfa (kék, ellenállás: 1)", "Zombi (sárga, elleállás: 2) és egy Koporsófeltörő (sárga,
    ellenállás: 1)", "Ugráló Vámpír (sárga, ellenállás: 3)", "Sötét Lidércet (fekete, ellenállás: 3)"
    (reward 1 Qi or the Yin-Yang), the Zombie's curse die on exorcism, the Coffin Breaker that disables
    its board's power, and Severed Heads (black) whose 1st stone captures a die (EL p5 "όπως
    υποδεικνύεται από την 1 η πέτρα")."""
    s = gs_game(edition=edition).new_initial_state()
    facts = {"c38_bleeding_eyes": ("red", 2), "c14_perfidious_nymph": ("blue", 1), "c06_zombie": ("yellow", 2),
             "c03_coffin_breaker": ("yellow", 1), "c08_hopping_vampire": ("yellow", 3),
             "c52_dark_wraith": ("black", 3), "c47_severed_heads": ("black", 1)}
    for g, (colour, resistance) in facts.items():
        assert s.eval(f"card_colour[{g}]") == colour and s.eval(f"resist[{g}, {colour}]") == resistance
    assert s.eval("right_stone[c06_zombie, curse_die]")
    assert s.eval("left_stone[c03_coffin_breaker, disable_board_power]")
    assert s.eval("right_stone[c52_dark_wraith, reward_qi_or_yinyang]")
    assert s.eval("left_stone[c47_severed_heads, capture_tao_die]")


def test_the_coffin_breaker_and_zombie_corner_example(game, base):
    """The rulebook example (GS-EXO-8, GS-ABIL-NOPOWER, GS-CURSE-1): from a corner the monk wants only the
    Coffin Breaker, "γιατί εκμηδενίζει την δύναμη του ταμπλό στο οποίο βρίσκεται"; he rolls 2 yellow
    and 1 white, so he exorcises both and rolls the curse die for the Zombie (HU "ha a kockadobás
    elegendő egy szellem legyőzéséhez, akkor azt mindenképpen el kell űznie"). The board's power is
    back afterwards."""
    place(base, "c03_coffin_breaker", "yellow_1")
    place(base, "c06_zombie", "red_1")
    base.set("monk_at", "yellow", "sw")
    assert not base.eval("has_power(yellow, pockets)")
    s = exorcism_rolling(game, base, "yellow", "yellow", "yellow", "white", tracing=True, stop=True)
    assert labels(s) == ["Coffin Breaker and Zombie are exorcised"]
    act(s, "Coffin Breaker and Zombie are exorcised")
    act(s, "Zombie first")
    assert s.prompt() == "roll the curse_die"
    roll(s, "no effect")
    assert s.outcome().result == "step over"
    assert s.get("at", "c03_coffin_breaker") == "discard" and s.get("at", "c06_zombie") == "discard"
    assert s.eval("has_power(yellow, pockets)")


def test_gravewalker_on_a_dead_monks_board_passes_the_qi_loss_to_a_living_monk(game, base):
    """GS-ABIL-LOSEQI ("the player or the neutral board loses 1 Qi") with GS-HBOARD-3: a dead monk's board
    has no Qi, so its loss is taken by a player of the group's choice (HU "a többi játékosnak kell
    átvállalnia, eldönthetik, melyiküknek", EL p10 "πρέπει να εφαρμοστεί σε ένα παίκτη της επιλογής
    σας"). The black Gravewalker goes there because the active player's board is full (GS-PLACE-2)."""
    base.set("alive", "red", False)
    set_qi(base, "red", 0)
    fill_slots(base, keep_empty=("red_2",))
    s = game.state_at("place_ghost", {"g": "c49_gravewalker", "by": "yellow"}, base, stop=True)
    assert labels(s) == ["Gravewalker to red board slot 2"]
    act(s, "Gravewalker to red board slot 2")
    assert [x.split(" takes")[0] for x in labels(s)] == ["yellow monk", "green monk", "blue monk"]
    act(s, "blue monk takes the loss")
    assert s.get("qi", "blue") == 3 and s.get("qi", "yellow") == 4 and s.get("qi", "red") == 0
    assert s.outcome().result == "step over"
