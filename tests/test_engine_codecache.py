"""The cache on disk of compiled code objects (engine/codecache.py): a second load of a configuration
compiles nothing and plays the same games; a change to the spec, the engine or the parameters uses
another file; a damaged file, one others may write, or one holding anything but code is not used;
GHOSTRULES_NO_CACHE turns it off."""

from __future__ import annotations

import marshal
import shutil
from pathlib import Path

import pytest
from speed_helpers import traced_record

from ghostrules import Game, load_spec
from ghostrules.engine import codecache
from ghostrules.spec.loader import SPECS_ROOT

GAME, PARAMS = "ghost-stories", {"players": 2, "level": "initiation", "edition": "el"}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("GHOSTRULES_CACHE_DIR", str(where))
    monkeypatch.delenv("GHOSTRULES_NO_CACHE", raising=False)
    return where


def _load(monkeypatch: pytest.MonkeyPatch, root: Path | None = None, **params: object) -> Game:
    """A compile in this process: rewrites cached by earlier compiles are used (engine/hoist.py), and
    the generated text, the cache's key, is the same as in a new process."""
    return Game(load_spec(GAME, root=root, **(params or PARAMS)))


def _files(where: Path) -> list[Path]:
    return sorted(where.glob("codes-*.marshal"))


def test_a_second_load_compiles_nothing_and_plays_the_same(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _load(monkeypatch)
    assert first.program.exprs.codes.misses > 1000 and first.program.exprs.codes.hits == 0
    assert len(_files(cache)) == 1
    second = _load(monkeypatch)
    codes = second.program.exprs.codes
    assert codes.misses == 0 and codes.hits == first.program.exprs.codes.misses
    assert second.program.exprs.block_sources == first.program.exprs.block_sources
    for seed in range(2):
        assert traced_record(second, seed) == traced_record(first, seed)


def test_another_spec_engine_or_configuration_uses_another_file(cache: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "specs"
    shutil.copytree(SPECS_ROOT / GAME, root / GAME)
    _load(monkeypatch, root)
    assert len(_files(cache)) == 1
    assert _load(monkeypatch, root).program.exprs.codes.misses == 0  # (unchanged: the same file)
    with open(root / GAME / "game.yaml", "a", encoding="utf-8") as out:
        out.write("\n# a change to a spec file\n")
    assert _load(monkeypatch, root).program.exprs.codes.hits == 0
    assert len(_files(cache)) == 2
    monkeypatch.setattr(codecache, "_package_digest", b"another engine")
    assert _load(monkeypatch, root).program.exprs.codes.hits == 0
    assert len(_files(cache)) == 3
    assert _load(monkeypatch, root, players=3, level="initiation", edition="el").program.exprs.codes.hits == 0
    assert len(_files(cache)) == 4


@pytest.mark.parametrize("damage", ["garbage", "not code", "writable by others"])
def test_a_damaged_or_foreign_file_is_not_used(damage: str, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _load(monkeypatch)
    [path] = _files(cache)
    if damage == "garbage":
        path.write_bytes(b"\x00not marshal at all")
    elif damage == "not code":
        path.write_bytes(marshal.dumps({key: 1 for key in marshal.loads(path.read_bytes())}))
    else:
        path.chmod(0o666)
    again = _load(monkeypatch)
    assert again.program.exprs.codes.hits == 0 and again.program.exprs.block_sources == first.program.exprs.block_sources
    assert traced_record(again, 0) == traced_record(first, 0)
    if damage != "writable by others":  # written anew, and used
        assert _load(monkeypatch).program.exprs.codes.misses == 0


def test_the_cache_can_be_turned_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GHOSTRULES_NO_CACHE", "1")
    game = _load(monkeypatch)
    assert game.program.exprs.codes.path is None and not cache.exists()
    assert game.program.exprs.codes.misses > 1000
