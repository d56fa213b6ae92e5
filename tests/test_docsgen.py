"""The docs generator is game-agnostic: any folder of specs becomes a reference that builds with -W,
and a game that does not load stops the build with its error."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

from docs_build import ROOT  # noqa: E402

TOYS = ROOT / "tests" / "fixtures" / "specs"


def _project(tmp_path: Path, specs: Path) -> Path:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['ghostrules.docsgen']\n"
        f"ghostrules_specs = {str(specs)!r}\n"
        "html_theme = 'basic'\n", encoding="utf-8")
    (src / "index.rst").write_text("Toys\n====\n\nSee :rule:`toy:T-WIN`.\n\n.. toctree::\n\n   reference/index\n",
                                   encoding="utf-8")
    return src


def _build(src: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(src / "_build")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**__import__("os").environ, "GHOSTRULES_DOCS_GAMES": ""})


def test_every_game_folder_gets_a_reference(tmp_path):
    src = _project(tmp_path, TOYS)
    done = _build(src)
    assert done.returncode == 0, done.stdout + done.stderr
    for game in ("toy", "toy_order"):
        page = src / "_build" / "reference" / game / "index.html"
        assert page.is_file(), f"no reference for {game}"
    core = (src / "_build" / "reference" / "toy" / "rules" / "core.html").read_text(encoding="utf-8")
    rule_ids = [line.split(":", 1)[1].strip() for line in (TOYS / "toy" / "rules" / "core.yaml").read_text().splitlines()
                if line.strip().startswith("- id:")]
    assert rule_ids and all(f'id="{r}"' in core for r in rule_ids)


def test_a_game_that_does_not_load_fails_the_build(tmp_path):
    specs = tmp_path / "specs"
    shutil.copytree(TOYS / "toy", specs / "toy")
    rules = specs / "toy" / "rules" / "core.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("- id:", "- idx:", 1), encoding="utf-8")
    done = _build(_project(tmp_path, specs))
    assert done.returncode != 0
    assert "toy" in done.stderr and "does not load" in done.stderr


def test_first_sentence_keeps_parentheses_and_ellipses_whole():
    from ghostrules.docsgen.site import first_sentence
    assert first_sentence("A monk dies during his own turn (e.g. in Yin step 2): does it go on? More.", 200) == \
        "A monk dies during his own turn (e.g. in Yin step 2): does it go on?"
    assert first_sentence("Drip... Drip... Drip...: put the Drip token here. Everyone rolls 1 die fewer.", 200) == \
        "Drip... Drip... Drip...: put the Drip token here"
    assert first_sentence("Tao tokens. If the dice fall short...", 200) == "Tao tokens"


def test_escaped_text_is_never_a_list():
    """Our wording starting like a list item ("(a) No effect.", "b) ...", "iv. ...") stays a paragraph."""
    from docutils.core import publish_doctree
    from docutils import nodes
    from ghostrules.docsgen.rst import Linker, esc
    linker = Linker({"rule": ["GS-EXO-3"]})
    for text in ("(a) No effect.", "(b) The first tile (GS-EXO-3).", "b) two", "a. one", "iv. four", "(12) twelve",
                 "- dash", "#. auto", "1. one"):
        for rendered in (esc(text), linker(text)):
            tree = publish_doctree(rendered, settings_overrides={"report_level": 5})
            assert not list(tree.findall(nodes.enumerated_list)) and not list(tree.findall(nodes.bullet_list)), \
                (text, rendered)
            assert tree.astext().startswith(text.split()[0]), (text, tree.astext())


def test_example_traces_leave_out_the_entries_that_record_values() -> None:
    """An example's "What happens" lists the steps of the game: the entries that record a value (a slot's
    ``set``, a credited local's ``let``, engine.actions.VALUE_KINDS) and pool moves are left out, as
    ``ghostrules play`` leaves them out without --verbose."""
    from types import SimpleNamespace

    from ghostrules.docsgen.examples import _trace

    gp = SimpleNamespace(rule_doc={})
    entries = [("GS-EXO-1", "choose", "blue monk chooses: blue monk tries to exorcise"),
               ("GS-EXO-1", "let", "exorcised = 1"), ("GS-EXO-2", "set", "tray[red] = 1"),
               ("GS-QI-1", "move", "1 qi: supply -> qi[blue]")]
    lines = _trace(gp, entries)  # type: ignore[arg-type]
    assert [x for x in lines if x.startswith("- ")] == ["- GS-EXO-1 blue monk chooses: blue monk tries to exorcise"]
