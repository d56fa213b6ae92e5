"""Loops compiled as Python ``for`` loops (engine/blocks.py, ``_Writer.straight``): a loop whose body
never leaves its block keeps its counter in the Python loop instead of the frame's locals, computes
its values once and binds its variable in the frame only where something reads it from there. These
tests run a small spec whose loops filter, stop early, leave their variable to be read after them,
nest, call procedures that pause or not, pause in their body, and fail (in a filter, in a body, in
the values, out of a range) at different places, compiled with and without ``for`` loops and
interpreted: the same states (locals and frames included), logs and errors (message, rule, line).
"""

from __future__ import annotations

import re

import pytest
from speed_helpers import spec_game

import ghostrules
from ghostrules import SpecRuntimeError
from ghostrules.engine import blocks

_GAME = """\
game: forloops
title: Loops compiled as Python for loops
players: player
flow: {setup: setup, turn: turn}
domains:
  player: [ann]
  seat: [s1, s2, s3, s4]
state:
  pick: {type: seat, init: s1}
  pick2: {type: seat, init: s2}
  pick3: {type: seat, init: s3}
  score: {index: [seat], range: [0, 30]}
  flag: {index: [seat], type: bool}
  n: {range: [0, 99]}
  last: {range: [0, 99]}
  mode: {range: [0, 9]}
"""

_RULES = """\
family: core
title: Core
rules:
  - id: F-SETUP
    text: Nothing to set up.
    procedure: setup
    do:
      - set: {n: 0}
  - id: F-WORK
    text: Loops of every kind, one after the other.
    procedure: work
    do:
      - set: {n: 0}
      - for: "k in [1, 2, 3] if k <= mode"
        do:
          - set: {n: "n + k"}
      - set: {last: "k"}
      - for: "k in [1, 2, 3] if k <= mode"
        do:
          - let: {k: "k * 10"}
      - set: {last: "last + k"}
      - for: "s in seat if n < 6"
        do:
          - set: {n: "n + score[s] + 1"}
      - set: {last: "last + (1 if s == s4 else 0)"}
      - for: "s in seat if flag[s]"
        do:
          - set: {"score[s]": "score[s] + score[pick]"}
      - for: "s in seat if score[pick2] < 25"
        do:
          - set: {n: "n + 1"}
      - let: {m: pick}
      - let: {m3: pick3}
      - let: {acc: 0}
      - for: "x in [score[m3], 1, 2]"
        do:
          - let: {acc: "acc + x"}
      - set: {n: "acc"}
      - for: "k in [1, 2] if exists(s in seat if score[s] + k > score[pick2] + 2 * k and flag[s])"
        do:
          - set: {n: "n + k + count(s in seat if score[s] + k > score[pick2] + 2 * k)"}
      - for: "x in [m, m3]"
        do:
          - set: {"score[x]": "1 + score[x]"}
      - let: {m5: s1}
      - for: "x in [s2, m5]"
        do:
          - let: {m5: s3}
          - set: {"score[x]": "score[x] + 1"}
      - for: "x in [1, n]"
        do:
          - set: {n: "n + 1"}
      - set: {last: "x"}
      - for: "k in [1, 2]"
        do:
          - for: "j in [1, 2, 3] if j + k <= mode"
            do:
              - set: {n: "n + j"}
              - let: {t: "j * k"}
          - call: helper
            with: {p: "s1 if k == 1 else s2"}
          - say: "k is {k}"
      - set: {last: "t if mode >= 3 else last"}
      - for: "k in [1, 2]"
        do:
          - call: maybe_pause
          - call: deeper
            with: {d: "k + 1"}
      - for: "s in seat if flag[s]"
        do:
          - choose: "keep {s}?"
            by: ann
            options:
              - label: "keep"
              - label: "drop"
                do:
                  - set: {"flag[s]": false}
          - set: {n: "n + 1"}
      - set: {last: "last + (1 if s == s4 else 0)"}
  - id: F-HELPER
    text: A callee that never pauses.
    procedure: helper
    params: {p: seat}
    do:
      - set: {"score[p]": "score[p] + 1"}
  - id: F-DEEPER
    text: A recursive callee, called directly while the stack is shallow.
    procedure: deeper
    params: {d: int}
    do:
      - if: "d > 0"
        then:
          - set: {last: "last + 1 if last < 99 else last"}
          - call: deeper
            with: {d: "d - 1"}
  - id: F-MAYBE-PAUSE
    text: A callee that pauses in one mode.
    procedure: maybe_pause
    do:
      - if: "mode == 9"
        then:
          - choose: "carry on?"
            by: ann
            options:
              - label: "carry on"
  - id: F-TURN
    text: Choose what the loops meet, then run them.
    procedure: turn
    do:
      - choose: "set up"
        by: ann
        options:
          - label: "mode 0"
            do:
              - set: {mode: 0}
          - label: "mode 2"
            do:
              - set: {mode: 2}
          - label: "mode 3, flags"
            do:
              - set: {mode: 3}
              - set: {"flag[s2]": true}
              - set: {"flag[s4]": true}
          - label: "mode 9"
            do:
              - set: {mode: 9}
              - set: {"flag[s1]": true}
          - label: "pick none"
            do:
              - set: {pick: none}
          - label: "pick none, flag"
            do:
              - set: {pick: none}
              - set: {"flag[s3]": true}
          - label: "pick3 none"
            do:
              - set: {pick3: none}
          - label: "pick2 none"
            do:
              - set: {pick2: none}
          - label: "scores high"
            do:
              - set: {"score[s1]": 20}
              - set: {"score[s2]": 26}
              - set: {"flag[s1]": true}
          - label: "stop"
            do:
              - end: win
      - call: work
"""

_LABELS = ["mode 0", "mode 2", "mode 3, flags", "mode 9", "pick none", "pick none, flag", "pick2 none", "pick3 none",
           "scores high"]


def _line(text: str) -> int:
    """The line of the spec's rules that holds ``text`` (once)."""
    found = [k for k, line in enumerate(_RULES.split("\n"), 1) if text in line]
    assert len(found) == 1, text
    return found[0]


def _game(tmp_path, sub: str) -> ghostrules.Game:
    return spec_game(tmp_path / sub, "forloops", _GAME, _RULES)


def _runs(game: ghostrules.Game) -> list:
    """Every pair of set-ups from the start, each followed by the answers its pauses ask (the first
    option offered, then the last): the states (as JSON: values, frames and their locals), the
    logs and the errors met."""
    out = []
    for first in _LABELS:
        for second in _LABELS:
            for answer in (0, -1):
                state = game.new_initial_state(tracing=True)
                trail = []
                for label in (first, second):
                    action = next((a for a in state.legal_actions() if a.label == label), None)
                    while action is None and not state.is_terminal() and len(trail) < 40:
                        other = state.legal_actions()[answer]  # a pause inside the loops
                        state.apply_action(other)
                        trail.append(("pause", other.label, state.to_json()))
                        action = next((a for a in state.legal_actions() if a.label == label), None)
                    if action is None:
                        break
                    try:
                        state.apply_action(action)
                        trail.append(("ok", state.to_json()))
                    except SpecRuntimeError as exc:
                        trail.append(("error", str(exc), exc.rule_id, exc.where, state.to_json()))
                out.append((trail, [str(e) for e in state.log()]))
    return out


def test_loop_locals_hide_no_global_name(tmp_path) -> None:
    """A block's own variables (a loop's counter, values, variable among them) are named apart from
    the names the generated code reads from its module: constants ``_kN``, definitions ``_dN``,
    other blocks ``_bP_Q``; a local of such a name would hide the global in the whole function."""
    game = _game(tmp_path, "names")
    names = {name for blocks_ in game.program.blocks for block in blocks_ if block is not None
             for name in block.__code__.co_varnames}
    assert {"_j", "_vs"} & {name.rstrip("0123456789") for name in names}  # for loops were written
    assert not [name for name in names if re.fullmatch(r"_k\d+|_d\d+|_b\d+_\d+", name)]


def test_for_loops_do_what_the_interpreter_does(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(tmp_path, "for")
    source = "".join(game.program.exprs.block_sources)
    assert "for _h" in source and "while True:" in source  # both forms: a loop that pauses keeps its counter
    runs = _runs(game)
    errors = {(t[1], t[2], t[3]) for trail, _ in runs for t in trail if t[0] == "error"}
    # in bodies: a bad index (two loops), a value out of its range; a bad index in a filter that
    # stops the loop, in a value computed once before the loop
    lines = {_line('"score[s] + score[pick]"'), _line("if score[pick2] < 25"), _line("x in [score[m3], 1, 2]"),
             _line('"1 + score[x]"')}
    assert {int(where.rsplit(":", 1)[1]) for _, _, where in errors} == lines, errors
    assert len(errors) == 5
    assert any(t[0] == "pause" for trail, _ in runs for t in trail)
    monkeypatch.setattr(blocks, "CALL_DEPTH", 1)  # the recursive callee handed to the interpreter at once
    shallow = _game(tmp_path, "shallow")
    assert "if len(_S.stack) > 1:" in "".join(shallow.program.exprs.block_sources)
    assert _runs(shallow) == runs
    monkeypatch.setattr(game.program, "blocks", [[None] * len(p.code) for p in game.program.procs])
    assert _runs(game) == runs  # the interpreter
    monkeypatch.setattr(blocks, "FOR_LOOPS", False)
    plain = _game(tmp_path, "plain")
    assert "for _h" not in "".join(plain.program.exprs.block_sources)
    assert _runs(plain) == runs
