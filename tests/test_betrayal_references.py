"""Every rule ID a game's texts cite resolves: to a rule, an open question (OQ-*, BH-OPEN-*) or an
edition difference (ED-*), or names a family of them (``BH-MOVE``, ``BH-CARD-*``, ``H1-*``).

Written for Betrayal (its texts cite BH-*, BX-*, BT-*, BC-*, H1-*, H2-* and BH-OPEN-*), and run for
every game folder under specs/: the texts are every YAML, CSV and Markdown file of the game's folder,
its docs data (docs/games/<game>.yaml) and its scenario files (docs/examples/*.yaml, tests/scenarios/).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import ghostrules

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
GAMES = sorted(p.name for p in SPECS.iterdir() if (p / "game.yaml").is_file())


def defined_ids(game: str) -> set[str]:
    folder = SPECS / game
    ids = {r.id for r in ghostrules.load_game(game).spec.rules}
    oq = folder / "open_questions.yaml"
    if oq.is_file():
        ids |= {str(q["id"]) for q in yaml.safe_load(oq.read_text(encoding="utf-8"))["open_questions"]}
    diff = folder / "editions" / "differences.yaml"
    if diff.is_file():
        for value in (yaml.safe_load(diff.read_text(encoding="utf-8")) or {}).values():
            if isinstance(value, list):
                ids |= {str(x["id"]) for x in value if isinstance(x, dict) and "id" in x}
    return ids


def texts(game: str) -> list[Path]:
    files = [p for p in sorted((SPECS / game).rglob("*")) if p.suffix in (".yaml", ".csv", ".md") and p.is_file()]
    docs = ROOT / "docs" / "games" / f"{game}.yaml"
    if docs.is_file():
        files.append(docs)
    for path in sorted((ROOT / "docs" / "examples").glob("*.yaml")) + sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        head = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(head, dict) and head.get("game") == game:
            files.append(path)
    return files


def dangling(game: str) -> dict[str, list[str]]:
    ids = defined_ids(game)
    prefixes = sorted({i.split("-")[0] for i in ids}, key=len, reverse=True)
    pattern = re.compile(r"(?<![A-Za-z0-9-])((?:%s)(?:-[A-Z0-9]+[a-z]?)+)" % "|".join(map(re.escape, prefixes)))
    out: dict[str, list[str]] = {}
    for path in texts(game):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in pattern.finditer(line):
                cited = m.group(1)
                if cited in ids or any(i.startswith(cited + "-") for i in ids):
                    continue
                out.setdefault(cited, []).append(f"{path}:{n}")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_cited_rule_id_resolves(game: str) -> None:
    assert dangling(game) == {}


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_names_open_questions_that_exist(game: str) -> None:
    """A rule's open_questions: list is shown in the docs; each entry must be in open_questions.yaml."""
    path = SPECS / game / "open_questions.yaml"
    known = ({str(q["id"]) for q in yaml.safe_load(path.read_text(encoding="utf-8"))["open_questions"]}
             if path.is_file() else set())
    bad = {r.id: [x for x in r.open_questions if x not in known] for r in ghostrules.load_game(game).spec.rules}
    assert {k: v for k, v in bad.items() if v} == {}


def test_betrayal_open_questions_are_decisions() -> None:
    """The digest's BH-OPEN-1..35, then our own (36 on, raised by audits) numbered on without gaps, each
    with its question, its natural reading and our decision."""
    doc = yaml.safe_load((SPECS / "betrayal" / "open_questions.yaml").read_text(encoding="utf-8"))
    entries = {str(q["id"]): q for q in doc["open_questions"]}
    assert len(entries) >= 35
    assert sorted(entries, key=lambda i: int(i.rsplit("-", 1)[1])) == \
        [f"BH-OPEN-{n}" for n in range(1, len(entries) + 1)]
    for ident, q in entries.items():
        assert q.get("question") and q.get("natural_reading") and q.get("decision"), ident


def test_the_check_catches_a_dangling_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "note.md"
    bad.write_text("see BH-OPEN-99 and BX-NOPE-1, but BH-MOVE-1 and BH-CARD-* resolve\n", encoding="utf-8")
    monkeypatch.setattr(__import__(__name__), "texts", lambda game: [bad])
    found = dangling("betrayal")
    assert set(found) == {"BH-OPEN-99", "BX-NOPE-1"}
