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
    """Put a room tile into the house, as if discovered earlier: moved out of the room stack (or the tile
    discard pile), counted off the floors it fits (BH-DISCOVER-6), as a discovery does. Raises
    ValueError, changing nothing, if the room is in the house already, the cell holds another room or
    the tile's back shows no such floor (BH-DISCOVER-2)."""
    if state.get("tile_placed", room):
        raise ValueError(f"place: the {room} is in the house already ({state.get('rfloor', room)} "
                         f"{state.get('rcell', room)})")
    other = str(state.get("room_at", floor, cell))
    if other != "none":
        raise ValueError(f"place: {floor} {cell} holds the {other} already")
    starting = str(state.eval(f"start_cell[{room}]")) != "none"
    if not starting and not state.eval(f"room_floors[{room}, {floor}]"):
        raise ValueError(f"place: the {room}'s tile shows no {floor} floor (BH-DISCOVER-2)")
    state.set("tile_stack" if state.get("tile_stack", room) else "tile_discard", room, 0)
    state.set("tile_placed", room, 1)
    state.set("rfloor", room, floor)
    state.set("rcell", room, cell)
    state.set("rrot", room, rot)
    state.set("room_at", floor, cell, room)
    for g in state.game.layout.domains["floor"].symbols:
        if not starting and state.eval(f"room_floors[{room}, {g}]") and state.get("left_for", g) > 0:
            state.set("left_for", g, state.get("left_for", g) - 1)


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


# The places a card can be (the pool ``cards`` of game.yaml: each card is in exactly one of them).
CARD_PLACES = ("deck", "discarded", "aside")  # besides a seat (in front of that player) and a room (in its pile)


def card_place(state: State, card: str) -> str:
    """Where ``card`` is: "deck", a seat (held by that player), a room (in an item pile there),
    "discarded" or "aside"; raises ValueError if the position has it in no place or in several."""
    places = []
    if state.get("in_deck", card):
        places.append("deck")
    places += [s for s in state.game.layout.domains["seat"].symbols if state.get("held", s, card)]
    if state.get("in_pile", card):
        places.append(str(state.get("pile_room", card)))
    places += [p for p in ("discarded", "aside") if state.get(p, card)]
    if len(places) != 1:
        raise ValueError(f"the {card} is in {len(places)} places ({', '.join(places) or 'none'}), not exactly one")
    return places[0]


def _describe(state: State, place: str) -> str:
    if place == "deck":
        return "in its deck"
    if place in ("discarded", "aside"):
        return place
    if place in state.game.layout.domains["seat"].symbols:
        return f"held by {place}"
    return f"in the item pile in the {place}"


def _move_cards(state: State, what: str, cards: tuple[str, ...], to: str, taken_from: str | None) -> None:
    """Move each of ``cards`` from where it is to ``to`` (a seat or a room's pile), as the game moves
    cards (the pool ``cards`` keeps each card in one place). A card must be in its deck, unless
    ``taken_from`` names where it is (a seat, a room, "discarded" or "aside"); otherwise ValueError,
    naming where the card is, and nothing changes."""
    want = taken_from or "deck"
    layout = state.game.layout
    for place, kind in ((to, "to"), (want, "taken_from")):
        if place not in (*CARD_PLACES, *layout.domains["seat"].symbols, *layout.domains["room"].symbols):
            raise ValueError(f"{what}: {kind}={place!r} is no place for a card "
                             f"(deck, discarded, aside, a seat, a room)")
    if to in CARD_PLACES:
        raise ValueError(f"{what}: a card goes to a seat or a room here, not {to!r}")
    moves = []
    for card in cards:
        place = card_place(state, card)
        if place == to:
            raise ValueError(f"{what}: the {card} is already {_describe(state, place)}")
        if place != want:
            raise ValueError(f"{what}: the {card} is {_describe(state, place)}, not {_describe(state, want)}; "
                             f"say where to take it from (taken_from={place!r}) or use another card")
        if card in [c for c, _ in moves]:
            raise ValueError(f"{what}: the {card} is named twice")
        moves.append((card, place))
    seats = state.game.layout.domains["seat"].symbols
    for card, place in moves:
        if place == "deck":
            state.set("in_deck", card, 0)
            for deck in state.game.layout.domains["deck"].symbols:
                if str(state.get("deck_top", deck)) == card:  # on top of its deck (Crystal Ball)
                    state.set("deck_top", deck, "none")
        elif place in seats:
            state.set("held", place, card, 0)
        elif place in ("discarded", "aside"):
            state.set(place, card, 0)
        else:
            state.set("in_pile", card, 0)
        state.set("pile_room", card, "none")
        if to in seats:
            state.set("held", to, card, 1)
        else:
            state.set("in_pile", card, 1)
            state.set("pile_room", card, to)


def holds(state: State, seat: str, *cards: str, taken_from: str | None = None) -> None:
    """``seat`` holds ``cards``, each moved out of its deck (or out of ``taken_from``: another seat, a
    room's pile, "discarded" or "aside"). Raises ValueError, changing nothing, if a card is elsewhere
    (already held, lying in a room ...): a test never builds a position with a card twice."""
    _move_cards(state, "holds", cards, seat, taken_from)


def lies_here(state: State, room: str, *cards: str, taken_from: str | None = None) -> None:
    """``cards`` lie in an item pile in ``room``, each moved out of its deck (or out of ``taken_from``,
    as for ``holds``). Raises ValueError, changing nothing, if a card is elsewhere."""
    _move_cards(state, "lies_here", cards, room, taken_from)


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
