"""Can all 12 ghost slots fill before the incarnation arrives?

Property (bounded): from the start of play of a 4-player Initiation game (EL, default setup),
within the first round, some line of chance outcomes and decisions leaves a ghost on every one
of the 12 slots while Wu-Feng's incarnation is still in the deck (``seg_incarnation[seg1]``: the
segment above it still ends with it). Ghosts that bring another ghost (GS-GHOST-2, GS-PLACE-5)
chain draws; a ghost whose board is full goes to another board (GS-PLACE-2).

Rules: GS-PLACE-1, GS-PLACE-2, GS-PLACE-5, GS-ABIL-BRING, GS-SETUP-6, GS-COMP-1.
"""

from __future__ import annotations

from typing import Any

from ghostrules.prover.bounded import Question, report
from ghostrules.prover.witness import ask
from ghostrules.query import scenario_text

GAME = "ghost-stories"
RULE_IDS = ("GS-PLACE-1", "GS-PLACE-2", "GS-PLACE-5", "GS-SETUP-6", "GS-COMP-1")
# the obligation kinds of the prover session this file reads (none: it runs its own symbolic execution)
KINDS = ()
CONFIGURATION = "players=4 level=initiation edition=el easy=no"
START = "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"
QUESTION = Question(
    text="all 12 slots can fill before the incarnation arrives",
    goal="count(x in slot if occupied(x)) == 12 and seg_incarnation[seg1]",
    turn="active",
    turns=4,
    guide=("10 * count(x in slot if occupied(x)) - 100 * haunted_tiles + 20 * count(x in slot if occupied(x) "
           "and left_stone[card_in(x), bring_ghost])"),
    decide=("keep the Yin-Yang", "take no token", "stays on", "keep the power tokens", "takes no"),
    budget=2000,
)


def run(options: dict[str, Any]) -> list[dict[str, Any]]:
    answer, start = ask(START, QUESTION)
    return [report(QUESTION, answer, start, scenario_text(start), CONFIGURATION, list(RULE_IDS),
                   options.get("out_dir"), "bounded_twelve_slots",
                   "k = the 4 turns of the first round (symbolic execution of the specs' statements in Z3); the "
                   "engine replays the line")]
