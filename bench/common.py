"""Shared helpers of the benchmarks: seeded engine playouts and the statistics that compare runs.

Only the public API of ``ghostrules`` is used. Nothing here is timed by itself.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import ghostrules
from ghostrules.engine.game import random_policy, sample_chance

FOUR_INITIATION = {"players": 4, "level": "initiation", "edition": "el"}
TWO_HELL = {"players": 2, "level": "hell", "edition": "el"}


def load(config: dict[str, Any]) -> ghostrules.Game:
    return ghostrules.load_game("ghost-stories", **config)


class TurnCounter:
    """Counts the player turns started in an engine game, from the public state only.

    Turn 1 is under way at the first ghost draw (Yin step 3 of the first board). From then on, each
    change of ``active`` advances play by as many seats as lie between the two boards clockwise, so a
    dead monk's board whose turn passes without any decision or chance node still counts."""

    def __init__(self) -> None:
        self.turns = 0
        self.seat: dict[str, int] = {}
        self.active = ""

    def observe(self, state: ghostrules.State, action: ghostrules.Action) -> None:
        if not self.seat:
            if action.kind != "draw":
                return
            game = state.game
            order = ["south", "west", "north", "east"]
            for m in game.layout.domains["monk"].symbols:
                self.seat[m] = order.index(str(state.get("side", m)))
            self.active = str(state.get("active"))
            self.turns = 1
            return
        now = str(state.get("active"))
        if now != self.active:
            self.turns += (self.seat[now] - self.seat[self.active]) % 4
            self.active = now


def play_engine(game: ghostrules.Game, seed: int, tracing: bool = False, count_turns: bool = False,
                prompts: Counter[str] | None = None) -> tuple[ghostrules.State, int, int]:
    """One seeded random game (``random_policy``, chance by exact probabilities, as in
    ``ghostrules.play``), with legal actions enumerated at every decision.

    Returns the final state, the number of actions applied and the player turns (0 unless
    ``count_turns``). With ``prompts``, counts the decisions asked by their prompt, and
    their options under ``options: <prompt>``."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing)
    counter = TurnCounter() if count_turns else None
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            if prompts is None:
                action = random_policy(state, rng)
            else:   # the same draw as random_policy, also counting the decision and its options
                actions = state.legal_actions()
                action = rng.choice(actions)
                prompts[state.prompt()] += 1
                prompts["options: " + state.prompt()] += len(actions)
        if counter is not None and not counter.seat:
            counter.observe(state, action)   # the first draw is seen before it is applied
            state.apply_action(action)
        else:
            state.apply_action(action)
            if counter is not None:
                counter.observe(state, action)
        steps += 1
    return state, steps, counter.turns if counter else 0


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


# ---- statistics --------------------------------------------------------------------------------

def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (sensible also at 0 or n successes)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """Two-sided two-proportion z-test (pooled): (z, p-value). p = 1 when both rates are 0 or 1."""
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (x1 / n1 - x2 / n2) / se
    return z, math.erfc(abs(z) / math.sqrt(2))


def fisher_exact(x1: int, n1: int, x2: int, n2: int) -> float:
    """Two-sided Fisher exact test of two proportions (for small counts, where z is unreliable)."""
    total, k = n1 + n2, x1 + x2

    def prob(a: int) -> float:
        return math.comb(k, a) * math.comb(total - k, n1 - a) / math.comb(total, n1)
    observed = prob(x1)
    lo, hi = max(0, k - n2), min(k, n1)
    return min(1.0, sum(p for a in range(lo, hi + 1) if (p := prob(a)) <= observed * (1 + 1e-9)))


def ks_two_sample(a: list[int], b: list[int]) -> tuple[float, float]:
    """Two-sample Kolmogorov-Smirnov test: (D, asymptotic p-value). With ties (integer data) the
    asymptotic p-value is conservative."""
    a, b = sorted(a), sorted(b)
    n, m = len(a), len(b)
    values = sorted(set(a) | set(b))
    i = j = 0
    d = 0.0
    for v in values:
        while i < n and a[i] <= v:
            i += 1
        while j < m and b[j] <= v:
            j += 1
        d = max(d, abs(i / n - j / m))
    en = math.sqrt(n * m / (n + m))
    lam = (en + 0.12 + 0.11 / en) * d
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))


def chi_square(table: list[list[int]]) -> tuple[float, int, float]:
    """Chi-square test of homogeneity on a 2 x k table of counts (columns with no count dropped):
    (statistic, degrees of freedom, p-value)."""
    cols = [c for c in range(len(table[0])) if table[0][c] + table[1][c] > 0]
    rows = [[r[c] for c in cols] for r in table]
    total = sum(map(sum, rows))
    stat = 0.0
    for r in rows:
        for c in range(len(cols)):
            expected = sum(r) * (rows[0][c] + rows[1][c]) / total
            if expected > 0:
                stat += (r[c] - expected) ** 2 / expected
    df = max(1, len(cols) - 1)
    return stat, df, chi2_sf(stat, df)


def chi2_sf(x: float, k: int) -> float:
    """Survival function of the chi-square distribution (regularised upper incomplete gamma)."""
    if x <= 0:
        return 1.0
    a, y = k / 2, x / 2
    if y < a + 1:   # series for the lower gamma
        term = total = 1 / a
        n = a
        while term > total * 1e-15:
            n += 1
            term *= y / n
            total += term
        return max(0.0, 1 - total * math.exp(-y + a * math.log(y) - math.lgamma(a)))
    # continued fraction for the upper gamma (Lentz)
    tiny = 1e-300
    b = y + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(-y + a * math.log(y) - math.lgamma(a))


def binned(values: Iterable[int], edges: list[int]) -> list[int]:
    """Counts of values per bin: [edges[i], edges[i+1]), the last bin open-ended."""
    counts = [0] * len(edges)
    for v in values:
        k = max(i for i, e in enumerate(edges) if v >= e) if v >= edges[0] else 0
        counts[k] += 1
    return counts


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]


def median(samples: list[float]) -> float:
    return statistics.median(samples) if samples else float("nan")
