"""The ``ghostrules ask`` command: a question about a scenario file, answered with citations.

    ghostrules ask docs/examples/bleeding_eyes_two_red.yaml                 # the file's own question
    ghostrules ask SCENARIO legal ["ACTION"]
    ghostrules ask SCENARIO next "ACTION" ["ACTION" ...]
    ghostrules ask SCENARIO odds ["ACTION"] [--outcome EXPR] [--horizon PROC|decision|turn] [--maximise EXPR] [--budget N]
    ghostrules ask SCENARIO can GOAL within N
    ... --json                                                              # one JSON document
    ... --verbose                                                           # next: also every value set

The options may come before the scenario, between it and the question, or after the question.

Errors are one paragraph on stderr (file:line for scenarios), exit code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..engine import IllegalActionError, SpecRuntimeError
from ..spec.source import SpecError
from .expect import check_expect
from .questions import QueryError, ask, located, parse_question
from .scenario import load


def add_ask_parser(sub: Any) -> None:
    """Register ``ask`` on the main parser's subcommands."""
    p = sub.add_parser("ask", help="ask a rules question about a scenario file (legal, next, odds, can)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="a scenario file (see docs/examples/README.md)")
    p.add_argument("question", nargs=argparse.REMAINDER,
                   help="legal [ACTION] | next ACTION... | odds [ACTION] [--outcome EXPR] | can GOAL within N")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--outcome", metavar="EXPR",
                   help="odds: the probability of this condition (or win / lose) at the horizon")
    p.add_argument("--horizon", metavar="PROC|decision|turn",
                   help="odds: where to stop (default: when the procedure that offered the action returns)")
    p.add_argument("--maximise", "--maximize", dest="maximise", metavar="EXPR",
                   help="odds: what the decisions in between maximise (default: --outcome, else the game's objective)")
    p.add_argument("--budget", metavar="N", help="odds: at most N positions (default 5000)")
    p.add_argument("--verbose", action="store_true",
                   help="next: also every value set, of a slot or of a local a rule changes (the trace shows the "
                        "other steps anyway)")
    p.set_defaults(func=cmd_ask)


# the options of each question kind: any other is refused rather than silently ignored
_OPTIONS = {"outcome": ("odds",), "horizon": ("odds",), "maximise": ("odds",), "budget": ("odds",),
            "verbose": ("next",)}


def _question(args: argparse.Namespace, words: list[str], scenario: Any) -> dict[str, Any]:
    """The question asked: the words (or the file's own question) with the options given anywhere."""
    q = dict(parse_question(words if words else scenario.question))
    q.pop("json", None)  # how to print, not part of the question
    for name in _OPTIONS:
        value = getattr(args, name, None)
        if value is not None and value is not False:
            q[name] = value
    for name, kinds in _OPTIONS.items():
        if q.get(name) not in (None, False) and q["ask"] not in kinds:
            raise QueryError(f"--{name} applies only to {' and '.join(kinds)}, not to {q['ask']}")
    return q


def _fail(message: str) -> int:
    # an expression typed on the command line has no file: "<query>:1: " would only confuse
    text = " ".join(str(message).split()).replace("<query>:1: ", "")
    print("error: " + text, file=sys.stderr)
    return 2


def cmd_ask(args: argparse.Namespace) -> int:
    words = list(args.question)
    as_json = bool(args.json) or "--json" in words
    words = [w for w in words if w != "--json"]
    try:
        scenario = load(args.scenario)
    except (SpecError, QueryError, ValueError, KeyError, RecursionError) as exc:
        return _fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - the command never shows a traceback
        return _fail(f"internal error while reading the scenario ({type(exc).__name__}: {exc}); please report it")
    try:
        answer = ask(scenario, _question(args, words, scenario))
    except (SpecError, QueryError, IllegalActionError, SpecRuntimeError, ValueError, KeyError,
            RecursionError) as exc:
        if not words and isinstance(exc, (QueryError, SpecError, IllegalActionError)):
            exc = located(scenario, exc)  # the file's own question: at its line
        return _fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - the command never shows a traceback
        return _fail(f"internal error while answering ({type(exc).__name__}: {exc}); please report it")
    if as_json:
        doc = dict(answer.to_json())
        doc["scenario"] = args.scenario
        if not words and scenario.expect is not None:
            doc["expected"] = not check_expect(answer, scenario.expect)
        print(json.dumps(doc, ensure_ascii=False))
    else:
        if scenario.title:
            print(f"{scenario.title} ({args.scenario})")
        print(answer.text())
        if not words and scenario.expect is not None:
            problems = check_expect(answer, scenario.expect)
            print("As the file expects." if not problems else "Differs from the file's expect: " + "; ".join(problems))
    return 0
