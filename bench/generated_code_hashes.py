"""Digests of the code a compile generates, per configuration: to show that a change to the compile
pipeline (engine/hoist.py, engine/compile_expr.py, ...) leaves what it generates as it was.

For each configuration (Ghost Stories 1, 2 and 4 players, Initiation and Hell, el and hu; Betrayal
3 and 4 players), in this order in one process (the generated code does not depend on the order,
tests/test_engine_generated_order.py; ``--fresh`` and ``--reversed`` show it): the SHA-256 of the blocks' sources
(``program.exprs.block_sources``, the hoisted helpers among them), of the decisions' functions
(``menu.source``) and of every expression's function (``program.exprs.sources``). Run it before and
after a change and compare the output (``diff``): equal digests, equal generated code.

    python bench/generated_code_hashes.py > before.txt
    python bench/generated_code_hashes.py --fresh   # each configuration in a new process instead
    python bench/generated_code_hashes.py --reversed   # in one process, the last configuration first
"""

from __future__ import annotations

import hashlib
import subprocess
import sys

import ghostrules

CONFIGS = [("ghost-stories", {"players": p, "level": lv, "edition": ed})
           for p in (1, 2, 4) for lv in ("initiation", "hell") for ed in ("el", "hu")] + \
          [("betrayal", {"players": 4}), ("betrayal", {"players": 3})]


def digests(name: str, params: dict) -> str:
    game = ghostrules.Game(ghostrules.load_spec(name, **params))
    parts = ("".join(game.program.exprs.block_sources),
             "".join(getattr(m, "source", "") for m in game.menus.values()),
             "".join(game.program.exprs.sources))
    return " ".join(hashlib.sha256(p.encode()).hexdigest()[:16] for p in parts)


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        name, params = CONFIGS[int(sys.argv[2])]
        print(f"{name} {sorted(params.items())} {digests(name, params)}")
        return
    print("configuration blocks menus expressions")
    order = list(enumerate(CONFIGS))
    if sys.argv[1:2] == ["--reversed"]:  # (printed in the usual order, to compare with diff)
        lines = {i: f"{name} {sorted(params.items())} {digests(name, params)}" for i, (name, params) in order[::-1]}
        print("\n".join(lines[i] for i, _ in order))
        return
    for i, (name, params) in order:
        if sys.argv[1:2] == ["--fresh"]:
            print(subprocess.run([sys.executable, __file__, "--one", str(i)], capture_output=True, text=True,
                                 check=True).stdout, end="")
        else:
            print(f"{name} {sorted(params.items())} {digests(name, params)}", flush=True)


if __name__ == "__main__":
    main()
