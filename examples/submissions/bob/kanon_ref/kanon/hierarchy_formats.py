"""The "child,parent" hierarchy format (the USTC lab's), beside the kit's tab-indented one.

One pair per line, read as CSV (so a quoted label may hold a comma): `child,parent`. Blank
lines are ignored and each label is stripped of surrounding whitespace. Exactly one node is
never a child (the root); every other node is a child on exactly one line; no cycles. A node's
label is its identity, so labels are unique by construction. A one-node hierarchy (a root
alone) has no pairs and cannot be written in this format.

Parsing yields the nodes in preorder from the root, each node's children in the order they
first appear in the file (as a child or as a parent), which is what kanon.hierarchy's DGH
expects of its node ids (a parent before its children, a subtree a contiguous range).
Rendering writes one line per non-root node in that same preorder, so parse(render(h))
numbers the nodes as h does. Every error names the file and the line.
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


def _pair(line: str, where: str) -> tuple[str, str]:
    try:
        fields = next(csv.reader([line], skipinitialspace=True, strict=True))
    except csv.Error as e:
        raise ValueError(f"{where}: not a CSV line ({e}): {line.strip()!r}") from None
    if len(fields) != 2:
        raise ValueError(f"{where}: expected one 'child,parent' pair, found {len(fields)} "
                         f"field(s) in {line.strip()!r}")
    child, parent = (f.strip() for f in fields)
    if not child or not parent:
        side = "child" if not child else "parent"
        raise ValueError(f"{where}: the {side} label is empty in {line.strip()!r}")
    if child == parent:
        raise ValueError(f"{where}: {child!r} is its own parent (a cycle)")
    return child, parent


def parse_paths(text: str, path: str, sep: str = ";") -> tuple[list[str], list[int], list[int]]:
    """Parse a "paths" file (the Top-Down Greedy lab's): one line per leaf, the leaf then its
    ancestors up to the root, `sep`-separated (`Self-emp-inc;Self-employ;*`); every line ends
    in the same root and a node has one parent throughout. (labels, parent ids, depths) as
    parse_child_parent gives them, children in order of first appearance."""
    pairs: list[str] = []
    parent_of: dict[str, tuple[str, int]] = {}
    root: tuple[str, int] | None = None
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}, line {line_no}"
        labels = [label.strip() for label in line.split(sep)]
        if any(not label for label in labels):
            raise ValueError(f"{where}: an empty label in {line.strip()!r}")
        if root is None:
            root = (labels[-1], line_no)
        elif labels[-1] != root[0]:
            raise ValueError(f"{where}: the path ends in {labels[-1]!r}, but line {root[1]}'s "
                             f"ends in {root[0]!r}; every path ends in the one root")
        for child, parent in zip(labels, labels[1:]):
            if child in parent_of and parent_of[child][0] != parent:
                raise ValueError(f"{where}: {child!r} has the parent {parent!r}, but "
                                 f"{parent_of[child][0]!r} on line {parent_of[child][1]}")
            if child not in parent_of:
                parent_of[child] = (parent, line_no)
                pairs.append(f"{_quote(child)},{_quote(parent)}")
    if root is None:
        raise ValueError(f"{path}: the hierarchy file has no lines")
    if not pairs:
        return [root[0]], [-1], [0]
    return parse_child_parent("\n".join(pairs), path)


def _quote(label: str) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow([label])
    return out.getvalue()


def parse_child_parent(text: str, path: str) -> tuple[list[str], list[int], list[int]]:
    """Parse a "child,parent" file: (labels, parent ids, depths), nodes in preorder, root 0."""
    parent_of: dict[str, str] = {}
    line_of: dict[str, int] = {}  # the line where a node is a child
    first_seen: dict[str, int] = {}  # label -> order of first appearance in the file
    mentioned_on: dict[str, int] = {}  # label -> the first line that names it
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}, line {line_no}"
        child, parent = _pair(line.strip(), where)
        if child in parent_of:
            raise ValueError(f"{where}: {child!r} is a child a second time (its parent is "
                             f"{parent_of[child]!r} on line {line_of[child]}); every node "
                             "but the root is a child exactly once")
        parent_of[child] = parent
        line_of[child] = line_no
        for label in (child, parent):
            first_seen.setdefault(label, len(first_seen))
            mentioned_on.setdefault(label, line_no)
    if not parent_of:
        raise ValueError(f"{path}: the hierarchy file has no 'child,parent' pairs")
    _check_cycles(parent_of, line_of, path)
    roots = [label for label in first_seen if label not in parent_of]
    if len(roots) > 1:
        second = roots[1]
        raise ValueError(f"{path}, line {mentioned_on[second]}: {second!r} is a second root (a "
                         f"parent that is never a child); the first is {roots[0]!r} on line "
                         f"{mentioned_on[roots[0]]}. A hierarchy has exactly one root")
    return _preorder(roots[0], parent_of, first_seen)


def _check_cycles(parent_of: dict[str, str], line_of: dict[str, int], path: str) -> None:
    """Follow each node's parents; a walk that comes back to itself is a cycle."""
    done: set[str] = set()  # nodes known to lead to a root
    for start in parent_of:
        walk: list[str] = []
        on_walk: set[str] = set()
        node = start
        while node in parent_of and node not in done:
            if node in on_walk:
                cycle = walk[walk.index(node):]
                first = min(cycle, key=line_of.__getitem__)
                at = cycle.index(first)
                ring = cycle[at:] + cycle[:at] + [first]
                raise ValueError(f"{path}, line {line_of[first]}: a cycle: "
                                 f"{' -> '.join(map(repr, ring))} (child -> parent)")
            walk.append(node)
            on_walk.add(node)
            node = parent_of[node]
        done.update(walk)


def _preorder(root: str, parent_of: dict[str, str],
              first_seen: dict[str, int]) -> tuple[list[str], list[int], list[int]]:
    children: dict[str, list[str]] = {}
    for child in sorted(parent_of, key=first_seen.__getitem__):
        children.setdefault(parent_of[child], []).append(child)
    labels: list[str] = []
    parent: list[int] = []
    depth: list[int] = []
    stack: list[tuple[str, int, int]] = [(root, -1, 0)]
    while stack:
        label, up, d = stack.pop()
        node = len(labels)
        labels.append(label)
        parent.append(up)
        depth.append(d)
        stack.extend((c, node, d + 1) for c in reversed(children.get(label, [])))
    return labels, parent, depth


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
