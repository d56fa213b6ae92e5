"""The policy's lookahead: the expected value of a position, following the game on until a decision.

Knows no game. From a position, the lookahead

* expands every chance node with at most ``max_outcomes`` outcomes exactly (each outcome weighted by
  its probability);
* at a bigger chance node (a card draw) stops, adding the points its rule has in ``stops`` (what a
  draw will bring, on average), or, when ``samples`` is above zero, follows
  ``samples`` outcomes drawn with their probabilities from a generator seeded by the caller (each
  weighted ``1 / samples``), so that what a draw brings is seen without expanding the whole deck;
* at a decision whose rule is in ``through`` takes the option with the best expected value (only the
  options whose label matches the entry's pattern, when it has one);
* at a decision whose rule is also in ``transparent`` reads everything past it: the other readings
  (a preference's extra expressions) are the best option's too, as if the decision were not there
  (for a decision that only sets how the chance after it goes, e.g. how many dice are rolled), and
  passing it costs no budget;
* at a decision where an ``Estimate`` names some options (whether or not its rule is in
  ``through``), judges those by an expression read at the decision instead of following them (an
  exorcism's odds instead of its dice, say), and takes the best of these and of the options followed;
* stops at any other decision, at the end of the game, or when ``budget`` positions have been
  expanded, and reads the position there.

Equal positions are expanded once (memoised by their values and pending calls). The result is the
expected tuple of ``leaf`` readings; at a decision passed through, the first reading (the value) is
the best option's and the others (a preference's extra expressions) are read at the decision
itself, the first decision after the option (past it, at a ``transparent`` one).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import attrs

from ..engine import Action, State

Through = dict[str, "re.Pattern[str] | None"]
Reading = tuple[float, ...]


@attrs.frozen
class Estimate:
    """An option of a decision in the lookahead that is judged by an expression instead of being followed.

    At a decision of rule ``node``, an option whose label matches ``option`` is not applied: its
    reading is the decision's own, its value raised by ``weight`` times ``expression`` read there."""

    node: str
    option: re.Pattern[str]
    expression: str
    weight: float = 1.0


@attrs.frozen
class Search:
    """How far one lookahead goes: decisions passed through, chance nodes expanded, positions allowed."""

    through: Through
    budget: int = 400
    max_outcomes: int = 8
    samples: int = 0
    estimates: tuple[Estimate, ...] = ()
    stops: tuple[tuple[re.Pattern[str], float], ...] = ()
    transparent: frozenset[str] = frozenset()

    def stop_score(self, rule: str) -> float:
        """Points for stopping at a chance node of ``rule`` that is not expanded (what it will bring)."""
        return next((score for node, score in self.stops if node.fullmatch(rule)), 0.0)

    def estimate_for(self, rule: str, label: str) -> Estimate | None:
        """The estimate that replaces following this option, if any."""
        for entry in self.estimates:
            if entry.node == rule and entry.option.search(label):
                return entry
        return None

    def passes(self, rule: str, label: str) -> bool:
        """Whether an option of a decision of ``rule`` labelled ``label`` is followed."""
        if rule not in self.through:
            return False
        only = self.through[rule]
        return only is None or bool(only.search(label))


def position_key(state: State) -> Any:
    """A key equal for equal positions (values and pending calls), to expand each position once."""
    try:
        return (tuple(state.values), tuple((f[0], f[1], tuple(sorted(f[2].items()))) for f in state.stack))
    except (AttributeError, TypeError):  # pragma: no cover - a state without these attributes: no sharing
        return None


def _sampled(state: State, k: int, rng: random.Random) -> list[tuple[Action, float]]:
    """``k`` outcomes of a chance node drawn with their probabilities (repeats merged, weights summing to 1)."""
    outcomes = state.chance_outcomes()
    drawn = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes], k=k)
    merged: dict[Action, float] = {}
    for action in drawn:  # actions are equal when their kind and key are
        merged[action] = merged.get(action, 0.0) + 1.0 / k
    return list(merged.items())


def expected(state: State, search: Search, leaf: Callable[[State], Reading],
             rng: random.Random | None = None,
             evaluate: Callable[[State, str], float] | None = None) -> Reading:
    """The expected ``leaf`` reading after ``state`` (see the module docstring).

    ``rng`` draws the sampled outcomes of big chance nodes; without it they are not followed.
    ``evaluate(position, expression)`` reads the expressions of ``search.estimates``; without it
    the options they name are neither followed nor estimated."""
    if state.tracing:  # the positions are followed without a log (each child keeps its parent's tracing)
        state = state.clone()
        state.tracing = False
    budget = [search.budget]
    memo: dict[Any, Reading] = {}
    samples = search.samples if rng is not None else 0

    def walk(s: State) -> Reading:
        if s.is_terminal():
            return leaf(s)
        key = position_key(s)
        if key is not None and key in memo:
            return memo[key]
        chance = s.is_chance_node()
        rule = ""
        children: list[tuple[Action, float]]
        if chance:
            outcomes = s.chance_outcomes()
            if len(outcomes) <= search.max_outcomes:
                children = [(a, float(p)) for a, p in outcomes]
            elif samples > 0 and budget[0] >= samples:
                assert rng is not None
                children = _sampled(s, samples, rng)
            else:
                children = []
        else:
            rule = s.node_rule()
            children = [(a, 1.0) for a in s.legal_actions() if search.passes(rule, a.label)] \
                if rule in search.through else []
            if evaluate is not None and search.estimates:
                guesses = [e for a in s.legal_actions() if (e := search.estimate_for(rule, a.label)) is not None]
                if guesses:
                    children = [(a, p) for a, p in children if search.estimate_for(rule, a.label) is None]
                    here = leaf(s)
                    best_guess = max(here[0] + e.weight * evaluate(s, e.expression) for e in guesses)
                    if not children or budget[0] < len(children):
                        out = (best_guess,) + here[1:]
                    else:
                        out = _decide(s, children, budget, walk, here, best_guess)
                    if key is not None:
                        memo[key] = out
                    return out
        if not children or budget[0] < len(children):
            out = leaf(s)
            if chance and search.stops:
                out = (out[0] + search.stop_score(s.node_rule()),) + out[1:]
            if key is not None:
                memo[key] = out
            return out
        if rule not in search.transparent:
            budget[0] -= len(children)  # (a transparent decision is free: as if it were not there)
        results = []
        for action, p in children:
            results.append((p, walk(s.child(action))))
        width = len(results[0][1])
        if chance:
            out = tuple(sum(p * r[i] for p, r in results) for i in range(width))
        elif rule in search.transparent:
            out = max((r for _, r in results), key=lambda r: r[0])
        else:
            best = max(r[0] for _, r in results)
            out = (best,) + leaf(s)[1:]
        if key is not None:
            memo[key] = out
        return out

    return walk(state)


def _decide(s: State, children: list[tuple[Action, float]], budget: list[int],
            walk: Callable[[State], Reading], here: Reading, floor: float) -> Reading:
    """A decision passed through: its best option's value (at least ``floor``), ``here``'s other readings."""
    budget[0] -= len(children)
    best = floor
    for action, _ in children:
        best = max(best, walk(s.child(action))[0])
    return (best,) + here[1:]


__all__ = ["Estimate", "Search", "expected", "position_key"]
