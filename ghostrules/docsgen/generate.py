"""Write every generated page of the reference (called by the Sphinx extension before reading)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..render.picture import Context
from ..spec.model import Family
from .catalog import DocsError, GameDocs, load_all
from .component_pages import card_sections, cards_page, catalogue_page
from .examples import examples_page
from .game_pages import components_page, dependencies_page, differences_page, index_page, open_questions_page
from .language import language_page
from .links import analyse
from .rst import Linker, heading
from .rule_pages import family_page, rule_title
from .site import REFERENCE, GamePages, Index, Output, UriFn, first_sentence, slug


def _families(docs: GameDocs) -> list[tuple[Family, list[Any]]]:
    order = list(docs.spec.families)
    known = {f.name for f in order}
    for r in docs.rules:
        if r.family not in known:
            order.append(Family(r.family, r.family.capitalize(), "(overlay)"))
            known.add(r.family)
    return [(f, [r for r in docs.rules if r.family == f.name]) for f in order]


def game_pages(docs: GameDocs) -> GamePages:
    rule_doc = {r.id: f"{REFERENCE}/{docs.name}/rules/{r.family}" for r in docs.rules}
    linker = Linker({"rule": list(rule_doc), "ed": [str(d["id"]) for d in docs.differences],
                     "oq": [str(q["id"]) for q in docs.open_questions]})
    links = analyse(docs.spec, docs.rules, linker.pattern)
    return GamePages(docs=docs, links=links, linker=linker, rule_doc=rule_doc)


def register(index: Index, gp: GamePages) -> None:
    for r in gp.docs.rules:
        index.add("rule", gp.name, r.id, gp.rule_doc[r.id], rule_title(r))
    for d in gp.docs.differences:
        index.add("ed", gp.name, str(d["id"]), gp.doc("differences"), str(d.get("topic", "")))
    for q in gp.docs.open_questions:
        index.add("oq", gp.name, str(q["id"]), gp.doc("open-questions"), first_sentence(str(q.get("question", "")), 100))


def _evaluator(docs: GameDocs) -> Any:
    state = None

    def evaluate(text: str, bindings: dict[str, tuple[str, int]]) -> bool:
        nonlocal state
        if state is None:
            state = docs.compiled().new_initial_state()
        ctx = Context(state, f"docs/games/{docs.name}.yaml")
        for name, (type_, value) in bindings.items():
            ctx.bind(name, value, type_)
        return ctx.truth(text)
    return evaluate


def write_game(out: Output, gp: GamePages, uri: UriFn, srcdir: Path) -> None:
    docs = gp.docs
    families = _families(docs)
    for fam, rules in families:
        out.write(gp.doc(f"rules/{fam.name}"), family_page(gp, fam, rules))
    pages: list[tuple[str, str]] = []
    evaluate = _evaluator(docs)
    for entry in docs.docs.get("catalogues") or []:
        page = str(entry.get("page") or "")
        if not page:
            raise DocsError(f"docs/games/{docs.name}.yaml: a catalogue needs 'page:'")
        out.write(gp.doc(page), catalogue_page(gp, entry, evaluate))
        pages.append((page, str(entry.get("title", page))))
    sections = card_sections(gp)
    titles = {str(k): str(v) for k, v in (docs.docs.get("card_titles") or {}).items()}
    for section in sections:
        domain = str(section["domain"])
        page = "cards" if len(sections) == 1 else f"cards-{slug(domain)}"
        title = titles.get(domain) or (f"The {domain.replace('_', ' ')} table" if len(sections) > 1 else "Card table")
        out.write(gp.doc(page), cards_page(gp, title, section))
        pages.append((page, title))
    if docs.differences:
        out.write(gp.doc("differences"), differences_page(gp))
        pages.append(("differences", "Differences between editions"))
    if docs.open_questions:
        out.write(gp.doc("open-questions"), open_questions_page(gp))
        pages.append(("open-questions", "Open questions"))
    out.write(gp.doc("components"), components_page(gp))
    pages.append(("components", "Components and state"))
    out.write(gp.doc("dependencies"), dependencies_page(gp, uri))
    pages.append(("dependencies", "Rule dependencies"))
    examples = examples_page(gp, out, srcdir / "examples")
    if examples is not None:
        out.write(gp.doc("examples"), examples)
        pages.append(("examples", "Worked examples"))
    out.write(gp.doc("index"), index_page(gp, pages, [(f, len(r)) for f, r in families]))


def generate(srcdir: Path, uri: UriFn, specs_root: Path | None = None) -> Index:
    """Generate ``<srcdir>/reference/`` for every game under ``specs/``; returns the anchor index."""
    games = load_all(specs_root, srcdir / "games")
    out = Output(srcdir)
    index = Index()
    gps = [game_pages(g) for g in games]
    for gp in gps:
        register(index, gp)
    out.write(f"{REFERENCE}/language", language_page(games, specs_root or games[0].folder.parent))
    top = heading("Rule reference", "=")
    top += ["Generated from ``specs/`` at every build: one section per game (a folder under ``specs/`` with a "
            "``game.yaml``), and the spec language they are written in.", ""]
    top += [".. toctree::", "   :maxdepth: 2", ""] + [f"   {gp.name}/index" for gp in gps] + ["   language", ""]
    out.write(f"{REFERENCE}/index", top)
    for gp in gps:
        write_game(out, gp, uri, srcdir)
    out.clean()
    return index


__all__ = ["generate", "game_pages", "register"]
