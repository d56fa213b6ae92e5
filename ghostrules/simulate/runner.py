"""Many seeded games, on local worker processes or a Dask cluster, with the same results either way.

Game ``i`` of a run with seed ``S`` is played with its own seed ``game_seed(S, i)`` (a hash of both),
which drives its chance outcomes and its policy's tie-breaks. Which worker plays which game, and in
which order, therefore changes nothing: ``--workers 1`` and ``--workers 8`` give the same rows.
Games are sent to workers in chunks, so that each worker compiles the spec once (about a second)
and then plays many games.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import attrs

from .. import load_game
from ..engine import Game, IllegalActionError, SpecRuntimeError, State
from ..engine.game import play
from ..spec.model import EndStmt
from ..spec.render import iter_statements
from .policy import load_policy
from .stats import summarise

Progress = Callable[[int], None]
EXECUTORS = ("local", "dask")
BASE_COLUMNS = ("game", "seed", "result", "rule", "reason", "turns", "actions", "decisions", "score")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed``: independent of workers and chunks."""
    digest = hashlib.sha256(f"ghostrules.simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def count_turns(state: State) -> int:
    """Turns played, counted as ``ghostrules play`` counts them: the log's section headers ('--- ...')."""
    return sum(1 for e in state.log() if e.kind == "say" and e.text.startswith("---"))


@attrs.frozen
class Job:
    """What every game of a run shares: the game, its parameters, the policy and the run's seed."""

    game: str
    parameters: tuple[tuple[str, Any], ...]
    policy: str
    seed: int
    max_actions: int = 100_000


_loaded: dict[Job, tuple[Any, Any]] = {}


def _prepared(job: Job) -> tuple[Any, Any]:
    key = attrs.evolve(job, seed=0)
    if key not in _loaded:
        _loaded[key] = (load_game(job.game, **dict(job.parameters)), load_policy(job.game, job.policy))
    return _loaded[key]


def play_game(job: Job, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``job`` and return its row (a flat dict; see ``BASE_COLUMNS``)."""
    game, policy = _prepared(job)
    seed = game_seed(job.seed, index)
    row: dict[str, Any] = {"game": index, "seed": seed}
    try:
        state = play(game, seed=seed, policy=policy, tracing=True, max_actions=job.max_actions)
    except (SpecRuntimeError, IllegalActionError) as exc:
        # a game the engine cannot finish is reported, not hidden, and does not stop the others
        row.update(result="error", rule=getattr(exc, "rule_id", "") or "", reason=" ".join(str(exc).split()),
                   turns=0, actions=0, decisions=0, score=0)
        return row
    outcome = state.outcome()
    assert outcome is not None
    history = state.history()
    score = state.score()
    row.update(result=outcome.result, rule=outcome.rule_id, reason=outcome.text, turns=count_turns(state),
               actions=len(history), decisions=sum(1 for a in history if a.kind == "choose"), score=score.total)
    for label, _rule, points in score.lines:
        row[f"score:{label}"] = points
    return row


def play_chunk(job: Job, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play some games of ``job`` in this process (the unit of work sent to a worker)."""
    return [play_game(job, i) for i in indices]


def chunks(games: int, workers: int, per_worker: int = 4) -> list[list[int]]:
    """Game indices cut into about ``per_worker`` chunks per worker, for balance and few spec loads."""
    size = max(1, math.ceil(games / max(1, workers * per_worker)))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


def _run_local(job: Job, games: int, workers: int, progress: Progress | None) -> list[dict[str, Any]]:
    if workers <= 1:
        rows = []
        for i in range(games):
            rows.append(play_game(job, i))
            if progress:
                progress(1)
        return rows
    # spawn: each worker starts a fresh interpreter, safe on every platform and with threads around
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(play_chunk, job, c) for c in chunks(games, workers)]
        rows = _collect(as_completed(futures), progress)
    return rows


def _collect(finished: Any, progress: Progress | None) -> list[dict[str, Any]]:
    """The rows of the chunks as their futures finish (any executor's), the progress told as they come."""
    rows: list[dict[str, Any]] = []
    for future in finished:
        done = future.result()
        rows += done
        if progress:
            progress(len(done))
    return rows


def _run_dask(job: Job, games: int, workers: int, progress: Progress | None, scheduler: str | None,
              client: Any = None) -> list[dict[str, Any]]:
    try:
        from distributed import Client, LocalCluster
        from distributed import as_completed as dask_completed
    except ImportError:  # pragma: no cover - depends on the installation
        raise ValueError("the dask executor needs dask.distributed: pip install 'ghostrules[dask]'") from None
    own_cluster = own_client = None
    try:
        if client is None:
            if scheduler:
                client = own_client = Client(scheduler)
            else:
                own_cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
                client = own_client = Client(own_cluster)
        n_workers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        futures = [client.submit(play_chunk, job, c, pure=False) for c in chunks(games, n_workers)]
        return _collect(dask_completed(futures), progress)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()


@attrs.define
class Simulation:
    """The rows of a run (one per game, in game order) and their summary."""

    job: Job
    settings: dict[str, Any]
    rows: list[dict[str, Any]]
    summary: dict[str, Any]

    def columns(self) -> list[str]:
        extra: list[str] = []
        for row in self.rows:
            extra += [k for k in row if k not in BASE_COLUMNS and k not in extra]
        return list(BASE_COLUMNS) + extra

    def write_csv(self, path: str | Path) -> None:
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=self.columns(), restval="")
            writer.writeheader()
            writer.writerows(self.rows)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.job.game, "settings": self.settings, "policy": self.job.policy, "seed": self.job.seed,
                "summary": self.summary}

    def write_json(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def default_workers() -> int:
    return os.cpu_count() or 1


def simulate(game: str, games: int, parameters: dict[str, Any] | None = None, policy: str = "random",
             seed: int = 0, workers: int | None = None, executor: str = "local", scheduler: str | None = None,
             progress: Progress | None = None, win: str | None = None, client: Any = None,
             max_actions: int = 100_000) -> Simulation:
    """Play ``games`` seeded games of ``game`` and summarise them.

    ``policy`` is ``random``, ``heuristic`` (``specs/<game>/policy.yaml``) or a policy file's path;
    ``workers`` defaults to every core; ``executor`` is ``local`` (worker processes) or ``dask``
    (``scheduler`` address, or a local cluster; or an existing ``client``). The rows and the
    summary depend only on the game, its parameters, the policy, ``seed`` and ``games``.

    ``win`` is the result counted as a win: one the game's rules can end with (another is a
    ValueError listing them); by default ``win`` when the game has that result, else no win line
    (every result is listed with its rate)."""
    if games < 0:
        raise ValueError("the number of games must be 0 or more")
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; one of {', '.join(EXECUTORS)}")
    params = dict(parameters or {})
    # load here first: a bad parameter or policy file is reported once, before any worker starts
    loaded = load_game(game, **params)
    win = win_result(loaded, win)
    load_policy(game, policy)
    job = Job(game, tuple(sorted(params.items())), policy, seed, max_actions)
    workers = default_workers() if workers is None else max(1, workers)
    workers = min(workers, max(1, games))
    if executor == "dask":
        rows = _run_dask(job, games, workers, progress, scheduler, client)
    else:
        rows = _run_local(job, games, workers, progress)
    rows.sort(key=lambda r: r["game"])
    return Simulation(job, dict(loaded.spec.settings), rows, summarise(rows, win))


def win_result(game: Game, asked: str | None) -> str | None:
    """The result counted as a win: ``asked``, which must be one that the game's rules can end with;
    without it ``win`` when the game has that result, else None (no win line, every result listed)."""
    results = sorted({s.result for r in game.spec.rules for s in iter_statements(r.body) if isinstance(s, EndStmt)})
    if asked is None:
        return "win" if "win" in results else None
    if asked not in results:
        raise ValueError(f"{game.spec.name} has no result {asked!r} for --win; its results: {', '.join(results) or 'none'}")
    return asked


def seeds(seed: int, games: int) -> Iterable[int]:
    """The per-game seeds of a run, in game order."""
    return (game_seed(seed, i) for i in range(games))
