"""Build the HTML docs once per test session, for the docs tests (tests/test_docs_*.py).

``GHOSTRULES_DOCS_HTML=path`` reuses a build made just before (CI builds the docs with -W first);
otherwise the docs are built with ``sphinx-build -W`` into a temporary folder.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SPECS = ROOT / "specs"


@functools.lru_cache(maxsize=None)
def built_html() -> Path:
    """The folder of a complete HTML build of docs/ (built once per session)."""
    reuse = os.environ.get("GHOSTRULES_DOCS_HTML")
    if reuse:
        path = Path(reuse) if Path(reuse).is_absolute() else ROOT / reuse
        if not (path / "index.html").is_file():
            raise AssertionError(f"GHOSTRULES_DOCS_HTML={reuse}: no index.html there")
        return path
    out = Path(tempfile.mkdtemp(prefix="ghostrules-docs-"))
    cmd = [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", "-d", str(out / "doctrees"), str(DOCS),
           str(out / "html")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=ROOT)
    if done.returncode != 0:
        raise AssertionError(f"sphinx-build failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return out / "html"


def documented_games() -> list[str]:
    """The games the reference documents: every folder of specs/ with a game.yaml (or those named by
    GHOSTRULES_DOCS_GAMES, as for the build)."""
    games = sorted(p.name for p in SPECS.iterdir() if (p / "game.yaml").is_file())
    wanted = [g.strip() for g in os.environ.get("GHOSTRULES_DOCS_GAMES", "").split(",") if g.strip()]
    return [g for g in games if g in wanted] if wanted else games
