"""Can the team lose in the first round of a 4-player Initiation game (EL rules)?

Property (bounded): from the start of play (the default setup of docs/examples: village layout,
board sides and powers fixed), within the first round (the turns of the yellow, red, green and
blue monks, ending where yellow's second turn begins), some line of decisions and chance outcomes
ends the game with a loss. Losses: GS-END-2 (all monks dead), GS-END-3 (3 haunted tiles in EL),
GS-END-4 (deck-out). The answer comes from symbolic execution of the specs' statements over the 4
turns (ghostrules/prover/unroll.py: chance outcomes as Z3 constants, decisions as forks): a witness
that the engine replays, or "unknown"/"impossible" from exhausting the paths within the horizon.

Rules: GS-END-2, GS-END-3, GS-END-4, GS-YIN-5, GS-CURSE-1, GS-ABIL-HAUNTTILE, GS-PLACE-1, GS-TURN-1.
"""

from __future__ import annotations

from typing import Any

from ghostrules.prover.bounded import Question, report
from ghostrules.prover.witness import ask
from ghostrules.query import scenario_text

GAME = "ghost-stories"
RULE_IDS = ("GS-END-2", "GS-END-3", "GS-END-4", "GS-YIN-5", "GS-CURSE-1", "GS-PLACE-1", "GS-TURN-1")
# the obligation kinds of the prover session this file reads (none: it runs its own symbolic execution)
KINDS = ()
CONFIGURATION = "players=4 level=initiation edition=el easy=no"
START = "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"
# what the monks do is not the question: they stay and act no further (fewer lines to explore)
PASSIVE = ("keep the Yin-Yang", "take no token", "stays on", "keep the power tokens", "takes no")
# tormentors that will still roll this round (seats: yellow, red, green, blue; the green monk's
# Strength of the Mountain never rolls the curse die)
STILL_TO_ROLL = ("not has_power(slot_board[x], mountain) and (slot_board[x] == blue or "
                 "(slot_board[x] == green and active != blue) or (slot_board[x] == red and active == yellow))")
QUESTION = Question(
    text="the team can lose in the first round of a 4-player Initiation game",
    goal="result == loss",
    turn="active",
    turns=4,
    guide=("100 * haunted_tiles + 40 * count(o in monk if not alive[o]) + 100 * count(x in slot if occupied(x) "
           f"and is_tormentor(card_in(x)) and not tormented[x] and {STILL_TO_ROLL}) + 20 * count(x in slot if "
           "occupied(x) and left_stone[card_in(x), bring_ghost]) + count(x in slot if occupied(x))"),
    decide=PASSIVE,
    # a plan to try first: a ghost that brings another, a red tormentor (rolls in red's turn), its
    # haunting roll, the ghost that haunts on arrival, a blue tormentor, its haunting roll
    prefer=("draw: Coffin Breaker", "draw: Raging One", "haunt a tile", "draw: Shapeless Evil",
            "draw: Fury of Depth", "haunt a tile"),
    budget=2000,
)


def run(options: dict[str, Any]) -> list[dict[str, Any]]:
    answer, start = ask(START, QUESTION)
    return [report(QUESTION, answer, start, scenario_text(start), CONFIGURATION, list(RULE_IDS),
                   options.get("out_dir"), "bounded_first_round_loss",
                   "k = the 4 turns of the first round (symbolic execution of the specs' statements in Z3); the "
                   "monks stay and take no action; a plan of chance outcomes was tried first (ordering only); "
                   "the engine replays the line")]
