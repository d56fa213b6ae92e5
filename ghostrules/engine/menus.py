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
A part computed again where it was surely computed before (in the guard that holds, in the values that
key the Action) is read from the local its first computation set (engine/once.py, ``computed_once``).
A members list is written as the option's loop itself, the guard in it (neither the list nor the
comprehension's call is made): compile_expr's ``[q for q in domain if guard]`` (a guard may be absent),
and a helper hoist.py made of one (``_dN(v, L)``: ``helper_form``), its statements (the loop-invariant
parts it computes, speculatively) written before the loop, around them its leading test (when that
fails the list is empty). A local of the frame read more than once (``L['m']``, outside the rare
branches) is read first, once, into a local of the function (once.locals_read_once). The function then
runs, on a fault, its statements as written (``_mN_plain``, which calls the helper and reads the locals
where they are read), so as to fail as they fail.
Guards and labels are evaluated in the generic loop's order, except that an option's label is
computed right after its own guard holds (the generic loop tests all the values' guards of an option
first): the options are the same, and only which of two faults is reported first could differ (never
for an option with a members list, see above).
The Actions are listed first, the labels listed kept in ``_seen``, and numbered after, in one pass
(``renumbered``), when two labels are equal (rarely).
"""

from __future__ import annotations

import ast
import re
import weakref
from typing import Any, Callable

from .actions import Action
from .compile_expr import CONSTANT_NAME
from .errors import SpecRuntimeError
from .hoist import inline_checks, remembered
from .once import MEMBERS, PRELUDE, RARE, SPEC, computed_once, locals_read_once
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
        self.members: dict[int, str] = {}  # option -> its members list, when its loop is written here
        self.numbered = True

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
        self.numbered = not (len(node.options) == 1 and node.options[0].var is None)  # more than one Action?
        lines: list[str] = []
        for k, opt in enumerate(node.options):
            self.option(k, opt, lines)
        head = ["    _out = []"] + (["    _seen = {}"] if self.numbered else [])
        memos: list[str] = []
        codes = [code for _, _, code in self.guards]
        if len(self.guards) > 1:  # a part of several guards computed once (engine/hoist.py)
            unset = self.const(_UNSET)

            def memo() -> str:
                memos.append(f"_w{len(memos)}")
                return memos[-1]

            codes = remembered(codes, self.exprs.is_global, memo, unset)
            if memos:
                head.append(f"    {' = '.join(memos)} = {unset}")
        for (at, ind, _), code in zip(self.guards, codes):
            lines[at] = f"{ind}if {SPEC}({code}):"
        name = self.exprs.fresh("_m")
        body = "\n".join(lines)
        read, reads = locals_read_once(body, lambda: self.exprs.fresh("_t"))
        fast, plain = computed_once(read, self.exprs.is_global, lambda: self.exprs.fresh("_t"), self.members)
        if reads:  # the frame's locals read first: on a fault, the statements as written
            fast = "\n".join([*reads, fast])
            written, plain = computed_once(body, self.exprs.is_global, lambda: self.exprs.fresh("_t"), self.members)
            plain = written if plain is None else plain
        fail = f"raise {self.const(no_options)}({self.const(node)})"
        tail = ["    if not _out:", f"        {fail}", "    return _out"]
        if self.numbered:  # a label listed twice: the list numbered (renumbered), once, after the options
            tail = ["    if len(_seen) < len(_out):", f"        return {self.const(renumbered)}(_out)", *tail]
        consts = [f"_K{i}" for i in range(len(self.objects))]
        params = f"(v, L{''.join(f', {k}={k}' for k in consts)}):"
        top = [f"def {name}_make({', '.join(consts)}):"]
        if plain is not None:  # a guard evaluated after an earlier option's label: the order as written on a fault
            top += [f"  def {name}_plain{params}", *head, _indent(plain, 4), *tail]
            fast = "\n".join(["try:", _indent(fast, 4), "except Exception:", f"    return {name}_plain(v, L)"])
        top += [f"  def {name}{params}", *head, _indent(fast, 4), *tail, f"  return {name}"]
        return inline_checks("\n".join(top) + "\n"), f"{name}_make"

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
            looped = None
            if opt.members is not None:  # the values for which the guard holds, of the frame's locals
                values = self.code(opt.members)
                looped = members_loop(values, local)
                if looped is None:  # a helper's call (engine/hoist.py): its statements and its list written here
                    helper = self.helper(values, local)
                    if helper is not None:
                        lead, prelude, looped = helper
                        lines.append(f"{ind}if {PRELUDE}({k}, {SPEC}({lead})):")
                        ind += "    "
                        lines += [f"{ind}{name} = {SPEC}({code})" for name, code in prelude]
                if looped is not None:  # its loop written here, the guard's parts shared (engine/once.py)
                    self.members[k] = values
                    values = f"{MEMBERS}({k}, {looped[0]})"
                else:
                    values = f"{SPEC}({values})"
            elif opt.values is not None:
                r = opt.values
                values = f"range({r.start}, {r.stop})" if r.step == 1 else self.const(r)
            else:
                values = "(" + "".join(f"{SPEC}({self.code(f)}), " for f in opt.item_fns) + ")"
            lines.append(f"{ind}for {local} in {values}:")
            ind += "    "
            if looped is not None:  # (the loop's one statement: its guard reads not the locals' copy)
                self.guard(lines, ind, looped[1])
                ind += "    "
            if bound is not None:
                lines.append(f"{ind}{bound}[{var!r}] = {local}")
            if looped is None and opt.members is None and opt.cond is not None:
                self.guard(lines, ind, self.option_code(opt.cond, var, local, bound))
                ind += "    "
        label = self.option_code(opt.label, var, local, bound)
        rule = self.const(opt.rule)
        action = self.const(Action)
        key = f"({k}, {value})"
        listed = [f"{ind}_out.append(_a)"] + ([f"{ind}_seen[_a.label] = _a"] if self.numbered else [])
        if opt.actions is not None:  # the label reads no slot: the Action kept by value and the locals it reads
            made = self.const(opt.actions)
            at = value
            if gets:
                lines.append(f"{ind}_at = ({value}{gets})")
                at = "_at"
            lines += [f"{ind}_a = {made}.get({at})",
                      f"{ind}if {RARE}(_a is None):",
                      f"{ind}    _a = {made}[{at}] = {action}('choose', {key}, {SPEC}({label}), {rule})",
                      *listed]
            return
        shown = self.const(opt.by_label)
        inputs = label_inputs(label)
        if inputs is None:  # a label that reads slots: the Action kept by value and label
            lines += [f"{ind}_l = {SPEC}({label})", *by_label(ind, shown, value, action, key, rule), *listed]
            return
        # a label made of display names and constants: the Action kept by value and the values named
        # (the label, and so the Action kept by value and label, is theirs)
        by_inputs = self.const({})
        lines += [f"{ind}_at = ({value}, {''.join(f'{SPEC}({i}), ' for i in inputs)})",
                  f"{ind}_a = {by_inputs}.get(_at)",
                  f"{ind}if {RARE}(_a is None):",
                  f"{ind}    _l = {SPEC}({label})",
                  *by_label(ind + "    ", shown, value, action, key, rule),
                  f"{ind}    if len({by_inputs}) < {SHOWN_MAX}:",
                  f"{ind}        {by_inputs}[_at] = _a",
                  *listed]

    def helper(self, code: str, local: str) -> tuple[str, list[tuple[str, str]], tuple[str, str]] | None:
        """(its leading test, its statements ``(name, code)``, (its list's domain, its guard with the
        variable read from ``local``)) of the members list ``code`` when that is a call of a helper hoist.py made
        (``_dN(v, L)``: its speculative statements, then the list), each local of the helper given a fresh
        name; else None."""
        call = ast.parse(code, mode="eval").body
        if type(call) is not ast.Call or type(call.func) is not ast.Name or call.keywords or \
                not all(type(a) is ast.Name and a.id in ("v", "L") for a in call.args):
            return None
        source = helper_sources(self.exprs).get(call.func.id)
        if source is None:
            return None
        form = helper_form(source, [a.id for a in call.args if type(a) is ast.Name])
        if form is None:
            return None
        renamed: dict[str, str] = {}

        def name(m: re.Match[str]) -> str:
            got = renamed.get(m[0])
            if got is None:
                got = renamed[m[0]] = self.exprs.fresh("_t")
            return got

        def fresh(text: str) -> str:  # (the same helper may be written twice in one function)
            return _HELPER_LOCAL.sub(name, text)
        lead, prelude, listed = form
        looped = members_loop(fresh(listed), local)
        if looped is None:
            return None
        return fresh(lead), [(fresh(name), fresh(value)) for name, value in prelude], looped

    def guard(self, lines: list[str], ind: str, code: str) -> None:
        """The line ``if code:`` (its code rewritten by ``write`` when a part of it is in other guards)."""
        self.guards.append((len(lines), ind, code))
        lines.append(f"{ind}if {code}:")


def _indent(text: str, n: int) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())


def members_loop(code: str, local: str) -> tuple[str, str] | None:
    """(the domain, the guard with its variable read from ``local``) of the members list ``code``
    (``[q for q in domain if guard]``, compile_expr's, in parentheses), else None (another form: a
    helper's call)."""
    tree = ast.parse(code, mode="eval").body
    if type(tree) is not ast.ListComp or len(tree.generators) != 1:
        return None
    gen = tree.generators[0]
    if type(gen.target) is not ast.Name or type(tree.elt) is not ast.Name or tree.elt.id != gen.target.id or \
            gen.is_async:
        return None
    q = gen.target.id
    if any(type(n) is ast.Name and n.id == local for n in ast.walk(tree)):
        return None
    for n in ast.walk(tree):
        if type(n) is ast.Name and n.id == q:
            n.id = local
    guard = " and ".join(f"({ast.unparse(x)})" for x in gen.ifs) if len(gen.ifs) > 1 else \
        ast.unparse(gen.ifs[0]) if gen.ifs else "True"  # (``if True:`` compiles to nothing)
    return ast.unparse(gen.iter), guard


_HELPER_LOCAL = re.compile(r"\b_t\d+\b")
_HELPERS: weakref.WeakKeyDictionary[Any, tuple[int, dict[str, str]]] = weakref.WeakKeyDictionary()
_HELPER_DEF = re.compile(r"^def (_d\d+)\(", re.MULTILINE)


def helper_sources(exprs: Any) -> dict[str, str]:
    """The source of each helper defined so far among ``exprs``'s sources (``block_sources``), by its name
    (the sources read once: only those added since the last call are read)."""
    seen, found = _HELPERS.get(exprs, (0, {}))
    sources = exprs.block_sources
    for source in sources[seen:]:
        for m in _HELPER_DEF.finditer(source):
            end = source.find("\ndef ", m.end())
            found[m[1]] = source[m.start():end if end >= 0 else len(source)]
    _HELPERS[exprs] = (len(sources), found)
    return found


def helper_form(source: str, args: list[str]) -> tuple[str, list[tuple[str, str]], str] | None:
    """(the leading test, the statements ``(name, code)``, the list) of a helper hoist.py wrote for a
    members list (``def _dN(v, L): try: [if not (lead): return []] _tA = ...; ... except Exception:
    return <the list as written>; return <the list>``) whose parameters are ``args``: the helper's
    answer, when its statements raise nothing, is the list evaluated after them (``[]`` when the leading
    test fails); else None (another form)."""
    fn = ast.parse(source).body[0]
    if type(fn) is not ast.FunctionDef or [a.arg for a in fn.args.args] != args or fn.args.vararg or \
            fn.args.kwarg or fn.args.kwonlyargs or fn.args.defaults or fn.decorator_list:
        return None
    body = fn.body
    if len(body) == 1:
        statements: list[ast.stmt] = []
    elif len(body) == 2 and type(body[0]) is ast.Try and not body[0].orelse and not body[0].finalbody:
        statements = body[0].body
    else:
        return None
    last = body[-1]
    if type(last) is not ast.Return or type(last.value) is not ast.ListComp:
        return None
    lead = "True"
    first = statements[0] if statements else None
    if type(first) is ast.If and type(first.test) is ast.UnaryOp and type(first.test.op) is ast.Not and \
            not first.orelse and len(first.body) == 1 and type(first.body[0]) is ast.Return and \
            type(first.body[0].value) is ast.List and not first.body[0].value.elts:
        lead = ast.unparse(first.test.operand)
        statements = statements[1:]
    prelude = []
    for st in statements:
        if type(st) is not ast.Assign or len(st.targets) != 1 or type(st.targets[0]) is not ast.Name or \
                not _HELPER_LOCAL.fullmatch(st.targets[0].id):
            return None
        prelude.append((st.targets[0].id, ast.unparse(st.value)))
    return lead, prelude, ast.unparse(last.value)


def renumbered(options: list[Action]) -> list[Action]:
    """``options`` (a decision's Actions, in order) with each label met before numbered: the second
    Action of label ``"label"`` becomes a new Action ``"label #2"`` (the same kind, key and rule), the
    third ``"label #3"``...; the first of each label is kept as it is. The generic loop
    (State._menu_options_generic) and a generated function both number their list so, after listing
    it (a generated function only when two labels are equal: rarely)."""
    seen: dict[str, int] = {}
    out = []
    for a in options:
        label = a.label
        if label in seen:
            seen[label] += 1
            out.append(Action(a.kind, a.key, f"{label} #{seen[label]}", a.rule))
        else:
            seen[label] = 1
            out.append(a)
    return out


def by_label(ind: str, shown: str, value: str, action: str, key: str, rule: str) -> list[str]:
    """Lines setting ``_a`` to the Action of the option's value and label ``_l``: the one kept in
    ``by_label`` (``shown``), else a new one, kept there while it holds fewer than SHOWN_MAX."""
    return [f"{ind}_a = {shown}.get(({value}, _l))",
            f"{ind}if {RARE}(_a is None):",
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
