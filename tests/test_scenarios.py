"""Every scenario file answers its own question as its ``expect:`` block says.

Scenario files: the rulebooks' worked examples (docs/examples/*.yaml) and the FAQ edge cases
(tests/scenarios/*.yaml). A file marked ``xfail: "reason"`` records a point where the spec does
something the rulebook does not say: the test is a strict xfail, so it fails loudly once fixed.
Each file also prints back to the same text and loads back to the same position.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ghostrules import query

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "docs" / "examples").glob("*.yaml")) + sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_scenario_answers_its_question(path: Path, request: pytest.FixtureRequest) -> None:
    scenario = query.load(path)
    assert scenario.question is not None and scenario.expect, f"{path.name} needs a question and an expect block"
    assert scenario.title and scenario.description, f"{path.name} needs a title and a description"
    assert scenario.expect.get("rules"), f"{path.name}: expect.rules names the rules the answer cites"
    if scenario.xfail:
        request.applymarker(pytest.mark.xfail(reason=scenario.xfail, strict=True))
    answer = query.ask(scenario)
    assert query.check_expect(answer, scenario.expect) == [], answer.text()


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_scenario_prints_back(path: Path) -> None:
    scenario = query.load(path)
    text = query.scenario_text(scenario.state)
    again = query.load_scenario(text)
    assert again == scenario.state
    assert query.scenario_text(again) == text
