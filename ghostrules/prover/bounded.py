"""Bounded questions: can a goal be reached from a position within k turns? A witness or a refutation.

A question names a start position, a goal and a horizon, all in the condition language (no game
words here: a proof file supplies them):

- ``goal``: a condition on the position, or an outcome (``result == loss``) of the game;
- ``turn``: an expression whose every change of value starts a new turn (e.g. whose turn it is);
  the horizon is ``turns`` such changes, and at most ``max_actions`` actions (decisions and chance
  outcomes) in all;
- ``guide``: a number computed from the position that the search tries to raise first (it only
  orders the search; it changes no answer).

``search`` explores the engine's own decision and chance nodes, best first by ``guide`` (ties:
deepest first), with a memo of positions already expanded. All players' decisions and all chance
outcomes are free: a witness is a line of play that *can* happen, with its exact probability given
those decisions. The answer is one of:

- ``witness``: the line of actions, replayed from the start position by ``replay`` (the engine
  alone decides whether it is legal and reaches the goal);
- ``impossible``: the search exhausted every line within the horizon (every decision, every chance
  outcome) without reaching the goal: a proof by exhaustive enumeration of the engine's program
  within k;
- ``unknown``: the node budget ran out first.

The search is guided (``guide``, ``lookahead``, ``prefer``) and may fix decisions the question does
not care about (``decide``): guidance only orders the search; fixed decisions are reported, and an
"impossible" found with fixed decisions is reported as unknown. No Z3 here: the engine's own
program is the transition relation, run concretely on every branch.
"""

from __future__ import annotations

import heapq
import itertools
import time
from fractions import Fraction
from typing import Any, Callable

import attrs

from ..engine import Game, State
from ..spec.expr import parse
from ..spec.model import Where


@attrs.define
class Question:
    text: str
    goal: str                      # a condition, or "result == <name>" for an outcome
    turn: str                      # an expression whose changes count turns
    turns: int                     # the horizon in turns (changes of ``turn``)
    guide: str = "0"               # the search raises this first
    max_actions: int = 400         # and in actions
    budget: int = 20_000           # positions expanded before giving up (unknown)
    # decisions the question does not care about: at a decision, the first option whose label
    # contains one of these (earliest pattern first) is taken and the others are not explored
    # (an "impossible" answer then holds for these decisions only, and says so)
    decide: tuple[str, ...] = ()
    lookahead: int = 3             # decisions followed greedily to value a position (ordering only)
    # chance outcomes or options to try first, in this order (label substrings): a plan that
    # orders the search, never prunes it; the witness is still replayed by the engine alone
    prefer: tuple[str, ...] = ()
    prefer_weight: int = 1000


@attrs.define
class Answer:
    status: str                    # witness, impossible, unknown
    actions: list[str]
    probability: Fraction
    expanded: int
    seconds: float
    final: State | None = None
    turns_used: int = 0
    pruned: bool = False           # some decisions were fixed by the question's preferences
    reached: tuple[int, int] = (0, 0)  # (turns, guide) of the furthest position expanded


def compiled(game: Game, text: str) -> Callable[[State], Any]:
    """A condition-language expression compiled once for this game (a closure over state values)."""
    if text.startswith("result =="):
        want = text.split("==", 1)[1].strip()
        return lambda s: s.is_terminal() and s.outcome().result == want
    fn, _ = game.program.exprs.compile(parse(text), {}, Where("<question>", 1), "")
    return lambda s: fn(s.values, {})


def _children(s: State, decide: tuple[str, ...] = ()) -> tuple[list[tuple[str, Fraction]], bool]:
    """The actions to explore, and whether some were left out by the ``decide`` preferences."""
    if s.is_chance_node():
        return [(a.label, p) for a, p in s.chance_outcomes()], False
    labels = [a.label for a in s.legal_actions()]
    for pattern in decide:
        for label in labels:
            if pattern in label:
                return [(label, Fraction(1))], len(labels) > 1
    return [(label, Fraction(1)) for label in labels], False


def _key(s: State) -> tuple[Any, ...]:
    return (tuple(s.values), tuple((f[0], f[1], tuple(sorted(f[2].items()))) for f in s.stack))


def search(start: State, q: Question) -> Answer:
    """Best-first search for a line of play from ``start`` reaching the goal within the horizon."""
    t0 = time.perf_counter()
    game = start.game
    goal = compiled(game, q.goal)
    guide = compiled(game, q.guide)
    marker = compiled(game, q.turn)
    root = start.clone()
    root.tracing = False
    tie = itertools.count()
    # entries: (-guide, depth, tie, ...): the highest guide first, then the shallowest (broad on a plateau)
    heap: list[Any] = []
    seen: set[Any] = set()
    expanded = 0
    exhaustive = True
    pruned = False
    reached = (0, 0)   # the furthest turn and the best guide there, for the report
    best_line: list[str] = []

    def value(s: State) -> Any:
        """The guide after the decisions that follow (each taken greedily), up to the next chance
        node: a drawn card's worth shows only once it is placed."""
        best = guide(s)
        for _ in range(q.lookahead):
            if s.is_terminal() or s.is_chance_node():
                break
            options, _ = _children(s, q.decide)
            scored = []
            for label, _ in options:
                c = s.clone()
                c.apply_action(label)
                scored.append((guide(c), c))
            g, s = max(scored, key=lambda x: x[0])
            best = max(best, g)
        return best

    def bonus(actions: list[str]) -> int:
        # how far the line follows the preferred outcomes, in their order (a plan to try first)
        k = 0
        for a in actions:
            if k < len(q.prefer) and q.prefer[k] in a:
                k += 1
        return q.prefer_weight * k

    def push(s: State, actions: list[str], p: Fraction, turns: int, last: Any) -> Answer | None:
        if goal(s):
            return Answer("witness", actions, p, expanded, time.perf_counter() - t0, s, turns)
        if s.is_terminal():
            return None
        heapq.heappush(heap, (-(value(s) + bonus(actions)), len(actions), next(tie), s, actions, p, turns, last))
        return None

    found = push(root, [], Fraction(1), 0, marker(root))
    if found:
        return found
    while heap:
        g, _, _, s, actions, p, turns, last = heapq.heappop(heap)
        if (turns, -g) > reached:
            reached = (turns, -g)
            best_line = actions
        key = _key(s)
        if key in seen:
            continue
        seen.add(key)
        expanded += 1
        if expanded > q.budget:
            exhaustive = False
            break
        if len(actions) >= q.max_actions:
            exhaustive = False  # the action bound cut a line short
            continue
        children, cut = _children(s, q.decide)
        pruned = pruned or cut
        for label, prob in children:
            child = s.clone()
            child.apply_action(label)
            now = marker(child)
            used = turns + (1 if now != last else 0)
            if used >= q.turns:
                # this action ran into the turn after the horizon: whatever it reached is too late
                continue
            found = push(child, actions + [label], p * prob, used, now)
            if found:
                return found
    status = "impossible" if exhaustive and not heap else "unknown"
    return Answer(status, best_line, Fraction(0), expanded, time.perf_counter() - t0, pruned=pruned, reached=reached)


def replay(start: State, actions: list[str]) -> State:
    """Apply the witness's actions to a copy of the start position (the engine checks each)."""
    s = start.clone()
    for label in actions:
        s.apply_action(label)
    return s


def report(q: Question, answer: Answer, start: State, start_text: str, configuration: str, rule_ids: list[str],
           out_dir: str | None, stem: str, horizon: str) -> dict[str, Any]:
    """The answer as a result row of ``ghostrules prove``; a witness is written as a scenario file
    (the start position) with its actions beside it (``<stem>.actions.json``) and in its header."""
    import json
    from pathlib import Path
    path = None
    if answer.status == "witness" and out_dir:
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        file = folder / f"{stem}.yaml"
        head = [f"# {q.text}", f"# witness: from this position, apply these {len(answer.actions)} actions "
                f"(decisions and chance outcomes) in order; the goal '{q.goal}' then holds",
                *[f"#   {i + 1}. {a}" for i, a in enumerate(answer.actions)]]
        file.write_text("\n".join(head) + "\n" + start_text, encoding="utf-8")
        (folder / f"{stem}.actions.json").write_text(json.dumps(answer.actions, indent=1), encoding="utf-8")
        path = str(file)
    if answer.status == "witness":
        final = answer.final
        detail = (f"yes: a line of {len(answer.actions)} actions reaches '{q.goal}' ({horizon}); "
                  f"probability {answer.probability} given its decisions; found after {answer.expanded} positions"
                  + (f"; the game ends: {final.outcome()}" if final is not None and final.is_terminal() else ""))
        status = "proved"
    elif answer.status == "impossible":
        detail = (f"no: every line within {horizon} was explored ({answer.expanded} positions), none reaches "
                  f"'{q.goal}'" + (" (decisions fixed by the question's preferences)" if answer.pruned else ""))
        status = "proved" if not answer.pruned else "unknown"
    else:
        detail = (f"unknown: no line found within the search budget ({answer.expanded} positions; furthest: "
                  f"turn {answer.reached[0] + 1}, guide {answer.reached[1]}); not a proof of impossibility")
        status = "unknown"
    return dict(property=q.text, configuration=configuration, status=status, seconds=round(answer.seconds, 3),
                rule_ids=list(rule_ids), detail=detail,
                counterexample={"actions": answer.actions, "goal": q.goal} if answer.status == "witness" else None,
                scenario=path)
