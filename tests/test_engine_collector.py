"""The collector held off while a game compiles (engine/collector.py), and left as it was found."""

from __future__ import annotations

import gc

import pytest

from ghostrules.engine import collector
from ghostrules.engine.collector import collector_paused


def test_paused_inside_and_restored_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: still off, and off after the inner block
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_restored_after_an_error() -> None:
    with pytest.raises(ZeroDivisionError):
        with collector_paused():
            1 // 0  # noqa: B018
    assert gc.isenabled()


def test_left_off_when_found_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_what_the_block_kept_is_promoted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Objects made inside leave the youngest generation when the block ends (nothing frozen stays)."""
    calls: list[str] = []
    monkeypatch.setattr(collector, "promote_young", lambda: calls.append("promoted"))
    with collector_paused():
        kept = [[i] for i in range(1000)]
    assert calls == ["promoted"] and len(kept) == 1000
    monkeypatch.undo()
    with collector_paused():
        kept = [[i] for i in range(1000)]
    assert gc.get_count()[0] < 100 and gc.get_freeze_count() == 0


def test_compiling_a_game_leaves_the_collector_on() -> None:
    from ghostrules.engine.game import Game
    from ghostrules.spec.loader import load_spec

    Game(load_spec("ghost-stories", players=1, level="initiation", edition="el"))
    assert gc.isenabled() and gc.get_freeze_count() == 0
