"""A directed graph (networkx) drawn as SVG with a simple layered layout: no Graphviz needed.

Cycles are broken for the layout only (depth-first back edges are reversed); each node goes to
the layer after its deepest predecessor; a few barycentre sweeps reduce crossings. Nodes may carry
``label``, ``href``, ``title`` (tooltip) and ``group`` (a colour key) attributes.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from .svg import Svg, fit

GROUP_COLOURS = ["#dbe9f6", "#fde2c8", "#d9f0d3", "#f3d9ec", "#fff2b3", "#e0dcf3", "#d7f0ef", "#f6d6d6",
                 "#e6e6e6", "#ffe0b2", "#c8e6c9", "#d1c4e9"]


def _acyclic(g: nx.DiGraph) -> nx.DiGraph:
    """A copy without self-loops in which every depth-first back edge is reversed."""
    dag = nx.DiGraph()
    dag.add_nodes_from(g.nodes)
    state: dict[Any, int] = {}
    back = set()
    for root in sorted(g.nodes, key=lambda n: (g.in_degree(n) > 0, str(n))):
        if root in state:
            continue
        stack = [(root, iter(sorted(g.successors(root), key=str)))]
        state[root] = 1
        while stack:
            node, children = stack[-1]
            for child in children:
                if state.get(child) == 1:
                    back.add((node, child))
                elif child not in state:
                    state[child] = 1
                    stack.append((child, iter(sorted(g.successors(child), key=str))))
                    break
            else:
                state[node] = 2
                stack.pop()
    for u, v in g.edges:
        if u == v:
            continue
        if (u, v) in back:
            dag.add_edge(v, u)
        else:
            dag.add_edge(u, v)
    return dag


def layers(g: nx.DiGraph) -> list[list[Any]]:
    """Nodes by layer (longest path from a source), ordered to reduce edge crossings."""
    dag = _acyclic(g)
    depth: dict[Any, int] = {}
    for node in nx.topological_sort(dag):
        preds = list(dag.predecessors(node))
        depth[node] = 1 + max(depth[p] for p in preds) if preds else 0
    out: list[list[Any]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for node in sorted(depth, key=str):
        out[depth[node]].append(node)
    pos = {n: i for layer in out for i, n in enumerate(layer)}
    for sweep in range(6):
        rng = range(1, len(out)) if sweep % 2 == 0 else range(len(out) - 2, -1, -1)
        for i in rng:
            def bary(n: Any) -> float:
                near = list(dag.predecessors(n)) if sweep % 2 == 0 else list(dag.successors(n))
                return sum(pos[m] for m in near) / len(near) if near else pos[n]
            out[i].sort(key=lambda n: (bary(n), str(n)))
            for j, n in enumerate(out[i]):
                pos[n] = j
    return out


def graph_to_svg(g: nx.DiGraph, title: str = "", node_width: float = 132, node_height: float = 24,
                 h_gap: float = 12, v_gap: float = 44, max_per_row: int = 6, legend: bool = True) -> str:
    """Draw ``g`` top-down by layers; a layer wider than ``max_per_row`` nodes wraps onto more rows."""
    rows: list[list[Any]] = []
    for layer in layers(g):
        for i in range(0, len(layer), max_per_row):
            rows.append(layer[i:i + max_per_row])
    widest = max((len(r) for r in rows), default=1)
    width = widest * (node_width + h_gap) + h_gap
    groups = sorted({str(g.nodes[n].get("group", "")) for n in g.nodes})
    colour = {grp: GROUP_COLOURS[i % len(GROUP_COLOURS)] for i, grp in enumerate(groups)}
    per_line = max(1, int(width // 150))
    legend_rows = (len(groups) + per_line - 1) // per_line if legend and len(groups) > 1 else 0
    height = len(rows) * (node_height + v_gap) + v_gap + legend_rows * 20 + (10 if legend_rows else 0)
    xy: dict[Any, tuple[float, float]] = {}
    for r, row in enumerate(rows):
        offset = (width - len(row) * (node_width + h_gap) + h_gap) / 2
        for i, node in enumerate(row):
            xy[node] = (offset + i * (node_width + h_gap), v_gap / 2 + r * (node_height + v_gap))
    svg = Svg(width, height, title=title, background="#ffffff")
    svg.add('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#777"/></marker></defs>')
    for u, v in sorted(g.edges, key=str):
        if u == v:
            continue
        (x1, y1), (x2, y2) = xy[u], xy[v]
        sx, tx = x1 + node_width / 2, x2 + node_width / 2
        if y2 > y1:
            sy, ty = y1 + node_height, y2
        elif y2 < y1:
            sy, ty = y1, y2 + node_height
        else:
            sy, ty = y1 + node_height, y2 + node_height
        mid = (sy + ty) / 2 if y1 != y2 else sy + v_gap / 2
        svg.path(f"M{sx:.1f},{sy:.1f} C{sx:.1f},{mid:.1f} {tx:.1f},{mid:.1f} {tx:.1f},{ty:.1f}", fill="none",
                 stroke="#9a9a9a", stroke_width=1, marker_end="url(#arrow)", opacity=0.8)
    for node, (x, y) in xy.items():
        data = g.nodes[node]
        label = str(data.get("label", node))
        href = data.get("href")
        if href:
            svg.open("a", href=href)
        svg.open("g")
        tip = str(data.get("title", ""))
        if tip:
            svg.element("title", tip)
        svg.rect(x, y, node_width, node_height, rx=5, fill=colour[str(data.get("group", ""))], stroke="#555",
                 stroke_width=0.8)
        svg.text(x + node_width / 2, y + node_height / 2 + 4, fit(label, node_width - 8, 10.5), size=10.5,
                 fill="#111", style="text-decoration: none")
        svg.close("g")
        if href:
            svg.close("a")
    if legend_rows:
        top = len(rows) * (node_height + v_gap) + v_gap / 2
        for i, grp in enumerate(groups):
            x = h_gap + (i % per_line) * 150
            y = top + (i // per_line) * 20
            svg.rect(x, y, 14, 12, rx=2, fill=colour[grp], stroke="#555", stroke_width=0.6)
            svg.text(x + 19, y + 10, fit(grp or "(other)", 125, 10.5), size=10.5, anchor="start", fill="#333")
    return str(svg)
