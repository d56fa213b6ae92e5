"""Exact odds: closed forms for "at least r of a colour on n Tao dice", and simulation checks.

A Tao die shows each ghost colour on one face and a white joker (GS-COMP-5, OQ-1): a given colour or
white comes up with p = 1/3, or p = 1/6 while Nameless makes white no joker (GS-INC-NAMELESS).
n dice: 3 (GS-EXO-2), 4 with the green Strength of the Mountain, 2 with a captured die
(GS-ABIL-CAPTUREDIE)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from ghostrules import query
from ghostrules.query.search import Sampler
from ghostrules.query.values import Values

HEAD = "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"


def at_least(r: int, n: int, p: Fraction) -> Fraction:
    return sum((math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(r, n + 1)), Fraction(0))


def dice_scenario(n: int, nameless: bool = False) -> str:
    """The active monk, next to Bleeding Eyes (red 2), starts an exorcism with n Tao dice."""
    monk, tile = ("green", "ww") if n == 4 else ("yellow", "ww")
    ghosts = ["red_2: Bleeding Eyes"]
    if n == 2:
        ghosts.append("blue_3: Repellent Beauty")   # captures a Tao die (left stone)
    if nameless:
        ghosts.append("green_2: Nameless")          # white is no joker while it is in play
    return (HEAD + f"monks:\n  {monk}: {{at: {tile}}}\nghosts:\n" + "".join(f"  {g}\n" for g in ghosts)
            + f"turn: {{active: {monk}, step: exorcise}}\n")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_at_least_r_of_a_colour_matches_the_closed_form(n: int) -> None:
    sc = query.load(dice_scenario(n))
    assert sc.state.eval(f"exorcism_dice({sc.state.get('active')})") == n
    for r in range(1, 5):
        answer = query.odds(sc, outcome=f"tray[red] + jokers >= {r}", horizon="roll_tao_dice")
        assert Fraction(answer.data["probability"]) == at_least(r, n, Fraction(1, 3)), (n, r)


def test_nameless_makes_white_no_joker() -> None:
    sc = query.load(dice_scenario(3, nameless=True))
    assert sc.state.eval("whites_wild") is False
    for r in range(1, 5):
        answer = query.odds(sc, outcome=f"tray[red] + jokers >= {r}", horizon="roll_tao_dice")
        assert Fraction(answer.data["probability"]) == at_least(r, 3, Fraction(1, 6))
    # and the exorcism itself: Bleeding Eyes (red 2) needs two red faces
    answer = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
    assert Fraction(answer.data["probability"]) == at_least(2, 3, Fraction(1, 6)) == Fraction(2, 27)


def test_exorcism_odds_with_and_without_a_token() -> None:
    sc = query.load(dice_scenario(3))
    p = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard").data["probability"]
    assert Fraction(p) == at_least(2, 3, Fraction(1, 3)) == Fraction(7, 27)
    sc = query.load(dice_scenario(3).replace("{at: ww}", "{at: ww, tao: {red: 1}}"))
    p = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard").data["probability"]
    assert Fraction(p) == at_least(1, 3, Fraction(1, 3)) == Fraction(19, 27)


def _simulate(sc: query.Scenario, outcome: str, horizon: str | None, samples: int, seed: int) -> tuple[Fraction, float]:
    answer = query.odds(sc, outcome=outcome, horizon=horizon)
    search = answer.search
    sampler = Sampler(search.horizon, lambda s, c: search.best_action(s, c))
    rng = random.Random(seed)
    start = sc.state.clone()
    start.tracing = False
    values = Values(start.game)
    hits = 0
    for _ in range(samples):
        end = sampler.sample(start, rng)
        hits += bool(values.raw(outcome, end.values)[0])
    return Fraction(answer.data["probability"]), hits / samples


@pytest.mark.parametrize("text,outcome,horizon", [
    (dice_scenario(3).replace("{at: ww}", "{at: ww, tao: {red: 1}}"), "at[c38_bleeding_eyes] == discard", None),
    (dice_scenario(4), "tray[red] + jokers >= 2", "roll_tao_dice"),
    (HEAD + "monks:\n  green: {at: nw}\npowers: {green: favourite}\nturn: {active: green, step: help}\n",
     "tao[green, red] + tao[green, black] >= 1", None),
])
def test_exact_odds_agree_with_20000_seeded_samples(text: str, outcome: str, horizon: str | None) -> None:
    sc = query.load(text)
    p, freq = _simulate(sc, outcome, horizon, 20_000, seed=12345)
    se = math.sqrt(float(p) * (1 - float(p)) / 20_000)
    assert abs(freq - float(p)) <= 3 * se + 1e-12, (p, freq, se)


# ---- the search's position keys (engine/liveness.py) ----------------------------------------------
FOUR_DICE_AND_REROLL = (HEAD + "powers: {yellow: pockets, red: peaks, green: mountain, blue: gust}\n"
                        "monks:\n  green: {at: ww}\nghosts:\n  red_2: Bleeding Eyes\n"
                        'slots: {"borrowed[favourite]": true}\nturn: {active: green, step: exorcise}\n')


def test_four_dice_and_a_reroll_within_the_default_budget() -> None:
    """4 Tao dice (Strength of the Mountain) and the Favourite's reroll (lent through its power-token
    slot): keep the red and white faces, reroll the rest once. Closed form: 1 - P(fail), where a die
    fails twice with (2/3)^2 = 4/9, so P(at least 2 of 4 succeed) = 1675/2187. Positions that differ
    only in locals no path reads again, or in how far a loop has gone while it has as many passes
    left, are one position: the search stays well inside the default budget of 5 000."""
    sc = query.load(FOUR_DICE_AND_REROLL)
    answer = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
    assert Fraction(answer.data["probability"]) == at_least(2, 4, Fraction(5, 9)) == Fraction(1675, 2187)
    assert answer.data["positions"] < 2_000


def test_positions_with_one_key_play_alike() -> None:
    """Soundness of the search's keys: states the odds search takes for one position offer the same
    options (or chance outcomes), and each option leads to positions that again share a key."""
    from ghostrules.query.search import Odds
    groups: dict = {}
    original = Odds._key

    def spy(self: Odds, s):  # type: ignore[no-untyped-def]
        out = original(self, s)
        groups.setdefault(out[0], []).append(s)
        return out
    Odds._key = spy  # type: ignore[method-assign]
    try:
        query.odds(query.load(FOUR_DICE_AND_REROLL), outcome="at[c38_bleeding_eyes] == discard")
        shared = [states for states in groups.values() if len(states) > 1]
        assert len(shared) > 100   # many positions are reached in several ways
        for states in shared[:150]:
            first = states[0]
            search = Odds.__new__(Odds)
            for other in states[1:]:
                assert other.values == first.values
                if first.is_chance_node():
                    mine = [(a.key, p) for a, p in first.chance_outcomes()]
                    assert [(a.key, p) for a, p in other.chance_outcomes()] == mine
                    actions = [a for a, _ in first.chance_outcomes()]
                else:
                    assert [a.label for a in other.legal_actions()] == [a.label for a in first.legal_actions()]
                    actions = first.legal_actions()
                for action in actions:
                    a, b = first.child(action), other.child(action)
                    assert a.values == b.values and a.outcome() == b.outcome()
                    search.horizon = _horizon_of(first)
                    assert original(search, a)[0] == original(search, b)[0]
    finally:
        Odds._key = original  # type: ignore[method-assign]


def _horizon_of(state):  # type: ignore[no-untyped-def]
    from ghostrules.query.search import Horizon
    index = [state.game.program.procs[f[0]].name for f in state.stack].index("exorcise")
    return Horizon.at_frame(state, index)


def test_child_is_clone_then_apply() -> None:
    """``State.child(action)`` is ``clone()`` then ``apply_action(action)``, and leaves the state as it was."""
    import ghostrules
    from ghostrules.engine.game import random_policy, sample_chance
    game = ghostrules.load_game("ghost-stories", players=2, level="hell", edition="el")
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(150):
        if state.is_terminal():
            break
        before = state.to_json()
        action = sample_chance(state, rng) if state.is_chance_node() else random_policy(state, rng)
        child = state.child(action)
        assert state.to_json() == before
        state.apply_action(action)
        assert child == state and child.history() == state.history()
