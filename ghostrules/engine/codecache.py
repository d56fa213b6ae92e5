"""A cache on disk of the Python code objects compiled from the sources a game's compile generates.

Compiling the generated sources (thousands of small functions and the blocks, engine/blocks.py) is
about half of loading a large game. What ``compile`` makes of a source depends on the source, its
file name, the mode and the Python version only; this cache keeps, for one configuration of a
game, each code object under the SHA-256 of exactly those, in one file written with ``marshal``.
A later load of the configuration, in another process, takes a code object from there only for a
source it has just generated itself and whose digest matches: a changed engine, spec or parameter
generates other sources, which miss. The file's name is the digest of everything that shapes the
sources (the engine's own source files, the spec's files, the parameters, the Python version), so
each configuration of each version of the engine and specs has its own file.

Only code objects are read (``marshal``, never ``pickle``), from a directory and a file owned by
the user and writable by nobody else (else the cache is not used). With P the package's name
(``__name__`` up to its first dot), the directory is ``$<P>_CACHE_DIR`` (P in capitals), else
``$XDG_CACHE_HOME/<P>``, else ``~/.cache/<P>``; ``<P>_NO_CACHE=1`` turns the cache off. At most
``MAX_FILES`` files are kept (the oldest go).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
import sys
import tempfile
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any, Callable

MAX_FILES = 64
_NAME = __name__.split(".")[0]
ENV_DIR, ENV_OFF = f"{_NAME.upper()}_CACHE_DIR", f"{_NAME.upper()}_NO_CACHE"
_PACKAGE = Path(__file__).resolve().parent.parent  # the package's folder
_package_digest: bytes | None = None


def cache_dir() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return None
    chosen = os.environ.get(ENV_DIR)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / _NAME


def _files_digest(root: Path, pattern: str) -> bytes:
    """The digest of the names and contents of the files under ``root`` matching ``pattern``."""
    h = hashlib.sha256()
    for path in sorted(root.rglob(pattern)):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.digest()


def package_digest() -> bytes:
    """The digest of the engine's own source (every module of the package), once a process."""
    global _package_digest
    if _package_digest is None:
        _package_digest = _files_digest(_PACKAGE, "*.py")
    return _package_digest


def _private(path: Path) -> bool:
    """Is ``path`` the user's own, and writable by nobody else?"""
    st = path.stat()
    return (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


class CodeCache:
    """The code objects of one configuration: ``compile`` answers from the file when it can (else
    compiles with ``compiler``, ExprCompiler's, the one place that turns generated source into code),
    and ``save`` writes back the ones used when any was compiled anew."""

    def __init__(self, spec: Any) -> None:
        self.hits = self.misses = 0  # code objects taken from the file, compiled here
        self._dirty = False
        self._known: dict[bytes, CodeType] = {}
        self._used: dict[bytes, CodeType] = {}
        self.path: Path | None = None
        where = cache_dir()
        if where is None:
            return
        h = hashlib.sha256()
        h.update(sys.version.encode() + b"\0" + MAGIC_NUMBER + b"\0" + package_digest())
        h.update(repr((getattr(spec, "name", ""), sorted(getattr(spec, "settings", ())))).encode())
        root = getattr(spec, "root", "")
        if root and Path(root).is_dir():
            h.update(_files_digest(Path(root), "*"))
        self.path = where / f"codes-{h.hexdigest()[:40]}.marshal"
        self._known = self._read()

    def _read(self) -> dict[bytes, CodeType]:
        assert self.path is not None
        try:
            if not self.path.is_file() or not _private(self.path.parent) or not _private(self.path):
                return {}
            data = marshal.loads(self.path.read_bytes())
        except Exception:  # noqa: BLE001 - an unreadable or damaged file is no cache
            return {}
        if not isinstance(data, dict) or not all(
                isinstance(k, bytes) and isinstance(v, CodeType) for k, v in data.items()):
            return {}
        return data

    def compile(self, source: str, filename: str, mode: str, compiler: Callable[[str, str, str], CodeType]) -> CodeType:
        """``compiler(source, filename, mode)``, or the code object it gave for them before."""
        key = hashlib.sha256(f"{mode}\0{filename}\0".encode() + source.encode()).digest()
        code = self._known.get(key)
        if code is None:
            code = compiler(source, filename, mode)
            self.misses += 1
            self._dirty = True
        else:
            self.hits += 1
        self._used[key] = code
        return code

    def save(self) -> None:
        """Write the code objects used, when some were compiled anew (quietly: a cache may fail)."""
        if self.path is None or not self._dirty:
            return
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _private(self.path.parent):
                return
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".codes-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(marshal.dumps(self._used))
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
            self._dirty = False
            files = sorted(self.path.parent.glob("codes-*.marshal"), key=lambda p: p.stat().st_mtime)
            for old in files[:-MAX_FILES]:
                old.unlink()
        except OSError:
            pass
