"""Bounded search for a goal (``reachable``) and seeded sampling of play (``Sampler``), over an engine
position (game-agnostic)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs

from ..engine import Action, State
from .positions import Horizon, KnownOutcomes, TooLarge, position_key


@attrs.define
class Witness:
    actions: list[Action]
    probability: Fraction


def reachable(state: State, goal: Callable[[State], bool], within: int, known: KnownOutcomes | None = None,
              limit: int = 20_000) -> tuple[Witness | None, int]:
    """A shortest line of at most ``within`` actions (decisions and chance outcomes) reaching ``goal``.

    Returns (witness or None, positions explored). Iterative deepening with a memo of positions that
    already failed with as many actions left."""
    known = known or KnownOutcomes()
    failed: dict[Any, int] = {}
    explored = 0
    root = state.clone()
    root.tracing = False

    def search(s: State, left: int, cursor: tuple[tuple[str, int], ...]) -> list[tuple[Action, Fraction]] | None:
        nonlocal explored
        if goal(s):
            return []
        if left == 0 or s.is_terminal():
            return None
        key = (position_key(s), cursor)
        if failed.get(key, -1) >= left:
            return None
        explored += 1
        if explored > limit:
            raise TooLarge(f"the search explored more than {limit} positions; ask with a smaller bound")
        if s.is_chance_node():
            options, nxt = known.outcomes(s, cursor)
        else:
            options, nxt = [(a, Fraction(1)) for a in s.legal_actions()], cursor
        for action, p in options:
            child = s.clone()
            child.apply_action(action)
            rest = search(child, left - 1, nxt)
            if rest is not None:
                return [(action, p)] + rest
        failed[key] = left
        return None

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        for bound in range(within + 1):
            line = search(root, bound, ())
            if line is not None:
                prob = Fraction(1)
                for _, p in line:
                    prob *= p
                return Witness([a for a, _ in line], prob), explored
    finally:
        sys.setrecursionlimit(old)
    return None, explored


class Sampler:
    """Seeded sampling of play from a position up to a horizon: chance outcomes by their exact
    probabilities, decisions by a policy. Transitions are cached (the engine is deterministic), so
    many samples of a small tree are cheap. Used to check exact odds against simulation."""

    def __init__(self, horizon: Horizon, policy: Callable[[State, tuple[tuple[str, int], ...]], str | None],
                 known: KnownOutcomes | None = None) -> None:
        self.horizon = horizon
        self.policy = policy
        self.known = known or KnownOutcomes()
        self._children: dict[Any, State] = {}
        self._root: State | None = None
        self._nodes: dict[Any, tuple[str, list[tuple[Action, float]], tuple[tuple[str, int], ...]]] = {}

    def _node(self, s: State, cursor: tuple[tuple[str, int], ...]) -> tuple[Any, tuple[str, list, tuple]]:
        # the states met are kept (root and cached children), so their identity is a valid key
        key = (id(s), cursor)
        hit = self._nodes.get(key)
        if hit is None:
            if s.is_chance_node():
                outs, nxt = self.known.outcomes(s, cursor)
                hit = ("chance", [(a, float(p)) for a, p in outs], nxt)
            else:
                acts = s.legal_actions()
                if len(acts) > 1:
                    label = self.policy(s, cursor)
                    acts = [a for a in acts if a.label == label] or acts[:1]
                hit = ("decision", [(acts[0], 1.0)], cursor)
            self._nodes[key] = hit
        return key, hit

    def sample(self, state: State, rng: Any, cursor: tuple[tuple[str, int], ...] = ()) -> State:
        self._root = state  # keep it alive: positions are keyed by identity
        s = state
        while self.horizon.inside(s):
            key, (kind, options, nxt) = self._node(s, cursor)
            if kind == "chance":
                r = rng.random()
                acc = 0.0
                action = options[-1][0]
                for a, p in options:
                    acc += p
                    if r < acc:
                        action = a
                        break
            else:
                action = options[0][0]
            ck = (key, action.kind, action.key)
            child = self._children.get(ck)
            if child is None:
                child = s.clone()
                child.tracing = False
                child.apply_action(action)
                self._children[ck] = child
            s, cursor = child, nxt
        return s
