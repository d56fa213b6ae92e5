"""Betrayal no dead ends: every non-terminal position offers a legal action or a chance outcome.

The argument is the one of proofs/no_dead_ends.py (the engine is the same): the pending node of
a position is a decision, a chance node or the end, so it suffices that (1) every decision offers
an option and every chance node an outcome where it is reached (the `options` obligations, one
row per configuration), (2) the deterministic run between nodes meets no error (ranges,
contracts) and (3) every cycle of calls and triggers reaches a decision or chance node (the last
row). This file proves (1) and (3); (2) is proved by proofs/betrayal_ranges.py (every write stays
in its slot's range and names a slot) and proofs/betrayal_contracts.py (every call meets the
callee's `requires`).

Rules: BH-TURN-1 (the turn structure) and every rule with a decision or chance node (per row).
"""

GAME = "betrayal"
RULE_IDS = ("BH-TURN-1",)
# the obligation kinds of the prover session this file reads
KINDS = ("options",)


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import dead_end_rows, termination_row
    return dead_end_rows(GAME, options) + [termination_row(GAME, options)]
