"""Every configuration of Ghost Stories: players 1-4 x 4 levels x 2 editions (GS-SETUP-*, GS-LEVEL-*).

Random games run to the end with the invariants checked after every action; the deck built at setup
and the starting items are checked against the rulebooks' table for every player count and level.
"""

from __future__ import annotations

import itertools
import random

import pytest

import ghostrules
from ghostrules.engine.game import sample_chance

EDITIONS = ["el", "hu"]
LEVELS = ["initiation", "normal", "nightmare", "hell"]
PLAYERS = [1, 2, 3, 4]
CONFIGS = list(itertools.product(PLAYERS, LEVELS, EDITIONS))
GAMES_PER_CONFIG = 25


def game(players: int, level: str, edition: str, **extra: str) -> ghostrules.Game:
    return ghostrules.load_game("ghost-stories", players=players, level=level, edition=edition, **extra)


def after_setup(g: ghostrules.Game, seed: int = 0) -> ghostrules.State:
    """The position right after setup (before the first card is drawn), setup chance drawn with a seed."""
    rng = random.Random(seed)
    state = g.new_initial_state()
    while state.is_chance_node() and state.node_rule().startswith("GS-SETUP"):
        state.apply_action(sample_chance(state, rng))
    return state


@pytest.mark.parametrize("players,level,edition", CONFIGS, ids=[f"{p}p-{l}-{e}" for p, l, e in CONFIGS])
def test_random_games_keep_the_invariants(players: int, level: str, edition: str) -> None:
    g = game(players, level, edition)
    ends = set()
    for seed in range(GAMES_PER_CONFIG):
        rng = random.Random(seed)
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            assert state.check_invariants() == [], (seed, state.history()[-1])
            boards = [state.eval(f"count(g in card if in_play(g) and holder(g) == {m})")
                      for m in ("yellow", "red", "green", "blue")]
            assert max(boards) <= 3
        ends.add(state.outcome().rule_id)
        assert state.score().lines  # a score sheet for every finished game
    assert ends <= {"GS-END-1", "GS-END-2", "GS-END-3", "GS-END-4", "GS-YIN-4"}


def deck_layout(state: ghostrules.State) -> tuple[int, list[int]]:
    """Deck size and the positions of the incarnations counted from the bottom (1 = bottom card)."""
    segments = [(state.get("seg_ghosts", s), state.get("seg_incarnation", s))
                for s in state.game.layout.domains["segment"].symbols]
    cards: list[str] = []
    for ghosts, incarnation in segments:  # top to bottom
        cards += ["g"] * ghosts + (["I"] if incarnation else [])
    bottom_up = list(reversed(cards))
    return len(cards), [i + 1 for i, c in enumerate(bottom_up) if c == "I"]


def expected_deck(players: int, level: str) -> tuple[int, list[int]]:
    """GS-SETUP-7, GS-SETUP-FEW-4, GS-LEVEL-NIGHTMARE-1/2: 5 ghosts removed per missing player;
    one incarnation 10 cards from the bottom, or at Nightmare/Hell 4 (3 with 1-2 players) every 10."""
    ghosts = 55 - 5 * (4 - players)
    incarnations = 1 if level in ("initiation", "normal") else (4 if players >= 3 else 3)
    return ghosts + incarnations, [11 * k for k in range(1, incarnations + 1)]


def test_deck_table_for_every_player_count_and_level(capsys: pytest.CaptureFixture[str]) -> None:
    rows = []
    for players, level in itertools.product(PLAYERS, LEVELS):
        state = after_setup(game(players, level, "el"))
        got = deck_layout(state)
        assert got == expected_deck(players, level), (players, level)
        assert state.get("incarnations_left") == len(got[1])
        rows.append(f"{players}p {level:10} deck {got[0]:2}  incarnations at {got[1]} from the bottom")
    with capsys.disabled():
        print("\n" + "\n".join(rows))


def test_the_incarnation_is_the_46th_card_at_initiation_with_4_players() -> None:
    state = after_setup(game(4, "initiation", "el"))
    g = state.game
    for k in range(1, 47):
        s = g.state_at("draw_ghost", {}, state)
        incarnations = [a for a, _ in s.chance_outcomes() if s.eval("true")]
        labels = {a.label for a, _ in s.chance_outcomes()}
        is_incarnation = all(lbl.split(": ", 1)[1] in INCARNATIONS for lbl in labels)
        assert is_incarnation == (k == 46), k
        s.apply_action(incarnations[0])
        state = s
        state.set("at", state.get("drawn"), "discard")  # out of the way, as if exorcised
        state.set("figure", state.get("drawn"), "none")
    assert state.eval("deck_size") == 10


INCARNATIONS = {"Howling Nightmare", "Uncatchable", "Hope Killer", "Death Army", "Forgotten Ones", "Bonecracker",
                "Dark Mistress", "Creeping Horror", "Vampire Lord", "Nameless"}


@pytest.mark.parametrize("players,level,edition", CONFIGS, ids=[f"{p}p-{l}-{e}" for p, l, e in CONFIGS])
def test_starting_items(players: int, level: str, edition: str) -> None:
    """GS-SETUP-4, GS-SETUP-FEW-2/3, GS-SETUP-SOLO-2, GS-LEVEL-TABLE, ED-1, ED-2."""
    state = after_setup(game(players, level, edition), seed=players)
    monks = ["yellow", "red", "green", "blue"]
    played = [m for m in monks if state.get("playing", m)]
    assert len(played) == players
    qi = 4 if level == "initiation" else 3
    for m in monks:
        tao = {c: state.get("tao", m, c) for c in monks + ["black"]}
        if m not in played:
            assert state.get("qi", m) == 3 and sum(tao.values()) == 0 and state.get("yinyang", m) == 0
            continue
        assert state.get("qi", m) == qi
        assert state.get("yinyang", m) == (0 if level == "hell" else 1)
        if players == 1:
            black = 1 if edition == "el" and level == "initiation" else 0
            assert tao == {"yellow": 1, "red": 1, "green": 1, "blue": 1, "black": black}
            assert state.get("power_token", m) == 3
        else:
            own = 1 if edition == "el" else 0
            black = 1 if edition == "el" and level == "initiation" else 0
            assert tao == {c: (own if c == m else black if c == "black" else 0) for c in tao}
            assert state.get("power_token", m) == (1 if players in (2, 3) else 0)
    if players == 1:
        assert state.get("power", "red") == "peaks"  # GS-SETUP-SOLO-1
    if players == 2:
        a, b = played
        assert state.eval(f"opposite_side[side[{a}]] == side[{b}]")  # GS-SETUP-FEW-5
    assert state.check_invariants() == []


def test_easy_start_gives_five_qi() -> None:
    """GS-LEVEL-EASY: the optional easier start with 5 Qi."""
    state = after_setup(game(4, "initiation", "el", easy="yes"))
    assert all(state.get("qi", m) == 5 for m in ("yellow", "red", "green", "blue"))
    assert state.get("qi_supply") == 0


@pytest.mark.parametrize("level", ["normal", "nightmare", "hell"])
def test_the_easy_start_is_offered_at_initiation_only(level: str) -> None:
    """GS-LEVEL-EASY: "if Initiation is still too hard" (HU "kezdjük a játékot 5 Qi-vel", EL p8):
    the 5-Qi start is a variant of Initiation; other levels refuse it, and the proofs and tests that
    run every configuration do not count it there."""
    from ghostrules.spec.loader import configurations
    with pytest.raises(ghostrules.SpecError, match=r"easy='yes' is offered only with level in \['initiation'\] "
                       r"\(GS-LEVEL-EASY\), not level='" + level):
        game(4, level, "el", easy="yes")
    assert game(4, level, "el", easy="no").parameters["easy"] == "no"
    every = configurations("ghost-stories")
    assert len(every) == 4 * 2 * (4 + 1)
    assert {(c["level"], c["easy"]) for c in every if c["easy"] == "yes"} == {("initiation", "yes")}


def test_rules_diff_lists_32_differences() -> None:
    from ghostrules.spec.differences import compare
    diffs = compare("ghost-stories", "edition", "hu", "el")
    assert [d.id for d in diffs] == [f"ED-{n}" for n in range(1, 33)]
    assert all(d.rules for d in diffs)
    assert all(d.changes for d in diffs), "every difference is handled by an overlay entry"


def test_mantra_of_a_neutral_yellow_board_stays_until_the_board_is_possessed() -> None:
    """GS-POWER-YELLOW-MANTRA-3 with GS-HBOARD-1: a neutral board keeps its power (for power tokens)
    until it is possessed; only then does the Mantra leave the game."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from gs_helpers import set_up
    g = game(3, "initiation", "el")
    base = set_up(g, playing=["red", "green", "blue"], powers={"yellow": "mantra"})
    assert not base.get("playing", "yellow") and base.get("mantra_home") == 1
    s = g.state_at("check_mantra_holder", {}, base, stop=True)
    assert s.get("mantra_home") == 1 and s.get("mantra_out") == 0
    base.set("qi_supply", base.get("qi_supply") + base.get("qi", "yellow"))
    base.set("qi", "yellow", 0)
    s = g.state_at("check_mantra_holder", {}, base, stop=True)
    assert s.get("mantra_out") == 1
