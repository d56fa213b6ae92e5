"""Summaries of many games: rates with Wilson intervals, quartiles, end reasons, score lines."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

Z95 = 1.959963984540054  # the 97.5 % point of the standard normal distribution


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``successes / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics (numpy's default)."""
    if not sorted_values:
        return float("nan")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def distribution(values: Iterable[float]) -> dict[str, float]:
    """Mean, quartiles and extremes of some numbers."""
    xs = sorted(values)
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "mean": round(sum(xs) / len(xs), 4), "min": xs[0], "q1": quantile(xs, 0.25),
            "median": quantile(xs, 0.5), "q3": quantile(xs, 0.75), "max": xs[-1]}


def summarise(rows: Sequence[dict[str, Any]], win: str | None = "win") -> dict[str, Any]:
    """The summary of per-game rows (see ``runner.GameRecord.row``).

    ``win`` is the result counted as a win; None (a game without such a result) leaves the win
    fields None and only the per-result rates."""
    n = len(rows)
    results = Counter(r["result"] for r in rows)
    rates = {}
    for result, count in sorted(results.items(), key=lambda kv: (-kv[1], kv[0])):
        lo, hi = wilson(count, n)
        rates[result] = {"games": count, "rate": round(count / n, 6) if n else 0.0,
                         "ci95": [round(lo, 6), round(hi, 6)]}
    wins = results.get(win, 0) if win is not None else None
    lo, hi = wilson(wins or 0, n)
    reasons = Counter((r["result"], r["rule"], r["reason"]) for r in rows)
    lines: dict[str, list[float]] = {}
    for r in rows:
        for key, value in r.items():
            if key.startswith("score:"):
                lines.setdefault(key[len("score:"):], []).append(value)
    return {
        "games": n,
        "win_result": win,
        "wins": wins,
        "win_rate": None if wins is None else round(wins / n, 6) if n else 0.0,
        "win_rate_ci95": None if wins is None else [round(lo, 6), round(hi, 6)],
        "results": rates,
        "end_reasons": [{"result": res, "rule": rule, "reason": reason, "games": count}
                        for (res, rule, reason), count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))],
        "turns": distribution(r["turns"] for r in rows),
        "actions": distribution(r["actions"] for r in rows),
        "decisions": distribution(r["decisions"] for r in rows),
        "score": distribution(r["score"] for r in rows),
        "score_lines": {label: distribution(values) for label, values in lines.items()},
    }


def summary_lines(summary: dict[str, Any], title: str) -> list[str]:
    """The summary as readable text."""
    n = summary["games"]
    out = [title, ""]
    if summary["win_result"] is not None:
        lo, hi = summary["win_rate_ci95"]
        out.append(f"{summary['win_result']}: {summary['wins']}/{n} = {100 * summary['win_rate']:.1f} % "
                   f"(95 % Wilson interval {100 * lo:.1f}-{100 * hi:.1f} %)")
    others = [(k, v) for k, v in summary["results"].items() if k != summary["win_result"]]
    for result, row in others:
        lo, hi = row["ci95"]
        out.append(f"{result}: {row['games']}/{n} = {100 * row['rate']:.1f} % ({100 * lo:.1f}-{100 * hi:.1f} %)")
    out.append("")
    out.append("How the games ended:")
    for row in summary["end_reasons"]:
        rule = f" [{row['rule']}]" if row["rule"] else ""
        out.append(f"  {row['games']:6}  {row['result']}{rule}: {row['reason']}")
    out.append("")
    for key, name in (("turns", "turns"), ("actions", "actions"), ("score", "score")):
        d = summary[key]
        if key == "score" and not summary["score_lines"]:  # the game declares no score
            continue
        if d.get("n"):
            out.append(f"{name:8} mean {d['mean']:8.2f}   min {d['min']:g}  q1 {d['q1']:g}  median {d['median']:g}  "
                       f"q3 {d['q3']:g}  max {d['max']:g}")
    if summary["score_lines"]:
        out.append("score lines (mean):")
        for label, d in summary["score_lines"].items():
            out.append(f"  {d['mean']:8.2f}  {label}")
    return out
