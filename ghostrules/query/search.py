"""Exact odds and bounded search over an engine position (game-agnostic).

``Odds`` enumerates every chance node with its exact Fractions up to a horizon, plays the decisions
in between to maximise the value of the outcome, and memoises positions on their values and call
stack (the history is not part of a position). ``reachable`` searches decisions and chance outcomes
for a goal within a number of actions and returns a witness line.
"""

from __future__ import annotations

import sys
from math import gcd
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


def live_frames_key(state: State) -> tuple[Any, ...]:
    """The stack as far as the rest of play can tell: each frame's procedure, instruction and live
    locals (engine/liveness.py), so a local no path reads again (a finished loop's last value)
    does not tell two positions apart, and inside a counted loop, the passes it has left."""
    return frames_live_key(state, state.stack)


def frames_live_key(state: State, frames: list[list[Any]]) -> tuple[Any, ...]:
    """``live_frames_key`` of some of the state's frames."""
    keys = state.game.program.frame_keys
    out = []
    for proc, pc, L in frames:
        k = keys[proc]
        if k is None:
            out.append((proc, pc, tuple(sorted(L.items()))))
            continue
        names, loops = k[pc]
        if loops:
            out.append((proc, pc, tuple(map(L.get, names)), tuple([loop.passes_left(L) for loop in loops])))
        else:
            out.append((proc, pc, tuple(map(L.get, names))))
    return tuple(out)


def position_key(state: State) -> tuple[Any, ...]:
    """What identifies a position: its values, its stack (live locals only) and its outcome (not how
    it was reached)."""
    o = state.outcome()
    return (tuple(state.values), live_frames_key(state), (o.result, o.rule_id) if o else None)


class KnownOutcomes:
    """Chance outcomes a question assumes (e.g. the known top cards of a deck), consumed in order."""

    def __init__(self, known: dict[str, list[int]] | None = None) -> None:
        self.known = {k: list(v) for k, v in (known or {}).items() if v}

    def outcomes(self, state: State, cursor: tuple[tuple[str, int], ...]) -> tuple[list[tuple[Action, Fraction]],
                                                                                 tuple[tuple[str, int], ...]]:
        """The chance outcomes here (only the known one, if this node's type has one left) and the new cursor."""
        actions, weights, total, nxt = self.weights(state, cursor)
        return [(a, Fraction(w, total)) for a, w in zip(actions, weights)], nxt

    def weights(self, state: State, cursor: tuple[tuple[str, int], ...]) -> tuple[list[Action], list[int], int,
                                                                                tuple[tuple[str, int], ...]]:
        """Like ``outcomes``, as integer weights and their total (probability = weight / total)."""
        actions, weights, total = state.chance_weights()
        if self.known:
            node = node_of(state)
            if isinstance(node, RandomI) and node.type in self.known:
                used = dict(cursor)
                k = used.get(node.type, 0)
                if k < len(self.known[node.type]):
                    want = self.known[node.type][k]
                    for a in actions:
                        if a.key == (want,):
                            used[node.type] = k + 1
                            return [a], [1], 1, tuple(sorted(used.items()))
                    name = state.game.layout.label(node.type, want)
                    raise ValueError(f"the known next {node.type} {name!r} cannot come here "
                                     f"({state.prompt()}: it is not among the {len(actions)} possible outcomes)")
        return actions, weights, total, cursor


@attrs.define
class Horizon:
    """Where an odds question stops: when the frame that offered the action (or a named frame) has
    returned, at the end of the game, or (mode ``decision``) at the next real decision."""

    depth: int
    proc: int
    prefix: tuple[Any, ...]
    mode: str = "frame"
    description: str = ""
    below: list[list[Any]] | None = None  # the frames under the horizon's frame, as they were

    @classmethod
    def at_frame(cls, state: State, index: int, mode: str = "frame") -> Horizon:
        frames = state.stack
        name = state.game.program.procs[frames[index][0]].name
        text = (f"until {name} returns" if mode == "frame" else "until the next decision with a choice")
        return cls(index + 1, frames[index][0], frames_key(frames[:index]), mode, text,
                   [[f[0], f[1], dict(f[2])] for f in frames[:index]])

    def inside(self, state: State) -> bool:
        if state.is_terminal():
            return False
        st = state.stack
        if len(st) < self.depth or st[self.depth - 1][0] != self.proc:
            return False
        if self.below is not None:  # the same test as on the prefix key, on the frames themselves
            return st[:self.depth - 1] == self.below
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
        self.memo: dict[Any, tuple[tuple[int, int], dict[Any, tuple[int, int]]]] = {}

        self.policy: dict[Any, str] = {}
        self.rules: dict[str, None] = {}
        self.positions = 0

    def solve(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> tuple[Fraction, dict[Any, Fraction]]:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            s = state.clone()
            s.tracing = False
            (n, d), dist = self._value(s, cursor)
            return Fraction(n, d), {label: Fraction(*q) for label, q in dist.items()}
        finally:
            sys.setrecursionlimit(old)

    # Inside the search a value or a probability is a pair (numerator, denominator) of ints, not yet
    # reduced: Fraction arithmetic would cost more than the rest of the search. solve() returns Fractions.
    def _key(self, s: State) -> tuple[Any, bool]:
        """(what identifies the position in this search, whether it is inside the horizon). Inside,
        the frames under the horizon's frame are the same in every position, so they are left out."""
        if self.horizon.inside(s):
            return (tuple(s.values), frames_live_key(s, s.stack[self.horizon.depth - 1:])), True
        return position_key(s), False

    def _value(self, s: State, cursor: tuple[tuple[str, int], ...]) -> tuple[tuple[int, int], dict[Any, tuple[int, int]]]:
        position, inside = self._key(s)
        key = (position, cursor)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.positions += 1
        if self.positions > self.budget:
            raise TooLarge(f"more than {self.budget} positions before the horizon")
        out: tuple[tuple[int, int], dict[Any, tuple[int, int]]]
        if not inside:
            out = self._leaf(s)
        elif s.is_chance_node():
            out = self._chance(s, cursor)
        else:
            actions = s.legal_actions()
            if len(actions) > 1 and self.horizon.mode == "decision":
                out = self._leaf(s)
            elif len(actions) == 1:
                self.rules[actions[0].rule or s.node_rule()] = None
                out = self._value(s.child(actions[0]), cursor)
            else:
                out = self._decision(s, key, actions, cursor)
        self.memo[key] = out
        return out

    def _chance(self, s: State, cursor: tuple[tuple[str, int], ...]) -> tuple[tuple[int, int], dict[Any, tuple[int, int]]]:
        self.rules[s.node_rule()] = None
        actions, weights, total, nxt = self.known.weights(s, cursor)
        num, den = 0, 1  # the sum of weight * value over the outcomes
        dist: dict[Any, tuple[int, int]] = {}
        for action, w in zip(actions, weights):
            (vn, vd), d = self._value(s.child(action), nxt)
            num, den = _add(num, den, w * vn, vd)
            for label, (qn, qd) in d.items():
                pn, pd = dist.get(label, (0, 1))
                dist[label] = _add(pn, pd, w * qn, qd)
        return _reduce(num, den * total), {label: _reduce(pn, pd * total) for label, (pn, pd) in dist.items()}

    def _decision(self, s: State, key: Any, actions: list[Action],
                  cursor: tuple[tuple[str, int], ...]) -> tuple[tuple[int, int], dict[Any, tuple[int, int]]]:
        self.rules[s.node_rule()] = None
        best: tuple[tuple[int, int], dict[Any, tuple[int, int]]] | None = None
        best_label = ""
        ceiling = self.ceiling
        for action in actions:
            v = self._value(s.child(action), cursor)
            vn, vd = v[0]
            if best is None or vn * best[0][1] > best[0][0] * vd:
                best, best_label = v, action.label
            if ceiling is not None and vn * ceiling.denominator >= ceiling.numerator * vd:
                break
        assert best is not None
        self.policy[key] = best_label
        return best

    def _leaf(self, s: State) -> tuple[tuple[int, int], dict[Any, tuple[int, int]]]:
        value, label = self.leaf(s)
        o = s.outcome()
        if o is not None:
            self.rules[o.rule_id] = None
        value = Fraction(value)
        return (value.numerator, value.denominator), {label: (1, 1)}

    def best_action(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> str | None:
        """The decision this search takes in ``state`` (after ``solve``), if it had a choice there."""
        return self.policy.get((self._key(state)[0], cursor))


def _add(n1: int, d1: int, n2: int, d2: int) -> tuple[int, int]:
    """n1/d1 + n2/d2 (denominators positive), not reduced beyond a common denominator."""
    if d1 == d2:
        return n1 + n2, d1
    g = gcd(d1, d2)
    return n1 * (d2 // g) + n2 * (d1 // g), d1 // g * d2


def _reduce(n: int, d: int) -> tuple[int, int]:
    g = gcd(n, d)
    return (n // g, d // g) if g > 1 else (n, d)


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
