"""Termination of the deterministic run: every cycle of calls and triggers reaches a decision or
a chance node (the last row of the no-dead-end proofs)."""

from __future__ import annotations

import time
from typing import Any, Iterator

from ..spec.model import GameSpec


def _walk(stmts: Any) -> Iterator[Any]:
    from .local import _stmts_of
    return iter(_stmts_of(stmts))


def _is_node(s: Any) -> bool:
    from ..spec import model as M
    return isinstance(s, (M.MenuStmt, M.RandomStmt))


def call_graph(spec: GameSpec) -> dict[str, set[str]]:
    """The graph 'procedure or triggered rule -> the procedures it calls and the rules it fires'."""
    from ..spec import model as M
    triggered: dict[str, list[str]] = {}
    for r in spec.rules:
        if r.kind == "trigger":
            triggered.setdefault(r.on, []).append(f"rule:{r.id}")
    edges: dict[str, set[str]] = {}
    for r in spec.rules:
        if r.kind not in ("procedure", "trigger"):
            continue
        me = r.name if r.kind == "procedure" else f"rule:{r.id}"
        out = edges.setdefault(me, set())
        for s in _walk(r.body):
            if isinstance(s, M.CallStmt):
                out.add(s.proc)
            elif isinstance(s, M.EmitStmt):
                out |= set(triggered.get(s.event, []))
    return edges


def call_cycles(spec: GameSpec) -> list[list[str]]:
    """Cycles of the call graph. Without a cycle, the engine's deterministic run between two
    decision or chance nodes is finite (for loops run over finite domains)."""
    edges = call_graph(spec)
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(n: str) -> None:
        state[n] = 1
        path.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                cycles.append(path[path.index(m):] + [m])
            elif m not in state:
                visit(m)
        path.pop()
        state[n] = 2

    for n in sorted(edges):
        if n not in state:
            visit(n)
    return cycles


def termination_row(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Every cycle of the call/trigger graph passes through a rule that holds a decision or a
    chance node (a roll, a draw), in its own body or in a procedure it calls: recursion goes
    through the players or the dice, and the rest of the deterministic run is a finite unfolding
    (for loops range over finite domains)."""
    from ..spec import model as M
    start = time.perf_counter()
    from .runner import _spec
    spec = _spec(game, options)
    with_node = {(r.name if r.kind == "procedure" else f"rule:{r.id}") for r in spec.rules
                 if r.kind in ("procedure", "trigger")
                 and any(isinstance(s, (M.MenuStmt, M.RandomStmt, M.RollStmt)) for s in _walk(r.body))}
    edges = call_graph(spec)
    grown = True
    while grown:  # a rule that calls a rule holding a node holds one too
        more = {n for n, out in edges.items() if n not in with_node and out & with_node}
        with_node |= more
        grown = bool(more)
    cycles = call_cycles(spec)
    bad = [c for c in cycles if not set(c) & with_node]
    return {"property": "no dead ends: recursion passes through a decision or chance node", "configuration": "all",
            "status": "failed" if bad else "proved", "seconds": round(time.perf_counter() - start, 3),
            "rule_ids": sorted({r.id for r in spec.rules if (r.name or f"rule:{r.id}") in {n for c in cycles for n in c}
                                or f"rule:{r.id}" in {n for c in cycles for n in c}}),
            "detail": f"{len(cycles)} call/trigger cycles, each through a decision or chance node" if not bad else
            "cycles without a decision or chance node: " + "; ".join(" -> ".join(c) for c in bad[:5]),
            "counterexample": {"cycles": bad} if bad else None, "scenario": None}
