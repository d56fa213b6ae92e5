"""ghostrules: board-game rulebooks as executable, verified, citable rules.

>>> import ghostrules
>>> game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .engine import (CHANCE, TERMINAL, Action, Game, IllegalActionError, LogEntry, Outcome, SpecRuntimeError,
                     State, play, random_policy)
from .spec import SpecError, available_games, load_spec

__all__ = ["Action", "CHANCE", "Game", "IllegalActionError", "LogEntry", "Outcome", "SpecError",
           "SpecRuntimeError", "State", "TERMINAL", "available_games", "load_game", "play", "random_policy"]
__version__ = "0.1.0"


@lru_cache(maxsize=32)
def _load(name: str, frozen: tuple[tuple[str, Any], ...]) -> Game:
    return Game(load_spec(name, **dict(frozen)))


def load_game(name: str, **parameters: Any) -> Game:
    """Compile the game ``name`` (a folder under ``specs/``) for the given parameters.

    Unknown games, parameters or values raise SpecError with the allowed values."""
    return _load(name, tuple(sorted(parameters.items())))
