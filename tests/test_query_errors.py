"""Malformed scenario files: one paragraph on stderr naming file:line and what was expected, exit
code 2, never a traceback (through the command line's main())."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghostrules.cli import main
from ghostrules.query import ScenarioError, load

HEAD = "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"

# (name, body after the header, line of the error, words the message must contain)
BAD = [
    ("unknown card name", "ghosts:\n  red_1: Bleeding Eyez\n", 6, "unknown card 'Bleeding Eyez'"),
    ("slot that does not exist", "ghosts:\n  red_4: Bleeding Eyes\n", 6, "'red_4' is not a slot"),
    ("four ghosts on a board", ("ghosts:\n  yellow_1: Ghoul\n  yellow_2: Zombie\n  yellow_3: Lich\n"
                                "slots:\n  \"at[c12_drowned_maiden]\": yellow_1\n"), 5, "at most 3 ghosts per board"),
    ("25 Tao tokens of one colour", "monks:\n  yellow: {tao: {red: 25}}\n", 6, "out of range"),
    ("more Tao tokens than the game has", "monks:\n  yellow: {tao: {red: 3}}\n  green: {tao: {red: 1}}\n", 7,
     "too many tao (red)"),
    ("unknown top-level key", "monk:\n  yellow: {qi: 2}\n", 5, "unknown key 'monk'"),
    ("unknown monk field", "monks:\n  yellow: {qii: 2}\n", 6, "unknown field 'qii'"),
    ("unknown step", "turn: {active: yellow, step: exorcize}\n", 5, "unknown step 'exorcize'"),
    ("not YAML", "monks: [yellow: {qi: 2}\n", 6, "not valid YAML"),
    ("bad parameter value", "", 2, "players must be one of"),
    ("unknown tile", "monks:\n  yellow: {at: Tea Houze}\n", 6, "neither a pos"),
    ("the same card twice", "ghosts:\n  red_1: 38\n  red_2: c38_bleeding_eyes\n", 7, "already placed"),
    ("negative Qi", "monks:\n  red: {qi: -1}\n", 6, "out of range"),
    ("dead monk off the Cemetery", "monks:\n  red: {alive: false, qi: 0, at: nw}\n", 5,
     "a dead monk lies on the Cemetery"),
    ("unknown raw slot", "slots:\n  \"qj[yellow]\": 1\n", 6, "no state slot 'qj'"),
    ("known top card already in play", "ghosts:\n  red_1: Bleeding Eyes\ndeck:\n  top: [Bleeding Eyes]\n", 8,
     "cannot come next"),
    ("Mantra without the Mantra power", "ghosts:\n  red_1: {card: Bleeding Eyes, mantra: true}\n", 5,
     "Weakening Mantra"),
    ("not a mapping", "- just\n- a list\n", 1, "a scenario is a mapping"),
    # a count the scenario derives out of range (incarnations_left -1 at Initiation): the check that
    # catches it points at the first of its sections the file has, here the discard pile
    ("two incarnations discarded at Initiation", "discard: [Howling Nightmare, Uncatchable]\n", 5,
     "GS-INC-GEN-2"),
]


@pytest.mark.parametrize("name,body,line,words", BAD, ids=[b[0] for b in BAD])
def test_bad_scenario_gives_one_paragraph(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                          body: str, line: int, words: str) -> None:
    text = HEAD + body
    if name == "bad parameter value":
        text = text.replace("players: 4", "players: 5")
    if name == "not a mapping":
        text = body
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["ask", str(path), "legal"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    assert err.startswith(f"error: {path}:{line}: "), err
    assert words in err, err
    with pytest.raises(ScenarioError) as info:
        load(path)
    assert info.value.line == line


def test_bad_question_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(HEAD, encoding="utf-8")
    for words in (["legal", "a", "b"], ["odds", "--outcome"], ["can", "lose"], ["frobnicate"],
                  ["next", "nonsense action"], ["odds", "--outcome", "qi[yellow] >"], ["can", "lose", "within", "x"]):
        assert main(["ask", str(path), *words]) == 2
        _, err = capsys.readouterr()
        assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, (words, err)
    assert main(["ask", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err
