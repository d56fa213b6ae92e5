"""Conservation: no effect creates or destroys a component.

For every pool of game.yaml (20 Qi, 4 Tao tokens of each colour, one Yin-Yang per monk colour,
2 Buddhas, 3 power tokens, the Weakening Mantra) and every configuration: each statement of every
rule that writes a cell of the pool leaves the pool's totals unchanged, in every state where the
statement can run. With the initial state holding the totals, every reachable state does.

Rules: GS-COMP-8 (Tao), GS-COMP-9 (Qi), GS-COMP-10 (Yin-Yang), GS-COMP-11 (Buddhas),
GS-COMP-12 (power tokens, Mantra), and every rule that moves them.
"""

GAME = "ghost-stories"
RULE_IDS = ("GS-COMP-8", "GS-COMP-9", "GS-COMP-10", "GS-COMP-11", "GS-COMP-12")
# the obligation kinds of the prover session this file reads
KINDS = ("conservation",)


def run(options: dict) -> list[dict]:
    from ghostrules.prover.runner import conservation_rows
    return conservation_rows(GAME, options)
