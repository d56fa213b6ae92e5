"""The game-agnostic engine: compiles a spec into a program and runs states of it.

Nothing in this package names or knows any particular game; games live in ``specs/``.
"""

from .actions import CHANCE, RULES, TERMINAL, Action, LogEntry, Outcome, Score
from .errors import ActionLimitError, IllegalActionError, SpecRuntimeError
from .game import Game, play, random_policy, sample_chance
from .state import State

__all__ = ["Action", "ActionLimitError", "CHANCE", "Game", "IllegalActionError", "LogEntry", "Outcome", "RULES",
           "Score", "SpecRuntimeError", "State", "TERMINAL", "play", "random_policy", "sample_chance"]
