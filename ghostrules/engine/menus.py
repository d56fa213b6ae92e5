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
Guards and labels are evaluated in the generic loop's order, except that an option's label is
computed right after its own guard holds (the generic loop tests all the values' guards of an option
first): the options are the same, and only which of two faults is reported first could differ.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .actions import Action
from .errors import SpecRuntimeError
from .program import MenuI, MenuOptionI, Program

MenuFn = Callable[[list, dict], list[Action]]
SHOWN_MAX = 4096  # the Actions kept per option whose label reads slots (MenuOptionI.by_label)

_BARE_L = re.compile(r"\bL\b(?!\[')")


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
        body = "\n".join(lines)
        name = self.exprs.fresh("_m")
        tail = ["    if not _out:", f"        raise {self.const(no_options)}({self.const(node)})", "    return _out"]
        head = ["    _out = []", "    _seen = {}"]
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
