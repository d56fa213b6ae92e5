"""The test run keeps to itself: the code cache it writes (engine/codecache.py) is a directory of its
own (tests/conftest.py), never the user's (``~/.cache/ghostrules`` or ``$XDG_CACHE_HOME/ghostrules``),
in this process and in the processes the tests start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ghostrules.engine import codecache


def _users_cache() -> Path:
    """Where the cache would be without the test run's setting (codecache.cache_dir's own rule)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return (Path(base) / "ghostrules").resolve()


def _outside_users_cache(where: str | None) -> bool:
    return where in (None, "None") or not Path(where).resolve().is_relative_to(_users_cache())


def test_the_code_cache_of_a_test_run_is_not_the_users() -> None:
    where = codecache.cache_dir()  # (None when GHOSTRULES_NO_CACHE turns the cache off: nothing is written)
    assert _outside_users_cache(None if where is None else str(where)), where


def test_the_processes_tests_start_use_the_test_runs_cache_too() -> None:
    code = "from ghostrules.engine import codecache; print(codecache.cache_dir())"
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    where = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                           check=True).stdout.strip()
    assert _outside_users_cache(where) and where == str(codecache.cache_dir()), where
