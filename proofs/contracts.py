"""Contracts: every call meets the callee's `requires`.

A procedure's `requires` states what it needs (a monk that is not none, a ghost that is in play,
an option its caller checked). The engine checks it when the procedure starts; this proof shows,
call site by call site, that the caller's own facts imply it, so the check never fires.

Rules: every procedure with a `requires` (listed per row), e.g. GS-PLACE-3 (place_ghost), GS-QI-1
(lose_qi), GS-EXO-5 (pay_token), GS-VILLAGE-PAVILION-2 (move_ghost).
"""

GAME = "ghost-stories"
RULE_IDS = ("GS-PLACE-3", "GS-PLACE-4", "GS-QI-1", "GS-EXO-5", "GS-VILLAGE-PAVILION-2")
# the obligation kinds of the prover session this file reads
KINDS = ("requires",)


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import contract_rows
    return contract_rows(GAME, options)
