"""The rules-lawyer questions about a position: ``legal``, ``next``, ``odds`` and ``can``.

Each returns an ``Answer``: a JSON-able ``data`` dict, readable ``lines`` and (for ``next``) the
position it ends at. Every answer cites rule IDs; ``next`` also quotes the rule text and the rulebook
words. ``ask`` runs a question given as words (the command line) or as a scenario file's
``question:`` block; ``check_expect`` compares an answer with a file's ``expect:`` block.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import attrs

from ..engine import RULES, Action, IllegalActionError, SpecRuntimeError, State
from ..engine.actions import VALUE_KINDS
from .explain import citation_line, cite, forbidding
from .scenario import Scenario, load, schema_for
from .search import Horizon, KnownOutcomes, Odds, TooLarge, reachable
from ..spec.source import SpecError
from .values import ScenarioError, Values

QUESTIONS = ("legal", "next", "odds", "can")


class QueryError(ValueError):
    """A question that cannot be asked as put (unknown action, bad expression, bad bound ...)."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


@attrs.define
class Answer:
    kind: str
    data: dict[str, Any]
    lines: list[str]
    state: State | None = None
    search: Any = None  # odds: the solved search (its policy gives the decisions taken)

    def text(self) -> str:
        return "\n".join(self.lines)

    def to_json(self) -> dict[str, Any]:
        return self.data

    def __str__(self) -> str:
        return self.text()


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def _p(p: Fraction) -> dict[str, Any]:
    return {"probability": fraction_text(p), "decimal": round(float(p), 6)}


def _position(position: State | Scenario | str) -> tuple[State, Scenario | None]:
    if isinstance(position, Scenario):
        return position.state, position
    if isinstance(position, State):
        return position, None
    sc = load(position)
    return sc.state, sc


def _known(sc: Scenario | None) -> KnownOutcomes:
    return KnownOutcomes(sc.known if sc is not None else None)


def _outcome_rules(state: State, sc: Scenario | None = None) -> list[str]:
    """The rule that ended the game, if any: every answer about a finished position cites it. A
    scenario's step that ran alone to its end ("step over") cites the rule of the step's procedure."""
    o = state.outcome() if state.is_terminal() else None
    if o is not None and o.rule_id:
        return [o.rule_id]
    if o is not None and sc is not None and sc.state is state and sc.step:
        step = sc.schema.step(sc.step)
        proc = state.game.program.by_name.get(step.frames[-1].proc) if step is not None else None
        return [proc.rule] if proc is not None and proc.rule else []
    return []


def _cite_all(state: State, data: dict[str, Any], lines: list[str]) -> None:
    """Add the citations of ``data['rules']`` (ID, our wording, the rulebook words) to the answer."""
    data["citations"] = [cite(state.game, r) for r in data["rules"]]
    if data["citations"]:
        lines.append("Rules cited:")
        for c in data["citations"]:
            lines += citation_line(c)


# ---- nodes and actions ---------------------------------------------------------------------


def describe_node(state: State) -> dict[str, Any]:
    """What the position waits for: a decision (options and the rules offering them), a chance node
    (outcomes with exact probabilities) or nothing (the game is over)."""
    if state.is_terminal():
        o = state.outcome()
        assert o is not None
        return {"kind": "terminal", "outcome": {"result": o.result, "rule": o.rule_id, "text": o.text}}
    if state.is_chance_node():
        return {"kind": "chance", "prompt": state.prompt(), "rule": state.node_rule(),
                "outcomes": [{"label": a.label, **_p(p)} for a, p in state.chance_outcomes()]}
    who = state.game.layout.label(state.game.spec.players, state.current_player())
    return {"kind": "decision", "player": who, "prompt": state.prompt(),
            "rule": state.node_rule(),
            "options": [{"label": a.label, "rule": a.rule or state.node_rule()} for a in state.legal_actions()]}


def node_lines(node: dict[str, Any]) -> list[str]:
    if node["kind"] == "terminal":
        o = node["outcome"]
        if not o["rule"]:  # the engine stopped after a step, not the game
            return [f"The position ends here: {o['result']}{': ' + o['text'] if o['text'] else ''}"]
        return [f"The game is over: {o['result']} ({o['rule']}){': ' + o['text'] if o['text'] else ''}"]
    if node["kind"] == "chance":
        out = [f"Chance: {node['prompt']} [{node['rule']}]"]
        width = max(len(o["label"]) for o in node["outcomes"])
        out += [f"  {o['label'].ljust(width)}  {o['probability']:>6} = {o['decimal']:.4f}" for o in node["outcomes"]]
        return out
    out = [f"Decision of {node['player']}: {node['prompt']} [{node['rule']}]"]
    width = max(len(o["label"]) for o in node["options"])
    out += [f"  {o['label'].ljust(width)}  [{o['rule']}]" for o in node["options"]]
    return out


def _options(state: State) -> list[Action]:
    if state.is_terminal():
        return []
    return [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()


def resolve(state: State, text: str) -> Action:
    """The action (decision option or chance outcome) a person means by ``text``: its exact label,
    the same ignoring case, the face or card after 'roll: ' / 'draw: ', or a unique part of a label."""
    options = _options(state)
    if not options:
        raise QueryError(f"nothing can be done: the game is over ({state.outcome()})")
    for test in (lambda lab: lab == text, lambda lab: lab.lower() == text.lower(),
                 lambda lab: lab.split(": ", 1)[-1].lower() == text.lower()):
        hits = [a for a in options if test(a.label)]
        if len(hits) == 1:
            return hits[0]
    part = [a for a in options if text.lower() in a.label.lower()]
    if len(part) == 1:
        return part[0]
    if len(part) > 1:
        raise QueryError(f"{text!r} could mean: {'; '.join(a.label for a in part)}")
    probe = state.clone()
    probe.tracing = False
    probe.apply_action(text)  # raises IllegalActionError naming the rule (the label is no option here)
    return probe.history()[-1]  # pragma: no cover - apply_action only accepts known labels


# ---- legal -------------------------------------------------------------------------------------


def legal(position: State | Scenario | str, action: str | None = None) -> Answer:
    """The legal actions now, each with the rule that offers it; or whether ``action`` is legal and,
    if not, the rule that forbids it."""
    state, sc = _position(position)
    node = describe_node(state)
    if action is None:
        data = {"question": "legal", **node}
        rules = [o["rule"] for o in node.get("options", [])] or ([node["rule"]] if "rule" in node else [])
        data["rules"] = list(dict.fromkeys([r for r in rules if r] + _outcome_rules(state, sc)))
        lines = node_lines(node)
        _cite_all(state, data, lines)
        return Answer("legal", data, lines)
    try:
        chosen = resolve(state, action)
    except IllegalActionError as exc:
        reasons = forbidding(state, action)
        rule = reasons[-1]["rule"] if reasons else exc.rule_id
        cited = [r["rule"] for r in reasons] + [r["defined_by"] for r in reasons if r.get("defined_by")]
        data = {"question": "legal", "action": action, "legal": False, "rule": rule, "message": str(exc),
                "because": reasons, "node": node, "rules": list(dict.fromkeys([r for r in cited + [exc.rule_id] if r]))}
        lines = [f"Not legal: {action!r}.", f"Forbidden by {rule}."]
        for r in reasons:
            lines.append(f"  {r['rule']}: {r['condition']} is false" + (f" (for {r['for']})" if r.get("for") else "")
                         + (f" ({r['defined_by']} defines it)" if r.get("defined_by") else ""))
        lines.append(f"Engine: {exc}")
        _cite_all(state, data, lines)
        return Answer("legal", data, lines)
    except QueryError as exc:
        rule = (_outcome_rules(state, sc) or [state.node_rule()])[0]
        data = {"question": "legal", "action": action, "legal": False, "rule": rule,
                "message": str(exc), "because": [], "node": node, "rules": [rule] if rule else []}
        lines = [f"Not legal: {exc}"]
        _cite_all(state, data, lines)
        return Answer("legal", data, lines)
    rule = chosen.rule or state.node_rule()
    data = {"question": "legal", "action": chosen.label, "legal": True, "rule": rule, "node": node,
            "rules": [rule] if rule else []}
    data["citations"] = [cite(state.game, r) for r in data["rules"]]  # (as _cite_all; the text quotes it inline)
    lines = [f"Legal: {chosen.label!r}, offered by {rule}."] + [x for c in data["citations"] for x in citation_line(c)]
    return Answer("legal", data, lines)


# ---- next --------------------------------------------------------------------------------------


def _advance(state: State, known: KnownOutcomes, cursor: tuple[tuple[str, int], ...], applied: list[str],
             limit: int = 10_000) -> tuple[tuple[str, int], ...]:
    """Take the known chance outcomes and the decisions that have only one option."""
    for _ in range(limit):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outs, nxt = known.outcomes(state, cursor)
            if len(outs) != 1 or nxt == cursor and len(state.chance_outcomes()) > 1:
                break
            state.apply_action(outs[0][0])
            applied.append(outs[0][0].label + (" (known)" if nxt != cursor else ""))
            cursor = nxt
            continue
        acts = state.legal_actions()
        if len(acts) != 1:
            break
        state.apply_action(acts[0])
        applied.append(acts[0].label + " (no other option)")
    return cursor


def next(position: State | Scenario | str, *actions: str, verbose: bool = False) -> Answer:
    """Apply the actions, then show everything up to the next decision (or unknown chance node), as a
    trace citing rule IDs, the rule text and the rulebook words."""
    state0, sc = _position(position)
    state = state0.clone()
    state.tracing = True
    # a scenario's log holds what its step did before the first node: it is part of the answer
    start = 0 if sc is not None else len(state.log())
    known = _known(sc)
    cursor: tuple[tuple[str, int], ...] = ()
    applied: list[str] = []
    for text in actions:
        for _ in range(10_000):
            if state.is_terminal():
                raise QueryError(f"the game is over before {text!r}")
            try:
                action = resolve(state, text)
                break
            except (IllegalActionError, QueryError):
                # not an option here: go through a forced step (one option, or a known outcome) and retry
                before = len(applied)
                cursor = _advance(state, known, cursor, applied, limit=1)
                if len(applied) == before:
                    raise
        if state.is_chance_node():
            outs, nxt = known.outcomes(state, cursor)
            if nxt != cursor:
                if outs[0][0] != action:
                    raise QueryError(f"the scenario says {outs[0][0].label!r} comes next, not {action.label!r}")
                cursor = nxt
        state.apply_action(action)
        applied.append(action.label)
    cursor = _advance(state, known, cursor, applied)
    entries = state.log()[start:]
    shown = [e for e in entries if verbose or e.kind not in VALUE_KINDS]
    node = describe_node(state)
    common = 0
    while (common < min(len(state.stack), len(state0.stack))
           and state.stack[common][0] == state0.stack[common][0]):
        common += 1
    entered = [state.game.program.procs[f[0]].rule for f in state.stack[common:]]
    now_rules = entered + [node.get("rule", "")] + [o["rule"] for o in node.get("options", [])]
    if node["kind"] == "terminal":
        now_rules += _outcome_rules(state) or (_outcome_rules(state0, sc) if state0.is_terminal() else [])
    rules = list(dict.fromkeys([e.rule for e in entries if e.rule] + [r for r in now_rules if r]))
    data = {"question": "next", "actions": list(actions), "applied": applied,
            "trace": [e.to_json() for e in shown], "rules": rules,
            "citations": [cite(state.game, r) for r in rules], "now": node}
    if state.is_terminal():
        data["outcome"] = node["outcome"]
    lines = ["Applied: " + "; ".join(applied) if applied else "Applied: nothing", "Trace:"]
    lines += [f"  [{e.rule}] {e.text}" if e.rule else f"  {e.text}" for e in shown] or ["  (nothing happened)"]
    lines.append("Now:")
    lines += ["  " + x for x in node_lines(node)]
    if rules:
        lines.append("Rules cited:")
        for c in data["citations"]:
            lines += citation_line(c)
    return Answer("next", data, lines, state)


# ---- odds --------------------------------------------------------------------------------------


def _summary(schema: Any, v: Values, root: list[int]) -> Any:
    skip = set(schema.scratch) | {c for _, cells in schema.supply for c in cells}
    owner = v.layout.owner

    def summarise(s: State) -> str:
        parts = []
        for flat, (a, b) in enumerate(zip(s.values, root)):
            if a != b and owner[flat][0] not in skip:
                parts.append(f"{v.name_of(flat)} = {v.show(v.var_of(flat).type, a)}")
        o = s.outcome()
        head = [f"game over: {o.result} ({o.rule_id})"] if o else []
        return "; ".join(head + parts) or "no change"
    return summarise


def _step_depth(state: State) -> int:
    """A bare position (no scenario) inside one of the game's named steps (other than the default, the
    whole turn): the depth of the deepest such step whose procedures its stack starts with, so that its
    odds have the same horizon as the scenario's (``load_scenario(path)`` and ``load(path)`` agree).
    0 if none."""
    schema = schema_for(state.game)
    names = [state.game.program.procs[f[0]].name for f in state.stack]
    best = 0
    for step in schema.steps:
        procs = [f.proc for f in step.frames]
        if step.name != schema.default_step and len(procs) > 1 and names[:len(procs)] == procs:
            best = max(best, len(procs))
    return best


def _horizon(state: State, sc: Scenario | None, decision: bool, horizon: str | None) -> Horizon:
    frames = state.stack
    names = [state.game.program.procs[f[0]].name for f in frames]
    if not frames:
        raise QueryError("the game is over: there is nothing to compute")
    mode = "frame"
    if horizon in (None, "", "frame", "decision"):
        mode = "decision" if horizon == "decision" else "frame"
        depth = sc.step_depth if sc is not None and sc.state is state else _step_depth(state) if sc is None else 0
        if decision:
            index = len(frames) - 1
        elif depth and len(frames) >= depth:
            index = depth - 1
        else:
            index = len(frames) - 1
    elif horizon == "turn":
        index = 0
    else:
        if horizon not in names:
            raise QueryError(f"--horizon {horizon}: no frame of that procedure is running; running: "
                             f"{', '.join(names)} (or frame, decision, turn)")
        index = len(names) - 1 - names[::-1].index(horizon)
    return Horizon.at_frame(state, index, mode)


def odds(position: State | Scenario | str, action: str | None = None, outcome: str | None = None,
         horizon: str | None = None, maximise: str | None = None, budget: int = 5_000) -> Answer:
    """Exact distribution over the chance nodes after ``action`` up to the horizon (by default: until
    the frame offering the action returns), decisions in between played to maximise the probability
    of ``outcome`` (an expression or a result keyword), or without one, the game's objective."""
    state0, sc = _position(position)
    game = state0.game
    schema = schema_for(game)
    v = Values(game)
    if state0.is_terminal():
        if action is not None:
            resolve(state0, action)  # raises: nothing can be done in a finished game
        return _odds_of_finished(state0, sc, schema, v, outcome, maximise)
    decision = action is not None and not state0.is_chance_node() and not state0.is_terminal()
    hz = _horizon(state0, sc, decision, horizon)
    # what the horizon's frame has logged so far (a reduction said before its roll): part of the answer
    logged = [e.rule for e in state0.frame_log(hz.depth - 1)]
    start = state0.clone()
    start.tracing = RULES
    start.take_rules(0)
    applied = None
    applied_rule = ""
    cursor: tuple[tuple[str, int], ...] = ()
    known = _known(sc)
    if action is not None:
        a = resolve(start, action)
        if start.is_chance_node():
            cursor = known.outcomes(start, cursor)[1]
        applied_rule = a.rule or start.node_rule()
        start.apply_action(a)
        applied = a.label
        logged += start.take_rules(hz.depth)
    goals = dict(schema.goals)
    results = dict(schema.results)
    if outcome is not None:
        if outcome in goals:
            want = goals[outcome]

            zero_one = (Fraction(0), Fraction(1))

            def leaf(s: State) -> tuple[Fraction, Any]:
                o = s.outcome()
                hit = o is not None and o.result == want
                return zero_one[hit], hit
        else:
            test = v.compile(outcome)[0]  # (a bad expression is reported before searching)
            zero_one = (Fraction(0), Fraction(1))

            def leaf(s: State) -> tuple[Fraction, Any]:
                hit = bool(test(s.values, {}))  # v.raw(outcome, s.values), compiled once
                return zero_one[hit], hit
        goal_text = outcome
    else:
        objective = maximise or schema.objective
        v.compile(objective)
        summarise = _summary(schema, v, list(state0.values))

        def leaf(s: State) -> tuple[Fraction, Any]:
            o = s.outcome()
            score = Fraction(results[o.result]) if o is not None and o.result in results else \
                Fraction(int(v.raw(objective, s.values)[0]))
            return score, summarise(s)
        goal_text = None
    search = Odds(hz, leaf, known, ceiling=Fraction(1) if outcome is not None else None, budget=budget,
                  cite_log=True)
    try:
        value, dist = search.solve(start, cursor)
    except TooLarge as exc:
        raise QueryError(f"odds: {exc} ({hz.description}); narrow the question: --horizon decision, the name "
                         f"of a shorter procedure, or known outcomes (e.g. the deck's top cards)") from None
    except (ValueError, SpecRuntimeError) as exc:
        raise QueryError(f"odds: {exc}") from None
    procs = [game.program.procs[p].rule for p in search.chance_procs()]
    # then what the log says acted: before the position, by the action, and on the lines searched
    rules = list(dict.fromkeys(([applied_rule] if applied_rule else []) + list(search.rules) + [r for r in procs if r]
                               + [r for r in logged + list(search.logged) if r]))
    data: dict[str, Any] = {"question": "odds", "action": applied, "horizon": hz.description,
                            "positions": search.positions, "rules": rules}
    lines = [f"Odds after {applied!r}" if applied else "Odds from this position",
             f"  horizon: {hz.description}"]
    if outcome is not None:
        p = dist.get(True, Fraction(0))
        data.update({"outcome": outcome, **_p(p)})
        lines[0] += f" that {goal_text}"
        lines.append("  decisions in between: played to maximise this probability")
        lines.append(f"  P = {fraction_text(p)} \u2248 {float(p):.6f}")
    else:
        objective = maximise or schema.objective
        data["maximised"] = objective
        items = sorted(dist.items(), key=lambda kv: (-kv[1], str(kv[0])))
        data["distribution"] = [{"outcome": str(k), **_p(p)} for k, p in items]
        data["expected_objective"] = fraction_text(value)
        lines.append(f"  decisions in between: played to maximise {objective}")
        lines.append(f"  {len(items)} distinct outcome(s):")
        for k, p in items:
            lines.append(f"  {fraction_text(p):>9} \u2248 {float(p):.4f}  {k}")
    lines.append(f"  ({search.positions} positions; rules: {', '.join(rules)})")
    _cite_all(state0, data, lines)
    return Answer("odds", data, lines, search=search)


def _odds_of_finished(state: State, sc: Scenario | None, schema: Any, v: Values, outcome: str | None,
                      maximise: str | None) -> Answer:
    """The odds in a finished game (or a position that ended after its step): certain, citing the rule
    that ended it."""
    o = state.outcome()
    assert o is not None
    goals = dict(schema.goals)
    rules = _outcome_rules(state, sc)
    data: dict[str, Any] = {"question": "odds", "action": None, "horizon": "the game is over", "positions": 1,
                            "rules": rules}
    lines = [f"Odds in a finished position ({o.result}{' (' + o.rule_id + ')' if o.rule_id else ''})"]
    if outcome is not None:
        if outcome in goals:
            hit = o.result == goals[outcome]
        else:
            hit = bool(v.raw(outcome, state.values)[0])
        p = Fraction(int(hit))
        data.update({"outcome": outcome, **_p(p)})
        lines[0] += f" that {outcome}"
        lines.append(f"  P = {fraction_text(p)} \u2248 {float(p):.6f}")
    else:
        data["maximised"] = maximise or schema.objective
        label = f"game over: {o.result} ({o.rule_id})" if o.rule_id else f"the position ends here: {o.result}"
        data["distribution"] = [{"outcome": label, **_p(Fraction(1))}]
        results = dict(schema.results)
        data["expected_objective"] = str(results.get(o.result, 0))
        lines += ["  1 distinct outcome(s):", f"          1 \u2248 1.0000  {label}"]
    _cite_all(state, data, lines)
    return Answer("odds", data, lines)


# ---- can ---------------------------------------------------------------------------------------


def can(position: State | Scenario | str, goal: str, within: int) -> Answer:
    """Can ``goal`` (an expression, or a keyword such as lose/win) happen within ``within`` actions
    (decisions and chance outcomes)? Yes with a replayable witness, or no with the bound."""
    state, sc = _position(position)
    schema = schema_for(state.game)
    v = Values(state.game)
    goals = dict(schema.goals)
    if isinstance(within, bool) or not isinstance(within, int) or within < 0:
        raise QueryError(f"the bound must be a whole number of actions, found {within!r}")
    if goal in goals:
        want = goals[goal]

        def test(s: State) -> bool:
            o = s.outcome()
            return o is not None and o.result == want
    else:
        v.compile(goal)

        def test(s: State) -> bool:
            return bool(v.raw(goal, s.values)[0])
    try:
        witness, explored = reachable(state, test, within, _known(sc))
    except TooLarge as exc:
        raise QueryError(f"can: {exc}") from None
    data: dict[str, Any] = {"question": "can", "goal": goal, "within": within, "positions": explored}
    if witness is None:
        data.update({"answer": "no", "rules": [], "citations": []})
        message = f"No: {goal} cannot happen within {within} action(s) (searched {explored} positions)."
        return Answer("can", data, [message])
    replay = state.clone()
    replay.tracing = True
    start = len(replay.log())
    # already reached: what brought the position there is the scenario's step (its log)
    before = [e.rule for e in state.log()] if not witness.actions and sc is not None else []
    for a in witness.actions:
        replay.apply_action(a)
    rules = list(dict.fromkeys([r for r in before if r] + [a.rule for a in witness.actions if a.rule]
                               + [e.rule for e in replay.log()[start:] if e.rule] + _outcome_rules(replay)))
    labels = [a.label for a in witness.actions]
    data.update({"answer": "yes", "witness": labels, "length": len(labels), **_p(witness.probability),
                 "rules": rules})
    data["witness_probability"] = data.pop("probability")
    head = (f"Yes: {goal} can happen within {within} action(s); a shortest line has {len(labels)}"
            f" (its chance outcomes have probability {fraction_text(witness.probability)}):")
    lines = [head]
    lines += [f"  {i}. {lab}" for i, lab in enumerate(labels, 1)]
    lines.append("  replay: next " + " ".join(shlex.quote(x) for x in labels) if labels
                 else "  (the position already meets it)")
    lines.append(f"  rules: {', '.join(rules)}")
    _cite_all(replay, data, lines)
    return Answer("can", data, lines, replay)


# ---- asking ------------------------------------------------------------------------------------


def parse_question(words: Iterable[str] | str | dict | None) -> dict[str, Any]:
    """A question as words (``odds "label" --outcome EXPR``), as text, or as a mapping
    (``{ask: odds, action: ..., outcome: ...}``) -> a normalised dict."""
    if words is None:
        return {"ask": "legal"}
    if isinstance(words, dict):
        q = {str(k): v for k, v in words.items()}
        kind = str(q.get("ask", ""))
        if kind not in QUESTIONS:
            raise QueryError(f"question: 'ask' must be one of {', '.join(QUESTIONS)}, found {kind!r}")
        allowed = {"ask", "action", "actions", "outcome", "horizon", "maximise", "goal", "within", "verbose",
                   "budget"}
        for k in q:
            if k not in allowed:
                raise QueryError(f"question: unknown key {k!r}; expected: {', '.join(sorted(allowed))}")
        if "actions" in q and not isinstance(q["actions"], list):
            raise QueryError("question: 'actions' must be a list of action labels")
        return q
    if isinstance(words, str):
        try:
            words = shlex.split(words)
        except ValueError as exc:
            raise QueryError(f"cannot read the question: {exc}") from None
    words = list(words)
    q: dict[str, Any] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        name, eq, val = w.partition("=")
        if name in ("--outcome", "--horizon", "--maximise", "--maximize", "--budget"):
            if not eq:
                if i + 1 >= len(words):
                    raise QueryError(f"{name} needs a value")
                val = words[i + 1]
                i += 1
            q[name[2:].replace("maximize", "maximise")] = val
        elif w in ("--verbose", "--json"):
            q[w[2:]] = True
        elif w.startswith("--"):
            raise QueryError(f"unknown option {w}; options: --outcome, --horizon, --maximise, --budget, --verbose, "
                             f"--json")
        else:
            rest.append(w)
        i += 1
    if not rest:
        q["ask"] = "legal"
        return q
    kind = rest[0]
    if kind not in QUESTIONS:
        raise QueryError(f"unknown question {kind!r}; ask one of: legal [ACTION], next ACTION..., "
                         "odds [ACTION] [--outcome EXPR], can GOAL within N")
    q["ask"] = kind
    args = rest[1:]
    if kind == "legal":
        if len(args) > 1:
            raise QueryError("legal takes at most one action (quote it)")
        if args:
            q["action"] = args[0]
    elif kind == "next":
        q["actions"] = args
    elif kind == "odds":
        if len(args) > 1:
            raise QueryError("odds takes at most one action (quote it)")
        if args:
            q["action"] = args[0]
    else:
        if "within" not in args or args.index("within") != len(args) - 2:
            raise QueryError("ask: can GOAL within N (e.g. can lose within 3)")
        q["goal"] = " ".join(args[:-2])
        q["within"] = args[-1]
    return q


def ask(position: State | Scenario | str, question: Any = None) -> Answer:
    """Answer a question about a scenario (its own ``question:`` when none is given). A file's own
    question that cannot be asked as put is reported at the file's line (``file:line: question...``)."""
    state, sc = _position(position)
    if question is None and sc is not None:
        try:
            return _ask(state, sc, sc.question)
        except (QueryError, SpecError) as exc:
            raise located(sc, exc) from None
    return _ask(state, sc, question)


def located(sc: Scenario, exc: Exception) -> Exception:
    """The error of a file's own question, at the line of the question key it is about (an error that
    already names another file is returned as it is)."""
    doc = sc.doc
    if doc is None or "question" not in doc or isinstance(exc, SpecError) and exc.file not in (None, "<query>"):
        return exc
    message = exc.message if isinstance(exc, SpecError) else str(exc)
    line = doc.key_line("question")
    block = doc["question"]
    if isinstance(block, dict) and hasattr(block, "key_line"):
        for key, value in block.items():
            words = [str(x) for x in value] if isinstance(value, list) else [str(value)]
            if key != "ask" and any(w and w in message for w in words):
                line = block.key_line(key)
                break
    return ScenarioError(f"question: {message}", sc.file, line)


def _ask(state: State, sc: Scenario | None, question: Any) -> Answer:
    q = parse_question(question)
    target: State | Scenario = sc if sc is not None else state
    kind = q["ask"]
    if kind == "legal":
        return legal(target, q.get("action"))
    if kind == "next":
        actions = q.get("actions")
        if actions is None:
            actions = [q["action"]] if q.get("action") is not None else []
        return next(target, *[str(a) for a in actions], verbose=bool(q.get("verbose")))
    if kind == "odds":
        try:
            budget = int(q.get("budget", 5_000))
        except (TypeError, ValueError):
            budget = 0
        if budget < 1 or isinstance(q.get("budget"), bool):
            raise QueryError(f"--budget must be a positive whole number of positions, found {q.get('budget')!r}")
        return odds(target, q.get("action"), q.get("outcome"), q.get("horizon"), q.get("maximise"), budget)
    within = q.get("within")
    try:
        bound = int(within)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise QueryError(f"can: the bound must be a whole number of actions, found {within!r}") from None
    if "goal" not in q:
        raise QueryError("can: which goal? (lose, win or a condition)")
    return can(target, str(q["goal"]), bound)


__all__ = ["Answer", "QueryError", "ask", "can", "describe_node", "legal", "located", "next", "odds",
           "parse_question", "resolve"]
