"""Edition consequences: the two rulebooks (HU, EL) give different outcomes on the same position.

Property: for each difference ED-n whose overlay changes a formal construct (a constant, a
definition, a rule, the score sheet), there is a position in which the HU and EL readings of that
construct differ, and from which the engine, run once under each edition, shows a different
outcome (a different result, prompt, set of options or chance outcomes, or slot value).

Z3 finds the position: the same symbolic pre-state is read by the HU and the EL encodings of every
site that uses the changed construct (with the facts the enclosing rule checked first), every slot
within its range, the pools at their totals, the boundary invariants, and the slots the site does
not read equal to the standard setup. The engine replays it under both editions in lockstep; the
witness counts only if the two runs part. Differences whose overlay changes no formal part (notes:
wording, or one text silent) are reported as such: they cannot change an outcome by construction.

Rules: the EDs' rules (see editions/differences.yaml), GS-END-3, GS-YIN-6, GS-BUDDHA-2, GS-INC-GEN-1,
GS-PLACE-4, GS-POWER-RED-TWINWINDS, GS-VILLAGE-CEMETERY-2, GS-INC-DEATHARMY, GS-INC-FORGOTTEN,
GS-INC-BONECRACKER, GS-INC-VAMPIRELORD, GS-DEATH-5, GS-SETUP-4, GS-SCORE-HU, GS-SCORE-EL.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import z3

import ghostrules
from ghostrules.engine import Game, State
from ghostrules.prover import editions as X
from ghostrules.prover.outdir import remove_owned, site_path
from ghostrules.query import load_scenario, scenario_text
from ghostrules.query.scenario import schema_for
from ghostrules.spec.expr import parse

GAME = "ghost-stories"
RULE_IDS = tuple(f"ED-{n}" for n in range(1, 33)) + (
    "GS-SETUP-4", "GS-SETUP-SOLO-2", "GS-SETUP-SOLO-3", "GS-END-3", "GS-YIN-6", "GS-PTOKEN-4", "GS-BUDDHA-2",
    "GS-INC-GEN-1", "GS-END-4", "GS-SCORE-HU", "GS-SCORE-EL", "GS-POWER-RED-TWINWINDS", "GS-VILLAGE-CEMETERY-2",
    "GS-INC-DEATHARMY", "GS-INC-FORGOTTEN", "GS-INC-BONECRACKER", "GS-INC-VAMPIRELORD", "GS-DEATH-5")
# the obligation kinds of the prover session this file reads (none: it runs its own search)
KINDS = ()
EDITIONS = ("hu", "el")
PROPERTY = "the HU and EL rulebooks give different outcomes on the same position"

# configurations tried in order (players, level); a difference is shown in the first that shows it.
# 4 players show every difference but the solo rules' (ED-2, ED-3), which 1 player shows: these two
# come first, the others are tried only for a difference still unshown
DEFAULT_CONFIGS = ((4, "initiation"), (1, "initiation"))
ALL_CONFIGS = DEFAULT_CONFIGS + tuple((p, lv) for lv in ("initiation", "normal", "nightmare", "hell")
                                      for p in (4, 3, 2, 1) if (p, lv) not in DEFAULT_CONFIGS)


# Hints: what Z3 must also assume for a site whose difference only shows after earlier steps of the
# same procedure (the site's facts are about the state at the site, the engine starts at the entry).
HINTS = {
    # ED-5: the board fills up during Yin step 1 (a tormentor on a board with 2 ghosts brings one; the
    # next card is the incarnation, which EL places as a black ghost: on the active player's board)
    ("ED-5", "yin_phase"): "playing[m] and alive[m] and not has_power(m, mountain) and count(k in slotno if occupied(board_slot[m, k])) == 2 and "
                           "exists(k in slotno if occupied(board_slot[m, k]) and is_tormentor(card_in(board_slot[m, k]))) and "
                           "active == m and seg_ghosts[seg1] == 0",
    # ED-7: power tokens lie on the centre tile
    ("ED-7", "yang_phase"): "playing[m] and alive[m] and power_token_centre > 0",
    ("ED-7", "play_turn"): "playing[active] and alive[active] and power_token_centre > 0",
    # ED-9: a monk on a corner tile holds two Buddhas taken in an earlier turn
    ("ED-9", "place_buddhas_step"): "playing[m] and alive[m] and buddha_held[m] == 2 and buddha_taken_now[m] == 0 "
                                    "and corner[monk_at[m]]",
    # ED-13: one card is left in the deck and the incarnation is still to be exorcised
    ("ED-13", "bring_ghost"): "deck_size == 1 and incarnations_left > 0",
    # ED-16: the monk has the Dance of the Twin Winds
    ("ED-16", "yang_phase"): "playing[m] and alive[m] and has_power(m, twinwinds)",
}


def _config(players: int, level: str) -> str:
    return f"players={players} level={level} edition=hu|el easy=no"


def _base(players: int, level: str) -> State:
    return load_scenario(f"game: {GAME}\nplayers: {players}\nlevel: {level}\nedition: el\n")


def _all_differences() -> list[tuple[str, str]]:
    spec = ghostrules.load_game(GAME, edition="el").spec
    import yaml
    path = Path(spec.root) / GAME / "editions" / "differences.yaml" if spec.root else None
    if path is None or not path.is_file():
        path = Path(__file__).resolve().parent.parent / "specs" / GAME / "editions" / "differences.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(d["id"], d["topic"]) for d in doc["differences"]]


def witness_path(out_dir: str, diff: str) -> Path:
    """The file a difference's witness is written to (``_write``)."""
    return Path(out_dir) / f"edition_{diff.lower().replace('-', '')}.yaml"


def _lead(diff: str) -> str:
    """How the first line of a difference's witness file begins (``_write``)."""
    return f"# {diff}: the same position under both rulebooks "


def remove_stale_witness(out_dir: str, diff: str) -> list[str]:
    """Remove the witness an earlier run wrote for a difference the specs now only note (wording
    only: no outcome can differ): only ``witness_path``'s file whose first line ``_write`` wrote
    for this difference. Returns the paths removed."""
    return remove_owned(witness_path(out_dir, diff), lambda lines: bool(lines) and lines[0].startswith(_lead(diff)))


def _write(out_dir: str, diff: str, w: X.Witness, config: str, starts: list[State], full: Any) -> str:
    """The witness as two scenario documents (the same position under HU, then EL) with the step to
    run and the actions to apply in comments."""
    path = witness_path(out_dir, diff)
    path.parent.mkdir(parents=True, exist_ok=True)
    d = w.divergence
    # the site as a file and line to open, in the specs the editions were read from (EL's)
    root = starts[-1].game.spec.root if starts else None
    at = site_path(w.site.where, Path(root).parent if root else None)
    lines = [f"{_lead(diff)}({config}); found by Z3, replayed in the engine.",
             f"# site: {w.site.rule} ({w.site.kind}: {w.site.text})" + (f" at {at}" if at else ""),
             f"# step: {w.site.procedure or 'the score sheet'} {json.dumps(w.args)}",
             f"# actions: {json.dumps(d.actions)}",
             f"# then {d.what} differs: hu {d.shown_a!r} / el {d.shown_b!r}",
             f"# full editions differ on this path: {'yes' if full is not None else 'no'}"]
    body = []
    # each edition's position as it is when the step begins (its frame not yet run)
    starts = [_entry(s.game, w.values, w.site.procedure, w.args) if w.site.procedure else s for s in starts]
    for ed, s in zip(EDITIONS, starts):
        try:
            text = scenario_text(s)
        except Exception:  # noqa: BLE001 - a position before the setup has no scenario form
            text = f"# the engine state (Game.state_from_json): a position before the setup\njson: {json.dumps(s.to_json())}\n"
        body.append(f"--- # {ed}\n" + text)
    path.write_text("\n".join(lines) + "\n" + "".join(body), encoding="utf-8")
    return str(path)


def _entry(game: Game, values: list[int], procedure: str, args: dict[str, Any]) -> State:
    """The position about to run ``procedure(args)`` and stop when it returns (nothing run yet)."""
    proc = game.program.by_name[procedure]
    local = {}
    for name, t in proc.params:
        v = args[name]
        local[name] = (-1 if v == "none" else game.layout.domains[t].index(v)) if isinstance(v, str) else int(v)
    return State(game, list(values), [[game.program.by_name["#halt"].index, 0, {}], [proc.index, 0, local]])


def load_witness(path: str) -> tuple[list[State], list[str]]:
    """A witness file back as the two start positions (HU, EL), the step run in each (paused at its
    first decision or chance node, or over), and the actions to apply to both."""
    text = Path(path).read_text(encoding="utf-8")
    header = [line for line in text.splitlines() if line.startswith("# actions: ")][0]
    actions = json.loads(header[len("# actions: "):])
    step = [line for line in text.splitlines() if line.startswith("# step: ")][0][len("# step: "):]
    procedure, args = step.split(" ", 1)
    args = json.loads(args)
    states = []
    for doc, edition in zip(text.split("--- # ")[1:], EDITIONS):
        body = doc.split("\n", 1)[1]
        if body.startswith("# the engine state"):
            raw = json.loads(body.split("json: ", 1)[1].strip())
            config = json.loads(raw)["settings"]
            game = ghostrules.load_game(GAME, **config)
            states.append(game.state_from_json(raw))
        else:
            states.append(load_scenario(body))
    if procedure != "the":  # "the score sheet": the positions are the witness
        states = [s.game.state_at(procedure, args, s, stop=True) for s in states]
    return states, actions


def _score_witness(finder: X.SiteFinder, site: X.Site, games: dict[str, Any], base: State,
                   timeout_ms: int) -> tuple[str, X.Witness | None]:
    t0 = time.perf_counter()
    status, model = X.solve(finder, site, base.values, timeout_ms)
    if model is None:
        return status, None
    values = X.model_values(finder, model)
    states = [State(games[e], list(values), [], False) for e in EDITIONS]
    totals = [s.score().total for s in states]
    if totals[0] == totals[1]:
        return "unknown", None
    starts = [games[e].state_at(games[e].spec.turn, {}, State(games[e], list(values), [], False))
              for e in EDITIONS]
    div = X.Divergence([], "the score total", totals[0], totals[1])
    layout = finder.layout
    cells = {layout.name_of(i): v for i, (v, b) in enumerate(zip(values, base.values)) if v != b}
    return "sat", X.Witness(site, values, {}, cells, div, starts[0], starts[1], time.perf_counter() - t0)


TIMES: list = []


def find_all(configs: tuple[tuple[int, str], ...], timeout_ms: int, only: set[str] | None = None) -> dict[str, Any]:
    """Per difference: the witness (or why none), searched configuration by configuration."""
    found: dict[str, Any] = {}
    tried: dict[str, list[str]] = {}
    formal: set[str] | None = None  # the differences an overlay entry changes a formal part for
    for players, level in configs:
        if formal is not None and not formal - set(found):
            break  # all shown: the next configuration need not be loaded
        games = {e: ghostrules.load_game(GAME, players=players, level=level, edition=e) for e in EDITIONS}
        a, b = games["hu"].spec, games["el"].spec
        # the overlays are the same files in every configuration
        formal = {c.difference for spec in (a, b) for c in spec.changes
                  if c.kind != "note" and (only is None or c.difference in only)}
        finder = X.SiteFinder(a, b, games["el"])
        alone: dict[str, Game] = {}
        wanted = {c.difference for c in finder.changes if only is None or c.difference in only} - set(found)
        if not wanted:
            break
        base = _base(players, level)
        schema = schema_for(games["el"])
        checks: list[Any] = []
        small = {n for c in schema.checks for n in finder.reads(parse(c.holds))
                 if finder.layout.slots[n].count <= 8}
        config = _config(players, level)
        for c in finder.changes:
            if c.kind == "score" and c.difference in wanted:
                site = X.score_site(finder, a, b, c)
                status, w = _score_witness(finder, site, games, base, timeout_ms)
                if w is not None:
                    found[c.difference] = (w, config, w.seconds, [w.start_a, w.start_b], w.divergence)
                    wanted.discard(c.difference)
        deferred: list[X.Site] = []

        def batches() -> Any:
            # sites reached only through a whole turn are tried last: replaying a turn is the costliest
            for sites in finder.walk_lazily(wanted):
                deferred.extend(s for s in sites if s.procedure == b.turn)
                yield [s for s in sites if s.procedure != b.turn]
            yield deferred
        for sites in batches():
            for site in sites:
                if only is not None and site.change.difference not in only:
                    continue
                diff = site.change.difference
                if diff in found:
                    continue
                tried.setdefault(diff, []).append(f"{site.rule} {site.kind} @ {config}")
                t0 = time.perf_counter()
                hint = HINTS.get((diff, site.procedure))
                extra = [X.assume(finder, site, hint)] if hint else []
                # near the set-up position, the scenario vocabulary's consistency checks hold too
                # (so that the witness loads back as a scenario file)
                if not checks:  # they name no parameter: encoded once per configuration
                    checks.extend(X.assume(finder, site, c.holds, frees=False) for c in schema.checks)
                # the small counters the checks tie together (e.g. incarnations left) may follow
                site.free_too |= small
                bases = [(base.values, checks), games["el"].layout.initial_values()]
                if diff not in alone:
                    alone[diff] = Game(X.hybrid(a, b, diff))
                try:
                    status, w = X.find_witness(finder, site, alone[diff], games["el"], bases, timeout_ms, extra)
                except Exception as exc:  # noqa: BLE001 - an engine refusal is a miss, reported
                    status, w = "unknown", None
                    tried[diff].append(f"(engine: {exc})")
                TIMES.append((diff, site.rule, site.kind, round(time.perf_counter() - t0, 2), w is not None))
                if w is not None:
                    # the same position and actions under the two full editions
                    starts = [games[e].state_at(site.procedure, w.args, State(games[e], list(w.values), [], False),
                                                stop=True) for e in EDITIONS]
                    full = X.follow(starts[0], starts[1], w.divergence.actions)
                    found[diff] = (w, config, time.perf_counter() - t0, starts, full)
                    wanted.discard(diff)
    return {"found": found, "tried": tried}


def run(options: dict[str, Any]) -> list[dict[str, Any]]:
    timeout = int(options.get("timeout_ms", 5000))
    configs = ALL_CONFIGS if options.get("all_configurations") else DEFAULT_CONFIGS
    t0 = time.perf_counter()
    result = find_all(configs, timeout)
    results = []
    all_diffs = _all_differences()
    formal = set()
    for e in EDITIONS:
        for c in ghostrules.load_game(GAME, edition=e).spec.changes:
            if c.kind != "note":
                formal.add(c.difference)
    for diff, topic in all_diffs:
        if diff in result["found"]:
            w, config, seconds, starts, full = result["found"][diff]
            d = w.divergence
            path = _write(options["out_dir"], diff, w, config, starts, full) if options.get("out_dir") else None
            detail = (f"{diff} ({topic}) matters: at {w.site.rule} ({w.site.kind} '{w.site.text}'), Z3 chose "
                      f"{_short(w.changed)} besides the setup; running {w.site.procedure or 'the score sheet'} "
                      f"{w.args or ''} under both editions"
                      + (f", after {d.actions}," if d.actions else "")
                      + f" {d.what} differs: hu {d.shown_a!r}, el {d.shown_b!r}"
                      + (" (the difference alone: EL rules with only this difference in HU's reading; the full "
                         "editions also differ there)" if full is not None else
                         " (the difference alone: EL rules with only this difference in HU's reading; the full "
                         "editions do not differ on this path)"))
            results.append(dict(property=f"{diff} changes an outcome", configuration=config, status="proved",
                                seconds=round(seconds, 3), rule_ids=[diff, w.site.rule], detail=detail,
                                counterexample={"changed": w.changed, "procedure": w.site.procedure, "args": w.args,
                                                "actions": d.actions, "hu": _plain(d.shown_a), "el": _plain(d.shown_b),
                                                "full_editions_differ": full is not None},
                                scenario=path))
        elif diff in formal:
            results.append(dict(property=f"{diff} changes an outcome", configuration="; ".join(
                _config(p, lv) for p, lv in configs), status="unknown", seconds=0.0, rule_ids=[diff],
                detail=f"{diff} ({topic}) changes a formal part, but no replayed witness was found "
                       f"(sites tried: {result['tried'].get(diff, [])[:4]})", counterexample=None, scenario=None))
        else:
            removed = remove_stale_witness(options["out_dir"], diff) if options.get("out_dir") else []
            results.append(dict(property=f"{diff} is wording only in the specs", configuration="every", status="proved",
                                seconds=0.0, rule_ids=[diff],
                                detail=f"{diff} ({topic}): both overlays only note it; the formal rules are shared, "
                                       f"so no outcome can differ" + (f"; removed an earlier run's witness, stale now: "
                                                                      f"{', '.join(removed)}" if removed else ""),
                                counterexample=None, scenario=None, removed=removed))
    shown = sum(1 for r in results if r["property"].endswith("changes an outcome") and r["status"] == "proved")
    results.append(dict(property=PROPERTY, configuration="; ".join(_config(p, lv) for p, lv in configs),
                        status="proved" if shown >= 3 else "failed", seconds=round(time.perf_counter() - t0, 3),
                        rule_ids=[d for d, _ in all_diffs],
                        detail=f"{shown} of {len(all_diffs)} differences shown to matter by a replayed witness; "
                               f"{len(all_diffs) - len(formal)} change no formal rule",
                        counterexample=None, scenario=None))
    return results


def _short(cells: dict[str, Any]) -> str:
    items = list(cells.items())
    text = ", ".join(f"{k} = {v}" for k, v in items[:6])
    return (text + f" and {len(items) - 6} more") if len(items) > 6 else (text or "nothing")


def _plain(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_plain(i) for i in x]
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    return x if isinstance(x, (int, str, bool, float)) or x is None else str(x)


if __name__ == "__main__":
    import json
    import sys
    out = run({"all_configurations": "--all" in sys.argv, "timeout_ms": 5000, "out_dir": "/tmp/ed_witness"})
    for r in out:
        print(r["status"], r["configuration"], r["seconds"], "|", r["detail"][:400])
    print(TIMES)
