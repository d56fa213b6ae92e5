"""A position of a game and the machine that moves it from one decision or chance node to the next.

The state is a flat list of ints (every declared slot) plus a stack of frames
``[procedure, pc, locals]``. Nothing else is stored: the pending node is the instruction at the
top of the stack, so ``clone``, JSON and replay are exact.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable

from .actions import CHANCE, TERMINAL, Action, LogEntry, Outcome, Score
from .errors import IllegalActionError, SpecRuntimeError
from .program import (CallI, EndI, ForInitI, ForNextI, JumpI, JumpIfNotI, LetI, MenuI, MoveI, RandomI,
                      RequireI, RetI, RollI, SayI, SetI)

if TYPE_CHECKING:
    from .game import Game

STEP_LIMIT = 2_000_000


class State:
    """One position. OpenSpiel-style: ask what can happen, apply one action, repeat."""

    __slots__ = ("game", "values", "stack", "_history", "_log", "_outcome", "tracing", "_steps")

    def __init__(self, game: "Game", values: list[int], stack: list[list[Any]], tracing: bool = False) -> None:
        self.game = game
        self.values = values
        self.stack = stack
        self._history: list[Action] = []
        self._log: list[LogEntry] = []
        self._outcome: Outcome | None = None
        self.tracing = tracing
        self._steps = 0

    # ---- reading the position ----------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """The result and the rule that decided it, or None while the game goes on."""
        return self._outcome

    def _node(self) -> Any:
        if self._outcome is not None or not self.stack:
            return None
        frame = self.stack[-1]
        return self.game.program.procs[frame[0]].code[frame[1]]

    def is_chance_node(self) -> bool:
        node = self._node()
        return isinstance(node, (RandomI, RollI))

    def current_player(self) -> int:
        """The deciding player (an index in the players domain), CHANCE (-1) or TERMINAL (-4)."""
        node = self._node()
        if node is None:
            return TERMINAL
        if isinstance(node, MenuI):
            who = node.by(self.values, self.stack[-1][2])
            return int(who) if who is not None and who >= 0 else 0
        return CHANCE

    def current_player_name(self) -> str:
        p = self.current_player()
        if p == TERMINAL:
            return "terminal"
        if p == CHANCE:
            return "chance"
        return self.game.layout.symbol(self.game.spec.players, p)

    def prompt(self) -> str:
        """What is being decided or rolled now, in words."""
        node = self._node()
        if isinstance(node, MenuI):
            return node.prompt
        if isinstance(node, RollI):
            return f"roll the {node.die}"
        if isinstance(node, RandomI):
            return f"{node.kind} a {node.type}"
        return ""

    def node_rule(self) -> str:
        node = self._node()
        return node.rule if node is not None else ""

    def legal_actions(self) -> list[Action]:
        """The options of the current decision (empty at chance nodes and at the end)."""
        node = self._node()
        if not isinstance(node, MenuI):
            return []
        return self._menu_options(node)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The outcomes of the current chance node with exact probabilities that sum to 1."""
        node = self._node()
        if isinstance(node, RollI):
            counts: dict[int, int] = {}
            for f in node.faces:
                counts[f] = counts.get(f, 0) + 1
            n = len(node.faces)
            sym = self.game.layout.symbol
            return [(Action("roll", (f,), f"{node.die}: {self.game.layout.label(node.type, f)}", node.rule), Fraction(c, n))
                    for f, c in counts.items()]
        if isinstance(node, RandomI):
            members = self._random_members(node)
            if not members:
                raise SpecRuntimeError("chance node with no outcomes", node.rule, str(node.where))
            p = Fraction(1, len(members))
            label = self.game.layout.label
            return [(Action(node.kind, (x,), f"{node.kind}: {label(node.type, x)}", node.rule), p) for x in members]
        return []

    def score(self) -> Score:
        """The score sheet the spec declares, evaluated on this position (usually the final one)."""
        lines = tuple((label, rule, int(fn(self.values, {}))) for label, rule, fn in self.game.program.score_lines)
        return Score(sum(points for _, _, points in lines), lines)

    def history(self) -> list[Action]:
        return list(self._history)

    def log(self) -> list[LogEntry]:
        """What happened, step by step, each entry with the rule that fired (needs tracing on)."""
        return list(self._log)

    def get(self, name: str, *index: str | int) -> int | str | bool:
        """Read a slot by name: ``state.get('stock', 'ann')``. Symbols come back as names."""
        layout = self.game.layout
        flat = layout.index(name, *index)
        var = layout.slots[name].var
        value = self.values[flat]
        if var.type == "int":
            return value
        if var.type == "bool":
            return bool(value)
        return layout.symbol(var.type, value)

    def eval(self, expression: str) -> Any:
        """Evaluate a condition-language expression in this position (for queries and tests)."""
        from ..spec.expr import parse
        from ..spec.model import Where
        fn, t = self.game.program.exprs.compile(parse(expression), {}, Where("<query>", 1), "")
        value = fn(self.values, {})
        if t == "bool":
            return bool(value)
        if t == "int":
            return value
        return self.game.layout.symbol(t, value)

    def set(self, name: str, *index_and_value: Any) -> None:
        """Set a slot by name (for building positions): ``state.set('stock', 'ann', 3)``.

        Pool cells may only be set in pairs that keep the totals (see ``pool_totals``); the caller
        of this low-level setter is responsible, and ``check_invariants`` verifies."""
        *index, value = index_and_value
        layout = self.game.layout
        var = layout.slots[name].var
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, str):
            value = -1 if value == "none" else layout.domains[var.type].index(value)
        self.values[layout.index(name, *index)] = value

    def pool_totals(self) -> dict[str, list[int]]:
        """For every conserved pool, the sum over its cells (one number per key of ``per``)."""
        out = {}
        layout = self.game.layout
        for pool in self.game.spec.pools:
            width = len(layout.domains[pool.per].symbols) if pool.per else 1
            sums = [0] * width
            for cell in pool.cells:
                slot = layout.slots[cell]
                for k in range(slot.count):
                    sums[k % width if pool.per else 0] += self.values[slot.offset + k]
            out[pool.name] = sums
        return out

    def check_invariants(self) -> list[str]:
        """Every pool holds its declared total, and every slot lies within its declared range."""
        problems = []
        for pool in self.game.spec.pools:
            for k, s in enumerate(self.pool_totals()[pool.name]):
                if s != pool.total:
                    problems.append(f"pool {pool.name}[{k}] holds {s}, expected {pool.total}")
        layout = self.game.layout
        for flat, value in enumerate(self.values):
            name, _ = layout.owner[flat]
            var = layout.slots[name].var
            if not var.lo <= value <= var.hi:
                problems.append(f"{layout.name_of(flat)} = {value} outside {var.lo}..{var.hi}")
        for inv, holds in self.game.program.invariants:
            if not holds(self.values, {}):
                problems.append(f"invariant {inv.id} ({inv.text}) does not hold [{inv.rule}]")
        return problems

    # ---- changing the position ---------------------------------------------------------
    def clone(self) -> "State":
        other = State(self.game, list(self.values), [[f[0], f[1], dict(f[2])] for f in self.stack], self.tracing)
        other._history = list(self._history)
        other._log = list(self._log)
        other._outcome = self._outcome
        return other

    def apply_action(self, action: Action | str) -> None:
        """Apply a decision option or a chance outcome. Atomic: on any error the state is unchanged."""
        node = self._node()
        if node is None:
            raise IllegalActionError("the game is over", self._outcome.rule_id if self._outcome else "", action)
        chosen = self._resolve(node, action)
        saved = (list(self.values), [[f[0], f[1], dict(f[2])] for f in self.stack], len(self._history),
                 len(self._log), self._outcome)
        try:
            frame = self.stack[-1]
            if isinstance(node, MenuI):
                self._take_option(node, frame, chosen, forced=False)
            else:
                frame[2][node.var] = chosen.key[0]
                frame[1] += 1
                if self.tracing:
                    self._note(node.rule, node.kind if isinstance(node, RandomI) else "roll", chosen.label)
            self._history.append(chosen)
            self._run()
        except BaseException:
            self.values, self.stack = saved[0], saved[1]
            del self._history[saved[2]:]
            del self._log[saved[3]:]
            self._outcome = saved[4]
            raise

    def _take_option(self, node: MenuI, frame: list[Any], chosen: Action, forced: bool) -> None:
        opt_index, value = chosen.key
        opt = node.options[opt_index]
        if self.tracing:
            who = self.current_player_name_for(node, frame)
            self._note(opt.rule, "choose", f"{chosen.label} (no other option)" if forced else f"{who} chooses: {chosen.label}")
        if opt.var is not None:
            frame[2][opt.var] = value
        frame[1] = opt.target

    def current_player_name_for(self, node: MenuI, frame: list[Any]) -> str:
        who = node.by(self.values, frame[2])
        return self.game.layout.label(self.game.spec.players, who) if who is not None and who >= 0 else "players"

    def _resolve(self, node: Any, action: Action | str) -> Action:
        if isinstance(node, MenuI):
            options = self._menu_options(node)
        else:
            options = [a for a, _ in self.chance_outcomes()]
        if isinstance(action, str):
            for a in options:
                if a.label == action:
                    return a
        else:
            for a in options:
                if a == action:
                    return a
        why = self._why_illegal(node, action)
        raise IllegalActionError(why, node.rule, action)

    def _why_illegal(self, node: Any, action: Action | str) -> str:
        label = action if isinstance(action, str) else action.label
        if isinstance(node, MenuI):
            # find an option with this label whose guard fails: name its rule
            for o_index, opt in enumerate(node.options):
                for value in self._option_values(opt, self.stack[-1][2]):
                    L = dict(self.stack[-1][2])
                    if opt.var is not None:
                        L[opt.var] = value
                    if opt.label(self.values, L) == label:
                        return f"{label!r} is not allowed now ({node.prompt}; rule {opt.rule} does not permit it)"
            shown = ", ".join(a.label for a in self._menu_options(node)[:8])
            return f"{label!r} is not an option of '{node.prompt}'; options: {shown}"
        return f"{label!r} is not an outcome of this chance node ({self.prompt()})"

    def _option_values(self, opt: Any, L: dict) -> Iterable[int]:
        if opt.var is None:
            return (0,)
        if opt.values is not None:
            return opt.values
        return [f(self.values, L) for f in opt.item_fns]

    def _menu_options(self, node: MenuI) -> list[Action]:
        frame = self.stack[-1]
        base = frame[2]
        out: list[Action] = []
        seen: dict[str, int] = {}
        for o_index, opt in enumerate(node.options):
            for value in self._option_values(opt, base):
                L = dict(base)
                if opt.var is not None:
                    L[opt.var] = value
                if opt.cond is not None and not opt.cond(self.values, L):
                    continue
                label = opt.label(self.values, L)
                if label in seen:
                    seen[label] += 1
                    label = f"{label} #{seen[label]}"
                else:
                    seen[label] = 1
                out.append(Action("choose", (o_index, value), label, opt.rule))
        if not out:
            raise SpecRuntimeError(f"decision '{node.prompt}' has no options", node.rule, str(node.where))
        return out

    def _random_members(self, node: RandomI) -> list[int]:
        L = dict(self.stack[-1][2])
        values = node.values if node.values is not None else [f(self.values, L) for f in node.item_fns]
        if node.cond is None:
            return list(values)
        out = []
        for x in values:
            L[node.var] = x
            if node.cond(self.values, L):
                out.append(x)
        return out

    def _note(self, rule: str, kind: str, text: str) -> None:
        self._log.append(LogEntry(len(self._history), rule, kind, text))

    def _run(self) -> None:  # noqa: C901 - the interpreter's dispatch loop
        """Execute instructions until a decision, a chance node or the end of the game."""
        program = self.game.program
        procs = program.procs
        v = self.values
        stack = self.stack
        layout = self.game.layout
        tracing = self.tracing
        budget = STEP_LIMIT
        while True:
            if not stack:
                stack.append([program.by_name[self.game.spec.turn].index, 0, {}])
            frame = stack[-1]
            ins = procs[frame[0]].code[frame[1]]
            budget -= 1
            if budget < 0:
                raise SpecRuntimeError("no decision or chance node reached after many steps (endless loop?)",
                                       ins.rule, str(ins.where))
            L = frame[2]
            t = type(ins)
            try:
                if t is JumpIfNotI:
                    frame[1] = frame[1] + 1 if ins.cond(v, L) else ins.target
                elif t is SetI:
                    idx = ins.index(v, L)
                    val = ins.value(v, L)
                    if ins.type == "bool":
                        val = 1 if val else 0
                    if not ins.lo <= val <= ins.hi:
                        raise SpecRuntimeError(f"{layout.name_of(idx)} cannot be {val} (range {ins.lo}..{ins.hi})")
                    if tracing and v[idx] != val:
                        self._note(ins.rule, "set", f"{layout.name_of(idx)} = {self._show(idx, val)}")
                    v[idx] = val
                    frame[1] += 1
                elif t is MoveI:
                    self._move(ins, v, L)
                    frame[1] += 1
                elif t is JumpI:
                    frame[1] = ins.target
                elif t is ForInitI:
                    L[ins.counter] = 0
                    frame[1] += 1
                elif t is ForNextI:
                    i = L[ins.counter]
                    values = ins.values if ins.values is not None else [f(v, L) for f in ins.item_fns]
                    n = len(values)
                    while i < n:
                        L[ins.var] = values[i]
                        i += 1
                        if ins.cond is None or ins.cond(v, L):
                            break
                    else:
                        L.pop(ins.counter, None)
                        frame[1] = ins.exit
                        continue
                    L[ins.counter] = i
                    frame[1] += 1
                elif t is LetI:
                    L[ins.name] = ins.value(v, L)
                    frame[1] += 1
                elif t is CallI:
                    new_locals = {name: fn(v, L) for name, fn in ins.args}
                    frame[1] += 1
                    stack.append([ins.proc, 0, new_locals])
                elif t is RetI:
                    stack.pop()
                elif t is RequireI:
                    if not ins.cond(v, L):
                        raise SpecRuntimeError(f"called when its precondition '{ins.text}' does not hold")
                    frame[1] += 1
                elif t is SayI:
                    if tracing:
                        self._note(ins.rule, "say", ins.text(v, L))
                    frame[1] += 1
                elif t is EndI:
                    text = ins.text(v, L) if ins.text else ""
                    self._outcome = Outcome(ins.result, ins.rule, text)
                    if tracing:
                        self._note(ins.rule, "end", f"game over: {ins.result}" + (f" — {text}" if text else ""))
                    stack.clear()
                    return
                elif t is RollI or t is RandomI:
                    if t is RandomI and len(self._random_members(ins)) == 1:
                        # a forced outcome is no choice of chance: take it and go on
                        (only,) = self._random_members(ins)
                        L[ins.var] = only
                        frame[1] += 1
                        if tracing:
                            self._note(ins.rule, ins.kind, f"{ins.kind}: {layout.label(ins.type, only)} (only one left)")
                        continue
                    return
                elif t is MenuI:
                    if ins.auto:
                        options = self._menu_options(ins)
                        if len(options) == 1:
                            # a forced option is no choice: take it and go on
                            self._take_option(ins, frame, options[0], forced=True)
                            continue
                    return
                else:  # pragma: no cover
                    raise SpecRuntimeError(f"unknown instruction {ins!r}")
            except SpecRuntimeError as exc:
                if exc.where:
                    raise
                raise SpecRuntimeError(str(exc), ins.rule, str(ins.where)) from None
            except (KeyError, IndexError, TypeError) as exc:
                raise SpecRuntimeError(f"internal fault while running: {exc!r}", ins.rule, str(ins.where)) from exc

    def _show(self, flat: int, value: int) -> str:
        layout = self.game.layout
        name, _ = layout.owner[flat]
        return layout.label(layout.slots[name].var.type, value)

    def _move(self, ins: MoveI, v: list, L: dict) -> None:
        src = ins.src(v, L)
        dst = ins.dst(v, L)
        if ins.per_width:
            layout = self.game.layout
            if (src - layout.slots[layout.owner[src][0]].offset) % ins.per_width != \
                    (dst - layout.slots[layout.owner[dst][0]].offset) % ins.per_width:
                raise SpecRuntimeError(f"move between different kinds of {ins.pool}")
        have = v[src]
        amount = have if ins.amount is None else ins.amount(v, L)
        if amount < 0:
            raise SpecRuntimeError(f"cannot move a negative amount ({amount})")
        space = ins.dst_hi - v[dst]
        if ins.upto:
            amount = min(amount, have, space)
        elif amount > have:
            raise SpecRuntimeError(f"cannot move {amount} from {self.game.layout.name_of(src)}: it holds {have}")
        elif amount > space:
            raise SpecRuntimeError(f"{self.game.layout.name_of(dst)} cannot take {amount} more")
        if amount:
            v[src] -= amount
            v[dst] += amount
            if self.tracing:
                name = self.game.layout.name_of
                self._note(ins.rule, "move", f"{amount} {ins.pool}: {name(src)} -> {name(dst)}")

    # ---- serialisation -----------------------------------------------------------------
    def to_json(self) -> str:
        procs = self.game.program.procs
        doc = {
            "game": self.game.spec.name,
            "settings": dict(self.game.spec.settings),
            "values": self.values,
            "stack": [[procs[f[0]].name, f[1], f[2]] for f in self.stack],
            "history": [a.to_json() for a in self._history],
            "outcome": None if self._outcome is None else
            {"result": self._outcome.result, "rule": self._outcome.rule_id, "text": self._outcome.text},
        }
        return json.dumps(doc, sort_keys=True)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and other.game is self.game and other.values == self.values
                and other.stack == self.stack and other._outcome == self._outcome)

    def __hash__(self) -> int:  # pragma: no cover - states are mutable; hash the JSON if needed
        raise TypeError("State is mutable; hash state.to_json() instead")

    def __str__(self) -> str:
        return self.game.describe(self)
