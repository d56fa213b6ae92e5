"""The code a compile generates for a configuration does not depend on what the same process compiled
before (engine/hoist.py names the helpers it makes from the compiler's own count, not a count of the
process): the code cache on disk (engine/codecache.py) keys on that text, so text that depended on the
load order would miss needlessly and builds would not be reproducible."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

A = ("ghost-stories", {"players": 1, "level": "initiation", "edition": "el"})
B = ("ghost-stories", {"players": 1, "level": "hell", "edition": "hu"})

_SCRIPT = """
import hashlib, json, sys
import ghostrules
out = {}
for name, params in json.loads(sys.argv[1]):
    game = ghostrules.Game(ghostrules.load_spec(name, **params))
    exprs = game.program.exprs
    parts = ("".join(exprs.block_sources), "".join(getattr(m, "source", "") for m in game.menus.values()),
             "".join(exprs.sources))
    out[json.dumps([name, params], sort_keys=True)] = [hashlib.sha256(p.encode()).hexdigest() for p in parts]
print(json.dumps(out))
"""


def _digests(*configs: tuple[str, dict]) -> dict[str, list[str]]:
    """The digests of the blocks', the decisions' and the expressions' sources of each configuration,
    compiled one after the other in a new process (without the code cache)."""
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "GHOSTRULES_NO_CACHE": "1",
           "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(configs)], capture_output=True, text=True,
                          env=env, check=True)
    return json.loads(done.stdout)


def test_generated_code_does_not_depend_on_the_load_order() -> None:
    forward, backward = _digests(A, B), _digests(B, A)
    assert forward.keys() == backward.keys() and len(forward) == 2
    for key, digests in forward.items():
        assert digests == backward[key], key
