"""What a new user meets on the command line and in the API: one-line errors that say what to do,
options that work where they are shown, tables that fit a terminal, traces that start cleanly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import ghostrules
from ghostrules.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
CURSE = str(EXAMPLES / "curse_after_final_exorcism.yaml")
BLEEDING = str(EXAMPLES / "bleeding_eyes_two_red.yaml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- 1. prove without z3-solver -----------------------------------------------------------------


def test_prove_without_z3_says_how_to_install_it():
    script = ("import sys; sys.modules['z3'] = None  # as if z3-solver were not installed\n"
              "from ghostrules.cli import main\n"
              "raise SystemExit(main(['prove', '--only', 'editions']))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "pip install -e '.[dev]'" in done.stderr and "z3-solver" in done.stderr


# ---- 2. a rule ID of another game ---------------------------------------------------------------


@pytest.mark.parametrize("argv, other", [
    (("rules", "show", "BH-HAUNTROLL-2"), "betrayal"),
    (("rules", "show", "bh-hauntroll-2"), "betrayal"),
    (("rules", "show", "GS-EXO-3", "--game", "betrayal"), "ghost-stories"),
])
def test_rules_show_names_the_game_that_has_the_rule(capsys, argv, other):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.strip().endswith(f"it is a rule of {other}: add --game {other}"), err


def test_rules_show_unknown_everywhere_keeps_the_list_hint(capsys):
    code, _, err = run(capsys, "rules", "show", "QQ-1")
    assert code == 2
    assert "see 'ghostrules rules list'" in err and "it is a rule of" not in err


def test_other_game_is_found_from_the_spec_folders(capsys, monkeypatch):
    import ghostrules.cli as cli
    monkeypatch.setattr(cli, "available_games", lambda: ["ghost-stories"])  # no betrayal folder
    code, _, err = run(capsys, "rules", "show", "BH-HAUNTROLL-2")
    assert code == 2 and "it is a rule of" not in err


# ---- 3. simulate --win -------------------------------------------------------------------------


def test_simulate_unknown_win_result_lists_the_games_results(capsys):
    code, out, err = run(capsys, "simulate", "betrayal", "--games", "2", "--workers", "1", "--quiet", "--win", "hero")
    assert code == 2 and not out
    assert "no result 'hero'" in err and "heroes, traitor" in err


def test_simulate_known_win_result_is_counted(capsys):
    code, out, err = run(capsys, "simulate", "betrayal", "--games", "2", "--workers", "1", "--quiet",
                         "--win", "heroes")
    assert code == 0, err
    assert re.search(r"^heroes: \d/2 = .*95 % Wilson interval", out, re.M)


# ---- 4. the action limit of play() ---------------------------------------------------------------


def test_action_limit_has_its_own_error():
    game = ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el")
    with pytest.raises(ghostrules.ActionLimitError) as info:
        ghostrules.play(game, seed=3, max_actions=30)
    assert isinstance(info.value, ghostrules.IllegalActionError)  # old `except IllegalActionError` still works
    assert info.value.max_actions == 30
    assert "did not end within 30 actions" in str(info.value) and "no action was illegal" in str(info.value)
    assert ghostrules.engine.ActionLimitError is ghostrules.ActionLimitError
    assert "ActionLimitError" in ghostrules.__all__ and "ActionLimitError" in ghostrules.engine.__all__
    assert ghostrules.ActionLimitError.__doc__ != ghostrules.IllegalActionError.__doc__


# ---- 5. the prove table ------------------------------------------------------------------------


def test_prove_table_shortens_long_configuration_cells(capsys, monkeypatch):
    pytest.importorskip("z3")
    import ghostrules.prover.lanes as lanes
    import ghostrules.prover.runner as runner
    many = "; ".join(f"players={p} level={lv} edition=hu|el easy=no" for p in (1, 2, 3, 4)
                     for lv in ("initiation", "normal", "nightmare", "hell"))
    rows = [{"property": "ED-1 changes an outcome", "configuration": "players=4 level=initiation edition=hu|el easy=no",
             "status": "proved", "seconds": 0.1, "rule_ids": ["GS-EXO-3"], "detail": ""},
            {"property": "the HU and EL rulebooks give different outcomes", "configuration": many,
             "status": "proved", "seconds": 0.2, "rule_ids": ["GS-EXO-3"], "detail": ""}]
    module = types.ModuleType("proofs.editions")
    monkeypatch.setattr(runner, "discover", lambda game: [module])
    monkeypatch.setattr(lanes, "run_files",
                        lambda modules, options, jobs, progress: [(module, [dict(r) for r in rows], 0.3)])
    code, out, _ = run(capsys, "prove", "--only", "editions")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) < 160, out
    assert "players=1 level=initiation edition=hu|el easy=no" in out and "... (16 configurations)" in out
    code, out, _ = run(capsys, "prove", "--only", "editions", "--json")
    assert code == 0 and json.loads(out)[1]["configuration"] == many  # --json keeps every configuration


# ---- 6. ghostrules ask options -------------------------------------------------------------------


def test_ask_help_describes_every_option(capsys):
    code, out, _ = run(capsys, "ask", "--help")
    assert code == 0
    options = out.split("options:", 1)[1]
    for option in ("--json", "--outcome", "--horizon", "--maximise", "--budget", "--verbose"):
        line = next(x for x in options.splitlines() if x.strip().startswith(option))
        rest = line.strip()[len(option):].split(None, 1)
        described = len(rest) == 2 or options.split(line, 1)[1].startswith("\n" + " " * 10)
        assert described, f"{option} has no help line"


@pytest.mark.parametrize("before", [
    ["ask", "--verbose", CURSE, "next", "red"],
    ["ask", CURSE, "--verbose", "next", "red"],
])
def test_ask_options_work_in_any_position(capsys, before):
    after = run(capsys, "ask", CURSE, "next", "red", "--verbose")
    plain = run(capsys, "ask", CURSE, "next", "red")
    assert after[0] == 0 and after[1] != plain[1]  # --verbose shows more
    assert run(capsys, *before) == after


def test_ask_outcome_before_the_scenario(capsys):
    code, out, err = run(capsys, "ask", "--outcome", "at[c38_bleeding_eyes] == discard", BLEEDING, "odds", "--json")
    assert code == 0, err
    assert json.loads(out)["probability"] == "7/27"


@pytest.mark.parametrize("argv, message", [
    ([CURSE, "legal", "--verbose"], "--verbose applies only to next, not to legal"),
    (["--verbose", CURSE, "legal"], "--verbose applies only to next, not to legal"),
    ([BLEEDING, "legal", "--outcome", "lose"], "--outcome applies only to odds, not to legal"),
    ([BLEEDING, "--horizon", "turn", "next"], "--horizon applies only to odds, not to next"),
])
def test_ask_option_that_does_not_apply_is_refused(capsys, argv, message):
    code, out, err = run(capsys, "ask", *argv)
    assert code == 2 and not out
    assert message in err


def test_ask_verbose_applies_to_the_files_own_next_question(capsys):
    plain = run(capsys, "ask", CURSE)
    verbose = run(capsys, "ask", "--verbose", CURSE)
    assert plain[0] == verbose[0] == 0
    assert "As the file expects." in verbose[1]
    assert len(verbose[1].splitlines()) > len(plain[1].splitlines())


# ---- 7. play and simulate output of a game without a score ---------------------------------------


def test_play_trace_starts_with_one_blank_line(capsys):
    for game in ("betrayal", "ghost-stories"):
        code, out, _ = run(capsys, "play", game, "--seed", "1")
        lines = out.splitlines()
        assert code == 0
        assert lines[1] == "" and lines[2] != "", lines[:4]


def test_simulate_game_without_score_prints_no_score_block(capsys):
    code, out, err = run(capsys, "simulate", "betrayal", "--games", "2", "--workers", "1", "--quiet")
    assert code == 0, err
    assert not re.search(r"^score", out, re.M)
    assert not re.search(r"^win: ", out, re.M)  # Betrayal has no result 'win': no made-up 0/2 line
    assert re.search(r"^(heroes|traitor): \d/2", out, re.M)


# ---- 8. docs/examples/README.md ----------------------------------------------------------------


def test_examples_readme_python_snippet_imports_what_it_uses():
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        if "ghostrules." in block.replace("from ghostrules", ""):
            assert re.search(r"^import ghostrules$", block, re.M), block


def test_examples_readme_error_text_is_the_real_one(capsys, tmp_path):
    text = " ".join((EXAMPLES / "README.md").read_text(encoding="utf-8").split())
    documented = re.search(r"`(error: bad\.yaml:6: [^`]*)`", text).group(1)
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\nghosts:\n"
                   "  red_1: Bleeding Eyez\n", encoding="utf-8")
    code, _, err = run(capsys, "ask", str(bad))
    assert code == 2
    assert " ".join(err.split()).replace(str(bad), "bad.yaml") == documented


def test_rules_an_edition_adopts_are_listed_and_shown_with_the_note(capsys):
    """GS-EXO-9 is EL's text; the HU overlay adopts its choice where HU is silent (ED-6): listed for
    --edition hu, marked, and 'rules show' gives the overlay's note. Under EL it is plainly EL's."""
    code, out, _ = run(capsys, "rules", "list", "--edition", "hu", "--family", "exorcism")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("GS-EXO-9 "))
    assert "el (adopted)" in line
    code, out, _ = run(capsys, "rules", "show", "GS-EXO-9", "--edition", "hu")
    assert code == 0 and "Adopted in this edition, whose text is silent: ED-6: HU is silent" in out
    code, out, _ = run(capsys, "rules", "show", "GS-EXO-9", "--edition", "el")
    assert code == 0 and "Adopted" not in out
