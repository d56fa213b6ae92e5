"""Quantifiers over a few values known when compiling, written out value by value.

A quantifier whose domain is a short constant (``range(3)``, the tuple of values a static filter
left, a list of literals) is compiled by engine/compile_expr.py once for each value, the bound
variable standing for that value (so ``v[(309 + q)]`` is ``v[309]``, a comparison of two literals
a constant), and the answers are put together here into one expression with no loop: no generator
made, no frame, no call of ``any`` or ``sum``. Each value's condition (its conjuncts, in order)
and body are evaluated in the order the comprehension would evaluate them, as far as it would,
so the value and the errors are the same:

- exists ``any(True for q in V if C)``: ``(True if C0 or C1 or C2 else False)``
- forall ``all(B for q in V if C)``: ``(True if (not C0 or B0) and (not C1 or B1) else False)``
- count ``sum(1 for q in V if C)``: ``((1 if C0 else 0) + (1 if C1 else 0))``
- sum ``sum(B for q in V if C)``: ``((B0 if C0 else 0) + (B1 if C1 else 0))``
- first ``next((q for q in V if C), -1)``: ``(x0 if C0 else x1 if C1 else (-1))``
- min, max ``min((B for q in V), default=-1)`` with no condition: ``min(B0, B1, B2)``

A value whose condition is decided false when compiling (its first conjunct ``False``) is left out,
as the loop would test it and evaluate nothing; one decided true (no conjunct left) always passes,
and the values after it are then never reached by exists and first. A conjunct ``True`` is left out
of a condition (the loop tests its truth only), the conjuncts after a ``False`` are never evaluated.
"""

from __future__ import annotations

from typing import Sequence

UNROLL_LIMIT = 5  # the most values a quantifier is written out for
UNROLL_TEXT = 4000  # the longest text (of all values' conditions and bodies) written out
# the most cost of a loop's invariant parts (engine/hoist.py ``invariant_cost``) times the values
# after the first for which it is written out: written out, those parts are computed for each
# value, where hoist computes them once before the loop
INVARIANT_LIMIT = 47

Case = tuple[str, list[str], str | None]  # a value's code, its condition's conjuncts, its body's code


def condition(conjuncts: Sequence[str]) -> list[str] | None:
    """The conjuncts a value's condition evaluates (``True`` ones left out, none after a ``False``):
    [] when the value always passes, None when it never does (nothing is evaluated for it)."""
    out: list[str] = []
    for code in conjuncts:
        if code == "True":
            continue
        if code == "False":
            if not out:
                return None
            out.append(code)
            break
        out.append(code)
    return out


def _test(conjuncts: list[str]) -> str:
    """The code of the conjunction (one operand of ``and``, ``or``, ``not`` or ``if``)."""
    return conjuncts[0] if len(conjuncts) == 1 else f"({' and '.join(conjuncts)})"


def _flag(terms: list[str], op: str) -> str:
    """``True``/``False`` by the truth of ``t0 op t1 op ...``, each term evaluated as ``op`` would."""
    return f"(True if {f' {op} '.join(terms)} else False)"


def exists(cases: list[Case]) -> str:
    terms: list[str] = []
    for _, conj, _ in cases:
        if not conj:  # this value passes: the answer is True once the conditions before it fail
            if not terms:
                return "True"
            terms.append("True")
            break
        terms.append(_test(conj))
    return _flag(terms, "or") if terms else "False"


def forall(cases: list[Case]) -> str:
    terms: list[str] = []
    for _, conj, body in cases:
        body = body or "True"
        term = body if not conj else f"(not {_test(conj)} or {body})"
        if term == "True":
            continue
        terms.append(term)
        if term == "False":
            break
    if terms == ["False"]:
        return "False"
    return _flag(terms, "and") if terms else "True"


def count(cases: list[Case]) -> str:
    always = sum(1 for _, conj, _ in cases if not conj)
    terms = [f"(1 if {_test(conj)} else 0)" for _, conj, _ in cases if conj]
    if always:
        terms.insert(0, str(always))  # a constant: evaluating it first changes nothing
    return "0" if not terms else terms[0] if len(terms) == 1 else f"({' + '.join(terms)})"


def total(cases: list[Case]) -> str:
    terms = [body if not conj else f"({body} if {_test(conj)} else 0)" for _, conj, body in cases]
    if not terms:
        return "0"
    return f"(0 + {terms[0]})" if len(terms) == 1 else f"({' + '.join(terms)})"  # an int, as sum gives


def first(cases: list[Case]) -> str:
    parts: list[str] = []
    for value, conj, _ in cases:
        if not conj:
            parts.append(value)
            break
        parts.append(f"{value} if {_test(conj)} else")
    else:
        parts.append("(-1)")
    return parts[0] if len(parts) == 1 else f"({' '.join(parts)})"


def extreme(kind: str, cases: list[Case]) -> str | None:
    """min or max of the bodies, when no value has a condition (else None: not written out)."""
    if any(conj for _, conj, _ in cases):
        return None
    bodies = [body for _, _, body in cases]
    assert all(b is not None for b in bodies)
    if not bodies:
        return "(-1)"
    return bodies[0] if len(bodies) == 1 else f"{kind}({', '.join(b for b in bodies if b is not None)})"


def written_out(kind: str, cases: list[Case]) -> str | None:
    """The quantifier ``kind`` over the values of ``cases`` (in the domain's order; a value whose
    condition never holds left out), or None when it is not written out (members, a min or max
    with a condition)."""
    if kind == "exists":
        return exists(cases)
    if kind == "forall":
        return forall(cases)
    if kind == "count":
        return count(cases)
    if kind == "sum":
        return total(cases)
    if kind == "first":
        return first(cases)
    if kind in ("min", "max"):
        return extreme(kind, cases)
    return None
