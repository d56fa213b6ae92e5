"""Inductive invariant: the declared state invariant holds initially and every transition keeps it.

The invariant is the conjunction of (1) every slot within its declared range (Qi 0..20 per monk,
Tao tokens 0..4 per colour and holder, figures and card places within their domains, the turn
and step slots within theirs) and (2) the `invariants:` of game.yaml: INV-SLOT (each ghost slot
holds at most one card, hence at most 3 ghosts per board), ... Each part is checked on the
initial state and proved preserved by every write of every rule, from any state satisfying the
invariant and the facts the rule itself checked (its `requires`, guards and `let` values).

Rules: GS-COMP-1 (slots and boards), GS-COMP-8..12 (counters), GS-GEO-1 (positions), and every
rule that writes a slot.
"""

GAME = "ghost-stories"
RULE_IDS = ("GS-COMP-1", "GS-COMP-8", "GS-COMP-9", "GS-COMP-10", "GS-COMP-11", "GS-COMP-12", "GS-GEO-1")
# the obligation kinds of the prover session this file reads
KINDS = ("initial", "range", "invariant")


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import invariant_rows
    return invariant_rows(GAME, options)
