"""The command line (ghostrules.cli) and the statement renderer (ghostrules.spec.render)."""

from __future__ import annotations

import json
import re

import pytest

import ghostrules
from ghostrules.cli import main
from ghostrules.spec.model import (CallStmt, EmitStmt, EndStmt, ForStmt, IfStmt, LetStmt, MenuOption, MenuStmt,
                                   MoveStmt, RandomStmt, RollStmt, SayStmt, SetStmt, Template, Where)
from ghostrules.spec.expr import NoneLit, parse
from ghostrules.spec.render import iter_statements, render_rule_formal, render_statements

PLAY = ["play", "ghost-stories", "--players", "4", "--level", "initiation", "--edition", "el", "--seed", "1"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def spec():
    return ghostrules.load_game("ghost-stories").spec


# ---- play -------------------------------------------------------------------------------------


def test_play_prints_trace_and_outcome(capsys):
    code, out, err = run(capsys, *PLAY)
    assert code == 0, err
    assert re.search(r"^Outcome: \w+ \(GS-[A-Z0-9-]+\): ", out, re.M)
    assert re.search(r"^\[GS-[A-Z0-9-]+\] --- .+ turn ---$", out, re.M)
    assert "  [GS-" in out
    assert re.search(r"^\d+ actions .*\d+ turns$", out, re.M)


def test_play_is_reproducible(capsys):
    first = run(capsys, *PLAY)
    second = run(capsys, *PLAY)
    assert first == second


def test_play_verbose_shows_set_entries(capsys):
    code, out, _ = run(capsys, *PLAY, "--verbose")
    assert code == 0
    quiet = run(capsys, *PLAY)[1]
    assert len(out.splitlines()) > len(quiet.splitlines())
    doc = json.loads(run(capsys, *PLAY, "--json")[1])
    first_set = next(e for e in doc["log"] if e["kind"] == "set")
    line = f"  [{first_set['rule']}] {first_set['text']}"
    assert line in out.splitlines()
    assert line not in quiet.splitlines()


def test_play_json(capsys):
    code, out, _ = run(capsys, *PLAY, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["game"] == "ghost-stories"
    assert doc["seed"] == 1
    assert doc["settings"] == {"players": 4, "level": "initiation", "edition": "el", "easy": "no"}
    assert set(doc["outcome"]) == {"result", "rule", "text"}
    assert doc["outcome"]["rule"].startswith("GS-")
    assert doc["log"] and set(doc["log"][0]) == {"step", "rule", "kind", "text"}
    assert doc["history"] and all(isinstance(a, str) for a in doc["history"])


def test_play_json_agrees_with_trace(capsys):
    doc = json.loads(run(capsys, *PLAY, "--json")[1])
    out = run(capsys, *PLAY)[1]
    o = doc["outcome"]
    assert f"Outcome: {o['result']} ({o['rule']}): {o['text']}" in out


def test_play_invalid_players_is_refused(capsys):
    code, out, err = run(capsys, "play", "ghost-stories", "--players", "5")
    assert code == 2
    assert err.startswith("error: ")
    assert "players" in err
    assert "Traceback" not in err


def test_play_bad_value_lists_allowed(capsys):
    code, _, err = run(capsys, "play", "ghost-stories", "--level", "easy")
    assert code == 2
    assert "initiation" in err


def test_play_unknown_game(capsys):
    code, _, err = run(capsys, "play", "nosuchgame")
    assert code == 2
    assert "nosuchgame" in err and "ghost-stories" in err


def test_usage_error_returns_2(capsys):
    assert main([]) == 2
    assert main(["play"]) == 2


# ---- rules ------------------------------------------------------------------------------------


def test_rules_list(capsys, spec):
    code, out, _ = run(capsys, "rules", "list")
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()]
    assert "GS-EXO-3" in ids and "GS-YIN-6" in ids
    assert len(ids) == len(spec.rules)


def test_rules_list_filters(capsys):
    code, out, _ = run(capsys, "rules", "list", "--family", "exorcism", "--edition", "el")
    assert code == 0
    assert all(line.split()[1] == "exorcism" for line in out.splitlines())
    assert "GS-EXO-3" in out
    code, _, err = run(capsys, "rules", "list", "--family", "nope")
    assert code == 2 and "exorcism" in err


def test_rules_show_define(capsys):
    code, out, _ = run(capsys, "rules", "show", "GS-EXO-3")
    assert code == 0
    assert "legalább annyi kockán kell megdobnia" in out  # the Hungarian source words
    assert "define feasible(" in out
    assert "dice_need(" in out  # a definition citing the rule
    assert "exorcism.yaml" in out


def test_rules_show_procedure_and_text(capsys):
    code, out, _ = run(capsys, "rules", "show", "GS-QI-1")
    assert code == 0
    assert "procedure lose_qi(m: monk):" in out
    assert "move 1 from qi[m] to qi_supply" in out
    assert "[GS-DEATH-1]" in out  # a nested statement of another rule is tagged
    code, out, _ = run(capsys, "rules", "show", "GS-YIN-6")
    assert code == 0
    assert "implemented by: GS-YIN-1" in out
    assert "OQ-6" in out and "ED-5" in out


def test_rules_show_unknown(capsys):
    code, out, err = run(capsys, "rules", "show", "NOPE-1")
    assert code == 2
    assert "NOPE-1" in err
    code, _, err = run(capsys, "rules", "show", "GS-EXO-33")
    assert code == 2
    assert "GS-EXO-3" in err  # close matches offered


# ---- render -----------------------------------------------------------------------------------


def test_render_every_rule(spec):
    for rule in spec.rules:
        lines = render_rule_formal(rule)
        assert lines and all(isinstance(x, str) for x in lines)
        lines = render_statements(rule.body, rule=rule.id)
        assert len(lines) >= len(rule.body)
    kinds = {type(s).__name__ for r in spec.rules for s in iter_statements(r.body)}
    assert {"SetStmt", "MoveStmt", "IfStmt", "ForStmt", "CallStmt", "MenuStmt", "SayStmt"} <= kinds


def test_render_procedure_contains_move(spec):
    text = "\n".join(render_statements(spec.rule("GS-QI-1").body))
    assert "move" in text


def test_render_every_statement_class():
    w = Where("t.yaml", 1)
    e = parse
    body = (SetStmt("R-1", w, e("flag[x]"), e("true")),)
    stmts = (
        SetStmt("R-1", w, e("pos[m]"), e("t")),
        MoveStmt("R-1", w, e("1"), e("qi[m]"), e("qi_supply"), False),
        MoveStmt("R-1", w, e("2"), e("x"), e("y"), True),
        MoveStmt("R-2", w, None, e("a"), e("b"), True),
        IfStmt("R-1", w, e("haunted[t]"), body, (SayStmt("R-1", w, Template(("no",), "no")),)),
        ForStmt("R-1", w, "x", e("D"), e("x != y"), body),
        LetStmt("R-1", w, "n", e("n + 1")),
        CallStmt("R-1", w, "lose", (("m", e("m")),)),
        EmitStmt("R-1", w, "entered", (("g", e("g")),)),
        MenuStmt("R-1", w, e("m"), "move?", (
            MenuOption(Template(("stay",), "stay"), None, None, None, (), "R-1", w),
            MenuOption(Template(("go",), "go {t}"), "t", e("pos"), e("adjacent[p, t]"), body, "R-3", w),
        )),
        MenuStmt("R-1", w, NoneLit(), "anyone?", (MenuOption(Template(("x",), "x"), None, None, None, (), "R-1", w),)),
        RandomStmt("R-1", w, "draw", "g", e("card"), e("at[g] == deck")),
        RandomStmt("R-1", w, "random", "s", e("side"), None),
        RollStmt("R-1", w, "curse_die", "r"),
        EndStmt("R-1", w, "loss", Template(("lost",), "lost")),
        EndStmt("R-1", w, "win", None),
        SayStmt("R-1", w, Template(("hi",), "hi {m}")),
    )
    lines = render_statements(stmts, rule="R-1")
    text = "\n".join(lines)
    for expected in ["set pos[m] = t", "move up to 2 from x to y", "move 1 from qi[m] to qi_supply", "move all from a to b  [R-2]",
                     "if haunted[t]:", "else:", "  set flag[x] = true", "for x in D if x != y:", "let n = n + 1",
                     "call lose(m=m)", "emit entered(g=g)", 'choose "move?" (by m):', '- "stay"',
                     '- "go {t}" for t in pos if adjacent[p, t]:  [R-3]', 'choose "anyone?":',
                     "draw g in card if at[g] == deck", "random s in side", "roll curse_die -> r",
                     'end loss: "lost"', "end win", 'say "hi {m}"']:
        assert expected in text, expected
    # only the set inside the R-3 option is tagged with R-1: it differs from its option's rule
    assert text.count("[R-1]") == 1
    assert re.search(r"^ {6}set flag\[x\] = true  \[R-1\]$", text, re.M)
