"""The PettingZoo AEC adapter (ghostrules.rl): PettingZoo's own API test, the action mask, the
observation encoding and seeded replays."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test

from ghostrules.rl import GhostrulesAEC, env

PARAMS = {"players": 4, "level": "initiation", "edition": "el"}
# the observation is a Dict space (the observation and its action mask), as PettingZoo's classic games
# do; seats are named after the game's player symbols
pytestmark = [pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
              pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
              pytest.mark.filterwarnings("ignore:We recommend agents to be named")]


def test_pettingzoo_api_test_passes():
    api_test(env("ghost-stories", parameters=PARAMS), num_cycles=200, verbose_progress=False)


def test_pettingzoo_api_test_passes_for_another_game():
    api_test(env("betrayal", parameters={"players": 3}), num_cycles=60, verbose_progress=False)


def _play(e: GhostrulesAEC, seed: int, pick: int = 0) -> list[int]:
    e.reset(seed=seed)
    chosen = []
    for agent in e.agent_iter(max_iter=20_000):
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[pick % len(legal)])
        chosen.append(action)
        e.step(action)
    return chosen


def test_encoding_mask_and_observation():
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    e.reset(seed=3)
    agent = e.agent_selection
    state = e.state_
    obs = e.observe(agent)
    options = state.legal_actions()
    assert obs["action_mask"].tolist() == [1] * len(options) + [0] * (e.max_actions - len(options))
    values = json.loads(state.to_json())["values"]
    vector = obs["observation"].tolist()
    assert vector[:len(values)] == values
    assert vector[len(values):] == [e.rule_index[state.node_rule()], len(options), state.current_player()]
    assert agent == e.possible_agents[state.current_player()]
    others = [a for a in e.agents if a != agent]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    assert e.observation_space(agent).contains(obs)


def test_seeded_episodes_replay_and_end_with_outcome_rewards():
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    first = _play(e, seed=4, pick=1)
    outcome = e.state_.outcome()
    assert outcome is not None and e.steps == len(first)
    second = _play(e, seed=4, pick=1)
    assert first == second and e.state_.outcome() == outcome
    expected = 1.0 if outcome.result == "win" else -1.0
    e2 = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    e2.reset(seed=4)
    for action in first[:-1]:
        e2.step(action)
    e2.step(first[-1])
    assert all(e2.rewards[a] == expected for a in e2.agents)
    assert all(e2.terminations[a] for a in e2.agents)


def test_illegal_action_is_refused():
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    e.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        e.step(e.max_actions - 1)


def test_max_steps_truncates_every_agent():
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS, max_steps=5)
    e.reset(seed=2)
    for _ in e.agent_iter(max_iter=100):
        obs, _reward, terminated, truncated, _info = e.last()
        if truncated:
            assert not terminated and e.steps == 5
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == [] and e.steps == 5


def test_a_compiled_game_with_parameters_is_ambiguous():
    import ghostrules
    game = ghostrules.load_game("ghost-stories", **PARAMS)
    for make in (GhostrulesAEC, env):
        with pytest.raises(ValueError, match="parameters"):
            make(game, parameters={"players": 2})
        with pytest.raises(ValueError, match="ambiguous|already"):
            make(game, parameters=PARAMS)  # even the same ones: they would be ignored
    assert GhostrulesAEC(game).game is game
    assert GhostrulesAEC(game, parameters={}).game is game


def test_observing_does_not_serialise_the_state(monkeypatch):
    """observe reads the value list; serialising the state (history and log included) at each
    observation made every step cost more as the game went on."""
    from ghostrules import State
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    e.reset(seed=3)
    expected = json.loads(e.state_.to_json())["values"]

    def refused(self):
        raise AssertionError("observe serialised the state")
    monkeypatch.setattr(State, "to_json", refused)
    obs = e.observe(e.agent_selection)
    assert obs["observation"].tolist()[:len(expected)] == expected
    for _ in range(5):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))


@pytest.mark.parametrize("action", [1.7, -0.5, True, "0", np.float32(0.2), [0]], ids=repr)
def test_an_action_that_is_not_an_integer_is_refused(action):
    e = GhostrulesAEC("betrayal", parameters={"players": 3})
    e.reset(seed=1)
    before = e.state_.to_json()
    with pytest.raises(ValueError, match="not legal"):
        e.step(action)
    assert e.state_.to_json() == before
    e.step(np.int64(0))  # numpy's integers are integers
    assert e.state_.to_json() != before


def test_a_numpy_integer_seed_is_the_same_seed():
    games = []
    for seed in (7, np.int64(7), np.int32(7)):
        e = GhostrulesAEC("betrayal", parameters={"players": 3})
        e.reset(seed=seed)
        for _ in range(30):
            e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
        games.append([a.to_json() for a in e.state_.history()])
    assert games[0] == games[1] == games[2]


def test_a_decision_beyond_max_actions_leaves_the_env_as_it_was():
    """The first decision of this game has 3 options, the one after option 0 has 8: with
    max_actions=3 that step raises ValueError, and the env is as it was before it (position,
    steps, agent, rewards and the chance generator), so that the game can still go on.
    Before, the action was applied and the chance nodes after it drawn when the error came."""
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS, max_actions=3)
    e.reset(seed=1)
    before = (e.state_.to_json(), e.steps, e.agent_selection, dict(e.rewards), dict(e._cumulative_rewards),
              e._rng.getstate(), e.observe(e.agent_selection)["observation"].tolist())
    with pytest.raises(ValueError, match="max_actions=3"):
        e.step(0)
    after = (e.state_.to_json(), e.steps, e.agent_selection, dict(e.rewards), dict(e._cumulative_rewards),
             e._rng.getstate(), e.observe(e.agent_selection)["observation"].tolist())
    assert after == before
    wide = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    wide.reset(seed=1)
    e.max_actions = wide.max_actions  # every option of this decision leads to 8 options: allow them
    for env_ in (e, wide):  # the same game goes on from there, with the same chance draws
        env_.step(0)
    assert e.state_.to_json() == wide.state_.to_json() and e.steps == wide.steps == 1


def test_a_first_decision_beyond_max_actions_leaves_reset_undone():
    e = GhostrulesAEC("betrayal", parameters={"players": 3}, max_actions=12)
    e.reset(seed=1)
    e.step(0)
    before = (e.state_.to_json(), e.steps, e.agent_selection, list(e.agents), e._rng.getstate())
    e.max_actions = 11  # the first decision of betrayal has 12 options: a new game cannot start
    with pytest.raises(ValueError, match="max_actions=11"):
        e.reset(seed=5)
    assert (e.state_.to_json(), e.steps, e.agent_selection, list(e.agents), e._rng.getstate()) == before


@pytest.mark.parametrize("agent", ["purple_9", "yellow", 0, None], ids=repr)
def test_observing_an_unknown_agent_is_refused(agent):
    """observe answers for the game's agents only (PettingZoo's classic games raise ValueError
    there, from possible_agents.index); before, any name got an observation with an empty mask."""
    for e in (GhostrulesAEC("ghost-stories", parameters=PARAMS), env("ghost-stories", parameters=PARAMS)):
        e.reset(seed=3)
        with pytest.raises(ValueError, match="yellow_0, red_1"):
            e.observe(agent)
        assert all(e.observe(a)["observation"].shape == (e.unwrapped.n_values + 3,) for a in e.possible_agents)


@pytest.mark.parametrize("agent", ["purple_9", 0, None], ids=repr)
def test_the_spaces_of_an_unknown_agent_are_refused(agent):
    """observation_space and action_space answer for the game's agents only, with observe's
    ValueError; before, an unknown agent was a bare KeyError."""
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    for space in (e.observation_space, e.action_space):
        with pytest.raises(ValueError, match="no agent .* the agents are yellow_0, red_1"):
            space(agent)
    assert e.action_space("red_1").n == e.max_actions


def test_observing_or_stepping_before_reset_says_to_reset():
    """The unwrapped environment before its first reset has no game: observe and step raise
    RuntimeError naming reset (before, an AssertionError or an AttributeError), and a reset then
    starts as usual."""
    e = GhostrulesAEC("ghost-stories", parameters=PARAMS)
    for call in (lambda: e.observe("yellow_0"), lambda: e.step(0)):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()
    e.reset(seed=1)
    assert e.observe(e.agent_selection)["action_mask"].sum() >= 1
