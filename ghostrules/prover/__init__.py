"""The prover: the specs' conditions and effects as Z3 formulas, and the properties proved from them.

symbolic.py encodes the condition language over a symbolic state; local.py collects one obligation
per statement (conservation, ranges, invariants, preconditions, options) with the facts the rule
itself checked; solving.py solves one with Z3; runner.py solves them for every configuration (sharing the proofs of rules that
read the same things), discovers the property files of proofs/ and writes counterexamples as
scenario files, for `ghostrules prove`.
"""

from .runner import (ENFORCED, KINDS, PROOFS_ROOT, Result, discover, passed, prove, prove_configurations,
                     summary, write_scenario)

__all__ = ["ENFORCED", "KINDS", "PROOFS_ROOT", "Result", "discover", "passed", "prove", "prove_configurations",
           "summary", "write_scenario"]
