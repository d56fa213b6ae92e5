"""A decision's options listed by one generated function per decision, instead of a generic loop.

``State._menu_options_generic`` lists the options of a decision (a ``MenuI``) by calling, for each
option, its guard and its label as functions ``fn(values, locals)`` on a copy of the frame's
locals. ``compile_menu`` writes the same work as one Python function ``menu(v, L)`` per decision,
run in the expressions' namespace (``program.exprs``, as the blocks of engine/blocks.py are): the
guards, the values' lists and the labels are the expressions' source (compile_expr) written in
place, an option's own variable is a Python local (``L['x']`` becomes ``_x0``), and the frame's
locals are read as they are, never copied (only an option whose code hands the whole locals to a
helper gets a copy, with its variable bound, as the generic loop gives it). The caches, rules and
the Action class are the function's own fast locals (parameters' defaults).

The function returns the list the generic loop returns: the same Actions (taken from and stored
in the option's caches, ``MenuOptionI.actions`` and ``by_label``, under the same keys), in the same
order, equal labels numbered (``"label #2"``), and raises the same error when no option is left.
A label that reads slots and joins constants and display names (``_label(names, x)``, compile_expr's
``text``) is not written for an Action already made: the function's own cache keeps the Action by
the option's value and the values ``x`` named (which determine the label), computed in the label's
order; the label is written, and the Action found in or stored in ``by_label``, only when that cache
misses (at most SHOWN_MAX entries, as ``by_label``). The locals a label that reads no slot reads are
read once before its option's loop.
A costly part written in several guards (the same condition, a definition's test with the same
arguments) is computed once a call, where it is first met, into a local ``_wN`` (hoist.remembered).
Guards and labels are evaluated in the generic loop's order, except that an option's label is
computed right after its own guard holds (the generic loop tests all the values' guards of an option
first): the options are the same, and only which of two faults is reported first could differ.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Callable

from .actions import Action
from .compile_expr import CONSTANT_NAME
from .errors import SpecRuntimeError
from .hoist import remembered
from .program import MenuI, MenuOptionI, Program

MenuFn = Callable[[list, dict], list[Action]]
SHOWN_MAX = 4096  # the Actions kept per option whose label reads slots (MenuOptionI.by_label)

_BARE_L = re.compile(r"\bL\b(?!\[')")
_UNSET = object()  # the value of a guards' shared part not computed yet (hoist.remembered)


def no_options(node: MenuI) -> SpecRuntimeError:
    """The error of a decision left with no option (the generated functions' and the generic loop's)."""
    return SpecRuntimeError(f"decision '{node.prompt}' has no options", node.rule, str(node.where))


class _Writer:
    """Writes the source of one decision's function."""

    def __init__(self, program: Program, node: MenuI) -> None:
        self.exprs = program.exprs
        self.node = node
        self.objects: list[Any] = []  # the function's own constants (caches, rules, the node): _K0, _K1, ...
        self.known: dict[int, str] = {}
        self.guards: list[tuple[int, str, str]] = []  # (line, indent, code) of each guard's ``if``

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
        return f"({src})"

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
        head = ["    _out = []", "    _seen = {}"]
        memos: list[str] = []
        if len(self.guards) > 1:  # a part of several guards computed once (engine/hoist.py)
            unset = self.const(_UNSET)

            def memo() -> str:
                memos.append(f"_w{len(memos)}")
                return memos[-1]

            codes = remembered([code for _, _, code in self.guards], self.exprs.is_global, memo, unset)
            for (at, ind, _), code in zip(self.guards, codes):
                lines[at] = f"{ind}if {code}:"
            if memos:
                head.append(f"    {' = '.join(memos)} = {unset}")
        body = "\n".join(lines)
        name = self.exprs.fresh("_m")
        tail = ["    if not _out:", f"        raise {self.const(no_options)}({self.const(node)})", "    return _out"]
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
        # the functions run with the option's variable bound (a members list is run on the frame's locals)
        fns = [opt.label] if opt.members is not None else [opt.cond, opt.label]
        if var is not None and any(f is not None and (getattr(f, "fast", None) is None or _BARE_L.search(f.fast))
                                   for f in fns):
            bound = f"_L{k}"
            lines.append(f"{ind}{bound} = L.copy()")
        gets = ""
        if opt.actions is not None and opt.label_locals:  # the locals the label reads
            if var is None:
                gets = "".join(f", L.get({n!r})" for n in opt.label_locals)
            else:  # read once, before the loop
                gets = "".join(f", _g{k}_{i}" for i in range(len(opt.label_locals)))
                lines += [f"{ind}_g{k}_{i} = L.get({n!r})" for i, n in enumerate(opt.label_locals)]
        if var is None:
            if opt.cond is not None:
                self.guard(lines, ind, self.option_code(opt.cond, None, local, None))
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
                self.guard(lines, ind, self.option_code(opt.cond, var, local, bound))
                ind += "    "
        label = self.option_code(opt.label, var, local, bound)
        rule = self.const(opt.rule)
        action = self.const(Action)
        key = f"({k}, {value})"
        if opt.actions is not None:  # the label reads no slot: the Action kept by value and the locals it reads
            made = self.const(opt.actions)
            at = value
            if gets:
                lines.append(f"{ind}_at = ({value}{gets})")
                at = "_at"
            lines += [f"{ind}_a = {made}.get({at})",
                      f"{ind}if _a is None:",
                      f"{ind}    _a = {made}[{at}] = {action}('choose', {key}, {label}, {rule})"]
            self.listed(ind, action, key, rule, lines)
            return
        shown = self.const(opt.by_label)
        inputs = label_inputs(label)
        if inputs is None:  # a label that reads slots: the Action kept by value and label
            lines += [f"{ind}_l = {label}",
                      *numbered(ind, action, key, rule, by_label(ind + "    ", shown, value, action, key, rule))]
            return
        # a label made of display names and constants: the Action kept by value and the values named
        # (the label, and so the Action kept by value and label, is theirs)
        by_inputs = self.const({})
        lines += [f"{ind}_at = ({value}, {''.join(f'{i}, ' for i in inputs)})",
                  f"{ind}_a = {by_inputs}.get(_at)",
                  f"{ind}if _a is None:",
                  f"{ind}    _l = {label}",
                  *by_label(ind + "    ", shown, value, action, key, rule),
                  f"{ind}    if len({by_inputs}) < {SHOWN_MAX}:",
                  f"{ind}        {by_inputs}[_at] = _a"]
        self.listed(ind, action, key, rule, lines)

    def guard(self, lines: list[str], ind: str, code: str) -> None:
        """The line ``if code:`` (its code rewritten by ``write`` when a part of it is in other guards)."""
        self.guards.append((len(lines), ind, code))
        lines.append(f"{ind}if {code}:")

    @staticmethod
    def listed(ind: str, action: str, key: str, rule: str, lines: list[str]) -> None:
        """Lines appending the Action ``_a`` to the list, numbered if its label is listed already."""
        lines += [f"{ind}_l = _a.label", *numbered(ind, action, key, rule, [])]


def numbered(ind: str, action: str, key: str, rule: str, first: list[str]) -> list[str]:
    """Lines appending to the list the option's Action of label ``_l``: a new one numbered
    (``"label #2"``) when the label is listed already, else ``_a``, which the lines ``first`` (indented
    under the ``else``) set when it is not set before."""
    return [f"{ind}if _l in _seen:",
            f"{ind}    _seen[_l] += 1",
            f"{ind}    _out.append({action}('choose', {key}, f'{{_l}} #{{_seen[_l]}}', {rule}))",
            f"{ind}else:",
            f"{ind}    _seen[_l] = 1",
            *first,
            f"{ind}    _out.append(_a)"]


def by_label(ind: str, shown: str, value: str, action: str, key: str, rule: str) -> list[str]:
    """Lines setting ``_a`` to the Action of the option's value and label ``_l``: the one kept in
    ``by_label`` (``shown``), else a new one, kept there while it holds fewer than SHOWN_MAX."""
    return [f"{ind}_a = {shown}.get(({value}, _l))",
            f"{ind}if _a is None:",
            f"{ind}    _a = {action}('choose', {key}, _l, {rule})",
            f"{ind}    if len({shown}) < {SHOWN_MAX}:",
            f"{ind}        {shown}[({value}, _l)] = _a"]


def label_inputs(label: str) -> list[str] | None:
    """The expressions of the label ``label`` (Python source, compile_expr's ``text``) whose values
    determine it, in the order it computes them: the label joins parts that are constants, display
    names ``_label(names, x)`` (determined by ``x``) and other text (itself: ``str(x)`` too, as an int
    and a bool equal to it print apart). None when that is the label itself (one part, not a display
    name)."""
    tree = ast.parse(label, mode="eval").body
    parts = [tree]
    if (type(tree) is ast.Call and type(tree.func) is ast.Attribute and tree.func.attr == "join"
            and type(tree.func.value) is ast.Constant and tree.func.value.value == "" and len(tree.args) == 1
            and type(tree.args[0]) is ast.Tuple and not tree.keywords):
        parts = tree.args[0].elts
    inputs: list[str] = []
    for part in parts:
        if type(part) is ast.Name and CONSTANT_NAME.fullmatch(part.id):
            continue
        if (type(part) is ast.Call and type(part.func) is ast.Name and part.func.id == "_label"
                and len(part.args) == 2 and not part.keywords and type(part.args[0]) is ast.Name
                and CONSTANT_NAME.fullmatch(part.args[0].id)):
            part = part.args[1]
        elif len(parts) == 1:
            return None
        text = ast.get_source_segment(label, part)
        assert text is not None
        inputs.append(text)
    return inputs


def compile_menu(program: Program, node: MenuI) -> MenuFn:
    """The function ``menu(v, L)`` listing ``node``'s options as State._menu_options_generic lists them;
    its generated source is ``menu.source`` (for audits; not among the blocks' sources)."""
    writer = _Writer(program, node)
    source, name = writer.write()
    # defined by the expression compiler, the one module that runs generated code
    namespace = program.exprs.define(source, f"<decision {node.rule} {node.where}>", record=False)
    menu = namespace[name](*writer.objects)
    menu.source = source
    return menu
