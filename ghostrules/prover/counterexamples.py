"""Counterexamples as positions: a failed obligation's model as an engine state and as a
scenario file (ghostrules/query format) that loads back and replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from .outdir import remove_owned, site_path


def counterexample_state(game: Any, rec: dict[str, Any]) -> Any:
    """The counterexample as an engine state: a set-up position (first chance outcomes) overlaid
    with the solver's values for the slots the obligation reads, the procedure about to run with
    the counterexample's arguments. The other slots do not matter to the obligation."""
    from .runner import set_up_values
    values = set_up_values(game.spec)
    for flat, v in (rec.get("values") or {}).items():
        values[int(flat)] = v
    import json
    stack = [[rec["procedure"], 0, dict(rec.get("call") or {})]] if rec.get("procedure") in game.program.by_name \
        else []
    text = json.dumps({"game": game.spec.name, "settings": dict(game.spec.settings), "values": values,
                       "stack": stack, "history": [], "outcome": None})
    state = game.state_from_json(text, tracing=True)
    probe = state.clone()
    try:
        probe._run()  # to the procedure's first decision or chance node (the engine's own loop)
    except Exception as exc:  # noqa: BLE001 - the engine stops on the fault itself: keep the start
        rec["replay"] = f"the engine stops: {exc}"
        return state
    rec["replay"] = "the engine runs it to " + ("the end of the game" if probe.is_terminal() else
                                                "a chance node" if probe.is_chance_node() else "a decision")
    return probe


def write_scenario(game_name: str, config: str, rec: dict[str, Any], out_dir: Path, prop: str,
                   specs_root: Any = None) -> str | None:
    """Write a failed obligation's counterexample as a scenario file (ghostrules/query format);
    the file is loaded back before it is kept. Returns its path (None if it cannot be written)."""
    import ghostrules

    from ..engine import Game
    from ..query import scenario_text
    from ..spec import load_spec
    params: dict[str, Any] = {}
    for part in config.split():
        k, _, v = part.partition("=")
        params[k] = int(v) if v.isdigit() else v
    try:
        spec = load_spec(game_name, root=Path(specs_root) if specs_root else None, **params)
        try:
            game = Game(spec)
        except ghostrules.SpecError:  # a broken spec the engine refuses: show the position in the real game
            game = ghostrules.load_game(game_name, **params)
        state = counterexample_state(game, rec)
        text = scenario_text(state)
    except Exception as exc:  # noqa: BLE001 - the report must go on; say why there is no file
        rec.setdefault("scenario_error", str(exc))
        return None
    site = site_line(rec, Path(spec.root).parent if spec.root else None)
    header = (header_line(prop, config, rec) + "\n" + (site + "\n" if site else "") +
              f"# The state before {rec['procedure']} runs; `ghostrules ask FILE next` replays it.\n")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = scenario_path(out_dir, prop, config, rec["rule"])
    path.write_text(header + text, encoding="utf-8")
    try:
        ghostrules.load_scenario(str(path))
    except Exception as exc:  # noqa: BLE001
        rec.setdefault("scenario_error", f"written but does not load: {exc}")
    return str(path)


def scenario_path(out_dir: Path, prop: str, config: str, rule: str) -> Path:
    """The file a failed obligation of ``rule`` in this property and configuration is written to
    (one per rule: a later failure of the same rule overwrites it)."""
    slug = "".join(c if c.isalnum() else "_" for c in f"{prop}_{config}_{rule}")[:120]
    return out_dir / f"{slug}.yaml"


def header_line(prop: str, config: str, rec: dict[str, Any]) -> str:
    """The first line of a counterexample file: the property, configuration and obligation."""
    return f"# Counterexample to {prop} ({config}): [{rec['rule']}] {rec['where']}: {rec['text']}"


# what stands at an obligation's site, by the obligation's kind (local.py states them)
SITE_KINDS = {"requires": "the call or emit", "options": "the decision or chance node",
              "conservation": "the write", "invariant": "the write", "range": "the write",
              "initial": "the declaration"}


def site_line(rec: dict[str, Any], specs_folder: Path | None) -> str | None:
    """The header line naming the obligation's site as a file and line a reader can open
    (``outdir.site_path``), and what stands there; None if the record names no file and line
    (the initial ranges: the whole state)."""
    path = site_path(rec["where"], specs_folder)
    if path is None:
        return None
    what = SITE_KINDS.get(rec["kind"], "the statement") + (f" of rule {rec['rule']}" if rec["rule"] else "")
    return f"# Site: {path} ({what})"


def remove_proved(out_dir: Path, prop: str, config: str, records: Iterable[dict[str, Any]],
                  keep: str | None = None) -> list[str]:
    """Remove the counterexample files of obligations of this property and configuration that
    ``records`` (this run's results for them) show proved and none shows failed or unknown; a
    file goes only if it has the name ``write_scenario`` gives (``scenario_path``) and its first
    line is the header written for that very obligation (``header_line``). ``keep`` (the file
    this run wrote) is never removed. Returns the paths removed."""
    records = list(records)
    def key(r: dict[str, Any]) -> tuple[str, str, str]:
        return r["rule"], r["where"], r["text"]
    open_ = {key(r) for r in records if r["status"] != "proved"}
    removed: list[str] = []
    seen: set[tuple[str, str, str]] = set()
    for rec in records:
        if rec["status"] != "proved" or key(rec) in open_ or key(rec) in seen:
            continue
        seen.add(key(rec))
        path = scenario_path(out_dir, prop, config, rec["rule"])
        if keep is not None and str(path) == keep:
            continue
        line = header_line(prop, config, rec)
        removed += remove_owned(path, lambda lines, line=line: bool(lines) and lines[0] == line)
    return removed
