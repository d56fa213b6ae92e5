"""Exchangeable roll loops searched without States (``Odds._passes``), and the collector's promotion
after a search (``engine.collector.promote_young``).

Inside a loop of exchangeable rolls (engine/liveness.py ``exchangeable_cells``) the search keeps a
position as its key and (base, values of the loop's slots), plays on the engine only the passes that
leave the loop (from a private state given the predicted values, ``Odds._at``) and the few that teach
it what a face does (``Odds._learn``). These tests hold it to the search that plays every pass."""

from __future__ import annotations

import gc
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostrules import query
from gs_helpers import fourth_die_taken
from ghostrules.engine.state import State
from ghostrules.query.search import Odds, _Roll

HEAD = "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"


def load(text: str) -> query.Scenario:
    """The scenario, past the Strength of the Mountain's choice if its exorcism starts there: the 4th
    Tao die is optional (GS-POWER-GREEN-MOUNTAIN), and these positions measure 4 dice."""
    return fourth_die_taken(query.load(text))


def scenario(dice: int, reroll: bool, tokens: dict[str, int]) -> str:
    """A monk next to Bleeding Eyes (red 2) exorcises with 3 or 4 Tao dice (green, with the Mountain),
    with or without the Favourite's reroll (green's own power with 3 dice; with 4, lent through its
    power-token slot by the neutral yellow board, made to show it, 3 players; yellow exorcises with 3
    dice and no reroll), holding ``tokens``."""
    monk = "yellow" if dice == 3 and not reroll else "green"
    power = "mountain" if dice == 4 else "favourite"
    tao = ", ".join(f"{c}: {k}" for c, k in tokens.items() if k)
    where = f"{{at: ww, tao: {{{tao}}}}}" if tao else "{at: ww}"
    lent = dice == 4 and reroll  # lent through the power-token slot: a neutral board must show it
    slots = 'slots: {"power[yellow]": favourite, "borrowed[favourite]": true}\n' if lent else ""
    head = HEAD.replace("players: 4\n", "players: 3\n") + "boards: [red, green, blue]\n" if lent else HEAD
    return (head + f"powers: {{yellow: pockets, red: peaks, green: {power}, blue: gust}}\n"
            f"monks:\n  {monk}: {where}\nghosts:\n  red_2: Bleeding Eyes\n{slots}"
            f"turn: {{active: {monk}, step: exorcise}}\n")


class _Plain(Odds):
    """The search that plays every pass (no prediction)."""

    def _rolls(self, s: Any, rest: Any) -> Any:
        return None


def _counting(run: Any) -> tuple[Any, int]:
    made = {"n": 0}
    original = State.child

    def counting(self: State, action: Any) -> State:
        made["n"] += 1
        return original(self, action)
    State.child = counting  # type: ignore[method-assign]
    try:
        out = run()
    finally:
        State.child = original  # type: ignore[method-assign]
    return out, made["n"]


OUTCOMES = [("at[c38_bleeding_eyes] == discard", None), ("tray[red] + jokers >= 2", "roll_tao_dice"),
            ("tray[red] + jokers >= 1", "roll_tao_dice"), ("tray[blue] >= 2", "roll_tao_dice")]


@settings(max_examples=14, deadline=None)
@given(st.sampled_from([3, 4]), st.booleans(), st.sampled_from(OUTCOMES),
       st.fixed_dictionaries({"red": st.integers(0, 1), "blue": st.integers(0, 1)}))
def test_unplayed_passes_give_what_playing_every_pass_gives(dice: int, reroll: bool, outcome: tuple[str, Any],
                                                            tokens: dict[str, int]) -> None:
    """The same probability, distribution, positions and decisions as the search that plays every
    pass, with fewer children made; every position is searched once either way."""
    sc = load(scenario(dice, reroll, tokens))
    search = query.odds(sc, outcome=outcome[0], horizon=outcome[1]).search
    fast = Odds(search.horizon, search.leaf, ceiling=search.ceiling)
    slow = _Plain(search.horizon, search.leaf, ceiling=search.ceiling)
    got, with_prediction = _counting(lambda: fast.solve(sc.state))
    want, without = _counting(lambda: slow.solve(sc.state))
    assert got == want
    assert fast.positions == slow.positions
    assert fast.policy == slow.policy
    assert fast.unplayed > 0 and fast.learned
    assert with_prediction < without


def test_four_dice_and_a_reroll_play_few_passes() -> None:
    """4 dice and the reroll: the 126 outcomes of each loop's last pass are played, and a few passes
    to learn the faces and to reach the last roll; no roll inside a loop makes a State."""
    sc = load(scenario(4, True, {}))
    answer = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
    search = answer.search
    assert Fraction(answer.data["probability"]) == Fraction(1675, 2187)
    assert 2 * 126 <= search.played <= 2 * 126 + 80
    assert search.unplayed >= 150


def test_a_private_state_at_another_position_is_refused() -> None:
    """``_at`` makes a private state only for a key it can reach by playing passes: a key whose other
    frames differ (or with more passes left than the entry) stops the search."""
    sc = load(scenario(4, False, {}))
    search = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard").search
    entry = sc.state.clone()
    entry.tracing = False
    while not entry.is_chance_node():
        entry = entry.child(entry.legal_actions()[0])
    rest = search.key(entry)[0]
    step = entry.chance_weights()[0][0]
    probe = Odds(search.horizon, search.leaf, ceiling=search.ceiling)
    private = probe._at(entry, (rest[0][:-1] + (0,), rest[1]), entry.values, step)
    assert probe.key(private)[0] == (rest[0][:-1] + (0,), rest[1]) and private is not entry
    assert private.values == entry.values and private.values is not entry.values
    with pytest.raises(AssertionError, match="exchangeable rolls"):
        probe._at(entry, (rest[0][:-1] + (rest[0][-1] + 1,), rest[1]), entry.values, step)
    with pytest.raises(AssertionError, match="exchangeable rolls"):
        probe._at(entry, ((-1,) + rest[0][1:-1] + (0,), rest[1]), entry.values, step)


class _Loop:
    def __init__(self, cells: dict[int, int]) -> None:
        self.cells = cells


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 3), min_size=9, max_size=9), min_size=1, max_size=8),
       st.permutations(range(9)))
def test_bases_tell_values_apart_outside_the_loop_slots(rows: list[list[int]], order: list[int]) -> None:
    """Two value lists get one base exactly when they are equal outside the loop's slots, and
    (base, slots) gives the values back."""
    cells = sorted(order[:3])
    roll = _Roll(_Loop({face: cell for face, cell in zip((5, 1, 3), order[:3])}))
    assert roll.cells == tuple(cells)
    bases = [roll.base(row) for row in rows]
    for row, base in zip(rows, bases):
        assert roll.full(base, roll.read(row)) == row
        assert roll.read(row) == tuple(row[c] for c in cells)
    for a, ra in zip(bases, rows):
        for b, rb in zip(bases, rows):
            outside = all(x == y for i, (x, y) in enumerate(zip(ra, rb)) if i not in cells)
            assert (a == b) == outside


def test_a_search_leaves_the_collector_on_and_nothing_frozen() -> None:
    """After a search the collector is on again, its young generation is empty (what the search kept
    went to the oldest generation, unwalked) and nothing is left frozen; what a caller froze stays
    frozen, and then the search leaves the generations alone."""
    sc = load(scenario(3, True, {}))
    assert gc.isenabled()
    query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert gc.get_count()[0] < 100
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
        assert gc.get_freeze_count() == frozen and gc.isenabled()
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
        assert not gc.isenabled()
    finally:
        gc.enable()
