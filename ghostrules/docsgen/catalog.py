"""Load every game under ``specs/`` for the documentation: one spec per overlay, merged by rule ID.

A game's rules are read in its default configuration and, for every overlay (edition or other
parameter), in a configuration that applies that overlay; a rule that an overlay replaces, adds or
removes is shown with all its versions. A game that does not load stops the build with the error
(``DocsError``): the reference never silently leaves a game out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs
import yaml

from ..spec import SpecError, load_spec
from ..spec.loader import available_games, games_root
from ..spec.model import GameSpec, Rule


class DocsError(Exception):
    """The documentation cannot be generated (a game that does not load, a bad docs data file)."""


@attrs.define
class Version:
    """A rule as one configuration has it, when it differs from the default configuration."""

    settings: dict[str, Any]
    rule: Rule | None  # None: the configuration removes the rule

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.settings.items())


@attrs.define
class GameDocs:
    """Everything the reference says about one game."""

    name: str
    title: str
    folder: Path
    raw: dict[str, Any]  # game.yaml as plain data (parameters, overlays, cards)
    spec: GameSpec  # the default configuration
    variants: list[tuple[dict[str, Any], GameSpec]]  # (changed settings, spec) per overlay configuration
    rules: list[Rule]  # every rule ID once: the default version, or the first version that has it
    versions: dict[str, list[Version]]
    differences: list[dict[str, Any]]
    open_questions: list[dict[str, Any]]
    docs: dict[str, Any]  # docs/games/<name>.yaml, if any: catalogues and worked examples
    game: Any = None  # the compiled default configuration (for pictures), loaded on demand

    @property
    def editions(self) -> list[str]:
        for p in self.spec.parameters:
            if p.name == "edition":
                return [str(v) for v in p.values]
        return []

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def compiled(self) -> Any:
        if self.game is None:
            from ..engine import Game
            try:
                self.game = Game(self.spec)
            except SpecError as exc:
                raise DocsError(f"{self.name}: the default configuration does not compile: {exc}") from exc
        return self.game


def _read_yaml(path: Path) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise DocsError(f"cannot read {path}: {exc}") from exc


def _items(doc: Any, key: str, path: Path) -> list[dict[str, Any]]:
    if doc is None:
        return []
    items = doc.get(key) if isinstance(doc, dict) else doc
    if not isinstance(items, list) or not all(isinstance(i, dict) and "id" in i for i in items):
        raise DocsError(f"{path}: expected a list of entries with 'id' under '{key}'")
    return items


def _configurations(raw: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The default settings and, per overlay, the settings that apply it (defaults elsewhere)."""
    defaults: dict[str, Any] = {}
    for name, body in (raw.get("parameters") or {}).items():
        values = list(body.get("values", []))
        defaults[str(name)] = body.get("default", values[0] if values else None)
    changes: list[dict[str, Any]] = []
    for overlay in raw.get("overlays") or []:
        when = overlay.get("when") or {}
        wanted = {str(k): (v[0] if isinstance(v, list) and v else v) for k, v in when.items()}
        changed = {k: v for k, v in wanted.items() if defaults.get(k) != v}
        if changed and changed not in changes:
            changes.append(changed)
    return defaults, changes


def load_game_docs(name: str, root: Path | None = None, docs_dir: Path | None = None) -> GameDocs:
    """Read one game for the reference; raises DocsError naming what failed."""
    base = root or games_root()
    folder = base / name
    raw = _read_yaml(folder / "game.yaml")
    if not isinstance(raw, dict):
        raise DocsError(f"{folder / 'game.yaml'}: expected a mapping")
    defaults, overlay_settings = _configurations(raw)
    try:
        spec = load_spec(name, root=base, **defaults)
    except SpecError as exc:
        raise DocsError(f"game {name!r} does not load in its default configuration {defaults}: {exc}") from exc
    variants = []
    for changed in overlay_settings:
        try:
            variants.append((changed, load_spec(name, root=base, **{**defaults, **changed})))
        except SpecError as exc:
            raise DocsError(f"game {name!r} does not load with {changed}: {exc}") from exc

    rules = list(spec.rules)
    known = {r.id for r in rules}
    versions: dict[str, list[Version]] = {}
    default_by_id = {r.id: r for r in spec.rules}
    for changed, vspec in variants:
        by_id = {r.id: r for r in vspec.rules}
        for r in vspec.rules:
            if r.id not in known:
                rules.append(r)
                known.add(r.id)
            if default_by_id.get(r.id) != r:
                versions.setdefault(r.id, []).append(Version(changed, r))
        for rid in default_by_id:
            if rid not in by_id:
                versions.setdefault(rid, []).append(Version(changed, None))

    diff_path = folder / "editions" / "differences.yaml"
    differences = _items(_read_yaml(diff_path), "differences", diff_path) if diff_path.is_file() else []
    oq_path = folder / "open_questions.yaml"
    open_questions = _items(_read_yaml(oq_path), "open_questions", oq_path) if oq_path.is_file() else []
    docs: dict[str, Any] = {}
    if docs_dir is not None and (docs_dir / f"{name}.yaml").is_file():
        loaded = _read_yaml(docs_dir / f"{name}.yaml")
        if not isinstance(loaded, dict):
            raise DocsError(f"{docs_dir / (name + '.yaml')}: expected a mapping")
        docs = loaded
    return GameDocs(name=name, title=spec.title, folder=folder, raw=raw, spec=spec, variants=variants, rules=rules,
                    versions=versions, differences=differences, open_questions=open_questions, docs=docs)


def load_all(root: Path | None = None, docs_dir: Path | None = None) -> list[GameDocs]:
    """Every game folder under ``specs/`` (a folder with a game.yaml); any failure raises DocsError.

    The environment variable ``GHOSTRULES_DOCS_GAMES`` (comma-separated names) restricts the
    reference to some games, e.g. while another game is being written; it is never set in CI."""
    names = available_games(root or games_root())
    wanted = [n.strip() for n in os.environ.get("GHOSTRULES_DOCS_GAMES", "").split(",") if n.strip()]
    if wanted:
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            raise DocsError(f"GHOSTRULES_DOCS_GAMES names unknown games {unknown}; available: {names}")
        names = [n for n in names if n in wanted]
    if not names:
        raise DocsError(f"no games found under {root or games_root()}")
    return [load_game_docs(n, root, docs_dir) for n in names]
