"""Locals held in Python variables and range checks left out once passed, in the compiled blocks
(engine/blocks.py and engine/passed.py, ``Known``): a local the block writes is read from a variable from that write on,
and an index that may be ``none`` is checked only where no check of the same local, unchanged since,
passed on every path before. These tests run a small spec whose locals are ``none`` at different
places (so a different check fails each time) compiled and interpreted, with and without holding:
the same errors (message, rule, instruction: a block finds it from the failing line), the same states
and logs."""

from __future__ import annotations

import pytest
from speed_helpers import spec_game

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import blocks

_GAME = """\
game: heldlocals
title: Locals held in variables, checks passed before
players: player
flow: {setup: setup, turn: turn}
domains:
  player: [ann]
  seat: [s1, s2, s3, s4]
state:
  pick: {type: seat}
  pick2: {type: seat}
  pick3: {type: seat}
  pick4: {type: seat, init: s4}
  score: {index: [seat], range: [0, 99]}
  flag: {index: [seat], type: bool}
  n: {range: [0, 999]}
  big: {type: bool}
"""

_RULES = """\
family: core
title: Core
rules:
  - id: H-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {n: 0}
  - id: H-WORK
    text: Reads of a local, written in between, in branches and loops.
    procedure: work
    do:
      - let: {m: pick}
      - set: {n: "n + score[m]"}
      - set: {n: "n + score[m] + (1 if flag[m] else 0)"}
      - if: "big and score[m] >= 0"
        then:
          - let: {m: pick2}
          - set: {"score[m]": 1}
      - set: {n: "n + score[m]"}
      - if: "n > 900 and score[m] > 0"
        then:
          - set: {n: 0}
      - set: {n: "n + count(s in seat if flag[m] or score[s] > score[m])"}
      - for: "k in [1, 2, 3]"
        do:
          - set: {n: "n + score[m]"}
          - let: {m: pick2}
      - set: {"flag[m]": true}
      - call: again
        with: {p: pick3}
  - id: H-AGAIN
    text: A fixed parameter, checked twice.
    procedure: again
    params: {p: seat}
    do:
      - set: {n: "n + (1 if forall(s in seat : score[p] >= 0) else 0)"}
      - set: {n: "n + score[p]"}
  - id: H-TURN
    text: Choose the picks, then work.
    procedure: turn
    do:
      - choose: "which picks?"
        by: ann
        options:
          - label: "s1 s2"
            do:
              - set: {pick: s1}
              - set: {pick2: s2}
              - set: {pick3: s3}
          - label: "none third"
            do:
              - set: {pick3: none}
          - label: "none fourth"
            do:
              - set: {pick4: none}
          - label: "none first"
            do:
              - set: {pick: none}
          - label: "none second"
            do:
              - set: {pick: s2}
              - set: {pick2: none}
          - label: "none second, big"
            do:
              - set: {pick: s3}
              - set: {pick2: none}
              - set: {big: true}
          - label: "stop"
            do:
              - end: win
      - call: work
      - let: {w: pick4}
      - choose: "go on?"
        by: ann
        options:
          - label: "go on"
      - set: {n: "n + score[w]"}
      - set: {n: "n + score[w] + (1 if flag[w] else 0)"}
"""


def _game(tmp_path, sub: str) -> ghostrules.Game:
    return spec_game(tmp_path / sub, "heldlocals", _GAME, _RULES)


def _runs(game: ghostrules.Game) -> list:
    """Every sequence of three choices from the start: the states, logs and errors met."""
    out = []
    labels = ["s1 s2", "none first", "none second", "none second, big", "none third", "none fourth"]
    for first in labels:
        for second in labels:
            state = game.new_initial_state(tracing=True)
            trail = []
            for label in (first, "go on", second, "go on"):
                action = next((a for a in state.legal_actions() if a.label == label), None)
                if action is None:  # after a failed action, "go on" is not offered
                    continue
                try:
                    state.apply_action(action)
                    trail.append(("ok", state.to_json()))
                except SpecRuntimeError as exc:
                    trail.append(("error", str(exc), exc.rule_id, exc.where, state.to_json()))
            out.append((trail, [str(e) for e in state.log()]))
    return out


def test_held_locals_and_checks_left_out(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(tmp_path, "held")
    source = "".join(game.program.exprs.block_sources)
    assert "L['m'] = _h0 = " in source and "_p0 = L['p']" in source and "_h0 = L['w']" in source
    held = _runs(game)
    errors = {t[1] for trail, _ in held for t in trail if t[0] == "error"}
    # the first check of m, two after m was bound again, one in a callee's generator, one of a local
    # read at the start of the block where the machine resumes after a decision
    assert len(errors) == 5
    monkeypatch.setattr(game.program, "blocks", [[None] * len(p.code) for p in game.program.procs])
    assert _runs(game) == held  # the interpreter
    monkeypatch.setattr(blocks, "HOLD_LOCALS", False)
    plain = _game(tmp_path, "plain")
    plain_source = "".join(plain.program.exprs.block_sources)
    assert "_h0" not in plain_source
    assert plain_source.count("_bad(") > source.count("_bad(")  # checks were left out
    assert _runs(plain) == held
