"""Answering a bounded question over the symbolic executor's paths (unroll.py): the best-first
search over k turns, the goal asked of Z3 at turn ends and game ends, the witness replayed by the
engine; ``follow`` (the differential test's mode) and the scenario start positions."""

from __future__ import annotations

import heapq
import itertools
import time
from fractions import Fraction
from typing import Any

import z3

from ..engine import Game, State
from ..spec.expr import parse
from .bounded import Answer, Question, compiled
from .paths import Dead, Path, Paused, Value
from .unroll import Unroller


def answer(game: Game, values: list[int], procedure: str, start: State, q: Question) -> Answer:
    """Explore every path of ``q.turns`` turns from ``values`` at the start of ``procedure``,
    best first by ``q.guide`` and ``q.prefer`` (then the shallowest), at most ``q.budget`` paths
    followed to their end. The goal is asked at every turn's end and where the game ends; a path
    whose condition is satisfiable with the goal is replayed by the engine from ``start`` (the
    same position, run by the engine to its first node): a witness only if the engine agrees.
    ``impossible`` when every path was followed, no ``decide`` pattern set an option aside and
    no step budget ran out."""
    t0 = time.perf_counter()
    u = Unroller(game)
    outcome_goal = q.goal.startswith("result ==")
    want = q.goal.split("==", 1)[1].strip() if outcome_goal else ""
    goal_expr = None if outcome_goal else parse(q.goal)
    exhaustive = True
    pruned = False
    guide = parse(q.guide)
    order = itertools.count()
    # best first by the question's guide (it orders the exploration, it prunes nothing), then shallowest
    stack: list[tuple[Any, int, int, Path]] = []

    def push(p: Path) -> None:
        try:
            g = u.val(guide, p, {})[0]
        except Dead:
            g = None
        if isinstance(g, (int, bool)):
            p.guide = int(g)       # a guide that depends on chance keeps the last known value
        heapq.heappush(stack, (-p.guide - (bonus(p) if q.prefer else 0), len(p.trail), next(order), p))

    def bonus(p: Path) -> int:
        """How far the path's chance outcomes known so far follow the question's preferred
        outcomes, in order (a plan tried first: ordering only)."""
        k = 0
        for step in p.trail:
            if k >= len(q.prefer) or not step.shown[0]:
                continue
            v = step.key[0]
            v = p.fixed.get(str(v)) if not isinstance(v, int) else v
            if v is not None and q.prefer[k] in f"{step.shown[0]}: {game.layout.label(step.shown[1], v)}":
                k += 1
        return q.prefer_weight * k

    push(u.start(values, procedure, {}))
    ended = 0                 # paths followed to the game's end or to the horizon
    unreplayed: Answer | None = None

    def witness(p: Path) -> Answer | None:
        if goal_expr is None:
            if p.result is None or p.result[0] != want:
                return None
            goal: Value = True
        else:
            goal = u.cond(goal_expr, p, {})
            if goal is False:
                return None
        m = u.model(p.cond + ([] if goal is True else [goal]))
        return None if m is None else _replayed(game, start, p, m, q, t0, ended)

    while stack:
        p = heapq.heappop(stack)[3]
        try:
            kind, nexts = u.run(p, q.turns, q.decide)
        except Dead:
            u.dead += 1
            continue
        if kind == "fork":
            for n in nexts:
                push(n)
            continue
        if kind == "budget":
            exhaustive = False
            continue
        pruned = pruned or p.pruned
        found = witness(p)
        if found is not None and found.status == "witness":
            found.pruned = pruned
            return found
        if found is not None:       # Z3 found a line the engine did not replay: no proof either way
            exhaustive = False
            unreplayed = unreplayed or found
        if kind == "turn":
            push(p)                 # the goal does not hold yet: play the next turn
            continue
        ended += 1
        if ended >= q.budget:
            exhaustive = False
            break
    status = "impossible" if exhaustive and not stack else "unknown"
    return Answer(status, unreplayed.actions if unreplayed else [], Fraction(0), ended, time.perf_counter() - t0,
                  pruned=pruned, faults=u.dead)


def follow(game: Game, values: list[int], procedure: str, keys: list[tuple[int, ...]], closures: bool = True
           ) -> tuple[list[Value], tuple[str, int] | None, str | None]:
    """The statements run from ``values`` at the start of ``procedure`` taking the engine's own
    actions (their keys) at its nodes, until the keys run out: (the values there, the node's
    file and line, or the game's result). The differential test compares them with the engine's."""
    u = Unroller(game)
    u.closures = closures
    u.follow = [tuple(k) for k in keys]
    path = u.start(values, procedure, {})
    while True:
        try:
            kind, nexts = u.run(path, 10**9, ())
        except Paused as stop:
            return path.values, stop.args[0], None
        if kind == "end":
            return path.values, None, path.result[0] if path.result else None
        if kind == "fork":
            assert len(nexts) == 1, "a followed line does not fork"
            path = nexts[0]
        elif kind != "turn":
            raise AssertionError(kind)


def ask(start_text: str, q: Question) -> tuple[Answer, State]:
    """Answer a question from a scenario's position (see ``answer``); also returns that position."""
    game, values, procedure, start = scenario_start(start_text)
    return answer(game, values, procedure, start, q), start


def scenario_start(text: str) -> tuple[Game, list[int], str, State]:
    """A scenario at a step that starts one procedure: (game, the values before it runs, the
    procedure, the engine's position run to its first node)."""
    from ..query import scenario as S

    class _Start(S._Builder):
        def _stack(self, setup_state: State, values: list[int], step: Any) -> Any:
            self.before = list(values)
            return super()._stack(setup_state, values, step)

    doc = S.load_yaml_text(text, "<question>")
    builder = _Start(doc, "<question>")
    scenario = builder.build()
    frames = builder.schema.step(scenario.step).frames if scenario.step else ()
    if len(frames) != 1 or frames[0].locals:
        raise ValueError(f"a bounded question starts at a step that begins one procedure, not {scenario.step!r}")
    return builder.game, builder.before, frames[0].proc, scenario.state


def _replayed(game: Game, start: State, p: Path, m: z3.ModelRef, q: Question, t0: float, explored: int) -> Answer:
    """The path's line of play, with the model's chance outcomes, replayed by the engine."""
    s = start.clone()
    s.tracing = False
    actions: list[str] = []
    prob = Fraction(1)
    for step in p.trail:
        key = tuple(_model_value(m, k, p.fixed) for k in step.key)
        if s.is_terminal():
            break
        node = s._node()
        here = (node.where.file, node.where.line)
        if here != step.where or (step.may_skip and _alone(m, step.enabled, p.fixed)):
            if step.may_skip:
                continue
            return Answer("unreplayed", actions, Fraction(0), explored, time.perf_counter() - t0)
        if s.is_chance_node():
            offered = [(a, pr) for a, pr in s.chance_outcomes() if a.key == key]
        else:
            offered = [(a, Fraction(1)) for a in s.legal_actions() if a.key == key]
        if not offered:
            return Answer("unreplayed", actions, Fraction(0), explored, time.perf_counter() - t0)
        action, pr = offered[0]
        prob *= pr
        actions.append(action.label)
        s.apply_action(action)
    ok = compiled(game, q.goal)(s)
    status = "witness" if ok else "unreplayed"
    return Answer(status, actions, prob, explored, time.perf_counter() - t0, s if ok else None, p.turns)


def _model_value(m: z3.ModelRef, v: Value, fixed: dict[str, int]) -> int:
    """A value recorded on the path (a number, or a term over chance constants) under the model.
    Constants pinned after the value was recorded are no longer in the path condition, hence not
    in the model: their pinned values go in first."""
    if isinstance(v, (bool, int)):
        return int(v)
    if fixed:
        v = z3.substitute(v, *[(z3.Int(n), z3.IntVal(x)) for n, x in fixed.items()])
    r = m.eval(v, model_completion=True)
    return int(z3.is_true(r)) if z3.is_bool(r) else r.as_long()


def _alone(m: z3.ModelRef, enabled: list[Value], fixed: dict[str, int]) -> bool:
    """Only one option or outcome is enabled under the model: the engine takes it without pausing."""
    return sum(_model_value(m, g, fixed) for g in enabled) == 1
