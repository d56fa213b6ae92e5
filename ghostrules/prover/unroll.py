"""Bounded questions by symbolic execution: the spec's statements unrolled over k turns in Z3.

A question (``bounded.Question``: a goal, a horizon) is answered from a start position by running
the spec's own statements (the ASTs the engine compiles) over a state whose cells are integers or
Z3 terms:

- every **chance outcome** is a fresh Z3 constant constrained to the node's outcomes (a card drawn
  from the deck is "some card the deck holds", a die "one of its faces"); nothing is enumerated;
- every **decision** is a fork over its options (an option over a domain: one fork per element
  whose guard may hold), each fork carrying the option's guard as a constraint; the question's
  ``decide`` patterns fix decisions it does not care about, as in ``bounded.search``;
- an ``if``, a loop's condition, a trigger's ``when`` or a precondition whose value depends on a
  Z3 constant forks into the two cases, each kept only if the path condition stays satisfiable;
- a runtime fault of the engine (a slot out of range, a move without enough, a broken
  precondition) ends no game: the path is constrained away from it (the range and contract proofs
  show that none is reachable).

The horizon is ``k`` runs of the turn procedure (the spec's ``flow.turn``) from the start. The
goal (a condition, or ``result == <name>``) is asked of Z3 at the end of every turn and where the
game ends: a satisfiable path condition and goal is a **witness**, whose model gives every chance
outcome; the witness is replayed by the engine (``replay``), which alone decides whether it is
legal and reaches the goal, and gives its probability. When every path within k was explored
without a witness (no fixed decision cut an option off, no step budget ran out) the answer is
**impossible**: a proof by exhaustive symbolic execution within k.

Parts of the state no Z3 constant has touched stay concrete and are evaluated by the engine's own
compiled expressions (which tests/test_prover.py checks against the Z3 encoding); the rest goes
through ``symbolic.Encoder``. Only start positions at the beginning of a procedure are supported
(a scenario at its default step, e.g. the start of a turn). No game is named here.
"""

from __future__ import annotations

from typing import Any, Iterable

import z3

from ..engine import Game
from ..engine.compile_expr import Fn
from ..spec import expr as E
from ..spec import model as M
from ..spec.model import Where
from ..spec.words import menu_lead
from .folding import _FoldingEncoder, _Guarded
from .local import LocalProver
from .paths import Block, Dead, Frame, Path, Paused, Step, Value
from .symbolic import Term, evaluate

STEP_LIMIT = 200_000   # statements one path may run (the engine's endless-loop guard, in spirit)


class Unroller:
    """Symbolic execution of one configuration's statements (see the module docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.spec = game.spec
        self.layout = game.layout
        self.enc = _FoldingEncoder(game, self)
        self.local = LocalProver(game.spec, game.layout)   # static read sets
        self.exprs = game.program.exprs
        self.procs = {r.name: r for r in self.spec.rules if r.kind == "procedure"}
        self.events = {e.name: e for e in self.spec.events}
        self.triggered: dict[str, list[M.Rule]] = {}
        for e in self.spec.events:
            rules = [r for r in self.spec.rules if r.kind == "trigger" and r.on == e.name]
            rules.sort(key=lambda r: -r.priority)
            self.triggered[e.name] = rules
        self._compiled: dict[Any, tuple[Fn, str]] = {}
        self._free: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        self._keep: list[E.Expr] = []
        self._constants = 0
        self.follow: list[tuple[int, ...]] | None = None   # follow mode (differential test)
        # concrete parts by the engine's closures; False: every expression through the Z3 encoder
        self.closures = True
        self.dead = 0             # paths ended by a runtime fault of the engine (none expected)

    # ---- values ----------------------------------------------------------------------------
    def _term(self, v: Value) -> Term:
        if isinstance(v, bool):
            return self.enc.true if v else self.enc.false
        if isinstance(v, int):
            return self.enc.intval(v)
        return v

    def _terms(self, path: Path) -> list[Term]:
        return [self._term(v) if isinstance(v, int) else v for v in path.values]

    # a term's Python value if it is a numeral or a truth value, else the simplified term
    _concrete = staticmethod(evaluate)

    def _names(self, e: E.Expr) -> tuple[frozenset[str], frozenset[str]]:
        """(slot families, plain names) an expression reads (cached per AST node)."""
        hit = self._free.get(id(e))
        if hit is None:
            names = frozenset(x.id for x in E.walk(e) if isinstance(x, E.Name))
            hit = (self.local.reads(e), names)
            self._free[id(e)] = hit
            self._keep.append(e)   # ids stay valid while the unroller lives
        return hit

    def val(self, e: E.Expr, path: Path, scope: dict[str, tuple[Value, str]]) -> tuple[Value, str]:
        """The value of an expression on a path: a Python value when it reads nothing symbolic
        (the engine's compiled closure), else a simplified Z3 term (the encoder)."""
        families, names = self._names(e)
        if self.closures and not (families & path.symbolic) and not any(
                n in scope and not isinstance(scope[n][0], (int, bool)) for n in names):
            types = tuple(sorted((n, scope[n][1]) for n in names if n in scope))
            fn, t = self.compiled(e, types)
            try:
                return fn(path.values, {n: v for n, (v, _) in scope.items()}), t
            except Exception as exc:   # the engine's fault (a none index, ...): no line of play
                raise Dead(f"{e.render()}: {exc}") from None
        zscope = {n: (self._term(v), t) for n, (v, t) in scope.items()}
        self.enc.values = _Guarded(path.values)
        term, t = self.enc.encode(e, self._terms(path), zscope)
        return self._concrete(term), t

    def compiled(self, e: E.Expr, types: tuple[tuple[str, str], ...]) -> tuple[Fn, str]:
        """The engine's closure for an expression with these local names (compiled once)."""
        key = (id(e), types)
        hit = self._compiled.get(key)
        if hit is None:
            hit = self.exprs.compile(e, dict(types), Where("<unroll>", 0), "")
            self._compiled[key] = hit
            self._keep.append(e)
        return hit

    def cond(self, e: E.Expr | None, path: Path, scope: dict[str, tuple[Value, str]]) -> Value:
        if e is None:
            return True
        v, _ = self.val(e, path, scope)
        return bool(v) if isinstance(v, int) else self.enc.as_bool(v)

    # ---- solving ---------------------------------------------------------------------------
    def _solve(self, conds: list[Term]) -> tuple[Any, Any]:
        """(answer, solver). Every constant is an element of a small domain (a chance outcome):
        the finite-domain tactic answers these queries far faster than the default solver; the
        general one answers where it cannot."""
        for tactic in ("qffd", "smt"):
            s = z3.Tactic(tactic).solver()
            s.add(*conds)
            r = s.check()
            if r != z3.unknown:
                return r, s
        return r, s

    def feasible(self, conds: list[Term]) -> bool:
        return self._solve(conds)[0] != z3.unsat

    def model(self, conds: list[Term]) -> z3.ModelRef | None:
        r, s = self._solve(conds)
        return s.model() if r == z3.sat else None

    def branch(self, path: Path, c: Value) -> list[tuple[Path, bool]]:
        """The path forked on a condition: (path, truth) for each feasible case."""
        if isinstance(c, (bool, int)):
            return [(path, bool(c))]
        out = []
        for truth, lit in ((True, c), (False, z3.Not(c))):
            p = self.restrict(path, lit)
            if p is not None:
                out.append((p, truth))
        return out

    def restrict(self, path: Path, lit: Term) -> Path | None:
        """A copy of the path where ``lit`` holds, or None if it cannot. A condition on one chance
        constant splits its domain value by value (no solver call); a constant left with one
        value is replaced by it everywhere, so what follows is concrete again."""
        names = self._mentioned(lit, path)
        if len(names) == 1 and (name := names.pop()) in path.doms:
            var, values = path.doms[name]
            kept = []
            for v in values:
                t = z3.simplify(z3.substitute(lit, (var, self.enc.intval(v))))
                if not z3.is_false(t):
                    if not z3.is_true(t):
                        break       # not decided by this constant alone: ask the solver
                    kept.append(v)
            else:
                if not kept:
                    return None
                p = path.fork()
                if len(kept) == 1:
                    if not self._pin(p, name, var, kept[0]):
                        return None
                elif len(kept) < len(values):
                    p.doms[name] = (var, tuple(kept))
                    p.cond.append(z3.Or([var == v for v in kept]))
                return p
        if not self.feasible(path.cond + [lit]):
            return None
        p = path.fork()
        p.cond.append(lit)
        return p

    def _constant(self) -> Term:
        """A fresh chance constant, named ``c<n>x`` so that its name occurs in a term's text only
        where the constant does (no name is part of another)."""
        self._constants += 1
        return z3.Int(f"c{self._constants}x")

    @staticmethod
    def _mentioned(t: Term, path: Path) -> list[str]:
        """The path's chance constants that occur in a term (one pass over its text in Z3)."""
        if not path.free:
            return []
        text = t.sexpr()
        return [n for n in path.free if n in text]

    def _pin(self, path: Path, name: str, var: Term, value: int) -> bool:
        """The chance constant ``var`` is ``value`` on this path: substitute it everywhere.
        False if the path condition then fails."""
        pair = (var, self.enc.intval(value))
        del path.doms[name]
        del path.free[name]
        path.fixed[name] = value

        def sub(x: Value) -> Value:
            return x if isinstance(x, (int, bool)) else self._concrete(z3.substitute(x, pair))
        path.values = [sub(x) for x in path.values]
        path.symbolic = {n for n in path.symbolic if any(
            not isinstance(path.values[i], int) for i in range(self.layout.slots[n].offset,
                                                                self.layout.slots[n].offset + self.layout.slots[n].count))}
        for f in path.frames:
            f.locals = {k: (sub(v), t) for k, (v, t) in f.locals.items()}
        path.cond = [c for c in (sub(c) for c in path.cond) if c is not True]
        return not any(c is False for c in path.cond)

    # ---- writes ----------------------------------------------------------------------------
    def _index(self, target: E.Expr, path: Path, scope: dict[str, tuple[Value, str]]) -> tuple[str, list[Value]]:
        name = target.name if isinstance(target, E.Index) else target.id
        args = target.args if isinstance(target, E.Index) else ()
        return name, [self.val(a, path, scope)[0] for a in args]

    def _cells(self, name: str, index: list[Value], path: Path) -> list[tuple[int, Term | bool]]:
        """The flat cells ``name[index]`` may be, each with the condition that it is that one."""
        off, sizes, strides = self.enc.slot_cells(name)
        if all(isinstance(i, int) for i in index):
            if any(not 0 <= i < n for i, n in zip(index, sizes)):
                raise Dead(f"{name}{index}: no such slot")
            return [(off + sum(i * st for i, st in zip(index, strides)), True)]
        out: list[tuple[int, Term | bool]] = []
        terms = [self._term(i) for i in index]
        path.cond.append(z3.And([z3.And(t >= 0, t < n) for t, n in zip(terms, sizes)]))

        # concrete positions of the index are fixed; symbolic ones range over their domain
        def walk(k: int, flat: int, hit: list[Term]) -> None:
            if k == len(sizes):
                out.append((flat, z3.And(hit) if hit else True))
                return
            if isinstance(index[k], int):
                walk(k + 1, flat + index[k] * strides[k], hit)
                return
            for c in range(sizes[k]):
                walk(k + 1, flat + c * strides[k], hit + [terms[k] == c])
        walk(0, off, [])
        return out

    def _read(self, path: Path, cells: list[tuple[int, Term | bool]]) -> Value:
        if len(cells) == 1 and cells[0][1] is True:
            return path.values[cells[0][0]]
        out = self._term(path.values[cells[-1][0]])
        for flat, hit in reversed(cells[:-1]):
            out = z3.If(hit, self._term(path.values[flat]), out)
        return self._concrete(out)

    def _write(self, path: Path, name: str, cells: list[tuple[int, Term | bool]], new: Any) -> None:
        """Write ``new(old)`` into the cell(s); a symbolic cell becomes an if-then-else."""
        for flat, hit in cells:
            old = path.values[flat]
            value = new(old)
            if hit is not True:
                value = self._concrete(z3.If(hit, self._term(value), self._term(old)))
            elif not isinstance(value, (int, bool)):
                value = self._concrete(value)
            if isinstance(value, bool):
                value = int(value)
            path.values[flat] = value
            if not isinstance(value, int):
                path.symbolic.add(name)

    def _split_index(self, target: E.Expr, path: Path, scope: dict) -> list[Path] | None:
        """A write at an index that depends on a chance constant is split into one path per value
        of that constant (the written cell is then known): what reads the table afterwards stays
        concrete, which is worth more than one formula for all the cards a draw could be."""
        if not isinstance(target, E.Index):
            return None
        for a in target.args:
            v, _ = self.val(a, path, scope)
            if isinstance(v, (int, bool)):
                continue
            for name in self._mentioned(v, path):
                if name in path.doms:
                    return self._split(path, name)
        return None

    def _split(self, path: Path, name: str) -> list[Path]:
        """One copy of the path per value of the chance constant ``name``, pinned to it, each to
        run the statement just taken again (now concretely)."""
        var, values = path.doms[name]
        outs = []
        for value in values:
            p = path.fork()
            if self._pin(p, name, var, value):
                p.frames[-1].blocks[-1].i -= 1
                outs.append(p)
        return outs

    def _split_seen(self, s: M.MenuStmt, path: Path, frame: Frame) -> list[Path] | None:
        """A decision whose options read a chance outcome held in a local name (the card just
        drawn) is split into one path per value of that outcome, and runs again in each: the
        player sees the outcome before deciding, and the options' guards are then concrete."""
        for opt in s.options:
            for e in (opt.cond, opt.domain):
                if e is None:
                    continue
                for n in self._names(e)[1]:
                    v = frame.locals.get(n, (0, ""))[0]
                    if not isinstance(v, (int, bool)) and z3.is_const(v) and str(v) in path.doms:
                        return self._split(path, str(v))
        return None

    def _in_range(self, path: Path, v: Value, lo: int, hi: int, what: str) -> None:
        if isinstance(v, (int, bool)):
            if not lo <= int(v) <= hi:
                raise Dead(f"{what} = {v} outside {lo}..{hi}")
        else:
            path.cond.append(z3.And(v >= lo, v <= hi))

    def do_set(self, s: M.SetStmt, path: Path, scope: dict) -> None:
        name, index = self._index(s.target, path, scope)
        var = self.layout.slots[name].var
        value, _ = self.val(s.value, path, scope)
        if var.type == "bool" and not isinstance(value, (int, bool)):
            value = z3.If(self.enc.as_bool(value), 1, 0)
        elif isinstance(value, bool):
            value = int(value)
        self._in_range(path, value, var.lo, var.hi, s.target.render())
        self._write(path, name, self._cells(name, index, path), lambda old: value)

    def do_move(self, s: M.MoveStmt, path: Path, scope: dict) -> None:
        src_name, si = self._index(s.source, path, scope)
        dst_name, di = self._index(s.target, path, scope)
        src_cells = self._cells(src_name, si, path)
        dst_cells = self._cells(dst_name, di, path)
        have, there = self._read(path, src_cells), self._read(path, dst_cells)
        hi = self.layout.slots[dst_name].var.hi
        amount = have if s.amount is None else self.val(s.amount, path, scope)[0]
        if all(isinstance(x, int) for x in (have, there, amount)):
            if amount < 0:
                raise Dead("negative move")
            if s.upto:
                amount = min(amount, have, hi - there)
            elif amount > have or amount > hi - there:
                raise Dead(f"move of {amount} from {have} into room {hi - there}")
        else:
            h, d, a = self._term(have), self._term(there), self._term(amount)
            path.cond.append(a >= 0)
            if s.upto:
                a = z3.If(a < h, a, h)
                a = z3.If(a < hi - d, a, hi - d)
            else:
                path.cond.append(z3.And(a <= h, a <= hi - d))
            amount = self._concrete(a)
        if isinstance(amount, int) and amount == 0:
            return
        self._write(path, src_name, src_cells, lambda old: old - amount if isinstance(old, int) and
                    isinstance(amount, int) else self._term(old) - self._term(amount))
        self._write(path, dst_name, dst_cells, lambda old: old + amount if isinstance(old, int) and
                    isinstance(amount, int) else self._term(old) + self._term(amount))

    # ---- running a path ---------------------------------------------------------------------
    def start(self, values: list[int], procedure: str, args: dict[str, tuple[int, str]]) -> Path:
        path = Path(list(values), set(), [], [])
        self._call(path, self.procs[procedure], dict(args))
        return path

    def _call(self, path: Path, proc: M.Rule, scope: dict) -> None:
        frame = Frame(scope, [Block(proc.body)])
        path.frames.append(frame)
        if proc.requires is not None:
            c = self.cond(proc.requires, path, scope)
            if c is False:
                raise Dead(f"{proc.name} called without its precondition")
            if c is not True:
                path.cond.append(c)

    def run(self, path: Path, turns: int, decide: tuple[str, ...]) -> tuple[str, list[Path]]:
        """Run one path until it forks (``fork``: the successors), the game ends (``end``), a
        turn ends (``turn``; ``horizon`` after the last of ``turns``) or the step budget runs out
        (``budget``); raises Dead where the engine would stop with a fault."""
        budget = STEP_LIMIT
        while True:
            budget -= 1
            if budget < 0:
                return "budget", [path]
            if not path.frames:       # resumed after a turn: the next one begins
                self._call(path, self.procs[self.spec.turn], {})
                continue
            frame = path.frames[-1]
            if not frame.blocks:
                path.frames.pop()
                if not path.frames:
                    path.turns += 1
                    return ("horizon" if path.turns >= turns else "turn"), [path]
                continue
            block = frame.blocks[-1]
            if block.loop is not None:
                out = self._loop(path, frame, block)
                if out is not None:
                    return "fork", out
                continue
            if block.event is not None:
                out = self._dispatch(path, frame, block, decide)
                if out is not None:
                    return "fork", out
                continue
            if block.i >= len(block.stmts):
                frame.blocks.pop()
                continue
            s = block.stmts[block.i]
            block.i += 1
            out = self._stmt(s, path, frame, decide)
            if out == "end":
                return "end", [path]
            if out is not None:
                return "fork", out

    def _stmt(self, s: Any, path: Path, frame: Frame, decide: tuple[str, ...]) -> Any:  # noqa: C901
        scope = frame.locals
        if isinstance(s, M.SayStmt):
            return None
        if isinstance(s, M.LetStmt):
            scope[s.name] = self.val(s.value, path, scope)
            return None
        if isinstance(s, (M.SetStmt, M.MoveStmt)):
            targets = (s.target,) if isinstance(s, M.SetStmt) else (s.source, s.target)
            for target in targets:
                split = self._split_index(target, path, scope)
                if split is not None:
                    return split
            (self.do_set if isinstance(s, M.SetStmt) else self.do_move)(s, path, scope)
            return None
        if isinstance(s, M.IfStmt):
            outs = []
            for p, truth in self.branch(path, self.cond(s.cond, path, scope)):
                body = s.then if truth else s.other
                if body:
                    p.frames[-1].blocks.append(Block(body))
                outs.append(p)
            return None if len(outs) == 1 and outs[0] is path else outs
        if isinstance(s, M.ForStmt):
            frame.blocks.append(Block((), loop=(s, 0)))
            return None
        if isinstance(s, M.CallStmt):
            types = dict(self.procs[s.proc].params)
            args = {n: (self.val(e, path, scope)[0], types[n]) for n, e in s.args}
            self._call(path, self.procs[s.proc], args)
            return None
        if isinstance(s, M.EmitStmt):
            decl = self.events[s.event]
            types = dict(decl.params)
            args = {n: (self.val(e, path, scope)[0], types[n]) for n, e in s.args}
            if decl.requires is not None:  # the event's contract, as the engine checks it at the emit
                c = self.cond(decl.requires, path, args)
                if c is False:
                    raise Dead(f"{s.event} emitted without its precondition")
                if c is not True:
                    path.cond.append(c)
            rules = self.triggered[s.event]
            ordered = decl.order == "declared" or len(rules) < 2
            path.frames.append(Frame(args, [Block((), event=(decl, rules, 0 if ordered else set()))]))
            return None
        if isinstance(s, M.MenuStmt):
            split = self._split_seen(s, path, frame)
            if split is not None:
                return split
            return self._menu(s, path, frame, decide)
        if isinstance(s, M.RandomStmt):
            self._random(s, path, scope)
            return None
        if isinstance(s, M.RollStmt):
            die = next(d for d in self.spec.dice if d.name == s.die)
            dom = self.layout.domains[die.domain]
            faces = sorted({dom.index(f) for f in die.faces})
            if self.follow is not None:
                faces = [v for _, v, _, _ in self._followed([(0, f, True, "") for f in faces], False,
                                                            (s.where.file, s.where.line), chance=True)]
            value: Value = faces[0]
            if len(faces) > 1:
                var = self._constant()
                path.cond.append(z3.Or([var == f for f in faces]))
                path.doms[str(var)] = (var, tuple(faces))
                path.free[str(var)] = var
                value = var
            scope[s.var] = (value, die.domain)
            path.trail.append(Step("roll", (s.where.file, s.where.line), (value,), shown=(s.die, die.domain)))
            return None
        if isinstance(s, M.EndStmt):
            path.result = (s.result, s.rule)
            return "end"
        raise TypeError(f"cannot run {s!r}")

    def _elements(self, domain: E.Expr, path: Path, scope: dict) -> tuple[list[Value], str]:
        if isinstance(domain, E.Name):
            if domain.id == "bool":
                return [0, 1], "bool"
            return list(range(self.enc.size(domain.id))), domain.id
        items = [self.val(i, path, scope) for i in domain.items]
        t = next((t for _, t in items if t != "none"), items[0][1] if items else "int")
        return [v for v, _ in items], t

    def _guards(self, var: str, domain: E.Expr, cond: E.Expr | None, path: Path, scope: dict
                ) -> tuple[list[tuple[Value, Value]], str]:
        """(element, its guard) for each element of a binder's domain whose guard may hold, and
        the elements' type; ``var`` is bound only while each guard is evaluated."""
        elements, t = self._elements(domain, path, scope)
        saved = scope.get(var)
        out = []
        for v in elements:
            scope[var] = (v, t)
            g = self.cond(cond, path, scope)
            if g is not False:
                out.append((v, g))
        if saved is None:
            scope.pop(var, None)
        else:
            scope[var] = saved
        return out, t

    def _loop(self, path: Path, frame: Frame, block: Block) -> list[Path] | None:
        s, pos = block.loop
        scope = frame.locals
        elements, t = self._elements(s.domain, path, scope)
        while pos < len(elements):
            scope[s.var] = (elements[pos], t)
            pos += 1
            block.loop = (s, pos)
            c = self.cond(s.cond, path, scope)
            if c is True:
                frame.blocks.append(Block(s.body))
                return None
            if c is False:
                continue
            outs = []
            for p, truth in self.branch(path, c):
                if truth:
                    p.frames[-1].blocks.append(Block(s.body))
                outs.append(p)
            return outs
        frame.blocks.pop()
        return None

    def _dispatch(self, path: Path, frame: Frame, block: Block, decide: tuple[str, ...]) -> list[Path] | None:
        decl, rules, state = block.event
        scope = frame.locals
        if not isinstance(state, set):   # declared order: each rule whose 'when' holds, in turn
            if state >= len(rules):
                frame.blocks.pop()
                return None
            rule = rules[state]
            block.event = (decl, rules, state + 1)
            outs = []
            for p, truth in self.branch(path, self.cond(rule.when, path, scope)):
                if truth:
                    p.frames.append(Frame(dict(scope), [Block(rule.body)]))
                outs.append(p)
            return None if len(outs) == 1 and outs[0] is path else outs
        # chosen order: while some rule applies and has not resolved, the player picks the next
        guards = [False if r.id in state else self.cond(r.when, path, scope) for r in rules]
        if all(g is False for g in guards):
            frame.blocks.pop()
            return None
        options = [(i, 0, g, f"{r.id} first ({menu_lead(r.text)})")
                   for i, (r, g) in enumerate(zip(rules, guards)) if g is not False]
        if self.follow is not None:
            options = self._followed(options, False, (f"event {decl.name}", 0))
            decide = ()
        none_left = z3.Not(z3.Or([self._as_bool(g) for _, _, g, _ in options]))
        outs = []
        for p, (i, _, g) in self._choose(path, options, decide, (f"event {decl.name}", 0), False, guards):
            p.frames[-1].blocks[-1].event[2].add(rules[i].id)
            p.frames.append(Frame(dict(scope), [Block(rules[i].body)]))
            outs.append(p)
        if any(not isinstance(g, bool) for _, _, g, _ in options) and self.feasible(path.cond + [none_left]):
            p = path.fork()
            p.cond.append(none_left)
            p.frames[-1].blocks.pop()
            outs.append(p)
        return outs

    def _followed(self, options: list[tuple[int, Value, Value, str]], auto: bool, where: tuple[str, int],
                  chance: bool = False) -> list[tuple[int, Value, Value, str]]:
        """In follow mode (``self.follow``: the engine's action keys, in order), the one option
        the engine took here; a lone option of an auto menu or a lone outcome is taken without a
        key, as the engine does. Raises Paused when the keys run out at a node."""
        if auto and len(options) == 1 and options[0][2] is True:
            return options
        if not self.follow:
            raise Paused(where)
        key = tuple(self.follow.pop(0))
        hit = [o for o in options if (o[1],) == key] if chance else [o for o in options if (o[0], o[1]) == key]
        if len(hit) != 1 or hit[0][2] is not True:
            raise AssertionError(f"at {where}: the engine's action {key} is not one option here: {options}")
        return hit

    def _as_bool(self, g: Value) -> Term:
        return z3.BoolVal(bool(g)) if isinstance(g, (bool, int)) else g

    def _choose(self, path: Path, options: list[tuple[int, Value, Value, str]], decide: tuple[str, ...],
                where: tuple[str, int], auto: bool, enabled: list[Value]
                ) -> Iterable[tuple[Path, tuple[int, Value, Value]]]:
        """The forks of a decision: each option whose guard may hold, unless a ``decide`` pattern
        fixes it (the first option whose label text holds a pattern, earliest pattern first)."""
        before: list[Term] = []       # the patterns' options passed over: their guards are false
        picked: list[tuple[int, Value, Value, list[Term], bool]] = []
        for pattern in decide:
            for o, v, g, text in options:
                if pattern in text:
                    picked.append((o, v, g, list(before), True))
                    if not isinstance(g, (bool, int)):
                        before.append(z3.Not(g))
                    else:
                        break
            else:
                continue
            break
        if not picked or not isinstance(picked[-1][2], (bool, int)):
            picked += [(o, v, g, list(before), False) for o, v, g, _ in options]
        for o, v, g, extra, fixed in picked:
            lits = extra + ([] if isinstance(g, (bool, int)) else [g])
            p = self.restrict(path, z3.And(lits) if len(lits) > 1 else lits[0]) if lits else path.fork()
            if p is None:
                continue
            if fixed and len(options) > 1:
                p.pruned = True
            p.trail.append(Step("choose", where, (o, v), list(enabled), auto))
            yield p, (o, v, g)

    def _menu(self, s: M.MenuStmt, path: Path, frame: Frame, decide: tuple[str, ...]) -> list[Path]:
        scope = frame.locals
        options: list[tuple[int, Value, Value, str]] = []
        types: dict[int, str] = {}    # the type of each option's name
        for o_index, opt in enumerate(s.options):
            if opt.var is not None and opt.domain is not None:
                guarded, types[o_index] = self._guards(opt.var, opt.domain, opt.cond, path, scope)
                options += [(o_index, v, g, opt.label.source) for v, g in guarded]
            else:
                g = self.cond(opt.cond, path, scope)
                if g is not False:
                    options.append((o_index, 0, g, opt.label.source))
        enabled = [g for _, _, g, _ in options]
        outs = []
        if self.follow is not None:
            options = self._followed(options, s.auto, (s.where.file, s.where.line))
            decide = ()
        for p, (o, v, _) in self._choose(path, options, decide, (s.where.file, s.where.line), s.auto, enabled):
            opt = s.options[o]
            f = p.frames[-1]
            if opt.var is not None:
                f.locals[opt.var] = (v, types[o])
            f.blocks.append(Block(opt.body))
            outs.append(p)
        return outs

    def _random(self, s: M.RandomStmt, path: Path, scope: dict) -> None:
        members, t = self._guards(s.var, s.domain, s.cond, path, scope)
        if not members:
            raise Dead(f"chance node {s.kind} {s.var} with no outcome")
        if self.follow is not None:
            members = [(v, g) for o, v, g, _ in self._followed([(0, v, g, "") for v, g in members], True,
                                                               (s.where.file, s.where.line), chance=True)]
        if len(members) == 1 and members[0][1] is True:
            value: Value = members[0][0]
        else:
            var = self._constant()
            path.cond.append(z3.Or([z3.And(var == self._term(v), self._as_bool(g)) for v, g in members]))
            path.free[str(var)] = var
            if all(isinstance(v, int) for v, _ in members):
                path.doms[str(var)] = (var, tuple(v for v, _ in members))
            value = var
        scope[s.var] = (value, t)
        path.trail.append(Step(s.kind, (s.where.file, s.where.line), (value,),
                               [g for _, g in members], True, (s.kind, t)))
