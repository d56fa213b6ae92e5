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


# the checkout that holds specs/ and proofs/ (a site in the shipped specs is shown relative to it)
CHECKOUT = Path(__file__).resolve().parent.parent.parent


def site_path(where: object, specs_folder: Path | str | None) -> str | None:
    """A spec site as the loader names it (``Where``, or its text ``ghost-stories/rules/x.yaml:12``:
    relative to the specs folder) as ``path:line`` a reader can open: relative to the checkout
    for the shipped specs (``specs/ghost-stories/rules/x.yaml:12``), absolute for specs elsewhere.
    None when ``where`` is not a file and line, or that file is not in ``specs_folder``."""
    file, _, line = str(where).rpartition(":")
    if not file or not line.isdigit() or specs_folder is None:
        return None
    path = (Path(specs_folder) / file).resolve()
    if not path.is_file():
        return None
    return f"{shown_path(path)}:{line}"


def shown_path(path: Path) -> str:
    """A file's path as a header shows it: relative to the checkout when inside it, else absolute."""
    try:
        return str(path.relative_to(CHECKOUT))
    except ValueError:
        return str(path)
