"""Writing reStructuredText safely: escaping, headings, literals, and links to rules, ED-n and OQ-n."""

from __future__ import annotations

import re
from typing import Callable, Iterable

_SPECIAL = re.compile(r"([\\`*_|\[\]<>])")
# what would start a list item: a bullet, or an enumerator ("1.", "b)", "(a)", "iv.", "#.") before a space;
# a backslash before the first character keeps the line a paragraph (and shows nothing)
_LIST_START = re.compile(r"^([-+*#\u2022]|\(?[A-Za-z0-9#]+[.)](\s|$)|\([A-Za-z0-9#]+\)(\s|$))")


def esc(text: str) -> str:
    """Plain text as inline reST: markup characters are escaped, whitespace is collapsed."""
    text = " ".join(str(text).split())
    text = _SPECIAL.sub(r"\\\1", text)
    if _LIST_START.match(text) or text.startswith(".."):
        text = "\\" + text
    return text


def literal(text: str) -> str:
    """Inline code; falls back to escaped text where reST cannot quote it."""
    text = " ".join(str(text).split())
    if not text or "``" in text or text.endswith("`") or text.startswith("`"):
        return esc(text)
    return f"``{text}``"


def heading(title: str, char: str, overline: bool = False) -> list[str]:
    line = char * (2 * len(title) + 4)
    return ([line] if overline else []) + [title, line, ""]


def role(name: str, target: str, title: str | None = None) -> str:
    body = f"{esc(title)} <{target}>" if title else target
    return f"\\ :{name}:`{body}`\\ "


class Linker:
    """Turns IDs found in text into links (``:rule:``, ``:ed:``, ``:oq:``) while escaping the rest."""

    def __init__(self, kinds: dict[str, Iterable[str]]) -> None:
        self.kind_of: dict[str, str] = {}
        for kind, ids in kinds.items():
            for i in ids:
                self.kind_of.setdefault(i, kind)
        if self.kind_of:
            alternatives = "|".join(re.escape(i) for i in sorted(self.kind_of, key=len, reverse=True))
            self.pattern: re.Pattern[str] | None = re.compile(
                rf"(?<![A-Za-z0-9-])(?:{alternatives})(?![A-Za-z0-9])")
        else:
            self.pattern = None

    def __call__(self, text: str) -> str:
        text = " ".join(str(text).split())
        if self.pattern is None:
            return esc(text)
        out, pos = [], 0
        for m in self.pattern.finditer(text):
            out.append(_SPECIAL.sub(r"\\\1", text[pos:m.start()]))
            out.append(role(self.kind_of[m.group(0)], m.group(0)))
            pos = m.end()
        out.append(_SPECIAL.sub(r"\\\1", text[pos:]))
        joined = "".join(out)
        if _LIST_START.match(joined) or joined.startswith(".."):
            joined = "\\" + joined
        return joined

    def ids(self, text: str) -> list[str]:
        return [m.group(0) for m in self.pattern.finditer(text)] if self.pattern else []


def code_block(lines: Iterable[str], language: str = "text", indent: str = "") -> list[str]:
    out = [f"{indent}.. code-block:: {language}", ""]
    body = [f"{indent}   {line}" if line.strip() else "" for line in lines]
    return out + (body or [f"{indent}   (empty)"]) + [""]


def raw_html(html: str, indent: str = "") -> list[str]:
    return [f"{indent}.. raw:: html", ""] + [f"{indent}   {line}" for line in html.splitlines()] + [""]


def field_list(fields: Iterable[tuple[str, str]]) -> list[str]:
    out = [f":{name}: {value}" for name, value in fields if value]
    return out + [""] if out else []


Render = Callable[[str], str]
