"""Run a game's proof files on the cores (behind `ghostrules prove`).

The proof files are of two sorts. Those that read the obligation session (``KINDS`` names the
obligation kinds they read, or they have no ``KINDS``) share one session per process
(``runner.session``): they run one after the other in this process. Those with ``KINDS = ()`` run
their own search (the editions' witnesses, the bounded questions): they need nothing of the
session, so with two or more jobs they run at the same time in one forked child process, the
*second lane*, while this process solves the session with the other jobs.

Nothing is cached between runs: each lane computes its rows from the specs, as the files would
one after the other. Rows come back in the order of the files.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import traceback
from collections.abc import Callable
from typing import Any

# (module, its rows, the seconds it took in its lane)
Ran = tuple[Any, list[dict[str, Any]], float]


def independent(module: Any) -> bool:
    """Does the proof file run its own search (``KINDS = ()``), reading nothing of the session?"""
    kinds = getattr(module, "KINDS", None)
    return kinds is not None and len(tuple(kinds)) == 0


def _run_all(modules: list[Any], options: dict[str, Any]) -> list[tuple[list[dict[str, Any]], float]]:
    out = []
    for module in modules:
        start = time.perf_counter()
        rows = module.run(options)
        out.append((rows, time.perf_counter() - start))
    return out


def _child(modules: list[Any], options: dict[str, Any], conn: Any) -> None:
    try:
        conn.send(("ok", _run_all(modules, options)))
    except BaseException:  # noqa: BLE001 - reported by the parent, which raises
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def run_files(modules: list[Any], options: dict[str, Any], jobs: int | None = None,
              progress: Callable[[Any, list[dict[str, Any]], float], None] | None = None) -> list[Ran]:
    """Run the proof files with ``jobs`` processes (default: up to 2) and return, in the files'
    order, each file's rows and seconds. With one job (or where fork is not available), or when
    one sort of file is missing, they run one after the other in this process. Otherwise the
    independent files run in a child process while this one runs the session's files with
    ``jobs - 1`` worker processes (``options["jobs"]``). ``progress`` is called per file as its
    rows are known (the second lane's files when that lane ends)."""
    jobs = jobs or min(2, os.cpu_count() or 1)
    second = [m for m in modules if independent(m)]
    first = [m for m in modules if not independent(m)]
    results: dict[int, tuple[list[dict[str, Any]], float]] = {}
    if jobs < 2 or not second or not first or not hasattr(os, "fork"):
        for module in modules:
            rows, seconds = _run_all([module], options)[0]
            results[id(module)] = (rows, seconds)
            if progress:
                progress(module, rows, seconds)
        return [(m, *results[id(m)]) for m in modules]
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(second, dict(options), send), name="ghostrules-prove-lane")
    child.start()
    send.close()
    try:
        session_options = dict(options, jobs=max(1, jobs - 1))
        for module in first:
            rows, seconds = _run_all([module], session_options)[0]
            results[id(module)] = (rows, seconds)
            if progress:
                progress(module, rows, seconds)
        status, payload = receive.recv()
    except BaseException:
        child.terminate()  # this lane failed or was interrupted: the other's rows are not wanted
        raise
    finally:
        child.join()
        receive.close()
    if status != "ok":
        raise RuntimeError(f"the proof files {[m.__name__ for m in second]} failed in their process:\n{payload}")
    for module, (rows, seconds) in zip(second, payload):
        results[id(module)] = (rows, seconds)
        if progress:
            progress(module, rows, seconds)
    return [(m, *results[id(m)]) for m in modules]
