"""Which locals of a frame can still matter: a backward liveness analysis of each procedure.

A local is *live* at an instruction when some path from there reads it before writing it. Two
frames of the same procedure at the same instruction whose live locals are equal behave the same
from then on, whatever their dead locals hold (the last face of a finished loop, a counter of a
loop that has exited). Searches use this to recognise one position reached in several ways
(``query/search.py``, ``frames_live_key``); nothing in the run of a game depends on it.

Its forward counterpart, ``bound_locals``, says which locals are *bound* at an instruction (on every
way from the procedure's start there; ``Program.bound_locals`` keeps them): the compiled blocks read
those once at a block's start (engine/blocks.py), and ``Game.state_from_json`` refuses a frame that
lacks one.

The reads of an instruction come from its compiled functions (``compile_expr.reads``). A function
whose reads are unknown makes every local of its procedure live everywhere (the safe answer).

Counted loops (``CountedLoop``) are keyed by the passes they have left; among them, loops of
*exchangeable rolls* (``exchangeable_cells``), whose passes commute, let a search predict a pass
from one it has seen.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from .compile_expr import reads
from .program import (CallI, EndI, ForInitI, ForNextI, JumpI, JumpIfNotI, LetI, MenuI, MoveI, Procedure, RandomI,
                      RequireI, RetI, RollI, SayI, SetI)


class _Unknown(Exception):
    """An instruction reads locals that cannot be listed."""


def _r(fn: Any) -> frozenset[str]:
    if fn is None:
        return frozenset()
    names = reads(fn)
    if names is None:
        raise _Unknown
    return names


def _rs(fns: Any) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for fn in fns or ():
        out |= _r(fn)
    return out


def _edges(code: list[Any], pc: int) -> tuple[frozenset[str], list[tuple[int, frozenset[str]]]]:
    """(locals read by instruction pc, [(successor pc, locals it writes on that edge)])."""
    ins = code[pc]
    t = type(ins)
    none: frozenset[str] = frozenset()
    if t is JumpIfNotI:
        return _r(ins.cond), [(pc + 1, none), (ins.target, none)]
    if t is JumpI:
        return none, [(ins.target, none)]
    if t is SetI:
        return _r(ins.index) | _r(ins.value), [(pc + 1, none)]
    if t is MoveI:
        return _r(ins.src) | _r(ins.dst) | _r(ins.amount), [(pc + 1, none)]
    if t is LetI:
        return _r(ins.value), [(pc + 1, frozenset((ins.name,)))]
    if t is ForInitI:
        return none, [(pc + 1, frozenset((ins.counter,)))]
    if t is ForNextI:
        # the loop variable is bound before the filter is tested, so the filter's read of it is not
        # a read of the old value; on exit the counter is removed, the variable may keep its old value
        used = frozenset((ins.counter,)) | _rs(ins.item_fns) | (_r(ins.cond) - {ins.var})
        return used, [(pc + 1, frozenset((ins.var, ins.counter))), (ins.exit, frozenset((ins.counter,)))]
    if t is CallI:
        return _r(ins.make) | _rs(f for _, f in ins.args or ()), [(pc + 1, none)]
    if t is SayI:
        return _r(ins.text), [(pc + 1, none)]
    if t is RequireI:
        return _r(ins.cond), [(pc + 1, none)]
    if t is RetI:
        return none, []
    if t is EndI:
        return _r(ins.text), []
    if t is RollI:
        return none, [(pc + 1, frozenset((ins.var,)))]
    if t is RandomI:
        used = _r(ins.members) | _rs(ins.item_fns) | (_r(ins.cond) - {ins.var})
        return used, [(pc + 1, frozenset((ins.var,)))]
    if t is MenuI:
        used = _r(ins.by) | _r(ins.show)
        succ = []
        for opt in ins.options:
            own = frozenset((opt.var,)) if opt.var is not None else none
            used |= _r(opt.members) | _rs(opt.item_fns) | ((_r(opt.cond) | _r(opt.label)) - own)
            succ.append((opt.target, own))
        return used, succ
    raise _Unknown


def _solve(edges: list[tuple[frozenset[str], list[tuple[int, frozenset[str]]]]]) -> list[frozenset[str]]:
    n = len(edges)
    live: list[frozenset[str]] = [frozenset()] * n
    changed = True
    while changed:  # to the fixed point; procedures are short
        changed = False
        for pc in range(n - 1, -1, -1):
            used, succ = edges[pc]
            out = used
            for target, written in succ:
                if 0 <= target < n:
                    out = out | (live[target] - written)
            if out != live[pc]:
                live[pc] = out
                changed = True
    return live


class CountedLoop:
    """A loop whose progress a position key may state as the number of passes left.

    ``for x in [constants] if cond`` where the body reads neither ``x`` nor the loop's counter, and
    ``cond`` reads no slot and only locals the body does not write: the passes still to come are
    then fixed by the counter and those locals, and only their number matters, so (counter, locals)
    pairs that leave the same number of passes make the same position (three dice rolled of four,
    or one of two, both leave one die to roll)."""

    __slots__ = ("head", "exit", "counter", "var", "values", "cond", "cond_locals", "_counts", "cells")

    def __init__(self, head: int, ins: ForNextI, values: tuple[int, ...], cond_locals: tuple[str, ...]) -> None:
        self.head, self.exit, self.counter, self.var = head, ins.exit, ins.counter, ins.var
        self.values, self.cond, self.cond_locals = values, ins.cond, cond_locals
        self._counts: dict[tuple[Any, ...], int] = {}
        # for a loop of exchangeable rolls (``exchangeable_cells``): outcome -> the one slot its pass
        # reads and writes; None otherwise
        self.cells: dict[int, int] | None = None

    def passes_left(self, L: dict[str, Any]) -> Any:
        at = (L.get(self.counter), *map(L.get, self.cond_locals))
        hit = self._counts.get(at)
        if hit is None:
            if None in at:  # not inside the loop as expected: state the raw values
                return ("raw", at)
            i = at[0]
            if self.cond is None:
                hit = len(self.values) - i
            else:
                scope = dict(zip(self.cond_locals, at[1:]))
                hit = 0
                for x in self.values[i:]:
                    scope[self.var] = x
                    if self.cond([], scope):
                        hit += 1
            self._counts[at] = hit
        return hit


_READS_SLOTS = re.compile(r"\bv\b")


def _constant_items(ins: ForNextI) -> tuple[int, ...] | None:
    if ins.values is not None:
        return tuple(ins.values)
    out = []
    for fn in ins.item_fns:
        code = getattr(fn, "code", None)
        if code is None or reads(fn) != frozenset() or _READS_SLOTS.search(code):
            return None
        out.append(fn([], {}))
    return tuple(out)


def _writes(ins: Any) -> set[str]:
    t = type(ins)
    if t is LetI:
        return {ins.name}
    if t is ForInitI:
        return {ins.counter}
    if t is ForNextI:
        return {ins.var, ins.counter}
    if t is RollI or t is RandomI:
        return {ins.var}
    if t is MenuI:
        return {o.var for o in ins.options if o.var is not None}
    return set()


def exchangeable_cells(code: list[Any], head: int, exit: int, live: list[frozenset[str]]) -> dict[int, int] | None:
    """The passes of a counted loop that rolls a die first and then touches one slot that the face picks.

    For ``for k in [...] if ...: roll d as r; <body>`` (``head`` the loop's head, the roll at ``head + 1``)
    whose body holds only sets, conditional and plain jumps within the loop and says, where every
    compiled function reads no local but ``r`` and reads or writes the slots only at one index
    ``h(r)`` (the same expression everywhere, of ``r`` alone), ``h`` taking the die's faces to distinct
    slots, and ``r`` is dead at the head and at the exit, returns {face: h(face)}; otherwise None.

    Then a pass with face x changes only the slot h(x), to a value that depends on x and that slot's
    old value alone, and ends where it began (or leaves the loop): passes with different faces touch
    different slots, so any order of the same faces gives the same values, and a search can predict a
    pass from one it has seen with the same face and the same old value of h(face). (``say`` only
    writes the log, which searches turn off.)"""
    n = len(code)
    roll = code[head + 1] if head + 1 < n else None
    if type(roll) is not RollI or roll.var in live[head] or (exit < n and roll.var in live[exit]):
        return None
    r = roll.var
    dump = None  # the one index expression, as an ast dump
    setter: Any = None  # the compiled index of a set: it computes h(r)
    wrote = False
    todo = [head + 2]  # the instructions a pass runs after the roll: each must come back to the head
    seen = set()
    while todo:
        pc = todo.pop()
        if pc == head or pc in seen:
            continue
        if not head + 2 <= pc < exit:
            return None
        seen.add(pc)
        ins = code[pc]
        t = type(ins)
        if t is SayI:
            todo.append(pc + 1)
            continue
        if t is JumpI:
            todo.append(ins.target)
            continue
        if t is JumpIfNotI:
            todo += (pc + 1, ins.target)
            fns = [ins.cond]
        elif t is SetI:
            todo.append(pc + 1)
            fns = [ins.value]
            node = _parse(ins.index)
            if node is None or not _cell_free(node, r):
                return None
            setter = ins.index
            if dump is None:
                dump = ast.dump(node)
            elif ast.dump(node) != dump:
                return None
            wrote = True
        else:
            return None
        for fn in fns:
            node = _parse(fn)
            found: list[ast.expr] = []
            if node is None or not _reads_one_cell(node, r, found):
                return None
            for idx in found:
                if dump is None:
                    dump = ast.dump(idx)
                elif ast.dump(idx) != dump:
                    return None
    if not wrote:
        return None
    cells = {}
    for face in roll.keys:
        try:  # the set's own compiled index computes h: it reads no slot, no local but r (checked above)
            cell = setter((), {r: face})
        except Exception:  # noqa: BLE001 - an outcome the index rejects: not this pattern
            return None
        if type(cell) is not int:
            return None
        cells[face] = cell
    if len(set(cells.values())) != len(cells):
        return None
    return cells


def _parse(fn: Any) -> ast.expr | None:
    """The expression of a function compiled by ``compile_expr`` (None for any other function)."""
    code = getattr(fn, "code", None)
    if code is None:
        return None
    try:
        return ast.parse(code, mode="eval").body
    except SyntaxError:
        return None


def _cell_free(node: ast.AST, r: str) -> bool:
    """Does ``node`` read no slot, and no local but ``L['r']``?"""
    return _reads_one_cell(node, r, None)


# What generated expressions (compile_expr) may name besides ``v`` (the slots) and ``L`` (the locals):
# constants ``_kN`` (data, never called), quantifier variables ``_qN``, and functions of their
# arguments alone. Anything else (a definition ``_dN(v, ...)``, an attribute, a name not listed
# here) makes the analysis answer None: it trusts only what it can read.
_PURE_CALLS = frozenset({"_bad", "_ck", "_within", "_within_list", "_div", "_mod", "_label", "min", "max", "abs",
                         "len", "sum", "any", "all", "next", "range", "str"})
_DATA = re.compile(r"_[kq]\d+\Z")


def _reads_one_cell(node: ast.AST, r: str, found: list[ast.expr] | None) -> bool:
    """Every use of ``v`` in ``node`` is ``v[i]`` with ``i`` free of slots and of locals but ``r`` (each
    such ``i`` goes to ``found``; with ``found`` None, no use of ``v`` at all), every use of ``L`` is
    ``L['r']``, and nothing else reaches the state (see ``_PURE_CALLS``)."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        if node.value.id == "v":
            if found is None or isinstance(node.slice, ast.Slice) or not _cell_free(node.slice, r):
                return False
            found.append(node.slice)
            return True
        if node.value.id == "L":
            return isinstance(node.slice, ast.Constant) and node.slice.value == r
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in _PURE_CALLS or node.keywords:
            return False
        return all(_reads_one_cell(arg, r, found) for arg in node.args)
    if isinstance(node, ast.Name):
        return _DATA.match(node.id) is not None or node.id in ("True", "False", "None")
    if isinstance(node, (ast.Attribute, ast.Lambda, ast.NamedExpr, ast.Starred, ast.Await, ast.Yield, ast.YieldFrom)):
        return False
    return all(_reads_one_cell(child, r, found) for child in ast.iter_child_nodes(node))


def frame_keys(proc: Procedure) -> list[tuple[tuple[str, ...], tuple[CountedLoop, ...]]] | None:
    """What a position key takes from a frame of ``proc`` at each instruction: (the live locals, the
    counted loops (``CountedLoop``) it is inside). None: every local counts (reads not known)."""
    code = proc.code
    n = len(code)
    try:
        edges = [_edges(code, pc) for pc in range(n)]
    except _Unknown:
        return None
    live = _solve(edges)
    loops: dict[int, CountedLoop] = {}
    for head, ins in enumerate(code):
        if type(ins) is not ForNextI or not head < ins.exit <= n:
            continue
        body = range(head + 1, ins.exit)
        # structured: the body is entered only through the head and leaves only to the head or the exit
        if any(t not in range(head, ins.exit + 1) for pc in body for t, _ in edges[pc][1]) or \
                any(t in body for pc in range(n) if pc not in body and pc != head for t, _ in edges[pc][1]):
            continue
        if ins.var in live[head + 1] or (ins.exit < n and ins.var in live[ins.exit]):
            continue
        values = _constant_items(ins)
        if values is None:
            continue
        cond_locals: tuple[str, ...] = ()
        if ins.cond is not None:
            code_text = getattr(ins.cond, "code", None)
            names = reads(ins.cond)
            if code_text is None or names is None or _READS_SLOTS.search(code_text):
                continue
            cond_locals = tuple(sorted(names - {ins.var}))
            if any(set(cond_locals) & _writes(code[pc]) for pc in body):
                continue
        loops[head] = CountedLoop(head, ins, values, cond_locals)
        loops[head].cells = exchangeable_cells(code, head, ins.exit, live)
    if not loops:
        return [(tuple(sorted(x)), ()) for x in live]
    # inside counted loops, their heads read neither the counter nor the locals of the condition:
    # the numbers of passes left stand for them (other loops' heads read as usual)
    solved: dict[tuple[int, ...], list[frozenset[str]]] = {(): live}
    out: list[tuple[tuple[str, ...], tuple[CountedLoop, ...]]] = []
    for pc in range(n):
        around = tuple(loop for head, loop in sorted(loops.items()) if head <= pc < loop.exit)
        heads = tuple(loop.head for loop in around)
        if heads not in solved:
            counted = list(edges)
            for loop in around:
                used, succ = counted[loop.head]
                counted[loop.head] = (used - {loop.counter} - set(loop.cond_locals), succ)
            solved[heads] = _solve(counted)
        out.append((tuple(sorted(solved[heads][pc])), around))
    return out


def bound_locals(proc: Procedure) -> list[frozenset[str]] | None:
    """For each instruction of ``proc``: the locals bound on every way from its start there (its
    parameters, bound by every call, and what the instructions on the way bind: ``let``, a loop's
    variable and counter in its body, a decision option's or a draw's variable); None when an
    instruction is of a kind not known here. A frame reaches an instruction only along these ways
    (the machine, the blocks and a decision's option all go on at the instruction's successors)."""
    code = proc.code
    succ: list[list[tuple[int, tuple[str, ...], str | None]]] = []  # (successor, binds, unbinds)
    for pc, ins in enumerate(code):
        t = type(ins)
        if t is JumpI:
            succ.append([(ins.target, (), None)])
        elif t is JumpIfNotI:
            succ.append([(pc + 1, (), None), (ins.target, (), None)])
        elif t is LetI:
            succ.append([(pc + 1, (ins.name,), None)])
        elif t is ForInitI:
            succ.append([(pc + 1, (ins.counter,), None)])
        elif t is ForNextI:  # on exit the counter is removed
            succ.append([(pc + 1, (ins.var, ins.counter), None), (ins.exit, (), ins.counter)])
        elif t in (SetI, MoveI, SayI, RequireI, CallI):
            succ.append([(pc + 1, (), None)])
        elif t is MenuI:
            succ.append([(opt.target, (opt.var,) if opt.var is not None else (), None) for opt in ins.options])
        elif t is RandomI or t is RollI:
            succ.append([(pc + 1, (ins.var,), None)])
        elif t is RetI or t is EndI:
            succ.append([])
        else:
            return None
    bound: list[frozenset[str] | None] = [None] * len(code)  # None: no way found there yet
    bound[0] = frozenset(p for p, _ in proc.params)
    todo = [0]
    while todo:
        pc = todo.pop()
        here = bound[pc]
        assert here is not None
        for target, binds, unbinds in succ[pc]:
            if not 0 <= target < len(code):
                continue
            out = here.union(binds) - {unbinds}
            before = bound[target]
            new = out if before is None else before & out
            if new != before:
                bound[target] = new
                todo.append(target)
    return [b or frozenset() for b in bound]
