"""Compile effect lists into a flat program of small instructions (one list per procedure).

A running game is a stack of frames ``[procedure, pc, locals]``; decision and chance
instructions pause the machine, and the pending node is simply the instruction at the top
frame, so a state needs nothing but its values and its stack to be saved, cloned or replayed.
Each instruction keeps the rule ID and spec line it came from, for logs and error messages.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..spec import model as M
from ..spec import expr as E
from ..spec.expr import Expr
from ..spec.model import GameSpec, Where
from ..spec.source import SpecError
from ..spec.statements import template_at
from ..spec.words import menu_lead
from .actions import Action
from .compile_expr import ExprCompiler, Fn, Scope, reads
from .layout import Layout


class Instr:
    __slots__ = ("rule", "where")
    pauses = False

    def __init__(self, rule: str, where: Where) -> None:
        self.rule = rule
        self.where = where


class SetI(Instr):
    __slots__ = ("slot", "index", "value", "lo", "hi", "type")


class MoveI(Instr):
    """``move amount from src to dst`` between two cells of ``pool`` (slot families ``src_slot`` and
    ``dst_slot``); ``per_width``: with a pool kept per kind (``per``), the number of kinds, and a move
    keeps to its kind; ``dst_hi``: the most the target's cells hold."""

    __slots__ = ("pool", "src", "dst", "amount", "upto", "per_width", "dst_hi", "src_slot", "dst_slot")


class JumpI(Instr):
    __slots__ = ("target",)


class JumpIfNotI(Instr):
    __slots__ = ("cond", "target")


class LetI(Instr):
    """``let name = value`` in the frame's locals. ``cites``: the ``let`` is *credited* (its rule, from
    a ``rule:`` on it or on an ``if``, ``for`` or option around it, is not its procedure's own) and its
    name was bound by statements written before it, so it may rebind it: with tracing on, a changed
    value is then logged (kind ``let``, Machine._traced_let), and a rule that acts through a local
    alone is cited. A procedure's own scratch names (loop flags, counters), and a name first bound in a
    loop's body (bound afresh on each pass, as a loop's variable is), are never logged. ``type``: the
    name's type, for the log's words."""

    __slots__ = ("name", "value", "cites", "type")


class ForNextI(Instr):
    """One step of ``for var in values if cond``: bind the next value that passes ``cond``, or exit.
    ``cond_fixed``: ``cond`` is known not to read ``var`` (``compile_expr.reads``), so every value
    left gives it the same answer and one test per step stands for the scan."""

    __slots__ = ("var", "values", "item_fns", "cond", "counter", "exit", "cond_fixed")


class ForInitI(Instr):
    __slots__ = ("counter",)


class CallI(Instr):
    __slots__ = ("proc", "args", "make")


class RetI(Instr):
    __slots__ = ()


class SayI(Instr):
    __slots__ = ("text",)


class RequireI(Instr):
    """A procedure's precondition, checked on entry: a caller that breaks it is a spec fault."""

    __slots__ = ("cond", "text")


class EndI(Instr):
    __slots__ = ("result", "text")


class MenuOptionI:
    # label_locals: when the label reads no slot, the locals it reads besides the option's own value,
    # and actions: the Actions made so far, by (value, those locals); otherwise None
    # by_label: when the label reads slots, the Actions made so far, by (value, label); otherwise None
    __slots__ = ("label", "var", "values", "item_fns", "cond", "target", "rule", "type", "members", "label_locals",
                 "actions", "by_label")


class MenuI(Instr):
    __slots__ = ("by", "prompt", "options", "auto", "show")  # show: the prompt's text with its holes filled
    pauses = True


class RandomI(Instr):
    # outcomes: value -> its Action, made when first needed (an outcome's label depends on its value alone)
    __slots__ = ("kind", "var", "values", "item_fns", "cond", "type", "members", "outcomes")
    pauses = True


class RollI(Instr):
    # keys, weights, total: the distinct faces, how many times each appears, the number of faces;
    # outcome: face -> its Action (built once: a roll's outcomes never change)
    __slots__ = ("die", "var", "faces", "type", "keys", "weights", "total", "outcome")
    pauses = True


def _reads_not(fn: Any, name: str) -> bool:
    """Is ``fn`` (a compiled function or None) known not to read the local ``name``?"""
    if fn is None:
        return False
    names = reads(fn)
    return names is not None and name not in names


def _mk(cls: type, rule: str, where: Where, **fields: Any) -> Any:
    ins = cls(rule, where)
    for k, v in fields.items():
        setattr(ins, k, v)
    return ins


class Procedure:
    __slots__ = ("name", "params", "code", "rule", "index")

    def __init__(self, name: str, params: tuple[tuple[str, str], ...], rule: str, index: int) -> None:
        self.name = name
        self.params = params
        self.code: list[Instr] = []
        self.rule = rule
        self.index = index


class Program:
    """All procedures of one configuration, compiled."""

    def __init__(self, spec: GameSpec, layout: Layout) -> None:
        self.spec = spec
        self.layout = layout
        self.exprs = ExprCompiler(spec, layout)
        self.procs: list[Procedure] = []
        self.by_name: dict[str, Procedure] = {}
        self.pool_of: dict[str, M.Pool] = {}
        for pool in spec.pools:
            for cell in pool.cells:
                self.pool_of[cell] = pool
        self.dice = {d.name: d for d in spec.dice}
        self.events = {e.name: e for e in spec.events}
        self._counter = 0
        self._own_rule = ""  # the rule of the procedure being compiled
        self._queries: dict[str, tuple[Fn, str]] = {}
        # declare every procedure first so that calls may refer forward
        for rule in spec.rules:
            if rule.kind == "procedure":
                if rule.name in self.by_name:
                    raise SpecError(f"procedure {rule.name} defined twice", rule.where.file, rule.where.line)
                self._declare(rule.name, rule.params, rule.id)
            elif rule.kind == "trigger":
                if rule.on not in self.events:
                    at = rule.on_where or rule.where
                    raise SpecError(f"rule {rule.id} is 'on' unknown event {rule.on!r}; declare it under events",
                                    at.file, at.line)
                self._declare(f"rule:{rule.id}", self.events[rule.on].params, rule.id)
        for event in spec.events:
            self._declare(f"event:{event.name}", event.params, "")
        # a position built to run one step can end when that step returns (Game.state_at(stop=True))
        halt = self._declare("#halt", (), "")
        halt.code.append(_mk(EndI, "", Where("<scenario>", 0), result="step over", text=None))
        for rule in spec.rules:
            if rule.kind == "procedure":
                self._body(self.by_name[rule.name], rule.body, rule.requires, rule.formal_at)
            elif rule.kind == "trigger":
                self._body(self.by_name[f"rule:{rule.id}"], rule.body)
            elif rule.kind == "define":
                self.exprs.define_type(rule.name)
        for d in spec.definitions:
            self.exprs.define_type(d.name)
        for event in spec.events:
            self._dispatcher(event)
        for proc in self.procs:
            _thread_jumps(proc.code)
        from .liveness import bound_locals, frame_keys  # they read the instruction classes of this module
        # per procedure: what identifies a frame at each instruction, for searches (None: all its locals)
        self.frame_keys = [frame_keys(proc) for proc in self.procs]
        # per procedure, per instruction: the locals bound there on every way from its start (None: not
        # known); the blocks read them once at a block's start, and state_from_json requires them
        self.bound_locals = [bound_locals(proc) for proc in self.procs]
        for proc in self.procs:
            for ins in proc.code:
                if type(ins) is MenuI:
                    for opt in ins.options:
                        opt.label_locals = _label_locals(opt)
                        opt.actions = {} if opt.label_locals is not None else None
                        opt.by_label = {} if opt.actions is None else None
        from .blocks import compile_blocks
        # per procedure, per instruction: the compiled run of instructions starting there, or None
        self.blocks = compile_blocks(self)
        for name in (spec.setup, spec.turn):
            if name not in self.by_name:
                raise SpecError(f"flow names unknown procedure {name!r}")
        self.invariants = [(inv, self.exprs.compile_bool(inv.holds, {}, inv.where, inv.rule))
                           for inv in spec.invariants]
        self.score_lines = []
        for line in spec.score:
            fn, t = self.exprs.compile(line.value, {}, line.where, line.rule)
            if t != "int":
                raise SpecError(f"score line {line.label!r} must be a number, it is {t}", line.where.file,
                                line.where.line)
            self.score_lines.append((line.label, line.rule, fn))

    def query(self, expression: str) -> tuple[Fn, str]:
        """An expression over the state (no locals), compiled once and kept: (fn(values, {}), type)."""
        hit = self._queries.get(expression)
        if hit is None:
            from ..spec.expr import parse
            hit = self.exprs.compile(parse(expression), {}, Where("<query>", 1), "")
            self._queries[expression] = hit
        return hit

    def _declare(self, name: str, params: tuple[tuple[str, str], ...], rule: str) -> Procedure:
        proc = Procedure(name, params, rule, len(self.procs))
        self.procs.append(proc)
        self.by_name[name] = proc
        return proc

    def _body(self, proc: Procedure, body: tuple[M.AnyStmt, ...], requires: Expr | None = None,
              where: Where | None = None) -> None:
        scope: Scope = dict(proc.params)
        if requires is not None and where is not None:
            cond = self.exprs.compile_bool(requires, dict(scope), where, proc.rule)
            proc.code.append(_mk(RequireI, proc.rule, where, cond=cond, text=requires.render()))
        self.exprs.safe_locals = _safe_locals(body, proc.params, self.layout)
        self._own_rule = proc.rule
        try:
            self._block(proc.code, body, scope)
        finally:
            self.exprs.safe_locals = {}
        proc.code.append(_mk(RetI, proc.rule, Where("<end>", 0)))

    def _dispatcher(self, event: M.EventDecl) -> None:
        """Run the rules triggered by one event.

        Declared order: higher priority first, then file order. Choice order: while some rule
        applies and has not resolved yet, the player ``by`` picks the next one (a decision)."""
        proc = self.by_name[f"event:{event.name}"]
        scope: Scope = dict(event.params)
        triggered = [r for r in self.spec.rules if r.kind == "trigger" and r.on == event.name]
        triggered.sort(key=lambda r: -r.priority)
        code = proc.code
        if event.requires is not None:  # the event's contract, checked at every emit
            where = event.where or Where(f"event {event.name}", 0)
            cond = self.exprs.compile_bool(event.requires, dict(scope), where, f"event {event.name}")
            code.append(_mk(RequireI, f"event {event.name}", where, cond=cond, text=event.requires.render()))
        args = [(p, _local(p)) for p, _ in event.params]
        make = self.exprs.record([(p, E.Name(p)) for p, _ in event.params], scope, Where(f"event {event.name}", 0),
                                 f"event {event.name}")
        conds = [self.exprs.compile_bool(r.when, scope, r.formal_at, r.id) if r.when is not None else None
                 for r in triggered]
        if event.order == "declared" or len(triggered) < 2:
            for rule, cond in zip(triggered, conds):
                call = _mk(CallI, rule.id, rule.where, proc=self.by_name[f"rule:{rule.id}"].index, args=args,
                           make=make)
                if cond is not None:
                    code.append(_mk(JumpIfNotI, rule.id, rule.where, cond=cond, target=len(code) + 2))
                code.append(call)
            code.append(_mk(RetI, "", Where("<end>", 0)))
            return
        assert event.by is not None
        by, _ = self.exprs.compile(event.by, scope, Where(self.spec.name, 0), f"event {event.name}")
        flags = [f"#done:{r.id}" for r in triggered]

        def pending(flag: str, cond: Fn | None) -> Fn:
            return _reading(lambda v, L: not L.get(flag) and (cond is None or cond(v, L)), [flag], cond)
        guards = [pending(f, c) for f, c in zip(flags, conds)]
        here = Where(f"event {event.name}", 0)
        top = len(code)
        code.append(_mk(JumpIfNotI, "", here, cond=_reading(lambda v, L: any(g(v, L) for g in guards), [], *guards),
                        target=-1))
        menu = _mk(MenuI, "", here, by=by, prompt=f"which rule on '{event.name}' resolves next?", options=[],
                   auto=False, show=None)
        code.append(menu)
        for rule, flag, guard in zip(triggered, flags, guards):
            o = MenuOptionI()
            o.var, o.values, o.item_fns, o.type, o.members = None, None, None, "", None
            o.cond = guard
            o.label = _reading((lambda t: (lambda v, L: t))(f"{rule.id} first ({menu_lead(rule.text)})"), [])
            o.rule = rule.id
            o.target = len(code)
            menu.options.append(o)
            # each flag is bound once in the frame (its guard asks that it is not): no rebinding
            code.append(_mk(LetI, rule.id, rule.where, name=flag, value=_reading(lambda v, L: 1, []), cites=False,
                            type="int"))
            code.append(_mk(CallI, rule.id, rule.where, proc=self.by_name[f"rule:{rule.id}"].index, args=args,
                            make=make))
            code.append(_mk(JumpI, rule.id, rule.where, target=top))
        code[top].target = len(code)
        code.append(_mk(RetI, "", Where("<end>", 0)))

    # ---- statements ----------------------------------------------------------------------
    def _block(self, code: list[Instr], body: tuple[M.AnyStmt, ...], scope: Scope) -> None:
        for stmt in body:
            self._stmt(code, stmt, scope)

    def _stmt(self, code: list[Instr], s: M.AnyStmt, scope: Scope) -> None:  # noqa: C901
        X = self.exprs
        if isinstance(s, M.SetStmt):
            slot, idx = X.lvalue(s.target, scope, s.where, s.rule)
            if slot in self.pool_of:
                raise SpecError(f"{slot} belongs to pool {self.pool_of[slot].name}: change it with move, not set "
                                f"(rule {s.rule})", s.where.file, s.where.line)
            var = self.layout.slots[slot].var
            val, t = X.compile(s.value, scope, s.where, s.rule)
            if not X.compatible(t, var.type):
                raise SpecError(f"{slot} holds {var.type}, {s.value.render()!r} is {t} (rule {s.rule})",
                                s.where.file, s.where.line)
            code.append(_mk(SetI, s.rule, s.where, slot=slot, index=idx, value=val, lo=var.lo, hi=var.hi,
                            type=var.type))
        elif isinstance(s, M.MoveStmt):
            src_name, src = X.lvalue(s.source, scope, s.where, s.rule)
            dst_name, dst = X.lvalue(s.target, scope, s.where, s.rule)
            pool = self.pool_of.get(src_name)
            if pool is None or self.pool_of.get(dst_name) is not pool:
                raise SpecError(f"move: {src_name} and {dst_name} must be cells of the same pool (rule {s.rule})",
                                s.where.file, s.where.line)
            amount = None
            if s.amount is not None:
                amount, t = X.compile(s.amount, scope, s.where, s.rule)
                if t != "int":
                    raise SpecError(f"move: the amount must be a number (rule {s.rule})", s.where.file, s.where.line)
            width = len(self.layout.domains[pool.per].symbols) if pool.per else 0
            code.append(_mk(MoveI, s.rule, s.where, pool=pool.name, src=src, dst=dst, amount=amount, upto=s.upto,
                            per_width=width, dst_hi=self.layout.slots[dst_name].var.hi, src_slot=src_name,
                            dst_slot=dst_name))
        elif isinstance(s, M.IfStmt):
            cond = X.compile_bool(s.cond, scope, s.where, s.rule)
            jump = _mk(JumpIfNotI, s.rule, s.where, cond=cond, target=-1)
            code.append(jump)
            # branches share the scope: a name bound in a branch is known after it (locals live in the frame)
            self._block(code, s.then, scope)
            if s.other:
                skip = _mk(JumpI, s.rule, s.where, target=-1)
                code.append(skip)
                jump.target = len(code)
                self._block(code, s.other, scope)
                skip.target = len(code)
            else:
                jump.target = len(code)
        elif isinstance(s, M.ForStmt):
            values, dtype = X.domain_values(s.domain, scope, s.where, s.rule)
            inner = scope
            inner[s.var] = dtype
            cond = X.compile_bool(s.cond, inner, s.where, s.rule) if s.cond is not None else None
            self._counter += 1
            counter = f"#for{self._counter}"
            code.append(_mk(ForInitI, s.rule, s.where, counter=counter))
            head = _mk(ForNextI, s.rule, s.where, var=s.var, values=values if isinstance(values, range) else None,
                       item_fns=None if isinstance(values, range) else values, cond=cond, counter=counter, exit=-1,
                       cond_fixed=_reads_not(cond, s.var))
            start = len(code)
            code.append(head)
            self._block(code, s.body, inner)
            code.append(_mk(JumpI, s.rule, s.where, target=start))
            head.exit = len(code)
        elif isinstance(s, M.LetStmt):
            val, t = X.compile(s.value, scope, s.where, s.rule)
            cites = s.rule != self._own_rule and s.name in scope
            scope[s.name] = _let_type(scope.get(s.name), t, s)
            code.append(_mk(LetI, s.rule, s.where, name=s.name, value=val, cites=cites, type=scope[s.name]))
        elif isinstance(s, (M.CallStmt, M.EmitStmt)):
            target = s.proc if isinstance(s, M.CallStmt) else f"event:{s.event}"
            what = "procedure" if isinstance(s, M.CallStmt) else "event"
            if target not in self.by_name:
                raise SpecError(f"unknown {what} {target.split(':')[-1]!r} (rule {s.rule})", s.where.file, s.where.line)
            proc = self.by_name[target]
            given = dict(s.args)
            wanted = dict(proc.params)
            if set(given) != set(wanted):
                raise SpecError(f"{what} {target.split(':')[-1]} takes {sorted(wanted)}, given {sorted(given)} "
                                f"(rule {s.rule})", s.where.file, s.where.line)
            args = []
            for name, e in s.args:
                fn, t = X.compile(e, scope, s.where, s.rule)
                if not X.compatible(t, wanted[name]):
                    raise SpecError(f"argument {name} must be a {wanted[name]}, {e.render()!r} is {t} (rule {s.rule})",
                                    s.where.file, s.where.line)
                args.append((name, fn))
            code.append(_mk(CallI, s.rule, s.where, proc=proc.index, args=args,
                            make=X.record(list(s.args), scope, s.where, s.rule)))
        elif isinstance(s, M.MenuStmt):
            by, _ = X.compile(s.by, scope, s.where, s.rule)
            shown = template_at(s.prompt)
            show = X.text(list(shown.parts), scope, s.where, s.rule) if len(shown.parts) > 1 or \
                not isinstance(shown.parts[0], str) else None
            menu = _mk(MenuI, s.rule, s.where, by=by, prompt=s.prompt, options=[], auto=s.auto, show=show)
            code.append(menu)
            ends = []
            for opt in s.options:
                o = MenuOptionI()
                inner = scope
                o.var = opt.var
                o.values = None
                o.item_fns = None
                o.type = ""
                o.members = None
                if opt.var is not None and opt.domain is not None:
                    values, dtype = X.domain_values(opt.domain, scope, opt.where, opt.rule)
                    o.values = values if isinstance(values, range) else None
                    o.item_fns = None if isinstance(values, range) else values
                    o.type = dtype
                    inner[opt.var] = dtype
                o.cond = X.compile_bool(opt.cond, inner, opt.where, opt.rule) if opt.cond is not None else None
                if opt.var is not None and opt.domain is not None:
                    o.members = X.members(opt.var, opt.domain, opt.cond, scope, opt.where, opt.rule)
                o.label = self.template(opt.label, inner, opt.where, opt.rule)
                o.rule = opt.rule
                o.target = len(code)
                menu.options.append(o)
                self._block(code, opt.body, inner)
                j = _mk(JumpI, opt.rule, opt.where, target=-1)
                code.append(j)
                ends.append(j)
            for j in ends:
                j.target = len(code)
        elif isinstance(s, M.RandomStmt):
            values, dtype = X.domain_values(s.domain, scope, s.where, s.rule)
            inner = dict(scope)
            inner[s.var] = dtype
            cond = X.compile_bool(s.cond, inner, s.where, s.rule) if s.cond is not None else None
            members = X.members(s.var, s.domain, s.cond, scope, s.where, s.rule)
            code.append(_mk(RandomI, s.rule, s.where, kind=s.kind, var=s.var,
                            values=values if isinstance(values, range) else None,
                            item_fns=None if isinstance(values, range) else values, cond=cond, type=dtype,
                            members=members, outcomes={}))
            scope[s.var] = dtype
        elif isinstance(s, M.RollStmt):
            if s.die not in self.dice:
                raise SpecError(f"unknown die {s.die!r} (rule {s.rule})", s.where.file, s.where.line)
            die = self.dice[s.die]
            dom = self.layout.domains[die.domain]
            faces = [dom.index(f) for f in die.faces]
            counts: dict[int, int] = {}
            for f in faces:
                counts[f] = counts.get(f, 0) + 1
            outcome = {f: Action("roll", (f,), f"{s.die}: {self.layout.label(die.domain, f)}", s.rule) for f in counts}
            code.append(_mk(RollI, s.rule, s.where, die=s.die, var=s.var, faces=faces, type=die.domain,
                            keys=list(counts), weights=list(counts.values()), total=len(faces), outcome=outcome))
            scope[s.var] = die.domain
        elif isinstance(s, M.EndStmt):
            text = self.template(s.text, scope, s.where, s.rule) if s.text else None
            code.append(_mk(EndI, s.rule, s.where, result=s.result, text=text))
        elif isinstance(s, M.SayStmt):
            code.append(_mk(SayI, s.rule, s.where, text=self.template(s.text, scope, s.where, s.rule)))
        else:  # pragma: no cover
            raise SpecError(f"unknown statement {s!r}")

    def template(self, t: M.Template, scope: Scope, where: Where, rule: str) -> Callable[[list, dict], str]:
        """A text with expressions, shown by their display names (compiled to one function)."""
        return self.exprs.text(list(t.parts), scope, where, rule)


def _thread_jumps(code: list[Instr]) -> None:
    """A jump to an unconditional jump goes straight to that jump's target (fewer steps to run)."""
    def final(target: int) -> int:
        seen = set()
        while 0 <= target < len(code) and type(code[target]) is JumpI and target not in seen:
            seen.add(target)
            target = code[target].target
        return target
    for ins in code:
        if isinstance(ins, (JumpI, JumpIfNotI)):
            ins.target = final(ins.target)
        elif isinstance(ins, ForNextI):
            ins.exit = final(ins.exit)
        elif isinstance(ins, MenuI):
            for opt in ins.options:
                opt.target = final(opt.target)


def _safe_locals(body: tuple[M.AnyStmt, ...], params: tuple[tuple[str, str], ...], layout: Layout) -> dict[str, int]:
    """The locals of a procedure body that only ever hold a value of a domain's range: bound only by
    ``for``, decision options and draws over a whole domain (never by ``let``, a roll or a list, and
    not a parameter, which a caller may pass from a wider domain or as none), with the largest such
    domain's size. Reading one needs no check that it is a value of that domain."""
    sizes: dict[str, int] = {}
    unsafe = {p for p, _ in params}

    def bind(name: str, domain: Expr | None) -> None:
        if isinstance(domain, E.Name) and (domain.id == "bool" or domain.id in layout.domains):
            size = 2 if domain.id == "bool" else len(layout.domains[domain.id].symbols)
            sizes[name] = max(sizes.get(name, 0), size)
        else:
            unsafe.add(name)

    def walk(stmts: tuple[M.AnyStmt, ...]) -> None:
        for s in stmts:
            if isinstance(s, M.ForStmt):
                bind(s.var, s.domain)
                walk(s.body)
            elif isinstance(s, M.IfStmt):
                walk(s.then)
                walk(s.other)
            elif isinstance(s, M.MenuStmt):
                for opt in s.options:
                    if opt.var is not None:
                        bind(opt.var, opt.domain)
                    walk(opt.body)
            elif isinstance(s, M.RandomStmt):
                bind(s.var, s.domain)
            elif isinstance(s, M.RollStmt):
                unsafe.add(s.var)
            elif isinstance(s, M.LetStmt):
                unsafe.add(s.name)
    walk(body)
    return {name: size for name, size in sizes.items() if name not in unsafe}


def _let_type(before: str | None, t: str, s: M.LetStmt) -> str:
    """The type of a local after ``let`` binds it to a value of type ``t``, where it had type ``before``
    (None: not bound yet). The scope is read in the order of the spec's text, so a ``let`` in one branch
    or option types the name for all the code written after it: ``none`` therefore keeps the type the
    name already has (it is a value of every domain), and a name first bound to ``none`` takes the type
    of its next value. Any other change of type is a spec error: the code after the ``let`` would read
    the name as the wrong type (a label would print a constant "none" where a floor is held)."""
    if before is None or before == t or t == "none":
        return before or t
    if before == "none":
        return t
    raise SpecError(f"let {s.name}: a {t} value for a name bound to a {before} value before (rule {s.rule}); "
                    f"use another name", s.where.file, s.where.line)


def _label_locals(opt: MenuOptionI) -> tuple[str, ...] | None:
    code = getattr(opt.label, "code", None)
    names = reads(opt.label)
    if code is None or names is None or re.search(r"\bv\b", code):
        return None
    return tuple(sorted(names - {opt.var}))


def _local(name: str) -> Fn:
    return _reading(lambda v, L: L[name], [name])


def _reading(fn: Fn, names: list[str], *inner: Fn | None) -> Fn:
    """``fn``, marked as reading the locals ``names`` and whatever the functions ``inner`` read
    (unmarked when one of those is unknown), for the liveness analysis."""
    known: frozenset[str] | None = frozenset(names)
    for f in inner:
        if f is not None:
            r = reads(f)
            known = None if r is None or known is None else known | r
    if known is not None:
        fn.reads = known  # type: ignore[attr-defined]
    return fn


__all__ = ["Program", "Procedure", "Instr", "Expr"]
