"""Simulations: many seeded games of a game spec, played by a policy, and their statistics.

>>> from ghostrules.simulate import simulate
>>> run = simulate("ghost-stories", 20, parameters={"level": "initiation"}, policy="random", workers=1)  # doctest: +SKIP
>>> run.summary["win_rate"], run.summary["win_rate_ci95"]                                               # doctest: +SKIP

Policies are ``random`` (uniform over the legal options) and ``heuristic``, a generic interpreter
(``policy.HeuristicPolicy``) of the data in ``specs/<game>/policy.yaml``. Runs are reproducible:
game ``i`` is seeded from (seed, i), whatever the number of workers or the executor (local worker
processes, or Dask). The command line is ``ghostrules simulate`` (``command.py``).
"""

from .policy import HeuristicPolicy, load_policy, policy_names, read_policy
from .runner import Job, Simulation, game_seed, play_game, simulate
from .stats import summarise, wilson

__all__ = ["HeuristicPolicy", "Job", "Simulation", "game_seed", "load_policy", "play_game", "policy_names",
           "read_policy", "simulate", "summarise", "wilson"]
