"""Validated value objects for a game spec: what the loader produces and every reader consumes.

The engine compiles these, the prover encodes them and the docs render them; nothing here knows
any particular game.
"""

from __future__ import annotations

from typing import Union

import attrs

from .expr import Expr


@attrs.frozen
class Where:
    """A place in a spec file."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@attrs.frozen
class Parameter:
    """A setting chosen when a game is loaded (players, level, edition ...). ``only`` limits its
    values other than the default to the settings of other parameters named there, citing ``rule``
    (Ghost Stories: ``easy: {values: ["no", "yes"], only: {level: [initiation]}, rule: GS-LEVEL-EASY}``);
    the loader refuses other combinations, and the proofs and tests that run every configuration
    skip them."""

    name: str
    values: tuple[Union[int, str], ...]
    default: Union[int, str]
    only: tuple[tuple[str, tuple[Union[int, str], ...]], ...] = ()
    rule: str = ""


@attrs.frozen
class Domain:
    """A finite, ordered set of symbols (tiles, colours, seats ...)."""

    name: str
    symbols: tuple[str, ...]
    labels: tuple[str, ...] = ()
    extends: str | None = None  # a domain whose symbols are this one's first symbols, in order

    def index(self, symbol: str) -> int:
        return self.symbols.index(symbol)


@attrs.frozen
class Table:
    """A static lookup: ``name[a, b]`` over the domains ``args``; ``values`` is row-major."""

    name: str
    args: tuple[str, ...]
    type: str  # "int", "bool" or a domain name
    values: tuple[int, ...]
    text: str = ""
    where: Where | None = None


@attrs.frozen
class Var:
    """A family of state slots ``name[i, j]``: counters, flags or positions."""

    name: str
    index: tuple[str, ...]
    type: str  # "int", "bool" or a domain name
    lo: int
    hi: int
    init: tuple[int, ...]  # one value per slot (row-major)
    text: str = ""
    where: Where | None = None


@attrs.frozen
class Pool:
    """A conserved component: the sum over its cells is ``total`` (per key of ``per``, if given)."""

    name: str
    cells: tuple[str, ...]
    total: int
    per: str | None = None
    text: str = ""
    where: Where | None = None


@attrs.frozen
class Die:
    """A die: its faces (symbols of ``domain``, repeated faces weigh more); each face 1/len."""

    name: str
    faces: tuple[str, ...]
    domain: str
    text: str = ""


@attrs.frozen
class EventDecl:
    """A named event. When several rules fire on it, ``order`` says how they are ordered:
    ``declared`` (priority, then file order: the rulebook's order) or ``choice`` (the player
    ``by`` picks which applicable rule resolves next, where the rulebook gives no order).

    ``requires`` is the event's contract: a condition on its parameters alone (no state slot, so
    it holds for every rule fired, whatever the rules before it changed). The engine checks it at
    every ``emit``, the prover proves it there and assumes it in every rule triggered by the event.
    ``where`` is the declaration's place, for errors."""

    name: str
    params: tuple[tuple[str, str], ...]
    text: str = ""
    order: str = "declared"
    by: Union[Expr, None] = None
    requires: Union[Expr, None] = None
    where: Union[Where, None] = None


@attrs.frozen
class Template:
    """A log or label text with ``{expression}`` holes."""

    parts: tuple[Union[str, Expr], ...]
    source: str


# ---- statements (effects) -------------------------------------------------------------------


@attrs.frozen
class Stmt:
    rule: str
    where: Where


@attrs.frozen
class SetStmt(Stmt):
    """Set a non-conserved slot (flag, position, card location) to a value."""

    target: Expr
    value: Expr


@attrs.frozen
class MoveStmt(Stmt):
    """Move ``amount`` units of one pool from one cell to another (conservation by construction).

    With ``upto`` the amount is capped at what the source holds (and the room the target has)."""

    amount: Union[Expr, None]  # None = everything in the source
    source: Expr
    target: Expr
    upto: bool


@attrs.frozen
class IfStmt(Stmt):
    cond: Expr
    then: tuple["AnyStmt", ...]
    other: tuple["AnyStmt", ...]


@attrs.frozen
class ForStmt(Stmt):
    var: str
    domain: Expr
    cond: Union[Expr, None]
    body: tuple["AnyStmt", ...]


@attrs.frozen
class LetStmt(Stmt):
    name: str
    value: Expr


@attrs.frozen
class CallStmt(Stmt):
    proc: str
    args: tuple[tuple[str, Expr], ...]


@attrs.frozen
class EmitStmt(Stmt):
    event: str
    args: tuple[tuple[str, Expr], ...]


@attrs.frozen
class MenuOption:
    label: Template
    var: Union[str, None]
    domain: Union[Expr, None]
    cond: Union[Expr, None]
    body: tuple["AnyStmt", ...]
    rule: str
    where: Where


@attrs.frozen
class MenuStmt(Stmt):
    """A decision point: the player ``by`` picks one of the options whose guard holds."""

    by: Expr
    prompt: str
    options: tuple[MenuOption, ...]
    auto: bool = False


@attrs.frozen
class RandomStmt(Stmt):
    """A chance node: an element of ``domain`` satisfying ``cond``, uniformly (kind draw/random)."""

    kind: str
    var: str
    domain: Expr
    cond: Union[Expr, None]


@attrs.frozen
class RollStmt(Stmt):
    """A chance node: one roll of a die, its face bound to ``var``."""

    die: str
    var: str


@attrs.frozen
class EndStmt(Stmt):
    """The game ends with ``result`` (e.g. win / loss), decided by this rule."""

    result: str
    text: Union[Template, None]


@attrs.frozen
class SayStmt(Stmt):
    text: Template


AnyStmt = Union[SetStmt, MoveStmt, IfStmt, ForStmt, LetStmt, CallStmt, EmitStmt, MenuStmt, RandomStmt,
                RollStmt, EndStmt, SayStmt]


# ---- rules ----------------------------------------------------------------------------------


@attrs.frozen
class Source:
    edition: str
    words: str
    page: Union[int, None] = None
    encoded: Union[str, None] = None


@attrs.frozen
class Rule:
    """One rule: its ID, our wording, its sources and its formal part.

    ``kind`` is ``trigger`` (``on`` an event, ``when`` a condition, ``do`` effects), ``procedure``
    (a named effect list that other rules call), ``define`` (a named derived value such as a
    continuous effect: a query over the state, so it cannot go stale) or ``text`` (no formal part of
    its own; ``implemented_by`` names the rules that carry it, or ``reason`` says why)."""

    id: str
    family: str
    text: str
    editions: tuple[str, ...]
    sources: tuple[Source, ...]
    kind: str
    where: Where
    differs: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    basis: str = ""
    on: str = ""
    when: Union[Expr, None] = None
    name: str = ""  # procedure or definition name
    params: tuple[tuple[str, str], ...] = ()
    value: Union[Expr, None] = None
    body: tuple[AnyStmt, ...] = ()
    priority: int = 0
    implemented_by: tuple[str, ...] = ()
    reason: str = ""
    overlay: str = ""  # the ED-n (or parameter) that put this version in place, if any
    configurations: tuple[tuple[str, tuple[Union[int, str], ...]], ...] = ()  # parameter values it applies to
    formal_where: Union[Where, None] = None  # the line of its 'when:' or 'value:'
    on_where: Union[Where, None] = None  # the line of its 'on:'
    requires: Union[Expr, None] = None  # a procedure's precondition: callers must make it true
    # where the loaded configuration's overlay adopts this rule although its edition's text is silent
    # (an overlay's ``notes`` entry naming it): "ED-6: HU is silent; the shared choice ... applies."
    adopted: tuple[str, ...] = ()

    @property
    def formal_at(self) -> Where:
        return self.formal_where or self.where

    def applies_to(self, settings: dict[str, Union[int, str]]) -> bool:
        """Does this rule concern the configuration (edition and the other parameters)?"""
        edition = settings.get("edition")
        if edition is not None and self.editions and edition not in self.editions and not self.adopted:
            return False
        return all(settings.get(k, v[0]) in v for k, v in self.configurations)


@attrs.frozen
class Definition:
    """A named derived value (``name(params) = value``), such as a continuous effect or a geometry
    query. It cites the rule it expresses; being a query over the state, it cannot go stale."""

    name: str
    params: tuple[tuple[str, str], ...]
    value: Expr
    rule: str
    text: str
    where: Where


@attrs.frozen
class Invariant:
    """A property every position between two actions satisfies (checked by tests and proved by the
    prover); ``boundary`` invariants also hold whenever a procedure starts or returns."""

    id: str
    rule: str
    text: str
    holds: Expr
    where: Where
    boundary: bool = True


@attrs.frozen
class OverlayChange:
    """One entry of an overlay (an edition or another parameter): what it changes and why.

    ``kind`` is constant, define, replace, add, remove, score or note (a difference that changes
    no formal rule, e.g. one of wording, or where the other text is silent)."""

    difference: str
    overlay: str
    kind: str
    target: str
    note: str = ""


@attrs.frozen
class ScoreLine:
    """One line of a score sheet: ``value`` is an expression evaluated on the final state."""

    label: str
    rule: str
    value: Expr
    where: Where


@attrs.frozen
class Family:
    name: str
    title: str
    file: str


@attrs.frozen
class GameSpec:
    """Everything one configuration of a game needs, after overlays were applied."""

    name: str
    title: str
    parameters: tuple[Parameter, ...]
    settings: tuple[tuple[str, Union[int, str]], ...]
    domains: tuple[Domain, ...]
    constants: tuple[tuple[str, int], ...]
    tables: tuple[Table, ...]
    vars: tuple[Var, ...]
    pools: tuple[Pool, ...]
    dice: tuple[Die, ...]
    events: tuple[EventDecl, ...]
    rules: tuple[Rule, ...]
    families: tuple[Family, ...]
    setup: str
    turn: str
    players: str  # the domain whose symbols are the decision makers
    definitions: tuple[Definition, ...] = ()
    score: tuple[ScoreLine, ...] = ()
    invariants: tuple[Invariant, ...] = ()
    changes: tuple[OverlayChange, ...] = ()
    overlays_applied: tuple[str, ...] = ()
    root: str = ""

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def domain(self, name: str) -> Domain:
        for d in self.domains:
            if d.name == name:
                return d
        raise KeyError(name)
