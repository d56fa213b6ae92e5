"""The symbolic executor's paths (unroll.py): a path's state, call frames, statement blocks and
the nodes it passed, and the two ways a path stops early."""

from __future__ import annotations

from typing import Any

import attrs

from .symbolic import Term

Value = Any  # int | bool | a Z3 term


class Paused(Exception):
    """Follow mode: the engine's actions are used up at this node."""


class Dead(Exception):
    """The engine would stop with a runtime fault on this path: it is no line of play."""


@attrs.define
class Step:
    """A node the path passed: a decision (``choose``) or a chance node, with the option taken."""

    kind: str                     # choose, draw/random/..., roll
    where: tuple[str, int]        # the statement's file and line (the engine's node has the same)
    key: tuple[Value, ...]        # the engine's action key; Z3 terms where chance picked
    enabled: list[Value] = attrs.Factory(list)  # the options' or outcomes' guards: one left = no pause
    may_skip: bool = False        # an auto menu or a random node: the engine takes a lone option
    shown: tuple[str, str] = ("", "")   # a chance node's label prefix and outcome type (as the engine shows it)


@attrs.define
class Block:
    """Statements to run in order; ``loop`` holds a for statement's own state."""

    stmts: tuple[Any, ...]
    i: int = 0
    loop: Any = None               # (ForStmt, next position) for a loop head block
    event: Any = None              # (EventDecl, rules, position or done set) for a dispatcher


@attrs.define
class Frame:
    locals: dict[str, tuple[Value, str]]
    blocks: list[Block]


@attrs.define
class Path:
    values: list[Value]
    symbolic: set[str]             # slot families with a Z3 term in some cell
    cond: list[Term]
    frames: list[Frame]
    trail: list[Step] = attrs.Factory(list)
    turns: int = 0
    result: tuple[str, str] | None = None
    pruned: bool = False
    # each chance constant's possible values on this path (a finite domain), and those pinned
    doms: dict[str, tuple[Term, tuple[int, ...]]] = attrs.Factory(dict)
    fixed: dict[str, int] = attrs.Factory(dict)
    free: dict[str, Term] = attrs.Factory(dict)     # the chance constants not pinned yet
    guide: int = 0                 # the question's guide where last known (orders the search)

    def fork(self) -> "Path":
        frames = [Frame(dict(f.locals), [Block(b.stmts, b.i, b.loop, _copy_event(b.event)) for b in f.blocks])
                  for f in self.frames]
        return Path(list(self.values), set(self.symbolic), list(self.cond), frames, list(self.trail), self.turns,
                    self.result, self.pruned, dict(self.doms), dict(self.fixed), dict(self.free),
                    self.guide)


def _copy_event(event: Any) -> Any:
    if event is None:
        return None
    decl, rules, pos = event
    return decl, rules, set(pos) if isinstance(pos, set) else pos
