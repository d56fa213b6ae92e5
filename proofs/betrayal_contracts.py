"""Betrayal contracts: every call meets the callee's `requires`.

A procedure's `requires` states what it needs: an explorer, a card, a trait or a monster that is
not none (the slots it writes are indexed by them), the card it moves in the place it moves it from
(receive_card, to_pile, hand_over, claim_companion, throw_dynamite), a tile in the stack or the tile
discard pile (place_tile). The engine checks it when the procedure starts; this proof shows, call
site by call site, that the caller's own facts imply it, so the check never fires.

Rules: every procedure with a `requires` (listed per row), e.g. BH-DAMAGE-3 (lose), BX-TRAIT-1
(gain), BH-CARD-EVENT-1 (receive_card), BH-DISCOVER-2 (place_tile), BH-MOVE-8 (enter_room).
"""

GAME = "betrayal"
RULE_IDS = ("BH-DAMAGE-3", "BX-TRAIT-1", "BH-CARD-EVENT-1", "BH-DISCOVER-2", "BH-MOVE-8")
# the obligation kinds of the prover session this file reads
KINDS = ("requires",)


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import contract_rows
    return contract_rows(GAME, options)
