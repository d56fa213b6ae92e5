"""The prover: the specs' conditions and effects as Z3 formulas, and the properties proved from them.

symbolic.py encodes the condition language over a symbolic state; local.py collects one obligation
per statement (conservation, ranges, invariants, preconditions, options) with the facts the rule
itself checked; runner.py solves them for `ghostrules prove`.
"""

from .runner import ENFORCED, Result, passed, prove, summary

__all__ = ["ENFORCED", "Result", "passed", "prove", "summary"]
