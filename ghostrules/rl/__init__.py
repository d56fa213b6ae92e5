"""Reinforcement-learning adapters: a PettingZoo AEC environment for any game spec.

>>> from ghostrules.rl import env                                      # doctest: +SKIP
>>> e = env("ghost-stories", parameters={"players": 4, "level": "initiation"})  # doctest: +SKIP
>>> e.reset(seed=1)                                                    # doctest: +SKIP

Needs the optional dependencies: ``pip install 'ghostrules[rl]'`` (pettingzoo, gymnasium, numpy).
The encodings of actions and observations are documented in ``ghostrules.rl.env``.
"""

from .env import GhostrulesAEC, default_rewards, env

__all__ = ["GhostrulesAEC", "default_rewards", "env"]
