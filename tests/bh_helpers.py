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


def haunt_round_turns(game: Game, base: State, turns: int, pick: int = -1,
                      note_others: bool = False) -> tuple[State, list[str]]:
    """Play haunt rounds from ``base`` (tracing): every explorer turn is ended at once ("end the turn"),
    every other decision (a monster's turn) takes option ``pick``, every chance node its first outcome.
    Stop once ``turns`` entries are noted: the seat of each explorer turn, in order, and with
    ``note_others`` also "<seat>: <prompt>" for each other decision. Return the position and the entries."""
    s = game.state_at("haunt_round", {}, base, tracing=True)
    order: list[str] = []
    while len(order) < turns:
        if s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        elif s.prompt().startswith("what does"):
            order.append(s.current_player_name())
            act(s, "end the turn")
        else:
            if note_others:
                order.append(f"{s.current_player_name()}: {s.prompt()}")
            s.apply_action(s.legal_actions()[pick])
    return s, order


JENNY = "Jenny LeClerc"
FOUR = [JENNY, "Ox Bellows", "Madame Zostra", "Peter Akimoto"]


def holds(state: State, seat: str, *cards: str) -> None:
    """``seat`` holds ``cards`` (taken out of their decks)."""
    for card in cards:
        state.set("in_deck", card, 0)
        state.set("held", seat, card, 1)


def lies_here(state: State, room: str, *cards: str) -> None:
    """``cards`` lie in an item pile in ``room`` (taken out of their decks)."""
    for card in cards:
        state.set("in_deck", card, 0)
        state.set("in_pile", card, 1)
        state.set("pile_room", card, room)


def play_out(s: State, faces: list[int] | tuple[int, ...] = (), choose: dict[str, str] | None = None) -> int:
    """Play a position built with ``stop=True`` to its end: dice show ``faces`` in order (then 0), other
    chance nodes their first outcome; a decision takes the first option whose label starts with the text
    given for its prompt's start, else its first option. Returns the number of dice rolled."""
    faces = list(faces)
    choose = dict(choose or {})
    dice = 0
    while not s.is_terminal():
        if s.is_chance_node():
            if s.prompt() == "roll the die":
                dice += 1
                s.apply_action(f"die: {faces.pop(0) if faces else 0}")
            else:
                s.apply_action(s.chance_outcomes()[0][0])
            continue
        picked = None
        for start, option in choose.items():
            if s.prompt().startswith(start):
                picked = next((a for a in s.legal_actions() if a.label.startswith(option)), None)
                assert picked is not None, (s.prompt(), option, labels(s))
        s.apply_action(picked if picked is not None else s.legal_actions()[0])
    return dice


def trait_levels(game: Game, state: State, seat: str = "p1") -> dict[str, int]:
    """The four trait positions of ``seat``, as indexes of the level track."""
    lvl = game.layout.domains["lvl"]
    return {t: lvl.index(str(state.get("tpos", seat, t))) for t in ("speed", "might", "sanity", "knowledge")}


def to_menu(s: State) -> None:
    """Take the first option of every decision and the first outcome of every chance node until the
    explorer's menu ("what does ...") is back."""
    while s.is_chance_node() or not s.prompt().startswith("what does"):
        if s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        else:
            s.apply_action(s.legal_actions()[0])


def elevator_east_of_the_entrance_hall(state: State) -> None:
    """The Mystic Elevator on the ground floor, its one door facing the Entrance Hall."""
    place(state, "mystic_elevator", "ground", "x5y6", "r270")
    assert state.eval("joined(entrance_hall, east)")


def monster_by_the_elevator(game: Game) -> State:
    """After the haunt (p2 the traitor): monster 1 in the Entrance Hall with 3 points to move, the Mystic
    Elevator east of it; the state at the monster's move."""
    base = set_up(game, FOUR)
    start_haunt(base, traitor="p2")
    elevator_east_of_the_entrance_hall(base)
    monster_at(base, "entrance_hall")
    base.set("mon_points", 3)
    return game.state_at("monster_moves", {"m": "m1"}, base, stop=True)
