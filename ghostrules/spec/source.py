"""YAML and CSV sources that remember where each value came from.

Spec files are data: they are parsed with PyYAML's *safe* loader (no tags, no code) and every
mapping, list and string is wrapped so that later validation can report ``file:line: what was
expected``.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import yaml


class SpecError(Exception):
    """A malformed spec or scenario file: names the file, the line and what was expected."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.message = message
        where = f"{file}:{line}: " if file and line else (f"{file}: " if file else "")
        super().__init__(f"{where}{message}")


class Located:
    """Mixin: a value that knows its file and line."""

    file: str = "<spec>"
    line: int = 0

    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def error(self, message: str) -> SpecError:
        return SpecError(message, self.file, self.line)


class LDict(dict, Located):  # type: ignore[type-arg]
    """A mapping from a spec file; ``key_line(k)`` gives the line of key ``k``."""

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[Any, int] = {}

    def key_line(self, key: Any) -> int:
        return self.key_lines.get(key, self.line)

    def error_at(self, key: Any, message: str) -> SpecError:
        return SpecError(message, self.file, self.key_line(key))


class LList(list, Located):  # type: ignore[type-arg]
    """A sequence from a spec file."""


class LStr(str, Located):
    """A string from a spec file."""


def _wrap(cls: type, value: Any, file: str, line: int) -> Any:
    obj = cls(value) if cls is not LDict else cls()
    obj.file = file
    obj.line = line
    return obj


class _PySpecLoader(yaml.SafeLoader):
    """Safe YAML where only ``true``/``false`` are booleans (YAML 1.1 would read on/off/yes/no)."""


_PySpecLoader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_PySpecLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


class _CSpecLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same, parsed by libyaml when PyYAML has it (same nodes and marks, about ten times faster)."""


_CSpecLoader.yaml_implicit_resolvers = _PySpecLoader.yaml_implicit_resolvers
_SpecLoader = _PySpecLoader


def _compose(text: str, file: str) -> Any:
    """The YAML node tree of ``text``; on a syntax error, the pure-Python parser's clearer message."""
    for loader_class in (_CSpecLoader, _PySpecLoader):
        loader = loader_class(text)
        try:
            return loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            if loader_class is _CSpecLoader:
                continue
            mark = exc.problem_mark
            raise SpecError(f"not valid YAML: {exc.problem}", file, mark.line + 1 if mark else None) from None
        except yaml.YAMLError as exc:  # pragma: no cover - defensive
            raise SpecError(f"not valid YAML: {exc}", file) from None
        finally:
            loader.dispose()
    raise SpecError("not valid YAML", file)  # pragma: no cover - the pure parser raised above


def load_yaml_text(text: str, file: str) -> Any:
    """Parse YAML text safely into LDict/LList/LStr values carrying file and line."""
    node = _compose(text, file)
    if node is None:
        return None
    constructor = _SpecLoader("")

    def convert(n: yaml.Node) -> Any:
        line = n.start_mark.line + 1
        if isinstance(n, (yaml.MappingNode, yaml.SequenceNode)) and n.tag not in (
                "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
            raise SpecError(f"YAML tag {n.tag!r} is not allowed: specs are plain data", file, line)
        if isinstance(n, yaml.MappingNode):
            out = _wrap(LDict, None, file, line)
            for key_node, value_node in n.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise SpecError("mapping keys must be plain scalars", file, key_node.start_mark.line + 1)
                key = constructor.construct_object(key_node, deep=True)
                if key in out:
                    raise SpecError(f"duplicate key {key!r}", file, key_node.start_mark.line + 1)
                out[key] = convert(value_node)
                out.key_lines[key] = key_node.start_mark.line + 1
            return out
        if isinstance(n, yaml.SequenceNode):
            out = _wrap(LList, [], file, line)
            out.extend(convert(item) for item in n.value)
            return out
        try:
            value = constructor.construct_object(n, deep=True)
        except yaml.YAMLError as exc:
            raise SpecError(f"bad value: {exc}", file, line) from None
        if isinstance(value, str):
            return _wrap(LStr, value, file, line)
        return value

    return convert(node)


def load_yaml_file(path: Path, root: Path | None = None) -> Any:
    """Load one spec file; errors name the path relative to ``root`` when given."""
    name = str(path.relative_to(root)) if root and path.is_relative_to(root) else str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"cannot read: {exc.strerror}", name) from None
    return load_yaml_text(text, name)


def load_csv_file(path: Path, root: Path | None = None) -> list[tuple[int, dict[str, str]]]:
    """Rows of a CSV table as (line number, row) pairs; the header is line 1. A row with more or
    fewer fields than the header (an unquoted comma, a lost cell) is refused with its line."""
    name = str(path.relative_to(root)) if root and path.is_relative_to(root) else str(path)
    text = path.read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    rows = []
    for row in reader:
        if not row:
            continue  # a blank line
        if len(row) != len(header):
            raise SpecError(f"row has {len(row)} fields, the header has {len(header)} "
                            f"(a comma inside a cell needs the cell in double quotes)", name, reader.line_num)
        rows.append((reader.line_num, dict(zip(header, row))))
    if not rows:
        raise SpecError("table has no rows", name, 1)
    return rows
