"""Straight-line runs of instructions compiled to Python functions, so the machine dispatches less.

``State._run`` interprets one instruction at a time. Most instructions neither pause nor change
frames (set, let, move, say, require, the loop steps and the jumps), and they come in runs. Each
run that starts where control can enter (a jump target, the start of a procedure, the instruction
after a call, a pause or a jump) becomes one generated function ``block(state, v, L, tracing)``
that executes the run exactly as the interpreter would, the compiled expressions written in place
(their source comes from ``compile_expr``), and returns the instruction to go on with. Calls,
returns, decisions, chance nodes and ends stay with the interpreter.

A failing instruction inside a block is reported as the interpreter reports it: the generated code
notes its index in ``_i``, and the exception carries it (``exc.block_pc``) to ``State._run``.
The generated source holds numbers, slot offsets and names of constants only (no spec text), like
the expressions' source.
"""

from __future__ import annotations

from typing import Any, Callable

from .program import (ForInitI, ForNextI, JumpI, JumpIfNotI, LetI, MoveI, Procedure, Program, RequireI, SayI,
                      SetI)

Block = Callable[[Any, list, dict, bool], int]
SIMPLE = (SetI, LetI, MoveI, SayI, RequireI, ForInitI)   # go on with the next instruction
ENDS = (JumpI, JumpIfNotI, ForNextI)                     # end a block: the next instruction is computed


def _leaders(code: list[Any]) -> set[int]:
    """The instructions where control can enter other than from the one before."""
    out = {0}
    for pc, ins in enumerate(code):
        t = type(ins)
        if t not in SIMPLE:
            out.add(pc + 1)
        if t in (JumpI, JumpIfNotI):
            out.add(ins.target)
        elif t is ForNextI:
            out.add(ins.exit)
        elif hasattr(ins, "options"):  # a decision: each option's code
            for opt in ins.options:
                out.add(opt.target)
    return {pc for pc in out if 0 <= pc < len(code)}


class _Writer:
    def __init__(self, program: Program) -> None:
        self.exprs = program.exprs
        self.names: dict[int, str] = {}

    def const(self, value: Any) -> str:
        return self.exprs.constant(value)

    def code(self, fn: Any) -> str:
        """Python source computing fn(v, L): the expression itself when it was generated here, else a call."""
        src = getattr(fn, "code", None)
        return f"({src})" if src is not None else f"{self.const(fn)}(v, L)"

    def instruction(self, pc: int, ins: Any, lines: list[str]) -> bool:
        """Append the source of one instruction; True when it ends the block (a return was written)."""
        t = type(ins)
        me = self.const(ins)
        lines.append(f"    _i = {pc}")
        if t is SetI:
            lines.append(f"    _x = {self.code(ins.index)}")
            lines.append(f"    _y = {self.code(ins.value)}")
            if ins.type == "bool":
                lines.append("    _y = 1 if _y else 0")
            lines.append(f"    if not {ins.lo!r} <= _y <= {ins.hi!r}: _S._out_of_range(_x, _y, {ins.lo!r}, {ins.hi!r})")
            lines.append(f"    if tracing and v[_x] != _y: _S._trace_set({me}, _x, _y)")
            lines.append("    v[_x] = _y")
        elif t is LetI:
            lines.append(f"    L[{ins.name!r}] = {self.code(ins.value)}")
        elif t is ForInitI:
            lines.append(f"    L[{ins.counter!r}] = 0")
        elif t is MoveI:
            lines.append(f"    _S._move({me}, v, L)")
        elif t is SayI:
            lines.append(f"    if tracing: _S._note({me}.rule, 'say', {self.code(ins.text)})")
        elif t is RequireI:
            lines.append(f"    if not {self.code(ins.cond)}: _S._precondition_fails({me})")
        elif t is JumpI:
            lines.append(f"    return {ins.target}")
            return True
        elif t is JumpIfNotI:
            lines.append(f"    return {pc + 1} if {self.code(ins.cond)} else {ins.target}")
            return True
        elif t is ForNextI:
            if ins.values is not None:
                values = self.const(tuple(ins.values))
            else:
                values = "(" + "".join(f"{self.code(f)}, " for f in ins.item_fns) + ")"
            cond = f"if {self.code(ins.cond)}: break" if ins.cond is not None else "break"
            lines += [f"    _k = L[{ins.counter!r}]",
                      f"    _vs = {values}",
                      "    _n = len(_vs)",
                      "    while _k < _n:",
                      f"        L[{ins.var!r}] = _vs[_k]",
                      "        _k += 1",
                      f"        {cond}",
                      "    else:",
                      f"        L.pop({ins.counter!r}, None)",
                      f"        return {ins.exit}",
                      f"    L[{ins.counter!r}] = _k",
                      f"    return {pc + 1}"]
            return True
        else:  # pragma: no cover - only the kinds above are put in blocks
            raise AssertionError(f"{ins!r} in a block")
        return False

    def block(self, name: str, code: list[Any], start: int) -> str:
        lines = [f"def {name}(_S, v, L, tracing):", "    _i = -1", "    try:"]
        body: list[str] = []
        pc = start
        while True:
            ins = code[pc]
            if type(ins) not in SIMPLE and type(ins) not in ENDS:
                body.append(f"    return {pc}")
                break
            if self.instruction(pc, ins, body):
                break
            pc += 1
        lines += ["    " + line for line in body]
        lines += ["    except BaseException as _e:",
                  "        _e.block_pc = _i",
                  "        raise"]
        return "\n".join(lines) + "\n"


def compile_blocks(program: Program) -> list[list[Block | None]]:
    """For every procedure, for every instruction: the block starting there, or None."""
    writer = _Writer(program)
    out: list[list[Block | None]] = []
    for proc in program.procs:
        out.append(_proc_blocks(writer, proc))
    return out


def _proc_blocks(writer: _Writer, proc: Procedure) -> list[Block | None]:
    code = proc.code
    blocks: list[Block | None] = [None] * len(code)
    starts = sorted(pc for pc in _leaders(code) if type(code[pc]) in SIMPLE or type(code[pc]) in ENDS)
    if not starts:
        return blocks
    names = {pc: f"_b{proc.index}_{pc}" for pc in starts}
    source = "".join(writer.block(names[pc], code, pc) for pc in starts)
    made = writer.exprs.define(source, f"<blocks of {proc.name}>")
    for pc, name in names.items():
        blocks[pc] = made[name]
    return blocks
