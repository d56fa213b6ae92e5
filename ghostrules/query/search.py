"""Exact odds and bounded search over an engine position (game-agnostic).

``Odds`` enumerates every chance node with its exact Fractions up to a horizon, plays the decisions
in between to maximise the value of the outcome, and memoises positions on their values and call
stack (the history is not part of a position; ``PositionTable``). In a loop of exchangeable rolls
(engine/liveness.py) it predicts a pass it has seen before instead of playing it, so another order of
the same faces costs a lookup. ``reachable`` searches decisions and chance outcomes for a goal within
a number of actions and returns a witness line.
"""

from __future__ import annotations

import gc
import operator
import sys
from collections.abc import Callable, Iterator
from math import gcd
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


def frames_live_key(state: State, frames: list[list[Any]], start: int = 0) -> tuple[Any, ...]:
    """``live_frames_key`` of the frames ``frames[start:]`` of the state, as one flat tuple: for each
    frame its procedure, its instruction, then the values of its live locals and the passes left in
    its counted loops. Flat is as exact as a tuple per frame: the procedure and the instruction fix
    how many items follow, so equal tuples are equal frame by frame."""
    keys = state.game.program.frame_keys
    out: list[Any] = []
    for i in range(start, len(frames)):
        proc, pc, L = frames[i]
        k = keys[proc]
        if k is None:
            out += (proc, pc, tuple(sorted(L.items())))
            continue
        names, loops = k[pc]
        out += (proc, pc)
        if names:
            out += map(L.get, names)
        if loops:
            out += [loop.passes_left(L) for loop in loops]
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
Result = tuple[tuple[int, int], dict[Any, tuple[int, int]]]


class TooLarge(Exception):
    """The search would visit more positions than its budget allows."""


def _nothing(values: list[int]) -> tuple[()]:
    return ()


class PositionTable:
    """The positions a search has met, each with what it found there.

    A position is its values, all of them, and a hashable rest (its frames as far as play can tell,
    the known-outcomes cursor): two entries are one position exactly when both are equal, as with a
    key ``(tuple(values), rest)``. Only the hashing differs: hashing all the slots (hundreds; most
    never change within one search) at every lookup would cost more than the rest of the search, so
    the table hashes the rest and a few *hot* slots, and compares the full values only within a
    bucket. Any choice of hot slots gives the same answers (positions equal in all slots are equal in
    the hot ones); it only decides how long buckets get. The table starts with none and, when a
    bucket grows past ``spread``, adds the slots in which that bucket's positions differ and rehashes.

    The value lists are kept, not copied: the search never changes a state it has keyed.
    """

    __slots__ = ("hot", "_pick", "_buckets", "spread", "size")

    def __init__(self, spread: int = 3) -> None:
        self.hot: tuple[int, ...] = ()
        self._pick: Callable[[list[int]], Any] = _nothing
        self._buckets: dict[Any, list[list[Any]]] = {}
        self.spread = spread
        self.size = 0

    def get(self, rest: Any, values: list[int]) -> list[Any] | None:
        """The entry ``[values, ...]`` of this position, or None."""
        bucket = self._buckets.get((rest, self._pick(values)))
        if bucket is not None:
            for entry in bucket:
                if entry[0] == values:
                    return entry
        return None

    def add(self, rest: Any, entry: list[Any]) -> None:
        """Add the entry ``[values, ...]`` of a position not in the table."""
        key = (rest, self._pick(entry[0]))
        bucket = self._buckets.get(key)
        self.size += 1
        if bucket is None:
            self._buckets[key] = [entry]
            return
        bucket.append(entry)
        if len(bucket) > self.spread:
            self._widen(bucket)

    def _widen(self, bucket: list[list[Any]]) -> None:
        hot = set(self.hot)
        hot.update(i for i, column in enumerate(zip(*(e[0] for e in bucket))) if column.count(column[0]) != len(column))
        if len(hot) == len(self.hot):  # no slot tells them apart (one position added twice): keep the hashing
            return
        self.hot = tuple(sorted(hot))
        self._pick = operator.itemgetter(*self.hot)
        old = self._buckets
        self._buckets = {}
        for (rest, _), entries in old.items():
            for entry in entries:
                self._buckets.setdefault((rest, self._pick(entry[0])), []).append(entry)

    def entries(self) -> Iterator[tuple[Any, list[Any]]]:
        """(rest, entry) for every position in the table."""
        for (rest, _), entries in self._buckets.items():
            for entry in entries:
                yield rest, entry


class Odds:
    """Exact expected value and distribution of leaf labels from a position, optimal decisions.

    With ``ceiling`` (the highest value a leaf can have, e.g. 1 for a probability) a decision stops
    looking at further options once one reaches it. ``budget`` bounds the positions visited.

    Positions are memoised (``PositionTable``) on their values, their frames as far as the rest of
    play can tell (``frames_live_key``) and the known-outcomes cursor; inside the horizon only the
    frames from the horizon's frame up count (those under it are the same in every such position)."""

    def __init__(self, horizon: Horizon, leaf: Leaf, known: KnownOutcomes | None = None,
                 ceiling: Fraction | None = None, budget: int = 20_000) -> None:
        self.horizon = horizon
        self.leaf = leaf
        self.known = known or KnownOutcomes()
        self.ceiling = ceiling
        self.budget = budget
        self.table = PositionTable()
        self.after = PositionTable()  # positions just after the last pass of an exchangeable roll loop
        self.learned: dict[tuple[Any, int, int], int] = {}  # (loop, face, old value of its slot) -> new value
        self.rules: dict[str, None] = {}
        self.positions = 0

    @property
    def policy(self) -> dict[Any, str]:
        """The decision taken at every position with a choice: (rest of its key, values) -> label."""
        return {(rest, tuple(entry[0])): entry[2] for rest, entry in self.table.entries() if entry[2] is not None}

    def solve(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> tuple[Fraction, dict[Any, Fraction]]:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        # The table keeps a list of values per position; the collector would walk them all again
        # and again (a tenth of the search's time), and the search makes no reference cycles.
        collecting = gc.isenabled()
        gc.disable()
        try:
            s = state.clone()
            s.tracing = False
            (n, d), dist = self._value(s, cursor)
            return Fraction(n, d), {label: Fraction(*q) for label, q in dist.items()}
        finally:
            if collecting:
                gc.enable()
            sys.setrecursionlimit(old)

    def key(self, s: State, cursor: tuple[tuple[str, int], ...] = ()) -> tuple[Any, bool]:
        """(the hashable part of the position's identity, whether it is inside the horizon); with
        ``s.values``, it identifies the position in this search."""
        hz = self.horizon
        if hz.inside(s):
            return (frames_live_key(s, s.stack, hz.depth - 1), cursor), True
        o = s.outcome()
        return (live_frames_key(s), (o.result, o.rule_id) if o else None, cursor), False

    # Inside the search a value or a probability is a pair (numerator, denominator) of ints, not yet
    # reduced: Fraction arithmetic would cost more than the rest of the search. solve() returns Fractions.
    def _value(self, s: State, cursor: tuple[tuple[str, int], ...]) -> Result:
        rest, inside = self.key(s, cursor)
        table = self.table
        values = s.values
        bucket = table._buckets.get((rest, table._pick(values)))  # PositionTable.get, inlined
        if bucket is not None:
            for entry in bucket:
                if entry[0] == values:
                    return entry[1]
        self.positions += 1
        if self.positions > self.budget:
            raise TooLarge(f"more than {self.budget} positions before the horizon")
        label = None
        out: Result
        if not inside:
            out = self._leaf(s)
        elif s.is_chance_node():
            out = self._chance(s, cursor, rest)
        else:
            actions = s.legal_actions()
            if len(actions) == 1:
                self.rules[actions[0].rule or s.node_rule()] = None
                out = self._value(s.child(actions[0]), cursor)
            elif self.horizon.mode == "decision":
                out = self._leaf(s)
            else:
                out, label = self._decision(s, actions, cursor)
        table.add(rest, [values, out, label])
        return out

    def _chance(self, s: State, cursor: tuple[tuple[str, int], ...], rest: Any = None) -> Result:
        self.rules[s.node_rule()] = None
        actions, weights, total, nxt = self.known.weights(s, cursor)
        num, den = 0, 1  # the sum of weight * value over the outcomes
        dist: dict[Any, tuple[int, int]] = {}
        rolls = self._rolls(s, rest) if rest is not None else None
        for action, w in zip(actions, weights):
            if rolls is not None:
                (vn, vd), d = self._roll(s, rolls, action, rest, nxt)
            else:
                (vn, vd), d = self._value(s.child(action), nxt)
            num, den = _add(num, den, w * vn, vd)
            for label, (qn, qd) in d.items():
                pn, pd = dist.get(label, (0, 1))
                dist[label] = _add(pn, pd, w * qn, qd)
        return _reduce(num, den * total), {label: _reduce(pn, pd * total) for label, (pn, pd) in dist.items()}

    # ---- exchangeable rolls (engine/liveness.py, ``exchangeable_cells``) -------------------------
    # In a loop whose passes each roll a die and then touch only the slot the face picks, a pass with
    # face x from values V gives V with that slot set to g(x, old value): the same for every position.
    # Seen once (``learned``, checked against the real child), it is predicted after that: the child's
    # key is then known without running it, and if the table has it (another order of the same faces
    # got there first) the child is not made at all. The last pass leaves the loop, so its child's key
    # is not known; the positions just after it are kept apart (``after``), under the key of the
    # position before the pass and the predicted values, which fix all the rest of play.
    def _rolls(self, s: State, rest: Any) -> tuple[Any, int] | None:
        """(the loop, the passes left after this one) when ``s`` is at the roll of such a loop."""
        proc, pc, L = s.stack[-1]
        keys = s.game.program.frame_keys[proc]
        if keys is None:
            return None
        loops = keys[pc][1]
        if not loops or loops[-1].cells is None or loops[-1].head + 1 != pc:
            return None
        loop = loops[-1]
        passes = loop.passes_left(L)
        if type(passes) is not int or rest[0][-1] != passes:  # (the key ends with it; else do not predict)
            return None
        return loop, passes

    def _roll(self, s: State, rolls: tuple[Any, int], action: Action, rest: Any,
              nxt: tuple[tuple[str, int], ...]) -> Result:
        loop, passes = rolls
        values = s.values
        cell = loop.cells.get(action.key[0])
        if cell is None:
            return self._value(s.child(action), nxt)
        seen = (loop, action.key[0], values[cell])
        g = self.learned.get(seen)
        if g is not None:
            predicted = values[:]
            predicted[cell] = g
            if passes:
                entry = self.table.get((rest[0][:-1] + (passes - 1,), nxt), predicted)
            else:
                entry = self.after.get((rest[0], nxt), predicted)
            if entry is not None:
                return entry[1]
        child = s.child(action)
        if passes and (g is None or child.values != predicted):  # (a prediction is checked when it can be)
            self._learn(s, child, seen, cell, (rest[0][:-1] + (passes - 1,), nxt))
        out = self._value(child, nxt)
        if g is not None and not passes:
            self.after.add((rest[0], nxt), [predicted, out, None])
        return out

    def _learn(self, s: State, child: State, seen: tuple[Any, int, int], cell: int, predicted_rest: Any) -> None:
        """Note g(face, old value) from a pass that stayed in the loop, after checking that the child
        is what the analysis says: the same values but that slot, at the roll again, with that key."""
        expected = s.values[:]
        expected[cell] = child.values[cell]
        top, here = child.stack[-1] if child.stack else None, s.stack[-1]
        if expected != child.values or top is None or top[0] != here[0] or top[1] != here[1] or \
                len(child.stack) != len(s.stack) or self.key(child, predicted_rest[1])[0] != predicted_rest or \
                self.learned.get(seen, child.values[cell]) != child.values[cell]:
            raise AssertionError(f"a pass of the loop at {s.game.program.procs[here[0]].name}:{here[1]} did not do "
                                 f"what engine/liveness.py proved (exchangeable rolls)")
        self.learned[seen] = child.values[cell]

    def _decision(self, s: State, actions: list[Action], cursor: tuple[tuple[str, int], ...]) -> tuple[Result, str]:
        self.rules[s.node_rule()] = None
        best: Result | None = None
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
        return best, best_label

    def _leaf(self, s: State) -> Result:
        value, label = self.leaf(s)
        o = s.outcome()
        if o is not None:
            self.rules[o.rule_id] = None
        value = Fraction(value)
        return (value.numerator, value.denominator), {label: (1, 1)}

    def best_action(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> str | None:
        """The decision this search takes in ``state`` (after ``solve``), if it had a choice there."""
        entry = self.table.get(self.key(state, cursor)[0], state.values)
        return entry[2] if entry is not None else None


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
