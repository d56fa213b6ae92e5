"""Random playouts of Ghost Stories: speed of the engine, and a differential test against the reference.

    python bench/playouts.py [--games N] [--ref-games M] [--hell-games H] [--seed S] [--quick]

Measures, in one seeded, deterministic run (timings vary, results do not):

1. Engine speed. Random playouts (uniform ``random_policy``; chance by its exact probabilities) of
   4 players / Initiation / revised rulebook (el), and of 2 players / Hell / el, with the legal actions
   enumerated at every decision: games/s and actions (steps)/s with tracing off, the same with tracing
   on, and the ratio tracing-on / tracing-off time. The tracing-on games replay the same seeds and must
   end exactly as the tracing-off ones (checked).
2. Engine / reference time per game for 4p Initiation el, against ``bench/reference_gs.py``, a
   hand-written imperative reference of the same rules running the same random policy.
3. Differential test, engine against reference (4p Initiation el): the win rates with 95 % Wilson
   intervals and a two-proportion z-test (Fisher's exact test when wins are rare); the game length in
   player turns (every board's turn, a dead monk's board included) with a two-sample
   Kolmogorov-Smirnov test and a chi-square test on binned lengths; the causes of loss (chi-square);
   and the cards left in the deck at the end (Kolmogorov-Smirnov). A p-value below 0.01 is reported
   as a disagreement.

Each figure is printed next to the project's target. Times are CPU time of this process
(``time.process_time``), so other jobs on the machine disturb them less than wall time; one core.
The five runs (4p tracing off, on, the reference, 2p Hell off, on) are played in ten interleaved
slices, each game compiled and warmed first, so that a drift of the machine's speed during the
run (a virtual machine's neighbours) weighs on both sides of every ratio alike.
The engine's timed game is ``ghostrules.play`` (what a developer calls for a random playout); the
turns and the decision profile come from the same seed played again, untimed, by a loop of public
calls (``common.play_engine``: ``legal_actions``, ``prompt``, ``apply_action``), which must give the
same game (checked: a differential test of ``play``'s shortcuts).
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ghostrules
from common import (
    FOUR_INITIATION,
    TWO_HELL,
    binned,
    chi_square,
    fisher_exact,
    ks_two_sample,
    load,
    play_engine,
    two_proportion_z,
    wilson,
)
from reference_gs import Reference

TARGET_GAMES_PER_S = 200
TARGET_REF_RATIO = 1.5
TARGET_TRACING_RATIO = 2.0
ROUNDS = 10   # the runs are played in this many interleaved slices (see ``interleaved``)
ALPHA = 0.01


class EngineRun:
    """The games of one configuration played by the engine, and what was measured."""

    def __init__(self, config: dict[str, Any], seeds: range, tracing: bool) -> None:
        self.config, self.seeds, self.tracing = config, seeds, tracing
        self.results: list[tuple[str, str]] = []
        self.turns: list[int] = []
        self.deck_left: list[int] = []
        self.steps = 0
        self.histories: list[int] = []
        self.prompts: list[collections.Counter[str]] = []
        self.seconds = 0.0

    def run(self, seeds: range | None = None) -> EngineRun:
        """Play ``seeds`` (default: all of this run's seeds, in order), adding to what was measured.

        The timed game is ``ghostrules.play`` (the random policy, the legal actions listed at every
        decision). The turns and the decision profile come from the same seed played again, untimed,
        by the loop of public calls (``play_engine``), which must give the same game."""
        if self.game is None:
            self.game = load(self.config)
        for seed in self.seeds if seeds is None else seeds:
            start = time.process_time()
            state = ghostrules.play(self.game, seed=seed, tracing=self.tracing)
            self.seconds += time.process_time() - start
            prompts: collections.Counter[str] = collections.Counter()
            again, steps, turns = play_engine(self.game, seed, tracing=self.tracing, count_turns=True, prompts=prompts)
            if again.history() != state.history():
                raise SystemExit(f"seed {seed}: ghostrules.play and the loop of public calls played different games")
            self.prompts.append(prompts)
            outcome = state.outcome()
            assert outcome is not None
            self.results.append((outcome.result, outcome.rule_id))
            self.turns.append(turns)
            self.deck_left.append(int(state.eval("deck_size")))
            self.steps += steps
            self.histories.append(hash(tuple(a.key for a in state.history())))
        return self

    @property
    def games_per_s(self) -> float:
        return len(self.seeds) / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def wins(self) -> int:
        return sum(1 for result, _ in self.results if result == "win")


class ReferenceRun:
    """The games of the hand-written reference (4p Initiation el)."""

    def __init__(self, seeds: range) -> None:
        self.seeds = seeds
        self.results: list[tuple[str, str]] = []
        self.turns: list[int] = []
        self.deck_left: list[int] = []
        self.prompts: list[collections.Counter[str]] = []
        self.seconds = 0.0

    def run(self, seeds: range | None = None) -> ReferenceRun:
        """Play ``seeds`` (default: all of this run's seeds, in order), adding to what was measured."""
        start = time.process_time()
        for seed in self.seeds if seeds is None else seeds:
            ref = Reference(random.Random(seed))
            result, rule, turns = ref.play()
            self.results.append((result, rule))
            self.turns.append(turns)
            self.deck_left.append(ref.deck_size())
            self.prompts.append(ref.decisions + collections.Counter({"options: " + k: v for k, v in ref.options.items()}))
        self.seconds += time.process_time() - start
        return self

    @property
    def wins(self) -> int:
        return sum(1 for result, _ in self.results if result == "win")


def verdict(p: float) -> str:
    return "agree" if p >= ALPHA else f"DISAGREE (p < {ALPHA})"


def interleaved(runs: list[Any], rounds: int) -> None:
    """Play every run's seeds in ``rounds`` slices, one slice of each run in turn, so that a change
    of the machine's speed during the measurement (other jobs, a virtual machine's neighbours)
    weighs on every run alike and the ratios between them stay fair. Each run still plays its own
    seeds in order, so the results are those of playing them in one go."""
    slices = []
    for run in runs:
        n = len(run.seeds)
        bounds = [run.seeds.start + n * k // rounds for k in range(rounds + 1)]
        slices.append([range(a, b) for a, b in zip(bounds, bounds[1:])])
    for k in range(rounds):
        for run, parts in zip(runs, slices):
            run.run(parts[k])


def target(ok: bool) -> str:
    return "meets target" if ok else "misses target"


def report_speed(label: str, off: EngineRun, on: EngineRun) -> None:
    same = off.results == on.results and off.histories == on.histories
    ratio = on.seconds / off.seconds
    print(f"{label}: {len(off.seeds)} games, {off.steps} actions")
    print(f"  tracing off: {off.games_per_s:8.1f} games/s {off.steps_per_s:9.0f} actions/s"
          f"   (target >= {TARGET_GAMES_PER_S} games/s for 4p Initiation: {target(off.games_per_s >= TARGET_GAMES_PER_S)})")
    print(f"  tracing on:  {on.games_per_s:8.1f} games/s {on.steps / on.seconds:9.0f} actions/s")
    print(f"  tracing on / off time: {ratio:.2f}   (target <= {TARGET_TRACING_RATIO}: {target(ratio <= TARGET_TRACING_RATIO)})")
    print(f"  same games with tracing on and off: {'yes' if same else 'NO (tracing changed the play)'}")


def report_rate(label: str, wins: int, n: int) -> None:
    lo, hi = wilson(wins, n)
    print(f"  {label:10} win rate {wins}/{n} = {wins / n:.4f}  95 % CI [{lo:.4f}, {hi:.4f}]")


def differential(engine: EngineRun, ref: ReferenceRun) -> bool:
    """Print the comparison; True when every test agrees."""
    n1, n2 = len(engine.results), len(ref.results)
    print(f"Differential test, engine ({n1} games) against reference ({n2} games), 4p Initiation el:")
    report_rate("engine", engine.wins, n1)
    report_rate("reference", ref.wins, n2)
    z, p_z = two_proportion_z(engine.wins, n1, ref.wins, n2)
    p_f = fisher_exact(engine.wins, n1, ref.wins, n2)
    print(f"  win rate: two-proportion z = {z:+.2f}, p = {p_z:.3f}; Fisher exact p = {p_f:.3f}: {verdict(min(p_z, p_f))}")
    agreed = min(p_z, p_f) >= ALPHA
    if engine.wins + ref.wins < 10:
        print("  (random play almost never wins: the win-rate test has little power; the tests below carry it)")

    print(f"  turns per game: engine mean {statistics.mean(engine.turns):.2f} (sd {statistics.pstdev(engine.turns):.2f}),"
          f" reference mean {statistics.mean(ref.turns):.2f} (sd {statistics.pstdev(ref.turns):.2f})")
    d, p_ks = ks_two_sample(engine.turns, ref.turns)
    print(f"  turns: Kolmogorov-Smirnov D = {d:.3f}, p = {p_ks:.3f}: {verdict(p_ks)}")
    edges = [0, 9, 11, 13, 15, 18, 22]
    stat, df, p_chi = chi_square([binned(engine.turns, edges), binned(ref.turns, edges)])
    print(f"  turns binned {edges}: chi-square = {stat:.2f} ({df} df), p = {p_chi:.3f}: {verdict(p_chi)}")
    agreed &= p_ks >= ALPHA and p_chi >= ALPHA

    causes = sorted(set(engine.results) | set(ref.results))
    e_count = collections.Counter(engine.results)
    r_count = collections.Counter(ref.results)
    print("  outcomes:        " + "  ".join(f"{res} {rule}" for res, rule in causes))
    print("    engine:        " + "  ".join(f"{e_count[c] / n1:>{len(c[0]) + len(c[1]) + 1}.3f}" for c in causes))
    print("    reference:     " + "  ".join(f"{r_count[c] / n2:>{len(c[0]) + len(c[1]) + 1}.3f}" for c in causes))
    stat, df, p_cause = chi_square([[e_count[c] for c in causes], [r_count[c] for c in causes]])
    print(f"  outcomes: chi-square = {stat:.2f} ({df} df), p = {p_cause:.3f}: {verdict(p_cause)}")
    d, p_deck = ks_two_sample(engine.deck_left, ref.deck_left)
    print(f"  cards left in the deck: engine mean {statistics.mean(engine.deck_left):.2f}, reference mean "
          f"{statistics.mean(ref.deck_left):.2f}; Kolmogorov-Smirnov D = {d:.3f}, p = {p_deck:.3f}: {verdict(p_deck)}")
    agreed &= p_cause >= ALPHA and p_deck >= ALPHA
    print(f"  overall: {'engine and reference agree' if agreed else 'ENGINE AND REFERENCE DISAGREE'}")
    return agreed


def decision_profile(engine: EngineRun, ref: ReferenceRun, show_all: bool) -> None:
    """How often each decision comes up per game, and its mean number of options, engine against
    reference (Welch z on the per-game counts)."""
    prompts = sorted({k for c in engine.prompts + ref.prompts for k in c if not k.startswith("options: ")})
    print("Decisions per game by prompt (engine / reference; mean options per decision; Welch z of the counts):")
    print("  (a diagnostic: flagged when |z| > 4 and the binomial test of the totals gives p < 0.001)")
    flagged = 0
    for prompt in prompts:
        e = [c[prompt] for c in engine.prompts]
        r = [c[prompt] for c in ref.prompts]
        me, mr = statistics.mean(e), statistics.mean(r)
        se = (statistics.pvariance(e) / len(e) + statistics.pvariance(r) / len(r)) ** 0.5
        z = (me - mr) / se if se > 0 else 0.0
        oe = sum(c["options: " + prompt] for c in engine.prompts) / max(1, sum(e))
        orf = sum(c["options: " + prompt] for c in ref.prompts) / max(1, sum(r))
        # Counts are rare and clustered: flag only when the per-game Welch z and the conditional
        # binomial test of the totals (Poisson counts) both say so.
        ke, kr = sum(e), sum(r)
        share = len(e) / (len(e) + len(r))
        sd = ((ke + kr) * share * (1 - share)) ** 0.5
        p_binom = math.erfc(abs(ke - (ke + kr) * share) / sd / 2 ** 0.5) if sd > 0 else 1.0
        flag = abs(z) > 4 and p_binom < 1e-3
        flagged += flag
        if flag or show_all:
            print(f"  {prompt[:52]:52} {me:7.3f} / {mr:7.3f}   options {oe:5.2f} / {orf:5.2f}   z {z:+6.2f}"
                  + ("  <-- differs" if flag else ""))
    if not show_all:
        print(f"  {len(prompts)} prompts compared, {flagged} flagged (--decisions prints them all)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="engine games of 4p Initiation (default 200)")
    parser.add_argument("--ref-games", type=int, default=None, help="reference games (default 10 x --games)")
    parser.add_argument("--hell-games", type=int, default=None, help="engine games of 2p Hell (default --games / 2)")
    parser.add_argument("--seed", type=int, default=0, help="first seed; game k uses seed S + k")
    parser.add_argument("--quick", action="store_true", help="a short run while developing (30 games)")
    parser.add_argument("--decisions", action="store_true", help="print the whole decision profile")
    args = parser.parse_args()
    games = 30 if args.quick else args.games
    ref_games = args.ref_games if args.ref_games is not None else 10 * games
    hell_games = args.hell_games if args.hell_games is not None else max(1, games // 2)
    seeds = range(args.seed, args.seed + games)
    print(f"bench/playouts.py  seeds {args.seed}..{args.seed + games - 1}  ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")

    off = EngineRun(FOUR_INITIATION, seeds, tracing=False)
    on = EngineRun(FOUR_INITIATION, seeds, tracing=True)
    ref = ReferenceRun(range(args.seed, args.seed + ref_games))
    hell_seeds = range(args.seed, args.seed + hell_games)
    hell_off = EngineRun(TWO_HELL, hell_seeds, tracing=False)
    hell_on = EngineRun(TWO_HELL, hell_seeds, tracing=True)
    for run in (off, on, hell_off, hell_on):   # compile (and warm) each game before any clock starts
        run.game = load(run.config)
        play_engine(run.game, args.seed + games + 1, tracing=run.tracing)
    interleaved([off, on, ref, hell_off, hell_on], rounds=min(ROUNDS, games, hell_games))
    report_speed("Engine, 4 players, Initiation, el", off, on)
    report_speed("Engine, 2 players, Hell, el", hell_off, hell_on)
    report_rate("engine", hell_off.wins, len(hell_seeds))

    engine_per_game = off.seconds / games
    ref_per_game = ref.seconds / ref_games
    ratio = engine_per_game / ref_per_game
    print(f"Reference, 4p Initiation el: {ref_games} games, {ref_games / ref.seconds:.0f} games/s")
    print(f"  engine / reference time per game: {engine_per_game * 1e3:.2f} ms / {ref_per_game * 1e3:.2f} ms = {ratio:.1f}"
          f"   (target <= {TARGET_REF_RATIO}: {target(ratio <= TARGET_REF_RATIO)})")

    agreed = differential(off, ref)
    decision_profile(off, ref, args.decisions)
    same = off.results == on.results and off.histories == on.histories
    return 0 if agreed and same else 1


if __name__ == "__main__":
    sys.exit(main())
