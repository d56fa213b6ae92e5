"""The ``ghostrules ask`` command: a question about a scenario file, answered with citations.

    ghostrules ask docs/examples/bleeding_eyes_two_red.yaml                 # the file's own question
    ghostrules ask SCENARIO legal ["ACTION"]
    ghostrules ask SCENARIO next "ACTION" ["ACTION" ...]
    ghostrules ask SCENARIO odds ["ACTION"] [--outcome EXPR] [--horizon PROC|decision|turn] [--maximise EXPR] [--budget N]
    ghostrules ask SCENARIO can GOAL within N
    ... --json                                                              # one JSON document
    ... --verbose                                                           # next: every state change too

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
from .questions import QueryError, ask, parse_question
from .scenario import load


def add_ask_parser(sub: Any) -> None:
    """Register ``ask`` on the main parser's subcommands."""
    p = sub.add_parser("ask", help="ask a rules question about a scenario file (legal, next, odds, can)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="a scenario file (see docs/examples/README.md)")
    p.add_argument("question", nargs=argparse.REMAINDER,
                   help="legal [ACTION] | next ACTION... | odds [ACTION] [--outcome EXPR] | can GOAL within N")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_ask)


def _fail(message: str) -> int:
    print("error: " + " ".join(str(message).split()), file=sys.stderr)
    return 2


def cmd_ask(args: argparse.Namespace) -> int:
    words = list(args.question)
    as_json = bool(args.json) or "--json" in words
    words = [w for w in words if w != "--json"]
    try:
        scenario = load(args.scenario)
        question = parse_question(words) if words else None
        answer = ask(scenario, question)
    except (SpecError, QueryError, IllegalActionError, SpecRuntimeError, ValueError, KeyError,
            RecursionError) as exc:
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
