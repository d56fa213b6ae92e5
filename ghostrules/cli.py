"""The ``ghostrules`` command line: play a seeded game with a readable trace, browse the rules.

    ghostrules play ghost-stories --players 4 --level initiation --edition el --seed 1
    ghostrules play ghost-stories --seed 7 --json
    ghostrules rules list --family exorcism
    ghostrules rules show GS-EXO-3
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import textwrap
from typing import Any, Sequence

from . import IllegalActionError, SpecError, SpecRuntimeError, available_games, load_game, play
from .engine.actions import VALUE_KINDS
from .spec.loader import load_spec, parameter_names
from .spec.model import Rule
from .spec.render import INDENT, iter_statements, render_definition, render_rule_formal
from .spec.words import first_sentence, shorten
from .render.command import add_render_command

DEFAULT_GAME = "ghost-stories"
WIDTH = 88
# the widest configuration cell of the `ghostrules prove` table (longer ones are shortened, with a count)
CONFIGURATION_WIDTH = 72
# log kinds shown only with --verbose (the entries that record a value)
VERBOSE_KINDS = VALUE_KINDS


class UsageError(Exception):
    """A problem with what the user asked for: printed as ``error: ...``, exit code 2."""


# ---- parameters -------------------------------------------------------------------------------


def _game_parameters(game: str) -> dict[str, tuple[Any, ...]]:
    if game not in available_games():
        raise UsageError(f"unknown game {game!r}; available: {', '.join(available_games()) or 'none'}")
    return parameter_names(game)


def _convert(game: str, name: str, raw: str, allowed: dict[str, tuple[Any, ...]]) -> Any:
    if name not in allowed:
        have = ", ".join(sorted(allowed)) or "none"
        raise UsageError(f"{game} has no parameter {name!r} (its parameters: {have})")
    values = allowed[name]
    for v in values:
        if str(v) == raw:
            return v
    shown = ", ".join(str(v) for v in values)
    raise UsageError(f"{name} must be one of {shown} (got {raw!r})")


def _load(game: str, args: argparse.Namespace, names: Sequence[str] = ("players", "level", "edition", "easy")):
    allowed = _game_parameters(game)
    params = {}
    for name in names:
        raw = getattr(args, name, None)
        if raw is not None:
            params[name] = _convert(game, name, str(raw), allowed)
    return load_game(game, **params)


# ---- play -------------------------------------------------------------------------------------


def _is_header(entry: Any) -> bool:
    return entry.kind == "say" and entry.text.startswith("---")


def _trace_lines(log: Sequence[Any], verbose: bool) -> list[str]:
    lines: list[str] = []
    for entry in log:
        if entry.kind in VERBOSE_KINDS and not verbose:
            continue
        if _is_header(entry):
            if lines:  # a blank line between sections, none before the first
                lines.append("")
            lines.append(f"[{entry.rule}] {entry.text}")
        else:
            lines.append(f"{INDENT}[{entry.rule}] {entry.text}")
    return lines


def cmd_play(args: argparse.Namespace) -> int:
    game = _load(args.game, args)
    holder: list[Any] = []  # the state being played, to show its trace if the game stops on an error

    def keep(state: Any) -> None:
        if not holder:
            holder.append(state)

    try:
        state = play(game, seed=args.seed, tracing=True, on_step=keep)
    except (SpecRuntimeError, IllegalActionError) as exc:
        if holder and not args.json:
            print("\n".join(_trace_lines(holder[0].log(), args.verbose)))
        print(f"error: the game stopped: {exc}", file=sys.stderr)
        return 1
    outcome = state.outcome()
    settings = dict(game.spec.settings)
    if args.json:
        doc = {
            "game": game.spec.name,
            "settings": settings,
            "seed": args.seed,
            "outcome": {"result": outcome.result, "rule": outcome.rule_id, "text": outcome.text},
            "log": [e.to_json() for e in state.log()],
            "history": [str(a) for a in state.history()],
            "score": {"total": state.score().total,
                      "lines": [{"label": l, "rule": r, "points": p} for l, r, p in state.score().lines]},
        }
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    shown = ", ".join(f"{k}={v}" for k, v in settings.items())
    print(f"{game.spec.title} ({shown}), seed {args.seed}, random decisions")
    print()
    print("\n".join(_trace_lines(state.log(), args.verbose)))
    print()
    history = state.history()
    decisions = sum(1 for a in history if a.kind == "choose")
    turns = sum(1 for e in state.log() if _is_header(e))
    print(f"Outcome: {outcome.result} ({outcome.rule_id}): {outcome.text}")
    print(f"{len(history)} actions ({decisions} decisions, {len(history) - decisions} chance outcomes), "
          f"{turns} turns")
    score = state.score()
    if score.lines:
        print("Score:")
        for line in str(score).splitlines():
            print(INDENT + line)
    return 0


# ---- rules ------------------------------------------------------------------------------------


def _editions(rule: Rule) -> str:
    shown = ",".join(rule.editions) or "all"
    if rule.adopted:  # the loaded edition's overlay adopts it where its own text is silent
        shown += " (adopted)"
    return f"{shown} [{rule.overlay}]" if rule.overlay else shown


def _rules_game(args: argparse.Namespace):
    return _load(args.game, args, names=("edition", "players", "level"))


def cmd_rules_diff(args: argparse.Namespace) -> int:
    from .spec.differences import compare
    allowed = _game_parameters(args.game)
    a = _convert(args.game, "edition", args.a, allowed)
    b = _convert(args.game, "edition", args.b, allowed)
    diffs = compare(args.game, "edition", a, b)
    if args.json:
        print(json.dumps([{"id": d.id, "topic": d.topic, "texts": dict(d.texts), "rules": list(d.rules),
                           "effect": d.effect,
                           "changes": [{"overlay": c.overlay, "kind": c.kind, "target": c.target, "note": c.note}
                                       for c in d.changes]} for d in diffs], ensure_ascii=False))
        return 0
    for d in diffs:
        print(f"{d.id}  {d.topic}  [{', '.join(d.rules)}]" + (f"  ({d.effect})" if d.effect else ""))
        for value, text in d.texts:
            if text:
                print(f"{INDENT}{value}: {text}")
        for c in d.changes:
            what = c.note if c.kind == "note" else f"{c.kind} {c.target}" + (f": {c.note}" if c.note else "")
            print(f"{INDENT}{c.overlay}: {what}")
    print(f"{len(diffs)} differences between {a} and {b}")
    return 0


def _short_configuration(text: str, width: int = CONFIGURATION_WIDTH) -> str:
    """A prove table cell of at most ``width`` characters: a result that holds for several
    configurations ("a; b; c") keeps the first ones that fit and counts them all (--json has them all)."""
    if len(text) <= width:
        return text
    parts = text.split("; ")
    tail = f" ... ({len(parts)} configurations)" if len(parts) > 1 else "..."
    kept = ""
    for part in parts:
        longer = f"{kept}; {part}" if kept else part
        if len(longer) + len(tail) > width:
            break
        kept = longer
    if not kept:  # not even the first configuration fits
        kept = parts[0][:max(0, width - len(tail))].rstrip()
    return kept + tail


def cmd_prove(args: argparse.Namespace) -> int:
    """Run every proof file of proofs/ for the game (see ghostrules.prover.runner.discover)."""
    try:
        from .prover.lanes import run_files
        from .prover.runner import discover
    except ModuleNotFoundError as exc:  # z3-solver comes with the dev extra, not with the plain install
        if exc.name != "z3":
            raise
        raise UsageError("'ghostrules prove' needs the Z3 solver, which is not installed: "
                         "pip install -e '.[dev]' (or pip install z3-solver)") from None
    _game_parameters(args.game)  # an unknown game is a usage error
    options = {"all_configurations": not args.default_configuration, "timeout_ms": args.timeout_ms,
               "out_dir": args.out, "jobs": args.jobs}
    modules = discover(args.game)
    if args.only:
        modules = [m for m in modules if any(o in m.__name__.rsplit(".", 1)[-1] for o in args.only)]
    if not modules:
        raise UsageError(f"no proofs for {args.game} in proofs/" + (f" matching {args.only}" if args.only else ""))
    # the obligation kinds the chosen files read (a file without KINDS may read any)
    if all(hasattr(m, "KINDS") for m in modules):
        options["kinds"] = sorted({k for m in modules for k in m.KINDS})
    def progress(module: Any, got: list[dict[str, Any]], seconds: float) -> None:
        if not args.json:
            print(f"# proofs/{module.__name__.rsplit('.', 1)[-1]}.py: {len(got)} results, {seconds:.1f} s",
                  file=sys.stderr)

    # the files that run their own search run beside the session's files (see prover.lanes)
    rows = []
    for module, got, _ in run_files(modules, options, args.jobs, progress):
        for row in got:
            row.setdefault("file", module.__name__.rsplit(".", 1)[-1] + ".py")
        rows += got
    failing = [r for r in rows if r["status"] != "proved"]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, default=str))
    else:
        wp = max(len(r["property"]) for r in rows)
        shown = [_short_configuration(r["configuration"]) for r in rows]
        wc = max(len("configuration"), *(len(c) for c in shown))
        print(f"{'property':{wp}}  {'configuration':{wc}}  {'result':7}  {'time':>6}  rule IDs")
        for r, configuration in zip(rows, shown):
            ids = ", ".join(r["rule_ids"][:4]) + (f" +{len(r['rule_ids']) - 4}" if len(r["rule_ids"]) > 4 else "")
            print(f"{r['property']:{wp}}  {configuration:{wc}}  {r['status']:7}  {r['seconds']:6.2f}  {ids}")
        for r in failing[:20]:
            print(f"\n{r['status'].upper()} {r['property']} ({r['configuration']}): {r['detail']}")
            cx = r.get("counterexample") or {}
            for k, v in (cx.get("state") or {}).items():
                print(f"{INDENT}{k} = {v}")
            if r.get("scenario"):
                print(f"{INDENT}scenario: {r['scenario']}")
        removed = [path for r in rows for path in r.get("removed") or ()]
        if removed:
            print(f"\nremoved {len(removed)} stale file(s) an earlier run wrote (proved or answered now):")
            for path in removed:
                print(f"{INDENT}{path}")
        counts = {s: sum(1 for r in rows if r["status"] == s) for s in ("proved", "failed", "unknown")}
        print(f"\n{len(rows)} results: {counts['proved']} proved, {counts['failed']} failed, {counts['unknown']} unknown")
    return 0 if not failing else 1


def cmd_rules_list(args: argparse.Namespace) -> int:
    game = _rules_game(args)
    rules = list(game.spec.rules)
    if args.family:
        families = sorted({r.family for r in rules})
        if args.family not in families:
            raise UsageError(f"no rule family {args.family!r}; families: {', '.join(families)}")
        rules = [r for r in rules if r.family == args.family]
    if args.edition or getattr(args, "players", None) or getattr(args, "level", None):
        # only the rules that concern the chosen configuration (editions and parameter values)
        rules = [r for r in rules if r.applies_to(dict(game.spec.settings))]
    if not rules:
        print("(no rules)")
        return 0
    rows = [(r.id, r.family, r.kind, _editions(r), shorten(first_sentence(r.text), 90, marker="...")) for r in rules]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4])
    return 0


def _wrap(text: str, indent: str = INDENT) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), width=WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def _find_rule(game: Any, rule_id: str) -> Rule:
    ids = [r.id for r in game.spec.rules]
    for r in game.spec.rules:
        if r.id == rule_id:
            return r
    for r in game.spec.rules:
        if r.id.upper() == rule_id.upper():
            return r
    close = difflib.get_close_matches(rule_id.upper(), ids, n=6, cutoff=0.6)
    hint = f"; did you mean: {', '.join(close)}" if close else "; see 'ghostrules rules list'"
    owner = _other_game_with_rule(game.spec.name, rule_id)
    if owner:
        hint = f"; it is a rule of {owner}: add --game {owner}"
    raise UsageError(f"no rule {rule_id!r} in {game.spec.name}{hint}")


def _other_game_with_rule(current: str, rule_id: str) -> str | None:
    """The first other game folder under specs/ whose spec has the rule ``rule_id`` (any case)."""
    for other in available_games():
        if other == current:
            continue
        try:
            rules = load_spec(other).rules  # the rules only: no need to compile the game
        except SpecError:  # a broken spec elsewhere must not hide the real error
            continue
        if any(r.id.upper() == rule_id.upper() for r in rules):
            return other
    return None


def cmd_rules_show(args: argparse.Namespace) -> int:
    game = _rules_game(args)
    spec = game.spec
    rule = _find_rule(game, args.id)
    out: list[str] = [f"{rule.id}  (family {rule.family}, {rule.kind})"]
    out += _wrap(rule.text)
    out.append("")
    out.append(f"Editions: {', '.join(rule.editions) or 'all'}")
    for note in rule.adopted:
        out.append(f"Adopted in this edition, whose text is silent: {note}")
    configurations = getattr(rule, "configurations", ())
    if configurations:
        out.append("Applies to: " + "; ".join(f"{k} in {', '.join(map(str, v))}" for k, v in configurations))
    if rule.overlay:
        out.append(f"This version comes from the overlay for: {rule.overlay}")
    if rule.differs:
        out.append(f"Differs between editions: {', '.join(rule.differs)}")
    if rule.open_questions:
        out.append(f"Open questions: {', '.join(rule.open_questions)}")
    if rule.sources:
        out.append("Sources:")
        for src in rule.sources:
            where = src.edition + (f", p. {src.page}" if src.page is not None else "")
            out.append(f"{INDENT}{where}: \u201c{' '.join(src.words.split())}\u201d")
            if src.encoded:
                out.append(f"{INDENT * 2}encoded: {src.encoded}")
    if rule.basis:
        out.append("Basis:")
        out += _wrap(rule.basis)
    out.append("Formal part:")
    out += render_rule_formal(rule, indent=1)
    defs = [d for d in spec.definitions if d.rule == rule.id]
    if defs:
        out.append("Definitions citing this rule:")
        for d in defs:
            out += render_definition(d, indent=1)
            if d.text:
                out += _wrap(d.text, INDENT * 2)
    carriers = [r.id for r in spec.rules if r.id != rule.id
                and any(s.rule == rule.id for s in iter_statements(r.body))]
    if carriers:
        out.append(f"Effects attributed to this rule also appear in: {', '.join(carriers)}")
    out.append(f"Spec: {rule.where}")
    print("\n".join(out))
    return 0


# ---- entry point ------------------------------------------------------------------------------


def _parameters_epilog() -> str:
    lines = ["parameters of the available games:"]
    try:
        for game in available_games():
            for name, values in parameter_names(game).items():
                lines.append(f"  {game}: --{name} {{{','.join(str(v) for v in values)}}}")
    except (SpecError, OSError):  # a broken spec must not break --help
        pass
    return "\n".join(lines)


def build_parser(epilog: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ghostrules",
                                     description="Board-game rulebooks as executable, citable rules.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play one seeded game with random decisions and print its trace",
                       epilog=_parameters_epilog() if epilog else None, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="a game folder under specs/ (e.g. ghost-stories)")
    p.add_argument("--players", help="number of players")
    p.add_argument("--level", help="difficulty level")
    p.add_argument("--edition", help="rulebook edition")
    p.add_argument("--easy", help="optional easier start (Ghost Stories: yes = 5 Qi)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of the trace")
    p.add_argument("--verbose", action="store_true",
                   help="also show every value set (set: a slot; let: a local a rule changes)")
    p.set_defaults(func=cmd_play)

    pv = sub.add_parser("prove", help="prove the specs' properties with Z3 and print a table")
    pv.add_argument("--game", default=DEFAULT_GAME)
    pv.add_argument("--json", action="store_true")
    pv.add_argument("--only", "--kind", action="append", help="only the proof files whose name contains this (repeatable)")
    pv.add_argument("--all-configurations", action="store_true", help="every configuration (the default)")
    pv.add_argument("--default-configuration", action="store_true", help="only the default configuration")
    pv.add_argument("--timeout-ms", type=int, default=5000, help="per obligation check, as a Z3 resource limit of about "
                    "this many milliseconds of work on the reference machine, whatever the load "
                    "(prover.solving.RLIMIT_PER_MS; default 5000)")
    pv.add_argument("--jobs", type=int, default=None, help="worker processes (default: up to 2)")
    pv.add_argument("--out", default="counterexamples", help="folder for counterexample scenario files")
    pv.set_defaults(func=cmd_prove)

    r = sub.add_parser("rules", help="browse the rules of a game")
    rsub = r.add_subparsers(dest="rules_command", required=True)
    rl = rsub.add_parser("list", help="one line per rule")
    rl.add_argument("--game", default=DEFAULT_GAME)
    rl.add_argument("--edition", help="load this edition and list only the rules it contains")
    rl.add_argument("--family", help="only this rule family")
    rl.set_defaults(func=cmd_rules_list)
    rl.add_argument("--players", help="list only the rules that apply with this many players")
    rl.add_argument("--level", help="list only the rules that apply at this level")
    rd = rsub.add_parser("diff", help="every difference between two editions, with its rules")
    rd.add_argument("a", help="an edition, e.g. hu")
    rd.add_argument("b", help="another edition, e.g. el")
    rd.add_argument("--game", default=DEFAULT_GAME)
    rd.add_argument("--json", action="store_true")
    rd.set_defaults(func=cmd_rules_diff)
    rs = rsub.add_parser("show", help="one rule: text, sources and formal part")
    rs.add_argument("id", help="rule ID, e.g. GS-EXO-3")
    rs.add_argument("--game", default=DEFAULT_GAME)
    rs.add_argument("--edition", help="load this edition")
    rs.set_defaults(func=cmd_rules_show)

    from .query.command import add_ask_parser  # the rules-lawyer questions (ghostrules ask)
    add_ask_parser(sub)
    add_render_command(sub)  # ghostrules render: SVG pictures of positions
    from .simulate.command import add_simulate_command  # ghostrules simulate: many seeded games
    add_simulate_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # the epilog reads every game's parameters: only worth it when help is asked for
    parser = build_parser(epilog=any(a in ("-h", "--help") for a in argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage errors and --help
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return args.func(args)
    except (UsageError, SpecError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
