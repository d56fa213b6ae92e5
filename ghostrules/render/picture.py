"""Draw a state as SVG from a game's ``picture.yaml`` (which slots and tiles are drawn where).

The renderer knows shapes, not games: a *grid* of cells (tiles) with labels, flags and glyphs;
*boards* along the grid's edges, each with *slots* that sit next to the cell they face and show
the content of the slot (a card) and its glyphs; and a *panel* of text lines. Everything that is
drawn is an expression of the condition language evaluated in the state, so the picture of a game
is data (``specs/<game>/picture.yaml``); see that file for the vocabulary. A game without a
picture file is drawn as a plain list of the slots that differ from their initial values.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import yaml

from ..spec.expr import ExprError, parse
from ..spec.model import Where
from .svg import Svg, fit

PICTURE_FILE = "picture.yaml"
_BINDER = re.compile(r"^\s*([A-Za-z_]\w*)\s+in\s+([A-Za-z_]\w*)(?:\s+if\s+(.+))?\s*$", re.S)
_HOLE = re.compile(r"\{([^{}]+)\}")

DEFAULT_PALETTE = {"cell": "#f4ecd8", "cell_edge": "#8a7a5a", "text": "#222222", "muted": "#6b6b6b",
                   "slot": "#ffffff", "board": "#f7f3ea", "unknown": "#9a9a9a", "background": "#fffdf8"}


class PictureError(Exception):
    """A picture file that does not fit the game (an unknown name, a bad expression...)."""


@lru_cache(maxsize=16)
def _load_picture(path: str, mtime: float) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh) or {}
    if not isinstance(doc, dict):
        raise PictureError(f"{path}: expected a mapping")
    return doc


def picture_spec(game: Any) -> dict[str, Any] | None:
    """The picture description of a game (``picture.yaml`` beside its ``game.yaml``), or None."""
    root = getattr(game.spec, "root", "")
    if not root:
        return None
    path = Path(root) / PICTURE_FILE
    if not path.is_file():
        return None
    return _load_picture(str(path), path.stat().st_mtime)


class Context:
    """Evaluates condition-language expressions in a state with some names bound (``for`` variables)."""

    def __init__(self, state: Any, source: str) -> None:
        self.state = state
        self.game = state.game
        self.layout = self.game.layout
        self.source = source
        self.scope: dict[str, str] = {}
        self.local: dict[str, int] = {}
        self._cache: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[Any, str]] = {}

    def _compiled(self, text: str) -> tuple[Any, str]:
        key = (text, tuple(sorted(self.scope.items())))
        if key not in self._cache:
            try:
                expr = parse(text)
                self._cache[key] = self.game.program.exprs.compile(expr, dict(self.scope), Where(self.source, 0),
                                                                   "picture")
            except ExprError as exc:
                raise PictureError(f"{self.source}: bad expression {text!r}: {exc}") from None
            except Exception as exc:  # a SpecError from the type checker: an unknown name...
                raise PictureError(f"{self.source}: cannot draw {text!r}: {exc}") from None
        return self._cache[key]

    def value(self, text: Any) -> tuple[int, str]:
        """The raw value (an int; symbols by index, none = -1) and its type."""
        if isinstance(text, bool):
            return int(text), "bool"
        if isinstance(text, int):
            return text, "int"
        fn, type_ = self._compiled(str(text))
        return int(fn(self.state.values, self.local)), type_

    def truth(self, text: Any) -> bool:
        return text is None or bool(self.value(text)[0])

    def number(self, text: Any) -> int:
        return self.value(text)[0]

    def symbol(self, text: Any) -> str:
        v, t = self.value(text)
        return self.layout.symbol(t, v)

    def show(self, value: int, type_: str) -> str:
        if type_ == "bool":
            return "yes" if value else "no"
        if type_ == "int":
            return str(value)
        if value < 0:
            return "\u2014"
        return self.layout.label(type_, value)

    def template(self, text: Any) -> str:
        """A text with ``{expression}`` holes, each shown readably (symbols by their labels)."""
        return _HOLE.sub(lambda m: self.show(*self.value(m.group(1))), str(text))

    def each(self, binder: str | None) -> Iterator[None]:
        """Bind ``x`` to every symbol of ``D`` (``x in D [if cond]``) in turn; ``None`` binds nothing once."""
        if not binder:
            yield None
            return
        m = _BINDER.match(binder)
        if not m:
            raise PictureError(f"{self.source}: expected 'name in domain [if condition]', found {binder!r}")
        name, domain, cond = m.group(1), m.group(2), m.group(3)
        if domain not in self.layout.domains:
            raise PictureError(f"{self.source}: unknown domain {domain!r} in {binder!r}")
        saved = (self.scope.get(name), self.local.get(name))
        try:
            for i in range(len(self.layout.domains[domain].symbols)):
                self.scope[name] = domain
                self.local[name] = i
                if cond is None or self.truth(cond):
                    yield None
        finally:
            self._restore(name, saved)

    def bind(self, name: str, value: int, type_: str) -> None:
        self.scope[name] = type_
        self.local[name] = value

    def unbind(self, name: str) -> None:
        self.scope.pop(name, None)
        self.local.pop(name, None)

    def _restore(self, name: str, saved: tuple[Any, Any]) -> None:
        if saved[0] is None:
            self.unbind(name)
        else:
            self.scope[name], self.local[name] = saved

    def colour(self, spec: Any, palette: dict[str, str], fallback: str) -> str:
        """A palette name, or an expression whose symbol names a palette colour."""
        if spec is None:
            return fallback
        text = str(spec)
        if text in palette and text not in self.scope:
            return palette[text]
        if text.startswith("#"):
            return text
        return palette.get(self.symbol(text), fallback)


# ---- glyphs -------------------------------------------------------------------------------------

GLYPH = 14  # the size of one glyph


def _texts(ctx: Context, items: list[Any] | None) -> list[str]:
    """Text lines: a template, or ``{when: condition, text: template}`` shown only when the condition holds."""
    out = []
    for item in items or []:
        if isinstance(item, dict):
            if ctx.truth(item.get("when")):
                out.append(ctx.template(item.get("text", "")))
        else:
            out.append(ctx.template(item))
    return [line for line in out if line.strip()]


def _glyphs(ctx: Context, specs: list[dict[str, Any]] | None, palette: dict[str, str]) -> list[tuple[str, str, str]]:
    """Expand glyph specs into (shape, colour, label) instances."""
    out: list[tuple[str, str, str]] = []
    for spec in specs or []:
        for _ in ctx.each(spec.get("for")):
            if not ctx.truth(spec.get("when")):
                continue
            n = ctx.number(spec["count"]) if "count" in spec else 1
            if n <= 0:
                continue
            shape = str(spec.get("shape", "disc"))
            colour = ctx.colour(spec.get("colour"), palette, palette["unknown"])
            label = ctx.template(spec["label"]) if "label" in spec else ""
            if n > 4:
                out.append((shape, colour, f"\u00d7{n}"))
            else:
                out.extend([(shape, colour, label)] * n)
    return out


def _draw_glyph(svg: Svg, shape: str, colour: str, x: float, y: float, label: str) -> None:
    """One glyph with its centre at (x, y)."""
    r = GLYPH / 2
    edge = "#222222"
    if shape == "figure":  # a standing figure: head and body
        svg.circle(x, y - r + 3.5, 3.5, fill=colour, stroke=edge, stroke_width=0.8)
        svg.path(f"M{x - r + 2:.1f},{y + r:.1f} L{x - 2:.1f},{y - 1:.1f} L{x + 2:.1f},{y - 1:.1f} "
                 f"L{x + r - 2:.1f},{y + r:.1f} Z", fill=colour, stroke=edge, stroke_width=0.8)
    elif shape == "seated":  # a seated figure: wide base, head
        svg.circle(x, y - 3, 3.5, fill=colour, stroke=edge, stroke_width=0.8)
        svg.path(f"M{x - r:.1f},{y + r - 1:.1f} Q{x:.1f},{y - 4:.1f} {x + r:.1f},{y + r - 1:.1f} Z",
                 fill=colour, stroke=edge, stroke_width=0.8)
    elif shape == "square":
        svg.rect(x - r + 2, y - r + 2, GLYPH - 4, GLYPH - 4, fill=colour, stroke=edge, stroke_width=0.8)
    elif shape == "diamond":
        svg.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=colour, stroke=edge, stroke_width=0.8)
    elif shape == "ring":
        svg.circle(x, y, r - 2, fill="none", stroke=colour, stroke_width=3)
    elif shape == "yinyang":
        svg.circle(x, y, r - 1, fill="#ffffff", stroke=edge, stroke_width=0.8)
        svg.path(f"M{x:.1f},{y - r + 1:.1f} A{r - 1:.1f},{r - 1:.1f} 0 0 1 {x:.1f},{y + r - 1:.1f} "
                 f"A{(r - 1) / 2:.1f},{(r - 1) / 2:.1f} 0 0 1 {x:.1f},{y:.1f} "
                 f"A{(r - 1) / 2:.1f},{(r - 1) / 2:.1f} 0 0 0 {x:.1f},{y - r + 1:.1f} Z", fill=colour)
    else:  # disc: a token
        svg.circle(x, y, r - 2, fill=colour, stroke=edge, stroke_width=0.8)
    if label:
        svg.text(x + r + 1, y + 4, label, size=10, anchor="start", fill="#222222")


def _flow(svg: Svg, glyphs: list[tuple[str, str, str]], x: float, y: float, width: float) -> float:
    """Lay glyphs out left to right from (x, y), wrapping at ``width``; returns the height used."""
    if not glyphs:
        return 0
    cx, cy = x + GLYPH / 2, y + GLYPH / 2
    for shape, colour, label in glyphs:
        step = GLYPH + 3 + (len(label) * 6 + 2 if label else 0)
        if cx + step - GLYPH / 2 > x + width and cx > x + GLYPH:
            cx = x + GLYPH / 2
            cy += GLYPH + 3
        _draw_glyph(svg, shape, colour, cx, cy, label)
        cx += step
    return cy - y + GLYPH / 2


def _lines(svg: Svg, lines: list[str], x: float, y: float, width: float, size: float = 11,
           anchor: str = "start", **attrs: Any) -> float:
    for i, line in enumerate(lines):
        svg.text(x, y + (i + 1) * (size + 3), fit(line, width, size), size=size, anchor=anchor, **attrs)
    return len(lines) * (size + 3)


# ---- the picture --------------------------------------------------------------------------------


class _Geometry:
    def __init__(self, pic: dict[str, Any], ctx: Context) -> None:
        grid = pic.get("grid") or {}
        self.rows: list[list[str]] = [[str(s) for s in row] for row in grid.get("rows", [])]
        self.cell = float(grid.get("size", 120))
        boards = pic.get("boards") or {}
        self.card = float(boards.get("slot_size", self.cell - 10))
        self.gap = 8.0
        self.info_w = float(boards.get("info_width", 170))
        self.info_h = float(boards.get("info_height", 110))
        self.margin = 10.0
        self.panel_h = 18.0 * len((pic.get("panel") or {}).get("lines", [])) + 12
        ncols = max((len(r) for r in self.rows), default=0)
        self.grid_w = ncols * self.cell
        self.grid_h = len(self.rows) * self.cell
        has_boards = bool(boards)
        self.band_x = (self.card + 2 * self.gap + self.info_w) if has_boards else 0
        self.band_y = (self.card + 2 * self.gap + self.info_h) if has_boards else 0
        self.top = 28.0  # the caption line
        self.gx = self.margin + self.band_x
        self.gy = self.top + self.margin + self.band_y
        self.width = self.grid_w + 2 * (self.band_x + self.margin)
        self.height = self.gy + self.grid_h + self.band_y + self.margin + self.panel_h
        self.where: dict[str, tuple[int, int]] = {}
        for r, row in enumerate(self.rows):
            for c, symbol in enumerate(row):
                self.where[symbol] = (r, c)


def draw(state: Any, caption: str | None = None) -> str:
    """The SVG picture of ``state`` (see the module docstring)."""
    pic = picture_spec(state.game)
    if pic is None:
        return _draw_slots(state, caption)
    source = f"{state.game.spec.name}/{PICTURE_FILE}"
    ctx = Context(state, source)
    palette = {**DEFAULT_PALETTE, **{str(k): str(v) for k, v in (pic.get("palette") or {}).items()}}
    geo = _Geometry(pic, ctx)
    svg = Svg(geo.width, geo.height, title=state.game.spec.title, background=palette["background"])
    if caption is None:
        caption = _default_caption(state)
    svg.text(geo.margin, 20, fit(caption, geo.width - 2 * geo.margin, 13), size=13, anchor="start",
             fill=palette["text"], font_weight="bold")
    if pic.get("grid"):
        _draw_grid(svg, ctx, pic["grid"], geo, palette)
    if pic.get("boards"):
        _draw_boards(svg, ctx, pic["boards"], geo, palette)
    panel = pic.get("panel") or {}
    lines = _texts(ctx, panel.get("lines"))
    _lines(svg, lines, geo.margin, geo.height - geo.panel_h, geo.width - 2 * geo.margin, size=12,
           fill=palette["text"])
    return str(svg)


def _default_caption(state: Any) -> str:
    if state.is_terminal():
        return f"Game over: {state.outcome()}"
    who = state.current_player_name()
    prompt = state.prompt()
    return f"{who}: {prompt}" if prompt else who


def _draw_grid(svg: Svg, ctx: Context, grid: dict[str, Any], geo: _Geometry, palette: dict[str, str]) -> None:
    m = _BINDER.match(str(grid.get("cells", "")))
    if not m:
        raise PictureError(f"{ctx.source}: grid needs 'cells: name in domain'")
    name, domain = m.group(1), m.group(2)
    dom = ctx.layout.domains.get(domain)
    if dom is None:
        raise PictureError(f"{ctx.source}: unknown domain {domain!r} for the grid")
    size = geo.cell
    for symbol, (r, c) in geo.where.items():
        if symbol not in dom.symbols:
            raise PictureError(f"{ctx.source}: {symbol!r} is not in domain {domain}")
        ctx.bind(name, dom.index(symbol), domain)
        x, y = geo.gx + c * size, geo.gy + r * size
        fill, note, ink = palette["cell"], "", palette["text"]
        for flag in grid.get("flags", []):
            if ctx.truth(flag.get("when")):
                fill = ctx.colour(flag.get("fill"), palette, fill)
                ink = ctx.colour(flag.get("ink"), palette, ink)
                note = ctx.template(flag["text"]) if "text" in flag else ""
                break
        svg.rect(x + 2, y + 2, size - 4, size - 4, rx=6, fill=fill, stroke=palette["cell_edge"], stroke_width=1.2)
        label = ctx.template(grid.get("label", "{" + name + "}"))
        words = _wrap(label, size - 12, 12)
        _lines(svg, words, x + size / 2, y + 2, size - 12, size=12, anchor="middle", fill=ink, font_weight="bold")
        if note:
            svg.text(x + size / 2, y + 4 + 15 * (len(words) + 1), fit(note, size - 10, 10), size=10, fill=ink,
                     font_style="italic")
        glyphs = _glyphs(ctx, grid.get("glyphs"), palette)
        rows = _rows_needed(glyphs, size - 16)
        _flow(svg, glyphs, x + 8, y + size - 8 - rows * (GLYPH + 3), size - 16)
    ctx.unbind(name)


def _rows_needed(glyphs: list[tuple[str, str, str]], width: float) -> int:
    if not glyphs:
        return 0
    rows, used = 1, 0.0
    for _, _, label in glyphs:
        step = GLYPH + 3 + (len(label) * 6 + 2 if label else 0)
        if used + step > width and used > 0:
            rows += 1
            used = 0
        used += step
    return rows


def _wrap(text: str, width: float, size: float) -> list[str]:
    limit = max(4, int(width / (size * 0.6)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines[:3] or [""]


def _draw_boards(svg: Svg, ctx: Context, boards: dict[str, Any], geo: _Geometry, palette: dict[str, str]) -> None:
    edges = {str(k): str(v) for k, v in (boards.get("edges") or {}).items()}
    slots = boards.get("slots") or {}
    for _ in ctx.each(boards.get("for")):
        if not ctx.truth(boards.get("when")):
            continue
        edge = edges.get(ctx.symbol(boards["edge"])) if "edge" in boards else None
        if edge not in ("top", "bottom", "left", "right"):
            continue  # not placed yet (e.g. before setup)
        colour = ctx.colour(boards.get("colour"), palette, palette["unknown"])
        _draw_info(svg, ctx, boards, geo, palette, edge, colour)
        for _ in ctx.each(slots.get("for")):
            _draw_slot(svg, ctx, slots, geo, palette, edge, colour)


def _info_box(geo: _Geometry, edge: str) -> tuple[float, float, float, float]:
    if edge == "bottom":
        return geo.gx, geo.gy + geo.grid_h + geo.card + 2 * geo.gap, geo.grid_w, geo.info_h
    if edge == "top":
        return geo.gx, geo.gy - geo.card - 2 * geo.gap - geo.info_h, geo.grid_w, geo.info_h
    if edge == "left":
        return geo.gx - geo.card - 2 * geo.gap - geo.info_w, geo.gy, geo.info_w, geo.grid_h
    return geo.gx + geo.grid_w + geo.card + 2 * geo.gap, geo.gy, geo.info_w, geo.grid_h


def _draw_info(svg: Svg, ctx: Context, boards: dict[str, Any], geo: _Geometry, palette: dict[str, str], edge: str,
               colour: str) -> None:
    x, y, w, h = _info_box(geo, edge)
    svg.rect(x, y, w, h, rx=8, fill=palette["board"], stroke=colour, stroke_width=3)
    title = ctx.template(boards.get("title", ""))
    svg.text(x + 10, y + 18, fit(title, w - 20, 13), size=13, anchor="start", fill=palette["text"], font_weight="bold")
    lines = _texts(ctx, boards.get("lines"))
    used = _lines(svg, lines, x + 10, y + 22, w - 20, size=11, fill=palette["text"])
    _flow(svg, _glyphs(ctx, boards.get("glyphs"), palette), x + 10, y + 30 + used, w - 20)


def _slot_box(geo: _Geometry, edge: str, cell: tuple[int, int]) -> tuple[float, float, float, float]:
    r, c = cell
    pad = 5.0
    if edge == "bottom":
        return geo.gx + c * geo.cell + pad, geo.gy + geo.grid_h + geo.gap, geo.cell - 2 * pad, geo.card
    if edge == "top":
        return geo.gx + c * geo.cell + pad, geo.gy - geo.gap - geo.card, geo.cell - 2 * pad, geo.card
    if edge == "left":
        return geo.gx - geo.gap - geo.card, geo.gy + r * geo.cell + pad, geo.card, geo.cell - 2 * pad
    return geo.gx + geo.grid_w + geo.gap, geo.gy + r * geo.cell + pad, geo.card, geo.cell - 2 * pad


def _draw_slot(svg: Svg, ctx: Context, slots: dict[str, Any], geo: _Geometry, palette: dict[str, str], edge: str,
               board_colour: str) -> None:
    cell = geo.where.get(ctx.symbol(slots["next_to"])) if "next_to" in slots else None
    if cell is None:
        return
    x, y, w, h = _slot_box(geo, edge, cell)
    name = str(slots.get("as", "content"))
    content, ctype = ctx.value(slots["content"]) if "content" in slots else (-1, "int")
    glyph_y = y + h - GLYPH - 6
    if content < 0:
        svg.rect(x, y, w, h, rx=5, fill=palette["slot"], stroke=board_colour, stroke_width=1.5,
                 stroke_dasharray="5,4", opacity=0.9)
    else:
        ctx.bind(name, content, ctype)
        colour = ctx.colour(slots.get("colour"), palette, palette["unknown"])
        svg.rect(x, y, w, h, rx=5, fill=palette["slot"], stroke=colour, stroke_width=3)
        svg.rect(x, y, w, 16, rx=5, fill=colour)
        lines = _texts(ctx, slots.get("lines"))
        if lines:
            svg.text(x + w / 2, y + 12, fit(lines[0], w - 8, 10.5), size=10.5, fill=palette.get("on_colour", "#ffffff"),
                     font_weight="bold")
            _lines(svg, lines[1:], x + 5, y + 16, w - 10, size=10, fill=palette["text"])
        glyphs = _glyphs(ctx, slots.get("glyphs"), palette)
        _flow(svg, glyphs, x + 5, glyph_y, w - 10)
        ctx.unbind(name)
        return
    _flow(svg, _glyphs(ctx, slots.get("empty_glyphs"), palette), x + 5, glyph_y, w - 10)


def _draw_slots(state: Any, caption: str | None) -> str:
    """The fallback picture: the slots that differ from their initial values, as text."""
    layout = state.game.layout
    initial = layout.initial_values()
    changed = [f"{layout.name_of(i)} = {_show_flat(layout, i, v)}" for i, v in enumerate(state.values)
               if v != initial[i]]
    lines = changed[:60] + ([f"... and {len(changed) - 60} more"] if len(changed) > 60 else [])
    height = 48 + 15 * max(1, len(lines))
    svg = Svg(640, height, title=state.game.spec.title, background=DEFAULT_PALETTE["background"])
    svg.text(10, 20, fit(caption if caption is not None else _default_caption(state), 620, 13), size=13,
             anchor="start", font_weight="bold")
    _lines(svg, lines or ["(the initial position)"], 10, 28, 620, size=11)
    return str(svg)


def _show_flat(layout: Any, flat: int, value: int) -> str:
    name, _ = layout.owner[flat]
    return layout.label(layout.slots[name].var.type, value)
