"""A scenario file's ``expect:`` block checked against an answer (see docs/examples/README.md)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .questions import Answer
from .values import Values


def _frac(x: Any) -> Fraction:
    return Fraction(str(x)) if not isinstance(x, Fraction) else x


def check_expect(answer: Answer, expect: dict[str, Any] | None) -> list[str]:
    """What in ``expect`` the answer does not match (empty when it matches). Keys: legal, rule,
    rules, actions, includes, excludes, probability, distribution, answer, witness, length, outcome,
    applied, trace, now, state, message."""
    problems: list[str] = []
    d = answer.data
    for key, want in (expect or {}).items():
        key = str(key)
        if key == "legal":
            if d.get("legal") != want:
                problems.append(f"legal: expected {want}, got {d.get('legal')} ({d.get('message', '')})")
        elif key == "rule":
            if d.get("rule") != want:
                problems.append(f"rule: expected {want}, got {d.get('rule')}")
        elif key == "rules":
            missing = [r for r in want if r not in d.get("rules", [])]
            if missing:
                problems.append(f"rules: {missing} not cited (cited: {d.get('rules')})")
        elif key in ("actions", "includes", "excludes"):
            labels = [o["label"] for o in (d.get("options") or d.get("outcomes") or
                                           (d.get("now") or {}).get("options") or [])]
            if key == "actions" and sorted(labels) != sorted(str(x) for x in want):
                problems.append(f"actions: expected {sorted(want)}, got {sorted(labels)}")
            if key == "includes":
                problems += [f"includes: {x!r} is not among {labels}" for x in want if str(x) not in labels]
            if key == "excludes":
                problems += [f"excludes: {x!r} is offered" for x in want if str(x) in labels]
        elif key == "probability":
            got = d.get("probability", d.get("witness_probability"))
            if got is None or _frac(got) != _frac(want):
                problems.append(f"probability: expected {want}, got {got}")
        elif key == "distribution":
            got = {o["outcome"]: _frac(o["probability"]) for o in d.get("distribution", [])}
            for part, p in want.items():
                hits = [q for k, q in got.items() if str(part) in k]
                if sum(hits, Fraction(0)) != _frac(p):
                    problems.append(f"distribution: outcomes with {part!r} have {sum(hits, Fraction(0))}, "
                                    f"expected {p}")
        elif key == "answer":
            if d.get("answer") != ("yes" if want is True else "no" if want is False else want):
                problems.append(f"answer: expected {want}, got {d.get('answer')}")
        elif key == "witness":
            if d.get("witness") != list(want):
                problems.append(f"witness: expected {want}, got {d.get('witness')}")
        elif key == "length":
            if d.get("length") != want:
                problems.append(f"length: expected {want}, got {d.get('length')}")
        elif key == "outcome":
            got = d.get("outcome") or (d.get("now") or {}).get("outcome")
            want_d = want if isinstance(want, dict) else {"result": want}
            if not got or any(got.get(k) != v for k, v in want_d.items()):
                problems.append(f"outcome: expected {want_d}, got {got}")
        elif key == "applied":
            for part in want:
                if not any(str(part) in a for a in d.get("applied", [])):
                    problems.append(f"applied: nothing contains {part!r} (applied: {d.get('applied')})")
        elif key == "trace":
            texts = [f"[{e['rule']}] {e['text']}" for e in d.get("trace", [])]
            for part in want:
                if not any(str(part) in t for t in texts):
                    problems.append(f"trace: nothing contains {part!r}")
        elif key == "now":
            now = d.get("now") or {}
            for k, v in want.items():
                if k == "options":
                    labels = [o["label"] for o in now.get("options", [])]
                    if sorted(labels) != sorted(v):
                        problems.append(f"now.options: expected {sorted(v)}, got {sorted(labels)}")
                elif now.get(k) != v:
                    problems.append(f"now.{k}: expected {v!r}, got {now.get(k)!r}")
        elif key == "state":
            if answer.state is None:
                problems.append("state: this answer ends at no position")
                continue
            v = Values(answer.state.game)
            for expr, val in want.items():
                got = v.value(str(expr), answer.state.values)
                if str(got) != str(val) and got != val:
                    problems.append(f"state: {expr} is {got}, expected {val}")
        elif key == "message":
            if str(want) not in str(d.get("message", "")):
                problems.append(f"message: {want!r} not in {d.get('message')!r}")
        else:
            problems.append(f"unknown expectation {key!r}")
    return problems
