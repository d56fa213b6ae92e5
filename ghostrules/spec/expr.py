"""The condition language: a small, closed expression language parsed to an AST.

No ``eval``: text is tokenised and parsed by a Pratt parser into frozen nodes. The language has
integer and boolean literals, ``none``, names (locals, parameters, state variables, static tables,
domain symbols, derived definitions), indexing ``v[a, b]``, arithmetic ``+ - * // %``,
comparisons, ``and or not``, ``x in [a, b]``, ``a if c else b``, ``min``/``max``/``abs`` and
bounded quantifiers over finite domains::

    count(x in D if cond)          number of elements of D satisfying cond
    exists(x in D if cond)         is there one?
    forall(x in D if cond : body)  does body hold for every x satisfying cond?
    sum(x in D if cond : body)     sum of body over the elements satisfying cond
    min(x in D if cond : body)     (and max) the least value, or ``none`` if there is none
    first(x in D if cond)          the first element of D (in declared order) or ``none``

There are no loops, no recursion and no calls into Python, so every expression has a direct
Z3 meaning and a direct readable rendering (``render``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Union

import attrs


class ExprError(Exception):
    """A syntax error in an expression; ``column`` is 1-based."""

    def __init__(self, message: str, text: str, column: int) -> None:
        super().__init__(f"{message} at column {column} in {text!r}")
        self.message = message
        self.text = text
        self.column = column


@attrs.frozen
class Num:
    value: int

    def render(self) -> str:
        return str(self.value)


@attrs.frozen
class Bool:
    value: bool

    def render(self) -> str:
        return "true" if self.value else "false"


@attrs.frozen
class NoneLit:
    def render(self) -> str:
        return "none"


@attrs.frozen
class Name:
    id: str

    def render(self) -> str:
        return self.id


@attrs.frozen
class Qualified:
    """``domain.symbol``: a symbol named with its domain."""

    domain: str
    symbol: str

    def render(self) -> str:
        return f"{self.domain}.{self.symbol}"


@attrs.frozen
class Index:
    name: str
    args: tuple["Expr", ...]

    def render(self) -> str:
        return f"{self.name}[{', '.join(a.render() for a in self.args)}]"


@attrs.frozen
class Call:
    func: str
    args: tuple["Expr", ...]

    def render(self) -> str:
        return f"{self.func}({', '.join(a.render() for a in self.args)})"


@attrs.frozen
class ListLit:
    items: tuple["Expr", ...]

    def render(self) -> str:
        return f"[{', '.join(a.render() for a in self.items)}]"


@attrs.frozen
class Quant:
    """A bounded quantifier or aggregate over a finite domain (see module docstring)."""

    kind: str  # count exists forall sum min max first
    var: str
    domain: "Expr"  # Name of a domain or a ListLit
    cond: Union["Expr", None]
    body: Union["Expr", None]

    def render(self) -> str:
        text = f"{self.var} in {self.domain.render()}"
        if self.cond is not None:
            text += f" if {self.cond.render()}"
        if self.body is not None:
            text += f" : {self.body.render()}"
        return f"{self.kind}({text})"


@attrs.frozen
class Unary:
    op: str  # not, -
    operand: "Expr"

    def render(self) -> str:
        sep = " " if self.op == "not" else ""
        inner = self.operand
        text = inner.render()
        if isinstance(inner, (Binary, Cond)) or (self.op == "-" and isinstance(inner, Unary)):
            text = f"({text})"
        return f"{self.op}{sep}{text}"


@attrs.frozen
class Binary:
    op: str
    left: "Expr"
    right: "Expr"

    def render(self) -> str:
        return f"{_paren(self.left)} {self.op} {_paren(self.right)}"


@attrs.frozen
class Cond:
    test: "Expr"
    then: "Expr"
    other: "Expr"

    def render(self) -> str:
        return f"({self.then.render()} if {self.test.render()} else {self.other.render()})"


Expr = Union[Num, Bool, NoneLit, Name, Qualified, Index, Call, ListLit, Quant, Unary, Binary, Cond]

QUANTIFIERS = ("count", "exists", "forall", "sum", "min", "max", "first")
BUILTINS = ("min", "max", "abs")


def _paren(e: Expr) -> str:
    """Operands of a binary operator: compound ones are parenthesised, so rendering is unambiguous."""
    return f"({e.render()})" if isinstance(e, (Binary, Unary, Cond)) and not (
        isinstance(e, Unary) and e.op == "-" and not isinstance(e.operand, (Binary, Unary, Cond))) else e.render()


def walk(e: Expr | None) -> Iterator[Expr]:
    """Every node of an expression, itself first (nothing for None)."""
    stack = [e] if e is not None else []
    while stack:
        x = stack.pop()
        yield x
        stack.extend(children(x))


def children(e: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of a node (for walkers: compiler, prover, docs)."""
    if isinstance(e, (Index, Call)):
        return e.args
    if isinstance(e, ListLit):
        return e.items
    if isinstance(e, Quant):
        return tuple(x for x in (e.domain, e.cond, e.body) if x is not None)
    if isinstance(e, Unary):
        return (e.operand,)
    if isinstance(e, Binary):
        return (e.left, e.right)
    if isinstance(e, Cond):
        return (e.test, e.then, e.other)
    return ()


_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>//|==|!=|<=|>=|[-+*%<>()\[\],.:]))"
)
_KEYWORDS = {"and", "or", "not", "in", "if", "else", "true", "false", "none"}

# binding powers of infix operators
_INFIX = {
    "or": 10,
    "and": 20,
    "==": 40, "!=": 40, "<": 40, "<=": 40, ">": 40, ">=": 40, "in": 40,
    "+": 50, "-": 50,
    "*": 60, "//": 60, "%": 60,
}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        text_len = len(text)
        while pos < text_len:
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                at = pos + len(text[pos:]) - len(text[pos:].lstrip())
                raise ExprError(f"unexpected character {text[at]!r}", text, at + 1)
            kind = m.lastgroup or ""
            value = m.group(kind)
            start = m.start(kind) + 1
            if kind == "name" and value in _KEYWORDS:
                kind = "op"
            self.tokens.append((kind, value, start))
            pos = m.end()
        self.tokens.append(("end", "", len(text) + 1))
        self.i = 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def next(self) -> tuple[str, str, int]:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        kind, got, col = self.next()
        if got != value:
            shown = got or "end of expression"
            raise ExprError(f"expected {value!r}, found {shown!r}", self.text, col)

    def parse(self) -> Expr:
        e = self.expression(0)
        kind, value, col = self.peek()
        if kind != "end":
            raise ExprError(f"unexpected {value!r}", self.text, col)
        return e

    def expression(self, power: int) -> Expr:
        left = self.prefix()
        while True:
            kind, value, col = self.peek()
            if kind == "op" and value == "if" and power < 5:
                # conditional expression: a if c else b
                self.next()
                test = self.expression(6)
                self.expect("else")
                other = self.expression(4)  # right-associative: a if b else c if d else e
                left = Cond(test, left, other)
                continue
            if kind == "op" and value == "not" and power < 40:
                # "x not in [..]"
                if self.tokens[self.i + 1][1] == "in":
                    self.next()
                    self.next()
                    right = self.expression(41)
                    left = Unary("not", Binary("in", left, right))
                    continue
            if kind != "op" or value not in _INFIX or _INFIX[value] <= power:
                return left
            self.next()
            right = self.expression(_INFIX[value])
            if value == "in" and not isinstance(right, ListLit):
                raise ExprError("'in' needs a list like [a, b]", self.text, col)
            left = Binary(value, left, right)

    def prefix(self) -> Expr:
        kind, value, col = self.next()
        if kind == "num":
            return Num(int(value))
        if kind == "op":
            if value == "(":
                e = self.expression(0)
                self.expect(")")
                return e
            if value == "[":
                items = self.items("]")
                return ListLit(tuple(items))
            if value == "not":
                return Unary("not", self.expression(30))
            if value == "-":
                return Unary("-", self.expression(70))
            if value == "true":
                return Bool(True)
            if value == "false":
                return Bool(False)
            if value == "none":
                return NoneLit()
            raise ExprError(f"unexpected {value!r}", self.text, col)
        if kind == "name":
            nxt = self.peek()[1]
            if nxt == ".":
                self.next()
                k2, sym, c2 = self.next()
                if k2 != "name":
                    raise ExprError("expected a symbol after '.'", self.text, c2)
                return Qualified(value, sym)
            if nxt == "[":
                self.next()
                return Index(value, tuple(self.items("]")))
            if nxt == "(":
                self.next()
                if value in QUANTIFIERS and self._is_quantifier():
                    return self.quantifier(value)
                return Call(value, tuple(self.items(")")))
            return Name(value)
        raise ExprError("expression ends too early", self.text, col)

    def _is_quantifier(self) -> bool:
        k1, _, _ = self.tokens[self.i]
        _, v2, _ = self.tokens[self.i + 1]
        return k1 == "name" and v2 == "in"

    def quantifier(self, kind: str) -> Quant:
        _, var, _ = self.next()
        self.expect("in")
        domain = self.expression(45)
        cond = body = None
        if self.peek()[1] == "if":
            self.next()
            cond = self.expression(6)
        if self.peek()[1] == ":":
            self.next()
            body = self.expression(0)
        _, closing, col = self.peek()
        self.expect(")")
        if kind in ("sum", "min", "max") and body is None:
            raise ExprError(f"{kind}(x in D if c : value) needs ': value'", self.text, col)
        if kind == "forall" and body is None:
            body, cond = cond, None
            if body is None:
                raise ExprError("forall(x in D : condition) needs a condition", self.text, col)
        if kind in ("count", "exists", "first") and body is not None:
            raise ExprError(f"{kind}(x in D if c) takes no ': value'", self.text, col)
        if not isinstance(domain, (Name, ListLit)):
            raise ExprError("a quantifier ranges over a domain name or a list", self.text, col)
        return Quant(kind, var, domain, cond, body)

    def items(self, closing: str) -> list[Expr]:
        out: list[Expr] = []
        if self.peek()[1] == closing:
            self.next()
            return out
        while True:
            out.append(self.expression(0))
            kind, value, col = self.next()
            if value == closing:
                return out
            if value != ",":
                raise ExprError(f"expected ',' or {closing!r}", self.text, col)


def parse(text: str) -> Expr:
    """Parse one expression; raises ExprError with the column of the problem."""
    if isinstance(text, bool):
        return Bool(text)
    if isinstance(text, int):
        return Num(text)
    return _Parser(str(text)).parse()
