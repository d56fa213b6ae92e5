"""Audit of how the Ghost Stories spec models the two rulebooks as editions (HU = 000_*.txt, the older
text; EL = 003_*.txt, the revised one).

1. Every difference of the digest (§8, ED-n) is catalogued in editions/differences.yaml, cited by both
   overlays, and its rules quote both texts verbatim (the Greek with its page) unless one text is
   silent.
2. Every quote the spec attributes to an edition is an exact substring of that rulebook (the Greek one
   on the page it names; EL pages 13-14 in their encoded font, as the ``encoded`` field gives them).
3. The setup that each text prescribes per level and player count (ED-1, ED-2, ED-4, ED-26), and the
   neutral board part of ED-5, in exact positions under each edition.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from gs_helpers import gs_game, labels, place, roll, set_up

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "specs" / "ghost-stories"
SHARED = ROOT.parent / "shared"
HU_SEED = ("seeds", "000_fbede41ac9d96eb1.txt")
EL_SEED = ("seeds", "003_c4772a49b2a71d51.txt")
DIGEST = ("rules", "ghost_stories.md")
COLOURS = ("yellow", "red", "green", "blue", "black")
MONKS = ("yellow", "red", "green", "blue")


def shared_text(*parts: str) -> str:
    """A file of ../shared (the rulebooks and digests); the test is skipped in a clone without it."""
    path = SHARED.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"needs {path} (the shared reference material)")
    return path.read_text(encoding="utf-8")


def el_pages() -> dict[int, str]:
    """The Greek text by page: a page starts at a blank line followed by its number."""
    parts = re.split(r"\n\n(\d+) ", shared_text(*EL_SEED))
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


def spec_rules() -> dict[str, dict]:
    """Every rule of rules/*.yaml and of the overlays (``replace``/``add``) by ID, with its file."""
    out: dict[str, dict] = {}

    def walk(node, fname):
        if isinstance(node, dict):
            if "id" in node and "text" in node:
                out.setdefault(str(node["id"]), {**node, "_file": fname})
            for v in node.values():
                walk(v, fname)
        elif isinstance(node, list):
            for v in node:
                walk(v, fname)

    for f in sorted((SPEC / "rules").glob("*.yaml")) + sorted((SPEC / "editions").glob("*.yaml")):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")), f.name)
    return out


def all_sources():
    """(rule ID, file, source entry) for every ``sources`` list anywhere in the spec."""
    found = []

    def walk(node, fname, rid):
        if isinstance(node, dict):
            rid = str(node.get("id", rid))
            for s in node.get("sources") or [] if isinstance(node.get("sources"), list) else []:
                found.append((rid, fname, s))
            for k, v in node.items():
                if k != "sources":
                    walk(v, fname, rid)
        elif isinstance(node, list):
            for v in node:
                walk(v, fname, rid)

    for f in sorted(SPEC.rglob("*.yaml")):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")), str(f.relative_to(SPEC)), "")
    return found


DIFFERENCES = yaml.safe_load((SPEC / "editions" / "differences.yaml").read_text(encoding="utf-8"))["differences"]


# ---------------------------------------------------------------------------------------------
# 2. Quotes
# ---------------------------------------------------------------------------------------------

def test_every_quote_is_verbatim_from_the_rulebook_it_names():
    """A quote attributed to an edition is an exact substring of that text; a Greek quote names its
    page and stands on that page (p13/p14 in the encoded font of the extraction)."""
    pages = el_pages()
    hu_text = shared_text(*HU_SEED)
    sources = all_sources()
    assert len(sources) > 350
    bad = []
    for rid, fname, s in sources:
        words = s.get("encoded") or s.get("words")
        if s.get("edition") == "hu":
            if "page" in s or words not in hu_text:
                bad.append((rid, fname, words))
        elif s.get("edition") == "el":
            if words not in pages.get(s.get("page"), ""):
                bad.append((rid, fname, s.get("page"), words))
        else:
            bad.append((rid, fname, s))
    assert bad == []


# ---------------------------------------------------------------------------------------------
# 1. Every difference: catalogued, cited by both overlays, quoted from both texts
# ---------------------------------------------------------------------------------------------

def test_the_catalogue_holds_exactly_the_digests_differences():
    digest_ids = re.findall(r"^\| (ED-\d+) \|", shared_text(*DIGEST), flags=re.M)
    assert len(digest_ids) == 32
    assert [d["id"] for d in DIFFERENCES] == digest_ids


def _cited(overlay: dict) -> set[str]:
    out = set()
    for section in ("constants", "define", "replace", "add", "remove", "notes"):
        out |= {str(e["difference"]) for e in overlay.get(section) or []}
    if overlay.get("score"):
        out.add(str(overlay["score"]["difference"]))
    return out


@pytest.mark.parametrize("edition", ["hu", "el"])
def test_each_overlay_accounts_for_every_difference(edition):
    overlay = yaml.safe_load((SPEC / "editions" / f"{edition}.yaml").read_text(encoding="utf-8"))
    assert _cited(overlay) == {d["id"] for d in DIFFERENCES}


def test_each_difference_names_rules_that_name_it_back():
    rules = spec_rules()
    for d in DIFFERENCES:
        for rid in d["rules"]:
            assert rid in rules, (d["id"], rid)
            assert d["id"] in (rules[rid].get("differs") or []), (d["id"], rid)


# where one rulebook says nothing on the point, only the other can be quoted
HU_SILENT = {d["id"] for d in DIFFERENCES if str(d["hu"]).startswith("Silent")}


def test_each_difference_quotes_both_texts():
    """The rules of each ED quote the HU text and the EL text (with its page), except HU where HU is
    silent on the point. ED-17 (who rolls after the Cemetery: HU "Kap 2 Qi-t, majd dobnia kell"),
    ED-25 (the powers' numbering) and ED-27 (HU aid: "until this ghost is exorcised") quoted EL only."""
    rules = spec_rules()
    assert HU_SILENT >= {"ED-6", "ED-11", "ED-15"}
    missing = []
    for d in DIFFERENCES:
        sources = [s for rid in d["rules"] for s in rules[rid].get("sources") or []]
        have = {s["edition"] for s in sources if s.get("words")}
        assert all("page" in s for s in sources if s["edition"] == "el")
        need = {"el"} | (set() if d["id"] in HU_SILENT else {"hu"})
        if not need <= have:
            missing.append((d["id"], sorted(need - have)))
    assert missing == []


# ---------------------------------------------------------------------------------------------
# 3. Setup per level and player count, as each text prescribes it (ED-1, ED-2, ED-4, ED-26)
# ---------------------------------------------------------------------------------------------

def expected_setup(edition: str, level: str, players: int, monk: str) -> dict:
    """What each rulebook hands out, read off the texts directly.

    Both: 4 Qi at Initiation, 3 above ("nem 4, hanem 3 Qi-jelzővel" / "3 μάρκες Qi, όχι 4"); the
    Yin-Yang except at Hell; 1 power token with 2-3 players, 3 solo; neutral boards 3 Qi and nothing
    else; 3 incarnations with 1-2 players at Nightmare/Hell, 4 with 3-4.
    HU: no Tao tokens, except solo: one of each colour but black ("a feketét kivéve"); the 4th haunted
    tile loses at Initiation, the 3rd above. EL: own colour + black at Initiation, own colour above
    ("χωρίς τη μαύρη μάρκα Tao"); solo 1 blue, green, yellow, red (+1 black at Initiation); the 3rd
    haunted tile loses at every level."""
    init = level == "initiation"
    if players == 1:
        tao = {c: 1 for c in MONKS}
        if edition == "el" and init:
            tao["black"] = 1
    elif edition == "hu":
        tao = {}
    else:
        tao = {monk: 1, **({"black": 1} if init else {})}
    return dict(qi=4 if init else 3, tao=tao, yinyang=0 if level == "hell" else 1,
                power_tokens={1: 3, 2: 1, 3: 1, 4: 0}[players],
                neutral=[(3, 0, 0)] * (4 - players),
                lose=4 if edition == "hu" and init else 3,
                incarnations=1 if level in ("initiation", "normal") else (4 if players >= 3 else 3))


@pytest.mark.parametrize("edition", ["hu", "el"])
@pytest.mark.parametrize("level", ["initiation", "normal", "nightmare", "hell"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_setup_each_text_prescribes(edition, level, players):
    game = gs_game(edition=edition, level=level, players=players)
    s = set_up(game, playing=["yellow"] if players == 2 else None)
    playing = [m for m in MONKS if s.get("playing", m)]
    neutral = [m for m in MONKS if not s.get("playing", m)]
    for m in playing:
        got = dict(qi=s.get("qi", m), tao={c: s.get("tao", m, c) for c in COLOURS if s.get("tao", m, c)},
                   yinyang=s.get("yinyang", m), power_tokens=s.get("power_token", m),
                   neutral=[(s.get("qi", n), sum(s.get("tao", n, c) for c in COLOURS), s.get("yinyang", n))
                            for n in neutral],
                   lose=s.eval("losing_haunted_tiles"), incarnations=s.eval("incarnation_count"))
        assert got == expected_setup(edition, level, players, m)


@pytest.mark.parametrize("edition", ["hu", "el"])
def test_the_third_haunted_tile_loses_at_normal_in_both_texts(edition):
    """ED-4 at Normal: HU "nem 4, hanem már 3 falu lap átfordulása esetén elvesztik a játékot"; EL: the
    3rd at every level (GS-END-3, GS-LEVEL-NORMAL-2)."""
    game = gs_game(edition=edition, level="normal")
    s = set_up(game)
    s.set("haunted", "nn", True)
    s.set("haunted", "ne", True)
    after = game.state_at("haunt_tile", {"t": "ww"}, s)
    assert after.is_terminal() and after.outcome().result == "loss"


# ---------------------------------------------------------------------------------------------
# ED-5 on a neutral board: HU "Ha a kör elején a táblán már három szellem van" (at the start of the
# turn); EL "στην έναρξη αυτού του βήματος" (at the start of step 2)
# ---------------------------------------------------------------------------------------------

def test_neutral_board_filled_during_step_1():
    """A neutral board holds 2 ghosts, one a tormentor; its roll brings a black ghost onto the board
    (the neutral board is the active one, OQ-14), which fills it. HU judges fullness at the start of
    the turn: no Qi lost. EL at the start of step 2: the board loses 1 Qi."""
    qi = {}
    for edition in ("hu", "el"):
        game = gs_game(edition=edition, players=3)
        base = set_up(game)
        assert not base.get("playing", "blue")
        place(base, "Lich", "blue_1")
        place(base, "c05_restless_dead", "blue_2")
        base.set("active", "blue")
        s = game.state_at("yin_phase", {"m": "blue"}, base, tracing=True)
        roll(s, "bring a ghost")
        roll(s, "Gloomy Minion")
        assert labels(s) == ["Gloomy Minion to blue board slot 3"]
        s.apply_action(s.legal_actions()[0])
        qi[edition] = s.get("qi", "blue")
    assert qi == {"hu": 3, "el": 2}


# ---------------------------------------------------------------------------------------------
# ED-8: a dead monk's power tokens. EL p9 sends them to the centre ("οι μάρκες ουδέτερης δύναμης
# τοποθετούνται στο κεντρικό πλακίδιο"); HU only says "Minden, amit eddig szerzett (...) elvész"
# (everything he acquired is lost), which the spec reads as "back to where they are taken", as for
# his Tao tokens (the supply) and his Buddha (the Temple): the centre (OQ-15).
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", ["hu", "el"])
def test_a_dead_monks_power_tokens_go_to_the_centre(edition):
    game = gs_game(edition=edition, players=3)
    base = set_up(game)
    assert base.get("power_token", "yellow") == 1 and base.get("power_token_centre") == 0
    s = game.state_at("monk_dies", {"m": "yellow"}, base)
    assert not s.get("alive", "yellow")
    assert s.get("power_token", "yellow") == 0 and s.get("power_token_centre") == 1
