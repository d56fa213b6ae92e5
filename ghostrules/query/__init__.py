"""Rules-lawyer queries: type a position as a scenario file, then ask what is legal, what happens
next, how likely an outcome is and whether a goal can be reached, each answer citing rule IDs.

>>> from ghostrules import query
>>> sc = query.load("docs/examples/bleeding_eyes_two_red.yaml")      # doctest: +SKIP
>>> print(query.odds(sc, outcome="at[c38_bleeding_eyes] == discard"))  # doctest: +SKIP

Module functions: ``load`` / ``load_scenario`` / ``scenario_text`` (scenarios), ``legal``, ``next``,
``odds``, ``can`` (questions), ``ask`` (a question as words or a file's ``question:``) and
``check_expect``. The scenario format is documented in docs/examples/README.md; a game's scenario
vocabulary lives in specs/<game>/scenario.yaml, so this package names no game.
"""

from .expect import check_expect
from .printer import scenario_text
from .questions import (
           Answer,
           QueryError,
           ask,
           can,
           describe_node,
           legal,
           next,
           odds,
           parse_question,
)
from .scenario import Scenario, load, load_scenario
from .values import ScenarioError

__all__ = ["Answer", "QueryError", "Scenario", "ScenarioError", "ask", "can", "check_expect", "describe_node",
           "legal", "load", "load_scenario", "next", "odds", "parse_question", "scenario_text"]
