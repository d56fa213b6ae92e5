"""The generated rule reference: every rule ID has an anchor, every link lands, the card table is complete.

The HTML is built once per session (tests/docs_build.py) and checked by parsing it.
"""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

pytest.importorskip("sphinx")
pytest.importorskip("furo")

from docs_build import ROOT, SPECS, built_html, documented_games  # noqa: E402

SHARED_CARDS = ROOT.parent / "shared" / "data" / "ghost_stories_cards.csv"


class _Page(HTMLParser):
    """Ids, links and tables of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.tables: list[dict] = []  # {"classes", "rows": [[cell text]], "header": [..]}
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_head = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if tag == "table":
            self.tables.append({"classes": (a.get("class") or "").split(), "rows": [], "header": []})
        elif tag == "thead":
            self._in_head = True
        elif tag == "tbody":
            self._in_head = False
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None and self.tables:
            (self.tables[-1]["header"] if self._in_head else self.tables[-1]["rows"]).append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="module")
def html() -> Path:
    return built_html()


@pytest.fixture(scope="module")
def pages(html) -> dict[Path, _Page]:
    return {p: parse(p) for p in html.rglob("*.html")}


def rule_ids(game: str) -> list[str]:
    ids = []
    for path in sorted((SPECS / game / "rules").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        ids += [str(r["id"]) for r in doc.get("rules") or [] if isinstance(r, dict) and "id" in r]
    return ids


@pytest.mark.parametrize("game", documented_games())
def test_every_rule_id_has_an_anchor(html, pages, game):
    ids = rule_ids(game)
    assert ids, f"no rules found for {game}"
    anchors = set()
    for path, page in pages.items():
        if path.is_relative_to(html / "reference" / game):
            anchors |= page.ids
    missing = [i for i in ids if i not in anchors]
    assert not missing, f"{game}: rule IDs without an anchor in the built HTML: {missing}"


@pytest.mark.parametrize("game", documented_games())
def test_every_difference_and_open_question_has_an_anchor(html, pages, game):
    wanted = []
    for rel, key in (("editions/differences.yaml", "differences"), ("open_questions.yaml", "open_questions")):
        path = SPECS / game / rel
        if path.is_file():
            wanted += [str(d["id"]) for d in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get(key) or []]
    anchors = set().union(*(p.ids for path, p in pages.items() if path.is_relative_to(html / "reference" / game)))
    assert [w for w in wanted if w not in anchors] == []


def test_internal_links_land_on_an_anchor(html, pages):
    broken = []
    for path, page in pages.items():
        for href in page.hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith("mailto:"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.suffix != ".html":
                continue
            if target not in pages:
                broken.append(f"{path.relative_to(html)}: {href} (no page)")
            elif parts.fragment and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(html)}: {href} (no anchor)")
    assert not broken, "\n".join(broken[:30])


def _card_rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _column(header: list[str], *names: str) -> int:
    for i, h in enumerate(header):
        if any(h.lower().startswith(n) for n in names):
            return i
    raise AssertionError(f"no column {names} in {header}")


@pytest.mark.skipif("ghost-stories" not in documented_games(), reason="Ghost Stories is not documented here")
@pytest.mark.parametrize("source", [SPECS / "ghost-stories" / "cards.csv", SHARED_CARDS], ids=["spec", "shared"])
def test_card_table_has_every_card_with_its_colour_and_resistance(html, source):
    if not source.is_file():
        pytest.skip(f"{source} is not here")
    page = parse(html / "reference" / "ghost-stories" / "cards.html")
    tables = [t for t in page.tables if "sortable" in t["classes"]]
    assert len(tables) == 1, "one sortable card table"
    table = tables[0]
    header = table["header"][0]
    name, number = _column(header, "name"), _column(header, "no", "number")
    colour, resistance = _column(header, "colour", "color"), _column(header, "resistance")
    by_number = {row[number]: row for row in table["rows"]}
    cards = _card_rows(source)
    assert len(cards) == 65 and len(table["rows"]) == 65
    for card in cards:
        row = by_number.get(card["number"])
        assert row is not None, f"card {card['number']} {card['name']} is missing"
        assert row[name] == card["name"]
        assert row[colour] == card["color"], card["name"]
        if card["resistance"].isdigit():
            assert row[resistance] == card["resistance"], card["name"]
        else:  # a multicolour incarnation: "blue:2|red:2|..." shown as "8 (blue 2, red 2, ...)"
            parts = dict(p.split(":") for p in card["resistance"].split("|"))
            total = sum(int(n) for n in parts.values())
            assert row[resistance].startswith(f"{total} ("), card["name"]
            for k, n in parts.items():
                assert re.search(rf"\b{k} {n}\b", row[resistance]), (card["name"], k, n)


@pytest.mark.skipif("ghost-stories" not in documented_games(), reason="Ghost Stories is not documented here")
def test_incarnation_page_shows_every_incarnation(html):
    import ghostrules
    game = ghostrules.load_game("ghost-stories")
    state = game.new_initial_state()
    card = game.layout.domains["card"]
    incarnations = [(s, label) for s, label in zip(card.symbols, card.labels) if state.eval(f"is_incarnation({s})")]
    assert len(incarnations) == 10
    page = parse(html / "reference" / "ghost-stories" / "incarnations.html")
    text = (html / "reference" / "ghost-stories" / "incarnations.html").read_text(encoding="utf-8")
    for symbol, label in incarnations:
        assert f"card-{symbol}" in page.ids, label
        assert label in text


@pytest.mark.skipif("ghost-stories" not in documented_games(), reason="Ghost Stories is not documented here")
def test_worked_examples_have_pictures(html):
    page = html / "reference" / "ghost-stories" / "examples.html"
    text = page.read_text(encoding="utf-8")
    pictures = re.findall(r'src="([^"]+\.svg)"', text)
    assert len(pictures) >= 20
    for src in pictures:
        svg = (page.parent / src).resolve()
        assert svg.is_file() and svg.read_text(encoding="utf-8").startswith("<svg"), src


def test_local_links_and_pictures_point_to_files(html, pages):
    """Every local href or src names a file of the build (a picture's "full size" link too), and no
    text turns into a link with a made-up scheme (``file:line`` in a docstring became href="file:line")."""
    broken = []
    for path, page in pages.items():
        text = path.read_text(encoding="utf-8")
        for ref in page.hrefs + re.findall(r'<img[^>]* src="([^"]+)"', text):
            parts = urlsplit(ref)
            if parts.scheme in ("http", "https", "mailto") or parts.netloc:
                continue
            if parts.scheme:
                broken.append(f"{path.relative_to(html)}: {ref} (scheme {parts.scheme!r})")
                continue
            if parts.path and not (path.parent / unquote(parts.path)).resolve().is_file():
                broken.append(f"{path.relative_to(html)}: {ref} (no file)")
    assert not broken, f"{len(broken)} broken:\n" + "\n".join(broken[:30])


def _rule_sections(html: Path, game: str) -> dict[str, str]:
    """Rule ID -> the text of its section on its family page (tags removed, whitespace collapsed)."""
    import html as html_lib
    out = {}
    for path in (html / "reference" / game / "rules").glob("*.html"):
        parts = re.split(r'<span id="([A-Za-z0-9][A-Za-z0-9-]*)"></span>', path.read_text(encoding="utf-8"))
        for i in range(1, len(parts), 2):
            out[parts[i]] = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", parts[i + 1])).split())
    return out


def _plain(text: str) -> str:
    """Text as the HTML shows it, quotes straightened (Sphinx's smart quotes)."""
    table = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u2026": "..."})
    return " ".join(text.translate(table).split())


@pytest.mark.parametrize("game", documented_games())
def test_low_confidence_card_rows_are_marked(html, game):
    """A row of a component table (specs/<game>/*.csv) whose confidence is not high says so in the
    card table, with its note (shared/data/README.md: "keep the confidence where it is not high")."""
    raw = yaml.safe_load((SPECS / game / "game.yaml").read_text(encoding="utf-8"))
    sections = raw.get("cards") or []
    sections = sections if isinstance(sections, list) else [sections]
    checked = 0
    for section in sections:
        rows = _card_rows(SPECS / game / section["file"])
        low = [r for r in rows if r.get("confidence", "high").strip() not in ("", "high")]
        if not low:
            continue
        pages = {p: parse(p) for p in (html / "reference" / game).glob("cards*.html")}
        cells = {row[0]: " ".join(row) for p in pages.values() for t in p.tables if "sortable" in t["classes"]
                 for row in t["rows"]}
        for r in low:
            name = r["name"]
            shown = [cell for first, cell in cells.items() if first == name or first.startswith(name + " (")]
            assert len(shown) == 1, f"{game}: {name} is not in a card table"
            assert f"{r['confidence']} confidence" in shown[0], f"{game}: {name} is not marked: {shown[0]!r}"
            checked += 1
    if game == "betrayal":
        assert checked >= 1  # Stairs from Basement (medium)


@pytest.mark.parametrize("game", documented_games())
def test_rule_sections_show_their_words_and_adoptions(html, game):
    """Each rule's section shows our wording and every source's words as written (a leading "(a)" is
    not turned into a list marker), a broken-font source's encoded form (what a grep of the rulebook
    file finds), and the note of an edition that adopts the rule where its text is silent."""
    from ghostrules.docsgen.catalog import load_game_docs
    docs = load_game_docs(game)
    sections = _rule_sections(html, game)
    problems = []
    for rule in docs.rules:
        section = _plain(sections.get(rule.id, ""))
        if rule.text and _plain(rule.text) not in section:
            problems.append(f"{rule.id}: its text is not shown as written")
        for src in rule.sources:
            if f'"{_plain(src.words)}"' not in section:
                problems.append(f"{rule.id}: the words {src.words[:40]!r} are not shown")
            if src.encoded and _plain(src.encoded) not in section:
                problems.append(f"{rule.id}: the encoded form {src.encoded[:40]!r} is not shown")
        for version in docs.versions.get(rule.id, []):
            for note in getattr(version.rule, "adopted", ()):
                if _plain(note.split(": ", 1)[-1]) not in section:
                    problems.append(f"{rule.id}: with {version.label} the note {note!r} is not shown")
    assert not problems, "\n".join(problems[:30])
