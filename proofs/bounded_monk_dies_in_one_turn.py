"""Can a monk at full Qi die within one turn?

Property (bounded): from a stated position (4 players, Initiation, EL: the yellow monk at his
starting 4 Qi, his board full with three tormentors: Lich, Soul Eater, Raging One, at the start of
his turn), some line of chance outcomes and decisions within that one turn kills him. Each
tormentor makes him roll the curse die (GS-YIN-5, GS-CURSE-1: lose 1 Qi on one face), and a full
board costs 1 Qi instead of a new ghost (GS-YIN-6); 4 Qi are lost before his Yang phase.

Rules: GS-YIN-5, GS-YIN-6, GS-CURSE-1, GS-DEATH-1, GS-LEVEL-TABLE.
"""

from __future__ import annotations

from typing import Any

from ghostrules.prover.bounded import Question, report
from ghostrules.prover.witness import ask
from ghostrules.query import scenario_text

GAME = "ghost-stories"
RULE_IDS = ("GS-YIN-5", "GS-YIN-6", "GS-CURSE-1", "GS-DEATH-1", "GS-LEVEL-TABLE")
# the obligation kinds of the prover session this file reads (none: it runs its own symbolic execution)
KINDS = ()
CONFIGURATION = "players=4 level=initiation edition=el easy=no"
START = ("game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"
         "ghosts: {yellow_1: Lich, yellow_2: Soul Eater, yellow_3: Raging One}\nturn: {active: yellow}\n")
QUESTION = Question(
    text="a monk at full Qi can die within one turn",
    goal="not alive[yellow]",
    turn="active",
    # his own turn: the goal is asked where it ends; run() also checks in the engine's trace of
    # the witness that he died before the turn passed on
    turns=1,
    guide="-10 * qi[yellow]",
    decide=("keep the Yin-Yang", "take no token", "stays on", "keep the power tokens", "takes no"),
    budget=2000,
)


def run(options: dict[str, Any]) -> list[dict[str, Any]]:
    answer, start = ask(START, QUESTION)
    assert start.get("qi", "yellow") == start.eval("starting_qi"), "the monk must start at full Qi"
    own_turn = answer.status == "witness" and died_in_own_turn(start, answer.actions)
    if answer.status == "witness" and not own_turn:
        answer.status = "unknown"
    return [report(QUESTION, answer, start, scenario_text(start), CONFIGURATION, list(RULE_IDS),
                   options.get("out_dir"), "bounded_monk_dies_in_one_turn",
                   "k = the yellow monk's one turn (symbolic execution of the specs' statements in Z3); the "
                   "engine's trace of the witness shows his death before the turn passes on")]


def died_in_own_turn(start: Any, actions: list[str]) -> bool:
    """Replay with tracing: the yellow monk's death is logged before the active monk changes."""
    s = start.clone()
    s.tracing = True
    for a in actions:
        s.apply_action(a)
    texts = [e.text for e in s.log()]
    died = next((i for i, t in enumerate(texts) if t.startswith("alive[yellow] = ")), None)
    passed = next((i for i, t in enumerate(texts) if t.startswith("active = ")), len(texts))
    return died is not None and died < passed
