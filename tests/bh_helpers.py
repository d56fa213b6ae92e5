"""Helpers for Betrayal tests: exact positions built from a played setup."""

from __future__ import annotations

from ghostrules.engine import Game, State


def labels(state: State) -> list[str]:
    return [a.label for a in state.legal_actions()]


def act(state: State, prefix: str) -> None:
    for a in state.legal_actions():
        if a.label.startswith(prefix):
            state.apply_action(a)
            return
    raise AssertionError(f"no option {prefix!r} in {labels(state)}")


def roll(state: State, *faces: int) -> None:
    """Feed die faces (0, 1, 2) to the next chance nodes; each must be one die."""
    for face in faces:
        assert state.is_chance_node() and state.prompt() == "roll the die", state.prompt()
        state.apply_action(f"die: {face}")


def set_up(game: Game, characters: list[str]) -> State:
    """Play the setup with the given characters (by name, seat order); stop at the first turn."""
    state = game.new_initial_state()
    for name in characters:
        state.apply_action(name)
    assert not state.is_chance_node() and state.prompt().startswith("what does")
    return state


def place(state: State, room: str, floor: str, cell: str, rot: str = "r0") -> None:
    """Put a room tile into the house, as if discovered earlier."""
    state.set("tile_stack", room, 0)
    state.set("tile_placed", room, 1)
    state.set("rfloor", room, floor)
    state.set("rcell", room, cell)
    state.set("rrot", room, rot)
    state.set("room_at", floor, cell, room)


def start_haunt(state: State, traitor: str, haunt: str = "hollow_hounds") -> None:
    state.set("haunt_on", True)
    state.set("haunt", haunt)
    state.set("traitor", traitor)


def monster_at(state: State, room: str, kind: str = "hound", speed: int = 3, might: int = 4) -> None:
    """Bring monster m1 into play in ``room`` (the haunt must have started)."""
    state.set("mon_in", "m1", True)
    state.set("mon_kind", "m1", kind)
    state.set("mon_at", "m1", room)
    state.set("mon_trait", "m1", "speed", speed)
    state.set("mon_trait", "m1", "might", might)


JENNY = "Jenny LeClerc"
FOUR = [JENNY, "Ox Bellows", "Madame Zostra", "Peter Akimoto"]
