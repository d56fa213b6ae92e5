"""Betrayal conservation: no effect creates or destroys a room tile, card or token.

For every pool of specs/betrayal/game.yaml (each room tile in exactly one of stack, discard,
house; each card in exactly one of deck, a player's hand, an item pile, discard, aside; each
square token in the box or on the board; the 18 trait-roll tokens) and every player count:
each write to a pool's cells keeps the pool's totals.

Rules: BH-COMP-3, BH-COMP-4 (tiles), BH-COMP-10, BH-COMP-11, BH-COMP-12 (cards), BH-COMP-13
(tokens), and every rule that moves them.
"""

GAME = "betrayal"
RULE_IDS = ("BH-COMP-3", "BH-COMP-4", "BH-COMP-10", "BH-COMP-11", "BH-COMP-12", "BH-COMP-13")
# the obligation kinds of the prover session this file reads
KINDS = ("conservation",)


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import conservation_rows
    return conservation_rows(GAME, options)
