"""Actions: decisions and chance outcomes, as values that print as readable strings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

CHANCE = -1
TERMINAL = -4


@attrs.frozen
class Action:
    """One move: a decision option or a chance outcome.

    ``kind`` is ``choose`` for decisions, or ``draw``/``random``/``roll`` for chance outcomes;
    ``key`` identifies it within its node; ``label`` is what people read; ``rule`` is the rule
    that offers it."""

    kind: str
    key: tuple[int, ...]
    label: str = attrs.field(eq=False)
    rule: str = attrs.field(default="", eq=False)

    def __str__(self) -> str:
        return self.label

    def to_json(self) -> list[Any]:
        """``[kind, *key]``: what identifies the action at its node (the label and rule are not kept)."""
        return [self.kind, *self.key]


@attrs.frozen
class Outcome:
    """How a game ended: ``result`` (as the spec names it, e.g. win or loss), the deciding rule and why."""

    result: str
    rule_id: str
    text: str = ""

    def __str__(self) -> str:
        return f"{self.result} ({self.rule_id}){': ' + self.text if self.text else ''}"


# ``State.tracing`` may be this instead of True: each log entry is kept as its rule alone (with its
# ``floor``), without its words, for a search that only cites what acted (``State.take_rules``)
RULES = "rules"


# The log kinds that record a value (a slot's, ``set``; a credited local's, ``let``) rather than a step of
# the game: traces for people show them only when asked (``--verbose``)
VALUE_KINDS = frozenset({"set", "let"})


@attrs.frozen
class LogEntry:
    """One line of a game's log: the step (number of actions applied), the rule and what happened.

    ``kind`` says what wrote it: ``set`` (a slot changed: ``slot = value``), ``move`` (pool units moved),
    ``say`` (a ``say`` statement's words), ``choose`` (a decision option taken, or forced), ``draw``,
    ``random`` or ``roll`` (a chance outcome), ``end`` (the game ended) and ``let`` (a credited ``let``
    gave a bound local another value: ``name = value``; engine/program.py, ``LetI.cites``), each with
    the rule its statement credits.

    ``depth``: the frames on the stack when it was written (the writer is the top one); ``floor``: the
    fewest frames the stack held since the entry before it, when this one was written included. The
    frame at index ``i`` ran, unreturned, from the entry before to this one exactly when ``floor > i``
    (``State.frame_log``; with ``tracing = RULES`` an entry is its rule and floor alone, and
    ``State.take_rules`` reads them)."""

    step: int
    rule: str
    kind: str
    text: str
    depth: int = attrs.field(default=0, eq=False)
    floor: int = attrs.field(default=0, eq=False)

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON object: step, rule, kind and text (depth and floor are not kept)."""
        return {"step": self.step, "rule": self.rule, "kind": self.kind, "text": self.text}


def probability(count: int, total: int) -> Fraction:
    return Fraction(count, total)


@attrs.frozen
class Score:
    """A score sheet: the total and one (label, rule ID, points) line per item."""

    total: int
    lines: tuple[tuple[str, str, int], ...]

    def __str__(self) -> str:
        rows = [f"{points:+4d}  {label} [{rule}]" for label, rule, points in self.lines]
        return "\n".join(rows + [f"{self.total:+4d}  total"])
