"""Exact odds over an engine position (game-agnostic).

``Odds`` enumerates every chance node with its exact Fractions up to a horizon, plays the decisions
in between to maximise the value of the outcome, and memoises positions on their values and call
stack (the history is not part of a position; ``positions.PositionTable``). In a loop of
exchangeable rolls (engine/liveness.py) it predicts the passes from ones it has seen: the positions
inside the loop are searched on their keys and values without a State, and only the pass that leaves
the loop is played on the engine. ``reachable`` and ``Sampler`` (reach.py), and the keys and the
table (positions.py), are importable from here as before.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable
from fractions import Fraction
from math import gcd
from typing import Any

from ..engine import RULES, Action, State
from ..engine.collector import collector_paused
from .positions import (  # noqa: F401
    Horizon,
    KnownOutcomes,
    PositionTable,
    TooLarge,
    _frame_key_fns,
    frames_key,
    frames_live_key,
    live_frames_key,
    node_of,
    position_key,
)
from .reach import Sampler, Witness, reachable  # noqa: F401 - (they lived here)

Leaf = Callable[[State], tuple[Fraction, Any]]
Result = tuple[tuple[int, int], dict[Any, tuple[int, int]]]


class Odds:
    """Exact expected value and distribution of leaf labels from a position, optimal decisions.

    With ``ceiling`` (the highest value a leaf can have, e.g. 1 for a probability) a decision stops
    looking at further options once one reaches it. ``budget`` bounds the positions visited.

    Positions are memoised (``PositionTable``) on their values, their frames as far as the rest of
    play can tell (``frames_live_key``) and the known-outcomes cursor; inside the horizon only the
    frames from the horizon's frame up count (those under it are the same in every such position).

    With ``cite_log`` the positions are traced for their rules alone (``tracing = RULES``) and
    ``logged`` gathers the rules of the log entries each step between them writes before the
    horizon's frame returns (``State.take_rules``): what acted on the way, such as a reduction said by
    a ``say`` whose effect lives in a definition, or a set, a move, an option taken without a choice.
    Without it the search runs untraced, and ``rules`` has the rules of the nodes met only."""

    def __init__(self, horizon: Horizon, leaf: Leaf, known: KnownOutcomes | None = None,
                 ceiling: Fraction | None = None, budget: int = 20_000, cite_log: bool = False) -> None:
        self.horizon = horizon
        self.cite_log = cite_log
        self.logged: dict[str, None] = {}
        self.leaf = leaf
        self.known = known or KnownOutcomes()
        self.ceiling = ceiling
        self.budget = budget
        self.table = PositionTable()
        # exchangeable roll loops (``_passes``): the loops' slots; the value of each position at a roll
        # of such a loop, keyed on (rest of its key, its values as (base, values of the loop's slots));
        # the value of the position just after the last pass, keyed on the position before and the
        # values after
        self._roll_of: dict[Any, _Roll] = {}
        self._seen: dict[Any, Result] = {}
        self.after: dict[Any, Result] = {}
        self._tags: dict[Any, int] = {}
        self._fns: list[list[Callable[[dict[str, Any]], tuple[Any, ...]]]] | None = None  # _frame_key_fns
        self.learned: dict[tuple[Any, int, int], int] = {}  # (loop, face, old value of its slot) -> new value
        self.rules: dict[str, None] = {}
        # the procedures running at the chance nodes met (the calls that rolled or drew): their rules
        # are what a roll means (``chance_procs``)
        self._chance_stacks: set[tuple[int, ...]] = set()
        self.positions = 0
        self.played = 0  # passes of exchangeable roll loops played on the engine (the others predicted)
        self.unplayed = 0  # positions searched on their predicted key and values alone, without a State
        # a private state at the roll of such a loop for each key met, its values overwritten at will
        # (``_at``); never keyed, never in the table
        self._private: dict[Any, State] = {}
        self._private_base: dict[Any, int | None] = {}  # the base of its values now, if known

    def chance_procs(self) -> list[int]:
        """The procedures (ids, outermost first, each once) running at the chance nodes met, from the
        horizon's frame up: e.g. the exorcism and its dice roll, the attack and its rolls."""
        start = self.horizon.depth - 1
        seen: dict[int, None] = {}
        for stack in sorted(self._chance_stacks):
            for proc in stack[start:]:
                seen[proc] = None
        return list(seen)

    @property
    def policy(self) -> dict[Any, str]:
        """The decision taken at every position with a choice: (rest of its key, values) -> label."""
        return {(rest, tuple(entry[0])): entry[2] for rest, entry in self.table.entries() if entry[2] is not None}

    def solve(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> tuple[Fraction, dict[Any, Fraction]]:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        # The table keeps a list of values per position; the collector would walk them all again
        # and again (a tenth of the search's time), and the search makes no reference cycles.
        try:
            with collector_paused():
                s = state.clone()
                s.tracing = RULES if self.cite_log else False
                s.take_rules(0)  # (what led to the start is the caller's to cite)
                (n, d), dist = self._value(s, cursor)
            return Fraction(n, d), {label: Fraction(*q) for label, q in dist.items()}
        finally:
            sys.setrecursionlimit(old)

    def key(self, s: State, cursor: tuple[tuple[str, int], ...] = ()) -> tuple[Any, bool]:
        """(the hashable part of the position's identity, whether it is inside the horizon); with
        ``s.values``, it identifies the position in this search."""
        hz = self.horizon
        if hz.inside(s):
            return (frames_live_key(s, s.stack, hz.depth - 1), cursor), True
        o = s.outcome()
        return (live_frames_key(s), (o.result, o.rule_id) if o else None, cursor), False

    def _cite(self, s: State) -> None:
        """The rules of the entries ``s`` logged since it was last looked at, up to the horizon."""
        logged = self.logged
        for rule in s.take_rules(self.horizon.depth):
            logged[rule] = None

    # Inside the search a value or a probability is a pair (numerator, denominator) of ints, not yet
    # reduced: Fraction arithmetic would cost more than the rest of the search. solve() returns Fractions.
    def _value(self, s: State, cursor: tuple[tuple[str, int], ...]) -> Result:
        if self.cite_log:
            self._cite(s)
        hz = self.horizon  # rest, inside = self.key(s, cursor), inlined
        st = s.stack
        depth = hz.depth
        o = s.outcome()
        if o is None and len(st) >= depth and st[depth - 1][0] == hz.proc and \
                (st[:depth - 1] == hz.below if hz.below is not None else hz.inside(s)):
            fns = self._fns  # frames_live_key(s, st, depth - 1), inlined
            if fns is None:
                fns = self._fns = _frame_key_fns(s.game.program)
            flat: tuple[Any, ...] = ()
            for i in range(depth - 1, len(st)):
                proc, pc, L = st[i]
                flat += fns[proc][pc](L)
            rest = (flat, cursor)
            inside = True
        else:
            rest = (live_frames_key(s), (o.result, o.rule_id) if o else None, cursor)
            inside = False
        table = self.table
        values = s.values
        hot = table.hot
        at = (rest, table._pick(values))
        bucket = table._buckets.get(at)  # PositionTable.get, inlined
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
        table.add(rest, [values, out, label], at if table.hot is hot else None)
        return out

    def _chance(self, s: State, cursor: tuple[tuple[str, int], ...], rest: Any = None) -> Result:
        self.rules[s.node_rule()] = None
        self._chance_stacks.add(tuple([f[0] for f in s.stack]))
        actions, weights, total, nxt = self.known.weights(s, cursor)
        rolls = self._rolls(s, rest) if rest is not None and nxt == cursor else None
        if rolls is not None:
            roll = self._roll_of.get(rolls[0])
            if roll is None:
                roll = self._roll_of[rolls[0]] = _Roll(rolls[0])
            values = s.values
            return self._passes(roll, rolls[1], rest, roll.read(values), roll.base(values), actions, weights, total,
                                s, values)
        num, den = 0, 1  # the sum of weight * value over the outcomes
        dist: dict[Any, tuple[int, int]] = {}
        for action, w in zip(actions, weights):
            num, den = _weigh(num, den, dist, w, self._value(s.child(action), nxt))
        return _reduce(num, den * total), {label: _reduce(pn, pd * total) for label, (pn, pd) in dist.items()}

    # ---- exchangeable rolls (engine/liveness.py, ``exchangeable_cells``) -------------------------
    # In a loop whose passes each roll a die and then touch only the slot the face picks, a pass with
    # face x from values V gives V with that slot set to g(x, old value): the same for every position,
    # and the frames stay as they were but for the passes left. Seen once on the engine (``learned``,
    # checked against the real child, ``_learn``), a pass is predicted after that: the positions at
    # the roll inside the loop are then searched on their values and predicted keys alone, without a
    # State (``_passes``). Only the last pass leaves the loop, so only it is played on the engine, from
    # a private state at the last roll given the predicted values (``_at``); the positions just after
    # it are kept apart (``after``), under the key of the position before the pass and the predicted
    # values, which fix all the rest of play.
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

    def _passes(self, roll: _Roll, passes: int, rest: Any, cells: tuple[int, ...], base: int,
                actions: list[Action], weights: list[int], total: int, entry: State,
                values: list[int] | None = None) -> Result:
        """The value of the position at the roll of an exchangeable loop with ``passes`` left after
        this one, key ``rest``, values ``roll.full(base, cells)`` (``values``, if already made);
        ``entry`` is the real state where the search entered the loop (at that roll, perhaps with
        more passes left). The roll's outcomes are the same at every pass."""
        loop = roll.loop
        learned = self.learned
        index = roll.index
        cursor = rest[1]
        tags = self._tags  # a rest of a key -> a small number, hashed faster in the keys below
        if passes:
            nrest = (rest[0][:-1] + (passes - 1,), cursor)  # one pass less, the same frames (liveness.py)
            tag = tags.get(nrest)
            if tag is None:
                tag = tags[nrest] = len(tags)
            known: dict[Any, Result] = self._seen
        else:
            tag = tags.get(rest)
            if tag is None:
                tag = tags[rest] = len(tags)
            known = self.after
        num, den = 0, 1
        dist: dict[Any, tuple[int, int]] = {}
        for action, w in zip(actions, weights):
            face = action.key[0]
            i = index.get(face)
            g = learned.get((loop, face, cells[i])) if i is not None else None
            if g is None and i is not None:
                if values is None:
                    values = roll.full(base, cells)
                g = self._learn(loop, face, action, values, roll.cells[i], entry, cursor)
            if g is None:  # not predictable: this pass on the engine
                here = self._at(entry, rest, values, actions[0], (roll, base, cells))
                out = self._value(here.child(action), cursor)
            else:
                after = cells if g == cells[i] else cells[:i] + (g,) + cells[i + 1:]
                out = known.get((tag, base, after))
                if out is None:
                    if passes:  # first met here: perhaps met in play (a real state), else searched now
                        predicted = roll.full(base, after)
                        hit = self.table.get(nrest, predicted)
                        if hit is not None:
                            out = hit[1]
                        else:
                            self.positions += 1
                            self.unplayed += 1
                            if self.positions > self.budget:
                                raise TooLarge(f"more than {self.budget} positions before the horizon")
                            out = self._passes(roll, passes - 1, nrest, after, base, actions, weights, total, entry,
                                               predicted)
                            self.table.add(nrest, [predicted, out, None])
                    else:  # the last pass, on the engine: the position after it is keyed on the one before
                        here = self._at(entry, rest, values, actions[0], (roll, base, cells))
                        out = self._value(here.child(action), cursor)
                        self.played += 1
                    known[(tag, base, after)] = out
            num, den = _weigh(num, den, dist, w, out)
        return _reduce(num, den * total), {label: _reduce(pn, pd * total) for label, (pn, pd) in dist.items()}

    def _at(self, entry: State, rest: Any, values: list[int] | None, step: Action,
            shape: tuple[_Roll, int, tuple[int, ...]] | None = None) -> State:
        """A state at the position (``rest``, ``values``) at the roll of the loop ``entry`` is in: a
        private state with that key (made once from ``entry``, playing passes with the outcome
        ``step`` until as many are left; its key checked) given these values. Its dead locals may
        differ from those of a state reached in play; its key and values, all the rest of play reads,
        do not. ``shape``: the values as ``_passes`` keeps them, (loop, base, its slots' values)
        (``values`` may then be None); when the private state's last values had that base, only the
        loop's slots are written."""
        private = self._private.get(rest)
        if private is None:
            private = entry.clone()
            private.tracing = RULES if self.cite_log else False
            want = rest[0][-1]
            key = self.key(private, rest[1])[0]
            while key != rest:
                left = key[0][-1]
                if type(left) is not int or left <= want or key[0][:-1] != rest[0][:-1]:
                    raise AssertionError(_broken(entry))
                private = private.child(step)
                self.played += 1
                key = self.key(private, rest[1])[0]
            private.take_rules(0)  # (passes played only to reach the key: their lines are searched anyway)
            self._private[rest] = private
            self._private_base[rest] = None
        if shape is not None and self._private_base[rest] == shape[1]:
            pv = private.values
            for cell, x in zip(shape[0].cells, shape[2]):
                pv[cell] = x
        else:
            private.values[:] = values if values is not None else shape[0].full(shape[1], shape[2])  # type: ignore[index]
            self._private_base[rest] = shape[1] if shape is not None else None
        return private

    def _learn(self, loop: Any, face: int, action: Action, values: list[int], cell: int, entry: State,
               cursor: tuple[tuple[str, int], ...]) -> int | None:
        """g(face, values[cell]), from a pass on the engine from the entry's position given these
        values, after checking that the child is what the analysis says: the same values but that
        slot, at the roll again, with the key of one pass less. None when the entry is at the last
        pass (the child leaves the loop and cannot be checked)."""
        erest = self.key(entry, cursor)[0]
        passes = erest[0][-1]
        if not passes:
            return None
        here = self._at(entry, erest, values, action)
        child = here.child(action)
        self.played += 1
        if self.cite_log:
            self._cite(child)
        expected = values[:]
        expected[cell] = child.values[cell]
        top, at = child.stack[-1] if child.stack else None, here.stack[-1]
        if expected != child.values or top is None or top[0] != at[0] or top[1] != at[1] or \
                len(child.stack) != len(here.stack) or self.key(child, cursor)[0] != (erest[0][:-1] + (passes - 1,), cursor):
            raise AssertionError(_broken(entry))
        self.learned[(loop, face, values[cell])] = child.values[cell]
        return child.values[cell]

    def _decision(self, s: State, actions: list[Action], cursor: tuple[tuple[str, int], ...]) -> tuple[Result, str]:
        self.rules[s.node_rule()] = None
        best: Result | None = None
        best_label = ""
        bn, bd = 0, 1
        ceiling = self.ceiling
        cn, cd = (ceiling.numerator, ceiling.denominator) if ceiling is not None else (0, 0)
        for action in actions:
            v = self._value(s.child(action), cursor)
            vn, vd = v[0]
            if best is None or vn * bd > bn * vd:
                best, best_label = v, action.label
                bn, bd = vn, vd
            if cd and vn * cd >= cn * vd:
                break
        assert best is not None
        return best, best_label

    def _leaf(self, s: State) -> Result:
        value, label = self.leaf(s)
        o = s.outcome()
        if o is not None:
            self.rules[o.rule_id] = None
        if not isinstance(value, Fraction):
            value = Fraction(value)
        return (value.numerator, value.denominator), {label: (1, 1)}

    def best_action(self, state: State, cursor: tuple[tuple[str, int], ...] = ()) -> str | None:
        """The decision this search takes in ``state`` (after ``solve``), if it had a choice there."""
        entry = self.table.get(self.key(state, cursor)[0], state.values)
        return entry[2] if entry is not None else None


class _Roll:
    """The slots of an exchangeable roll loop (``loop.cells``), and the values of the positions at its
    rolls as (base, the values of those slots): passes change only those slots, so all the positions
    of one entry into the loop share the rest of their values, a *base*, numbered once per content."""

    __slots__ = ("bases", "cells", "index", "loop", "read")

    def __init__(self, loop: Any) -> None:
        self.loop = loop
        self.cells: tuple[int, ...] = tuple(sorted(set(loop.cells.values())))
        at = {cell: i for i, cell in enumerate(self.cells)}
        self.index: dict[int, int] = {face: at[cell] for face, cell in loop.cells.items()}  # face -> its slot's place
        pick = operator.itemgetter(*self.cells)
        self.read: Callable[[list[int]], tuple[int, ...]] = pick if len(self.cells) > 1 else lambda v: (pick(v),)
        self.bases: list[list[int]] = []  # never changed (the values of states the search keeps)

    def base(self, values: list[int]) -> int:
        """The number of the base of ``values``: equal outside the loop's slots, equal numbers."""
        for i, b in enumerate(self.bases):
            same = values[:]
            for cell in self.cells:
                same[cell] = b[cell]
            if same == b:
                return i
        self.bases.append(values)
        return len(self.bases) - 1

    def full(self, base: int, cells: tuple[int, ...]) -> list[int]:
        """The values with that base and these values of the loop's slots (a new list)."""
        v = self.bases[base][:]
        for cell, x in zip(self.cells, cells):
            v[cell] = x
        return v


def _broken(s: State) -> str:
    here = s.stack[-1]
    return (f"a pass of the loop at {s.game.program.procs[here[0]].name}:{here[1]} did not do what "
            f"engine/liveness.py proved (exchangeable rolls)")


def _add(n1: int, d1: int, n2: int, d2: int) -> tuple[int, int]:
    """n1/d1 + n2/d2 (denominators positive), not reduced beyond a common denominator."""
    if d1 == d2:
        return n1 + n2, d1
    g = gcd(d1, d2)
    return n1 * (d2 // g) + n2 * (d1 // g), d1 // g * d2


def _weigh(num: int, den: int, dist: dict[Any, tuple[int, int]], w: int, out: Result) -> tuple[int, int]:
    """Add ``w`` times an outcome's (value, distribution) ``out`` to the running sum ``num / den``
    (returned) and to ``dist`` (in place); not reduced beyond a common denominator."""
    (vn, vd), d = out
    if vd == den:  # (_add, inlined for the common case of one denominator)
        num += w * vn
    else:
        num, den = _add(num, den, w * vn, vd)
    for label, (qn, qd) in d.items():
        p = dist.get(label)
        if p is None:
            dist[label] = (w * qn, qd)
        elif p[1] == qd:
            dist[label] = (p[0] + w * qn, qd)
        else:
            dist[label] = _add(p[0], p[1], w * qn, qd)
    return num, den


def _reduce(n: int, d: int) -> tuple[int, int]:
    g = gcd(n, d)
    return (n // g, d // g) if g > 1 else (n, d)
