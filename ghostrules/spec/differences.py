"""Compare two values of one parameter (e.g. two editions): every difference, its texts and rules.

A game folder may keep a catalogue of its differences in ``editions/differences.yaml`` (id, topic,
one text per value, affected rules, effect). The overlays cite those ids in every entry, so the
comparison lists each difference once, with what each overlay does about it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from .loader import load_spec
from .model import GameSpec, OverlayChange
from .source import load_yaml_file


@attrs.frozen
class Difference:
    id: str
    topic: str
    texts: tuple[tuple[str, str], ...]  # (parameter value, what that text says)
    rules: tuple[str, ...]
    effect: str
    changes: tuple[OverlayChange, ...]


def _catalogue(spec: GameSpec) -> dict[str, Any]:
    path = Path(spec.root) / "editions" / "differences.yaml"
    if not path.is_file():
        return {}
    doc = load_yaml_file(path, Path(spec.root).parent)
    return {str(d["id"]): d for d in (doc or {}).get("differences", [])}


def _order(diff_id: str) -> tuple[str, int]:
    head, _, num = diff_id.rpartition("-")
    return (head, int(num)) if num.isdigit() else (diff_id, 0)


def compare(game: str, parameter: str, a: Any, b: Any, root: Path | None = None, **others: Any) -> list[Difference]:
    """Every difference cited by the overlays of ``parameter=a`` and ``parameter=b``."""
    spec_a = load_spec(game, root, **{parameter: a}, **others)
    spec_b = load_spec(game, root, **{parameter: b}, **others)
    catalogue = _catalogue(spec_a)
    ids = {c.difference for c in spec_a.changes + spec_b.changes if c.difference} | set(catalogue)
    out = []
    for diff_id in sorted(ids, key=_order):
        entry = catalogue.get(diff_id, {})
        changes = tuple(c for c in spec_a.changes + spec_b.changes if c.difference == diff_id)
        rules = [str(r) for r in entry.get("rules", [])]
        for c in changes:
            if c.kind in ("replace", "add", "remove"):
                rules.append(c.target)
            elif c.kind == "note":
                rules.extend(t.strip() for t in c.target.split(",") if t.strip())
        texts = tuple((str(v), str(entry.get(str(v), ""))) for v in (a, b))
        out.append(Difference(diff_id, str(entry.get("topic", "")), texts, tuple(dict.fromkeys(rules)),
                              str(entry.get("effect", "")), changes))
    return out
