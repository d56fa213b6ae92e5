"""The engine knows no game: no game words in ghostrules/engine, and no Python code in specs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ghostrules

PACKAGE = Path(ghostrules.__file__).resolve().parent
ENGINE = PACKAGE / "engine"
SPECS = PACKAGE.parent / "specs"
GAME_WORDS = re.compile(
    r"ghost|monk|\btao\b|\bqi\b|wu.?feng|village|buddha|haunt|omen|\broom\b|explorer|traitor", re.IGNORECASE)

ENGINE_FILES = sorted(ENGINE.rglob("*.py"))
# Known matches that are not game words (none now; a fixed bug must stay fixed).
KNOWN: dict[str, str] = {}


def game_words(path: Path) -> list[str]:
    hits = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for m in GAME_WORDS.finditer(line):
            hits.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {m.group(0)!r} in {line.strip()!r}")
    return hits


def test_engine_files_found() -> None:
    names = {p.name for p in ENGINE_FILES}
    assert {"__init__.py", "state.py", "game.py", "actions.py", "errors.py"} <= names


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.name, marks=[pytest.mark.xfail(strict=True, reason="BUG: " + KNOWN[p.name])]
                 if p.name in KNOWN else [])
    for p in ENGINE_FILES
])
def test_no_game_words_in_engine(path: Path) -> None:
    assert game_words(path) == []


def test_pattern_catches_game_words() -> None:
    for text in ("Ghost", "the yellow MONK", "tao token", "Qi", "Wu-Feng", "wufeng", "Village", "buddhas", "haunted",
                 "omen", "room", "Explorer", "traitor"):
        assert GAME_WORDS.search(text), text
    for text in ("taoist_x", "qigong", "rooms", "totally"):
        assert not GAME_WORDS.search(text), text


def spec_definitions() -> set[str]:
    """The names of the definitions (named conditions and values) of every game under specs/."""
    from ghostrules.spec import available_games, load_spec
    return {d.name for game in available_games() for d in load_spec(game).definitions}


def spec_names_called(text: str, names: set[str]) -> list[str]:
    """The names of ``names`` written as calls in ``text`` (``occupied(x)``; not ``ins.value(...)``)."""
    return [m.group(1) for m in re.finditer(r"(?<![.\w])([A-Za-z_]\w*)\(", text) if m.group(1) in names]


def test_engine_calls_no_definition_of_a_spec() -> None:
    """A docstring or comment of the engine that shows a spec's own definition as an example (a game's
    ``card_in(x)``) teaches the engine a game; examples there use made-up names."""
    names = spec_definitions()
    assert {"card_in", "occupied", "attack_target"} <= names  # one of each game's, and the pattern finds them
    assert spec_names_called("(``card_in(x)``, ``ins.value(v, L)``, e.g. occupied(x))", names) == \
        ["card_in", "occupied"]
    hits = [f"{p.name}: {name}" for p in ENGINE_FILES
            for name in spec_names_called(p.read_text(encoding="utf-8"), names)]
    assert hits == []


def test_specs_contain_no_python() -> None:
    assert SPECS.is_dir()
    code = [str(p.relative_to(SPECS)) for p in SPECS.rglob("*") if p.suffix in (".py", ".pyc", ".pyw", ".pyx")]
    assert code == []
