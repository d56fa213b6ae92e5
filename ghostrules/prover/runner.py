"""Run the proof obligations of a game's configurations and report them (behind `ghostrules prove`).

One obligation is solved in solving.py; the termination row is in termination.py, counterexample
scenario files in counterexamples.py.

Speed comes from these things:

- each obligation is solved with only the facts it can use, and an invariant obligation is first
  proved for one instance of its invariant (solving.py);
- the obligations of a rule depend only on what the rule reads (its fingerprint, see
  ``LocalProver.fingerprint``): a rule whose fingerprint was proved in another configuration is
  not walked nor solved again, its results are reused;
- the distinct rules are dealt out one by one to worker processes (forked after every
  configuration was loaded and fingerprinted), so that the few slow rules do not hold one worker;
- definitions encoded over the pre-state are shared between configurations that read the same
  things (``symbolic.Encoder.define_key``), so walking a rule in a new configuration is cheap;
- a failed obligation keeps the solver's first model; only the failures a report shows are made
  plausible positions (``refine``: z3.Optimize toward a set-up position, for the scenario file).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..engine.layout import Layout
from ..spec import model as M
from ..spec.model import GameSpec

# re-exported: the proof files and the tests import these from here
from .counterexamples import counterexample_state, remove_proved, write_scenario  # noqa: F401
from .local import LocalProver, Obligation
from .solving import (  # noqa: F401
    ENFORCED,
    KINDS,
    RETRY_FACTOR,
    Facts,
    Result,
    Solved,
    passed,
    prove,
    readable_model,
    record,
    set_up_values,
    solve,
    summary,
)
from .termination import _is_node, _walk, call_cycles, call_graph, termination_row  # noqa: F401


@contextmanager
def _yaml_memo() -> Iterator[None]:
    """Parse each spec file once while many configurations of a game are loaded (the loader only
    reads the parsed documents). The cache key includes the modification time."""
    from ..spec import loader
    original = loader.load_yaml_file
    memo: dict[tuple[str, float, str], Any] = {}

    def cached(path: Path, root: Path | None = None) -> Any:
        key = (str(path), path.stat().st_mtime, str(root))
        if key not in memo:
            memo[key] = original(path, root)
        return memo[key]

    loader.load_yaml_file = cached  # type: ignore[assignment]
    try:
        yield
    finally:
        loader.load_yaml_file = original  # type: ignore[assignment]


def configurations(game: str, root: Path | None = None, everything: bool = True) -> list[dict[str, Any]]:
    """Every configuration of the game (or just the defaults)."""
    from ..spec.loader import configurations as all_configurations
    return all_configurations(game, root) if everything else [{}]


def label(spec: GameSpec, order: Iterable[str] | None = None) -> str:
    settings = dict(spec.settings)
    names = list(order) if order else [p.name for p in spec.parameters]
    return " ".join(f"{k}={settings[k]}" for k in names if k in settings)


def initial_records(prover: LocalProver) -> list[dict[str, Any]]:
    """The initial state (every slot at its declared initial value) is within the ranges and
    satisfies every invariant: the base case of the induction."""
    from .symbolic import concrete, evaluate
    layout = prover.layout
    init = layout.initial_values()
    out = []
    bad = [layout.name_of(i) for i, v in enumerate(init)
           if not layout.slots[layout.owner[i][0]].var.lo <= v <= layout.slots[layout.owner[i][0]].var.hi]
    out.append({"kind": "initial", "rule": "", "where": "game.yaml state", "text": "every slot starts in its range",
                "procedure": "", "status": "failed" if bad else "proved", "seconds": 0.0,
                "counterexample": {b: "out of range" for b in bad}, "values": None, "call": None})
    for inv in prover.spec.invariants:
        start = time.perf_counter()
        holds = evaluate(prover.enc.as_bool(prover.enc.encode(inv.holds, concrete(init), {})[0]))
        out.append({"kind": "initial", "rule": inv.rule, "where": str(inv.where), "invariant": inv.id,
                    "text": f"{inv.id} ({inv.text}) holds initially", "procedure": "",
                    "status": "proved" if holds is True else "failed", "seconds": time.perf_counter() - start,
                    "counterexample": {}, "values": None, "call": None})
    return out


_LOADED: dict[Any, tuple[GameSpec, LocalProver]] = {}


def _config_key(game: str, root: str | None, params: dict[str, Any]) -> Any:
    return (game, root, tuple(sorted((k, repr(v)) for k, v in params.items())))


def _loaded(game: str, root: str | None, params: dict[str, Any]) -> tuple[GameSpec, LocalProver]:
    """The spec and prover of a configuration, loaded once per process (worker processes are
    forked after the main process loaded every configuration, and find them here)."""
    key = _config_key(game, root, params)
    if key not in _LOADED:
        from ..spec import load_spec
        spec = load_spec(game, root=Path(root) if root else None, **params)
        _LOADED[key] = (spec, LocalProver(spec, Layout(spec)))
    return _LOADED[key]


def _load_all(game: str, root: str | None, configs: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Any, Any]]:
    """(parameters, spec, prover) of each configuration, the spec files parsed once."""
    out = []
    with _yaml_memo():
        for params in configs:
            spec, prover = _loaded(game, root, params)
            out.append((params, spec, prover))
    return out


def _facts(prover: LocalProver) -> Facts:
    facts = getattr(prover, "_facts", None)
    if facts is None:
        facts = prover._facts = Facts(prover)  # type: ignore[attr-defined]
    return facts


def _prove_rules(game: str, root: str | None, work: list[tuple[dict[str, Any], list[str]]], timeout_ms: int,
                 kinds: frozenset[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Records by fingerprint for the given rules: (configuration parameters, rule IDs) pairs,
    only the obligations of ``kinds`` (None: every kind) solved.
    A failure keeps the solver's first model; ``refine`` makes it readable if a report shows it."""
    out: dict[str, list[dict[str, Any]]] = {}
    solved = _SOLVED
    loaded = _load_all(game, root, [params for params, _ in work])
    for (params, ids), (_, spec, prover) in zip(work, loaded):
        wanted = set(ids)
        for position, rule in enumerate(spec.rules):
            if rule.kind in ("procedure", "trigger") and rule.id in wanted:
                key = prover.fingerprint(rule)
                if key in out:
                    continue
                records = []
                for index, ob in enumerate(prover.walk_rule(rule)):
                    if kinds is not None and ob.kind not in kinds:
                        continue
                    result = solve(prover, _facts(prover), ob, timeout_ms, solved, readable=False)
                    rec = record(result)
                    if result.raw:
                        rec["refine"] = {"game": game, "root": root, "params": dict(params), "rule": position,
                                         "index": index, "timeout_ms": timeout_ms}
                    records.append(rec)
                out[key] = records
    return out


# answers by formula, shared by the tasks a process runs (see Solved); emptied by prove_configurations
_SOLVED = Solved()


def _prove_task(task: tuple[str, str | None, list[tuple[dict[str, Any], list[str]]], int, frozenset[str] | None]
                ) -> dict[str, list[dict[str, Any]]]:
    return _prove_rules(*task)


_WALKED: dict[Any, list[Obligation]] = {}


def refine(rec: dict[str, Any]) -> None:
    """Make a failed record's counterexample a plausible position (see ``solve``), in place: the
    obligation is built again in its configuration and solved with ``readable``. Records are
    shared by the configurations with the same fingerprint, so this runs once per record."""
    info = rec.pop("refine", None)
    if not info:
        return
    try:
        spec, prover = _loaded(info["game"], info["root"], info["params"])
        wkey = (_config_key(info["game"], info["root"], info["params"]), info["rule"])
        if wkey not in _WALKED:
            _WALKED[wkey] = prover.walk_rule(spec.rules[info["rule"]])
        ob = _WALKED[wkey][info["index"]]
        result = solve(prover, _facts(prover), ob, info["timeout_ms"])
    except Exception:  # noqa: BLE001 - keep the first model
        return
    if result.status == "failed":
        rec.update(counterexample=result.counterexample, values=result.values, call=result.call)


def prove_configurations(game: str, root: Path | None = None, everything: bool = True, timeout_ms: int = 5000,
                         jobs: int | None = None, kinds: Iterable[str] | None = None
                         ) -> list[tuple[str, float, list[dict[str, Any]]]]:
    """(configuration label, seconds, result records) for every configuration of a game; with
    ``kinds``, only the obligations of those kinds are solved (the proof files that run need no
    other).

    Every configuration is loaded (the spec files parsed once) and each rule fingerprinted; the
    distinct fingerprints (a rule as one configuration reads it) are then proved once, spread over
    ``jobs`` worker processes, and every configuration gets the results of its rules."""
    start = time.perf_counter()
    configs = configurations(game, root, everything)
    rootstr = str(root) if root else None
    _LOADED.clear()  # the spec files may have changed since an earlier call
    _WALKED.clear()
    _SOLVED.answers.clear()
    loaded = _load_all(game, rootstr, configs)
    first_seen: dict[str, tuple[int, str]] = {}
    per_config: list[list[str]] = []
    initial: dict[str, list[dict[str, Any]]] = {}
    for i, (params, spec, prover) in enumerate(loaded):
        keys = []
        ikey = "initial " + prover._global_digest()
        if ikey not in initial:
            initial[ikey] = initial_records(prover)
        keys.append(ikey)
        for rule in spec.rules:
            if rule.kind in ("procedure", "trigger"):
                key = prover.fingerprint(rule)
                first_seen.setdefault(key, (i, rule.id))
                keys.append(key)
        per_config.append(keys)
    # the work: for each configuration, the rules whose fingerprint it is the first to show
    by_config: dict[int, list[str]] = {}
    for i, rid in first_seen.values():
        by_config.setdefault(i, []).append(rid)
    items = [(configs[i], ids) for i, ids in sorted(by_config.items())]
    jobs = jobs or min(2, os.cpu_count() or 1)
    wanted = frozenset(kinds) if kinds is not None else None
    results: dict[str, list[dict[str, Any]]] = dict(initial)
    if jobs <= 1 or len(items) < 2:
        results.update(_prove_rules(game, rootstr, items, timeout_ms, wanted))
    else:
        # one task per rule, dealt out to the workers as they get free (a few rules hold most of
        # the solving time: a static split would leave one worker waiting for the other); the
        # configurations are loaded already, the forked workers find them in _LOADED
        tasks = [(game, rootstr, [(params, [rid])], timeout_ms, wanted) for params, ids in items for rid in ids]
        ctx = multiprocessing.get_context("fork") if hasattr(os, "fork") else multiprocessing.get_context()
        with ctx.Pool(jobs) as pool:
            for part in pool.imap_unordered(_prove_task, tasks, chunksize=1):
                results.update(part)
    seconds = time.perf_counter() - start
    out = []
    for (params, spec, _), keys in zip(loaded, per_config):
        records = [rec for key in keys for rec in results.get(key, [])]
        out.append((label(spec), seconds / max(1, len(loaded)), records))
    return out


def label_of(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


# ---- the proofs/ folder: one short file per property ------------------------------------------

PROOFS_ROOT = Path(__file__).resolve().parent.parent.parent / "proofs"
STATUSES = ("proved", "failed", "unknown")


def discover(game: str, root: Path | None = None) -> list[Any]:
    """The proof modules of ``proofs/`` (beside ``specs/``) whose ``GAME`` is ``game``, by file name.

    A proof module has a docstring (the property in English and its rule IDs), ``GAME``,
    ``RULE_IDS`` and ``run(options) -> list[dict]``."""
    import importlib.util
    folder = root or Path(os.environ.get("GHOSTRULES_PROOFS", PROOFS_ROOT))
    out = []
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        name = f"ghostrules_proofs.{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if getattr(module, "GAME", None) == game and callable(getattr(module, "run", None)):
            out.append(module)
    return out


_SESSIONS: dict[Any, list[tuple[str, float, list[dict[str, Any]]]]] = {}


def session(game: str, options: dict[str, Any]) -> list[tuple[str, float, list[dict[str, Any]]]]:
    """Every obligation of the game's configurations, solved once per process and shared by the
    proof files (each reads the kinds it states)."""
    root = options.get("specs_root")
    kinds = options.get("kinds")
    kinds = None if kinds is None else tuple(sorted(kinds))
    key = (game, bool(options.get("all_configurations", True)), int(options.get("timeout_ms", 5000)), str(root),
           kinds)
    if key not in _SESSIONS:
        _SESSIONS[key] = prove_configurations(game, Path(root) if root else None, key[1], key[2],
                                              options.get("jobs"), kinds)
    return _SESSIONS[key]


_WRITTEN: dict[tuple[str, str, str, str, str], str | None] = {}


def property_rows(game: str, prop: str, kinds: Iterable[str], rule_ids: Iterable[str], options: dict[str, Any],
                  select: Any = None) -> list[dict[str, Any]]:
    """One row per configuration for a property made of obligations of some kinds.

    A row is failed if an obligation failed, unknown if one timed out, proved otherwise; a failed
    row carries the first counterexample (our notation) and writes it as a scenario file. With an
    ``out_dir``, the counterexample files an earlier run wrote there for obligations of the row
    that are proved now are removed (``counterexamples.remove_proved``), listed in ``removed``."""
    kinds = tuple(kinds)
    rows = []
    for config, _, records in session(game, options):
        mine = [r for r in records if r["kind"] in kinds and (select is None or select(r))]
        counts = {s: sum(1 for r in mine if r["status"] == s) for s in STATUSES}
        status = "failed" if counts["failed"] else "unknown" if counts["unknown"] else "proved"
        by_kind = ", ".join(f"{k} {sum(1 for r in mine if r['kind'] == k)}" for k in kinds)
        detail = f"{counts['proved']}/{len(mine)} obligations proved ({by_kind})"
        bad = [r for r in mine if r["status"] != "proved"]
        if bad:
            detail += "; " + "; ".join(f"{r['status']}: [{r['rule']}] {r['where']}: {r['text']}" for r in bad[:5])
            if len(bad) > 5:
                detail += f"; ... {len(bad) - 5} more"
        counterexample, scenario = None, None
        out_dir = options.get("out_dir")
        first = next((r for r in mine if r["status"] == "failed"), None)
        if first is not None:
            refine(first)
            counterexample = {"rule": first["rule"], "where": first["where"], "obligation": first["text"],
                              "procedure": first["procedure"], "state": first["counterexample"]}
            same = (str(out_dir), prop, first["rule"], first["where"], first["text"])
            if out_dir and same in _WRITTEN:
                scenario = _WRITTEN[same]  # the same obligation failed in an earlier configuration
                detail += " (counterexample scenario from an earlier configuration)"
            elif out_dir:
                scenario = write_scenario(game, config, first, Path(out_dir), prop, options.get("specs_root"))
                _WRITTEN[same] = scenario
                if first.get("scenario_error"):
                    detail += f" (counterexample scenario: {first['scenario_error']})"
        # an earlier run's counterexample of an obligation this run proved is stale: removed, and said
        removed = remove_proved(Path(out_dir), prop, config, mine, keep=scenario) if out_dir else []
        if removed:
            detail += f"; removed {len(removed)} stale counterexample file(s) of obligations proved now"
        rows.append({"property": prop, "configuration": config, "status": status,
                     "seconds": round(sum(r["seconds"] for r in mine), 3), "rule_ids": list(rule_ids),
                     "detail": detail, "counterexample": counterexample, "scenario": scenario,
                     "removed": removed})
    return rows


# ---- the properties, as rows per component and configuration (used by the files of proofs/) ----

def _spec(game: str, options: dict[str, Any]) -> GameSpec:
    from ..spec import load_spec
    root = options.get("specs_root")
    return load_spec(game, root=Path(root) if root else None)


def _cited(text: str) -> list[str]:
    import re
    return re.findall(r"\b[A-Z]{2,}(?:-[A-Z0-9]+)+\b", text)


def conservation_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Per pool (component) and configuration: every write to the pool's cells keeps its totals."""
    rows: list[dict[str, Any]] = []
    for pool in _spec(game, options).pools:
        rows += property_rows(game, f"conservation: {pool.name}", ["conservation"], _cited(pool.text), options,
                              select=lambda r, name=pool.name: r["text"].startswith(f"pool {name} "))
    return rows


def invariant_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Per declared invariant and configuration: it holds initially and every write keeps it; and
    the slot ranges: they hold initially and every write stays within them."""
    spec = _spec(game, options)
    rows = property_rows(game, "invariant: slot ranges", ["initial", "range"], ["(every slot)"], options,
                         select=lambda r: r["kind"] == "range" or r["text"] == "every slot starts in its range")
    for inv in spec.invariants:
        rows += property_rows(game, f"invariant: {inv.id}", ["initial", "invariant"], [inv.rule] if inv.rule else [],
                              options, select=lambda r, i=inv.id: r["text"].startswith(f"{i} ("))
    return rows


def contract_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every call meets the callee's ``requires`` (so the engine's run-time check never fires)."""
    spec = _spec(game, options)
    ids = {r.id for r in spec.rules if r.kind == "procedure" and r.requires is not None}
    bound = {e.name for e in spec.events if e.requires is not None}  # events with a contract: their emitters
    ids |= {s.rule for r in spec.rules for s in _walk(r.body) if isinstance(s, M.EmitStmt) and s.event in bound}
    return property_rows(game, "contracts (requires)", ["requires"], sorted(ids), options)


def dead_end_rows(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every decision offers an option and every chance node an outcome, wherever it is reached."""
    spec = _spec(game, options)
    ids = sorted({s.rule for r in spec.rules for s in _walk(r.body) if _is_node(s)})
    return property_rows(game, "no dead ends: decisions and chance nodes", ["options"], ids, options)
