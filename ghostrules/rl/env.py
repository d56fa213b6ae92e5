"""A PettingZoo AEC environment for any game spec.

Agents
    One agent per symbol of the game's players domain, named ``<symbol>_<index>`` (Ghost Stories:
    ``yellow_0``, ``red_1``, ``green_2``, ``blue_3``; Betrayal: its player seats). The agent to act is ``state.current_player()``. Agents of
    seats that never decide (a neutral board) stay in the game and simply never act.

Chance
    Chance nodes never reach the agents: the environment resolves them with its own random
    generator, seeded by ``reset(seed=...)``, drawing each outcome with its exact probability
    (:func:`ghostrules.engine.game.sample_chance`). Same seed and same actions, same game.

Actions
    ``Discrete(max_actions)``: action ``i`` is the ``i``-th option of ``state.legal_actions()``.
    That list has a stable order, fixed by the spec: the options of the decision in the order they
    are written, and for an option offered for several values, those values in their domain's
    order. The action mask has a 1 at ``i`` for ``i < len(legal_actions())``. ``step`` takes an
    integer (numpy's too); another index, or a float, a string or a bool, raises ``ValueError``
    and leaves the position as it was. A decision with
    more options than ``max_actions`` raises ``ValueError`` (pass a larger ``max_actions``) from the
    ``step`` (or ``reset``) that leads to it, and that call changes nothing: position, generator,
    rewards and selected agent are as they were.

Observations
    A ``Dict`` space ``{"observation": Box(int64), "action_mask": Box(int8)}``. ``observation`` is

    * the position's flat integer vector: every state slot of the spec in the order of its layout
      (the ``values`` of ``state.to_json()``; a symbol is its index in its domain, ``-1`` for
      ``none``; a flag is 0 or 1),
    * then two numbers about the pending decision: the index of its rule ID in the game's rule list
      (``game.spec.rules``, -1 if the rule is not listed) and the number of options,
    * then the acting agent's index (-4 when the game is over).

    Every agent observes the same vector (the games modelled are games of open information; hidden
    card orders are chance nodes, not state). ``action_mask`` is all zeros for agents not to act. ``observe`` of a name that is not one of
    ``possible_agents`` raises ``ValueError``.

Rewards
    Zero during the game; at the end, ``reward_fn(state)`` gives one number per agent index. The
    default gives every agent ``+1`` when the outcome's result is ``win``, ``-1`` when it is ``loss``,
    and ``0`` otherwise, which suits co-operative games; pass a ``reward_fn`` for team games.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import load_game
from ..engine import TERMINAL, Game, State
from ..engine.game import sample_chance

RewardFn = Callable[[State], list[float]]
BIG = np.iinfo(np.int64).max


def default_rewards(state: State, n_agents: int) -> list[float]:
    """+1 to every agent for a ``win``, -1 for a ``loss``, 0 for any other result."""
    outcome = state.outcome()
    result = outcome.result if outcome is not None else ""
    value = 1.0 if result == "win" else -1.0 if result == "loss" else 0.0
    return [value] * n_agents


class GhostrulesAEC(AECEnv):
    """The AEC environment of one game configuration (see the module docstring for the encodings).

    ``game`` is a game's name, compiled with ``parameters`` (``load_game(game, **parameters)``), or
    a compiled ``Game``, whose parameters are fixed already: giving ``parameters`` with a Game is
    ambiguous and raises ValueError. ``max_actions`` is the size of the action space, ``max_steps``
    truncates an episode after that many agent actions, ``reward_fn`` gives the final rewards
    (default ``default_rewards``)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "ghostrules_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game = "ghost-stories", parameters: dict[str, Any] | None = None,
                 max_actions: int = 64, max_steps: int | None = None, reward_fn: RewardFn | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if isinstance(game, Game) and parameters:
            raise ValueError(f"{game!r} is compiled with its parameters already; parameters={parameters!r} "
                             f"would be ignored: give the game's name with parameters, or the Game alone")
        self.game = game if isinstance(game, Game) else load_game(game, **(parameters or {}))
        players = self.game.spec.players
        self.possible_agents = [f"{symbol}_{i}" for i, symbol in enumerate(self.game.layout.domains[players].symbols)]
        self.agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        self.max_actions = max_actions
        self.max_steps = max_steps
        self.reward_fn = reward_fn
        self.render_mode = render_mode
        self.rule_index = {r.id: i for i, r in enumerate(self.game.spec.rules)}
        probe = self.game.new_initial_state()
        self.n_values = len(self._values(probe))
        size = self.n_values + 3
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=-BIG - 1, high=BIG, shape=(size,), dtype=np.int64),
            "action_mask": spaces.Box(low=0, high=1, shape=(max_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self.state_: State | None = None
        self._rng = random.Random(0)

    # ---- spaces --------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The ``Dict`` space of ``agent``'s observations (the same for every agent; see the module
        docstring). An agent that is not one of ``possible_agents`` raises ValueError, as in ``observe``."""
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(max_actions)``: action ``i`` is the ``i``-th of ``state.legal_actions()``. An agent
        that is not one of ``possible_agents`` raises ValueError, as in ``observe``."""
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        """``agent``, when it is one of ``possible_agents``; else ValueError listing them."""
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r} in this game: the agents are {', '.join(self.possible_agents)}")
        return agent

    def _started(self, call: str) -> State:
        """The current position; before the first ``reset`` there is none, and ``call`` raises
        RuntimeError saying so (PettingZoo's environments are reset before use)."""
        if self.state_ is None:
            raise RuntimeError(f"{call}: the environment has no game yet: call reset() first")
        return self.state_

    # ---- encodings -----------------------------------------------------------------------
    @staticmethod
    def _values(state: State) -> list[int]:
        """The position's flat integer vector: the ``values`` of ``state.to_json()``, read directly
        (serialising the state, its history and log included, at every observation cost time growing
        with the length of the game)."""
        return list(state.values)

    def _options(self, state: State) -> list[Any]:
        """The options of ``state``'s decision ([] at the end); more than ``max_actions`` raises ValueError."""
        if state.is_terminal():
            return []
        options = state.legal_actions()
        if len(options) > self.max_actions:
            raise ValueError(f"{len(options)} options at '{state.prompt()}' [{state.node_rule()}]: "
                             f"more than max_actions={self.max_actions}")
        return options

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation of the current position: the vector and the action mask (all zeros
        unless ``agent`` is to act); see the module docstring for the encoding. An agent that is not
        one of ``possible_agents`` raises ValueError (as PettingZoo's classic games do)."""
        state = self._started("observe")
        self._known(agent)
        n_options = len(self._options_cache)
        node = -1 if state.is_terminal() else self.rule_index.get(state.node_rule(), -1)
        vector = self._values(state) + [node, n_options, state.current_player()]
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if agent == self.agent_selection and not state.is_terminal():
            mask[:n_options] = 1
        return {"observation": np.asarray(vector, dtype=np.int64), "action_mask": mask}

    # ---- the AEC cycle -------------------------------------------------------------------
    def _advance(self, state: State, rng: random.Random) -> list[Any]:
        """Resolve ``state``'s chance nodes with ``rng`` until a decision or the end; answers the
        decision's options (``_options``). On an error (more options than ``max_actions``) ``rng``
        is set back to where it was, so that the caller, which has changed nothing else yet
        (``state`` is a new one), leaves the environment as it was."""
        saved = None  # the generator's state, taken at the first chance node (most steps have none)
        try:
            while not state.is_terminal() and state.is_chance_node():
                if saved is None:
                    saved = rng.getstate()
                state.apply_action(sample_chance(state, rng))
            return self._options(state)
        except BaseException:
            if saved is not None:
                rng.setstate(saved)
            raise

    def _select(self) -> None:
        assert self.state_ is not None
        player = self.state_.current_player()
        if player != TERMINAL:
            self.agent_selection = self.possible_agents[player]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: chance nodes resolved with a generator seeded by ``seed`` (the previous
        generator, ``random.Random(0)`` at first, goes on when ``seed`` is None), up to the first
        decision, whose player's agent is selected. ``options`` is accepted and ignored."""
        # numpy's integers (what np.random gives) seed as the int they stand for
        rng = self._rng if seed is None else random.Random(operator.index(seed) if hasattr(seed, "__index__") else seed)
        # the new game up to its first decision, before anything of the environment changes: a decision
        # with more options than max_actions raises with the previous game (and generator) in place
        state = self.game.new_initial_state()
        options = self._advance(state, rng)
        self._rng = rng
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self.state_ = state
        self._options_cache = options
        self.agent_selection = self.agents[0]
        self._select()
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        assert self.state_ is not None
        over = self.state_.is_terminal()
        cut = self.max_steps is not None and self.steps >= self.max_steps and not over
        if not (over or cut):
            return
        if over:
            values = (self.reward_fn(self.state_) if self.reward_fn is not None
                      else default_rewards(self.state_, len(self.possible_agents)))
            for agent in self.agents:
                self.rewards[agent] = float(values[self.agent_index[agent]])
                self.terminations[agent] = True
                outcome = self.state_.outcome()
                self.infos[agent] = {"result": outcome.result, "rule": outcome.rule_id} if outcome else {}
        else:
            for agent in self.agents:
                self.truncations[agent] = True
        self._accumulate_rewards()

    def step(self, action: int | None) -> None:
        """The selected agent takes option ``action`` (an index into ``legal_actions()``; ``None`` for
        an agent that is done); chance nodes are then resolved and the next agent selected. An index
        that is not an option raises ValueError and the position is unchanged; so does an action leading
        to a decision with more options than ``max_actions`` (the environment as it was before)."""
        self._started("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state_ is not None
        options = self._options_cache
        # an integer (numpy's too); a float, a string or a bool is a mistake, never truncated
        index = operator.index(action) if hasattr(action, "__index__") and not isinstance(action, bool) else None
        if index is None or not 0 <= index < len(options):
            raise ValueError(f"action {action!r} is not legal for {agent}: {len(options)} options "
                             f"at '{self.state_.prompt()}' (an integer 0..{len(options) - 1})")
        # the next position is made on a new state (State.child), its chance nodes resolved and its
        # decision checked against max_actions, before anything of the environment changes: on that
        # error the position, the generator, the rewards and the agent are as they were
        state = self.state_.child(options[index])
        next_options = self._advance(state, self._rng)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.state_ = state
        self._options_cache = next_options
        self.steps += 1
        self._select()
        self._finish_if_over()

    def render(self) -> str | None:
        """The position as text (``str(state)``): returned in ``"ansi"`` mode, printed in ``"human"``
        mode; None without a render mode."""
        if self.render_mode is None or self.state_ is None:
            return None
        text = str(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no resources beyond its state."""


def env(game: str | Game = "ghost-stories", **kwargs: Any) -> GhostrulesAEC:
    """The environment (``GhostrulesAEC(game, **kwargs)``: a Game with ``parameters`` raises
    ValueError), wrapped with PettingZoo's order enforcing wrapper."""
    from pettingzoo.utils import wrappers
    return wrappers.OrderEnforcingWrapper(GhostrulesAEC(game, **kwargs))


__all__ = ["GhostrulesAEC", "default_rewards", "env"]
