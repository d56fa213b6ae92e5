"""Run the proof obligations of a game configuration and report them (behind `ghostrules prove`)."""

from __future__ import annotations

import time
from typing import Any, Iterable

import attrs
import z3

from ..engine.layout import Layout
from ..spec.model import GameSpec
from .local import LocalProver, Obligation

# Kinds whose every obligation must be proved for `prove` to pass. The others are reported: their
# proofs need procedure contracts (requires) that the specs do not state everywhere yet.
ENFORCED = ("conservation",)


@attrs.define
class Result:
    obligation: Obligation
    status: str  # proved, failed, unknown
    seconds: float
    counterexample: dict[str, Any] = attrs.field(factory=dict)


def readable_model(model: z3.ModelRef, prover: LocalProver, ob: Obligation) -> dict[str, Any]:
    """The counterexample as named slot values (only those that differ from the initial state)."""
    layout = prover.layout
    init = layout.initial_values()
    out: dict[str, Any] = {}
    for flat, term in enumerate(prover.state):
        v = model.eval(term, model_completion=True).as_long()
        if v != init[flat]:
            name, _ = layout.owner[flat]
            out[layout.name_of(flat)] = layout.label(layout.slots[name].var.type, v)
    for local, (term, t) in ob.locals.items():
        val = model.eval(term, model_completion=True)
        if z3.is_int_value(val):
            out[f"local {local}"] = layout.label(t, val.as_long()) if t not in ("int", "bool") else val.as_long()
        elif z3.is_true(val) or z3.is_false(val):
            out[f"local {local}"] = z3.is_true(val)
    return out


def prove(spec: GameSpec, kinds: Iterable[str] | None = None, timeout_ms: int = 5000) -> list[Result]:
    prover = LocalProver(spec, Layout(spec))
    obligations = prover.run()
    wanted = set(kinds) if kinds else None
    results = []
    for ob in obligations:
        if wanted and ob.kind not in wanted:
            continue
        start = time.perf_counter()
        solver = z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(prover.base)
        solver.add(prover.base_inv)
        solver.add(ob.assumptions)
        solver.add(z3.Not(ob.goal))
        answer = solver.check()
        seconds = time.perf_counter() - start
        if answer == z3.unsat:
            results.append(Result(ob, "proved", seconds))
        elif answer == z3.sat:
            results.append(Result(ob, "failed", seconds, readable_model(solver.model(), prover, ob)))
        else:
            results.append(Result(ob, "unknown", seconds))
    return results


def summary(results: list[Result]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for r in results:
        row = table.setdefault(r.obligation.kind, {"proved": 0, "failed": 0, "unknown": 0})
        row[r.status] += 1
    return table


def passed(results: list[Result]) -> bool:
    return all(r.status == "proved" for r in results if r.obligation.kind in ENFORCED)
