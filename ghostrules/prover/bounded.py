"""Bounded questions: can a goal be reached from a position within k turns? A witness or a refutation.

A question names a start position, a goal and a horizon, all in the condition language (no game
words here: a proof file supplies them):

- ``goal``: a condition on the position, or an outcome (``result == loss``) of the game;
- ``turns``: the horizon, k runs of the spec's turn procedure (``flow.turn``) from the start;
  ``turn`` is an expression whose changes mark turns (the tests check a witness's line with it);
- ``guide``: a number computed from the position that the exploration tries to raise first, and
  ``prefer``: chance outcomes to try first, in order (both only order the exploration);
- ``decide``: decisions the question does not care about (the first option whose label text
  holds one of these patterns is taken, the others are set aside; an exhaustive answer with
  options set aside is reported as unknown, not impossible).

The question is answered by ``witness.answer``: the spec's statements executed symbolically over k
turns with Z3 (chance outcomes are Z3 constants, decisions forks; see ``unroll.py``). The answer
is one of:

- ``witness``: a satisfiable path to the goal; its line of actions (with the model's chance
  outcomes) is replayed from the start position by ``replay``: the engine alone decides whether
  it is legal and reaches the goal, and gives its probability given its decisions;
- ``impossible``: every path within the horizon was followed (every decision, every chance
  outcome, as Z3 constants or split into the cases a condition distinguishes) and none can reach
  the goal: a proof by exhaustive symbolic execution within k;
- ``unknown``: the path budget ran out first, or options were set aside by ``decide``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import attrs

from ..engine import Game, State
from ..spec.expr import parse
from ..spec.model import Where
from .outdir import CHECKOUT, remove_owned, shown_path


@attrs.define
class Question:
    text: str
    goal: str                      # a condition, or "result == <name>" for an outcome
    turn: str                      # an expression whose changes mark turns (checks of a witness)
    turns: int                     # the horizon: runs of the turn procedure
    guide: str = "0"               # the exploration raises this first
    budget: int = 20_000           # paths followed to their end before giving up (unknown)
    # decisions the question does not care about: at a decision, the first option whose label
    # contains one of these (earliest pattern first) is taken and the others are not explored
    # (an exhaustive answer then holds for these decisions only, and is reported as unknown)
    decide: tuple[str, ...] = ()
    # chance outcomes to try first, in this order (label substrings): a plan that orders the
    # exploration, never prunes it; the witness is still replayed by the engine alone
    prefer: tuple[str, ...] = ()
    prefer_weight: int = 1000


@attrs.define
class Answer:
    status: str                    # witness, impossible, unknown (unreplayed: Z3's line the engine refused)
    actions: list[str]
    probability: Fraction
    expanded: int                  # paths followed to their end
    seconds: float
    final: State | None = None
    turns_used: int = 0
    pruned: bool = False           # some decisions were fixed by the question's preferences
    faults: int = 0                # paths cut where the engine would stop with a runtime fault


def compiled(game: Game, text: str) -> Callable[[State], Any]:
    """A condition-language expression compiled once for this game (a closure over state values)."""
    if text.startswith("result =="):
        want = text.split("==", 1)[1].strip()
        return lambda s: s.is_terminal() and s.outcome().result == want
    fn, _ = game.program.exprs.compile(parse(text), {}, Where("<question>", 1), "")
    return lambda s: fn(s.values, {})


def replay(start: State, actions: list[str]) -> State:
    """Apply the witness's actions to a copy of the start position (the engine checks each)."""
    s = start.clone()
    for label in actions:
        s.apply_action(label)
    return s


def report(q: Question, answer: Answer, start: State, start_text: str, configuration: str, rule_ids: list[str],
           out_dir: str | None, stem: str, horizon: str) -> dict[str, Any]:
    """The answer as a result row of ``ghostrules prove``; a witness is written as a scenario file
    (the start position) with its actions beside it (``<stem>.actions.json``) and in its header;
    a question proved impossible removes the witness an earlier run wrote (``remove_witness``),
    listed in the row's ``removed``."""
    import json
    path = None
    removed: list[str] = []
    if answer.status == "witness" and out_dir:
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        file = folder / f"{stem}.yaml"
        head = [f"# {q.text}", f"{WITNESS_MARK} from this position, apply these {len(answer.actions)} actions "
                f"(decisions and chance outcomes) in order; the goal '{q.goal}' then holds",
                *[f"#   {i + 1}. {a}" for i, a in enumerate(answer.actions)],
                *[line for line in [asked_in(stem, rule_ids)] if line]]
        file.write_text("\n".join(head) + "\n" + start_text, encoding="utf-8")
        (folder / f"{stem}.actions.json").write_text(json.dumps(answer.actions, indent=1), encoding="utf-8")
        path = str(file)
    if answer.status == "witness":
        final = answer.final
        detail = (f"yes: a line of {len(answer.actions)} actions reaches '{q.goal}' ({horizon}); "
                  f"probability {answer.probability} given its decisions; found by symbolic execution after "
                  f"{answer.expanded} paths, replayed by the engine"
                  + (f"; the game ends: {final.outcome()}" if final is not None and final.is_terminal() else ""))
        status = "proved"
    elif answer.status == "impossible":
        detail = (f"no: every path within {horizon} was followed symbolically ({answer.expanded} paths), none "
                  f"reaches '{q.goal}'" + (" (decisions fixed by the question's preferences)" if answer.pruned else "")
                  + (f"; {answer.faults} paths cut at an engine fault" if answer.faults else ""))
        status = "proved" if not answer.pruned else "unknown"
        if status == "proved" and out_dir:
            removed = remove_witness(Path(out_dir), stem, q)
            if removed:
                detail += f"; removed an earlier run's witness, stale now: {', '.join(removed)}"
    else:
        detail = (f"unknown: no witness within the budget ({answer.expanded} paths followed"
                  + ("; options set aside by the question's preferences" if answer.pruned else "")
                  + (f"; Z3's line was not replayed by the engine: {answer.actions}" if answer.actions else "")
                  + "); not a proof of impossibility")
        status = "unknown"
    return dict(property=q.text, configuration=configuration, status=status, seconds=round(answer.seconds, 3),
                rule_ids=list(rule_ids), detail=detail,
                counterexample={"actions": answer.actions, "goal": q.goal} if answer.status == "witness" else None,
                scenario=path, removed=removed)


WITNESS_MARK = "# witness:"  # the second line of a witness file (``report``)


def asked_in(stem: str, rule_ids: list[str]) -> str | None:
    """The header line naming where a question comes from: its proof file (named like the
    witness, ``proofs/<stem>.py``, in the folder ``ghostrules prove`` reads: GHOSTRULES_PROOFS or
    the checkout's; relative to the checkout when inside it) and the rules it covers; None when
    there is no such file."""
    import os
    folder = Path(os.environ.get("GHOSTRULES_PROOFS", CHECKOUT / "proofs"))
    path = (folder / f"{stem}.py").resolve()
    if not path.is_file():
        return None
    return f"# asked in: {shown_path(path)} (QUESTION; rules {', '.join(rule_ids)})"


def remove_witness(folder: Path, stem: str, q: Question) -> list[str]:
    """Remove the witness ``report`` wrote for this question in an earlier run (``<stem>.yaml``
    whose first line is the question and second the witness mark, with ``<stem>.actions.json``
    beside it): called when the question is now proved impossible. Returns the paths removed."""
    file = folder / f"{stem}.yaml"
    return remove_owned(file, lambda lines: lines[:1] == [f"# {q.text}"] and len(lines) > 1
                        and lines[1].startswith(WITNESS_MARK), [folder / f"{stem}.actions.json"])
