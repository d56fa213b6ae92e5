"""Betrayal slot ranges: every slot stays in its declared range and every index names a slot.

Every slot of specs/betrayal/game.yaml has a range: the traits' clip positions (lvl), the room and
cell of each tile, the card and token places (0..1), the counters (rounds, omens drawn, dice and
their total, movement points, the turn track, the 18 wards). The initial state is within them, and
every write of every rule, from any state within them and the facts the rule itself checked (its
`requires`, `when`, guards and `let` values), stays within them; no written index is none (an
explorer, card, trait, monster, tile or token that a procedure was called with is one: its
`requires`, proved by proofs/betrayal_contracts.py). Betrayal declares no other invariant.

Rules: BH-COMP-3, BH-COMP-4 (tiles), BH-COMP-10..13 (cards and tokens), BH-SETUP-3 (the trait
tracks), BH-ROLL-2 (a roll's total is the sum of its faces), and every rule that writes a slot.
"""

GAME = "betrayal"
RULE_IDS = ("BH-COMP-3", "BH-COMP-4", "BH-COMP-10", "BH-COMP-13", "BH-SETUP-3", "BH-ROLL-2")
# the obligation kinds of the prover session this file reads
KINDS = ("initial", "range")


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import invariant_rows
    return invariant_rows(GAME, options)
