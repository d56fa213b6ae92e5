"""Procedures compiled to Python functions, so the machine dispatches only at pauses.

``State._run`` can interpret one instruction at a time, but most of a procedure is compiled here
instead. Each *entry* of a procedure (its start, the instruction after a call or a chance node, a
decision option's code, and wherever a compiled function hands control back) gets one generated
function ``block(state, v, frame, tracing)`` that runs the procedure from there exactly as the
interpreter would: plain instructions (set, let, move, say, require) as lines, the expressions'
source written in place (it comes from ``compile_expr``), jumps as ``if``/``else`` and ``for`` steps
as ``while`` loops (the jumps of the instruction list follow the nesting of the spec's statements, so
it is recovered from them), and calls as direct Python calls of the callee's entry function, the
callee's frame pushed on the state's stack as the interpreter pushes it. Decisions, chance nodes,
ends and any jump the nesting does not explain go back to the interpreter. A call of a recursive
procedure is direct too while the stack is shallow (at most ``CALL_DEPTH`` frames with the callee's);
deeper, the block pushes the callee's frame and hands it to the interpreter (``RELOAD``), as the
interpreter's own call would: Python's recursion stays bounded, and an endless recursion still meets
the machine's step limit.

What a block function returns:

* ``pc >= 0``: go on with instruction ``pc`` of the frame it ran in (still the top of the stack);
* ``RETURNED`` (-2): the procedure returned (the caller pops its frame);
* ``-2 - m`` (``m >= 1``, ``RELOAD``): a callee stopped somewhere below: go on at the top frame's own
  pc; the ``m`` frames on top of the stack are those of the calls below the block's own frame.

So at any pause the stack holds exactly the frames and pcs the interpreter would have left. Not
always before: with tracing off, a callee from which no recursive procedure can be reached runs
without its frame on the stack (nothing reads the stack while it runs: a log entry's depth is read
with tracing on, the depth of a recursion only in frames of recursive procedures, which are on the
stack), and its caller puts the frame in place only when the callee stops (under the ``m`` frames
its answer tells of) or fails (``_callee_failed``); a caller's own pc is set to the instruction
after the call only then too (``_Writer.call``).

A block that scans one long run of slots for a value in several places (``_first(v, O, N, x)``:
which slot of the run holds ``x``, and ``x in v[O:O+N]``: whether one does)
keeps what each scan found in a dict for that run (a *memo*, ``_tN``), so that a value looked up
again is not searched again. A memo is emptied at the block's start and after anything that may
write the run: a ``set`` of a slot family that overlaps it, a ``move`` between cells that do, and a
direct call (the callee may write anything). Expressions write nothing, and nothing else changes the
value list while a block runs, so a kept answer is the one a new scan would give.

Locals are read from the frame's dict ``L`` (``L['m']``) unless a Python variable holds them. A
procedure's fixed parameters (never written in it) are read into ``_p0``, ``_p1``, ... at the block's
start, and so is another local bound on every way from the procedure's start to the block's
(``Program.bound_locals``), into ``_h0``, ``_h1``, ...; a local the block writes is held from that write on
(``L['m'] = _h0 = ...``: every write still goes to ``L``, which callees' arguments, the interpreter
and the functions compiled apart read) wherever every path there comes from such a write (at a
loop's head: before the loop and at every return to the head; the body is written again until that
is settled). A range check of a local (``(x if 0 <= x < n else _bad(k))``, an index that may be
``none``) that passed on every path to a place where the local is unchanged since is left out there:
it could not fail. What holds where is followed along the block as it is written (``Known``; the
checks of an expression that surely run, in the order Python evaluates it: ``Reads``), so an error
is raised by the same check, at the same instruction, as before.

A failing instruction is reported as the interpreter reports it: the exception carries its index
(``exc.block_pc``, set by the innermost function, whose frame is the top of the stack) to
``State._run``. Nothing is noted while the block runs: its handler looks the line its frame failed
at up in a table of the instruction of every line of the blocks (``_instructions``). The generated
source holds numbers, slot offsets and names of constants only (no spec text), like the expressions'
source.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Any, Callable

from .actions import RULES
from .compile_expr import literal_value, reads
from .passed import Known, Reads, meet, whole_number
from .program import (CallI, EndI, ForInitI, ForNextI, JumpI, JumpIfNotI, LetI, MenuI, MoveI, Procedure, Program,
                      RandomI, RequireI, RetI, RollI, SayI, SetI)

Block = Callable[[Any, list, list, bool], int]
RELOAD = -3  # (or less: -2 - m, m frames on top of the stack from calls below; see the docstring)
RETURNED = -2
SIMPLE = (SetI, LetI, MoveI, SayI, RequireI, ForInitI)   # go on with the next instruction
ENDS = (JumpI, JumpIfNotI, ForNextI)                     # end a straight run: the next instruction is computed
CALL_DEPTH = 40  # a block calls a recursive procedure directly while the stack holds at most this many frames
MEMO_FROM = 32   # runs of slots at least this long are scanned through a memo (shorter ones are cheap to scan)
MEMO_SITES = 2   # ... in a block whose source scans the same run in at least this many places
HOLD_LOCALS = True  # hold locals in variables and leave out range checks passed before (off: to test them)
FOR_LOOPS = True  # loops whose body never leaves the block as Python ``for`` loops (off: to test them)
_MARK = re.compile(r" *_i = (-?\d+)")  # an instruction's first line, while written (see _instructions)
_LINES = "_LINES_"  # while written: the name of the table of the instructions of the lines (see _instructions)
_CALLS = "_CALLS_"  # ... and of the table of the lines of direct calls (see _instructions, _callee_failed)
_STACKED, _UNSTACKED = "  #@stacked", "  #@unstacked"  # ... the mark of such a line: the callee's frame pushed or not
# a line that leaves the block with the frame still running: hands back anything but RETURNED
_LEAVES = re.compile(r"\breturn (?!-2\Z)")
_READS_SLOTS = re.compile(r"\bv\b")
_FIRST = re.compile(r"\b_first\(v, (\d+), (\d+), ")
_IN_RUN = re.compile(r" in v\[(\d+):(\d+)\]")


def _literal(code: str, type_: str) -> int | None:
    """The value a constant's source stands for, converted as a set converts it (a bool to 0 or 1),
    or None when the source computes something."""
    value = literal_value(code)
    if value is None:
        return None
    return (1 if value else 0) if type_ == "bool" else value


def _recursive(program: Program) -> set[int]:
    """The procedures that can call themselves (directly or not): every call on a cycle of calls is
    a call of one, and a block calls those directly only while the stack is shallow (``CALL_DEPTH``)."""
    calls = [{ins.proc for ins in proc.code if type(ins) is CallI} for proc in program.procs]
    out = set()
    for start in range(len(calls)):
        seen: set[int] = set()
        todo = list(calls[start])
        while todo:
            p = todo.pop()
            if p == start:
                out.add(start)
                break
            if p not in seen:
                seen.add(p)
                todo.extend(calls[p])
    return out


def _unstacked(program: Program, recursive: set[int]) -> set[int]:
    """The procedures from which no recursive procedure can be reached (by calls, directly or not):
    the frames of the calls below a call of one need not be on the stack to count the depth of a
    recursion (``CALL_DEPTH``)."""
    calls = [{ins.proc for ins in proc.code if type(ins) is CallI} for proc in program.procs]
    reach = set(recursive)
    changed = True
    while changed:
        changed = False
        for p, callees in enumerate(calls):
            if p not in reach and callees & reach:
                reach.add(p)
                changed = True
    return set(range(len(calls))) - reach


class _Writer:
    def __init__(self, program: Program, direct: list[bool], recursive: set[int]) -> None:
        self.exprs = program.exprs
        self.procs = program.procs
        self.bound_locals = program.bound_locals
        self.direct = direct  # per procedure: may a block call its entry function directly?
        self.recursive = recursive  # ... the procedures it calls directly only while the stack is shallow
        layout = program.layout
        self.family = {name: (slot.offset, slot.offset + slot.count) for name, slot in layout.slots.items()}
        self.pool_ranges: dict[str, list[tuple[int, int]]] = {}  # a pool's cells, as ranges of flat positions
        for cell, pool in program.pool_of.items():
            self.pool_ranges.setdefault(pool.name, []).append(self.family[cell])
        self.memo_helpers: dict[tuple[int, int], str] = {}  # (offset, length) of a run -> its lookup helper
        self.helper_sources: list[str] = []
        self.memos: dict[tuple[int, int], str] = {}  # in the block being written: run -> its memo's variable
        self.sites: Counter[tuple[int, int]] = Counter()  # ... the scans of each run its source holds
        self.holding = program.exprs.optimise and HOLD_LOCALS  # hold locals, leave out checks passed (Known)
        self.known: Known | None = None  # ... what holds where the block's next line goes (None: never gets there)
        self.vars: dict[str, str] = {}  # ... the variable of each local it holds
        self.used: set[str] = set()  # ... the variables it reads
        self.loaded: dict[str, str] = {}  # ... the locals it reads at its start (bound there on every way)
        self.backs: dict[int, list[Known | None]] = {}  # ... what holds at each return to a loop's head
        self.pause_free: set[int] = set()  # the procedures whose start block surely returns RETURNED (or raises)
        self.unstacked = _unstacked(program, recursive)  # ... those whose frames go on the stack only when they stop

    def const(self, value: Any) -> str:
        return self.exprs.constant(value)

    def code(self, fn: Any, maybe: bool = False) -> str:
        """Python source computing fn(v, L): the expression itself when it was generated here, else a call.
        Written where ``self.known`` holds: its reads of held locals are made from their variables and
        its range checks already passed are left out (``Reads``); what its evaluation establishes is
        added to ``self.known``, unless ``maybe`` (the line may not evaluate it)."""
        src = getattr(fn, "fast", None)
        if src is None:
            return f"{self.const(fn)}(v, L)"
        if "_first(v, " in src or " in v[" in src:
            src = self.scans(src)
        if (self.holding or self.fixed) and "L[" in src and src.isascii() and "\n" not in src:
            known = self.here().copy() if maybe else self.here()
            reads = Reads(self.holding)
            reads.visit(ast.parse(src, mode="eval").body, known)
            self.used.update(reads.used)
            src = reads.apply(src)
        return f"({src})"

    def scans(self, src: str) -> str:
        """``src`` with its scans of the runs that have a memo in this block made through it; the
        scans of long runs are counted (``self.sites``; by their text, which is enough to choose)."""
        firsts = [(int(a), int(b)) for a, b in _FIRST.findall(src)]
        runs = [(int(a), int(b) - int(a)) for a, b in _IN_RUN.findall(src)]
        self.sites.update(key for key in firsts + runs if key[1] >= MEMO_FROM)
        if any(key in self.memos for key in firsts + runs):  # both forms, in the syntax tree (_Scans)
            finder = _Scans({key: (self.memo_helper(key), var) for key, var in self.memos.items()})
            tree = finder.visit(ast.parse(src, mode="eval"))
            if finder.changed:
                src = ast.unparse(tree)
        return src

    def memo_helper(self, key: tuple[int, int]) -> str:
        """The name of ``_dN(v, memo, x)``: ``_first(v, offset, n, x)``, kept in (and taken from) the memo."""
        if key not in self.memo_helpers:
            name = self.exprs.fresh("_d")
            self.memo_helpers[key] = name
            self.helper_sources.append(f"def {name}(v, a0, a1):\n"
                                       f"    _r = a0.get(a1)\n"
                                       f"    if _r is None:\n"
                                       f"        _r = a0[a1] = _first(v, {key[0]}, {key[1]}, a1)\n"
                                       f"    return _r\n")
        return self.memo_helpers[key]

    def forget(self, ranges: list[tuple[int, int]] | None, lines: list[str], ind: str) -> None:
        """Empty the memos of the runs that overlap ``ranges`` (None: every memo), after a write."""
        for (offset, n), var in self.memos.items():
            if ranges is None or any(lo < offset + n and offset < hi for lo, hi in ranges):
                lines.append(f"{ind}{var} = {{}}")

    def startable(self, proc: int, pc: int) -> bool:
        """Can a block start at this instruction?"""
        ins = self.procs[proc].code[pc]
        t = type(ins)
        return t in SIMPLE or t in ENDS or (t is CallI and self.direct[ins.proc])

    # ---- one procedure ---------------------------------------------------------------------
    def procedure(self, proc: Procedure) -> tuple[str, dict[int, str]]:
        """The source of every block of ``proc`` and their names, by entry pc."""
        code = proc.code
        self.code_ = code
        self.proc = proc
        self.back = {}  # loop head -> the index of its back edge (the last jump to it)
        for pc, ins in enumerate(code):
            if type(ins) is JumpI and ins.target < pc and type(code[ins.target]) is ForNextI:
                self.back[ins.target] = max(self.back.get(ins.target, -1), pc)
        todo = [0]
        for pc, ins in enumerate(code):
            if not (type(ins) in SIMPLE or type(ins) in ENDS):
                todo.append(pc + 1)  # after a call, a pause or a return
            if hasattr(ins, "options"):
                todo += [opt.target for opt in ins.options]
        self.resumes = set(todo) - {0}  # where the machine resumes after a pause or a call
        self.fixed = _fixed_params(proc) if self.exprs.optimise else {}
        self.bound = self.bound_locals[proc.index] if self.holding else None
        names: dict[int, str] = {}
        sources = []
        while todo:
            pc = todo.pop()
            if pc in names or not 0 <= pc < len(code) or not self.startable(proc.index, pc):
                continue
            names[pc] = f"_b{proc.index}_{pc}"
            self.wanted: list[int] = []
            sources.append(self.block(names[pc], pc))
            todo += self.wanted
        return "".join(sources), names

    def block(self, name: str, start: int) -> str:
        self.start = start
        self.memos = {}
        self.sites = Counter()
        body = self.body(start)
        runs = sorted(key for key, count in self.sites.items() if count >= MEMO_SITES) if self.exprs.optimise else []
        if runs:  # written again, with the memos (the same control flow: the same wanted entries)
            self.memos = {key: f"_t{k}" for k, key in enumerate(runs)}
            self.wanted = []
            body = self.body(start)
        if start == 0 and not any(_LEAVES.search(line) for line in body):
            self.pause_free.add(self.proc.index)  # its callers need not push its frame (call)
        lines = [f"def {name}(_S, v, F, tracing):", "    _i = -1", "    L = F[2]"]
        lines += [f"    {var} = {{}}" for var in self.memos.values()]
        body = self.held(body, lines)
        if any("_U.append" in line or "_U +=" in line for line in body):
            lines.append("    _U = _S._undo")
        lines.append("    try:")
        lines += ["    " + line for line in body]
        lines += [f"        return {len(self.code_)}",  # not reached: every path ends in a return
                  "    except BaseException as _e:",
                  "        if not hasattr(_e, 'block_pc'):",
                  f"            _e.block_pc = {_LINES}[_e.__traceback__.tb_lineno]"]
        if any(line.endswith((_STACKED, _UNSTACKED)) for line in body):  # a callee failed: its frame as pushed
            lines += [f"        elif {_CALLS}[_e.__traceback__.tb_lineno]:",
                      f"            {self.const(_callee_failed)}(_S, _e, F, _c, {_CALLS}[_e.__traceback__.tb_lineno])"]
        lines.append("        raise")
        return "\n".join(lines) + "\n"

    def body(self, start: int) -> list[str]:
        """The lines of the block starting at ``start`` (indented once, for the ``try``)."""
        self.vars = dict(self.fixed)
        self.used = set()
        self.known = self.fresh()
        self.loaded = {}
        if self.bound is not None:  # the locals bound on every way here are read at the start when used
            for name in sorted(self.bound[start]):
                var = None if name in self.fixed else self.hold(name)
                if var is not None:
                    self.loaded[name] = var
                    self.known.held[name] = var
        body: list[str] = []
        self.seq(start, len(self.code_), {len(self.code_)}, None, body, "    ")
        return body

    def fresh(self) -> Known:
        """What holds at a block's start: the fixed parameters are held (``held``)."""
        return Known(dict(self.fixed), {})

    def here(self) -> Known:
        """What holds where the next line goes (code after a ``return`` on every path gets nothing)."""
        if self.known is None:
            self.known = self.fresh()
        return self.known

    def hold(self, name: str) -> str | None:
        """The variable that holds local ``name`` from a write of it on (None: not held)."""
        if not self.holding or not name.isidentifier():
            return None
        if name not in self.vars:
            self.vars[name] = f"_h{len(self.vars) - len(self.fixed)}"
        return self.vars[name]

    def held(self, body: list[str], lines: list[str]) -> list[str]:
        """The procedure's fixed parameters (``self.fixed``) and the locals bound on every way to the
        block (``self.loaded``) that ``body`` reads from variables are read from the frame's locals
        once, at the block's start (a line added to ``lines``): a fixed parameter is in the frame from
        the call on and never written in the procedure, and only the block's own lines change the
        frame's locals while it runs (a callee has its own), so each read would give that value. Another
        local is held from a write of it in the block (``L['x'] = _h0 = ...``) while no other write can
        come between (``Known``); a variable nothing reads is not written."""
        for param, var in [*self.fixed.items(), *self.loaded.items()]:
            if var in self.used:
                lines.append(f"    {var} = L[{param!r}]")
        unused = [var for var in self.vars.values() if var not in self.used and var not in self.fixed.values()]
        if not unused:
            return body
        text = "\n".join(body)
        for var in unused:
            text = text.replace(f" = {var} = ", " = ")
        return text.split("\n")

    def _equiv(self, pc: int, end: int, follow: set[int]) -> set[int]:
        """The pcs where being is the same as being at ``pc`` (itself, and the target of a jump
        there), plus the enclosing region's fall-off when ``pc`` leads to it."""
        out = {pc}
        if pc < len(self.code_) and type(self.code_[pc]) is JumpI:
            out.add(self.code_[pc].target)
        if out & follow or pc == end:
            out |= follow
        return out

    def goto(self, target: int, cur: int, end: int, follow: set[int], loop: int | None, out: list[str],
             ind: str) -> int | None:
        """Control goes to ``target``: the pc to go on emitting at, or None when this path is written out."""
        if target in follow:
            return None  # falls off the region
        if cur < target < end:
            return target  # forward in the same region: skip what lies between
        if target == loop:
            out.append(f"{ind}continue")
            self.backs[loop].append(self.known)
            self.known = None
            return None
        self.leave(target, out, ind)
        return None

    def leave(self, target: int, out: list[str], ind: str) -> None:
        """Hand ``target`` back to the interpreter (which runs the block starting there, if any)."""
        out.append(f"{ind}return {target}")
        self.wanted.append(target)
        self.known = None

    def seq(self, pc: int, end: int, follow: set[int], loop: int | None, out: list[str], ind: str) -> None:
        """Write the instructions from ``pc`` on, as run from ``pc``, until control falls off at
        ``end`` (or anywhere in ``follow``, which is the same place) or leaves. ``self.known`` is
        what holds at ``pc`` before, and where control falls off after (None: it never does)."""
        code = self.code_
        first = len(out)
        cur: int | None = pc
        while cur is not None and cur not in follow:
            ins = code[cur]
            t = type(ins)
            if self.start and cur != self.start and cur in self.resumes and self.startable(self.proc.index, cur):
                # a block entered on resuming goes on in the block of the next place of resumption
                # (the start of a procedure, the hot path of direct calls, keeps its code in one piece)
                out.append(f"{ind}return _b{self.proc.index}_{cur}(_S, v, F, tracing)")
                self.wanted.append(cur)
                self.known = None
                cur = None
            elif t in SIMPLE:
                self.simple(cur, ins, out, ind)
                cur += 1
            elif t is JumpI:
                cur = self.goto(ins.target, cur, end, follow, loop, out, ind)
            elif t is JumpIfNotI:
                out.append(f"{ind}_i = {cur}")
                T = ins.target
                cond = self.code(ins.cond)
                if cur < T <= end:
                    skip = code[T - 1]
                    if T - 1 > cur and type(skip) is JumpI and T < skip.target <= end:
                        E = skip.target  # if ... else ...
                        after = self._equiv(E, end, follow)
                        out.append(f"{ind}if {cond}:")
                        known = self.here()
                        self.known = known.copy()
                        self.seq(cur + 1, T - 1, {T - 1} | after, loop, out, ind + "    ")
                        out.append(f"{ind}else:")
                        self.known, known = known, self.known
                        self.seq(T, E, after, loop, out, ind + "    ")
                        self.known = meet(known, self.known)
                        cur = E
                    elif T - 1 > cur and type(skip) is JumpI and skip.target in follow:
                        # if ... else ... as the last statement of the region
                        out.append(f"{ind}if {cond}:")
                        known = self.here()
                        self.known = known.copy()
                        self.seq(cur + 1, T - 1, {T - 1} | follow, loop, out, ind + "    ")
                        out.append(f"{ind}else:")
                        self.known, known = known, self.known
                        self.seq(T, end, follow, loop, out, ind + "    ")
                        self.known = meet(known, self.known)
                        cur = None
                    else:
                        out.append(f"{ind}if {cond}:")
                        known = self.here()
                        self.known = known.copy()
                        self.seq(cur + 1, T, self._equiv(T, end, follow), loop, out, ind + "    ")
                        self.known = meet(known, self.known)
                        cur = T
                else:
                    out.append(f"{ind}if not {cond}:")
                    known = self.here()
                    self.goto(T, end, end, set(), loop, out, ind + "    ")  # never a fall-off or a skip
                    self.known = known
                    cur += 1
            elif t is ForNextI:
                back = self.back.get(cur)
                if back is None or back >= end:  # not a loop this region holds: the interpreter's step
                    self.for_step(cur, ins, out, ind)
                    cur = None
                    continue
                self.known = self.loop(cur, ins, back, out, ind)
                cur = self.goto(ins.exit, back, end, follow, loop, out, ind)
            elif t is CallI and self.direct[ins.proc]:
                self.call(cur, ins, out, ind)
                cur += 1
            elif t is RetI:
                out.append(f"{ind}return -2")
                self.known = None
                cur = None
            else:  # a decision, a chance node, an end, a call of a procedure that starts so: the interpreter's
                out.append(f"{ind}return {cur}")
                self.known = None
                cur = None
        if len(out) == first:
            out.append(f"{ind}pass")

    def loop(self, pc: int, ins: ForNextI, back: int, out: list[str], ind: str) -> Known:
        """Write the head and the body of the loop at ``pc`` (its back edge at ``back``); the answer is
        what holds where it exits. A loop whose counter starts here and whose body never leaves the
        block is a Python ``for`` (``straight``); another is a ``while True:`` whose head keeps the
        counter in the frame's locals, as the interpreter's step does (``for_head``)."""
        fresh = bool(out) and out[-1] == f"{ind}L[{ins.counter!r}] = 0"  # the ForInitI just written
        if fresh and FOR_LOOPS:
            entry = self.here().copy()
            wanted, used, sites = len(self.wanted), set(self.used), Counter(self.sites)
            values = self.invariant_values(pc, ins, back)
            written = self.straight(pc, ins, back, values, ind) if values is not None else None
            if written is not None:
                del out[-1]  # the counter is never in the frame's locals
                out += written[0]
                return written[1]
            self.known = entry  # written as if this had not been tried
            del self.wanted[wanted:]
            self.used, self.sites = used, sites
        out.append(f"{ind}while True:")
        return self.fixed_point(pc, back, out, lambda lines: self.for_head(pc, ins, lines, ind + "    ", "break"),
                                ind + "    ")

    def fixed_point(self, pc: int, back: int, out: list[str], head_lines: Callable[[list[str]], Known],
                    ind: str) -> Known:
        """Write the lines of a loop's head (``head_lines``: they answer what holds where the loop
        exits) and then its body, indented by ``ind``, to ``out``; the answer is what ``head_lines``
        answered. What holds at the head is what holds both before the loop and at every return to
        the head: written with what held before, the body is written again with the meet of that and
        what it finds at its ends, until that is what it started with."""
        entry = self.here()
        head = entry.copy()
        while True:
            wanted, used, sites = len(self.wanted), set(self.used), Counter(self.sites)
            self.backs[pc] = []
            self.known = head.copy()
            lines: list[str] = []
            exit_ = head_lines(lines)
            self.seq(pc + 1, back, {back, pc}, pc, lines, ind)
            again: Known = entry
            for known in [self.known, *self.backs.pop(pc)]:
                again = meet(again, known)  # type: ignore[assignment]
            if again.held == head.held and again.ok == head.ok:
                out += lines
                return exit_
            head = again
            del self.wanted[wanted:]
            self.used, self.sites = used, sites

    def invariant_values(self, pc: int, ins: ForNextI, back: int) -> list[str] | None:
        """The source of each value of the loop at ``pc`` (its body: ``pc + 1`` .. ``back``), when every
        step of the interpreter's would compute the same values, so computing them once before the
        loop changes nothing (the same values, the same error at the first step): constant values,
        or items whose reads are known and that read no local the body (or the loop) writes, and no
        slot when the body may write one. Written where the loop starts; None otherwise, and when the
        body writes the loop's variable (the value left in it after the loop would be the body's)."""
        body = self.code_[pc + 1:back + 1]
        locals_ = set().union(*map(_writes, body))
        if ins.var in locals_:
            return None
        if ins.values is not None:
            return [self.const(tuple(ins.values))]
        locals_ |= {ins.var, ins.counter}
        slots = any(type(x) in (SetI, MoveI, CallI) for x in body)
        for fn in ins.item_fns:
            src = getattr(fn, "fast", None)
            names = reads(fn)
            if src is None or names is None or names & locals_ or (slots and _READS_SLOTS.search(src)):
                return None
        return [self.code(fn) for fn in ins.item_fns]

    def straight(self, pc: int, ins: ForNextI, back: int, values: list[str], ind: str) -> tuple[list[str], Known] | None:
        """The lines of the loop at ``pc`` as a Python ``for`` over its values (``invariant_values``: a
        constant's name, or the items' sources), computed once, and what holds where it exits. The
        interpreter's steps, as the ``for`` takes them: bind the next value (to the frame's locals only
        when the filter or the body may read it from there), test the filter (a filter that does not
        read the variable stops the loop at its first failure: ``break``; another skips the value:
        ``continue``), run the body; when the loop ends, the variable holds the last value, as the
        interpreter's scan leaves it, and the counter is gone (never written). Where the body leaves
        the block with the frame still running (a pause, a return to the interpreter, a call that
        stopped below), the frame is first given the counter and the variable as the interpreter's
        step leaves them, so that the machine resumes the loop from there (``enumerate`` counts).
        None when a line that leaves is of a shape not known here."""
        lines = [f"{ind}_i = {pc}"]
        if ins.values is not None:
            seq, n = values[0], len(ins.values)
            last = repr(ins.values[-1]) if n and type(ins.values[-1]) is int else f"{seq}[-1]"
        elif all(literal_value(code) is not None for code in values):  # Python folds the tuple: a constant
            seq, n = "(" + "".join(f"{code}, " for code in values) + ")", len(values)
            last = values[-1] if n else ""
        else:
            seq, n = f"_vs{pc}", len(values)
            lines.append(f"{ind}{seq} = (" + "".join(f"{code}, " for code in values) + ")")
            last = f"{seq}[-1]"
        var = self.hold(ins.var)
        item = var or f"_e{pc}"
        ints = ins.values is not None and all(type(x) is int and x >= 0 for x in ins.values) and len(ins.values)

        def head(body: list[str]) -> Known:
            known = self.here()
            exit_ = known.copy()
            exit_.write(ins.var, None)
            exit_.write(ins.counter, None)
            known.write(ins.counter, None)
            known.write(ins.var, var, max(ins.values) if ints else None)  # type: ignore[arg-type]
            if ins.cond is not None:
                body.append(f"{ind}    if not {self.code(ins.cond)}: {'break' if ins.cond_fixed else 'continue'}")
            return exit_

        body: list[str] = []
        exit_ = self.fixed_point(pc, back, body, head, ind + "    ")
        bind = not var or _reads_local(body, ins.var)
        if any(_LEAVES.search(line) for line in body):
            left = _before_leaving(body, [f"L[{ins.counter!r}] = _j{pc} + 1", *([] if bind else [f"L[{ins.var!r}] = {item}"])])
            if left is None:
                return None
            body = left
            lines.append(f"{ind}for _j{pc}, {item} in enumerate({seq}):")
        else:
            lines.append(f"{ind}for {item} in {seq}:")
        if bind:
            lines.append(f"{ind}    L[{ins.var!r}] = {item}")
        lines += body
        if n:  # where the interpreter's scan leaves the variable
            lines.append(f"{ind}L[{ins.var!r}] = {last}")
        return lines, exit_

    # ---- single instructions --------------------------------------------------------------
    def simple(self, pc: int, ins: Any, lines: list[str], ind: str) -> None:
        t = type(ins)
        me = self.const(ins)
        lines.append(f"{ind}_i = {pc}")
        if t is SetI:
            lines.append(f"{ind}_x = {self.code(ins.index)}")
            value = self.code(ins.value)
            known = _literal(value, ins.type)  # a constant: converted and checked here, once
            if known is not None and ins.lo <= known <= ins.hi:
                lines.append(f"{ind}_y = {known}")
            elif ins.type == "bool":
                lines.append(f"{ind}_y = 1 if {value} else 0")
                if not (ins.lo <= 0 and ins.hi >= 1):
                    lines.append(f"{ind}if not {ins.lo!r} <= _y <= {ins.hi!r}: _S._out_of_range(_x, _y, {ins.lo!r}, {ins.hi!r})")
            else:
                lines.append(f"{ind}_y = {value}")
                lines.append(f"{ind}if not {ins.lo!r} <= _y <= {ins.hi!r}: _S._out_of_range(_x, _y, {ins.lo!r}, {ins.hi!r})")
            lines.append(f"{ind}if tracing and v[_x] != _y: _S._trace_set({me}, _x, _y)")
            lines.append(f"{ind}_U.append(_x)")  # the slot and its old value, for a rollback (State._undo)
            lines.append(f"{ind}_U.append(v[_x])")
            lines.append(f"{ind}v[_x] = _y")
            self.forget([self.family[ins.slot]], lines, ind)
        elif t is LetI:
            value = self.code(ins.value)
            var = self.hold(ins.name)
            if ins.cites and var is not None:  # with tracing on, a changed value is logged (Machine._traced_let)
                lines.append(f"{ind}{var} = {value}")
                lines.append(f"{ind}if tracing: _S._traced_let({me}, L, {var})")
                lines.append(f"{ind}else: L[{ins.name!r}] = {var}")
            elif ins.cites:
                lines.append(f"{ind}if tracing: _S._traced_let({me}, L, {value})")
                lines.append(f"{ind}else: L[{ins.name!r}] = {value}")
            else:
                lines.append(f"{ind}L[{ins.name!r}] = {var + ' = ' if var else ''}{value}")
            self.here().write(ins.name, var, _literal(value, "int"))
        elif t is ForInitI:
            lines.append(f"{ind}L[{ins.counter!r}] = 0")
            self.here().write(ins.counter, None)
        elif t is MoveI:
            self.move(ins, me, lines, ind)
            self.forget(self.pool_ranges.get(ins.pool), lines, ind)
        elif t is SayI:
            lines.append(f"{ind}if tracing: _S._cite({me}.rule) if tracing == {RULES!r} else "
                         f"_S._note({me}.rule, 'say', {self.code(ins.text, maybe=True)})")
        elif t is RequireI:
            lines.append(f"{ind}if not {self.code(ins.cond)}: _S._precondition_fails({me})")
        else:  # pragma: no cover - only the kinds above are simple
            raise AssertionError(f"{ins!r} is not a plain instruction")

    def move(self, ins: MoveI, me: str, lines: list[str], ind: str) -> None:
        """The lines of a ``move`` (``me``: the instruction's constant), the steps of Machine._move in
        its order: the source and target positions (``_x``, ``_y``), the kinds' check, what the source
        holds (``_mh``), the amount (``_ma``, or a constant) and its checks, whose failure
        Machine._move_fails reports as _move does; then the writes, saved for a rollback (State._undo),
        and traced."""
        lines.append(f"{ind}_x = {self.code(ins.src)}")
        lines.append(f"{ind}_y = {self.code(ins.dst)}")
        if ins.per_width:
            w = ins.per_width
            lines.append(f"{ind}if (_x - {self.family[ins.src_slot][0]}) % {w} != "
                         f"(_y - {self.family[ins.dst_slot][0]}) % {w}: _S._move_fails({me}, _x, _y, 0, 0)")
        lines.append(f"{ind}_mh = v[_x]")
        amount, known = "_mh", None
        if ins.amount is not None:
            code = self.code(ins.amount)
            known = _literal(code, "int")
            if known is None:
                lines.append(f"{ind}_ma = {code}")
                amount = "_ma"
            else:
                amount = repr(known)
        fails = f"_S._move_fails({me}, _x, _y, {amount}, _mh)"
        negative = "" if known is not None and known >= 0 else f"{amount} < 0"
        if ins.upto:
            if negative:
                lines.append(f"{ind}if {negative}: {fails}")
            lines.append(f"{ind}_ma = min({amount}, _mh, {ins.dst_hi!r} - v[_y])")
            amount, known = "_ma", None
        else:
            lines.append(f"{ind}if {negative + ' or ' if negative else ''}{amount} > _mh or "
                         f"{amount} > {ins.dst_hi!r} - v[_y]: {fails}")
        writes = ["_U += (_x, _mh, _y, v[_y])",  # the cells and their old values, for a rollback (State._undo)
                  f"v[_x] = _mh - {amount}",
                  f"v[_y] += {amount}",
                  f"if tracing: _S._trace_move({me}, {amount}, _x, _y)"]
        if known is None:
            lines.append(f"{ind}if {amount}:")
            lines += [f"{ind}    {line}" for line in writes]
        elif known:  # a constant amount (not 0: a move of none writes nothing)
            lines += [f"{ind}{line}" for line in writes]

    def for_head(self, pc: int, ins: ForNextI, lines: list[str], ind: str, done: str) -> Known:
        """One step of a ``for``: bind the next value that passes the filter, or run ``done``. What
        holds after the step is left in ``self.known``; the answer is what holds at ``done``."""
        if ins.values is not None:
            values = self.const(tuple(ins.values))
        else:
            values = "(" + "".join(f"{self.code(f)}, " for f in ins.item_fns) + ")"
        known = self.here()
        done_known = known.copy()
        done_known.write(ins.var, None)
        done_known.write(ins.counter, None)
        var = self.hold(ins.var)
        ints = ins.values is not None and all(type(x) is int and x >= 0 for x in ins.values) and len(ins.values)
        known.write(ins.counter, None)
        known.write(ins.var, var, max(ins.values) if ints else None)  # type: ignore[arg-type]
        bind = f"L[{ins.var!r}] = {var + ' = ' if var else ''}_vs[_k]"
        if ins.cond_fixed:  # the filter does not read the variable: one test stands for the scan
            lines += [f"{ind}_i = {pc}",
                      f"{ind}_k = L[{ins.counter!r}]",
                      f"{ind}_vs = {values}",
                      f"{ind}_n = len(_vs)",
                      f"{ind}if _k < _n:",
                      f"{ind}    {bind}",
                      f"{ind}    if {self.code(ins.cond)}:",
                      f"{ind}        L[{ins.counter!r}] = _k + 1",
                      f"{ind}    else:",
                      f"{ind}        L[{ins.var!r}] = _vs[_n - 1]",  # where the scan would have left it
                      f"{ind}        _k = _n",
                      f"{ind}if _k >= _n:",
                      f"{ind}    L.pop({ins.counter!r}, None)",
                      f"{ind}    {done}"]
            return done_known
        cond = f"if {self.code(ins.cond)}: break" if ins.cond is not None else "break"
        lines += [f"{ind}_i = {pc}",
                  f"{ind}_k = L[{ins.counter!r}]",
                  f"{ind}_vs = {values}",
                  f"{ind}_n = len(_vs)",
                  f"{ind}while _k < _n:",
                  f"{ind}    {bind}",
                  f"{ind}    _k += 1",
                  f"{ind}    {cond}",
                  f"{ind}else:",
                  f"{ind}    L.pop({ins.counter!r}, None)",
                  f"{ind}    {done}",
                  f"{ind}L[{ins.counter!r}] = _k"]
        return done_known

    def for_step(self, pc: int, ins: ForNextI, lines: list[str], ind: str) -> None:
        self.wanted += [ins.exit, pc + 1]
        self.for_head(pc, ins, lines, ind, f"return {ins.exit}")
        lines.append(f"{ind}return {pc + 1}")
        self.known = None

    def call(self, pc: int, ins: CallI, lines: list[str], ind: str) -> None:
        """A direct call (module docstring): the callee's frame is pushed as the interpreter pushes it,
        and popped when it returns; when it stops below (a pause), this function stops too, with its
        own frame's pc set to the instruction after the call (only then: nothing reads it while the
        callee runs; on an error, ``_callee_failed`` sets it). With tracing off, the frame of a callee
        that reaches no recursive procedure (``unstacked``) is put on the stack only when it stops
        (or fails: ``_callee_failed``): nothing else reads the stack while it runs, but a log entry's
        depth (tracing on: pushed as ever) and a recursive call's depth (reached only from frames on
        the stack). Its caller puts it under the frames its callees have put there, which is how
        many its answer ``-2 - m`` tells; a callee whose start block can only return
        (``pause_free``) is not even asked."""
        self.wanted.append(pc + 1)  # where the interpreter goes on when the callee returns later
        lines += [f"{ind}_i = {pc}",
                  f"{ind}_c = [{ins.proc}, 0, {self.code(ins.make)}]"]
        callee = f"_b{ins.proc}_0(_S, v, _c, tracing)"
        if ins.proc in self.recursive:  # deep in a recursion: the interpreter runs the callee (module docstring)
            lines += [f"{ind}_S.stack.append(_c)",
                      f"{ind}if len(_S.stack) > {CALL_DEPTH}:",
                      f"{ind}    F[1] = {pc + 1}",
                      f"{ind}    return -3"]
            lines += _stacked(callee, pc, ind, traced="if tracing: ")
        elif ins.proc in self.pause_free:  # (no call below it reads the depth: its start block could stop else)
            lines += [f"{ind}if not tracing:",
                      f"{ind}    {callee}{_UNSTACKED}",
                      f"{ind}else:",
                      f"{ind}    _S.stack.append(_c)",
                      f"{ind}    {callee}{_STACKED}",
                      f"{ind}    _S.stack.pop()",
                      f"{ind}    _S._popped()"]
        elif ins.proc in self.unstacked:
            lines += [f"{ind}if not tracing:",
                      f"{ind}    _r = {callee}{_UNSTACKED}",
                      *_stops(pc, ind + "    ", f"_S.stack.insert(len(_S.stack) + 2 + _r, _c)"),
                      f"{ind}else:",
                      f"{ind}    _S.stack.append(_c)",
                      *_stacked(callee, pc, ind + "    ", traced="")]
        else:
            lines.append(f"{ind}_S.stack.append(_c)")
            lines += _stacked(callee, pc, ind, traced="if tracing: ")
        self.forget(None, lines, ind)


def _stops(pc: int, ind: str, put: str | None = None) -> list[str]:
    """The lines after the direct call at ``pc`` that stop the block when the callee stopped (its answer
    ``_r`` is not RETURNED): its frame ``_c`` at the pc it stopped at, ``put`` on the stack, the
    block's own frame at the next instruction, the number of frames above it told (``-2 - m``)."""
    return [f"{ind}if _r != -2:",
            f"{ind}    if _r >= 0:",
            f"{ind}        _c[1] = _r",
            f"{ind}        _r = -2",
            *([f"{ind}    {put}"] if put else []),  # under the -2 - _r frames of the callee's callees
            f"{ind}    F[1] = {pc + 1}",
            f"{ind}    return _r - 1"]


def _stacked(callee: str, pc: int, ind: str, traced: str) -> list[str]:
    """The lines of a direct call whose callee's frame ``_c`` is on the stack: the call, the stop
    (``_stops``), and when the callee returned, its frame popped (and ``traced``, the floor of the log)."""
    return [f"{ind}_r = {callee}{_STACKED}",
            *_stops(pc, ind),
            f"{ind}_S.stack.pop()",
            f"{ind}{traced}_S._popped()"]


def _callee_failed(state: Any, exc: BaseException, frame: list[Any], callee: list[Any], call: tuple[int, bool]) -> None:
    """A direct call (``call``: the pc after it, and whether the callee's frame was left off the
    stack) of a block running in ``frame`` failed in the callee, whose frame is ``callee``: the stack
    is left as the interpreter would have left it. The blocks' handlers run from the innermost out;
    ``exc.block_up`` counts the frames the calls below this one have on the stack: a frame left off
    goes in under them, so that the failing one is on top (``Machine._locate``), and ``frame``'s pc
    is the instruction after the call."""
    after, unstacked = call
    frame[1] = after
    up = getattr(exc, "block_up", 0)
    if unstacked:
        state.stack.insert(len(state.stack) - up, callee)
    exc.block_up = up + 1  # type: ignore[attr-defined]


class _Scans(ast.NodeTransformer):
    """Makes the scans of the runs of slots in ``memos`` ((offset, length) -> (helper, memo variable))
    in an expression's syntax tree go through the memo: ``_first(v, O, N, x)`` becomes ``_dN(v, _tK, x)``, and
    ``x in v[O:O+N]`` becomes ``_dN(v, _tK, x) != -1`` (both test the run's elements with ``==``)."""

    def __init__(self, memos: dict[tuple[int, int], tuple[str, str]]) -> None:
        self.memos = memos
        self.changed = False

    def _through(self, key: tuple[int, int], x: ast.expr) -> ast.expr | None:
        if key not in self.memos:
            return None
        helper, var = self.memos[key]
        self.changed = True
        return ast.Call(ast.Name(helper, ast.Load()), [ast.Name("v", ast.Load()), ast.Name(var, ast.Load()), x], [])

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "_first" and len(node.args) == 4 and \
                not node.keywords and _is_v(node.args[0]):
            offset, n = whole_number(node.args[1]), whole_number(node.args[2])
            if offset is not None and n is not None and n >= MEMO_FROM:
                return self._through((offset, n), node.args[3]) or node
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            run = node.comparators[0]
            if isinstance(run, ast.Subscript) and _is_v(run.value) and isinstance(run.slice, ast.Slice) and \
                    run.slice.step is None:
                lo, hi = whole_number(run.slice.lower), whole_number(run.slice.upper)
                if lo is not None and hi is not None and hi - lo >= MEMO_FROM:
                    call = self._through((lo, hi - lo), node.left)
                    if call is not None:
                        op = ast.NotEq() if isinstance(node.ops[0], ast.In) else ast.Eq()
                        return ast.Compare(call, [op], [ast.Constant(-1)])
        return node


def _is_v(node: Any) -> bool:
    return isinstance(node, ast.Name) and node.id == "v"


def _before_leaving(lines: list[str], stores: list[str]) -> list[str] | None:
    """``lines`` with ``stores`` run first wherever a line leaves the block with the frame still
    running (``_LEAVES``): written before a ``return``, or, after the header of a one-line ``if``
    (``if c: return -1``), with the ``return`` under it. None when such a line is of another shape."""
    out = []
    for line in lines:
        leave = _LEAVES.search(line)
        if leave is None:
            out.append(line)
            continue
        ind = line[:len(line) - len(line.lstrip(" "))]
        header = line[len(ind):leave.start()]
        if not header:
            out += [ind + store for store in stores]
            out.append(line)
        elif header.startswith("if ") and header.endswith(": "):
            out.append(ind + header.rstrip(" "))
            out += [f"{ind}    {store}" for store in [*stores, line[leave.start():]]]
        else:
            return None
    return out


def _reads_local(lines: list[str], name: str) -> bool:
    """May ``lines`` read the local ``name`` from the frame's locals ``L``: ``L[name]``, or ``L``
    handed whole to a function (an expression compiled apart, a trace)? Writes of other locals
    (``L['x'] = ``), reads of other locals and ``L.pop(...)`` do not read it."""
    for use in _L_USE.finditer("\n".join(lines)):
        key = use.group(1)
        if (key is None and use.group(2) is None) or (key is not None and ast.literal_eval(key) == name):
            return True
    return False


_L_USE = re.compile(r"\bL\b(?:\[('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]|(\.pop\())?")


def _writes(ins: Any) -> set[str]:
    """The locals an instruction may write."""
    written = set()
    for field in ("name", "var", "counter"):  # let, for, draw, roll
        name = getattr(ins, field, None)
        if isinstance(name, str):
            written.add(name)
    for opt in getattr(ins, "options", None) or ():  # a decision's options
        if opt.var is not None:
            written.add(opt.var)
    return written


def _fixed_params(proc: Procedure) -> dict[str, str]:
    """The parameters of ``proc`` that no instruction of it writes, each with the name of the
    Python variable that holds it in the blocks (``_p0``, ``_p1``, ...). Every call binds all the
    parameters (the compiler checks the arguments against them)."""
    written = set().union(*map(_writes, proc.code))
    fixed = [p for p, _ in proc.params if p not in written and p.isidentifier()]
    return {p: f"_p{k}" for k, p in enumerate(fixed)}


def _instructions(program: Program, source: str) -> str:
    """The blocks' source without the lines ``_i = N`` that start each instruction's lines, and with the
    name of a table giving, for each line, the instruction whose lines it is among (the last such line
    before it in its function, -1 before the first): the failing line of a block (the line its frame
    was at, ``_e.__traceback__.tb_lineno``) gives the failing instruction. Every line that may fail
    follows its instruction's first line with no other instruction's between, so that is the
    instruction whose code ran last, as the interpreter would report it. The lines of direct calls
    (marked ``_STACKED`` or ``_UNSTACKED`` while written) are in a second table, with the pc after the
    call and whether the callee's frame was left off the stack (``_callee_failed``)."""
    lines = []
    table = [-1]  # by line number (from 1)
    calls: list[tuple[int, bool] | None] = [None]  # by line number: (pc after the call, frameless) or None
    pc = -1
    for line in source.split("\n"):
        mark = _MARK.fullmatch(line)
        if mark is not None:
            pc = int(mark.group(1))
            continue
        if line.startswith("def "):
            pc = -1
        call = None
        for kind in (_STACKED, _UNSTACKED):
            if line.endswith(kind):
                line = line[:-len(kind)]
                call = (pc + 1, kind == _UNSTACKED)
        lines.append(line)
        table.append(pc)
        calls.append(call)
    return "\n".join(lines).replace(_LINES, program.exprs.constant(tuple(table))).replace(
        _CALLS, program.exprs.constant(tuple(calls)))


def _callees_first(program: Program) -> list[int]:
    """The procedures' indexes, each after those it calls (but on a cycle of calls)."""
    calls = [sorted({ins.proc for ins in proc.code if type(ins) is CallI}) for proc in program.procs]
    order: list[int] = []
    seen: set[int] = set()
    for root in range(len(calls)):
        if root in seen:
            continue
        seen.add(root)
        todo = [(root, iter(calls[root]))]
        while todo:  # depth first, each procedure written after its callees
            p, rest = todo[-1]
            q = next(rest, None)
            if q is None:
                todo.pop()
                order.append(p)
            elif q not in seen:
                seen.add(q)
                todo.append((q, iter(calls[q])))
    return order


def compile_blocks(program: Program) -> list[list[Block | None]]:
    """For every procedure, for every instruction: the block starting there, or None."""
    recursive = _recursive(program)
    direct = [False] * len(program.procs)
    writer = _Writer(program, direct, recursive)
    changed = True
    while changed:  # a callee is called directly when its start is a block
        changed = False
        for proc in program.procs:
            if not direct[proc.index] and writer.startable(proc.index, 0):
                direct[proc.index] = changed = True
    out: list[list[Block | None]] = []
    sources = []
    names = []
    written: dict[int, tuple[str, dict[int, str]]] = {}
    for index in _callees_first(program):  # so that a caller knows which callees are pause_free
        written[index] = writer.procedure(program.procs[index])
    for proc in program.procs:
        source, named = written[proc.index]
        sources.append(source)
        names.append(named)
    source = _instructions(program, "".join(sources + writer.helper_sources))
    made = program.exprs.define(source, "<blocks>")
    for proc, named in zip(program.procs, names):
        blocks: list[Block | None] = [None] * len(proc.code)
        for pc, name in named.items():
            blocks[pc] = made[name]
        out.append(blocks)
    return out
