"""Memos of the scans of a long run of slots inside a compiled block (engine/blocks.py).

A block that looks a value up in the same long run of slots in several places (``card_in(x)``:
``_first(v, O, N, x)``; ``occupied(x)``: ``x in v[O:O+N]``) keeps each answer in a dict for that run,
emptied at the block's start and after any write that may touch the run (a ``set`` of an overlapping
slot family, a ``move`` between overlapping cells, a direct call). These tests check that a kept answer
is never stale, that games are the same with and without the memos, and that a fault in such a block
is reported and rolled back as before."""

from __future__ import annotations

import pytest
from speed_helpers import spec_game, traced_record

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import blocks
from ghostrules.spec import load_spec

_CARDS = ", ".join(f"c{k}" for k in range(40))

_GAME = f"""\
game: memoscan
title: Scans of a long run of slots, written between them
players: player
flow: {{setup: setup, turn: turn}}
domains:
  player: [ann]
  card: [{_CARDS}]
  spot: [s1, s2, s3]
  place: {{union: [spot, [deck]]}}
state:
  at: {{index: [card], type: place, init: deck}}
  r1: {{type: card}}
  r2: {{type: card}}
  r3: {{type: card}}
  r4: {{type: card}}
  r5: {{type: card}}
  o1: {{type: bool}}
  o2: {{type: bool}}
  n: {{range: [0, 30]}}
"""

_RULES = """\
family: core
title: Core
definitions:
  - name: card_in
    params: {x: spot}
    value: "first(g in card if at[g] == x)"
  - name: occupied
    params: {x: spot}
    value: "exists(g in card if at[g] == x)"
rules:
  - id: M-SETUP
    text: Two cards on the spots.
    procedure: setup
    do:
      - set: {"at[c5]": s1}
      - set: {"at[c7]": s2}
  - id: M-SWAP
    text: A callee that changes which card lies on s1.
    procedure: swap
    do:
      - set: {"at[c9]": deck}
      - set: {"at[c31]": s1}
  - id: M-TURN
    text: Look the spots up, change them, look again.
    procedure: turn
    do:
      - set: {r1: "card_in(s1)"}
      - set: {o1: "occupied(s3)"}
      - set: {"at[c5]": deck}
      - set: {"at[c9]": s1}
      - set: {"at[c2]": s3}
      - set: {r2: "card_in(s1)"}
      - set: {o2: "occupied(s3)"}
      - call: swap
      - set: {r3: "card_in(s1)"}
      - set: {n: "n + 1"}
      - set: {r4: "card_in(s1) if n > 0 else card_in(s2)"}
      - choose: what now?
        by: ann
        options:
          - label: look again
            rule: M-AGAIN
            do:
              - set: {"at[c31]": deck}
              - set: {r5: "card_in(s1)"}
              - set: {"at[c33]": s1}
              - set: {r5: "card_in(s1)"}
          - label: fail
            rule: M-FAIL
            do:
              - set: {r5: "card_in(s2)"}
              - set: {"at[c7]": deck}
              - set: {r5: "card_in(s2)"}
              - set: {n: "n + 40"}
          - label: stop
            do:
              - end: win
"""


def _game(tmp_path) -> ghostrules.Game:
    return spec_game(tmp_path, "memoscan", _GAME, _RULES)


def _memo_blocks(game: ghostrules.Game) -> list[str]:
    """The blocks that hold a memo (a line ``_tN = {}`` at their start)."""
    out = []
    for src in game.program.exprs.block_sources:
        for part in src.split("\ndef ")[1:]:
            if part.startswith("_b") and "\n    _t0 = {}\n" in part:
                out.append(part)
    return out


def test_a_kept_answer_is_never_stale(tmp_path) -> None:
    game = _game(tmp_path)
    memos = _memo_blocks(game)
    assert len(memos) >= 2  # the turn's block and the first option's: the mechanism is engaged
    assert all("(v, _t0, " in b and "_first(v, " not in b for b in memos)  # every scan through the memo
    state = game.new_initial_state(tracing=True)
    assert [state.get(x) for x in ("r1", "o1", "r2", "o2", "r3", "r4")] == ["c5", False, "c9", True, "c31", "c31"]
    state.apply_action(state.legal_actions()[0])  # look again
    assert state.get("r5") == "c33"


def test_the_same_with_and_without_memos(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    def run(game: ghostrules.Game) -> tuple:
        state = game.new_initial_state(tracing=True)
        state.apply_action(state.legal_actions()[0])
        return state.to_json(), [str(e) for e in state.log()]

    with_memos = run(_game(tmp_path))
    monkeypatch.setattr(blocks, "MEMO_SITES", 10**9)
    plain = _game(tmp_path)
    assert _memo_blocks(plain) == []
    assert run(plain) == with_memos


def test_a_fault_after_memo_lookups_is_reported_and_rolled_back(tmp_path) -> None:
    game = _game(tmp_path)
    state = game.new_initial_state(tracing=True)
    before = (state.to_json(), len(state.log()), [[f[0], f[1], dict(f[2])] for f in state.stack])
    fail = next(a for a in state.legal_actions() if a.label == "fail")
    with pytest.raises(SpecRuntimeError) as info:
        state.apply_action(fail)
    assert info.value.rule_id == "M-FAIL"
    assert "cannot be" in str(info.value)
    assert state.to_json() == before[0]
    assert len(state.log()) == before[1]
    assert [[f[0], f[1], f[2]] for f in state.stack] == before[2]
    assert state.get("at", "c7") == "s2"
    state.apply_action(state.legal_actions()[0])  # and it plays on, with the memo answers of now
    assert state.get("r5") == "c33"


@pytest.mark.parametrize("params", [{"players": 4, "level": "initiation", "edition": "el"},
                                    {"players": 2, "level": "hell", "edition": "hu"}])
def test_ghost_stories_games_are_the_same_without_memos(params: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """The yin phase looks the cards on its board's slots up many times: through a memo, and plain."""
    game = ghostrules.Game(load_spec("ghost-stories", **params))
    assert _memo_blocks(game)
    with_memos = [traced_record(game, s) for s in range(3)]
    monkeypatch.setattr(blocks, "MEMO_SITES", 10**9)
    plain = ghostrules.Game(load_spec("ghost-stories", **params))
    assert _memo_blocks(plain) == []
    assert [traced_record(plain, s) for s in range(3)] == with_memos
