"""The files ``ghostrules prove --out DIR`` writes, and their removal once a later run proves what
they showed (a counterexample of an obligation now proved, a witness of a question now answered
"impossible" must not stay in DIR looking current).

A file is the prover's only if it has the name the prover gives it AND starts with the header line
the prover writes for it; any other file of DIR is never touched."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable


def head(path: Path, lines: int = 2) -> list[str]:
    """The first ``lines`` lines of a text file, without their line ends ([] if it cannot be read)."""
    out: list[str] = []
    try:
        with path.open(encoding="utf-8") as f:
            for line in f:
                out.append(line.rstrip("\r\n"))
                if len(out) >= lines:
                    break
    except (OSError, UnicodeDecodeError):
        return []
    return out


def remove_owned(path: Path, owns: Callable[[list[str]], bool], companions: Iterable[Path] = ()) -> list[str]:
    """Remove ``path`` if it is a regular file whose first lines ``owns`` accepts (the header the
    prover wrote), with those of its ``companions`` that exist (files written beside it, e.g. a
    witness's actions); returns the paths removed (none when the header does not match)."""
    if path.is_symlink() or not path.is_file() or not owns(head(path)):
        return []
    removed = []
    for p in (path, *companions):
        if p.is_file() and not p.is_symlink():
            p.unlink()
            removed.append(str(p))
    return removed
