"""The one place that cuts a rule's text (ghostrules/spec/words.py): the first sentence of a text,
and a text shortened to a width; and its users (command line, docs titles, ``ask`` citations, the
engine's and the prover's "which rule first" menus) cut a title like "Drip... Drip... Drip..." or an
abbreviation like "e.g." no longer."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ghostrules import Game, load_spec
from ghostrules.cli import main
from ghostrules.docsgen.site import first_sentence as docs_title
from ghostrules.prover.bounded import Question
from ghostrules.prover.witness import answer
from ghostrules.query.explain import citation_line
from ghostrules.spec.words import first_sentence, menu_lead, shorten, split_first_sentence

FIXTURES = Path(__file__).parent / "fixtures" / "specs"
DRIP = "Drip... Drip... Drip...: put the Drip token here. Everyone rolls 1 die fewer on trait rolls in this room."
QI = "A monk may knowingly spend his last Qi, e.g. on the Sorcerer's Hut, and so die. Both examples show it."


@pytest.mark.parametrize(("text", "first"), [
    ("One. Two.", "One."),
    ("One!  Two?", "One!"),
    ("Is it? Yes.", "Is it?"),
    ("No stop at all", "No stop at all"),
    ("", ""),
    ("  Spaces\n and\tlines.  Next.", "Spaces and lines."),
    (DRIP, "Drip... Drip... Drip...: put the Drip token here."),
    ("Drip\u2026 Drip\u2026 Drip\u2026: a title with the ellipsis character. Next.",
     "Drip\u2026 Drip\u2026 Drip\u2026: a title with the ellipsis character."),
    ("Drip... Drip... Drip...", "Drip... Drip... Drip..."),
    (QI, "A monk may knowingly spend his last Qi, e.g. on the Sorcerer's Hut, and so die."),
    ("Take a tile, e.g. Tea House, then stop. Next.", "Take a tile, e.g. Tea House, then stop."),
    ("It is so (i.e. Here. There) now. Next.", "It is so (i.e. Here. There) now."),
    ("See p. 12 of the rulebook. Next.", "See p. 12 of the rulebook."),
    ("When What The...? moves a room, does it turn? Next.", "When What The...? moves a room, does it turn?"),
    ("It ends in 1.5 dice. Next.", "It ends in 1.5 dice."),
    ("Cards, tokens etc. Then the rest.", "Cards, tokens etc."),  # (etc. may end a sentence)
])
def test_first_sentence(text: str, first: str) -> None:
    assert first_sentence(text) == first


def test_split_first_sentence_gives_the_rest() -> None:
    assert split_first_sentence(DRIP) == ("Drip... Drip... Drip...: put the Drip token here.",
                                          "Everyone rolls 1 die fewer on trait rolls in this room.")
    assert split_first_sentence("Only one.") == ("Only one.", "")


def test_shorten() -> None:
    assert shorten("short", 5) == "short"
    assert shorten("a longer text", 8) == "a longe\u2026"
    assert shorten("a longer text", 9, marker="...") == "a long..."
    assert shorten("one two three", 9, strip=" ,") == "one two\u2026"  # (the space before the marker goes)
    assert shorten("abc def", 4, marker="", strip="") == "abc "
    assert len(shorten("x" * 100, 10)) == 10
    with pytest.raises(ValueError, match="no room"):
        shorten("text", 2, marker="...")


def test_menu_lead_keeps_the_labels_as_they_were_where_they_were_right() -> None:
    assert menu_lead("Move one space. Then attack.") == "Move one space"
    assert menu_lead("Move one space.") == "Move one space."  # the whole text keeps its stop
    assert menu_lead("x" * 70 + ". More.") == "x" * 60
    assert menu_lead(DRIP) == "Drip... Drip... Drip...: put the Drip token here"
    assert menu_lead(QI) == "A monk may knowingly spend his last Qi, e.g. on the Sorcerer"


def test_users_cut_titles_and_abbreviations_no_longer() -> None:
    assert docs_title(DRIP, 80) == "Drip... Drip... Drip...: put the Drip token here"
    assert docs_title(QI, 120) == "A monk may knowingly spend his last Qi, e.g. on the Sorcerer's Hut, and so die"
    assert docs_title(QI, 30) == "A monk may knowingly spend hi\u2026"  # (a hard cut, as ever)
    line = citation_line({"id": "X-1", "text": DRIP, "sources": []})
    assert line == ["  X-1: Drip... Drip... Drip...: put the Drip token here."]
    assert citation_line({"id": "X-2", "text": QI, "sources": []})[0].endswith("e.g. on the Sorcerer's Hut, and so die.")


def test_rules_list_shows_whole_first_sentences(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list", "--game", "betrayal"]) == 0
    assert "Drip... Drip... Drip...: put the Drip token here." in capsys.readouterr().out
    assert main(["rules", "list", "--game", "ghost-stories"]) == 0
    assert "his last Qi, e.g. on the Sorcerer's Hut, and so die." in capsys.readouterr().out


def _toy_order(tmp_path: Path) -> Game:
    """The toy of a player's choice of which rule resolves first, its rule O-A's text starting with a title."""
    root = tmp_path / "specs"
    shutil.copytree(FIXTURES / "toy_order", root / "toy_order")
    core = root / "toy_order" / "rules" / "core.yaml"
    core.write_text(core.read_text(encoding="utf-8").replace(
        "text: Rule A notes the time.", 'text: "Drip... Drip...: rule A notes the time, e.g. Noon. Then B."'),
        encoding="utf-8")
    return Game(load_spec("toy_order", root=root))


LEAD = "O-A first (Drip... Drip...: rule A notes the time, e.g. Noon)"


def test_the_engines_menu_shows_a_title_whole(tmp_path: Path) -> None:
    labels = [a.label for a in _toy_order(tmp_path).new_initial_state().legal_actions()]
    assert labels[0] == LEAD and labels[1] == "O-B first (Rule B notes the time.)"


def test_the_provers_menu_agrees_with_the_engines(tmp_path: Path) -> None:
    game = _toy_order(tmp_path)
    goal = "log_a == 1"
    got = answer(game, game.layout.initial_values(), "turn", game.state_at("turn"),
                 Question(text=goal, goal=goal, turn="active", turns=1))
    assert got.status == "witness" and got.actions[0] == LEAD
