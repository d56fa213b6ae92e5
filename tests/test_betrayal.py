"""Betrayal at House on the Hill on the same engine: the rule catalogue, seeded random games for 3-6
players with their invariants, the haunt interface, and the rulebook's worked examples as positions.

The property test plays GAMES_PER_COUNT (200) seeded random games per player count (3-6) and checks
every step: no exception, trait clips on their tracks (every printed value they can point at is 1-8),
no death before the haunt, exactly one traitor (a living or dead explorer at the table) once the haunt
has begun; every CARD_CHECK_EVERY steps and at the end, that each room tile, card and square token is
in exactly one place and the 18 wards are all there; and CHECKED_GAMES_PER_COUNT games run the
engine's full check_invariants() (pools and ranges) at every step. It reports the CPU time of each
player count (run with -s to see it).
"""

from __future__ import annotations

import operator
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bh_helpers import FOUR, act, haunt_round_turns, labels, monster_at, place, roll, set_up, start_haunt

import ghostrules
from ghostrules.engine import Game, State
from ghostrules.engine.game import sample_chance

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "betrayal"
DIGEST = ROOT.parent / "shared" / "rules" / "betrayal.md"
SOURCE = ROOT.parent / "shared" / "seeds" / "004_d45700e3d66fa338.txt"
GAMES_PER_COUNT = 200
CHECKED_GAMES_PER_COUNT = 2  # of which every step also runs check_invariants()
CARD_CHECK_EVERY = 25        # steps between checks of the conserved components (each tile, card, token)
TRAITS = ("speed", "might", "sanity", "knowledge")


@pytest.fixture(scope="module", params=[3, 4, 5, 6], ids=lambda p: f"{p}p")
def game(request: pytest.FixtureRequest) -> Game:
    return ghostrules.load_game("betrayal", players=request.param)


@pytest.fixture(scope="module")
def game4() -> Game:
    return ghostrules.load_game("betrayal", players=4)


# ---- the rule catalogue -------------------------------------------------------------------------


def digest_ids() -> list[str]:
    if not DIGEST.is_file():
        pytest.skip("the digest ../shared/rules/betrayal.md is not available")
    text = DIGEST.read_text(encoding="utf-8")
    ids = re.findall(r"^- \*\*(BH-[A-Z0-9-]+?)\*\*", text, re.M)
    ids += re.findall(r"^\| (BH-COMP-[0-9a-z]+) \|", text, re.M)
    return [i for i in dict.fromkeys(ids) if not i.startswith("BH-OPEN")]


def test_every_digest_id_is_a_rule(game4: Game) -> None:
    ids = digest_ids()
    assert len([i for i in ids if not i.startswith(("BH-COMP", "BH-SCN"))]) == 145
    have = {r.id for r in game4.spec.rules}
    assert [i for i in ids if i not in have] == []


def test_every_rule_has_text_and_a_formal_part_or_a_reason(game4: Game) -> None:
    for rule in game4.spec.rules:
        assert rule.text, rule.id
        if rule.kind == "text":
            assert rule.implemented_by or rule.reason, rule.id
        ids = {r.id for r in game4.spec.rules}
        assert [x for x in rule.implemented_by if x not in ids] == [], rule.id


def test_bh_rules_quote_the_hungarian_words_exactly(game4: Game) -> None:
    if not SOURCE.is_file():
        pytest.skip("the Hungarian source text is not available")
    source = SOURCE.read_text(encoding="utf-8")
    quoted = 0
    for rule in game4.spec.rules:
        if rule.id.startswith("BH-") and not rule.id.startswith("BH-SCN"):
            assert rule.sources, rule.id
        for src in rule.sources:
            assert src.edition == "hu" and src.words in source, (rule.id, src.words)
            quoted += 1
    assert quoted >= 210
    # every quote on a rule's own line of the digest is among that rule's sources
    by_id = {r.id: {src.words for src in r.sources} for r in game4.spec.rules}
    for line in DIGEST.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^(?:- \*\*|\| )(BH-[A-Za-z0-9-]+?)(?:\*\*| \|)", line)
        if m and not m.group(1).startswith("BH-OPEN"):
            for words in re.findall(r"\[HU: (.*?)\]", line):
                assert words in by_id[m.group(1)], (m.group(1), words)


def test_rule_counts_by_kind(game4: Game) -> None:
    bh = [r for r in game4.spec.rules if r.id.startswith("BH-") and not r.id.startswith("BH-SCN")]
    formal = [r for r in bh if r.kind != "text"]
    carried = [r for r in bh if r.kind == "text" and r.implemented_by and not r.reason]
    ruled_out = [r for r in bh if r.kind == "text" and r.reason]
    assert len(bh) == 163 and len(formal) + len(carried) + len(ruled_out) == 163
    assert len(formal) >= 60


def test_component_counts(game4: Game) -> None:
    s = game4.new_initial_state()
    counts = {"room_tile_count": 44, "entrance_tile_rooms": 3, "figure_count": 6, "character_card_count": 6,
              "die_count": 8, "omen_card_count": 13, "item_card_count": 22, "event_card_count": 45,
              "square_token_count": 14, "trait_roll_token_count": 18}
    assert {name: s.eval(name) for name in counts} == counts
    assert sorted(s.game.spec.dice[0].faces) == ["one", "one", "two", "two", "zero", "zero"]


def test_haunt_modules_replace_disjoint_rules() -> None:
    import yaml
    replaced: dict[str, str] = {}
    files = sorted((SPEC / "haunts").glob("*.yaml"))
    assert len(files) == 2
    for path in files:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for entry in doc.get("replace") or []:
            rid = entry["rule"]["id"]
            assert rid not in replaced, f"{rid} is replaced by {replaced.get(rid)} and {path.name}"
            replaced[rid] = path.name
            # the replacement keeps the base behaviour unless its own haunt is on
            assert f"haunt == {doc['overlay']}" in yaml.safe_dump(entry["rule"]), rid
        for entry in doc.get("add") or []:
            rule = entry["rule"]
            if "on" in rule:
                assert f"haunt == {doc['overlay']}" in rule["when"], rule["id"]


def test_haunt_table_covers_every_omen_and_omen_room(game4: Game) -> None:
    s = game4.new_initial_state()
    domains = game4.layout.domains
    omens = [c for c in domains["card"].symbols if s.eval(f"card_deck[card.{c}] == omen")]
    rooms = [r for r in domains["room"].symbols if s.eval(f"room_symbol[room.{r}] == omen")]
    assert len(omens) == 13 and len(rooms) == 13
    table = next(t for t in game4.spec.tables if t.name == "haunt_of")
    assert table.where is not None
    haunts = {s.eval(f"haunt_of[card.{o}, room.{r}]") for o in omens for r in rooms}
    assert haunts == {"hollow_hounds", "sealed_door"}


# ---- random games -------------------------------------------------------------------------------


class Checker:
    """Per-step facts of a Betrayal position (read straight from the value list for speed)."""

    def __init__(self, game: Game) -> None:
        lay = game.layout
        self.players = int(game.parameters["players"])
        self.seats = lay.domains["seat"].symbols[:self.players]
        self.tpos = {(s, t): lay.index("tpos", s, t) for s in self.seats for t in TRAITS}
        self.alive = {s: lay.index("alive", s) for s in self.seats}
        self.char = {s: lay.index("char", s) for s in self.seats}
        self.haunt_on = lay.index("haunt_on")
        self.traitor = lay.index("traitor")
        self.tracks = {t: next(x for x in game.spec.tables if x.name == f"{t}_track") for t in TRAITS}
        self.levels = len(lay.domains["lvl"].symbols)
        self.clips = [self.tpos[s, t] for s in self.seats for t in TRAITS]
        self.alive_at = [self.alive[s] for s in self.seats]
        # every printed value a clip can point at (l1 .. l8) is a number of dice, 1 to 8 (BH-OPEN-5, -6)
        for t in TRAITS:
            values = self.tracks[t].values
            for x in range(len(lay.domains["explorer"].symbols)):
                for pos in range(1, self.levels):
                    assert 1 <= values[x * self.levels + pos] <= 8, (t, x, pos)
        self.haunt_seen = False
        # the conserved components: each pool's total per item (tile, card, token) or in all (wards)
        self.per_item = {}
        for pool in game.spec.pools:
            width = len(lay.domains[pool.per].symbols) if pool.per else 1
            ranges = [(lay.slots[c].offset, lay.slots[c].offset + lay.slots[c].count) for c in pool.cells]
            self.per_item[pool.name] = (pool.total, width, ranges)
        self.steps = 0

    def __call__(self, state: State) -> None:
        v = state.values
        haunt = bool(v[self.haunt_on])
        assert haunt or not self.haunt_seen, "the haunt cannot end"
        self.haunt_seen = haunt
        clips = [v[i] for i in self.clips]
        assert max(clips) < self.levels, f"a clip off its track: {clips}"
        if min(clips) <= 0:  # no clip yet (during setup), or a clip at the skull: a dead explorer's, in the haunt
            for s in self.seats:
                if v[self.char[s]] < 0:
                    continue
                pos = [v[self.tpos[s, t]] for t in TRAITS]
                assert min(pos) >= 0, f"{s} has a clip off its track: {pos}"
                if 0 in pos:
                    assert haunt and not v[self.alive[s]], f"{s} at the skull while alive or before the haunt"
        if haunt:
            traitor = v[self.traitor]
            assert 0 <= traitor < self.players, "exactly one traitor, at the table, once the haunt begins"
        else:
            assert all(v[a] for a in self.alive_at), "an explorer died before the haunt"
        self.steps += 1
        if self.steps % CARD_CHECK_EVERY == 0:
            self.each_item(state)

    def each_item(self, state: State) -> None:
        """Each tile, card and token is in exactly one place (the pools' cells of that item), and the 18
        wards are all somewhere."""
        v = state.values
        for name, (total, width, ranges) in self.per_item.items():
            counts = [0] * width
            for a, b in ranges:
                for row in range(a, b, width):  # a cell indexed by (..., item): one row per outer key
                    counts = list(map(operator.add, counts, v[row:row + width]))
            assert counts == [total] * width, f"{name}: an item is in {counts} places"


def play_checked(game: Game, seed: int, invariants: bool) -> State:
    rng = random.Random(seed)
    check = Checker(game)
    state = game.new_initial_state()
    for _ in range(20_000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            if invariants or check.steps % CARD_CHECK_EVERY == 0:
                assert sum(p for _, p in state.chance_outcomes()) == 1
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        check(state)
        if invariants:
            assert state.check_invariants() == [], seed
    else:
        pytest.fail(f"seed {seed}: no end after 20000 actions")
    check.each_item(state)
    return state


def test_random_games(game: Game) -> None:
    outcomes = set()
    for seed in range(GAMES_PER_COUNT):
        state = play_checked(game, seed, invariants=seed < CHECKED_GAMES_PER_COUNT)
        outcome = state.outcome()
        assert outcome is not None and outcome.result in ("heroes", "traitor")
        assert outcome.rule_id == "BH-WIN-1"
        assert state.get("haunt_on") and state.get("haunt") in ("hollow_hounds", "sealed_door")
        assert state.check_invariants() == []
        outcomes.add(outcome.result)
    assert outcomes == {"heroes", "traitor"}


def test_seeded_play_is_reproducible(game4: Game) -> None:
    a = ghostrules.play(game4, seed=5)
    b = ghostrules.play(game4, seed=5)
    assert [x.to_json() for x in a.history()] == [x.to_json() for x in b.history()]
    again = game4.state_from_json(a.to_json())
    assert again == a


def test_cli_plays_seed_1_to_a_winner() -> None:
    out = subprocess.run([sys.executable, "-m", "ghostrules", "play", "betrayal", "--players", "4", "--seed", "1"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^Outcome: (heroes|traitor) \(BH-WIN-1\)", out.stdout, re.M)
    cited = set(re.findall(r"\[(BH-[A-Z0-9-]+)\]", out.stdout))
    assert {"BH-SETUP-2", "BH-MOVE-1", "BH-HAUNTROLL-1", "BH-REVEAL-1", "BH-TRAITOR-1", "BH-WIN-1"} <= cited


# ---- positions: the rulebook's worked examples --------------------------------------------------




def test_speed_3_move_entrance_hall_foyer_kitchen_dining_room(game4: Game) -> None:
    """p.5: with Speed 3 an explorer moves Entrance Hall -> Foyer -> Kitchen -> Dining Room (BH-MOVE-1)."""
    base = set_up(game4, FOUR)
    place(base, "kitchen", "ground", "x5y5", "r180")   # doors west (to the Foyer) and south
    place(base, "dining_room", "ground", "x5y6", "r0")  # door north (to the Kitchen)
    p = "p3"  # Madame Zostra: Speed 3 at the start
    assert base.eval("value(p3, speed)") == 3
    s = game4.state_at("explorer_turn", {"s": p}, base)
    act(s, "move north to Foyer")
    act(s, "move east to Kitchen")
    act(s, "move south to Dining Room")
    assert s.get("at", p) == "dining_room"
    assert not [x for x in labels(s) if x.startswith(("move ", "discover", "take the stairs"))]
    assert s.check_invariants() == []


def test_speed_3_cannot_go_a_fourth_room(game4: Game) -> None:
    base = set_up(game4, FOUR)
    place(base, "kitchen", "ground", "x5y5", "r180")
    s = game4.state_at("explorer_turn", {"s": "p3"}, base)
    act(s, "move north to Foyer")
    act(s, "move east to Kitchen")
    act(s, "move west to Foyer")
    assert "move west to Kitchen" not in labels(s) and "move south to Entrance Hall" not in labels(s)


def test_a_drawn_card_ends_movement(game4: Game) -> None:
    """BH-MOVE-2, BH-CARD-1: discovering a room with a card symbol ends movement."""
    base = set_up(game4, FOUR)
    s = game4.state_at("explorer_turn", {"s": "p1"}, base)
    act(s, "discover a new room through the east door of the Entrance Hall")
    while s.is_chance_node() and s.prompt() == "draw a room":
        # draw the Kitchen (ground floor, omen symbol)
        s.apply_action("draw: Kitchen")
    if not s.is_chance_node():
        act(s, "Kitchen")
    if s.is_chance_node():  # the omen
        s.apply_action("draw: Girl")
    assert s.get("at", "p1") == "kitchen" and s.get("held", "p1", "girl") == 1
    assert s.get("move_stop") is True
    assert not [x for x in labels(s) if x.startswith(("move ", "discover"))]


def test_sanity_4_roll_rolls_4_dice(game4: Game) -> None:
    """p.7: Sanity 4 means 4 dice, added up (BH-ROLL-TRAIT-1, BH-ROLL-2)."""
    base = set_up(game4, FOUR)
    assert base.eval("value(p1, sanity)") == 4  # Jenny LeClerc
    s = game4.state_at("trait_roll", {"s": "p1", "t": "sanity", "extra": 0, "why": "plain"}, base, tracing=True)
    roll(s, 2, 1, 0, 2)
    assert not (s.is_chance_node() and s.prompt() == "roll the die")
    assert s.get("roll_total") == 5
    assert [e.text for e in s.log() if e.rule == "BH-ROLL-TRAIT-1"] == ["Jenny LeClerc makes a sanity roll: 5"]


def test_six_against_five_deals_one_physical_damage(game4: Game) -> None:
    """p.8: you roll 6, your opponent 5: 1 physical damage (BH-ATTACK-3, BH-DAMAGE-1)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    s = game4.state_at("attack_explorer", {"a": "p1", "o": "p2", "ranged": False}, base)
    might_before = s.get("tpos", "p2", "might")
    roll(s, 2, 2, 2, 0)        # Jenny: Might 4, total 6
    roll(s, 2, 2, 1, 0, 0)     # Ox Bellows: Might 5, total 5
    assert sorted(labels(s)) == ["lower might (now 5)", "lower speed (now 4)"]
    act(s, "lower might")
    assert s.get("tpos", "p2", "might") == "l2" and might_before == "l3"


def test_a_tie_deals_no_damage(game4: Game) -> None:
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    s = game4.state_at("attack_explorer", {"a": "p1", "o": "p2", "ranged": False}, base, tracing=True)
    roll(s, 2, 1, 1, 0)
    roll(s, 2, 2, 0, 0, 0)
    assert any(e.text == "a tie: nobody is hurt" for e in s.log())
    assert s.get("tpos", "p1", "might") == "l3" and s.get("tpos", "p2", "might") == "l3"


def test_jenny_leclerc_against_the_werewolf(game4: Game) -> None:
    """p.9: Jenny (Might 4) rolls 5, the werewolf 8: 3 physical damage, taken as Might -2 and Speed -1;
    Jenny is hurt but alive (BH-ATTACK-3, BH-DAMAGE-1)."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    base.set("mon_in", "m1", True)
    base.set("mon_kind", "m1", "hound")  # the werewolf's stand-in: a monster of Might 6
    base.set("mon_at", "m1", "entrance_hall")
    base.set("mon_trait", "m1", "might", 6)
    base.set("mon_trait", "m1", "speed", 3)
    assert base.eval("value(p1, might)") == 4 and base.eval("value(p1, speed)") == 4
    s = game4.state_at("attack_monster", {"a": "p1", "m": "m1", "ranged": False}, base)
    roll(s, 2, 2, 1, 0)              # Jenny: 5
    roll(s, 2, 2, 2, 2, 0, 0)        # the werewolf: 8
    act(s, "lower might")
    act(s, "lower might")
    act(s, "lower speed")
    assert s.get("alive", "p1") is True
    assert (s.get("tpos", "p1", "might"), s.get("tpos", "p1", "speed")) == ("l1", "l3")
    assert (s.eval("value(p1, might)"), s.eval("value(p1, speed)")) == (3, 4)


@pytest.mark.parametrize("total", range(0, 13))
def test_haunt_roll_of_4_or_less_starts_the_haunt(game4: Game, total: int) -> None:
    """p.9: the others drew 4 omens, you draw one: the haunt begins on a roll of 4 or less (BH-HAUNTROLL-2)."""
    base = set_up(game4, FOUR)
    place(base, "catacombs", "basement", "x4y3")
    base.set("omens_drawn", 5)
    base.set("turn_omens", 1)
    base.set("omen_order", "girl", 1)
    base.set("omen_room", "girl", "catacombs")
    base.set("in_deck", "girl", 0)
    base.set("held", "p1", "girl", 1)
    s = game4.state_at("haunt_rolls", {"s": "p1"}, base)
    faces = [2] * (total // 2) + [1] * (total % 2)
    faces += [0] * (6 - len(faces))
    roll(s, *faces)
    assert s.get("haunt_on") is (total <= 4)
    if total <= 4:
        assert s.get("revealed_by") == "p1" and s.get("haunt_omen") == "girl"


def test_the_girl_in_the_catacombs_is_haunt_1(game4: Game) -> None:
    """p.10: the Girl drawn in the Catacombs reveals haunt 1 (BH-REVEAL-2)."""
    base = set_up(game4, FOUR)
    assert base.eval("revealed_haunt(girl, catacombs)") == "hollow_hounds"
    haunt = game4.layout.domains["haunt"]
    assert haunt.labels[haunt.index("hollow_hounds")].startswith("haunt 1,")
    place(base, "catacombs", "basement", "x4y3")
    base.set("omens_drawn", 5)
    base.set("turn_omens", 1)
    base.set("omen_order", "girl", 1)
    base.set("omen_room", "girl", "catacombs")
    s = game4.state_at("haunt_rolls", {"s": "p1"}, base, tracing=True)
    roll(s, 0, 0, 0, 0, 0, 0)
    assert s.get("haunt") == "hollow_hounds" and s.get("haunt_room") == "catacombs"
    assert s.eval("count(m in monster if mon_in[m] and mon_at[m] == catacombs)") == 3
    texts = [e.text for e in s.log()]
    assert any(t.startswith("--- the haunt begins: haunt 1, The Hollow Hounds") for t in texts)


def test_traitor_ties_go_to_the_revealer_then_to_the_left(game4: Game) -> None:
    """BH-TRAITOR-2..4: oldest explorer among equals; the revealer first, else nearest to the left."""
    base = set_up(game4, FOUR)  # ages: Jenny 21, Ox 23, Zostra 37, Peter 13
    base.set("revealed_by", "p1")
    assert base.eval("traitor_pick(oldest)") == "p3"
    assert base.eval("traitor_pick(traitor_rule.revealer)") == "p1"
    assert base.eval("traitor_pick(left_of_revealer)") == "p2"
    # equal Sanity 4 for Jenny and Zostra: the revealer (Jenny) if she is among them ...
    assert base.eval("value(p1, sanity)") == base.eval("value(p3, sanity)") == 4
    base.set("tpos", "p2", "sanity", "l8")
    base.set("tpos", "p4", "sanity", "l8")
    assert base.eval("traitor_pick(lowest_sanity)") in ("p1", "p3")
    assert base.eval("traitor_candidate(p1, lowest_sanity) and traitor_candidate(p3, lowest_sanity)")
    assert base.eval("traitor_pick(lowest_sanity)") == "p1"
    # ... else the nearest to the revealer's left (p4 revealed: p1 is 1 seat left of p4, p3 is 3)
    base.set("revealed_by", "p4")
    assert base.eval("traitor_pick(lowest_sanity)") == "p1"
    base.set("revealed_by", "p2")
    assert base.eval("traitor_pick(lowest_sanity)") == "p3"


def test_haunt_turn_order_heroes_from_the_traitors_left_then_traitor_then_monsters(game4: Game) -> None:
    """BH-HAUNT-TURN-1/2."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p3")
    monster_at(base, "upper_landing", speed=1, might=1)
    s, order = haunt_round_turns(game4, base, 5, pick=0)
    headers = [e.text.split(":")[0] for e in s.log() if e.text.startswith("---")]
    assert order == ["p4", "p1", "p2", "p3", "p4"]
    assert headers[:6] == ["--- hero turn", "--- hero turn", "--- hero turn", "--- traitor turn", "--- monster turn",
                       "--- hero turn"]


def test_no_death_before_the_haunt_but_death_after(game4: Game) -> None:
    """BH-DAMAGE-3, BH-DEATH-1/2."""
    base = set_up(game4, FOUR)
    base.set("tpos", "p1", "might", "l1")
    base.set("tpos", "p1", "speed", "l1")
    s = game4.state_at("damage", {"s": "p1", "h": "physical", "n": 3}, base)
    assert s.get("alive", "p1") is True and s.get("tpos", "p1", "might") == "l1"
    start_haunt(base, traitor="p2")
    s = game4.state_at("damage", {"s": "p1", "h": "physical", "n": 1}, base)
    act(s, "lower might")
    assert s.get("alive", "p1") is False and s.get("tpos", "p1", "might") == "skull"


def test_death_drops_items_and_leaves_companions(game4: Game) -> None:
    """BH-DEATH-4/5: items go to a pile in the room, a companion stays there to be taken along."""
    base = set_up(game4, FOUR)
    start_haunt(base, traitor="p2")
    for card in ("axe", "dog"):
        base.set("in_deck", card, 0)
        base.set("held", "p1", card, 1)
    s = game4.state_at("die", {"s": "p1"}, base)
    assert s.get("in_pile", "axe") == 1 and s.get("pile_room", "axe") == "entrance_hall"
    assert s.get("aside", "dog") == 1 and s.get("pile_room", "dog") == "entrance_hall"
    assert s.check_invariants() == []
    assert s.eval("item_pile(entrance_hall) and can_claim(p3, dog)")


def test_every_card_names_its_effect_rule(game4: Game) -> None:
    import csv
    rows = list(csv.DictReader((SPEC / "cards.csv").open(encoding="utf-8")))
    ids = {r.id for r in game4.spec.rules}
    assert len(rows) == 80
    assert [row["rule"] for row in rows if row["rule"] not in ids] == []


def test_prompts_show_their_holes_filled(game4: Game) -> None:
    """A decision's prompt with {expressions} is shown with them filled in (e.g. the explorer's name)."""
    rng = random.Random(3)
    state = game4.new_initial_state()
    prompts = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            prompts.add(state.prompt())
            state.apply_action(rng.choice(state.legal_actions()))
    assert prompts and not [p for p in prompts if "{" in p or "}" in p]
    names = set(game4.layout.domains["explorer"].labels or ())
    assert any(name in p for p in prompts for name in names)
