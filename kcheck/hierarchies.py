"""Hierarchies (generalization trees) read from files in three formats, and tree queries.

Formats (`fmt`):
- "paths": one line per leaf, `leaf;parent;...;root` (the delimiter is a parameter); every
  line ends in the same root, a label has one parent, a leaf is listed once and is never
  another line's ancestor.
- "tabs" (the default homework's): one node per line, depth = leading tabs; the first
  non-blank line is the root; a later line is at most one tab deeper than the line before it;
  its parent is the nearest earlier line one tab shallower; labels are unique.
- "child-parent": one `child,parent` pair per line, read as CSV; exactly one root.
Everywhere blank lines are ignored and labels are stripped of surrounding spaces ("tabs"
keeps a label's leading spaces after the tabs). Nodes are numbered in
preorder from the root (node 0), children in the order they first appear. Every error is a
`HierarchyError` naming the file and, when there is one, the line.
"""
from __future__ import annotations

import csv
import os
from collections.abc import Iterable

__all__ = ["FORMATS", "HierarchyError", "Tree", "parse_hierarchy", "read_hierarchy",
           "read_folder"]

FORMATS = ("paths", "tabs", "child-parent")


class HierarchyError(ValueError):
    """A hierarchy file that breaks its format; `line` is 1-based (None: the whole file)."""

    def __init__(self, file: str, detail: str, line: int | None = None):
        super().__init__(f"{file}{f', line {line}' if line is not None else ''}: {detail}")
        self.file, self.line, self.detail = file, line, detail


class Tree:
    """One hierarchy. Queries take and return labels; `node` gives a label's id for the
    faster id-based queries (`path`, `leaf_count`, `contains`)."""

    def __init__(self, name: str, file: str, labels: list[str], parent: list[int]):
        """`labels` and `parent` (-1 for the root, node 0) in preorder."""
        self.name, self.file = name, file
        self.labels = labels
        self.parent = parent
        self.index = {label: node for node, label in enumerate(labels)}
        n = len(labels)
        self.children: list[list[int]] = [[] for _ in range(n)]
        for node in range(1, n):
            self.children[parent[node]].append(node)
        self.path: list[tuple[int, ...]] = []  # root first, the node last
        for node in range(n):
            self.path.append((self.path[parent[node]] if node else ()) + (node,))
        self.depth = [len(p) - 1 for p in self.path]
        self.leaf_count = [0] * n
        for node in range(n - 1, -1, -1):  # children come after their parent
            if not self.children[node]:
                self.leaf_count[node] = 1
            if node:
                self.leaf_count[parent[node]] += self.leaf_count[node]

    def __repr__(self) -> str:
        return f"Tree({self.name!r}, {len(self.labels)} nodes, root {self.root!r})"

    @property
    def root(self) -> str:
        return self.labels[0]

    @property
    def n_leaves(self) -> int:
        """The number of leaves of the whole tree."""
        return self.leaf_count[0]

    def node(self, label: str) -> int:
        """The id of a label (KeyError when it is none of the tree's)."""
        return self.index[label]

    def __contains__(self, label: object) -> bool:
        return label in self.index

    def is_leaf(self, label: str) -> bool:
        return not self.children[self.index[label]]

    def leaves(self, label: str) -> int:
        """The number of leaves under a node (1 for a leaf)."""
        return self.leaf_count[self.index[label]]

    def contains(self, ancestor: int, node: int) -> bool:
        """Whether node id `ancestor` is `node` or one of its ancestors."""
        path = self.path[node]
        d = self.depth[ancestor]
        return d < len(path) and path[d] == ancestor

    def covers(self, ancestor: str, label: str) -> bool:
        """Whether `ancestor` is `label` itself or one of its ancestors."""
        return self.contains(self.index[ancestor], self.index[label])

    def lca_nodes(self, nodes: Iterable[int]) -> int:
        """The lowest common ancestor (or self) of node ids (at least one)."""
        found = -1
        for node in nodes:
            if found < 0:
                found = node
            elif not self.contains(found, node):
                path = self.path[node]
                d = min(self.depth[found], len(path) - 1)
                mine = self.path[found]
                while mine[d] != path[d]:
                    d -= 1
                found = mine[d]
        if found < 0:
            raise ValueError("the lowest common ancestor of no node")
        return found

    def lca(self, labels: Iterable[str]) -> str:
        """The lowest common ancestor (or self) of some labels (at least one)."""
        return self.labels[self.lca_nodes(self.index[label] for label in labels)]


def _tree(name: str, file: str, root: str, children: dict[str, list[str]]) -> Tree:
    labels: list[str] = []
    parent: list[int] = []
    stack: list[tuple[str, int]] = [(root, -1)]
    while stack:
        label, up = stack.pop()
        labels.append(label)
        parent.append(up)
        here = len(labels) - 1
        stack.extend((c, here) for c in reversed(children.get(label, [])))
    return Tree(name, file, labels, parent)


def _parse_paths(text: str, name: str, file: str, delimiter: str) -> Tree:
    parent_of: dict[str, str] = {}
    line_of: dict[str, int] = {}  # where a label was first given its parent / listed as a leaf
    leaf_line: dict[str, int] = {}
    inner: dict[str, int] = {}  # label -> a line where it is an ancestor
    order: dict[str, int] = {}
    root: str | None = None
    root_line = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        chain = [label.strip() for label in line.split(delimiter)]
        if any(not label for label in chain):
            raise HierarchyError(file, f"an empty label in {line.strip()!r}", line_no)
        if len(set(chain)) != len(chain):
            again = next(label for i, label in enumerate(chain) if label in chain[:i])
            raise HierarchyError(file, f"{again!r} appears twice on one line (a cycle)", line_no)
        if root is None:
            root, root_line = chain[-1], line_no
        elif chain[-1] != root:
            raise HierarchyError(file, f"the line ends in {chain[-1]!r}, but line {root_line} "
                                 f"ends in {root!r}; every line ends in the same root", line_no)
        leaf = chain[0]
        if leaf in leaf_line:
            raise HierarchyError(file, f"the leaf {leaf!r} is listed a second time (first on "
                                 f"line {leaf_line[leaf]})", line_no)
        if leaf in inner:
            raise HierarchyError(file, f"{leaf!r} is listed as a leaf, but line {inner[leaf]} "
                                 "lists it as an ancestor", line_no)
        leaf_line[leaf] = line_no
        for label in chain[1:]:
            if label in leaf_line:
                raise HierarchyError(file, f"{label!r} is an ancestor here, but line "
                                     f"{leaf_line[label]} lists it as a leaf", line_no)
            inner.setdefault(label, line_no)
        for child, up in zip(chain, chain[1:]):
            known = parent_of.get(child)
            if known is None:
                parent_of[child] = up
                line_of[child] = line_no
            elif known != up:
                raise HierarchyError(file, f"{child!r} has the parent {up!r} here, but "
                                     f"{known!r} on line {line_of[child]}", line_no)
        for label in reversed(chain):
            order.setdefault(label, len(order))
    if root is None:
        raise HierarchyError(file, "the hierarchy file is empty")
    if root in parent_of:
        raise HierarchyError(file, f"the root {root!r} has a parent {parent_of[root]!r}",
                             line_of[root])
    children: dict[str, list[str]] = {}
    for child in sorted(parent_of, key=order.__getitem__):
        children.setdefault(parent_of[child], []).append(child)
    return _tree(name, file, root, children)


def _parse_tabs(text: str, name: str, file: str) -> Tree:
    labels: list[str] = []
    parent: list[int] = []
    depth: list[int] = []
    line_of: dict[str, int] = {}
    stack: list[int] = []  # stack[d] = the last node seen at depth d
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        stripped = line.lstrip("\t")
        d = len(line) - len(stripped)
        label = stripped.rstrip()
        if not labels:
            if d:
                raise HierarchyError(file, f"the first node (the root) must not be indented, "
                                     f"found {d} leading tab(s) before {label!r}", line_no)
        elif d == 0:
            hint = " (indent with tabs, not spaces)" if label != label.lstrip() else ""
            raise HierarchyError(file, f"{label.strip()!r} is a second root; the root is "
                                 f"{labels[0]!r} on line {line_of[labels[0]]}{hint}", line_no)
        elif d > depth[-1] + 1:
            raise HierarchyError(file, f"{label!r} is indented {d} tabs, more than one tab "
                                 f"deeper than the line before it ({depth[-1]} tabs)", line_no)
        if label in line_of:
            raise HierarchyError(file, f"label {label!r} is repeated (first on line "
                                 f"{line_of[label]}); labels must be unique", line_no)
        del stack[d:]
        parent.append(stack[-1] if d else -1)
        stack.append(len(labels))
        labels.append(label)
        depth.append(d)
        line_of[label] = line_no
    if not labels:
        raise HierarchyError(file, "the hierarchy file is empty (it needs at least a root line)")
    return Tree(name, file, labels, parent)


def _parse_child_parent(text: str, name: str, file: str) -> Tree:
    parent_of: dict[str, str] = {}
    line_of: dict[str, int] = {}
    order: dict[str, int] = {}
    mentioned: dict[str, int] = {}
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            fields = next(csv.reader([line.strip()], skipinitialspace=True, strict=True))
        except csv.Error as e:
            raise HierarchyError(file, f"not a CSV line ({e}): {line.strip()!r}", line_no) \
                from None
        if len(fields) != 2:
            raise HierarchyError(file, f"expected one 'child,parent' pair, found {len(fields)} "
                                 f"field(s) in {line.strip()!r}", line_no)
        child, up = (f.strip() for f in fields)
        if not child or not up:
            side = "child" if not child else "parent"
            raise HierarchyError(file, f"the {side} label is empty in {line.strip()!r}", line_no)
        if child == up:
            raise HierarchyError(file, f"{child!r} is its own parent (a cycle)", line_no)
        if child in parent_of:
            raise HierarchyError(file, f"{child!r} is a child a second time (its parent is "
                                 f"{parent_of[child]!r} on line {line_of[child]}); every node "
                                 "but the root is a child exactly once", line_no)
        parent_of[child], line_of[child] = up, line_no
        for label in (child, up):
            order.setdefault(label, len(order))
            mentioned.setdefault(label, line_no)
    if not parent_of:
        raise HierarchyError(file, "the hierarchy file has no 'child,parent' pairs")
    done: set[str] = set()
    for start in parent_of:
        walk: list[str] = []
        node = start
        while node in parent_of and node not in done:
            if node in walk:
                cycle = walk[walk.index(node):]
                first = min(cycle, key=line_of.__getitem__)
                at = cycle.index(first)
                ring = cycle[at:] + cycle[:at] + [first]
                raise HierarchyError(file, f"a cycle: {' -> '.join(map(repr, ring))} "
                                     "(child -> parent)", line_of[first])
            walk.append(node)
            node = parent_of[node]
        done.update(walk)
    roots = [label for label in order if label not in parent_of]
    if len(roots) > 1:
        raise HierarchyError(file, f"{roots[1]!r} is a second root (a parent that is never a "
                             f"child); the first is {roots[0]!r} on line {mentioned[roots[0]]}. "
                             "A hierarchy has exactly one root", mentioned[roots[1]])
    children: dict[str, list[str]] = {}
    for child in sorted(parent_of, key=order.__getitem__):
        children.setdefault(parent_of[child], []).append(child)
    return _tree(name, file, roots[0], children)


def _check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown hierarchy format {fmt!r} (choose one of: {', '.join(FORMATS)})")
    return fmt


def parse_hierarchy(text: str, name: str, file: str, fmt: str = "paths",
                    delimiter: str = ";") -> Tree:
    """The tree in `text` (the content of `file`), in format `fmt`."""
    _check_format(fmt)
    if fmt == "paths":
        if not delimiter or delimiter.isspace():
            raise ValueError(f"the paths delimiter must be a visible string, got {delimiter!r}")
        return _parse_paths(text, name, file, delimiter)
    if fmt == "tabs":
        return _parse_tabs(text, name, file)
    return _parse_child_parent(text, name, file)


def read_hierarchy(path: str | os.PathLike[str], fmt: str = "paths", delimiter: str = ";",
                   name: str | None = None) -> Tree:
    """One hierarchy file (UTF-8, a BOM tolerated); `name` defaults to the file's stem."""
    _check_format(fmt)
    path = os.fspath(path)
    if name is None:
        name = os.path.splitext(os.path.basename(path))[0]
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        raise HierarchyError(path, "file not found") from None
    except UnicodeDecodeError as e:
        raise HierarchyError(path, f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    return parse_hierarchy(text, name, path, fmt, delimiter)


def read_folder(folder: str | os.PathLike[str], fmt: str = "paths",
                delimiter: str = ";") -> dict[str, Tree]:
    """Every `<column>.txt` of a folder (hidden files skipped), keyed by column name."""
    _check_format(fmt)
    folder = os.fspath(folder)
    if not os.path.isdir(folder):
        raise HierarchyError(folder, "hierarchy folder not found")
    trees: dict[str, Tree] = {}
    for entry in sorted(os.listdir(folder)):
        full = os.path.join(folder, entry)
        if entry.endswith(".txt") and not entry.startswith(".") and os.path.isfile(full):
            trees[entry[:-4]] = read_hierarchy(full, fmt, delimiter, entry[:-4])
    return trees
