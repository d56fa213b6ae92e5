"""SVG pictures: states (driven by each game's ``picture.yaml``) and rule-dependency graphs.

    >>> import ghostrules
    >>> state = ghostrules.load_game(ghostrules.available_games()[0]).new_initial_state()
    >>> ghostrules.render.state_to_svg(state)[:4]
    '<svg'
"""

from __future__ import annotations

from typing import Any

from .graph import graph_to_svg
from .picture import PictureError, picture_spec

__all__ = ["PictureError", "graph_to_svg", "picture_spec", "state_to_svg"]


def state_to_svg(state: Any, caption: str | None = None) -> str:
    """The picture of a state as an SVG document (a string).

    What is drawn where comes from ``specs/<game>/picture.yaml``; ``caption`` replaces the first
    line (by default: who decides what now, or the outcome)."""
    from .picture import draw
    return draw(state, caption)
