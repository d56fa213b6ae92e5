"""The Sphinx extension that generates the rule reference from ``specs/``.

Add ``"ghostrules.docsgen"`` to ``extensions`` in ``conf.py``. Before Sphinx reads the sources,
every game under ``specs/`` is loaded and its pages are written under ``docs/reference/`` (rule
families, catalogues, cards, differences, open questions, components, dependencies, worked
examples, the spec language). A game that fails to load stops the build with its error.

Roles for hand-written pages: ``:rule:`GS-EXO-3```, ``:ed:`ED-5```, ``:oq:`OQ-6``` (or
``game:ID`` where an ID is ambiguous; ``Title <ID>`` for another link text). Unknown IDs are
warnings, hence errors under ``-W``.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

from .catalog import DocsError
from .site import REFERENCE, Index

__all__ = ["DocsError", "setup"]

_INDEX = Index()
STATIC = Path(__file__).resolve().parent / "static"


class AnchorDirective(Directive):
    """``.. ghostrules-anchor:: ID``: an HTML anchor whose id is exactly ID (case kept)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return [nodes.target("", "", ids=[self.arguments[0]])]


def _current_game(docname: str) -> str | None:
    parts = docname.split("/")
    return parts[1] if len(parts) >= 3 and parts[0] == REFERENCE else None


def _make_role(kind: str) -> Any:
    def role(name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: Any = None,
             content: Any = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        title, target = None, text.strip()
        if target.endswith(">") and "<" in target:
            title, target = target[:-1].split("<", 1)
            title, target = title.strip(), target.strip()
        env = inliner.document.settings.env
        found = _INDEX.find(kind, target, _current_game(env.docname))
        if len(found) != 1:
            why = "unknown" if not found else f"ambiguous ({', '.join(a.game for a in found)}: write game:ID)"
            msg = inliner.reporter.warning(f"{why} {kind} {target!r}", line=lineno)
            return [inliner.problematic(rawtext, rawtext, msg)], [msg]
        anchor = found[0]
        node = nodes.reference(rawtext, title or anchor.anchor, internal=True, classes=[f"ghostrules-{kind}"])
        node["ghostrules_doc"] = anchor.docname
        node["ghostrules_anchor"] = anchor.anchor
        if anchor.title:
            node["reftitle"] = anchor.title
        return [node], []
    return role


def _uri(app: Any) -> Any:
    def uri(from_doc: str, to_doc: str) -> str:
        try:
            return app.builder.get_relative_uri(from_doc, to_doc)
        except Exception:  # builders without pages (doctest, linkcheck ...) have no URIs
            return ""
    return uri


def _builder_inited(app: Any) -> None:
    global _INDEX
    if hasattr(app.config, "html_static_path") and str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))
    specs = app.config.ghostrules_specs
    root = (Path(app.confdir) / specs).resolve() if specs else None
    from .generate import generate  # late: the generator loads the engine and every game
    try:
        _INDEX = generate(Path(app.srcdir), _uri(app), root)
    except DocsError as exc:
        raise DocsError(f"the rule reference cannot be generated: {exc}") from exc


def _picture_links(app: Any, doctree: nodes.document, docname: str) -> None:
    """A picture that links to its own file (``:target:`` naming the image, for the full size) links to the
    copy the builder makes under ``_images/``: the source folder's file is not part of the output."""
    from sphinx.util.osutil import relative_uri
    images = getattr(app.env, "images", {})
    imagedir = getattr(app.builder, "imagedir", None)
    if not imagedir:
        return
    for image in list(doctree.findall(nodes.image)):
        ref = image.parent
        uri = image.get("uri", "")
        if not isinstance(ref, nodes.reference) or "refuri" not in ref or uri not in images:
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(docname), ref["refuri"]))
        if target != uri:
            continue
        try:
            base = relative_uri(app.builder.get_target_uri(docname), imagedir)
        except Exception:  # builders without pages
            continue
        ref["refuri"] = posixpath.join(base, images[uri][1])


def _resolve(app: Any, doctree: nodes.document, docname: str) -> None:
    _picture_links(app, doctree, docname)
    for node in doctree.findall(nodes.reference):
        target = node.get("ghostrules_doc")
        if target is None:
            continue
        base = "" if target == docname else _uri(app)(docname, target)
        node["refuri"] = f"{base}#{node['ghostrules_anchor']}"


def setup(app: Any) -> dict[str, Any]:
    app.add_config_value("ghostrules_specs", None, "env")  # the specs folder (default: the package's specs/)
    app.add_directive("ghostrules-anchor", AnchorDirective)
    for kind in ("rule", "ed", "oq"):
        app.add_role(kind, _make_role(kind))
    app.connect("builder-inited", _builder_inited)
    app.connect("doctree-resolved", _resolve)
    app.add_css_file("ghostrules.css")
    app.add_js_file("ghostrules-sortable.js")
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
