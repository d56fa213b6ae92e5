"""Named steps of a turn as call stacks: where a scenario's position starts.

A step (declared in a game's scenario.yaml) is the stack the engine would have there: outer frames
resume after a named call, the last frame starts its procedure. The engine builds positions at one
procedure (``Game.state_at``); the outer frames are added around it here.
"""

from __future__ import annotations

import json

from ..engine import Game, IllegalActionError, SpecRuntimeError, State
from ..engine.program import CallI, ForNextI
from .schema import Schema, Step
from .values import ScenarioError, Values


def call_site(game: Game, proc: str, callee: str) -> int | None:
    """The pc just after the first call of ``callee`` in ``proc`` (where the caller resumes)."""
    target = game.program.by_name[callee].index
    for pc, ins in enumerate(game.program.by_name[proc].code):
        if isinstance(ins, CallI) and ins.proc == target:
            return pc + 1
    return None


def _resume_loops(game: Game, proc: str, pc: int, local: dict[str, int], values: list[int]) -> None:
    """An outer frame that resumes inside a ``for`` loop needs the loop's place: the item the frame's
    locals give for the loop variable (it resumes after that item), else the first item."""
    for start, ins in enumerate(game.program.by_name[proc].code):
        if not isinstance(ins, ForNextI) or ins.counter in local:
            continue
        if not start < pc < ins.exit:
            continue
        fixed = getattr(ins, "values", None)
        items = list(fixed) if fixed is not None else [f(values, local) for f in getattr(ins, "item_fns", None) or ()]
        if ins.var in local and local[ins.var] in items:
            local[ins.counter] = items.index(local[ins.var]) + 1
        elif items:
            local[ins.counter] = 1
            local[ins.var] = items[0]


def build_at_step(game: Game, v: Values, schema: Schema, step: Step, values: list[int], file: str = "<scenario>",
                  line: int = 1, tracing: bool = True) -> State:
    """The position with these values at a named step: the step's procedure runs to its first decision
    or chance node, and the outer frames resume after their calls, as the engine would have them."""
    base = game.state_from_json(json.dumps({"game": game.spec.name, "settings": dict(game.spec.settings),
                                            "values": values, "stack": [], "history": [], "outcome": None}))
    outer = []
    for fr in step.frames[:-1]:
        assert fr.after is not None
        pc = call_site(game, fr.proc, fr.after)
        if pc is None:
            raise ScenarioError(f"step {step.name}: {fr.proc} never calls {fr.after}", schema.file, step.line)
        local = {k: int(v.raw(expr, values, file=schema.file, line=step.line)[0]) for k, expr in fr.locals}
        _resume_loops(game, fr.proc, pc, local, values)
        outer.append([game.program.by_name[fr.proc].index, pc, local])
    top = step.frames[-1]
    args = {k: int(v.raw(expr, values, file=schema.file, line=step.line)[0]) for k, expr in top.locals}
    try:
        state = game.state_at(top.proc, args, base, tracing=tracing)
    except (SpecRuntimeError, IllegalActionError, ValueError, KeyError) as exc:
        raise ScenarioError(f"turn.step {step.name}: the engine cannot start there: {exc}", file, line) from None
    if state.is_terminal():
        return state
    top_index = game.program.by_name[top.proc].index
    if not state.stack or state.stack[0][0] != top_index:
        # the step ends without any decision or chance node: the engine cannot stop inside it, so the
        # position is the step run alone to its end (outcome "step over"), where it can be examined
        try:
            return game.state_at(top.proc, args, base, tracing=tracing, stop=True)
        except TypeError:  # an engine without stop=
            raise ScenarioError(f"turn.step {step.name}: in this position the step ends without any decision or "
                                f"chance node; start at the step before or after it", file, line) from None
    state.put_under(outer)
    return state
