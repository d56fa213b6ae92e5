"""Worked examples as pictures: positions built from data, played forward, drawn before and after.

A game's docs file (``docs/games/<game>.yaml``) may list ``positions``; each builds a position from
a seeded setup whose chance outcomes are named (``setup:``), sets some slots (``set:``, and
``move:`` for conserved pools), starts a procedure (``start:``) and applies ``steps`` (chance
outcomes or decisions, by their labels). Scenario files (``docs/examples/*.yaml``) are drawn too
once ``ghostrules.load_scenario`` exists.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..engine.actions import VALUE_KINDS
from ..render import state_to_svg
from .catalog import DocsError, GameDocs
from .rst import esc, heading, literal, role
from .site import GamePages, Output, slug

_SLOT = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\[(.*)\])?\s*$")


def _slot(text: str, where: str) -> tuple[str, list[str]]:
    m = _SLOT.match(str(text))
    if not m:
        raise DocsError(f"{where}: expected 'slot' or 'slot[index, ...]', found {text!r}")
    index = [i.strip() for i in m.group(2).split(",")] if m.group(2) else []
    return m.group(1), index


def _pick_outcome(state: Any, label: str, where: str) -> None:
    outcomes = [a for a, _ in state.chance_outcomes()]
    for a in outcomes:
        if a.label.endswith(": " + label) or a.label == label:
            state.apply_action(a)
            return
    raise DocsError(f"{where}: no chance outcome {label!r} here; outcomes: {[a.label for a in outcomes][:12]}")


def _step(state: Any, label: str, where: str) -> None:
    if state.is_terminal():
        raise DocsError(f"{where}: the game is over, cannot apply {label!r}")
    if state.is_chance_node():
        _pick_outcome(state, label, where)
        return
    options = state.legal_actions()
    exact = [a for a in options if a.label == label]
    matches = exact or [a for a in options if label in a.label]
    if len(matches) != 1:
        raise DocsError(f"{where}: {label!r} matches {len(matches)} of the options {[a.label for a in options]}")
    state.apply_action(matches[0])


def build_example(game: Any, setup: list[str], example: dict[str, Any], where: str) -> tuple[Any, Any]:
    """(the position when the example starts, the position after its steps)."""
    state = game.new_initial_state()
    for label in setup:
        _pick_outcome(state, str(label), f"{where} setup")
    for target, value in (example.get("set") or {}).items():
        name, index = _slot(target, where)
        try:
            state.set(name, *index, value)
        except (KeyError, ValueError, IndexError) as exc:
            raise DocsError(f"{where}: cannot set {target} = {value!r}: {exc}") from None
    for move in example.get("move") or []:
        n = int(move.get("n", 1))
        src, dst = _slot(move["from"], where), _slot(move["to"], where)
        try:  # State.set refuses a count outside its slot's range: a source that holds too few
            state.set(src[0], *src[1], int(state.get(src[0], *src[1])) - n)
            state.set(dst[0], *dst[1], int(state.get(dst[0], *dst[1])) + n)
        except (KeyError, ValueError, IndexError) as exc:
            raise DocsError(f"{where}: cannot move {n} from {move['from']} to {move['to']}: {exc}") from None
    problems = state.check_invariants()
    if problems:
        raise DocsError(f"{where}: the position breaks the game's invariants: {problems[:3]}")
    start = example.get("start") or {}
    if start:
        try:
            state = game.state_at(str(start["procedure"]), dict(start.get("with") or {}), state, tracing=True)
        except (KeyError, ValueError) as exc:
            raise DocsError(f"{where}: cannot start {start}: {exc}") from None
    before = state.clone()
    for label in example.get("steps") or []:
        _step(state, str(label), where)
    return before, state


def examples_page(gp: GamePages, out_files: Output, examples_dir: Path | None) -> list[str] | None:
    """The rulebooks' worked examples (scenario files) and the docs' own positions, drawn."""
    docs: GameDocs = gp.docs
    recipes = docs.docs.get("positions") or []
    scenarios = _scenario_files(examples_dir, docs.name)
    if not recipes and not scenarios:
        return None
    page = gp.doc("examples")
    out = heading("Worked examples", "=")
    out += [f"Positions of {esc(docs.title)} replayed by the engine: each is drawn before and after, with the "
            "trace of what happened (every line names the rule behind it). Click a picture to see it full size.", ""]
    if scenarios:
        out += heading("The rulebooks' examples", "-")
        out += ["Each is a scenario file of ``docs/examples/``: the position typed in a few lines, and the question "
                "it answers (the tests assert the answer).", ""]
        for path in scenarios:
            out += _scenario_section(gp, out_files, page, path)
    if recipes:
        game = docs.compiled()
        setup = [str(s) for s in docs.docs.get("setup") or []]
        out += heading("More positions", "-")
        out += [f"Positions of the :doc:`/tutorial`, built from {literal('docs/games/' + docs.name + '.yaml')}.", ""]
        for i, ex in enumerate(recipes):
            name = str(ex.get("name") or f"position-{i + 1}")
            before, after = build_example(game, setup, ex, f"docs/games/{docs.name}.yaml, position {name}")
            out += [f".. ghostrules-anchor:: example-{slug(name)}", ""]
            out += heading(esc(str(ex.get("title", name))), "~")
            if ex.get("source"):
                out += [f"*{esc(str(ex['source']))}*", ""]
            if ex.get("story"):
                out += [gp.linker(str(ex["story"])), ""]
            if ex.get("rules"):
                out += [f"Rules: {', '.join(role('rule', r) for r in ex['rules'])}", ""]
            out += _figure(out_files, page, f"{slug(name)}-before", state_to_svg(before), "Before: " + _caption(before))
            out += _trace(gp, [(e.rule, e.kind, e.text) for e in after.log()[len(before.log()):]])
            out += _figure(out_files, page, f"{slug(name)}-after", state_to_svg(after), "After: " + _caption(after))
    return out


def _trace(gp: GamePages, entries: list[tuple[str, str, str]]) -> list[str]:
    lines = []
    for rule, kind, text in entries:
        if kind in VALUE_KINDS or kind == "move":  # values recorded and pool moves: not steps of the game
            continue
        cite = role("rule", rule) if rule in gp.rule_doc else esc(rule or "")
        text = text.strip()
        shown = f"**{esc(text.strip('- '))}**" if text.startswith("---") else esc(text)  # a turn header
        lines.append(f"- {cite} {shown}")
    return ([".. rubric:: What happens", ""] + lines + [""]) if lines else []


def _caption(state: Any) -> str:
    if state.is_terminal():
        return f"the game is over: {state.outcome()}"
    prompt = state.prompt()
    return f"{state.current_player_name()} \u2014 {prompt}" if prompt else state.current_player_name()


def _figure(out_files: Output, page: str, name: str, svg: str, caption: str) -> list[str]:
    folder = page.rsplit("/", 1)[0]
    out_files.write(f"{folder}/pictures/{name}", svg, suffix=".svg")
    return [f".. figure:: pictures/{name}.svg", f"   :alt: {esc(caption)}", "   :class: ghostrules-picture",
            f"   :target: pictures/{name}.svg", "", f"   {esc(caption)}", ""]


def _scenario_files(examples_dir: Path | None, game: str) -> list[Path]:
    import ghostrules
    if examples_dir is None or not examples_dir.is_dir() or not hasattr(ghostrules, "load_scenario"):
        return []
    import yaml
    out = []
    for path in sorted(examples_dir.glob("*.yaml")):
        try:
            head = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise DocsError(f"{path}: {exc}") from exc
        if isinstance(head, dict) and str(head.get("game", "")) == game:
            out.append(path)
    return out


def _query() -> Any:
    try:
        import importlib
        return importlib.import_module("ghostrules.query")
    except ImportError:
        return None


def _scenario_section(gp: GamePages, out_files: Output, page: str, path: Path) -> list[str]:
    """A scenario file: its position, its question (when it is a cheap one) and what follows, drawn."""
    import ghostrules
    query = _query()
    scenario = None
    try:
        if query is not None and hasattr(query, "load"):
            scenario = query.load(path)
            state = scenario.state
        else:
            state = ghostrules.load_scenario(path)  # type: ignore[attr-defined]
    except Exception as exc:  # a scenario that does not load breaks the docs build, loudly
        raise DocsError(f"{path}: {exc}") from exc
    stem = slug(path.stem)
    title = str(getattr(scenario, "title", "") or path.stem.replace("_", " ").capitalize())
    out = [f".. ghostrules-anchor:: scenario-{stem}", ""]
    out += heading(esc(title), "~")
    description = str(getattr(scenario, "description", "") or "")
    if description:
        out += [gp.linker(description), ""]
    question = getattr(scenario, "question", None)
    answer = None
    kind = question.get("ask") if isinstance(question, dict) else None
    if kind in ("next", "legal") and hasattr(query, "ask"):
        try:
            answer = query.ask(scenario)
        except Exception as exc:
            raise DocsError(f"{path}: its question fails: {exc}") from exc
    expect = getattr(scenario, "expect", None)
    rules = list(expect.get("rules") or []) if isinstance(expect, dict) else []
    if rules:
        out += [f"Rules: {', '.join(role('rule', r) if r in gp.rule_doc else esc(r) for r in rules)}", ""]
    out += _figure(out_files, page, f"scenario-{stem}-before", state_to_svg(state), "The position: " + _caption(state))
    after = getattr(answer, "state", None)
    if answer is not None:
        trace = answer.data.get("trace", []) if isinstance(getattr(answer, "data", None), dict) else []
        out += _trace(gp, [(str(e.get("rule", "")), str(e.get("kind", "")), str(e.get("text", ""))) for e in trace])
    if after is not None:
        out += _figure(out_files, page, f"scenario-{stem}-after", state_to_svg(after), "Then: " + _caption(after))
    out += [f".. rubric:: The scenario file, {literal('docs/examples/' + path.name)}", "",
            f".. literalinclude:: /examples/{path.name}", "   :language: yaml", ""]
    return out
