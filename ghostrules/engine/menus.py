"""A decision's options listed by one generated function per decision, instead of a generic loop.

``State._menu_options_generic`` lists the options of a decision (a ``MenuI``) by calling, for each
option, its guard and its label as functions ``fn(values, locals)`` on a copy of the frame's
locals. ``compile_menu`` writes the same work as one Python function ``menu(v, L)`` per decision,
run in the expressions' namespace (``program.exprs``, as the blocks of engine/blocks.py are): the
guards, the values' lists and the labels are the expressions' source (compile_expr) written in
place, an option's own variable is a Python local (``L['x']`` becomes ``_x``), and the frame's
locals are read as they are, never copied (only an option whose code hands the whole locals to a
helper gets a copy, with its variable bound, as the generic loop gives it).

Costly parts that do not depend on an option's variable and occur more than once among the
decision's code (the same ``feasible(m, a, b, ...)`` in several guards of one decision), or inside
an option's loop over its values (the deciding player's name in every label), are computed once
per listing: at first use, in the order the generic loop reaches them, and kept in a Python local
(``_cN``), so a part that the generic loop would not reach is not computed either. Expressions
write nothing, so a kept value is the value a new evaluation would give. Helpers hoisted out of
different guards with the same source (engine/hoist.py names each copy anew) count as the same.

The function returns the list the generic loop returns: the same Actions (taken from and stored
in the option's caches, ``MenuOptionI.actions`` and ``by_label``, under the same keys), in the same
order, equal labels numbered (``"label #2"``), and raises the same error when no option is left.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Any, Callable

from .actions import Action
from .errors import SpecRuntimeError
from .program import MenuI, MenuOptionI, Program

MenuFn = Callable[[list, dict], list[Action]]
SHOWN_MAX = 4096  # the Actions kept per option whose label reads slots (MenuOptionI.by_label)

_READ = re.compile(r"L\['([^'\\]*)'\]")
_BARE_L = re.compile(r"\bL\b(?!\[')")
_HELPER = re.compile(r"\b_d\d+\b")
_DEF = re.compile(r"^def (_d\d+)\(", re.M)
_GENERATED_LOCAL = re.compile(r"\b_[qt]\d+\b")
_SCOPES = (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)


def _no_options(node: MenuI) -> SpecRuntimeError:
    return SpecRuntimeError(f"decision '{node.prompt}' has no options", node.rule, str(node.where))


class _Helpers:
    """The helpers defined in the expressions' namespace (those hoisted out of expressions by
    engine/hoist.py among them), by their source with their own and their temporaries' names left
    out: each name maps to the first helper with the same source."""

    def __init__(self) -> None:
        self.same: dict[str, str] = {}
        self.first: dict[str, str] = {}
        self.done = 0  # the sources (ExprCompiler.block_sources) read so far

    def update(self, sources: list[str]) -> None:
        for chunk in sources[self.done:]:
            starts = [(m.start(), m[1]) for m in _DEF.finditer(chunk)]
            for k, (at, name) in enumerate(starts):
                text = chunk[at:starts[k + 1][0] if k + 1 < len(starts) else len(chunk)]
                text = _canonical(text.replace(f"def {name}(", "def _(", 1))
                self.same[name] = self.first.setdefault(text, name)
        self.done = len(sources)

    def rename(self, src: str) -> str:
        return _HELPER.sub(lambda m: self.same.get(m[0], m[0]), src)


def _canonical(text: str) -> str:
    """``text`` with its generated locals (``_qN``, ``_tN``) renamed by order of appearance."""
    names: dict[str, str] = {}
    return _GENERATED_LOCAL.sub(lambda m: names.setdefault(m[0], f"{m[0][:2]}#{len(names)}"), text)


class _Decisions:
    """What the decisions' functions of one program share: the expressions' namespace they run in,
    the table of helpers, and their sources (for audits; kept apart from the blocks' sources)."""

    def __init__(self, program: Program) -> None:
        self.namespace = program.exprs.define("", "<decisions>")  # (defines nothing: the namespace)
        self.helpers = _Helpers()
        self.sources: list[str] = []


def decisions(program: Program) -> _Decisions:
    """The program's shared part of its decisions' functions, its table of helpers brought up to date."""
    found = getattr(program, "decisions", None)
    if found is None:
        found = program.decisions = _Decisions(program)  # type: ignore[attr-defined]
    found.helpers.update(program.exprs.block_sources)
    return found


class _Writer:
    """Writes the source of one decision's function."""

    def __init__(self, program: Program, node: MenuI) -> None:
        self.exprs = program.exprs
        self.helpers = decisions(program).helpers
        self.node = node
        self.objects: list[Any] = []  # the function's own constants (caches, rules, the node): _K0, _K1, ...
        self.known: dict[int, str] = {}

    def const(self, value: Any) -> str:
        """The name under which the function sees ``value`` (a parameter's default: a fast local)."""
        name = self.known.get(id(value))
        if name is None:
            name = self.known[id(value)] = f"_K{len(self.objects)}"
            self.objects.append(value)
        return name

    def code(self, fn: Any) -> str:
        """Python source computing ``fn(v, L)``."""
        src = getattr(fn, "fast", None)
        if src is None:
            return f"{self.exprs.constant(fn)}(v, L)"
        return f"({self.helpers.rename(src)})"

    def option_code(self, fn: Any, var: str | None, local: str, bound: str | None) -> str:
        """``fn``'s source in an option: its variable read from the Python local ``local``, and the
        whole locals, where handed to a helper, the copy ``bound`` with the variable bound."""
        src = self.code(fn)
        if var is not None:
            src = src.replace(f"L[{var!r}]", local)
        if bound is not None:
            src = _BARE_L.sub(bound, src)
        return src

    def write(self) -> tuple[str, str]:
        """(the source of a function that makes the decision's function from its constants, its name)."""
        node = self.node
        lines: list[str] = []
        for k, opt in enumerate(node.options):
            self.option(k, opt, lines)
        body = _share("\n".join(lines))
        name = self.exprs.fresh("_m")
        tail = ["    if not _out:", f"        raise {self.const(_no_options)}({self.const(node)})", "    return _out"]
        head = ["    _out = []", "    _seen = {}"]
        memo = sorted(set(re.findall(r"\b_c\d+\b", body)), key=lambda s: int(s[2:]))
        if memo:  # the shared parts, not computed yet
            head.append("    " + " = ".join(memo) + f" = _U = {self.const(_UNSET)}")
        consts = [f"_K{i}" for i in range(len(self.objects))]
        top = [f"def {name}_make({', '.join(consts)}):",
               f"  def {name}(v, L{''.join(f', {k}={k}' for k in consts)}):"]
        return "\n".join(top + head + [body] + tail + [f"  return {name}"]) + "\n", f"{name}_make"

    def option(self, k: int, opt: MenuOptionI, lines: list[str]) -> None:
        var = opt.var
        local = f"_x{k}"
        value = local if var is not None else "0"
        bound = None
        ind = "    "
        fns = [opt.cond, opt.label]
        if var is not None and any(f is not None and (getattr(f, "fast", None) is None or _BARE_L.search(f.fast))
                                   for f in fns):
            bound = f"_L{k}"
            lines.append(f"{ind}{bound} = L.copy()")
        if var is None:
            if opt.cond is not None:
                lines.append(f"{ind}if {self.option_code(opt.cond, None, local, None)}:")
                ind += "    "
        else:
            if opt.members is not None:  # the values for which the guard holds, of the frame's locals
                values = self.code(opt.members)
            elif opt.values is not None:
                r = opt.values
                values = f"range({r.start}, {r.stop})" if r.step == 1 else self.const(r)
            else:
                values = "(" + "".join(f"{self.code(f)}, " for f in opt.item_fns) + ")"
            lines.append(f"{ind}for {local} in {values}:")
            ind += "    "
            if bound is not None:
                lines.append(f"{ind}{bound}[{var!r}] = {local}")
            if opt.members is None and opt.cond is not None:
                lines.append(f"{ind}if {self.option_code(opt.cond, var, local, bound)}:")
                ind += "    "
        label = self.option_code(opt.label, var, local, bound)
        rule = self.const(opt.rule)
        action = self.const(Action)
        key = f"({k}, {value})"
        if opt.actions is not None:  # the label reads no slot: the Action kept by value and the locals it reads
            made = self.const(opt.actions)
            if opt.label_locals:
                at = "(" + value + "".join(f", L.get({n!r})" for n in opt.label_locals) + ")"
            else:
                at = value
            lines += [f"{ind}_a = {made}.get({at})",
                      f"{ind}if _a is None:",
                      f"{ind}    _a = {made}[{at}] = {action}('choose', {key}, {label}, {rule})",
                      f"{ind}_l = _a.label",
                      f"{ind}if _l in _seen:",
                      f"{ind}    _seen[_l] += 1",
                      f"{ind}    _out.append({action}('choose', {key}, f'{{_l}} #{{_seen[_l]}}', {rule}))",
                      f"{ind}else:",
                      f"{ind}    _seen[_l] = 1",
                      f"{ind}    _out.append(_a)"]
        else:  # a label that reads slots: the Action kept by value and label
            shown = self.const(opt.by_label)
            lines += [f"{ind}_l = {label}",
                      f"{ind}if _l in _seen:",
                      f"{ind}    _seen[_l] += 1",
                      f"{ind}    _out.append({action}('choose', {key}, f'{{_l}} #{{_seen[_l]}}', {rule}))",
                      f"{ind}else:",
                      f"{ind}    _seen[_l] = 1",
                      f"{ind}    _a = {shown}.get(({value}, _l))",
                      f"{ind}    if _a is None:",
                      f"{ind}        _a = {action}('choose', {key}, _l, {rule})",
                      f"{ind}        if len({shown}) < {SHOWN_MAX}:",
                      f"{ind}            {shown}[({value}, _l)] = _a",
                      f"{ind}    _out.append(_a)"]


# ---- sharing the repeated and the loop-invariant parts ------------------------------------------
_OWN = re.compile(r"_x\d+|_L\d+|_K\d+|_c\d+|_a|_l|_out|_seen|_U")  # the function's own locals and caches


class _Parts:
    """The candidate parts of a function's syntax tree, found in one pass: an expression outside any
    comprehension that calls something (a helper, a check, a quantifier; a call of ``_bad``, which only
    reports a fault, does not count) and reads none of the function's own locals (an option's
    variable, a bound copy of the locals, a cache that the listing fills). ``key`` names equal parts
    alike; the parts form a forest (``roots``, ``below``: the nearest parts inside a part), in the
    order of the source, each marked when it lies in an option's loop (``looped``)."""

    def __init__(self, tree: ast.AST) -> None:
        self.keys: dict[int, str] = {}  # id(node) -> its key, for the candidate parts
        self.nodes: list[ast.AST] = []  # (kept alive: ids stay unique)
        self.below: dict[int, list[int]] = {}
        self.looped: dict[int, bool] = {}
        self.roots = self._walk(tree, False, False)[2]

    def _walk(self, node: ast.AST, scoped: bool, looped: bool) -> tuple[bool, bool, list[int], str]:
        """(does ``node`` call something, does it read the function's own locals, its nearest parts,
        its text: the node's type and fields, equal for equal trees)."""
        costly = own = False
        tops: list[int] = []
        inner = scoped or isinstance(node, _SCOPES)
        texts = [type(node).__name__]
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.AST):
                c, o, t, text = self._walk(value, inner, looped)
                costly, own = costly or c, own or o
                tops += t
                texts.append(text)
            elif isinstance(value, list):
                loop = looped or (isinstance(node, ast.For) and field == "body")
                items = []
                for child in value:
                    if isinstance(child, ast.AST):
                        c, o, t, text = self._walk(child, inner, loop)
                        costly, own = costly or c, own or o
                        tops += t
                        items.append(text)
                    else:
                        items.append(repr(child))
                texts.append("[" + ",".join(items) + "]")
            else:
                texts.append(repr(value))
        if isinstance(node, _SCOPES):
            costly = True
        elif isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id == "_bad"):
            costly = True
        elif isinstance(node, ast.Name) and _OWN.fullmatch(node.id):
            own = True
        text = "(" + "|".join(texts) + ")"
        if costly and not own and not scoped and isinstance(node, ast.expr) and \
                not isinstance(node, (ast.Name, ast.Constant, ast.Starred, ast.NamedExpr)):
            self.keys[id(node)] = _canonical(text)
            self.nodes.append(node)
            self.below[id(node)] = tops
            self.looped[id(node)] = looped
            tops = [id(node)]
        return costly, own, tops, text

    def key(self, node: ast.AST) -> str | None:
        return self.keys.get(id(node))

    def count(self, shared: set[str]) -> Counter[str]:
        """How often each part is computed, as far as the source tells: a part inside an option's
        loop counts twice; inside a part already shared (``shared``) only the first copy counts,
        since the others are not computed."""
        count: Counter[str] = Counter()
        met: set[str] = set()

        def visit(part: int) -> None:
            key = self.keys[part]
            count[key] += 2 if self.looped[part] else 1
            if key in shared:
                if key in met:
                    return
                met.add(key)
            for inner in self.below[part]:
                visit(inner)
        for root in self.roots:
            visit(root)
        return count


def _select(parts: _Parts) -> set[str]:
    """The parts worth keeping: computed at least twice, counted inside the kept parts' first copies only."""
    shared: set[str] = set()
    for _ in range(6):
        again = {key for key, n in parts.count(shared).items() if n >= 2}
        if again == shared:
            break
        shared = again
    return shared


class _Replace(ast.NodeTransformer):
    """Each shared part as ``(_cN if _cN is not _U else (_cN := part))``."""

    def __init__(self, parts: _Parts, shared: set[str]) -> None:
        self.parts = parts
        self.shared = shared
        self.names: dict[str, str] = {}

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, _SCOPES):
            return node
        key = self.parts.key(node)
        if key is not None and key in self.shared:
            name = self.names.setdefault(key, f"_c{len(self.names)}")
            inner = self.generic_visit(node)
            return ast.IfExp(test=ast.Compare(left=ast.Name(name, ast.Load()), ops=[ast.IsNot()],
                                              comparators=[ast.Name("_U", ast.Load())]),
                             body=ast.Name(name, ast.Load()),
                             orelse=ast.NamedExpr(target=ast.Name(name, ast.Store()), value=inner))
        return self.generic_visit(node)


def _share(body: str) -> str:
    """``body`` (statements) with its shared parts computed once (see the module's docstring)."""
    tree = ast.parse("def _f():\n" + body)
    parts = _Parts(tree)
    shared = _select(parts)
    if not shared:
        return body
    tree = ast.fix_missing_locations(_Replace(parts, shared).visit(tree))
    return "\n".join(ast.unparse(tree).splitlines()[1:])


_UNSET = object()


def compile_menu(program: Program, node: MenuI) -> MenuFn:
    """The function ``menu(v, L)`` listing ``node``'s options as State._menu_options_generic lists them."""
    shared = decisions(program)
    writer = _Writer(program, node)
    source, name = writer.write()
    shared.sources.append(source)
    exec(compile(source, f"<decision {node.rule} {node.where}>", "exec"), shared.namespace)  # noqa: S102 - generated
    return shared.namespace[name](*writer.objects)


