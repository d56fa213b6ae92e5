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
