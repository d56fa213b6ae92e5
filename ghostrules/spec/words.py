"""The one place that cuts a rule's text short: its first sentence, and a text shortened to a width.

The command line (``rules list``, ``ask`` citations), the generated docs (titles, tables, tooltips),
the engine's and the prover's "which rule first" menus all show a rule or a question by its first
sentence, often shortened. A first sentence ends at the first ``.``, ``!`` or ``?`` that is followed
by a space (or ends the text) and is

* outside brackets: ``(a second Tea House, e.g. the Buddhist Temple. It ...)`` does not end one;
* not part of an ellipsis: ``Drip... Drip... Drip...: put the Drip token here.`` is one sentence;
* not followed by a lower-case word: ``When What The...? moves an obstacle room ...`` is one sentence;
* not the stop of an abbreviation (``ABBREVIATIONS``: ``e.g.``, ``i.e.``, ``cf.`` ...): ``spend his
  last Qi, e.g. on the Sorcerer's Hut, and so die.`` is one sentence, and so is ``a second house,
  e.g. Tea House, ...``. (``etc.`` is not among them: it ends sentences as often as not.)
"""

from __future__ import annotations

from typing import Sequence

ABBREVIATIONS = frozenset({"e.g.", "i.e.", "cf.", "vs.", "viz.", "p.", "pp.", "approx.", "incl.",
                           "resp.", "fig.", "ch.", "sec.", "vol.", "ed.", "eds.", "mr.", "mrs.", "dr.", "st."})
_OPEN, _CLOSE, _STOPS = "([{", ")]}", ".!?"


def _word_before(text: str, end: int) -> str:
    """The word of ``text`` that ends at index ``end`` (inclusive), without opening brackets or quotes."""
    start = text.rfind(" ", 0, end) + 1
    return text[start:end + 1].lstrip("([{\"'\u201c\u2018").lower()


def _ends_sentence(text: str, i: int) -> bool:
    """Does the stop ``text[i]`` end a sentence (followed by the end or a space and no lower-case
    word, not an ellipsis's dot, not an abbreviation's)?"""
    if text[i] not in _STOPS or text[i + 1:i + 2] not in ("", " ") or text[i + 2:i + 3].islower():
        return False
    if text[i] == "." and text[i - 1:i] == ".":
        return False  # the last dot of "..."
    return text[i] != "." or _word_before(text, i) not in ABBREVIATIONS


def split_first_sentence(text: str) -> tuple[str, str]:
    """(the first sentence of ``text``, the rest), its whitespace collapsed to single spaces. The
    sentence keeps its own stop; with no sentence end (see the module), the whole text and ""."""
    text = " ".join(text.split())
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch in _OPEN) - (ch in _CLOSE)
        if depth <= 0 and _ends_sentence(text, i):
            return text[:i + 1], text[i + 2:]
    return text, ""


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (see the module), whitespace collapsed, with its own stop."""
    return split_first_sentence(text)[0]


def shorten(text: str, limit: int, marker: str = "\u2026", strip: str = " ") -> str:
    """``text`` when it has at most ``limit`` characters, else its start, with the characters of
    ``strip`` removed from its end, followed by ``marker``: at most ``limit`` characters in all."""
    if limit < len(marker):
        raise ValueError(f"a limit of {limit} leaves no room for the marker {marker!r}")
    if len(text) <= limit:
        return text
    return text[:limit - len(marker)].rstrip(strip) + marker


def listed(items: Sequence[str], most: int) -> str:
    """``items`` joined for a message: the first ``most``, then ``... (N in all)`` when there are more."""
    return ", ".join(items[:most]) + (f" ... ({len(items)} in all)" if len(items) > most else "")


def menu_lead(text: str, limit: int = 60) -> str:
    """The words a "which rule first" menu option shows for a rule (engine/program.py and
    prover/unroll.py, which must agree): its first sentence, without its full stop when more text
    follows (kept when the sentence is the whole text, as the labels always were), cut at ``limit``
    characters without a marker."""
    first, rest = split_first_sentence(text)
    if rest and first.endswith("."):
        first = first[:-1]
    return shorten(first, limit, marker="", strip="")
