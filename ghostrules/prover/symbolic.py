"""The condition language as Z3 terms over a symbolic state.

A symbolic state is one Z3 integer term per flat state slot (the same layout the engine uses); a
boolean slot is an integer 0/1. Expressions are encoded from the same ASTs the engine compiles:
indices over finite domains become if-then-else chains, quantifiers are expanded over their
domains, definitions are inlined (they are not recursive). This second, independent reading of
the spec is checked against the engine by a differential test.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable

import z3

from ..engine.layout import Layout
from ..spec import expr as E
from ..spec.model import GameSpec
from ..spec.names import NameProblem, Names

Term = Any  # z3.ArithRef or z3.BoolRef
Scope = dict[str, tuple[Term, str]]


# definitions encoded over the pre-state, by what they read (see Encoder._define)
_SHARED_DEFINES: dict[Any, Any] = {}


# large boolean definitions stand for their expansion as a named atom (see Encoder.atom_limit):
# atom name -> (atom, expansion); shared by the encoders of a process
_ATOMS: dict[str, tuple[Term, Term]] = {}


# with at most this many atoms in the process, every atom's definition is given when the terms are
# larger than ATOM_WALK_LIMIT nodes (see atom_definitions)
ALL_ATOMS_UP_TO = 64
ATOM_WALK_LIMIT = 20_000


def atom_definitions(terms: list[Term], walk_limit: int | None = None) -> list[Term]:
    """``atom == expansion`` for every atom these terms reach (through expansions too).

    The terms are walked for the atoms they reach. Walking terms of hundreds of thousands of nodes
    from Python takes seconds (Betrayal's options over 47 rooms), so while the process knows few
    atoms (``ALL_ATOMS_UP_TO``) the walk stops after ``walk_limit`` nodes (``ATOM_WALK_LIMIT``)
    and the definitions of all atoms are returned instead. That is sound: an atom is a fresh
    symbol, and its definition ``atom == expansion`` constrains nothing else, so a formula with the
    definitions of atoms it does not use has a model exactly when it has one without them. It is
    not free: an unused definition still costs Z3 its expansion (the lines of sight of one
    Betrayal rule made a one-line obligation of another take 13 s and come out unknown), hence the
    walk first."""
    if not _ATOMS:
        return []
    limit = ATOM_WALK_LIMIT if walk_limit is None else walk_limit
    few = len(_ATOMS) <= ALL_ATOMS_UP_TO
    out: list[Term] = []
    seen: set[int] = set()
    stack = list(terms)
    while stack:
        if few and len(seen) > limit:
            return [atom == expansion for atom, expansion in _ATOMS.values()]
        x = stack.pop()
        i = x.get_id()
        if i in seen:
            continue
        seen.add(i)
        if z3.is_const(x) and x.num_args() == 0:
            hit = _ATOMS.get(x.decl().name())
            if hit is not None:
                out.append(hit[0] == hit[1])
                stack.append(hit[1])
            continue
        stack.extend(x.children())
    return out


def _ite(c: Term, a: Term, b: Term) -> Term:
    """z3.If for two terms of the same sort, without z3.If's coercions (the chains of symbolic
    reads are most of the encoding time)."""
    ctx = c.ctx
    return z3.z3._to_expr_ref(z3.z3core.Z3_mk_ite(ctx.ref(), c.as_ast(), a.as_ast(), b.as_ast()), ctx)


class EncodeError(Exception):
    pass


class Encoder:
    """Encodes expressions of one configuration; ``state`` is a list of Z3 Int terms (flat slots)."""

    def __init__(self, spec: GameSpec, layout: Layout) -> None:
        self.spec = spec
        self.layout = layout
        self.domains = layout.domains
        # the same resolution of names as the engine's compiler (ghostrules/spec/names.py)
        self.names = Names(spec, layout.slots)
        self.tables = self.names.tables
        self.constants = self.names.constants
        self.params: dict[str, tuple[int, str]] = {n: (v, t) for n, (t, v) in self.names.params.items()}
        self.defines: dict[str, Any] = self.names.defines
        self.extends = self.names.extends
        self._table_cache: dict[str, Any] = {}
        self._reads: dict[Any, Any] = {}
        self._memo: dict[Any, Any] = {}
        # the symbolic pre-state of the prover (definitions over it are shared between configurations)
        self.pre_state: list[Term] | None = None
        self._define_keys: dict[str, str] = {}
        self._layout_sig: str | None = None
        self._ints: dict[int, Term] = {}
        # a boolean definition whose expansion has more nodes than this is encoded as an atom
        # (its meaning is given to the solver only when an obligation needs it: see
        # atom_definitions); None: always expanded (the engine-agreement test reads full terms)
        self.atom_limit: int | None = None
        self._encoded = 0
        # definition terms shared with other encoders over the same states (share_definitions)
        self._common: dict[Any, Any] | None = None

    def share_definitions(self, other: Encoder) -> None:
        """Keep the definitions encoded by this encoder and ``other`` in one table, by what they
        mean (``define_key``) and the state and arguments they are applied to: a definition that
        means the same in both specs (most of them, for two editions of a configuration) is encoded
        once for both. The two encoders must read the same state layout."""
        if other._common is None:
            other._common = {}
        self._common = other._common

    # ---- helpers -------------------------------------------------------------------------
    def size(self, domain: str) -> int:
        return 2 if domain == "bool" else len(self.domains[domain].symbols)

    def slot_cells(self, name: str) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        slot = self.layout.slots[name]
        return slot.offset, slot.sizes, slot.strides

    def flat_index(self, name: str, index_terms: list[Term]) -> Term:
        """A term for the flat position of name[index...] (assumed within the domains)."""
        off, _, strides = self.slot_cells(name)
        total: Term = z3.IntVal(off)
        for t, st in zip(index_terms, strides):
            total = total + t * st
        return total

    def read_slot(self, state: list[Term], name: str, index_terms: list[Term]) -> Term:
        off, sizes, strides = self.slot_cells(name)
        if not sizes:
            return state[off]
        return self._select(state, off, sizes, strides, index_terms)

    def _select(self, state: list[Term], off: int, sizes: tuple[int, ...], strides: tuple[int, ...],
                idx: list[Term]) -> Term:
        # concrete indices pick directly; symbolic ones become an if-then-else chain
        # (z3 wraps every integer numeral as an IntNumRef: a Python type test, no call into z3)
        consts = [t.as_long() if isinstance(t, z3.IntNumRef) else None for t in idx]
        if all(c is not None for c in consts):
            flat = off + sum(c * st for c, st in zip(consts, strides))  # type: ignore[operator]
            return state[flat]
        # the same read of the same state is built once (z3 would share the term, but building
        # the chain in Python is what costs)
        key = (id(state), off, tuple(t.get_id() for t in idx))
        hit = self._reads.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        out = self._chain(state, off, sizes, strides, idx)
        self._reads[key] = (state, out)
        return out

    def _chain(self, state: list[Term], off: int, sizes: tuple[int, ...], strides: tuple[int, ...],
               idx: list[Term]) -> Term:
        first, rest = idx[0], idx[1:]
        branches = []
        for i in range(sizes[0]):
            if rest:
                val = self._select(state, off + i * strides[0], sizes[1:], strides[1:], rest)
            else:
                val = state[off + i * strides[0]]
            branches.append((i, val))
        out = branches[-1][1]
        for i, val in reversed(branches[:-1]):
            out = _ite(first == i, val, out)
        return out

    def table_value(self, name: str, idx: list[Term]) -> Term:
        if name not in self._table_cache:
            table = self.tables[name]
            sizes = tuple(self.size(a) for a in table.args)
            strides = []
            acc = 1
            for s in reversed(sizes):
                strides.append(acc)
                acc *= s
            self._table_cache[name] = ([self.intval(v) for v in table.values], sizes, tuple(reversed(strides)))
        values, sizes, strides = self._table_cache[name]
        return self._select(values, 0, sizes, strides, idx)

    def intval(self, n: int) -> Term:
        if n not in self._ints:
            self._ints[n] = z3.IntVal(n)
        return self._ints[n]

    @staticmethod
    def as_bool(term: Term) -> Term:
        return term if z3.is_bool(term) else term != 0

    @staticmethod
    def as_int(term: Term) -> Term:
        return z3.If(term, 1, 0) if z3.is_bool(term) else term

    def _base_of(self, base: str, d: str) -> bool:
        return self.names.base_of(base, d)

    # ---- expressions ---------------------------------------------------------------------
    def encode(self, e: E.Expr, state: list[Term], scope: Scope) -> tuple[Term, str]:  # noqa: C901
        self._encoded += 1
        if isinstance(e, E.Num):
            return self.intval(e.value), "int"
        if isinstance(e, E.Bool):
            return z3.BoolVal(e.value), "bool"
        if isinstance(e, E.NoneLit):
            return z3.IntVal(-1), "none"
        if isinstance(e, E.Qualified):
            return z3.IntVal(self.domains[e.domain].index(e.symbol)), e.domain
        if isinstance(e, E.Name):
            return self._name(e.id, state, scope)
        if isinstance(e, E.Index):
            idx = [self.as_int(self.encode(a, state, scope)[0]) for a in e.args]
            if e.name in self.layout.slots:
                var = self.layout.slots[e.name].var
                val = self.read_slot(state, e.name, idx)
                return (val != 0 if var.type == "bool" else val), var.type
            table = self.tables[e.name]
            val = self.table_value(e.name, idx)
            return (val != 0 if table.type == "bool" else val), table.type
        if isinstance(e, E.Call):
            if e.func in self.defines:
                return self._define(e.func, e.args, state, scope)
            args = [self.as_int(self.encode(a, state, scope)[0]) for a in e.args]
            if e.func == "abs":
                return z3.If(args[0] >= 0, args[0], -args[0]), "int"
            out = args[0]
            for a in args[1:]:
                out = z3.If(a < out, a, out) if e.func == "min" else z3.If(a > out, a, out)
            return out, "int"
        if isinstance(e, E.Unary):
            t, _ = self.encode(e.operand, state, scope)
            if e.op == "not":
                return z3.Not(self.as_bool(t)), "bool"
            return -self.as_int(t), "int"
        if isinstance(e, E.Binary):
            return self._binary(e, state, scope)
        if isinstance(e, E.Cond):
            test = self.as_bool(self.encode(e.test, state, scope)[0])
            a, ta = self.encode(e.then, state, scope)
            b, tb = self.encode(e.other, state, scope)
            if ta == "bool" and tb == "bool":
                return z3.If(test, a, b), "bool"
            t = ta if ta != "none" else tb
            return z3.If(test, self.as_int(a), self.as_int(b)), t
        if isinstance(e, E.Quant):
            return self._quant(e, state, scope)
        raise EncodeError(f"cannot encode {e.render()}")

    def _name(self, name: str, state: list[Term], scope: Scope) -> tuple[Term, str]:
        if name in scope:
            return scope[name]
        try:
            kind, meaning = self.names.resolve(name)
        except NameProblem as exc:
            raise EncodeError(str(exc)) from None
        if kind == "constant":
            return z3.IntVal(meaning), "int"
        if kind == "param":
            t, v = meaning
            return z3.IntVal(v), t
        if kind == "slot":
            off = meaning.offset
            var = meaning.var
            return (state[off] != 0 if var.type == "bool" else state[off]), var.type
        if kind == "table":
            return z3.IntVal(meaning.values[0]), meaning.type
        if kind == "define":
            return self._define(name, (), state, scope)
        domain, index = meaning
        return z3.IntVal(index), domain

    def _define(self, name: str, args: tuple[E.Expr, ...], state: list[Term], scope: Scope) -> tuple[Term, str]:
        d = self.defines[name]
        inner: Scope = {}
        for a, (pname, ptype) in zip(args, d.params):
            term, _ = self.encode(a, state, scope)
            inner[pname] = (self.as_bool(term) if ptype == "bool" else self.as_int(term), ptype)
        # a definition depends only on its arguments and the state: encode each combination once
        key = (name, tuple(t.get_id() for t, _ in inner.values()), id(state))
        hit = self._memo.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        common_key = None
        if self._common is not None:
            args = [t for t, _ in inner.values()]
            common_key = (self.define_key(name), tuple(t.get_id() for t in args), id(state), self.atom_limit)
            common = self._common.get(common_key)
            if common is not None and common[0] is state and all(a.eq(b) for a, b in zip(common[1], args)):
                self._memo[key] = (state, common[2])
                return common[2]
        shared_key = None
        if state is self.pre_state:
            # over the pre-state (the same Z3 constants in every configuration), a definition's
            # term is shared by the configurations where it reads the same things (its text, the
            # definitions, parameters, constants and tables it reaches, the state layout); the
            # arguments are compared as terms, not just by id
            args = [t for t, _ in inner.values()]
            shared_key = (self.define_key(name), tuple(t.get_id() for t in args), len(state), self.atom_limit)
            shared = _SHARED_DEFINES.get(shared_key)
            if shared is not None and len(shared[0]) == len(args) and all(a.eq(b) for a, b in zip(shared[0], args)) \
                    and shared[1].eq(state[0] if state else z3.IntVal(0)):
                self._memo[key] = (state, shared[2])
                return shared[2]
        before = self._encoded
        result = self.encode(d.value, state, inner)
        # the expressions encoded for this unfolding (memoised parts count once): a cheap,
        # deterministic measure of the term's size
        if self.atom_limit is not None and result[1] == "bool" and self._encoded - before > self.atom_limit:
            label = f"{name}!{len(_ATOMS)}"
            atom = z3.Bool(label)
            _ATOMS[label] = (atom, result[0])
            result = (atom, "bool")
        self._memo[key] = (state, result)
        if common_key is not None:
            self._common[common_key] = (state, [t for t, _ in inner.values()], result)  # type: ignore[index]
        if shared_key is not None:
            _SHARED_DEFINES[shared_key] = ([t for t, _ in inner.values()], state[0] if state else z3.IntVal(0), result)
        return result

    def define_key(self, name: str) -> str:
        """A digest of what a definition's term is made of in this configuration."""
        if name not in self._define_keys:
            if self._layout_sig is None:
                slots = [(n, s.offset, s.sizes, s.var.lo, s.var.hi, s.var.type) for n, s in self.layout.slots.items()]
                self._layout_sig = repr(slots) + repr(self.spec.domains) + repr(self.layout.size)
            parts = self.meanings([E.Name(name)])
            text = "\n".join([self._layout_sig] + sorted(parts))
            self._define_keys[name] = hashlib.sha1(text.encode()).hexdigest()
        return self._define_keys[name]

    def meanings(self, exprs: list[Any]) -> set[str]:
        """What the global names these expressions reach mean in this configuration (definitions
        followed to their bodies; parameters, constants and tables with their values): two
        configurations with the same meanings encode the expressions to the same terms."""
        parts: set[str] = set()
        for n in names_in(exprs):
            parts |= self.name_meanings(n)
        return parts

    def name_meanings(self, n: str) -> frozenset[str]:
        """``meanings`` of one name (kept: a definition's body is followed once per encoder)."""
        if not hasattr(self, "_name_meanings"):
            self._name_meanings: dict[str, frozenset[str]] = {}
        hit = self._name_meanings.get(n)
        if hit is not None:
            return hit
        self._name_meanings[n] = frozenset()  # definitions are not recursive; guard anyway
        parts: set[str] = set()
        if n in self.defines:
            dd = self.defines[n]
            parts.add(f"define {n} {dd.params!r} {dd.value!r}")
            for m in names_in([dd.value]):
                parts |= self.name_meanings(m)
        if n in self.params:
            parts.add(f"param {n}={self.params[n]!r}")
        if n in self.constants:
            parts.add(f"const {n}={self.constants[n]!r}")
        if n in self.tables:
            parts.add(f"table {self.tables[n]!r}")
        hit = frozenset(parts)
        self._name_meanings[n] = hit
        return hit

    def _binary(self, e: E.Binary, state: list[Term], scope: Scope) -> tuple[Term, str]:
        op = e.op
        if op in ("and", "or"):
            a = self.as_bool(self.encode(e.left, state, scope)[0])
            b = self.as_bool(self.encode(e.right, state, scope)[0])
            return (z3.And(a, b) if op == "and" else z3.Or(a, b)), "bool"
        if op == "in":
            a, ta = self.encode(e.left, state, scope)
            assert isinstance(e.right, E.ListLit)
            items = [self.encode(i, state, scope)[0] for i in e.right.items]
            if ta == "bool":
                return z3.Or([a == self.as_bool(i) for i in items]), "bool"
            return z3.Or([self.as_int(a) == self.as_int(i) for i in items]), "bool"
        card = self._cardinality(e, state, scope)
        if card is not None:
            return card, "bool"
        a, ta = self.encode(e.left, state, scope)
        b, tb = self.encode(e.right, state, scope)
        if op in ("==", "!="):
            if ta == "bool" or tb == "bool":
                eq = self.as_bool(a) == self.as_bool(b)
            else:
                eq = a == b
            return (eq if op == "==" else z3.Not(eq)), "bool"
        a, b = self.as_int(a), self.as_int(b)
        if op == "<":
            return a < b, "bool"
        if op == "<=":
            return a <= b, "bool"
        if op == ">":
            return a > b, "bool"
        if op == ">=":
            return a >= b, "bool"
        if op == "+":
            return a + b, "int"
        if op == "-":
            return a - b, "int"
        if op == "*":
            return a * b, "int"
        if op == "//":
            # Python floor division (b > 0 in every spec); 0 when b is 0, as in the engine
            return z3.If(b == 0, 0, a / b), "int"
        if op == "%":
            return z3.If(b == 0, 0, a % b), "int"
        raise EncodeError(f"operator {op}")

    def _cardinality(self, e: E.Binary, state: list[Term], scope: Scope) -> Term | None:
        """``count(...) <= k`` (and <, >=, >, ==, != with a literal k) as a pseudo-boolean
        cardinality constraint: Z3 reasons about AtMost/AtLeast natively, far faster than about
        a sum of if-then-elses (one ghost per slot is 12 such counts over 65 cards)."""
        op, left, right = e.op, e.left, e.right
        if op not in ("<=", "<", ">=", ">", "==", "!="):
            return None
        if isinstance(left, E.Num) and isinstance(right, E.Quant):
            left, right = right, left
            op = {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "==", "!=": "!="}[op]
        if not (isinstance(left, E.Quant) and left.kind == "count" and isinstance(right, E.Num)):
            return None
        conds = self._quant_conds(left, state, scope)
        k = right.value
        if op == "<":
            op, k = "<=", k - 1
        elif op == ">":
            op, k = ">=", k + 1
        if op == "<=":
            return z3.BoolVal(k >= len(conds)) if k >= len(conds) else (
                z3.BoolVal(False) if k < 0 else z3.Not(z3.Or(conds)) if k == 0 else z3.AtMost(*conds, k))
        if op == ">=":
            return z3.BoolVal(True) if k <= 0 else z3.BoolVal(False) if k > len(conds) else (
                z3.Or(conds) if k == 1 else z3.AtLeast(*conds, k))
        if k < 0 or k > len(conds):
            eq: Term = z3.BoolVal(False)
        elif k == 0:
            eq = z3.Not(z3.Or(conds)) if conds else z3.BoolVal(True)
        else:
            eq = z3.And(z3.AtMost(*conds, k), z3.AtLeast(*conds, k))
        return eq if op == "==" else z3.Not(eq)

    def _quant_conds(self, e: E.Quant, state: list[Term], scope: Scope) -> list[Term]:
        conds = []
        for term, t in self._quant_elements(e, state, scope):
            inner = dict(scope)
            inner[e.var] = (term, t)
            conds.append(self.as_bool(self.encode(e.cond, state, inner)[0]) if e.cond is not None else z3.BoolVal(True))
        return conds

    def _quant_elements(self, e: E.Quant, state: list[Term], scope: Scope) -> list[tuple[Term, str]]:
        if isinstance(e.domain, E.Name):
            dtype = e.domain.id
            if dtype == "bool":
                return [(z3.BoolVal(False), "bool"), (z3.BoolVal(True), "bool")]
            return [(self.intval(i), dtype) for i in range(self.size(dtype))]
        elements = [self.encode(i, state, scope) for i in e.domain.items]
        dtype = elements[0][1] if elements else "int"
        return [(term, t if t != "none" else dtype) for term, t in elements]

    def _quant(self, e: E.Quant, state: list[Term], scope: Scope) -> tuple[Term, str]:
        if isinstance(e.domain, E.Name):
            dtype = e.domain.id
            elements: list[tuple[Term, str]] = [(self.intval(i), dtype) for i in range(self.size(dtype))]
            if dtype == "bool":
                elements = [(z3.BoolVal(False), "bool"), (z3.BoolVal(True), "bool")]
        else:
            elements = [self.encode(i, state, scope) for i in e.domain.items]
            dtype = elements[0][1] if elements else "int"
        conds, bodies, values = [], [], []
        for term, t in elements:
            inner = dict(scope)
            inner[e.var] = (term, t if t != "none" else dtype)
            conds.append(self.as_bool(self.encode(e.cond, state, inner)[0]) if e.cond is not None else z3.BoolVal(True))
            bodies.append(self.encode(e.body, state, inner)[0] if e.body is not None else None)
            values.append(self.as_int(term) if not z3.is_bool(term) else term)
        kind = e.kind
        if kind == "count":
            return z3.Sum([z3.If(c, 1, 0) for c in conds]) if conds else z3.IntVal(0), "int"
        if kind == "sum":
            return z3.Sum([z3.If(c, self.as_int(b), 0) for c, b in zip(conds, bodies)]) if conds else z3.IntVal(0), "int"
        if kind == "exists":
            return z3.Or(conds) if conds else z3.BoolVal(False), "bool"
        if kind == "forall":
            return z3.And([z3.Implies(c, self.as_bool(b)) for c, b in zip(conds, bodies)]) if conds else z3.BoolVal(True), "bool"
        if kind == "first":
            out: Term = z3.IntVal(-1)
            for c, v in reversed(list(zip(conds, values))):
                out = z3.If(c, v, out)
            return out, dtype
        # min / max over the elements satisfying the condition; -1 when there is none
        out = z3.IntVal(-1)
        found: Term = z3.BoolVal(False)
        for c, b in zip(conds, bodies):
            bi = self.as_int(b)
            better = (bi < out) if kind == "min" else (bi > out)
            out = z3.If(c, z3.If(z3.Or(z3.Not(found), better), bi, out), out)
            found = z3.Or(found, c)
        return out, "int"


def names_in(exprs: list[Any]) -> set[str]:
    """The names these expressions use (names, functions called, slots or tables indexed), not
    following definitions."""
    out: set[str] = set()
    for e in exprs:
        for x in E.walk(e):
            n = x.id if isinstance(x, E.Name) else x.func if isinstance(x, E.Call) else \
                x.name if isinstance(x, E.Index) else None
            if n is not None:
                out.add(n)
    return out


def fresh_state(layout: Layout, prefix: str) -> list[Term]:
    return [z3.Int(f"{prefix}{i}") for i in range(layout.size)]


def range_facts(layout: Layout, state: list[Term]) -> list[Term]:
    """Every slot within its declared range."""
    out = []
    for name, slot in layout.slots.items():
        var = slot.var
        for k in range(slot.count):
            t = state[slot.offset + k]
            out.append(z3.And(t >= var.lo, t <= var.hi))
    return out


def concrete(state_values: list[int]) -> list[Term]:
    return [z3.IntVal(v) for v in state_values]


def evaluate(term: Term) -> Any:
    """The value of a term: True, False or a Python int when it simplifies to one (a closed term
    always does), else the simplified term."""
    v = z3.simplify(term)
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    return v.as_long() if isinstance(v, z3.IntNumRef) else v


EncodeFn = Callable[[E.Expr, list[Term], Scope], tuple[Term, str]]
