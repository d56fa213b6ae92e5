"""The generated part of the docs: where each page goes, the anchor index, writing files.

Pages are reST files under ``docs/reference/`` (generated at every build, never edited by hand).
Every rule ID, difference (ED-n) and open question (OQ-n) gets an anchor whose HTML id is the ID
itself, registered here so that the roles ``:rule:``, ``:ed:`` and ``:oq:`` can link to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import attrs

from ..spec import words
from .catalog import GameDocs
from .links import Links
from .rst import Linker

REFERENCE = "reference"


@attrs.define
class Anchor:
    game: str
    docname: str
    anchor: str
    title: str = ""


@attrs.define
class Index:
    """Anchors by (kind, game, ID); kinds are rule, ed, oq."""

    anchors: dict[tuple[str, str, str], Anchor] = attrs.Factory(dict)

    def add(self, kind: str, game: str, ident: str, docname: str, title: str = "") -> None:
        self.anchors[(kind, game, ident)] = Anchor(game, docname, ident, title)

    def find(self, kind: str, ident: str, game: str | None) -> list[Anchor]:
        if ":" in ident:
            game, ident = ident.split(":", 1)
        if game is not None and (kind, game, ident) in self.anchors:
            return [self.anchors[(kind, game, ident)]]
        return [a for (k, g, i), a in self.anchors.items() if k == kind and i == ident]


@attrs.define
class GamePages:
    """One game's documents and the helpers its pages share."""

    docs: GameDocs
    links: Links
    linker: Linker
    rule_doc: dict[str, str]  # rule ID -> docname

    @property
    def name(self) -> str:
        return self.docs.name

    def doc(self, page: str) -> str:
        return f"{REFERENCE}/{self.name}/{page}"


class Output:
    """Writes generated files only when their content changed, and removes stale ones."""

    def __init__(self, srcdir: Path) -> None:
        self.srcdir = srcdir
        self.root = srcdir / REFERENCE
        self.written: set[Path] = set()

    def path(self, docname: str, suffix: str = ".rst") -> Path:
        return self.srcdir / f"{docname}{suffix}"

    def write(self, docname: str, lines: list[str] | str, suffix: str = ".rst") -> Path:
        path = self.path(docname, suffix)
        text = lines if isinstance(lines, str) else "\n".join(lines).rstrip() + "\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        self.written.add(path.resolve())
        return path

    def clean(self) -> None:
        if not self.root.is_dir():
            return
        for path in sorted(self.root.rglob("*"), reverse=True):
            if path.is_file() and path.resolve() not in self.written:
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()


UriFn = Callable[[str, str], str]


def no_uri(from_doc: str, to_doc: str) -> str:  # pragma: no cover - builders without pages
    return ""


def first_sentence(text: str, limit: int = 72) -> str:
    """A title or table cell for a rule or question: its first sentence (spec/words.py) without
    its full stop, shortened to ``limit`` characters with an ellipsis."""
    return words.shorten(words.first_sentence(text).rstrip("."), limit, strip=" ,;:")


def slug(text: str) -> str:
    import re
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def settings_label(settings: Any) -> str:
    return ", ".join(f"{k}={v}" for k, v in dict(settings).items())
