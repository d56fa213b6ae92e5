"""The Z3 encoder of the symbolic executor (unroll.py), folding concrete parts: a subexpression that
reads only concrete cells and names is evaluated by the engine's compiled closure (a numeral, not a
term), so the encoding of a mostly concrete position is as small as its symbolic part."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import z3

from ..engine import Game
from ..spec import expr as E
from .symbolic import Encoder, Term

if TYPE_CHECKING:
    from .unroll import Unroller


class _Symbolic(Exception):
    """A compiled expression read a cell that holds a Z3 term."""


class _Guarded(list):  # type: ignore[type-arg]
    """A path's values for the engine's closures: reading a cell that holds a Z3 term stops them."""

    __slots__ = ()

    def __getitem__(self, i: Any) -> Any:
        x = list.__getitem__(self, i)
        if isinstance(i, slice):
            if not all(isinstance(y, int) for y in x):
                raise _Symbolic
        elif not isinstance(x, int):
            raise _Symbolic
        return x


class _FoldingEncoder(Encoder):
    """The Z3 encoder, with every subexpression that reads only concrete cells and concrete names
    evaluated by the engine's compiled closure instead (a numeral, not a term): the encoding of a
    mostly concrete position is then as small as its symbolic part."""

    def __init__(self, game: Game, unroller: "Unroller") -> None:
        super().__init__(game.spec, game.layout)
        self.u = unroller
        self.values: _Guarded = _Guarded()
        self.true, self.false = z3.BoolVal(True), z3.BoolVal(False)
        # the Python value of a numeral or truth value by term id; every term in it is kept alive
        # (in _ints, true, false) so that no other term can come to have its id
        self.known: dict[int, Any] = {self.true.get_id(): True, self.false.get_id(): False}

    def encode(self, e: E.Expr, state: list[Term], scope: Any) -> tuple[Term, str]:
        if self.u.closures and not isinstance(e, (E.Num, E.Bool, E.NoneLit, E.Qualified)):
            _, names = self.u._names(e)
            local: dict[str, Any] = {}
            types: list[tuple[str, str]] = []
            known = self.known
            for n in names:
                if n in scope:
                    term, t = scope[n]
                    value = known.get(term.get_id())
                    if value is None:
                        if isinstance(term, z3.IntNumRef):
                            value = term.as_long()
                            self.intval(value)      # kept alive, so its id stays its own
                        elif z3.is_true(term) or z3.is_false(term):
                            value = known[term.get_id()] = z3.is_true(term)
                        else:
                            return super().encode(e, state, scope)
                    local[n] = value
                    types.append((n, t))
            try:
                fn, t = self.u.compiled(e, tuple(sorted(types)))
                value = fn(self.values, local)
            except Exception:   # a symbolic cell, or a fault in a part the engine would not reach
                return super().encode(e, state, scope)
            if t == "bool":
                return (self.true if value else self.false), t
            return self.intval(int(value)), t
        return super().encode(e, state, scope)

    def intval(self, n: int) -> Term:
        t = self._ints.get(n)
        if t is None:
            t = self._ints[n] = z3.IntVal(n)
            self.known[t.get_id()] = n
        return t
