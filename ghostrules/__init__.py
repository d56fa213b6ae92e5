"""ghostrules: board-game rulebooks as executable, verified, citable rules.

>>> import ghostrules
>>> game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from .engine import (CHANCE, TERMINAL, Action, ActionLimitError, Game, IllegalActionError, LogEntry, Outcome,
                     SpecRuntimeError, State, play, random_policy)
from .engine.game import _compiled
from .spec import SpecError, available_games, load_spec

__all__ = ["Action", "ActionLimitError", "CHANCE", "Game", "IllegalActionError", "LogEntry", "Outcome", "SpecError",
           "SpecRuntimeError", "State", "TERMINAL", "available_games", "load_game", "load_scenario", "play",
           "random_policy"]
__version__ = "0.1.0"


@lru_cache(maxsize=32)
def _load(name: str, frozen: tuple[tuple[str, type, Any], ...]) -> Game:
    spec = load_spec(name, **{key: value for key, _, value in frozen})
    # the Game an unpickled state of this configuration has compiled already, if any (Game.__reduce__)
    known = _compiled.get((spec.name, str(Path(spec.root).parent), tuple(spec.settings)))
    return known if known is not None else Game(spec)


_by_settings: dict[tuple[str, Any], Game] = {}


def load_game(name: str, **parameters: Any) -> Game:
    """Compile the game ``name`` (a folder under ``specs/``) for the given parameters.

    Unknown games, parameters or values raise SpecError with the allowed values. The same
    configuration (defaults filled in) always gives the same Game, so states of it compare equal."""
    # each value with its type: 4.0 == 4 and True == 1 hash alike, and must not find the Game of 4 or 1
    key = tuple(sorted((k, type(v), v) for k, v in parameters.items()))
    try:
        hash(key)
    except TypeError:  # a value that is no parameter value (a list...): the spec says which are
        load_spec(name, **parameters)
        raise
    game = _load(name, key)
    return _by_settings.setdefault((name, tuple(sorted(game.spec.settings))), game)


def load_scenario(source: Any) -> State:
    """A position from a scenario file (path) or text; see ``ghostrules.query`` and docs/examples/."""
    from .query import load_scenario as _load_scenario
    return _load_scenario(source)


# Pictures (ghostrules.render): ``state.to_svg()``, also shown inline by Jupyter.
def _state_to_svg(self: State, caption: str | None = None) -> str:
    """The picture of this position as an SVG document (see :func:`ghostrules.render.state_to_svg`)."""
    from .render import state_to_svg
    return state_to_svg(self, caption)


State.to_svg = _state_to_svg  # type: ignore[attr-defined]
State._repr_svg_ = _state_to_svg  # type: ignore[attr-defined]
