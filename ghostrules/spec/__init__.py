"""Loading and validation of game specs (YAML data), the condition language and overlays."""

from .loader import available_games, load_spec
from .source import SpecError

__all__ = ["SpecError", "available_games", "load_spec"]
