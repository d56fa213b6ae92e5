"""Decision policies for simulations: uniform random, and a heuristic read from ``specs/<game>/policy.yaml``.

A policy is a callable ``policy(state, rng) -> Action`` (the signature of
:func:`ghostrules.engine.game.play`). The heuristic policy holds no game knowledge: it interprets a
policy file, which is data in the spec language, with these keys::

    definitions:                    # named expressions with parameters, usable in every expression below
      "missing(m, g)": "sum(c in colour : max(0, need(g, c) - usable_tokens(m, c)))"
    value:                          # the position evaluation: a weighted sum of terms
      - {term: "haunted_tiles", weight: -40, text: "why"}
    outcomes: {win: 1000, loss: -1000}   # the value of a finished game, by its result
    lookahead:
      through:                      # decisions the lookahead passes through by taking its best option
        - RULE-ID                   # every option of the decision
        - {node: RULE-ID, option: "asks .* for help"}   # only the options whose label matches
        - {node: RULE-ID, option: "...", transparent: true}   # preferences read past it (see lookahead.py)
      budget: 400                   # positions expanded at most per option examined
      max_outcomes: 8               # chance nodes with more outcomes (card draws) are not expanded ...
      samples: 0                    # ... unless samples > 0: then that many sampled outcomes are followed
      stops:                        # points for stopping at a chance node of a rule (what a draw brings)
        - {node: "RULE-ID", score: -35}
      estimates:                    # options judged by an expression instead of being followed
        - {node: RULE-ID, option: "tries to exorcise", value: "expression", weight: 0.01}
      plans:                        # decisions with their own lookahead: through, estimates and stops
        - node: "RULE-ID"           # add to the ones above; budget, max_outcomes, samples replace them
          through: [OTHER-ID]
          budget: 2000
          samples: 3
    preferences:                    # extra points for options, in order of the file
      - node: "RULE-ID|OTHER-ID"    # the rule of the decision node (a regular expression, full match)
        option: "tries to exorcise" # a regular expression searched in the option's label (optional)
        when: "condition"           # evaluated in the position before the decision (optional)
        score: 5                    # constant points
        lookahead: "expression"     # plus weight * its expected value at the next decision (optional)
        weight: 1

For every option of a decision with two options or more, the policy applies the option to a copy
of the position and follows the game on: chance nodes are expanded exactly (each outcome weighted
by its probability) and decisions named in ``lookahead.through`` take their best option by
``value``, until the next other decision, a chance node with more than ``max_outcomes`` outcomes,
the end of the game, or until the budget is spent (see :mod:`ghostrules.simulate.lookahead` for
``samples``, ``stops`` and ``estimates``; a decision matching a plan's ``node`` uses the plan's
lookahead). The sampled outcomes come from a generator seeded, once per decision, by the game's
generator, and every option of the decision uses that seed. The option's score is the expected ``value``
there, plus the points of every matching preference (a preference's ``lookahead`` expression is
read at the first decision after the option, chance expanded exactly). The
best score wins; ties are broken by the seeded random generator, so runs stay reproducible.
A decision no preference names and with no ``value`` is taken uniformly at random.

A definition is a macro: a call ``missing(active, target_a(active))`` is replaced, when the file is
read, by the definition's text with each parameter replaced by its argument (in parentheses).
Definitions may call the definitions above them. Parameters are replaced as whole words, so a
parameter's name must not also be a variable bound inside the text (``c`` in ``sum(c in colour : ...)``).
"""

from __future__ import annotations

import random
import re
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from ..engine import Action, State
from ..engine.game import random_policy
from ..spec import SpecError
from ..spec.loader import games_root
from ..spec.source import LDict, load_yaml_file
from .lookahead import Estimate, Search, expected

Policy = Callable[[State, random.Random], Action]
POLICY_FILE = "policy.yaml"
EPSILON = 1e-9


@attrs.frozen
class Term:
    """One weighted term of the position evaluation."""

    expression: str
    weight: float
    text: str = ""


@attrs.frozen
class Preference:
    """Points for the options of a decision that match ``node`` (rule ID) and ``option`` (label)."""

    node: re.Pattern[str]
    option: re.Pattern[str] | None
    when: str | None
    score: float
    lookahead: str | None
    weight: float
    where: str
    text: str = ""

    def matches(self, rule: str, label: str) -> bool:
        return bool(self.node.fullmatch(rule)) and (self.option is None or bool(self.option.search(label)))


@attrs.frozen
class Plan:
    """A deeper lookahead for the decisions whose rule matches ``node``: ``search`` replaces the default."""

    node: re.Pattern[str]
    search: Search


@attrs.frozen
class PolicySpec:
    """A heuristic policy as read from its file."""

    name: str
    file: str
    text: str
    terms: tuple[Term, ...]
    outcomes: dict[str, float]
    through: dict[str, re.Pattern[str] | None]
    budget: int
    max_outcomes: int
    preferences: tuple[Preference, ...]
    definitions: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    samples: int = 0
    plans: tuple[Plan, ...] = ()
    estimates: tuple[Estimate, ...] = ()
    stops: tuple[tuple[re.Pattern[str], float], ...] = ()
    transparent: frozenset[str] = frozenset()

    @property
    def search(self) -> Search:
        """The default lookahead, for decisions no plan names."""
        return Search(self.through, self.budget, self.max_outcomes, self.samples, self.estimates, self.stops,
                      self.transparent)

    def search_for(self, rule: str) -> Search:
        """The lookahead for a decision of ``rule``: the first matching plan's, else the default."""
        for plan in self.plans:
            if plan.node.fullmatch(rule):
                return plan.search
        return self.search


def _number(raw: Any, owner: Any, key: str, default: float) -> float:
    value = raw.get(key, default) if isinstance(raw, dict) else default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise owner.error_at(key, f"{key} must be a number (got {value!r})") if isinstance(owner, LDict) \
            else SpecError(f"{key} must be a number")
    return float(value)


def _regex(raw: Any, owner: LDict, key: str) -> re.Pattern[str]:
    try:
        return re.compile(str(raw))
    except re.error as exc:
        raise owner.error_at(key, f"{key} is not a valid regular expression: {exc}") from None


_DEFINITION = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:\(([^()]*)\))?\s*")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _arguments(text: str, start: int) -> tuple[list[str], int]:
    """The comma-separated arguments of the call whose '(' is at ``start``, and the index after its ')'."""
    depth, begin = 0, start + 1
    args: list[str] = []
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                args.append(text[begin:i])
                return ([] if len(args) == 1 and not args[0].strip() else [a.strip() for a in args]), i + 1
        elif ch == "," and depth == 1:
            args.append(text[begin:i])
            begin = i + 1
    raise SpecError(f"unbalanced parentheses in {text!r}")


def expand(text: str, definitions: dict[str, tuple[tuple[str, ...], str]]) -> str:
    """``text`` with every call of a definition replaced by the definition's body (see the module doc)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        match = _IDENTIFIER.match(text, i)
        if match is None or (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            out.append(text[i])
            i += 1
            continue
        word, end = match.group(), match.end()
        if word not in definitions:
            out.append(word)
            i = end
            continue
        params, body = definitions[word]
        if params:
            j = end
            while j < len(text) and text[j].isspace():
                j += 1
            if j >= len(text) or text[j] != "(":
                raise SpecError(f"{word} needs its arguments ({', '.join(params)}) in {text!r}")
            args, end = _arguments(text, j)
            if len(args) != len(params):
                raise SpecError(f"{word} takes {len(params)} argument(s) ({', '.join(params)}), "
                                f"got {len(args)} in {text!r}")
            values = dict(zip(params, (f"({expand(a, definitions)})" for a in args)))
            body = re.sub(r"\b(" + "|".join(map(re.escape, params)) + r")\b",
                          lambda m, values=values: values[m.group()], body)
        out.append(f"({body})")
        i = end
    return "".join(out)


def _read_definitions(doc: LDict) -> dict[str, tuple[tuple[str, ...], str]]:
    raw = doc.get("definitions") or LDict()
    if not isinstance(raw, dict):
        raise doc.error_at("definitions", "definitions is a mapping: \"name(param, ...)\": expression")
    known: dict[str, tuple[tuple[str, ...], str]] = {}
    for key, body in raw.items():
        match = _DEFINITION.fullmatch(str(key))
        if match is None:
            raise raw.error_at(key, f"a definition is named name or name(param, ...), not {key!r}")
        params = tuple(p.strip() for p in (match.group(2) or "").split(",") if p.strip())
        try:
            known[match.group(1)] = (params, expand(" ".join(str(body).split()), known))
        except SpecError as exc:
            raise raw.error_at(key, str(exc)) from None
    return known


def _read_through(owner: LDict) -> dict[str, re.Pattern[str] | None]:
    """The ``through`` list of ``owner``: rule ID -> the pattern its options must match (None: all)."""
    raw_through = owner.get("through") or []
    if not isinstance(raw_through, list):
        raise owner.error_at("through", "through is a list of rule IDs")
    through: dict[str, re.Pattern[str] | None] = {}
    for item in raw_through:
        if isinstance(item, LDict):
            if "node" not in item or set(item) - {"node", "option", "transparent"}:
                raise item.error("a through entry is a rule ID or {node: RULE-ID, option: REGEX, transparent: BOOL}")
            if not isinstance(item.get("transparent", False), bool):
                raise item.error_at("transparent", "transparent is true or false")
            through[str(item["node"])] = _regex(item["option"], item, "option") if "option" in item else None
        else:
            through[str(item)] = None
    return through


def _read_transparent(owner: LDict) -> frozenset[str]:
    """The rule IDs of ``owner``'s through entries marked ``transparent: true``."""
    return frozenset(str(item["node"]) for item in owner.get("through") or []
                     if isinstance(item, LDict) and item.get("transparent", False) is True)


def _read_estimates(owner: LDict, expression: Callable[[LDict, str], str]) -> tuple[Estimate, ...]:
    """The ``estimates`` list of ``owner``: {node: RULE-ID, option: REGEX, value: EXPR, weight: N}."""
    raw_list = owner.get("estimates") or []
    if not isinstance(raw_list, list):
        raise owner.error_at("estimates", "estimates is a list of {node: RULE-ID, option: REGEX, value: EXPR}")
    out = []
    for raw in raw_list:
        if not isinstance(raw, LDict) or not {"node", "option", "value"} <= set(raw):
            raise owner.error_at("estimates", "an estimate needs node (a rule ID), option (a regular expression) "
                                              "and value (an expression)")
        for key in raw:
            if key not in {"node", "option", "value", "weight", "text"}:
                raise raw.error_at(key, f"unknown estimate key {key!r}; an estimate has: node, option, value, "
                                        "weight, text")
        out.append(Estimate(str(raw["node"]), _regex(raw["option"], raw, "option"), expression(raw, "value"),
                            _number(raw, raw, "weight", 1.0)))
    return tuple(out)


def _read_stops(owner: LDict) -> tuple[tuple[re.Pattern[str], float], ...]:
    """The ``stops`` list of ``owner``: {node: REGEX, score: N} for chance nodes the lookahead stops at."""
    raw_list = owner.get("stops") or []
    if not isinstance(raw_list, list):
        raise owner.error_at("stops", "stops is a list of {node: REGEX, score: N}")
    out = []
    for raw in raw_list:
        if not isinstance(raw, LDict) or "node" not in raw:
            raise owner.error_at("stops", "a stop needs node (the rule of a chance node, a regular expression)")
        for key in raw:
            if key not in {"node", "score", "text"}:
                raise raw.error_at(key, f"unknown stop key {key!r}; a stop has: node, score, text")
        out.append((_regex(raw["node"], raw, "node"), _number(raw, raw, "score", 0.0)))
    return tuple(out)


def read_policy(path: Path, name: str = "heuristic") -> PolicySpec:
    """Read and check a policy file (safe YAML; errors give file:line)."""
    doc = load_yaml_file(path, games_root())
    if not isinstance(doc, LDict):
        raise SpecError("a policy file is a mapping (definitions, value, outcomes, lookahead, preferences)", str(path))
    known = {"policy", "text", "definitions", "value", "outcomes", "lookahead", "preferences"}
    for key in doc:
        if key not in known:
            raise doc.error_at(key, f"unknown key {key!r}; a policy file has: {', '.join(sorted(known))}")
    definitions = _read_definitions(doc)

    def expression(owner: LDict, key: str) -> str:
        try:
            return expand(str(owner[key]), definitions)
        except SpecError as exc:
            raise owner.error_at(key, str(exc)) from None

    terms = []
    for raw in doc.get("value") or []:
        if not isinstance(raw, LDict) or "term" not in raw:
            raise SpecError("each value entry needs 'term' (an expression) and 'weight'", doc.file,
                            getattr(raw, "line", doc.key_line("value")))
        terms.append(Term(expression(raw, "term"), _number(raw, raw, "weight", 1.0), str(raw.get("text", ""))))
    outcomes_raw = doc.get("outcomes") or {}
    outcomes = {str(k): _number(outcomes_raw, outcomes_raw, k, 0.0) for k in outcomes_raw}
    look = doc.get("lookahead") or LDict()
    for key in look:
        if key not in {"through", "budget", "max_outcomes", "samples", "estimates", "stops", "plans"}:
            raise look.error_at(key, f"unknown lookahead key {key!r}; it has: through, budget, max_outcomes, "
                                     "samples, estimates, stops, plans")
    through = _read_through(look)
    transparent = _read_transparent(look)
    budget = int(_number(look, look, "budget", 400))
    max_outcomes = int(_number(look, look, "max_outcomes", 8))
    samples = int(_number(look, look, "samples", 0))
    estimates = _read_estimates(look, expression)
    stops = _read_stops(look)
    plans = []
    raw_plans = look.get("plans") or []
    if not isinstance(raw_plans, list):
        raise look.error_at("plans", "lookahead.plans is a list of {node: REGEX, through: [...], budget: N, ...}")
    for raw in raw_plans:
        if not isinstance(raw, LDict) or "node" not in raw:
            raise look.error_at("plans", "each plan needs 'node' (the rule ID of its decisions, a regular expression)")
        for key in raw:
            if key not in {"node", "through", "budget", "max_outcomes", "samples", "estimates", "stops", "text"}:
                raise raw.error_at(key, f"unknown plan key {key!r}; a plan has: node, through, budget, "
                                        "max_outcomes, samples, estimates, stops, text")
        plans.append(Plan(_regex(raw["node"], raw, "node"), Search(
            {**through, **_read_through(raw)}, int(_number(raw, raw, "budget", budget)),
            int(_number(raw, raw, "max_outcomes", max_outcomes)), int(_number(raw, raw, "samples", samples)),
            _read_estimates(raw, expression) + estimates, _read_stops(raw) + stops,
            transparent | _read_transparent(raw))))
    prefs = []
    for raw in doc.get("preferences") or []:
        if not isinstance(raw, LDict) or "node" not in raw:
            raise SpecError("each preference needs 'node' (the rule ID of the decision, a regular expression)",
                            doc.file, getattr(raw, "line", doc.key_line("preferences")))
        for key in raw:
            if key not in {"node", "option", "when", "score", "lookahead", "weight", "text"}:
                raise raw.error_at(key, f"unknown preference key {key!r}")
        prefs.append(Preference(
            node=_regex(raw["node"], raw, "node"),
            option=_regex(raw["option"], raw, "option") if "option" in raw else None,
            when=expression(raw, "when") if "when" in raw else None,
            score=_number(raw, raw, "score", 0.0),
            lookahead=expression(raw, "lookahead") if "lookahead" in raw else None,
            weight=_number(raw, raw, "weight", 1.0),
            where=f"{raw.file}:{raw.line}",
            text=str(raw.get("text", "")),
        ))
    return PolicySpec(name=str(doc.get("policy", name)), file=str(path), text=" ".join(str(doc.get("text", "")).split()),
                      terms=tuple(terms), outcomes=outcomes, through=through, budget=budget,
                      max_outcomes=max_outcomes, preferences=tuple(prefs),
                      definitions=tuple((k, p, b) for k, (p, b) in definitions.items()),
                      samples=samples, plans=tuple(plans), estimates=estimates, stops=stops,
                      transparent=transparent)


_compiled: weakref.WeakKeyDictionary[Any, dict[str, Callable[[State], float]]] = weakref.WeakKeyDictionary()


def evaluator(state: State, expression: str) -> Callable[[State], float]:
    """A function evaluating ``expression`` (spec language) in positions of ``state``'s game.

    It means ``float(state.eval(expression))``; ``State.eval`` parses and compiles the expression at
    every call (about 1 ms), too slow for a lookahead, so the compiled form is kept per game when the
    engine exposes its expression compiler, and ``state.eval`` is used otherwise."""
    known = _compiled.setdefault(state.game, {})
    fn = known.get(expression)
    if fn is None:
        fn = known[expression] = _compile(state, expression)
    return fn


def _compile(state: State, expression: str) -> Callable[[State], float]:
    value = state.eval(expression)  # raises on a bad expression, with the engine's message
    if isinstance(value, str):
        raise TypeError(f"it gives a symbol ({value!r}), not a number")
    try:
        from ..spec.expr import parse
        from ..spec.model import Where
        compiled, _ = state.game.program.exprs.compile(parse(expression), {}, Where("<policy>", 1), "")
        if float(compiled(state.values, {})) != float(value):  # pragma: no cover - a changed engine
            raise AttributeError
        return lambda s: float(compiled(s.values, {}))
    except (AttributeError, ImportError, TypeError):  # pragma: no cover - fall back to the public API
        return lambda s: float(s.eval(expression))


class HeuristicPolicy:
    """The generic interpreter of a policy file: see the module docstring."""

    def __init__(self, spec: PolicySpec) -> None:
        self.spec = spec
        self._checked = False

    def _check(self, state: State) -> None:
        # parse every expression once, so that a syntax error names its policy entry
        if self._checked:
            return
        from ..spec.expr import ExprError, parse
        entries = [(t.expression, f"value term {t.expression!r}") for t in self.spec.terms]
        for pref in self.spec.preferences:
            entries += [(e, f"preference at {pref.where}") for e in (pref.when, pref.lookahead) if e is not None]
        for search in [self.spec.search] + [plan.search for plan in self.spec.plans]:
            entries += [(e.expression, f"estimate of {e.node}") for e in search.estimates]
        for expression, what in entries:
            try:
                parse(expression)
            except ExprError as exc:
                raise SpecError(f"{what}: {exc}") from None
        self._checked = True

    def _eval(self, state: State, expression: str) -> float:
        try:
            return evaluator(state, expression)(state)
        except Exception as exc:  # noqa: BLE001 - the expression is data: say which entry failed
            where = [f"preference at {p.where}" for p in self.spec.preferences if expression in (p.when, p.lookahead)]
            what = where[0] if where else f"value term {expression!r}"
            raise SpecError(f"{self.spec.file}: {what}: {exc}") from None

    # ---- evaluation ----------------------------------------------------------------------
    def value(self, state: State) -> float:
        """The position's value: outcome points at the end, else the weighted terms."""
        if state.is_terminal():
            outcome = state.outcome()
            return self.spec.outcomes.get(outcome.result, 0.0) if outcome is not None else 0.0
        return sum(t.weight * self._eval(state, t.expression) for t in self.spec.terms)

    def expected(self, state: State, extras: tuple[str, ...] = (), search: Search | None = None,
                 rng: random.Random | None = None) -> tuple[float, ...]:
        """Expected (value, *extras) after ``state``, by ``search`` (default: the file's lookahead);
        see :mod:`ghostrules.simulate.lookahead`. ``rng`` draws the sampled outcomes of big chance nodes."""

        def leaf(s: State) -> tuple[float, ...]:
            if s.is_terminal():
                return (self.value(s),) + tuple(0.0 for _ in extras)
            return (self.value(s),) + tuple(self._eval(s, e) for e in extras)

        return expected(state, search or self.spec.search, leaf, rng, self._eval)

    # ---- deciding ------------------------------------------------------------------------
    def scores(self, state: State, seed: int = 0) -> list[tuple[Action, float]]:
        """Every legal option with its score (higher is better). ``seed`` seeds the sampled outcomes of
        big chance nodes (the same for every option, so that options are compared on the same draws)."""
        self._check(state)
        rule = state.node_rule()
        search = self.spec.search_for(rule)
        options = state.legal_actions()
        active = [p for p in self.spec.preferences if p.node.fullmatch(rule)]
        active = [p for p in active if p.when is None or self._eval(state, p.when)]
        out = []
        for action in options:
            matching = [p for p in active if p.matches(rule, action.label)]
            extras = tuple(p.lookahead for p in matching if p.lookahead is not None)
            score = 0.0
            if self.spec.terms or extras:
                child = state.clone()
                child.tracing = False
                child.apply_action(action)
                rng = random.Random(seed) if search.samples > 0 else None
                expected = self.expected(child, extras, search, rng)
                score = expected[0]
                k = 1
                for p in matching:
                    if p.lookahead is not None:
                        score += p.weight * expected[k]
                        k += 1
            score += sum(p.score for p in matching)
            out.append((action, score))
        return out

    def __call__(self, state: State, rng: random.Random) -> Action:
        options = state.legal_actions()
        if len(options) == 1:
            return options[0]
        samples = self.spec.search_for(state.node_rule()).samples
        scored = self.scores(state, rng.getrandbits(32) if samples > 0 else 0)
        best = max(s for _, s in scored)
        top = [a for a, s in scored if s >= best - EPSILON]
        return top[0] if len(top) == 1 else rng.choice(top)


def policy_file(game: str) -> Path:
    return games_root() / game / POLICY_FILE


def load_policy(game: str, name: str) -> Policy:
    """``random`` (uniform over the legal options), ``heuristic`` (``specs/<game>/policy.yaml``) or the
    path of a policy file."""
    if name == "random":
        return random_policy
    if name == "heuristic":
        path = policy_file(game)
        if not path.is_file():
            raise SpecError(f"{game} has no heuristic policy (no {path.relative_to(games_root())}); use --policy random")
        return HeuristicPolicy(read_policy(path))
    path = Path(name)
    if path.is_file():
        return HeuristicPolicy(read_policy(path, path.stem))
    raise SpecError(f"unknown policy {name!r}: random, heuristic or the path of a policy file")


def policy_names(game: str) -> list[str]:
    return ["random"] + (["heuristic"] if policy_file(game).is_file() else [])


__all__ = ["HeuristicPolicy", "Plan", "Policy", "PolicySpec", "Preference", "Search", "Term", "expand", "load_policy",
           "policy_file", "policy_names", "read_policy"]
