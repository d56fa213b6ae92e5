"""The condition language: parsing, precedence, rendering, syntax errors, and that it is closed.

Nothing here is ever handed to Python's ``eval``: the parser builds frozen AST nodes, and the few
evaluation checks go through the toy game's compiled expressions (``state.eval``).
"""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ghostrules
from ghostrules.spec import expr as E
from ghostrules.spec import load_spec
from ghostrules.spec.expr import (Binary, Bool, Call, Cond, ExprError, Index, ListLit, Name, NoneLit, Num, Qualified,
                                  Quant, Unary, parse)

FIXTURES = Path(__file__).parent / "fixtures" / "specs"
PACKAGE = Path(ghostrules.__file__).resolve().parent

a, b, c, d, x = Name("a"), Name("b"), Name("c"), Name("d"), Name("x")


def B(op: str, left: E.Expr, right: E.Expr) -> Binary:
    return Binary(op, left, right)


# ---- precedence and structure ------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # boolean operators: not > and > or
    ("a or b and c", B("or", a, B("and", b, c))),
    ("a and b or c", B("or", B("and", a, b), c)),
    ("not a and b", B("and", Unary("not", a), b)),
    ("not a or b", B("or", Unary("not", a), b)),
    ("not not a", Unary("not", Unary("not", a))),
    ("a or b or c", B("or", B("or", a, b), c)),
    # comparisons bind tighter than not / and / or, looser than arithmetic
    ("not a == b", Unary("not", B("==", a, b))),
    ("a == b and c != d", B("and", B("==", a, b), B("!=", c, d))),
    ("a < b or c >= d", B("or", B("<", a, b), B(">=", c, d))),
    ("a + 1 <= b * 2", B("<=", B("+", a, Num(1)), B("*", b, Num(2)))),
    ("a > b == c", B("==", B(">", a, b), c)),
    # arithmetic: * // % over + -, left associative, unary minus tightest
    ("1 + 2 * 3", B("+", Num(1), B("*", Num(2), Num(3)))),
    ("(1 + 2) * 3", B("*", B("+", Num(1), Num(2)), Num(3))),
    ("a - b - c", B("-", B("-", a, b), c)),
    ("a - (b - c)", B("-", a, B("-", b, c))),
    ("a // b % c", B("%", B("//", a, b), c)),
    ("a + b // c", B("+", a, B("//", b, c))),
    ("-a * b", B("*", Unary("-", a), b)),
    ("-(a * b)", Unary("-", B("*", a, b))),
    ("a - -b", B("-", a, Unary("-", b))),
    ("not -a", Unary("not", Unary("-", a))),
    # literals
    ("42", Num(42)),
    ("true", Bool(True)),
    ("false", Bool(False)),
    ("none", NoneLit()),
    ("  a  ", a),
    # membership
    ("x in [a, b]", B("in", x, ListLit((a, b)))),
    ("x in []", B("in", x, ListLit(()))),
    ("x not in [a, b]", Unary("not", B("in", x, ListLit((a, b))))),
    ("x + 1 in [1, 2]", B("in", B("+", x, Num(1)), ListLit((Num(1), Num(2))))),
    ("x in [a] and b", B("and", B("in", x, ListLit((a,))), b)),
    ("x not in [a] or b", B("or", Unary("not", B("in", x, ListLit((a,)))), b)),
    ("not x in [a]", Unary("not", B("in", x, ListLit((a,))))),
    # conditional expression: lowest precedence, like Python
    ("a if c else b", Cond(c, a, b)),
    ("a + 1 if c or d else b", Cond(B("or", c, d), B("+", a, Num(1)), b)),
    ("not a if c else b", Cond(c, Unary("not", a), b)),
    ("(a if c else b) + 1", B("+", Cond(c, a, b), Num(1))),
    ("a if c else b + 1", Cond(c, a, B("+", b, Num(1)))),
    ("a if (b if c else d) else x", Cond(Cond(c, b, d), a, x)),
    ("a if b else (c if d else x)", Cond(b, a, Cond(d, c, x))),
    # qualified symbols, indexing, calls
    ("player.ann", Qualified("player", "ann")),
    ("player.ann == a", B("==", Qualified("player", "ann"), a)),
    ("stock[a]", Index("stock", (a,))),
    ("tao[m, colour.red]", Index("tao", (Name("m"), Qualified("colour", "red")))),
    ("v[]", Index("v", ())),
    ("stock[a] + stock[b[c]]", B("+", Index("stock", (a,)), Index("stock", (Index("b", (c,)),)))),
    ("f()", Call("f", ())),
    ("need(a, c + 1)", Call("need", (a, B("+", c, Num(1))))),
    ("min(a, b)", Call("min", (a, b))),
    ("max(1, 2, 3)", Call("max", (Num(1), Num(2), Num(3)))),
    ("abs(-a)", Call("abs", (Unary("-", a),))),
    ("count(a)", Call("count", (a,))),
    ("[a, [b], f(c)]", ListLit((a, ListLit((b,)), Call("f", (c,))))),
    # quantifiers
    ("count(p in player)", Quant("count", "p", Name("player"), None, None)),
    ("count(p in player if stock[p] > 0)",
     Quant("count", "p", Name("player"), B(">", Index("stock", (Name("p"),)), Num(0)), None)),
    ("exists(p in player if p == a)", Quant("exists", "p", Name("player"), B("==", Name("p"), a), None)),
    ("first(p in [a, b] if p != c)", Quant("first", "p", ListLit((a, b)), B("!=", Name("p"), c), None)),
    ("forall(p in player : alive[p])", Quant("forall", "p", Name("player"), None, Index("alive", (Name("p"),)))),
    ("forall(p in player if playing[p] : alive[p])",
     Quant("forall", "p", Name("player"), Index("playing", (Name("p"),)), Index("alive", (Name("p"),)))),
    # 'forall(x in D if c)' is read as 'forall(x in D : c)'
    ("forall(p in player if alive[p])", Quant("forall", "p", Name("player"), None, Index("alive", (Name("p"),)))),
    ("sum(p in player : stock[p])", Quant("sum", "p", Name("player"), None, Index("stock", (Name("p"),)))),
    ("sum(p in player if p != a : stock[p] * 2)",
     Quant("sum", "p", Name("player"), B("!=", Name("p"), a), B("*", Index("stock", (Name("p"),)), Num(2)))),
    ("min(p in player : stock[p])", Quant("min", "p", Name("player"), None, Index("stock", (Name("p"),)))),
    ("max(p in player if a : 1 if b else 2)", Quant("max", "p", Name("player"), a, Cond(b, Num(1), Num(2)))),
    ("sum(p in player if (a if b else c) : 1)", Quant("sum", "p", Name("player"), Cond(b, a, c), Num(1))),
    ("count(p in player if p in [a, b])",
     Quant("count", "p", Name("player"), B("in", Name("p"), ListLit((a, b))), None)),
    ("count(p in player) + 1", B("+", Quant("count", "p", Name("player"), None, None), Num(1))),
    ("not exists(p in player if a) and b",
     B("and", Unary("not", Quant("exists", "p", Name("player"), a, None)), b)),
    ("sum(p in player : count(q in player if q != p))",
     Quant("sum", "p", Name("player"), None, Quant("count", "q", Name("player"), B("!=", Name("q"), Name("p")), None))),
])
def test_parse_structure(text: str, expected: E.Expr) -> None:
    assert parse(text) == expected


def test_literals_from_yaml_values() -> None:
    # YAML gives ints and bools directly; parse accepts them as literals
    assert parse(3) == Num(3)
    assert parse(True) == Bool(True)
    assert parse(False) == Bool(False)


def test_chained_conditional_groups_like_python() -> None:
    # found grouping to the left ('(a if b else c) if d else x'); Python groups to the right
    assert parse("a if b else c if d else x") == Cond(b, a, Cond(d, c, x))
    assert parse("a if b else c if d else x if a else b") == Cond(b, a, Cond(d, c, Cond(a, x, b)))


# ---- meaning, through the toy game's compiled expressions ---------------------------------------

@pytest.fixture(scope="module")
def toy_state() -> ghostrules.State:
    game = ghostrules.Game(load_spec("toy", root=FIXTURES))
    return game.new_initial_state()


@pytest.mark.parametrize("text, value", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2 - 3 - 4", -5), ("7 // 2", 3), ("7 % 3", 1), ("-2 * 3", -6),
    ("true or false and false", True), ("(true or false) and false", False), ("not 1 == 2", True),
    ("not false and false", False), ("1 < 2 == true", True),
    ("ann in [ann, bob]", True), ("ann in [bob]", False), ("ann not in [bob]", True), ("ann not in [ann]", False),
    ("3 if 1 > 2 else 4", 4), ("3 if 1 < 2 else 4", 3), ("(3 if false else 4) + 1", 5),
    ("1 if true else 2 if false else 3", 1), ("1 if false else 2 if true else 3", 2),
    ("count(p in player)", 2), ("count(p in player if p != ann)", 1), ("count(p in player if false)", 0),
    ("exists(p in player if p == bob)", True), ("exists(p in player if false)", False),
    ("forall(p in player : stock[p] == 0)", True), ("forall(p in player if p == bob : false)", False),
    ("forall(p in player if false : false)", True),
    ("sum(p in player : stock[p] + 1)", 2), ("sum(x in [1, 2, 3] : x * x)", 14),
    ("sum(x in [1, 2, 3] if x != 2 : x)", 4), ("min(x in [5, 2, 7] : x * 10)", 20),
    ("max(x in [5, 2, 7] : x)", 7), ("max(x in [5, 2, 7] if x < 6 : x)", 5),
    ("first(p in player if p != ann)", "bob"), ("first(p in player)", "ann"), ("first(p in player if false)", "none"),
    ("player.bob", "bob"), ("face.two", "two"), ("stock[bob]", 0), ("stock[player.ann] + supply", 10),
    ("min(3, 1, 2)", 1), ("max(3, 1, 2)", 3), ("abs(-5)", 5), ("abs(5 - 7)", 2),
    ("supply", 10), ("target", 3), ("stones", 10), ("active == ann", True),
])
def test_evaluation(toy_state: ghostrules.State, text: str, value: object) -> None:
    assert toy_state.eval(text) == value


# ---- render round trip -------------------------------------------------------------------------

ROUND_TRIP = [
    "a or b and c", "(a or b) and c", "not (a and b)", "not a and b", "a - (b - c)", "(a - b) - c", "-(a + b) * c",
    "x in [a, b]", "x not in [a, b]", "(x in [a]) == b", "a if c else b", "(a if c else b) * 2",
    "a if (b if c else d) else x", "a if b else (c if d else x)", "player.ann", "tao[m, colour.red]",
    "f()", "min(a, b)", "abs(-a)", "[]", "[a, [b, c]]", "count(p in player)",
    "count(p in player if stock[p] > 0 and p != a)", "exists(p in [a, b] if p == c)", "first(p in player if p)",
    "forall(p in player : alive[p])", "forall(p in player if playing[p] : alive[p] or not x)",
    "sum(p in player if p != a : stock[p] * 2)", "min(p in player : stock[p])", "max(p in player if a : 1 if b else 2)",
    "sum(p in player : count(q in player if q != p))", "not exists(p in player if a) and b",
    "0 if blocked else sum(o in monk if playing[o] and monk_at[o] == monk_at[m] : tao[o, c])",
    "(need(a, c) if ia and not immune(a) else 0) + (need(b, c) if ib and immune(b) else 0)",
    "1 if level == initiation or level == normal else (4 if players >= 3 else 3)",
    "none", "true", "false", "0", "a == none", "--a", "a + -b", "not not a", "a // b % c", "a < b < c",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_render_round_trip_examples(text: str) -> None:
    e = parse(text)
    assert parse(e.render()) == e
    # rendering is a fixed point after one step
    assert parse(e.render()).render() == e.render()


# A strategy that builds random ASTs from small pieces. Names include words that are special
# elsewhere (quantifier names, 'lambda', '__import__') but are plain names to the language.
NAMES = ["a", "b", "x", "stock", "qi_supply", "player", "D", "count", "first", "lambda", "__import__"]
SYMBOLS = ["ann", "bob", "zero", "k1", "sum"]
BINOPS = ["or", "and", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%"]
FUNCS = ["min", "max", "abs", "f", "need", "count", "sum"]

_names = st.sampled_from(NAMES)
_leaves = st.one_of(
    st.integers(0, 10_000).map(Num), st.booleans().map(Bool), st.just(NoneLit()), _names.map(Name),
    st.builds(Qualified, _names, st.sampled_from(SYMBOLS)))


def _extend(sub: st.SearchStrategy[E.Expr]) -> st.SearchStrategy[E.Expr]:
    lists = st.lists(sub, max_size=3).map(lambda xs: ListLit(tuple(xs)))
    domains = st.one_of(_names.map(Name), lists)
    return st.one_of(
        st.builds(Index, _names, st.lists(sub, max_size=3).map(tuple)),
        st.builds(Call, st.sampled_from(FUNCS), st.lists(sub, max_size=3).map(tuple)),
        lists,
        st.builds(Unary, st.sampled_from(["not", "-"]), sub),
        st.builds(Binary, st.sampled_from(BINOPS), sub, sub),
        st.builds(Binary, st.just("in"), sub, lists),
        st.builds(Cond, sub, sub, sub),
        st.builds(Quant, st.sampled_from(["count", "exists", "first"]), _names, domains, st.none() | sub, st.none()),
        st.builds(Quant, st.sampled_from(["sum", "min", "max", "forall"]), _names, domains, st.none() | sub, sub),
    )


EXPRS = st.recursive(_leaves, _extend, max_leaves=14)


def _ambiguous_call(e: E.Expr) -> bool:
    """``count(x in [a])`` as a *call* of one membership test reads back as a quantifier.

    Only possible for calls named like a quantifier whose first argument is ``name in [...]``;
    such a call is never well typed (min/max need numbers), so it is left out of the round trip."""
    if isinstance(e, Call) and e.func in E.QUANTIFIERS and e.args:
        first = e.args[0]
        if isinstance(first, Binary) and first.op == "in" and isinstance(first.left, Name):
            return True
    return any(_ambiguous_call(ch) for ch in E.children(e))


ROUND_TRIP_SETTINGS = settings(max_examples=400, deadline=None, derandomize=True,
                               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@ROUND_TRIP_SETTINGS
@given(EXPRS.filter(lambda e: not _ambiguous_call(e)))
def test_render_round_trip_random(e: E.Expr) -> None:
    text = e.render()
    assert parse(text) == e, text


@pytest.mark.parametrize("e", [
    Binary("==", Unary("not", a), b),                      # (not a) == b, not: not (a == b)
    Binary("+", Unary("-", Unary("not", a)), b),            # (-(not a)) + b
    Binary("in", Unary("not", a), ListLit((b,))),           # (not a) in [b]
    Binary("and", Unary("not", a), b),
    Unary("-", Unary("-", Num(1))),
    Unary("-", Cond(a, b, c)),
    Cond(Cond(a, b, c), Cond(b, c, d), Cond(c, d, x)),
    Binary("-", a, Unary("-", b)),
])
def test_render_keeps_structure(e: E.Expr) -> None:
    assert parse(e.render()) == e, e.render()


# ---- syntax errors -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, column, word", [
    ("a +", 4, "ends"),
    ("", 1, "ends"),
    ("(a + b", 7, "expected ')'"),
    ("a b", 3, "unexpected 'b'"),
    ("f(a b)", 5, "expected ','"),
    ("a[1", 4, "expected ','"),
    ("f(", 3, "ends"),
    ("x in y", 3, "list"),
    ("a$b", 2, "'$'"),
    ("a.1", 3, "symbol"),
    ("1.5", 2, "'.'"),
    ("a.b.c", 4, "'.'"),
    ("x ** 2", 4, "'*'"),
    ("1 + * 2", 5, "'*'"),
    ("a if b", 7, "else"),
    ("count(x in D : 1)", 17, "no ': value'"),
    ("sum(x in D)", 11, "': value'"),
    ("forall(x in D)", 14, "condition"),
    ("count(x in f(1))", 16, "domain"),
    ("count(x in D if a + )", 21, "unexpected ')'"),
    ("a and or b", 7, "unexpected 'or'"),
    ("stock[a,]", 9, "unexpected ']'"),
    ("[a, b", 6, "expected ','"),
    ("a == == b", 6, "unexpected '=='"),
])
def test_syntax_errors_have_columns(text: str, column: int, word: str) -> None:
    with pytest.raises(ExprError) as info:
        parse(text)
    err = info.value
    assert err.column == column, str(err)
    assert word in err.message
    assert err.text == text
    assert f"column {column}" in str(err)


@pytest.mark.parametrize("text, column", [("a $ b", 3), ("a    ;", 6), ("  @", 3), ("f(a,  'x')", 7)])
def test_unexpected_character_column_skips_spaces(text: str, column: int) -> None:
    # found reporting the space before the character ('a $ b' gave column 2)
    with pytest.raises(ExprError) as info:
        parse(text)
    assert info.value.column == column


# ---- text that is not an expression is rejected; nothing runs as Python --------------------------

NOT_EXPRESSIONS = [
    "__import__('os')", "__import__(\"os\").system(\"echo hi\")", "a; b", "lambda: 0", "lambda x: x",
    "a = 1", "a := 1", "os.system('ls')", "open('/etc/passwd')", "[x for x in y]", "{a: b}", "{a}", "a.b.c",
    "exec('1')", "eval(\"1\")", "a ** 2", "a @ b", "a & b", "a | b", "~a", "a ^ b", "a << 1", "a is b",
    "a is not none", "1.5", "1e3", "'text'", "\"text\"", "a\nb", "a # comment", "yield a", "await a",
    "(a for a in b)", "a[1:2]", "a, b", "*a", "f(*a)", "f(x=1)", "a if b", "import os", "`a`", "\\", "$a", "a!b",
    "a -> b", "a => b", "a ? b : c", "a && b", "a || b", "!a", "a === b", "a <> b",
]


@pytest.mark.parametrize("text", NOT_EXPRESSIONS)
def test_not_an_expression(text: str) -> None:
    with pytest.raises(ExprError) as info:
        parse(text)
    assert 1 <= info.value.column <= len(text) + 1


def test_parse_never_calls_python_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the expression parser called eval/exec/compile/__import__")
    real_import = builtins.__import__
    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, forbidden)
    imported: list[str] = []

    def spying_import(name: str, *args: object, **kwargs: object) -> object:
        imported.append(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", spying_import)
    for text in NOT_EXPRESSIONS:
        with pytest.raises(ExprError):
            parse(text)
    for text in ROUND_TRIP:
        parse(parse(text).render())
    assert "os" not in imported
    # names that mean something to Python are plain names here
    assert parse("__import__") == Name("__import__")
    assert parse("lambda") == Name("lambda")
    assert parse("__import__[os]") == Index("__import__", (Name("os"),))
    assert parse("os.system") == Qualified("os", "system")


def _all_nodes(e: E.Expr) -> list[E.Expr]:
    out = [e]
    for ch in E.children(e):
        out += _all_nodes(ch)
    return out


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_ast_is_closed(text: str) -> None:
    """Every node of a parsed expression is one of the language's own frozen node types."""
    kinds = (Num, Bool, NoneLit, Name, Qualified, Index, Call, ListLit, Quant, Unary, Binary, Cond)
    for node in _all_nodes(parse(text)):
        assert type(node) in kinds
        with pytest.raises(Exception):
            node.__setattr__("x", 1)


def test_no_python_eval_in_the_package() -> None:
    """Only the expression compiler generates Python (from a checked AST); no other module calls
    eval/exec/compile, and none reads spec text as code."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("eval", "exec", "compile", "__import__"):
                found.append(f"{path.relative_to(PACKAGE).as_posix()}: {node.func.id}")
    assert found and {f.split(":")[0] for f in found} == {"engine/compile_expr.py"}


_GENERATED_NAMES = re.compile(r"^(v|L|_q\d+|_k\d+|_d\d+|a\d+|_cv|_ck|_bad|_first|_within|_within_list|_match|_pick|_pick_at|_div|_mod|sum|any|all|next|min|max|abs|str|_label|"
                              r"range)$")


def _audit_generated(source: str) -> list[str]:
    """What in a generated source is not one of the few forms the compiler emits."""
    bad = []
    allowed = (ast.Module, ast.Expression, ast.Expr, ast.Lambda, ast.FunctionDef, ast.Return, ast.arguments,
               ast.arg, ast.Load, ast.Store, ast.Name, ast.Constant, ast.Subscript, ast.Slice, ast.BinOp,
               ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.GeneratorExp, ast.comprehension,
               ast.Tuple, ast.ListComp, ast.Dict, ast.keyword, ast.Attribute, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
               ast.NamedExpr)  # (a check written in place holds its value in _cv: engine/passed.py)
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            bad.append(f"node {type(node).__name__}")
        elif isinstance(node, ast.Name) and not _GENERATED_NAMES.match(node.id):
            bad.append(f"name {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr not in ("count", "join"):
            bad.append(f"attribute {node.attr}")
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, str)):
            bad.append(f"constant {node.value!r}")
        elif isinstance(node, ast.FunctionDef) and not re.fullmatch(r"_d\d+", node.name):
            bad.append(f"function {node.name}")
    # a string constant is only ever a key of the locals (L['name']) or the empty joiner of a text
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value.isidentifier() or node.value == "", node.value
    return bad


@pytest.mark.parametrize("game", ["ghost-stories", "betrayal"])
def test_generated_code_uses_only_the_compilers_own_forms(game: str) -> None:
    """Every function the compiler generated for a whole game is built from a closed set of forms:
    the value list, the locals, numbers, generated names and a few builtins. Spec names appear only
    as string keys of the locals, so no spec text can become code."""
    import ghostrules
    program = ghostrules.load_game(game).program
    assert len(program.exprs.sources) > 100
    problems = {p for src in program.exprs.sources for p in _audit_generated(src)}
    assert problems == set()


def test_optimised_code_agrees_with_plain_code() -> None:
    """The compiler's shortcuts (slot scans, range checks for ``x == t``, definitions compiled in
    place) give the same value, or the same error, as the plain comprehension and call for every
    definition of Ghost Stories, on random values (in their declared ranges) and arguments."""
    import random as _random

    from speed_helpers import random_values_and_args

    from ghostrules.engine.compile_expr import ExprCompiler
    from ghostrules.engine.errors import SpecRuntimeError
    from ghostrules.spec.model import Where

    game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
    layout = game.layout
    fast = ExprCompiler(game.spec, layout)
    plain = ExprCompiler(game.spec, layout, optimise=False)
    rng = _random.Random(7)
    compared = 0
    for name, d in fast.defines.items():
        call = E.Call(name, tuple(E.Name(p) for p, _ in d.params)) if d.params else E.Name(name)
        scope = dict(d.params)
        f1, _ = fast.compile(call, scope, Where("<test>", 1), name)
        f2, _ = plain.compile(call, scope, Where("<test>", 1), name)
        for _ in range(60):
            values, args = random_values_and_args(layout, d.params, rng)
            results = []
            for fn in (f1, f2):
                try:
                    results.append(("value", fn(values, dict(args))))
                except (SpecRuntimeError, IndexError) as exc:
                    results.append(("error", type(exc).__name__))
            if results[0][0] == "value" and results[1][0] == "value":
                assert results[0][1] == results[1][1], (name, args)
            else:
                assert results[0] == results[1], (name, args, results)
            compared += 1
    assert compared > 3000
