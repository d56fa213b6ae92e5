"""The Ghost Stories test helpers move tokens as the game does (principle 6: never created from
nothing): a move the source cannot pay for fails, changing nothing, instead of building an
impossible position (a negative supply) for the test that asked for it."""

from __future__ import annotations

import pytest

from gs_helpers import gather, give, gs_game, set_qi, set_up


@pytest.fixture(scope="module")
def base():
    return set_up(gs_game(edition="el"))  # EL 4 players: the supply holds 3 of each monk's colour, no black


def test_give_refuses_more_than_the_supply_holds_and_changes_nothing(base) -> None:
    state = base.clone()
    before = list(state.values)
    with pytest.raises(ValueError, match=r"tao_supply\[red\] holds 3, cannot move 4"):
        give(state, "yellow", "red", 4)
    with pytest.raises(ValueError, match=r"tao_supply\[black\] holds 0, cannot move 1"):
        give(state, "yellow", "black")
    with pytest.raises(ValueError, match=r"tao\[yellow, blue\] holds 0, cannot move 1"):
        give(state, "yellow", "blue", -1)
    assert state.values == before
    give(state, "yellow", "red", 3)
    assert state.get("tao", "yellow", "red") == 3 and state.get("tao_supply", "red") == 0
    assert state.check_invariants() == []


def test_set_qi_refuses_more_than_the_qi_supply_holds(base) -> None:
    state = base.clone()
    before = list(state.values)
    supply = state.get("qi_supply")
    with pytest.raises(ValueError, match=rf"qi_supply holds {supply}, cannot move {supply + 1}"):
        set_qi(state, "red", state.get("qi", "red") + supply + 1)
    assert state.values == before
    set_qi(state, "red", state.get("qi", "red") + supply)
    assert state.get("qi_supply") == 0 and state.check_invariants() == []


def test_gather_takes_from_the_supply_then_the_other_monks(base) -> None:
    state = base.clone()
    gather(state, "yellow", "red", 4)  # 3 from the supply, the red monk's own
    assert state.get("tao", "yellow", "red") == 4
    assert state.get("tao_supply", "red") == 0 and state.get("tao", "red", "red") == 0
    gather(state, "yellow", "black", 4)  # the other three monks' black tokens
    assert [state.get("tao", m, "black") for m in ("yellow", "red", "green", "blue")] == [4, 0, 0, 0]
    gather(state, "yellow", "black", 1)  # back to the supply
    assert state.get("tao", "yellow", "black") == 1 and state.get("tao_supply", "black") == 3
    assert state.check_invariants() == []
    before = list(state.values)
    with pytest.raises(ValueError, match="0..4"):
        gather(state, "yellow", "green", 5)
    assert state.values == before
