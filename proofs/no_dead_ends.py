"""No dead ends: every non-terminal position offers a legal action or a chance outcome.

Argument. The engine runs a position's call stack deterministically (set, move, if, for, let,
call, emit, say, the `requires` checks) until it reaches a decision (`choose`), a chance node
(`draw`, `random`, `roll`) or `end`; an empty stack starts the next turn. So the pending node of
a non-terminal position is always a decision or a chance node, and it is a dead end only if
(1) the decision has no enabled option or the chance node no outcome: the `options` obligations,
proved at every `choose`/`draw`/`random` from the facts in force there (a `roll` always has its
die's faces); (2) the deterministic run stops on an error on the way: a slot written out of its
range, an index that is none, a procedure called against its `requires`: the range and
contract obligations (proofs/inductive_invariant.py, proofs/contracts.py); or (3) it never
reaches a node: for loops range over finite domains, and every cycle of calls and triggers
passes through a rule holding a decision or chance node (the last row).

Rules: GS-TURN-1 (the turn structure), every rule with a decision or chance node (per row).
"""

GAME = "ghost-stories"
RULE_IDS = ("GS-TURN-1",)
# the obligation kinds of the prover session this file reads
KINDS = ("options",)


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import dead_end_rows, termination_row
    return dead_end_rows(GAME, options) + [termination_row(GAME, options)]
