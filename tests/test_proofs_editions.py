"""proofs/editions.py: Z3 finds positions where the HU and EL rulebooks part, and each witness
replays in the engine with differing outcomes (a subset of the differences, to stay fast)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from ghostrules.prover import editions as X

ROOT = Path(__file__).resolve().parent.parent
SUBSET = {"ED-4", "ED-9", "ED-12", "ED-20", "ED-23"}


def _proof():
    spec = importlib.util.spec_from_file_location("proof_editions", ROOT / "proofs" / "editions.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["proof_editions"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def found():
    proof = _proof()
    return proof, proof.find_all(((4, "initiation"),), 5000, only=SUBSET)["found"]


def test_interface():
    proof = _proof()
    assert proof.GAME == "ghost-stories" and "ED-4" in proof.RULE_IDS and callable(proof.run)
    assert "ED-" in proof.__doc__


def test_at_least_three_differences_shown(found):
    _, witnesses = found
    assert set(witnesses) == SUBSET


@pytest.mark.parametrize("diff", sorted(SUBSET))
def test_witness_replays_with_differing_outcomes(found, diff):
    _, witnesses = found
    w, config, _, starts, full = witnesses[diff]
    # the difference alone (EL rules with HU's reading of this difference) parts on the found path
    again = X.follow(w.start_a, w.start_b, w.divergence.actions)
    assert again is not None and again.what == w.divergence.what
    # the full editions differ there too
    assert full is not None
    assert X.follow(starts[0], starts[1], w.divergence.actions) is not None


def test_witness_files_load_back_and_differ(found, tmp_path):
    proof, witnesses = found
    # every witness, ED-20's too: its position once had the incarnation both in play and still in
    # seg1, which the scenario loader normalises; the scenario check "no more incarnations are left
    # than the level brings" (specs/ghost-stories/scenario.yaml) now rules such positions out
    for diff in sorted(SUBSET):
        w, config, _, starts, full = witnesses[diff]
        path = proof._write(str(tmp_path), diff, w, config, starts, full)
        states, actions = proof.load_witness(path)
        assert actions == w.divergence.actions
        assert [s.values for s in states] == [s.values for s in starts]
        assert X.follow(states[0], states[1], actions) is not None
        # the header names the site as a file and line of the shipped specs, opened from the checkout
        site = next(line for line in Path(path).read_text().splitlines() if line.startswith("# site: "))
        file, _, line = site.rsplit(" at ", 1)[1].rpartition(":")
        assert file.startswith("specs/ghost-stories/") and (ROOT / file).is_file(), site
        assert 1 <= int(line) <= len((ROOT / file).read_text().splitlines()), site
        # once the specs only note the difference, a run removes this witness as stale
        assert proof.remove_stale_witness(str(tmp_path), diff) == [path]
        assert not Path(path).exists()


def test_only_the_provers_own_witness_file_is_removed_as_stale(tmp_path):
    """A wording-only difference removes a file named like its witness only if it starts with the
    header the prover writes for that difference; other files stay."""
    proof = _proof()
    path = proof.witness_path(str(tmp_path), "ED-4")
    path.write_text("# ED-4 notes of my own\n")
    other = tmp_path / "edition_ed5.yaml"
    other.write_text("# ED-4: the same position under both rulebooks (players=4); found by Z3\n")
    assert proof.remove_stale_witness(str(tmp_path), "ED-4") == [] and path.exists() and other.exists()
    path.write_text("# ED-4: the same position under both rulebooks (players=4); found by Z3\n# site: x\n")
    assert proof.remove_stale_witness(str(tmp_path), "ED-4") == [str(path)] and not path.exists()
    assert other.exists()


def test_changes_cover_the_formal_overlay_entries():
    import ghostrules
    a = ghostrules.load_game("ghost-stories", edition="hu").spec
    b = ghostrules.load_game("ghost-stories", edition="el").spec
    diffs = {c.difference for c in X.changed(a, b)}
    assert {"ED-1", "ED-4", "ED-9", "ED-14", "ED-20", "ED-22"} <= diffs
    assert "ED-25" not in diffs  # wording only
