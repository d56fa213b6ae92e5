"""Copies of the toy game's spec (tests/fixtures/specs/toy) with edits, for tests of what a changed
spec does."""

from __future__ import annotations

import shutil
from pathlib import Path

TOY = Path(__file__).parent / "fixtures" / "specs" / "toy"


def toy_copy(tmp_path: Path, *edits: tuple[str, str, str]) -> Path:
    """A fresh copy of the toy spec under ``tmp_path / "specs"`` (any earlier copy there replaced)
    with each edit ``(file, old, new)`` applied in order: ``file`` relative to the toy's folder,
    ``old`` found exactly once in it (else the test fails here), replaced by ``new``. Returns the
    specs root, for ``load_spec("toy", root=...)``."""
    root = tmp_path / "specs"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(TOY, root / "toy")
    for file, old, new in edits:
        path = root / "toy" / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    return root
