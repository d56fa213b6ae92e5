"""Helpers for Ghost Stories scenario tests: build exact positions from a seeded setup."""

from __future__ import annotations

from typing import Any

import ghostrules
from ghostrules.engine import Game, State

LAYOUT = ["herbalist", "teahouse", "pavilion", "sorcerer", "watchman", "temple", "circle", "cemetery", "altar"]
SIDES = {"yellow": "south", "red": "west", "green": "north", "blue": "east"}
POWERS = {"yellow": "pockets", "red": "peaks", "green": "mountain", "blue": "gust"}


MOUNTAIN_PROMPT = "Strength of the Mountain: roll a 4th Tao die?"


def fourth_die_taken(position: Any) -> Any:
    """At the Mountain's choice (GS-POWER-GREEN-MOUNTAIN: the 4th Tao die is optional), take the 4th
    die, in place; elsewhere do nothing. ``position`` is a State or a query Scenario (its state);
    returns it, so that odds measured on a green exorcism measure 4 dice."""
    state = getattr(position, "state", position)
    if not state.is_chance_node() and not state.is_terminal() and state.prompt() == MOUNTAIN_PROMPT:
        state.apply_action(next(a for a in state.legal_actions() if a.label.endswith("rolls the 4th Tao die too")))
    return position


def gs_game(**params: Any) -> Game:
    defaults = dict(players=4, level="initiation", edition="el")
    defaults.update(params)
    return ghostrules.load_game("ghost-stories", **defaults)


def choose_outcome(state: State, symbol_label: str) -> None:
    """Apply the chance outcome whose label ends with the given text."""
    for action, _ in state.chance_outcomes():
        if action.label.endswith(": " + symbol_label):
            state.apply_action(action)
            return
    raise AssertionError(f"no outcome {symbol_label!r} in {[a.label for a, _ in state.chance_outcomes()]}")


def set_up(game: Game, layout: list[str] | None = None, sides: dict[str, str] | None = None,
           powers: dict[str, str] | None = None, tracing: bool = False, playing: list[str] | None = None) -> State:
    """Play the setup with the given village layout (row by row from the north-west), board sides,
    played boards (with fewer than 4 players; default: the first boards in colour order) and power
    sides; stop before the first card is drawn."""
    layout = layout or LAYOUT
    sides = {**SIDES, **(sides or {})}
    powers = {**POWERS, **(powers or {})}
    players = int(game.parameters["players"])
    labels = {d.name: dict(zip(d.symbols, d.labels or d.symbols)) for d in game.spec.domains}
    state = game.new_initial_state(tracing)
    plan = [labels["villager"][v] for v in layout[:8]]
    plan += [sides[m] for m in ("yellow", "red", "green")]
    if players < 4:
        playing = playing or ["yellow", "green", "red", "blue"][:players]
        plan += [labels["monk"][m] for m in playing]
    if players == 1:
        powers["red"] = "peaks"  # GS-SETUP-SOLO-1: no choice left
    plan += [labels["power"][powers[m]] for m in ("yellow", "red", "green", "blue") if not (players == 1 and m == "red")]
    for label in plan:
        choose_outcome(state, label)
    return state


def place(state: State, card: str, slot: str, figure: str | None = None) -> str:
    """Put a ghost (by card symbol or name) on a slot, as if it had arrived earlier."""
    game = state.game
    cards = game.layout.domains["card"]
    symbol = card if card in cards.symbols else cards.symbols[cards.labels.index(card)]
    state.set("at", symbol, slot)
    if figure is not None:
        state.set("figure", symbol, figure)
    elif state.eval(f"middle_stone[{symbol}, haunter]"):
        state.set("figure", symbol, "on_card")
    return symbol


def _move(state: State, what: str, source: tuple[Any, ...], target: tuple[Any, ...], n: int) -> None:
    """Move ``n`` tokens from the slot ``source`` (name, *index) to the slot ``target``, as the game
    moves them: raises ValueError, changing nothing, if the source holds fewer than ``n`` or the
    target cannot take them (its declared range), so a test never builds a position with tokens
    created from nothing."""
    have, held = int(state.get(*source)), int(state.get(*target))
    hi = state.game.layout.slots[target[0]].var.hi
    if have < n:
        raise ValueError(f"{what}: {_ref(source)} holds {have}, cannot move {n} to {_ref(target)}; "
                         f"take the tokens from another place (gather) or ask for fewer")
    if held + n > hi:
        raise ValueError(f"{what}: {_ref(target)} holds {held} (at most {hi}), cannot take {n} more")
    state.set(*source, have - n)
    state.set(*target, held + n)


def _ref(slot: tuple[Any, ...]) -> str:
    return f"{slot[0]}[{', '.join(map(str, slot[1:]))}]" if len(slot) > 1 else str(slot[0])


def give(state: State, monk: str, colour: str, n: int = 1) -> None:
    """Move Tao tokens from the supply to a monk (keeps the totals; ``n < 0`` gives them back).
    Raises ValueError, changing nothing, if the supply (or the monk, for ``n < 0``) holds too few."""
    if n >= 0:
        _move(state, "give", ("tao_supply", colour), ("tao", monk, colour), n)
    else:
        _move(state, "give", ("tao", monk, colour), ("tao_supply", colour), -n)


def gather(state: State, monk: str, colour: str, n: int) -> None:
    """The monk ends up holding ``n`` Tao tokens of ``colour``: those he lacks come from the supply
    first, then from the other monks in colour order (they spent them on him, say); those he has
    too many go back to the supply. Keeps the totals; raises ValueError, changing nothing, if the
    game does not have ``n`` such tokens outside the Circle."""
    hi = state.game.layout.slots["tao"].var.hi
    if not 0 <= n <= hi:
        raise ValueError(f"gather: a monk holds 0..{hi} Tao tokens of a colour, not {n}")
    lack = n - int(state.get("tao", monk, colour))
    if lack <= 0:
        give(state, monk, colour, lack)
        return
    sources = [("tao_supply", colour)] + [("tao", o, colour) for o in state.game.layout.domains["monk"].symbols
                                          if o != monk]
    takes = []
    for source in sources:
        k = min(lack, int(state.get(*source)))
        if k:
            takes.append((source, k))
            lack -= k
    if lack:
        raise ValueError(f"gather: the game has no {n} {colour} Tao tokens for the {monk} monk "
                         f"outside the Circle")
    for source, k in takes:
        _move(state, "gather", source, ("tao", monk, colour), k)


def set_qi(state: State, monk: str, n: int) -> None:
    """The monk holds ``n`` Qi, the difference taken from or given back to the Qi supply (keeps the
    totals); raises ValueError, changing nothing, if the supply holds too few."""
    have = int(state.get("qi", monk))
    if n >= have:
        _move(state, "set_qi", ("qi_supply",), ("qi", monk), n - have)
    else:
        _move(state, "set_qi", ("qi", monk), ("qi_supply",), have - n)


def labels(state: State) -> list[str]:
    return [a.label for a in state.legal_actions()]


def act(state: State, label: str) -> None:
    """Apply the decision whose label contains ``label`` (exactly one must match)."""
    matches = [a for a in state.legal_actions() if label in a.label]
    assert len(matches) == 1, f"{label!r} matches {[a.label for a in matches]} among {labels(state)}"
    state.apply_action(matches[0])


def roll(state: State, *faces: str) -> None:
    """Fix the next die rolls."""
    for face in faces:
        assert state.is_chance_node(), f"expected a roll, at: {state.prompt()} {labels(state)}"
        choose_outcome(state, face)



def spend_all(state: State) -> int:
    """Spend Tao tokens while the exorcism asks for them; return how many."""
    n = 0
    while not state.is_terminal() and labels(state) and all(x.startswith("spend a ") for x in labels(state)):
        act(state, labels(state)[0])
        n += 1
    return n


COLOURS = ["yellow", "red", "green", "blue", "black"]


def kill(state: State, monk: str) -> None:
    """Make a monk dead as GS-DEATH-1 leaves him: no Qi, no tokens, no Yin-Yang, lying on the Cemetery."""
    set_qi(state, monk, 0)
    for c in COLOURS:
        give(state, monk, c, -state.get("tao", monk, c))
    state.set("yinyang", monk, 0)
    state.set("yinyang_supply", monk, 1)
    state.set("alive", monk, False)
    state.set("monk_at", monk, "ss")


def yin_phase_of(game: Game, base: State, monk: str) -> State:
    """The monk's turn begins with his Yin phase (he is the active player), traced."""
    base.set("active", monk)
    return game.state_at("yin_phase", {"m": monk}, base, tracing=True)


def exorcism_rolling(game: Game, base: State, monk: str, *faces: str, **options: Any) -> State:
    """The monk's exorcism from ``base`` (``options`` go to ``state_at``: tracing, stop), the Tao dice
    showing ``faces``; the position waits for the first decision after the roll."""
    state = game.state_at("exorcise", {"m": monk}, base, **options)
    roll(state, *faces)
    return state


def buddha_away(state: State, where: str, key: str) -> None:
    """One of the Temple's Buddhas is away, as if taken in an earlier turn: held by a monk
    (``where="buddha_held"``, key a monk) or guarding a slot (``where="buddha_on"``, key a slot)."""
    state.set("buddha_temple", state.get("buddha_temple") - 1)
    state.set(where, key, state.get(where, key) + 1)


def buddha_back_in_temple(state: State, where: str, key: str) -> bool:
    """The Buddha counted by ``where[key]`` (see buddha_away) is gone from there, and both are in the Temple."""
    return state.get(where, key) == 0 and state.get("buddha_temple") == 2


def until_next_turn(state: State) -> list[Any]:
    """Log entries up to the start of the next turn (what the step under test did)."""
    out = []
    for e in state.log():
        if e.rule == "GS-TURN-1":
            break
        out.append(e)
    return out


def rules_fired(state: State) -> set[str]:
    return {e.rule for e in state.log()}


def at_step(game: Game, base: State, monk: str, tile: str, procedure: str) -> State:
    """The monk stands on the tile, it is his turn, and ``procedure`` (e.g. yang_phase, take_actions) begins."""
    base.set("monk_at", monk, tile)
    base.set("active", monk)
    return game.state_at(procedure, {"m": monk}, base, tracing=True)


def borrow_then_try_to_exorcise(state: State, power_label: str) -> None:
    """From the start of a Yang phase: spend a power token for ``power_label``, stay on the tile and
    try to exorcise, taking the first option of every other decision on the way."""
    act(state, f"spends a power token for {power_label}")
    while state.prompt() != "move?":
        act(state, labels(state)[0])
    act(state, "stays on")
    while state.prompt() != "ask for help or exorcise?":
        act(state, labels(state)[0])
    act(state, "tries to exorcise")
