"""Exact odds and bounded search over an engine position (game-agnostic).

``Odds`` enumerates every chance node with its exact Fractions up to a horizon, plays the decisions
in between to maximise the value of the outcome, and memoises positions on their values and call
stack (the history is not part of a position). ``reachable`` searches decisions and chance outcomes
for a goal within a number of actions and returns a witness line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs

from ..engine import Action, State
from ..engine.program import RandomI


def node_of(state: State) -> Any:
    """The instruction the position waits at (a decision or a chance node), or None at the end."""
    if state.is_terminal() or not state.stack:
        return None
    frame = state.stack[-1]
    return state.game.program.procs[frame[0]].code[frame[1]]


def frames_key(frames: list[list[Any]]) -> tuple[Any, ...]:
    return tuple((f[0], f[1], tuple(sorted(f[2].items()))) for f in frames)


def position_key(state: State) -> tuple[Any, ...]:
    """What identifies a position: its values, its stack and its outcome (not how it was reached)."""
    o = state.outcome()
    return (tuple(state.values), frames_key(state.stack), (o.result, o.rule_id) if o else None)


class KnownOutcomes:
    """Chance outcomes a question assumes (e.g. the known top cards of a deck), consumed in order."""

    def __init__(self, known: dict[str, list[int]] | None = None) -> None:
        self.known = {k: list(v) for k, v in (known or {}).items() if v}

    def outcomes(self, state: State, cursor: tuple[tuple[str, int], ...]) -> tuple[list[tuple[Action, Fraction]],
                                                                                 tuple[tuple[str, int], ...]]:
        """The chance outcomes here (only the known one, if this node's type has one left) and the new cursor."""
        outs = state.chance_outcomes()
        node = node_of(state)
        if isinstance(node, RandomI) and node.type in self.known:
            used = dict(cursor)
            k = used.get(node.type, 0)
            if k < len(self.known[node.type]):
                want = self.known[node.type][k]
                for a, _ in outs:
                    if a.key == (want,):
                        used[node.type] = k + 1
                        return [(a, Fraction(1))], tuple(sorted(used.items()))
                name = state.game.layout.label(node.type, want)
                raise ValueError(f"the known next {node.type} {name!r} cannot come here "
                                 f"({state.prompt()}: it is not among the {len(outs)} possible outcomes)")
        return outs, cursor


@attrs.define
class Horizon:
    """Where an odds question stops: when the frame that offered the action (or a named frame) has
    returned, at the end of the game, or (mode ``decision``) at the next real decision."""

    depth: int
    proc: int
    prefix: tuple[Any, ...]
    mode: str = "frame"
    description: str = ""

    @classmethod
    def at_frame(cls, state: State, index: int, mode: str = "frame") -> Horizon:
        frames = state.stack
        name = state.game.program.procs[frames[index][0]].name
        text = (f"until {name} returns" if mode == "frame" else "until the next decision with a choice")
        return cls(index + 1, frames[index][0], frames_key(frames[:index]), mode, text)

    def inside(self, state: State) -> bool:
        if state.is_terminal():
            return False
        st = state.stack
        if len(st) < self.depth or st[self.depth - 1][0] != self.proc:
            return False
        return frames_key(st[:self.depth - 1]) == self.prefix


Leaf = Callable[[State], tuple[Fraction, Any]]


class TooLarge(Exception):
    """The search would visit more positions than its budget allows."""


class Odds:
    """Exact expected value and distribution of leaf labels from a position, optimal decisions.

    With ``ceiling`` (the highest value a leaf can have, e.g. 1 for a probability) a decision stops
    looking at further options once one reaches it. ``budget`` bounds the positions visited."""

    def __init__(self, horizon: Horizon, leaf: Leaf, known: KnownOutcomes | None = None,
                 ceiling: Fraction | None = None, budget: int = 20_000) -> None:
        self.horizon = horizon
        self.leaf = leaf
        self.known = known or KnownOutcomes()
        self.ceiling = ceiling
        self.budget = budget
        self.memo: dict[Any, tuple[Fraction, dict[Any, Fraction]]] = {}
        self.policy: dict[Any, str] = {}
        self.rules: dict[str, None] = {}
        self.positions = 0

    def solve(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> tuple[Fraction, dict[Any, Fraction]]:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            s = state.clone()
            s.tracing = False
            return self._value(s, cursor)
        finally:
            sys.setrecursionlimit(old)

    def _child(self, s: State, action: Action) -> State:
        c = s.clone()
        c.apply_action(action)
        return c

    def _value(self, s: State, cursor: tuple[tuple[str, int], ...]) -> tuple[Fraction, dict[Any, Fraction]]:
        key = (position_key(s), cursor)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.positions += 1
        if self.positions > self.budget:
            raise TooLarge(f"more than {self.budget} positions before the horizon")
        if not self.horizon.inside(s):
            value, label = self.leaf(s)
            if s.is_terminal() and s.outcome() is not None:
                self.rules[s.outcome().rule_id] = None  # type: ignore[union-attr]
            out = (Fraction(value), {label: Fraction(1)})
        elif s.is_chance_node():
            self.rules[s.node_rule()] = None
            outcomes, nxt = self.known.outcomes(s, cursor)
            total = Fraction(0)
            dist: dict[Any, Fraction] = {}
            for action, p in outcomes:
                v, d = self._value(self._child(s, action), nxt)
                total += p * v
                for label, q in d.items():
                    dist[label] = dist.get(label, Fraction(0)) + p * q
            out = (total, dist)
        else:
            actions = s.legal_actions()
            if len(actions) > 1 and self.horizon.mode == "decision":
                value, label = self.leaf(s)
                out = (Fraction(value), {label: Fraction(1)})
            elif len(actions) == 1:
                self.rules[actions[0].rule or s.node_rule()] = None
                out = self._value(self._child(s, actions[0]), cursor)
            else:
                self.rules[s.node_rule()] = None
                best: tuple[Fraction, dict[Any, Fraction]] | None = None
                best_label = ""
                for action in actions:
                    v, d = self._value(self._child(s, action), cursor)
                    if best is None or v > best[0]:
                        best, best_label = (v, d), action.label
                    if self.ceiling is not None and v >= self.ceiling:
                        break
                assert best is not None
                self.policy[key] = best_label
                out = best
        self.memo[key] = out
        return out

    def best_action(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> str | None:
        """The decision this search takes in ``state`` (after ``solve``), if it had a choice there."""
        return self.policy.get((position_key(state), cursor))


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
