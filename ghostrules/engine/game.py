"""A compiled game configuration: static facts, and the factory of states."""

from __future__ import annotations

import itertools
import json
import operator
import os
import random
import weakref
from pathlib import Path
from typing import Any, Callable

from ..spec.loader import load_spec
from ..spec.model import GameSpec
from ..spec.words import listed
from .actions import Action, LogEntry, Outcome
from .collector import collector_paused
from .errors import ActionLimitError, IllegalActionError
from .layout import Layout
from .menus import MenuFn, compile_menu
from .program import MenuI, Procedure, Program, RandomI, RollI
from .runtime import nth
from .state import State, _at_point

Policy = Callable[[State, random.Random], Action]


class Game:
    """One configuration of one game (parameters fixed at creation), compiled from its spec."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        with collector_paused():  # compiling keeps most of what it makes (engine/collector.py)
            self.layout = Layout(spec)
            self.program = Program(spec, self.layout)
            # each decision's function listing its options (engine/menus.py), made once, as the blocks are
            self.menus: dict[MenuI, MenuFn] = {ins: compile_menu(self.program, ins) for proc in self.program.procs
                                               for ins in proc.code if type(ins) is MenuI}
        self.parameters = dict(spec.settings)
        self.program.exprs.codes.save()  # the code objects compiled, for the next load (engine/codecache.py)
        # found again by an unpickled state of this configuration (see __reduce__): in this process,
        # this very Game; in another, the first Game of its configuration compiled there
        self._serial = (os.getpid(), next(_serials))
        _instances[self._serial] = self
        if spec.root:
            _compiled.setdefault(self._origin(), self)

    def _origin(self) -> tuple[str, str, tuple[tuple[str, Any], ...]]:
        """(name, folder of the specs, settings): what loads this configuration again."""
        return self.spec.name, str(Path(self.spec.root).parent), tuple(self.spec.settings)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as where its spec was read from and its settings; unpickled as the same Game object
        in the process that pickled it (so that states of it compare equal), elsewhere as the Game of
        that configuration compiled there, or compiled again from its spec. A Game built from a spec
        read from no folder cannot be pickled."""
        if not self.spec.root:
            raise TypeError(f"{self!r} was compiled from a spec read from no folder: it cannot be pickled")
        return _game_of, (*self._origin(), self._serial)

    @property
    def name(self) -> str:
        """The game's name: its folder under ``specs/`` (``spec.name``)."""
        return self.spec.name

    def new_initial_state(self, tracing: bool = False) -> State:
        """The position before setup; setup randomness comes as a sequence of chance nodes."""
        setup = self.program.by_name[self.spec.setup]
        state = State(self, self.layout.initial_values(), [[setup.index, 0, {}]], tracing)
        state._run()
        state._undo.clear()  # nothing to roll back to before the first action
        return state

    def state_at(self, procedure: str, args: dict[str, Any] | None = None, base: State | None = None,
                 tracing: bool = False, stop: bool = False) -> State:
        """A position about to run ``procedure(args)``: the values of ``base`` (or the initial values),
        with the given procedure as the only frame. When it returns, play goes on with the turn
        procedure, as after any step, or, with ``stop``, the position ends there (outcome
        ``step over``), so that what one step does can be examined alone. This is how a scenario
        sets up "whose turn and which step"."""
        if procedure not in self.program.by_name:
            raise KeyError(f"no procedure {procedure!r}; known: {sorted(p for p in self.program.by_name if ':' not in p)}")
        proc = self.program.by_name[procedure]
        given = dict(args or {})
        wanted = dict(proc.params)
        if set(given) != set(wanted):
            raise ValueError(f"{procedure} takes {sorted(wanted)}, given {sorted(given)}")
        local: dict[str, int] = {}
        for name, value in given.items():
            local[name] = self._argument(procedure, name, wanted[name], value)
        values = list(base.values) if base is not None else self.layout.initial_values()
        stack = [[proc.index, 0, local]]
        if stop:
            stack.insert(0, [self.program.by_name["#halt"].index, 0, {}])
        state = State(self, values, stack, tracing)
        state._run()
        state._undo.clear()  # nothing to roll back to before the first action
        return state

    def _argument(self, procedure: str, name: str, type_: str, value: Any) -> int:
        """The int standing for ``value`` as argument ``name`` (of type ``type_``) of ``procedure``: a
        symbol by name (``"none"`` for none) or index, an int, a bool; else ValueError saying which."""
        if type_ in ("int", "bool"):
            if hasattr(value, "__index__"):  # an int or a bool (numpy's too), for either type
                return int(value)
            raise ValueError(f"{procedure}: {name}={value!r} is not a{'n int' if type_ == 'int' else ' bool'}")
        symbols = self.layout.domains[type_].symbols
        if isinstance(value, str) and (value == "none" or value in symbols):
            return -1 if value == "none" else symbols.index(value)
        if not isinstance(value, (bool, str)) and hasattr(value, "__index__") and -1 <= value < len(symbols):
            return int(value)
        raise ValueError(f"{procedure}: {name}={value!r} is not a {type_} (one of {listed(symbols, 10)}, or none)")

    def state_from_json(self, text: str, tracing: bool = False) -> State:
        """The state that ``State.to_json`` wrote, equal to it (values, stack, outcome), with the same
        history (labels and rules included) and log. Text that is not such a JSON state, or the state
        of another game or configuration, raises ValueError saying which; so does a value list that
        is not one integer per slot within the slot's declared range (the error names the slot, the
        value and the range, as ``State.set`` does)."""
        try:
            doc = json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"not a JSON state (what State.to_json writes): {e}") from None
        if not isinstance(doc, dict):
            raise ValueError(f"not a JSON state (what State.to_json writes): a {type(doc).__name__}, not an object")
        if doc.get("game") != self.spec.name or doc.get("settings") != dict(self.spec.settings):
            raise ValueError(f"this JSON state belongs to another game or configuration: game {doc.get('game')!r} "
                             f"settings {doc.get('settings')!r}, not {self.spec.name!r} {dict(self.spec.settings)!r}")
        try:
            return self._state_from_doc(doc, tracing)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise ValueError(f"not a JSON state of {self!r}: {type(e).__name__}: {e}") from None

    def _state_from_doc(self, doc: dict[str, Any], tracing: bool) -> State:
        """``state_from_json`` once the document names this game; raises KeyError, IndexError,
        TypeError or ValueError where it is malformed."""
        by_name = self.program.by_name
        stack = []
        for name, pc, L in doc["stack"]:
            proc = by_name[name]
            if not (isinstance(pc, int) and 0 <= pc < len(proc.code)):
                raise ValueError(f"{name} has no instruction {pc!r}")
            stack.append([proc.index, pc, self._frame_locals(proc, pc, L)])
        values = self._values_from_json(doc["values"])
        state = State(self, values, stack, tracing)
        state._history = [self._action_from_json(a) for a in doc["history"]]
        labels = doc.get("labels")
        if labels is not None and len(labels) == len(state._history):
            state._history = [Action(a.kind, a.key, label, rule) for a, (label, rule) in zip(state._history, labels)]
        if doc.get("log"):
            state._log = [LogEntry(e["step"], e["rule"], e["kind"], e["text"], e["depth"], e["floor"])
                          for e in doc["log"]]
            state._floor = doc["floor"]
        if doc.get("outcome"):
            o = doc["outcome"]
            state._outcome = Outcome(o["result"], o["rule"], o.get("text", ""))
        return state

    def _frame_locals(self, proc: Procedure, pc: int, raw: Any) -> dict[str, Any]:
        """The locals of a JSON state's frame of ``proc`` at ``pc``: an object of integers (or
        booleans, as the machine keeps them) holding at least the locals bound there on every way
        from the procedure's start (``Program.bound_locals``: its parameters, and what a ``let``,
        a loop, an option or a draw before ``pc`` binds); a missing one raises ValueError naming
        it, rather than a KeyError when the game goes on."""
        if not isinstance(raw, dict):
            raise ValueError(f"the locals of a frame of {proc.name} are a {type(raw).__name__}, not an object")
        for name, x in raw.items():
            if type(x) not in (int, bool):
                raise ValueError(f"{proc.name}: local {name} = {x!r} is not an integer")
        bound = self.program.bound_locals[proc.index]
        missing = sorted(bound[pc] - raw.keys()) if bound is not None else []
        if missing:
            raise ValueError(f"{proc.name} at instruction {pc} has no local {listed(missing, 10)}: it is bound "
                             f"there on every way from the procedure's start")
        return dict(raw)

    def _values_from_json(self, raw: Any) -> list[int]:
        """The value list of a JSON state: one integer per slot of the layout, each within its slot's
        declared range (what the machine and ``State.set`` keep it to); anything else raises
        ValueError naming the slot, the value and the range (a bool or a float is not an integer:
        ``int()`` would turn 2.5 into 2)."""
        layout = self.layout
        if not isinstance(raw, list):
            raise ValueError(f"values is a {type(raw).__name__}, not a list")
        if len(raw) != layout.size:
            raise ValueError(f"{len(raw)} values for the {layout.size} slots of the layout")
        lows, highs = layout.lows, layout.highs
        # one pass for the usual case; the slot at fault looked for only when there is one
        if all(type(x) is int and lo <= x <= hi for x, lo, hi in zip(raw, lows, highs)):
            return raw
        for flat, x in enumerate(raw):
            if type(x) is not int:
                raise ValueError(f"values[{flat}]: {layout.name_of(flat)} = {x!r} is not an integer")
            if not lows[flat] <= x <= highs[flat]:
                var = layout.slots[layout.owner[flat][0]].var
                raise ValueError(f"values[{flat}]: {layout.name_of(flat)} = {x!r} is outside its declared range "
                                 f"{var.lo}..{var.hi} ({var.type})")
        raise AssertionError("unreachable")  # pragma: no cover

    def _action_from_json(self, raw: list[Any]) -> Action:
        return Action(str(raw[0]), tuple(int(x) for x in raw[1:]), "")

    def replay(self, history: list[Action], tracing: bool = False) -> State:
        """A fresh state with the given actions applied in order."""
        state = self.new_initial_state(tracing)
        for action in history:
            state.apply_action(action)
        return state

    def describe(self, state: State) -> str:
        """Two lines for people (what ``str(state)`` prints): the game with its settings, then who
        acts and what is being decided, or how the game ended."""
        lines = [f"{self.spec.title} ({', '.join(f'{k}={v}' for k, v in self.spec.settings)})"]
        if state.is_terminal():
            lines.append(f"over: {state.outcome()}")
        else:
            lines.append(f"{state.current_player_name()} to act: {state.prompt()}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Game {self.spec.name} {dict(self.spec.settings)}>"


# the Games alive in this process, by (process, serial number), and the first of each configuration
# (name, folder of the specs, settings): where an unpickled Game is found (Game.__reduce__)
_serials = itertools.count()
_instances: "weakref.WeakValueDictionary[tuple[int, int], Game]" = weakref.WeakValueDictionary()
_compiled: "weakref.WeakValueDictionary[tuple[str, str, tuple[tuple[str, Any], ...]], Game]" = \
    weakref.WeakValueDictionary()


def _game_of(name: str, folder: str, settings: tuple[tuple[str, Any], ...], serial: tuple[int, int]) -> Game:
    """An unpickled Game: the same object where it was pickled, else the Game of its configuration
    compiled in this process, else a new one compiled from its spec."""
    game = _instances.get(serial) if serial[0] == os.getpid() else None
    if game is None:
        game = _compiled.get((name, folder, settings))
    return game if game is not None else Game(load_spec(name, root=Path(folder), **dict(settings)))


def _state_of(game: Game, text: str, tracing: bool | str) -> State:
    """A pickled state: its JSON, read back by its game."""
    return game.state_from_json(text, tracing=tracing)


def random_policy(state: State, rng: random.Random) -> Action:
    """Pick one of ``state.legal_actions()`` uniformly with ``rng`` (a decision's options only).

    At a chance node it raises IllegalActionError (draw the outcome with ``sample_chance``), and
    at the end of the game too, each naming the node's or the outcome's rule; ``play`` calls it
    only at decisions."""
    options = state.legal_actions()
    if not options:
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalActionError(f"random_policy: the game is over ({outcome}); there is nothing to decide",
                                     outcome.rule_id)
        raise IllegalActionError(f"random_policy picks a decision's option, and this is a chance node "
                                 f"({state.prompt()}): draw its outcome with sample_chance(state, rng)",
                                 state.node_rule())
    return rng.choice(options)


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw a chance outcome with its exact probability (at a decision, or at the end of the game,
    IllegalActionError naming the node's or the outcome's rule).

    ``rng.random()`` is a multiple k / 2**53; the outcome is the first whose cumulative
    probability exceeds it, compared exactly in integers."""
    return state._sample(int(rng.random() * _TWO_53), _TWO_53)


_TWO_53 = 1 << 53


def play(game: Game, seed: int = 0, policy: Policy = random_policy, tracing: bool = False,
         max_actions: int = 100_000, on_step: Callable[[State], None] | None = None) -> State:
    """Play one game to the end, seeded: chance outcomes by their probabilities, decisions by ``policy``.

    The same seed and policy always give the same game; a numpy integer seeds as the int it stands for."""
    rng = random.Random(operator.index(seed) if hasattr(seed, "__index__") else seed)
    state = game.new_initial_state(tracing)
    # The loop of is_terminal(), is_chance_node(), sample_chance or policy, and apply_action, with
    # the pending node taken from the machine (State._step answers where it stopped) instead of
    # being looked up again by each of them; the same calls of rng, in the same order.
    node = state._node()
    uniform = policy is random_policy
    if uniform and on_step is None:
        return _play_alone(game, state, node, rng, max_actions)
    for _ in range(max_actions):
        if state._outcome is not None:
            return state
        t = type(node)
        if t is RandomI or t is RollI:  # sample_chance, on the known node
            # at a draw the machine has just kept its outcomes (State._drawn), and nothing has
            # changed the position since unless on_step did
            members = state._drawn[4] if t is RandomI and on_step is None else None
            action = state._sample(int(rng.random() * _TWO_53), _TWO_53, node, members)
        elif uniform and node is not None:  # random_policy: one of legal_actions(), uniformly
            options = state._menu_options(node)
            state._offered = (len(state._history), options)
            action = rng.choice(options)
        else:
            action = policy(state, rng)
        node = state._step(action)
        if on_step is not None:
            on_step(state)
            node = state._node()  # the callback may have changed the position
    raise ActionLimitError(max_actions)


def _play_alone(game: Game, state: State, node: Any, rng: random.Random, max_actions: int) -> State:
    """``play``'s loop with random_policy and no on_step: nothing but this loop sees the state before
    it is returned, and it is returned only when the game ends (an action that fails raises out of
    play, and the state it leaves is never seen). So each action is taken as apply_action takes it
    (State._advance, in place when not tracing) without what apply_action keeps to restore the state
    on an error (State._step) and without looking the action up again among the options just
    offered (State._pending: it is one of them); the machine keeps a draw's outcomes for this loop
    alone (State._watched, State._drawn), counted and not listed when they are a run's slots holding
    one value (compile_expr.Scan), and a chance outcome is drawn as State._sample draws it, in place; the
    same calls of rng, in the same order, and the same outcomes, as the general loop."""
    state._watched = False
    undo = state._undo
    history = state._history
    values = state.values
    menus = game.menus
    direct = not state.tracing
    for _ in range(max_actions):
        if state._outcome is not None:
            state._watched = True
            return state
        t = type(node)
        frame = state.stack[-1] if node is not None else None
        if t is MenuI:  # random_policy: one of legal_actions(), uniformly
            action = rng.choice(menus[node](values, frame[2]))  # (State._menu_options)
        elif t is RandomI:  # State._sample's first way: the outcome's Action made before
            # the machine has just kept the draw's outcomes (State._drawn), and nothing has changed
            # the position since; nothing here reads the actions offered (State._offered)
            drawn = state._drawn
            members = drawn[4]
            u = int(rng.random() * _TWO_53)
            if members is not None:
                action = node.outcomes.get(members[u * len(members) // _TWO_53]) if members else None
            else:  # counted, not listed (compile_expr.Scan): the same outcome, found in the slots scanned
                _, _, _, _, _, scan, hits, run, x = drawn
                action = node.outcomes.get(scan.places[nth(run, x, hits, u * hits // _TWO_53)]) if hits else None
            if action is None:
                action = state._sample(u, _TWO_53, node, members)
        elif t is RollI:  # State._sample on a roll
            action = node.outcome[_at_point(node.keys, node.weights, node.total, int(rng.random() * _TWO_53),
                                            _TWO_53)]
        else:
            action = random_policy(state, rng)  # (raises: no node to act at)
        if direct:  # State._advance, untraced
            if t is MenuI:  # State._take_option, untraced
                opt_index, value = action.key
                opt = node.options[opt_index]
                if opt.var is not None:
                    frame[2][opt.var] = value
                frame[1] = opt.target
            else:
                frame[2][node.var] = action.key[0]
                frame[1] += 1
            history.append(action)
            node = state._run()
        else:
            node = state._advance(node, action)
        undo.clear()  # (the writes of the action: nothing to undo)
    raise ActionLimitError(max_actions)
