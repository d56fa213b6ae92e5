"""A position of a game: what can happen there, and applying one action.

The state is a flat list of ints (every declared slot) plus a stack of frames
``[procedure, pc, locals]``. Nothing else is stored: the pending node is the instruction at the
top of the stack, so ``clone``, JSON and replay are exact. The machine that runs a state from one
decision or chance node to the next is its base class (engine/machine.py).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable

import attrs

from .actions import CHANCE, TERMINAL, Action, LogEntry, Outcome, Score
from .errors import IllegalActionError, SpecRuntimeError
from .machine import STEP_LIMIT, Machine
from .menus import SHOWN_MAX, no_options, renumbered
from .program import MenuI, RandomI, RollI
from ..spec.expr import ExprError
from ..spec.source import SpecError
from ..spec.words import listed, shorten

if TYPE_CHECKING:
    from .game import Game

__all__ = ["STEP_LIMIT", "State"]

_CHANCE = (RandomI, RollI)


def _bound(L: dict, var: str | None, value: int) -> dict:
    """``L`` with ``var`` bound to ``value`` (in place: the caller's scratch copy)."""
    if var is not None:
        L[var] = value
    return L


def _at_point(keys: list[int], weights: list[int], total: int, u: int, scale: int) -> int:
    """The outcome (of ``keys``, with integer ``weights`` summing to ``total``) at the point u / scale
    of the cumulative distribution (0 <= u < scale): the first whose cumulative weight passes it."""
    if total == len(keys):  # equal weights: found at once
        return keys[u * total // scale]
    acc = 0
    for key, weight in zip(keys, weights):
        acc += weight
        if u * total < acc * scale:
            return key
    return keys[-1]


def _one_line(text: str, most: int) -> str:
    """``text`` on one line, cut to ``most`` characters (the cut marked with ...)."""
    return shorten(" ".join(text.split()), most, marker="...", strip="")


class State(Machine):
    """One position. OpenSpiel-style: ask what can happen, apply one action, repeat."""

    __slots__ = ("game", "values", "stack", "_history", "_log", "_outcome", "tracing", "_offered", "_journal",
                 "_undo", "_drawn", "_watched", "_shared", "_floor", "_cited")

    def __init__(self, game: "Game", values: list[int], stack: list[list[Any]], tracing: bool | str = False) -> None:
        self.game = game
        self.values = values
        self.stack = stack
        self._history: list[Action] = []
        self._log: list[LogEntry] = []
        self._outcome: Outcome | None = None
        self.tracing = tracing
        # the options last offered at this position: (number of actions applied, actions); an
        # action taken from them needs no second enumeration. Values change only through
        # apply_action and set, which move or clear it.
        self._offered: tuple[int, list[Action]] | None = None
        # while apply_action runs: the frames of the stack it started from, each saved as
        # (frame, pc, locals) before the machine first changes it (see apply_action)
        self._journal: list[tuple[list[Any], int, dict]] | None = None
        # while apply_action runs: every slot the machine writes and the value it held before, as
        # pairs (slot, old value) in the order written; undone backwards on an error
        self._undo: list[int] = []
        # the outcomes of the draw pending here, as the machine found them when it stopped there:
        # (frame, pc, values, locals, outcomes); used while the frame, values and locals are the same
        self._drawn: tuple[Any, ...] | None = None  # a draw's outcomes, kept by the machine (Machine._drawn)
        # False while no one but game.play's loop sees the state: the machine then keeps a draw's
        # outcomes without copies of the values and locals (None: they match no position)
        self._watched = True
        # how many frames at the bottom of the stack may be shared with another state (child() shares
        # all but the top one): the machine copies such a frame before it changes it (Machine._run)
        self._shared = 0
        # (tracing) the fewest frames the stack has held since the last log entry (LogEntry.floor)
        self._floor = len(stack)
        # (tracing == RULES) the log's entries as (rule, floor) only, until take_rules
        self._cited: list[tuple[str, int]] = []

    # ---- reading the position ----------------------------------------------------------
    def is_terminal(self) -> bool:
        """True once the game has ended (``outcome()`` then tells how): no action is legal any more."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """The result and the rule that decided it, or None while the game goes on."""
        return self._outcome

    def _node(self) -> Any:
        """The pending node: the instruction at the top frame (None at the end)."""
        stack = self.stack
        if self._outcome is not None or not stack:
            return None
        frame = stack[-1]
        return self.game.program.procs[frame[0]].code[frame[1]]

    def is_chance_node(self) -> bool:
        """True when chance acts now (a roll or a draw: its outcomes are ``chance_outcomes()``); False
        at a decision and at the end."""
        stack = self.stack
        if self._outcome is not None or not stack:
            return False
        frame = stack[-1]
        return type(self.game.program.procs[frame[0]].code[frame[1]]) in _CHANCE

    def current_player(self) -> int:
        """The deciding player (an index in the players domain), CHANCE (-1) or TERMINAL (-4)."""
        node = self._node()
        if node is None:
            return TERMINAL
        if isinstance(node, MenuI):
            who = node.by(self.values, self.stack[-1][2])
            return int(who) if who is not None and who >= 0 else 0
        return CHANCE

    def current_player_name(self) -> str:
        """The name of ``current_player()``: the player's symbol, or ``"chance"`` or ``"terminal"``."""
        p = self.current_player()
        if p == TERMINAL:
            return "terminal"
        if p == CHANCE:
            return "chance"
        return self.game.layout.symbol(self.game.spec.players, p)

    def prompt(self) -> str:
        """What is being decided or rolled now, in words."""
        node = self._node()
        if isinstance(node, MenuI):
            return node.show(self.values, self.stack[-1][2]) if node.show is not None else node.prompt
        if isinstance(node, RollI):
            return f"roll the {node.die}"
        if isinstance(node, RandomI):
            return f"{node.kind} a {node.type}"
        return ""

    def node_rule(self) -> str:
        """The rule ID of the pending decision or chance node; ``""`` at the end of the game."""
        node = self._node()
        return node.rule if node is not None else ""

    def legal_actions(self) -> list[Action]:
        """The options of the current decision (empty at chance nodes and at the end)."""
        node = self._node()
        if type(node) is not MenuI:
            return []
        options = self._menu_options(node)
        self._offered = (len(self._history), options)
        return list(options)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The outcomes of the current chance node with exact probabilities that sum to 1."""
        actions, weights, total = self.chance_weights()
        return [(a, Fraction(w, total)) for a, w in zip(actions, weights)]

    def chance_weights(self) -> tuple[list[Action], list[int], int]:
        """The outcomes of the current chance node with integer weights and their total
        (probability = weight / total); empty lists away from chance nodes."""
        table = self._chance_table()
        if table is None:
            return [], [], 1
        make, keys, weights, total = table
        actions = [make(k) for k in keys]
        self._offered = (len(self._history), actions)
        return actions, list(weights), total

    def _chance_table(self) -> tuple[Callable[[int], Action], list[int], list[int], int] | None:
        """(action maker, outcome keys, weights, total) of the current chance node, or None."""
        node = self._node()
        label = self.game.layout.label
        if isinstance(node, RollI):
            return node.outcome.__getitem__, node.keys, node.weights, node.total
        if isinstance(node, RandomI):
            members = self._random_members(node)
            if not members:
                raise SpecRuntimeError("chance node with no outcomes", node.rule, str(node.where))
            outcomes = node.outcomes

            def make(x: int) -> Action:
                action = outcomes.get(x)
                if action is None:
                    action = outcomes[x] = Action(node.kind, (x,), f"{node.kind}: {label(node.type, x)}", node.rule)
                return action
            return make, members, [1] * len(members), len(members)
        return None

    def _sample(self, u: int, scale: int, node: Any = None, members: list[int] | None = None) -> Action:
        """The chance outcome at the point u / scale of the cumulative distribution (0 <= u < scale),
        built alone (no labels for the outcomes not taken) and offered for apply_action. A caller
        that knows the pending node may give it (``node``: what ``_node()`` gives), and at a draw its
        outcomes (``members``: what ``_random_members`` gives, known when nothing can have changed
        the position since the machine stopped there)."""
        if node is None:
            node = self._node()
        if type(node) is RandomI:  # equal weights, and the outcome's Action made before: found at once
            if members is None:
                members = self._random_members(node)
            action = node.outcomes.get(members[u * len(members) // scale]) if members else None
            if action is not None:
                self._offered = (len(self._history), [action])
                return action
        table = self._chance_table()
        if table is None:
            if self._outcome is not None:
                raise IllegalActionError(f"sample_chance: the game is over ({self._outcome}); there is no chance "
                                         f"node", self._outcome.rule_id)
            raise IllegalActionError(f"sample_chance: not a chance node but a decision ({self.prompt()}): pick one of "
                                     f"legal_actions()", self.node_rule())
        make, keys, weights, total = table
        action = make(_at_point(keys, weights, total, u, scale))
        self._offered = (len(self._history), [action])
        return action

    def score(self) -> Score:
        """The score sheet the spec declares, evaluated on this position (usually the final one)."""
        lines = tuple((label, rule, int(fn(self.values, {}))) for label, rule, fn in self.game.program.score_lines)
        return Score(sum(points for _, _, points in lines), lines)

    def history(self) -> list[Action]:
        """The actions applied so far, in order (a new list). A state read by ``Game.state_from_json``
        from JSON written without labels (before they were kept) has them without (kind and key only)."""
        return list(self._history)

    def log(self) -> list[LogEntry]:
        """What happened, step by step, each entry with the rule that fired (needs tracing on)."""
        return list(self._log)

    def take_rules(self, depth: int) -> list[str]:
        """With ``tracing`` set to ``"rules"`` (engine.actions.RULES: the log keeps each entry's rule
        alone, without composing its words): the rules of the entries written since the last take,
        as far as the first one written after the stack held fewer than ``depth`` frames (the frame
        then at index ``depth - 1`` had returned); they are removed, and the next take counts from
        here. A search that cites what acted on its way takes them at every position."""
        cited = self._cited
        self._floor = len(self.stack)
        if not cited:
            return []
        self._cited = []
        out = []
        for rule, floor in cited:
            if floor < depth:
                break
            out.append(rule)
        return out

    def put_under(self, frames: list[list[Any]]) -> None:
        """Put ``frames`` under the stack (a position built from its top frames, whose callers are
        known only afterwards): the log's depths count them too, as if they had been there."""
        n = len(frames)
        self.stack[0:0] = frames
        self._log = [attrs.evolve(e, depth=e.depth + n, floor=e.floor + n) for e in self._log]
        self._floor += n
        self._shared += n  # (a frame that may be shared is copied before it is changed: still so)

    def frame_log(self, index: int) -> list[LogEntry]:
        """The entries of the log written while the frame now at ``index`` of the stack was running
        (by it or by the frames it called), as far back as the log goes (needs tracing on). An entry
        written before it was called, or by an earlier frame at that place, is not one of them."""
        if index < 0 or index >= len(self.stack) or self._floor <= index:
            return []
        out: list[LogEntry] = []
        for e in reversed(self._log):
            if e.depth <= index:  # written below it: before it was called
                break
            out.append(e)
            if e.floor <= index:  # it was called between the entry before and this one
                break
        out.reverse()
        return out

    def get(self, name: str, *index: str | int) -> int | str | bool:
        """Read a slot by name: ``state.get('stock', 'ann')``. Symbols come back as names."""
        layout = self.game.layout
        key = (name, *index)
        found = layout.reads.get(key)
        if found is None:  # first read of this slot: where it is and how it shows (kept by the layout)
            found = layout.reads[key] = (layout.index(name, *index), layout.slots[name].var.type)
        value = self.values[found[0]]
        type_ = found[1]
        if type_ == "int":
            return value
        if type_ == "bool":
            return bool(value)
        return layout.symbol(type_, value)

    def eval(self, expression: str) -> Any:
        """Evaluate a condition-language expression in this position (for queries and tests): an int,
        a bool, or a symbol's name. An expression that does not parse or type-check raises SpecError
        saying why (without a file or rule: the expression is the caller's); one that is not text,
        TypeError."""
        if not isinstance(expression, str):
            raise TypeError(f"eval expects an expression as text, not {type(expression).__name__} {expression!r}")
        try:
            fn, t = self.game.program.query(expression)
        except ExprError as exc:
            raise SpecError(f"{expression!r} is not a valid expression: {exc}") from None
        except SpecError as exc:
            raise SpecError(exc.message.replace(" (rule )", "")) from None
        value = fn(self.values, {})
        if t == "bool":
            return bool(value)
        if t == "int":
            return value
        return self.game.layout.symbol(t, value)

    def set(self, name: str, *index_and_value: Any) -> None:
        """Set a slot by name (for building positions): ``state.set('stock', 'ann', 3)``.

        The value is an int, a bool, or a symbol of the slot's domain by name (``"none"`` for none).
        An unknown slot or index raises KeyError (as ``get`` does); a value of another kind, an
        unknown symbol or a value outside the slot's declared range raises ValueError naming them
        (``Layout.encode``); the state is then unchanged. Pool cells may only be set in pairs that
        keep the totals (see ``pool_totals``): the caller is responsible, and ``check_invariants``
        verifies."""
        if not index_and_value:
            raise TypeError("set(name, *index, value): no value given")
        *index, value = index_and_value
        flat, code = self.game.layout.encode(name, index, value)
        self._offered = None
        self.values[flat] = code

    def pool_totals(self) -> dict[str, list[int]]:
        """For every conserved pool, the sum over its cells (one number per key of ``per``)."""
        out = {}
        layout = self.game.layout
        v = self.values
        for pool in self.game.spec.pools:
            width = len(layout.domains[pool.per].symbols) if pool.per else 1
            sums = [0] * width
            for cell in pool.cells:
                slot = layout.slots[cell]
                cells = v[slot.offset:slot.offset + slot.count]
                if pool.per:
                    for k in range(width):
                        sums[k] += sum(cells[k::width])
                else:
                    sums[0] += sum(cells)
            out[pool.name] = sums
        return out

    def check_invariants(self) -> list[str]:
        """Every pool holds its declared total, and every slot lies within its declared range."""
        problems = []
        totals = self.pool_totals()
        for pool in self.game.spec.pools:
            for k, s in enumerate(totals[pool.name]):
                if s != pool.total:
                    problems.append(f"pool {pool.name}[{k}] holds {s}, expected {pool.total}")
        layout = self.game.layout
        for flat, (value, lo, hi) in enumerate(zip(self.values, layout.lows, layout.highs)):
            if not lo <= value <= hi:
                problems.append(f"{layout.name_of(flat)} = {value} outside {lo}..{hi}")
        for inv, holds in self.game.program.invariants:
            if not holds(self.values, {}):
                problems.append(f"invariant {inv.id} ({inv.text}) does not hold [{inv.rule}]")
        return problems

    # ---- changing the position ---------------------------------------------------------
    def clone(self) -> "State":
        """An independent copy (values, stack, history, log, outcome): applying actions to either
        leaves the other as it was; the copy compares equal to this state."""
        other = State(self.game, list(self.values), [[f[0], f[1], dict(f[2])] for f in self.stack], self.tracing)
        other._history = list(self._history)
        other._log = list(self._log)
        other._outcome = self._outcome
        other._offered = self._offered  # the same position offers the same actions
        other._floor = self._floor
        other._cited = list(self._cited)
        return other

    def __copy__(self) -> "State":
        """``copy.copy(state)`` is ``state.clone()``: a shallow copy would share the value list and
        the frames, so that applying an action to the copy would change this state too."""
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its Game (see ``Game.__reduce__``), its JSON (``to_json``: position, history and
        log) and its tracing: unpickled it is an equal state of the same Game object when that Game
        is compiled in this process (for multiprocessing workers, say)."""
        from .game import _state_of
        return _state_of, (self.game, self.to_json(), self.tracing)

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        """``copy.deepcopy(state)`` is ``state.clone()``: the copy shares the (unchanging) Game, as
        states of one game must to compare equal, instead of copying all of its compiled program."""
        return self.clone()

    def apply_action(self, action: Action | str) -> None:
        """Apply a decision option or a chance outcome: an Action offered here (by ``legal_actions``
        or ``chance_outcomes``, or one equal to it: same kind, key and label) or its label.

        Anything else (another type, an Action of another position or game that is not one of this
        node's) raises IllegalActionError naming the node's rule. Atomic: on any error the state is
        unchanged."""
        self._step(action)

    def _pending(self, action: Action | str) -> tuple[list[Any], Any, Action]:
        """(the top frame, the pending node, the offered action ``action`` stands for); raises
        IllegalActionError, naming the rule, at the end of the game or for an action not offered."""
        stack = self.stack
        if self._outcome is not None or not stack:
            raise IllegalActionError("the game is over", self._outcome.rule_id if self._outcome else "", action)
        top = stack[-1]
        node = self.game.program.procs[top[0]].code[top[1]]
        offered = self._offered
        if offered is not None and offered[0] == len(self._history):  # one of the actions just offered
            for a in offered[1]:
                if a is action:
                    return top, node, a
        return top, node, self._resolve(node, action)

    def _step(self, action: Action | str) -> Any:
        """``apply_action``, answering the node the machine stopped at (the pending node after the
        action, as ``_node()`` would give it now; None at the end), so that a loop that applies
        action after action (``play``) need not look it up again."""
        stack = self.stack
        top, node, chosen = self._pending(action)
        # what to restore on an error: the values, the list of frames, and each frame of it as it
        # was before the machine changes it. The machine changes the frames from the top down (a
        # frame is changed only once those above it have returned), so _run saves a frame only when
        # it first comes back to it; most actions change the top frame alone.
        journal = [(top, top[1], top[2].copy())]
        saved = (stack[:], len(self._history), len(self._log), self._outcome, self._shared, self._floor,
                 len(self._cited))
        self._journal = journal
        undo = self._undo
        undo.clear()
        try:
            return self._advance(node, chosen)
        except BaseException:
            v = self.values
            for k in range(len(undo) - 2, -1, -2):  # the writes undone, the last first
                v[undo[k]] = undo[k + 1]
            self.stack = saved[0]
            for frame, pc, L in journal:
                frame[1] = pc
                frame[2] = L
            del self._history[saved[1]:]
            del self._log[saved[2]:]
            self._outcome = saved[3]
            self._shared = saved[4]  # the frames copied on the way were dropped with the list
            self._floor = saved[5]
            del self._cited[saved[6]:]
            raise
        finally:
            self._journal = None
            undo.clear()

    def child(self, action: Action | str) -> "State":
        """A new state: this one with ``action`` applied; this one is left as it was (OpenSpiel's
        ``State.child``). The same as ``clone()`` then ``apply_action(action)``, in one copy: on an
        error the new state is dropped, so there is nothing to restore.

        Only the top frame is copied at once: the frames below it are shared by both states until
        either machine returns into one, which then copies it first (``_shared``, Machine._run)."""
        stack = self.stack
        top, node, chosen = self._pending(action)
        other = State.__new__(State)  # the fields set here, without __init__'s defaults
        other.game = self.game
        other.values = self.values[:]
        frames = stack[:]
        frames[-1] = [top[0], top[1], top[2].copy()]
        shared = len(frames) - 1
        if self._shared < shared:
            self._shared = shared
        other.stack = frames
        other._shared = shared
        other._history = self._history[:]
        other._log = self._log[:]
        other._outcome = self._outcome
        other.tracing = self.tracing
        other._offered = None
        other._journal = None
        other._undo = []  # written by the machine, never read: a failed child is dropped
        other._drawn = None
        other._watched = True
        other._floor = self._floor
        other._cited = self._cited[:]
        other._advance(node, chosen)
        other._undo.clear()
        return other

    def _advance(self, node: Any, chosen: Action) -> Any:
        """Take ``chosen`` (an action of ``node``, the pending node) and run to the next node (the
        answer: the node the machine stopped at, None at the end)."""
        frame = self.stack[-1]
        if type(node) is MenuI:
            self._take_option(node, frame, chosen, False)
        else:
            frame[2][node.var] = chosen.key[0]
            frame[1] += 1
            if self.tracing:
                self._trace_outcome(node, chosen)
        self._history.append(chosen)
        return self._run()

    def _take_option(self, node: MenuI, frame: list[Any], chosen: Action, forced: bool) -> None:
        """Take ``chosen``, an option of the decision ``node`` pending in ``frame``: its value bound to
        the option's variable, if it has one, and the frame's pc set to the option's code; with
        tracing, a log entry (``forced``: the only option, taken by the machine). game._play_alone
        does the same in place when not tracing."""
        opt_index, value = chosen.key
        opt = node.options[opt_index]
        if self.tracing:
            self._trace_choice(node, frame, opt.rule, chosen, forced)
        if opt.var is not None:
            frame[2][opt.var] = value
        frame[1] = opt.target

    # (log entries composed in functions of their own: a lambda in _advance or _take_option would make
    # the variables it reads cells of those, paid for on every call)
    def _trace_outcome(self, node: Any, chosen: Action) -> None:
        self._entry(node.rule, node.kind if isinstance(node, RandomI) else "roll", lambda: chosen.label)

    def _trace_choice(self, node: MenuI, frame: list[Any], rule: str, chosen: Action, forced: bool) -> None:
        self._entry(rule, "choose", lambda: f"{chosen.label} (no other option)" if forced
                    else f"{self.current_player_name_for(node, frame)} chooses: {chosen.label}")

    def current_player_name_for(self, node: MenuI, frame: list[Any]) -> str:
        """The label of the player who decides at ``node`` with the locals of ``frame`` (``"players"``
        when no one player does): the name the log gives the chooser."""
        who = node.by(self.values, frame[2])
        return self.game.layout.label(self.game.spec.players, who) if who is not None and who >= 0 else "players"

    def _resolve(self, node: Any, action: Action | str) -> Action:
        """The option or outcome of ``node`` that ``action`` stands for, by enumerating them
        (``_pending`` has found the actions just offered by identity).

        ``action`` is a label, or an Action equal to one (same kind and key) with the same label, or
        with none (an Action read from JSON). Anything else raises IllegalActionError naming the
        node's rule: a value of another type, or an Action of another position or game whose key
        stands for a different option here."""
        if not isinstance(action, (Action, str)):
            raise IllegalActionError(
                f"apply_action expects an Action (from legal_actions() or chance_outcomes()) or its label, "
                f"not {type(action).__name__} {action!r}", node.rule, action)
        if isinstance(node, MenuI):
            options = self._menu_options(node)
        else:
            options = [a for a, _ in self.chance_outcomes()]
        if isinstance(action, str):
            for a in options:
                if a.label == action:
                    return a
        else:
            for a in options:
                if a == action:
                    if action.label and action.label != a.label:
                        raise IllegalActionError(
                            f"{action.label!r} ({action.kind} {list(action.key)}) is not an option here: "
                            f"that key stands for {a.label!r} at '{self.prompt()}' (an Action of another "
                            f"position or game?)", node.rule, action)
                    return a
        why = self._why_illegal(node, action)
        raise IllegalActionError(why, node.rule, action)

    def _why_illegal(self, node: Any, action: Action | str) -> str:
        label = action if isinstance(action, str) else action.label
        if isinstance(node, MenuI):
            # find an option with this label whose guard fails: name its rule
            for o_index, opt in enumerate(node.options):
                for value in self._option_values(opt, self.stack[-1][2]):
                    L = dict(self.stack[-1][2])
                    if opt.var is not None:
                        L[opt.var] = value
                    try:
                        text = opt.label(self.values, L)
                    except (SpecRuntimeError, KeyError, IndexError, TypeError):
                        continue  # a label that only makes sense where its option is offered
                    if text == label:
                        return f"{label!r} is not allowed now ({self.prompt()}; rule {opt.rule} does not permit it)"
            return f"{label!r} is not an option of '{self.prompt()}'; options: {listed([a.label for a in self._menu_options(node)], 12)}"
        outcomes = [a for a, _ in self.chance_outcomes()]
        return f"{label!r} is not an outcome of this chance node ({self.prompt()}); outcomes: {listed([a.label for a in outcomes], 12)}"

    def _option_values(self, opt: Any, L: dict) -> Iterable[int]:
        if opt.var is None:
            return (0,)
        if opt.values is not None:
            return opt.values
        return [f(self.values, L) for f in opt.item_fns]

    def _menu_options(self, node: MenuI) -> list[Action]:
        """The options of ``node`` (the pending decision) as Actions, listed by the decision's own
        generated function (engine/menus.py, made with the game): what ``_menu_options_generic``
        lists, the same Actions in the same order."""
        return self.game.menus[node](self.values, self.stack[-1][2])

    def _menu_options_generic(self, node: MenuI) -> list[Action]:
        """The options of ``node`` by the generic loop: each option's guard and label called on a
        copy of the frame's locals (the reference for engine/menus.py's functions)."""
        base = self.stack[-1][2]
        out: list[Action] = []
        L = dict(base)
        v = self.values
        for o_index, opt in enumerate(node.options):
            var = opt.var
            if var is None:  # one option, or none when its guard fails
                cond = opt.cond
                if cond is not None and not cond(v, L):
                    continue
                values: Iterable[int] = (0,)
            elif opt.members is not None:
                values = opt.members(v, base)  # the values for which the guard holds
            else:
                values = [x for x in self._option_values(opt, base) if opt.cond is None or opt.cond(v, _bound(L, var, x))]
            made = opt.actions  # the label reads no slot: the same value and locals make the same Action
            if made is not None:
                label_locals = opt.label_locals
                for value in values:
                    if var is not None:
                        L[var] = value
                    at = (value, *map(L.get, label_locals)) if label_locals else value
                    action = made.get(at)
                    if action is None:
                        action = made[at] = Action("choose", (o_index, value), opt.label(v, L), opt.rule)
                    out.append(action)
            else:
                shown = opt.by_label  # a label that reads slots: the same value and label make the same Action
                for value in values:
                    if var is not None:
                        L[var] = value
                    label = opt.label(v, L)
                    action = shown.get((value, label))
                    if action is None:
                        action = Action("choose", (o_index, value), label, opt.rule)
                        if len(shown) < SHOWN_MAX:
                            shown[(value, label)] = action
                    out.append(action)
            if var is not None:  # the next option sees the frame's own value of the name
                if var in base:
                    L[var] = base[var]
                else:
                    L.pop(var, None)
        if not out:
            raise no_options(node)
        return renumbered(out)  # a label listed before: "label #2", "label #3", ...

    def _random_members(self, node: RandomI) -> list[int]:
        frame = self.stack[-1]
        drawn = self._drawn
        if drawn is not None and drawn[0] is frame and drawn[1] == frame[1] and drawn[2] == self.values and \
                drawn[3] == frame[2]:
            return drawn[4]  # what node.members gives here: the same function of the same values and locals
        return node.members(self.values, frame[2])

    # ---- serialisation -----------------------------------------------------------------
    def to_json(self) -> str:
        """The position as JSON text: game, settings, values, stack, history (each action as
        ``[kind, *key]``, and its label and rule under ``labels``), outcome, and the log when there is
        one (each entry with its depth and floor); ``Game.state_from_json`` reads it back as an equal
        state with the same history and log."""
        procs = self.game.program.procs
        doc: dict[str, Any] = {
            "game": self.game.spec.name,
            "settings": dict(self.game.spec.settings),
            "values": self.values,
            "stack": [[procs[f[0]].name, f[1], f[2]] for f in self.stack],
            "history": [a.to_json() for a in self._history],
            "outcome": None if self._outcome is None else
            {"result": self._outcome.result, "rule": self._outcome.rule_id, "text": self._outcome.text},
            "labels": [[a.label, a.rule] for a in self._history],
        }
        if self._log:
            doc["log"] = [{**e.to_json(), "depth": e.depth, "floor": e.floor} for e in self._log]
            doc["floor"] = self._floor
        return json.dumps(doc, sort_keys=True)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and other.game is self.game and other.values == self.values
                and other.stack == self.stack and other._outcome == self._outcome)

    def __hash__(self) -> int:  # pragma: no cover - states are mutable; hash the JSON if needed
        raise TypeError("State is mutable; hash state.to_json() instead")

    def __str__(self) -> str:
        return self.game.describe(self)

    def __repr__(self) -> str:
        """One short line: the game and its settings, the number of actions applied, and who acts
        (a player and the prompt, or chance), or how the game ended; never longer than ~200 characters."""
        settings = ",".join(f"{k}={v}" for k, v in self.game.spec.settings)
        if self._outcome is not None or not self.stack:
            now = f"over: {self._outcome}" if self._outcome is not None else "no frame left"
        elif self.is_chance_node():
            now = f"chance: {self.prompt()}"
        else:
            now = f"{self.current_player_name()} to act: {self.prompt()}"
        rule = self.node_rule()
        now = _one_line(now + (f" [{rule}]" if rule and self._outcome is None else ""), 140)
        n = len(self._history)
        return f"<State {self.game.spec.name}({_one_line(settings, 60)}) after {n} action{'' if n == 1 else 's'}, {now}>"
