"""Writing hierarchy files in the formats the kit reads (kcheck.hierarchies reads them):
"child,parent" (the USTC lab's), "paths" (the Top-Down Greedy lab's) and the kit's tabs.

Each writer emits the nodes in node order (preorder from the root), so reading its text back
numbers the nodes as the hierarchy does.
"""
from __future__ import annotations

import csv
import io

FORMATS = ("tabs", "child-parent", "paths")


def check_format(fmt: str) -> str:
    """The format name, or a ValueError naming the known ones."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown hierarchy format {fmt!r} (choose one of: {', '.join(FORMATS)})")
    return fmt


def render_child_parent(labels: list[str], parent: list[int], path: str = "<hierarchy>") -> str:
    """One `child,parent` line per non-root node, in node order (csv.writer, minimal quoting,
    "\\n" line ends). A label that would not read back the same is a ValueError."""
    if len(labels) < 2:
        raise ValueError(f"{path}: a hierarchy of a root alone has no 'child,parent' pairs")
    for label in labels:
        if not label or label != label.strip() or "\n" in label or "\r" in label:
            raise ValueError(f"{path}: the label {label!r} cannot be written as a "
                             "'child,parent' cell (empty, surrounding whitespace or a line break)")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for node in range(1, len(labels)):
        writer.writerow([labels[node], labels[parent[node]]])
    return out.getvalue()


def render_paths(labels: list[str], parent: list[int], sep: str = ";") -> str:
    """The "paths" format: one line per leaf, in node order, the leaf up to the root."""
    has_child = {p for p in parent if p >= 0}
    lines = []
    for node in range(len(labels)):
        if node in has_child and len(labels) > 1:
            continue
        walk, at = [], node
        while at >= 0:
            walk.append(labels[at])
            at = parent[at]
        lines.append(sep.join(walk) + "\n")
    return "".join(lines)


def render_tabs(labels: list[str], depth: list[int]) -> str:
    """The kit's tab-indented format: one node per line, depth = leading tabs."""
    return "".join("\t" * d + label + "\n" for label, d in zip(labels, depth))
