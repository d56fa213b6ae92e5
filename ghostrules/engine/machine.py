"""The machine that moves a state from one decision or chance node to the next.

``State`` (engine/state.py) holds a position and answers questions about it; this part runs it:
``_run`` executes instructions until a decision, a chance node or the end of the game, with the
compiled procedures of engine/blocks.py doing most of the work, and the few helpers those blocks
call when an instruction needs more than a line (range faults, traces, preconditions, moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .actions import RULES, LogEntry, Outcome
from .compile_expr import scan_of
from .errors import SpecRuntimeError
from .program import (CallI, EndI, ForInitI, ForNextI, JumpI, JumpIfNotI, LetI, MenuI, MoveI, RandomI, RequireI,
                      RetI, RollI, SayI, SetI)

if TYPE_CHECKING:
    from .game import Game

STEP_LIMIT = 2_000_000


def _items(fns: list[Callable[[list, dict], Any]], v: list, L: dict) -> list[Any]:
    """The values a ``for`` over computed items runs through (a comprehension in ``_run`` would make
    ``v`` and ``L`` cells of it)."""
    return [f(v, L) for f in fns]


class Machine:
    """The run loop of a State (a base class of it: it reads and writes the State's fields)."""

    __slots__ = ()
    game: "Game"
    values: list[int]
    stack: list[list[Any]]
    tracing: bool
    _history: list[Any]
    _log: list[LogEntry]
    _outcome: Outcome | None
    _journal: list[tuple[list[Any], int, dict]] | None
    _undo: list[int]
    _drawn: tuple[Any, ...] | None  # (frame, pc, values, locals, members[, Scan, count, run, value])
    _watched: bool
    _shared: int
    _floor: int
    _cited: list[tuple[str, int]]

    def _note(self, rule: str, kind: str, text: str) -> None:
        depth = len(self.stack)
        self._log.append(LogEntry(len(self._history), rule, kind, text, depth, min(self._floor, depth)))
        self._floor = depth

    def _entry(self, rule: str, kind: str, text: Callable[[], str]) -> None:
        """A log entry (tracing on): its words composed by ``text()``, or with ``tracing`` RULES its
        rule alone (``_cite``: no words composed)."""
        if self.tracing == RULES:
            self._cite(rule)
        else:
            self._note(rule, kind, text())

    def _cite(self, rule: str) -> None:
        """A log entry when ``tracing`` is RULES: its rule and floor only (no words to compose)."""
        depth = len(self.stack)
        self._cited.append((rule, min(self._floor, depth)))
        self._floor = depth

    def _popped(self) -> None:
        """A frame returned (tracing): the fewest frames since the last entry (LogEntry.floor)."""
        if len(self.stack) < self._floor:
            self._floor = len(self.stack)

    def _run(self) -> Any:  # noqa: C901 - the interpreter's dispatch loop
        """Execute instructions until a decision, a chance node or the end of the game; the answer is
        the instruction it stopped at (the pending node: a decision or a chance node), or None at the end.

        Most instructions run inside the compiled blocks (engine/blocks.py), which call each other
        for calls; this loop takes what they hand back. The program counter lives in a local while
        the machine stays in one frame, and is written back to the frame when it calls, pauses or fails."""
        program = self.game.program
        procs = program.procs
        all_blocks = program.blocks
        v = self.values
        stack = self.stack
        tracing = self.tracing
        journal = self._journal
        # A return goes on in the inner loop unless it leaves ``low`` frames or fewer: none (the
        # turn starts again), or a frame this run found that needs care before it changes (with a
        # journal, each of them: saved once for apply_action's rollback; without, one that another
        # state may share: copied). The frames this run pushed, and those found that need no care,
        # are above it.
        low = len(stack) - 1
        if journal is None and self._shared < low:
            low = self._shared
        if low < 0:
            low = 0
        budget = STEP_LIMIT
        while True:  # at the start, and once per return that leaves ``low`` frames or fewer
            if not stack:
                stack.append([program.by_name[self.game.spec.turn].index, 0, {}])
            elif len(stack) <= low:  # returned into a frame as this run found it, which needs care
                low = len(stack) - 1
                frame = stack[-1]
                if low < self._shared:  # perhaps another state's too (State.child): this state's own copy
                    stack[-1] = [frame[0], frame[1], frame[2].copy()]
                    self._shared = low
                elif journal is not None:  # saved once, for apply_action's rollback
                    journal.append((frame, frame[1], frame[2].copy()))
            frame = stack[-1]
            pc = frame[1]
            blocks = all_blocks[frame[0]]
            try:
                while True:
                    budget -= 1
                    if budget < 0:
                        ins = procs[frame[0]].code[pc]
                        raise SpecRuntimeError("no decision or chance node reached after many steps (endless loop?)",
                                               ins.rule, str(ins.where))
                    block = blocks[pc]
                    if block is not None:  # compiled code (engine/blocks.py)
                        pc = block(self, v, frame, tracing)
                        if pc >= 0:
                            continue
                        if pc == -2:  # the procedure returned: go on in the caller's frame
                            stack.pop()
                            if tracing:
                                self._popped()
                            if len(stack) <= low:  # a frame that needs care first, or none
                                break
                        # the frame on top: the caller's, or the frame a callee (one this run pushed)
                        # stopped in below
                        frame = stack[-1]
                        pc = frame[1]
                        blocks = all_blocks[frame[0]]
                        continue
                    ins = procs[frame[0]].code[pc]
                    L = frame[2]
                    t = type(ins)
                    if t is MenuI:
                        frame[1] = pc
                        if ins.auto:
                            options = self._menu_options(ins)
                            if len(options) == 1:
                                # a forced option is no choice: take it and go on
                                self._take_option(ins, frame, options[0], True)
                                pc = frame[1]
                                continue
                        return ins
                    elif t is RandomI:
                        if self._watched or (scan := scan_of(ins.members)) is None:
                            members = ins.members(v, L)
                            only = members[0] if len(members) == 1 else None
                        else:  # counted, not listed (compile_expr.Scan), for game.play's loop alone
                            members = None
                            hits, run, x = scan.run(v, L)
                            only = scan.places[run.index(x)] if hits == 1 else None
                        if only is not None:  # a forced outcome is no choice of chance: take it and go on
                            L[ins.var] = only
                            pc += 1
                            if tracing:
                                self._trace_only(ins, only)
                            continue
                        # kept for the draw (State._random_members), with what they depend on (copies
                        # of the values and locals, unless no one but game.play's loop sees the state:
                        # that loop takes the outcomes, and None matches no values); when they were
                        # counted and not listed, None for them and what the count found
                        if self._watched:
                            self._drawn = (frame, pc, v[:], L.copy(), members)
                        elif members is not None:
                            self._drawn = (frame, pc, None, None, members)
                        else:
                            self._drawn = (frame, pc, None, None, None, scan, hits, run, x)
                        frame[1] = pc
                        return ins
                    elif t is RollI:
                        frame[1] = pc
                        return ins
                    elif t is CallI:  # the callee's frame becomes the current one, without leaving this loop
                        L = ins.make(v, L)
                        frame[1] = pc + 1
                        frame = [ins.proc, 0, L]
                        stack.append(frame)
                        blocks = all_blocks[ins.proc]
                        pc = 0
                    elif t is RetI:
                        stack.pop()
                        if tracing:
                            self._popped()
                        if len(stack) <= low:  # a frame that needs care first, or none: the outer loop
                            break
                        frame = stack[-1]
                        pc = frame[1]
                        blocks = all_blocks[frame[0]]
                    elif t is JumpIfNotI:
                        pc = pc + 1 if ins.cond(v, L) else ins.target
                    elif t is JumpI:
                        pc = ins.target
                    elif t is SetI:
                        idx = ins.index(v, L)
                        val = ins.value(v, L)
                        if ins.type == "bool":
                            val = 1 if val else 0
                        if not ins.lo <= val <= ins.hi:
                            raise SpecRuntimeError(f"{self.game.layout.name_of(idx)} cannot be {val} (range {ins.lo}..{ins.hi})")
                        if tracing and v[idx] != val:
                            self._trace_set(ins, idx, val)
                        self._undo += (idx, v[idx])
                        v[idx] = val
                        pc += 1
                    elif t is ForNextI:
                        i = L[ins.counter]
                        values = ins.values if ins.values is not None else _items(ins.item_fns, v, L)
                        n = len(values)
                        cond = ins.cond
                        if ins.cond_fixed:  # the filter does not read the variable: one test stands for the scan
                            if i < n:
                                L[ins.var] = values[i]
                                if cond(v, L):
                                    L[ins.counter] = i + 1
                                    pc += 1
                                    continue
                                L[ins.var] = values[n - 1]  # where the scan would have left it
                            L.pop(ins.counter, None)
                            pc = ins.exit
                            continue
                        while i < n:
                            L[ins.var] = values[i]
                            i += 1
                            if cond is None or cond(v, L):
                                break
                        else:
                            L.pop(ins.counter, None)
                            pc = ins.exit
                            continue
                        L[ins.counter] = i
                        pc += 1
                    elif t is ForInitI:
                        L[ins.counter] = 0
                        pc += 1
                    elif t is LetI:
                        if tracing and ins.cites:
                            self._traced_let(ins, L, ins.value(v, L))
                        else:
                            L[ins.name] = ins.value(v, L)
                        pc += 1
                    elif t is MoveI:
                        self._move(ins, v, L)
                        pc += 1
                    elif t is SayI:
                        if tracing:
                            self._trace_say(ins, v, L)
                        pc += 1
                    elif t is RequireI:
                        if not ins.cond(v, L):
                            raise SpecRuntimeError(f"called when its precondition '{ins.text}' does not hold")
                        pc += 1
                    elif t is EndI:
                        frame[1] = pc
                        text = ins.text(v, L) if ins.text else ""
                        self._outcome = Outcome(ins.result, ins.rule, text)
                        if tracing:
                            self._trace_end(ins, text)
                        stack.clear()
                        self._floor = 0
                        return None
                    else:  # pragma: no cover
                        raise SpecRuntimeError(f"unknown instruction {ins!r}")
            except SpecRuntimeError as exc:
                ins = self._locate(exc, frame, pc)
                if exc.where:
                    raise
                raise SpecRuntimeError(str(exc), ins.rule, str(ins.where)) from None
            except (KeyError, IndexError, TypeError) as exc:
                ins = self._locate(exc, frame, pc)
                raise SpecRuntimeError(f"internal fault while running: {exc!r}", ins.rule, str(ins.where)) from exc

    def _locate(self, exc: BaseException, frame: list[Any], pc: int) -> Any:
        """The instruction that failed (a block's, in the frame on top, or the interpreter's own),
        with its frame's pc set to it."""
        if hasattr(exc, "block_pc"):
            frame = self.stack[-1]
            pc = exc.block_pc
        frame[1] = pc
        return self.game.program.procs[frame[0]].code[pc]

    # ---- what the blocks (engine/blocks.py) call when an instruction needs more than a line ----
    def _out_of_range(self, idx: int, val: int, lo: int, hi: int) -> None:
        raise SpecRuntimeError(f"{self.game.layout.name_of(idx)} cannot be {val} (range {lo}..{hi})")

    # (the log entries of _run and _move are composed here, in functions of their own: a lambda in
    # those would make each variable it reads a cell of the hot function, paid for on every call)
    def _trace_only(self, ins: RandomI, only: int) -> None:
        self._entry(ins.rule, ins.kind, lambda: f"{ins.kind}: {self.game.layout.label(ins.type, only)} (only one left)")

    def _trace_say(self, ins: SayI, v: list, L: dict) -> None:
        self._entry(ins.rule, "say", lambda: ins.text(v, L))

    def _trace_end(self, ins: EndI, text: str) -> None:
        self._entry(ins.rule, "end", lambda: f"game over: {ins.result}" + (f" — {text}" if text else ""))

    def _trace_move(self, ins: MoveI, amount: int, src: int, dst: int) -> None:
        name = self.game.layout.name_of
        self._entry(ins.rule, "move", lambda: f"{amount} {ins.pool}: {name(src)} -> {name(dst)}")

    def _trace_set(self, ins: SetI, idx: int, val: int) -> None:
        self._entry(ins.rule, "set", lambda: f"{self.game.layout.name_of(idx)} = {self._show(idx, val)}")

    def _traced_let(self, ins: LetI, L: dict, val: Any) -> None:
        """Bind ``ins.name`` to ``val`` (tracing on, a credited ``let`` that may rebind: ``LetI.cites``):
        when the name was bound in the frame to another value, a log entry of kind ``let`` citing the
        statement's rule (a rule that acts through a local alone, such as a card that takes dice from a
        roll, is cited so); a first binding, or the same value again, writes nothing."""
        if ins.name in L and L[ins.name] != val:
            self._entry(ins.rule, "let", lambda: f"{ins.name} = {self._show_local(ins.type, val)}")
        L[ins.name] = val

    def _show_local(self, type_: str, value: Any) -> str:
        """A local's value in words: as a slot of its type would print it (``repr`` when the type is
        none the layout knows)."""
        layout = self.game.layout
        if isinstance(value, (bool, int)) and (type_ in ("int", "bool", "none") or type_ in layout.domains):
            return layout.label(type_, int(value))
        return repr(value)

    def _precondition_fails(self, ins: RequireI) -> None:
        raise SpecRuntimeError(f"called when its precondition '{ins.text}' does not hold")

    def _show(self, flat: int, value: int) -> str:
        layout = self.game.layout
        name, _ = layout.owner[flat]
        return layout.label(layout.slots[name].var.type, value)

    def _move(self, ins: MoveI, v: list, L: dict) -> None:
        """Run a ``move`` (the blocks write the same steps in place, engine/blocks.py)."""
        src = ins.src(v, L)
        dst = ins.dst(v, L)
        if ins.per_width and self._other_kinds(ins, src, dst):
            self._move_fails(ins, src, dst, 0, 0)
        have = v[src]
        amount = have if ins.amount is None else ins.amount(v, L)
        if amount < 0:
            self._move_fails(ins, src, dst, amount, have)
        space = ins.dst_hi - v[dst]
        if ins.upto:
            amount = min(amount, have, space)
        elif amount > have or amount > space:
            self._move_fails(ins, src, dst, amount, have)
        if amount:
            self._undo += (src, v[src], dst, v[dst])
            v[src] -= amount
            v[dst] += amount
            if self.tracing:
                self._trace_move(ins, amount, src, dst)

    def _other_kinds(self, ins: MoveI, src: int, dst: int) -> bool:
        """Are the cells ``src`` and ``dst`` of a pool kept per kind (``ins.per_width`` kinds) of different
        kinds? (The blocks write the same test in place, engine/blocks.py.)"""
        slots = self.game.layout.slots
        return (src - slots[ins.src_slot].offset) % ins.per_width != (dst - slots[ins.dst_slot].offset) % ins.per_width

    def _move_fails(self, ins: MoveI, src: int, dst: int, amount: int, have: int) -> None:
        """Raise the error of a ``move`` of ``amount`` from flat position ``src`` (holding ``have``) to
        ``dst`` that cannot be made, the first of its checks that fails, in their order: between
        different kinds (``per_width``), a negative amount, more than the source holds, more than the
        target can take (not with ``upto``)."""
        layout = self.game.layout
        if ins.per_width and self._other_kinds(ins, src, dst):
            raise SpecRuntimeError(f"move between different kinds of {ins.pool}")
        if amount < 0:
            raise SpecRuntimeError(f"cannot move a negative amount ({amount})")
        if amount > have:
            raise SpecRuntimeError(f"cannot move {amount} from {layout.name_of(src)}: it holds {have}")
        raise SpecRuntimeError(f"{layout.name_of(dst)} cannot take {amount} more")
