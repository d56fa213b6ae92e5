"""A very small SVG writer: elements as strings, attributes escaped, nothing game-specific."""

from __future__ import annotations

from html import escape
from typing import Any

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _attrs(attrs: dict[str, Any]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = f"{value:.1f}".rstrip("0").rstrip(".")
        parts.append(f' {name}="{escape(str(value), quote=True)}"')
    return "".join(parts)


class Svg:
    """Collects elements; ``str()`` gives the document."""

    def __init__(self, width: float, height: float, title: str = "", background: str | None = None) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []
        if background:
            self.rect(0, 0, width, height, fill=background)

    def add(self, raw: str) -> None:
        self.parts.append(raw)

    def element(self, tag: str, text: str | None = None, **attrs: Any) -> None:
        if text is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{escape(text, quote=False)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: Any) -> None:
        self.element("rect", x=x, y=y, width=w, height=h, **attrs)

    def circle(self, cx: float, cy: float, r: float, **attrs: Any) -> None:
        self.element("circle", cx=cx, cy=cy, r=r, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: Any) -> None:
        self.element("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def path(self, d: str, **attrs: Any) -> None:
        self.element("path", d=d, **attrs)

    def polygon(self, points: list[tuple[float, float]], **attrs: Any) -> None:
        self.element("polygon", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points), **attrs)

    def text(self, x: float, y: float, text: str, size: float = 11, anchor: str = "middle", **attrs: Any) -> None:
        attrs.setdefault("font_family", FONT)
        self.element("text", text, x=x, y=y, font_size=size, text_anchor=anchor, **attrs)

    def open(self, tag: str, **attrs: Any) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}>")

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def __str__(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" height="{self.height:.0f}" '
                f'viewBox="0 0 {self.width:.0f} {self.height:.0f}" role="img">')
        title = f"<title>{escape(self.title, quote=False)}</title>" if self.title else ""
        return head + title + "".join(self.parts) + "</svg>\n"


def fit(text: str, width: float, size: float) -> str:
    """Shorten a label so that it roughly fits ``width`` pixels at font ``size``."""
    limit = max(3, int(width / (size * 0.58)))
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "\u2026"
