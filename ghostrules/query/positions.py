"""What identifies a position in a search (game-agnostic): the frames as far as the rest of play can
tell (engine/liveness.py), the table of positions met, the horizon of a question and the chance
outcomes it assumes. Used by the odds search (``search.py``) and by ``reach.py``."""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable, Iterator
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
    how many items follow, so equal tuples are equal frame by frame. (Each frame's part comes from a
    function made once per procedure and instruction, ``_frame_key_fns``.)"""
    fns = _frame_key_fns(state.game.program)
    out: tuple[Any, ...] = ()
    for i in range(start, len(frames)):
        proc, pc, L = frames[i]
        out += fns[proc][pc](L)
    return out


_KEY_FNS: weakref.WeakKeyDictionary[Any, tuple[Any, list[list[Callable[[dict[str, Any]], tuple[Any, ...]]]]]] = \
    weakref.WeakKeyDictionary()


def _frame_key_fns(program: Any) -> list[list[Callable[[dict[str, Any]], tuple[Any, ...]]]]:
    """For each procedure and instruction, the function of a frame's locals that gives its part of
    ``frames_live_key``: (procedure, instruction, the live locals' values (None if unset), the
    passes left in each counted loop around it), or with every local, sorted, when the procedure's
    reads are not known (``frame_keys`` None). Made again if ``program.frame_keys`` is replaced."""
    hit = _KEY_FNS.get(program)
    if hit is not None and hit[0] is program.frame_keys:
        return hit[1]
    fns = []
    for proc, keys in enumerate(program.frame_keys):
        if keys is None:
            fns.append([_all_locals(proc, pc) for pc in range(len(program.procs[proc].code))])
        else:
            fns.append([_live_locals(proc, pc, names, loops) for pc, (names, loops) in enumerate(keys)])
    _KEY_FNS[program] = (program.frame_keys, fns)
    return fns


def _all_locals(proc: int, pc: int) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    return lambda L: (proc, pc, tuple(sorted(L.items())))


def _live_locals(proc: int, pc: int, names: tuple[str, ...], loops: tuple[Any, ...]) -> Callable[[dict[str, Any]],
                                                                                                  tuple[Any, ...]]:
    """The frame's key function: (proc, pc, the live locals' values, the counted loops' passes left).
    The usual small cases are plain closures (no loop over the names at run time)."""
    if not loops:
        if not names:
            head = (proc, pc)
            return lambda L: head
        if len(names) == 1:
            (a,) = names
            return lambda L: (proc, pc, L.get(a))
        if len(names) == 2:
            a, b = names
            return lambda L: (proc, pc, L.get(a), L.get(b))
        if len(names) == 3:
            a, b, c = names
            return lambda L: (proc, pc, L.get(a), L.get(b), L.get(c))
    return lambda L: (proc, pc, *map(L.get, names), *[loop.passes_left(L) for loop in loops])


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

    __slots__ = ("_buckets", "_pick", "hot", "size", "spread")

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

    def add(self, rest: Any, entry: list[Any], at: Any = None) -> None:
        """Add the entry ``[values, ...]`` of a position not in the table (``at``: its bucket's key,
        ``(rest, hot slots of the values)``, if known since the last change of ``hot``)."""
        key = at if at is not None else (rest, self._pick(entry[0]))
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
