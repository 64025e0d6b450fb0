"""Domain generalization hierarchies: parsing and tree queries (depth, leaves, LCA, up).

Two file formats, chosen by `fmt`:
- "tabs" (the default; HANDOUT.md, "Files"): one node per line, depth = number of leading
  tabs, the first non-blank line is the root, a later line is at most one tab deeper than the
  line before it, and its parent is the nearest earlier line one tab shallower. Labels are
  unique per file.
- "child-parent" (the USTC lab's): one `child,parent` pair per line.
- "paths" (the Top-Down Greedy lab's): one `leaf;parent;...;root` line per leaf.
Every way the nodes are numbered in preorder from the root (node 0). The files are read by
kcheck.hierarchies (the standard-library reader the students' self-check ships);
kanon.hierarchy_formats writes them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from kcheck.hierarchies import parse_hierarchy

from .hierarchy_formats import check_format, render_child_parent, render_paths, render_tabs


@dataclass(eq=False)
class DGH:
    """One hierarchy. Nodes are numbered 0..n_nodes-1 in preorder (a tab file's line order);
    node 0 is the root."""

    name: str
    path: str
    labels: list[str]
    parent: np.ndarray  # int64, -1 for the root
    depth: np.ndarray  # int64
    index: dict[str, int] = field(repr=False)
    children: list[list[int]] = field(repr=False)
    leaf_count: np.ndarray = field(repr=False)  # leaves(v): leaves in v's subtree
    ancestors: np.ndarray = field(repr=False)  # [v, d] = ancestor of v at depth d, -1 below v

    @property
    def n_nodes(self) -> int:
        return len(self.labels)

    @property
    def height(self) -> int:
        """Largest leaf depth."""
        return int(self.depth.max())

    @property
    def n_leaves(self) -> int:
        """|A|: the number of leaves of the whole hierarchy."""
        return int(self.leaf_count[0])

    @property
    def root_label(self) -> str:
        return self.labels[0]

    def is_leaf(self, node: int) -> bool:
        return not self.children[node]

    def lm(self, nodes: np.ndarray | int) -> np.ndarray | float:
        """Loss metric of generalized node(s): (leaves(v) - 1) / (|A| - 1), 0 when |A| = 1."""
        if self.n_leaves == 1:
            return np.zeros(np.shape(nodes)) if np.ndim(nodes) else 0.0
        return (self.leaf_count[nodes] - 1) / (self.n_leaves - 1)

    def up(self, nodes: np.ndarray, steps: int) -> np.ndarray:
        """The ancestor `steps` above each node, or the root when there are fewer ancestors."""
        target = np.maximum(self.depth[nodes] - steps, 0)
        return self.ancestors[nodes, target]

    def is_ancestor_or_self(self, ancestor: int, node: int) -> bool:
        d = self.depth[ancestor]
        return bool(d <= self.depth[node] and self.ancestors[node, d] == ancestor)

    def lca(self, nodes: np.ndarray) -> int:
        """The deepest node that is an ancestor-or-self of every given node."""
        nodes = np.unique(np.asarray(nodes))
        if len(nodes) == 1:
            return int(nodes[0])
        paths = self.ancestors[nodes]
        for d in range(int(self.depth[nodes].min()), -1, -1):
            column = paths[:, d]
            if (column == column[0]).all():
                return int(column[0])
        raise AssertionError("a hierarchy has a single root")  # pragma: no cover

    def pairwise_lca(self, nodes: np.ndarray) -> np.ndarray:
        """LCA of every pair of the given nodes, as a len(nodes) x len(nodes) matrix."""
        paths = self.ancestors[nodes]  # (u, h+1)
        result = np.zeros((len(nodes), len(nodes)), dtype=np.int64)  # root
        for d in range(1, self.ancestors.shape[1]):
            column = paths[:, d]
            same = (column[:, None] == column[None, :]) & (column[:, None] >= 0)
            result = np.where(same, column[:, None], result)
        return result


def parse_dgh(text: str, name: str, path: str, fmt: str = "tabs") -> DGH:
    """Parse the text of one hierarchy file in format `fmt` ("tabs", "child-parent" or
    "paths"), read by kcheck (the one reader the grader and the students' self-check share);
    errors (ValueError) name the file and the line number."""
    tree = parse_hierarchy(text, name, path, check_format(fmt))
    return _build(name, path, tree.labels, tree.parent, tree.depth, dict(tree.index))


def _build(name: str, path: str, labels: list[str], parent: list[int], depth: list[int],
           index: dict[str, int]) -> DGH:
    n = len(labels)
    children: list[list[int]] = [[] for _ in range(n)]
    for node in range(1, n):
        children[parent[node]].append(node)
    leaf_count = np.zeros(n, dtype=np.int64)
    for node in range(n - 1, -1, -1):  # children always come after their parent
        leaf_count[node] = leaf_count[node] if children[node] else 1
        if node:
            leaf_count[parent[node]] += leaf_count[node]
    depth_arr = np.asarray(depth, dtype=np.int64)
    ancestors = np.full((n, int(depth_arr.max()) + 1), -1, dtype=np.int64)
    for node in range(n):
        if node:
            ancestors[node] = ancestors[parent[node]]
        ancestors[node, depth[node]] = node
    return DGH(name=name, path=path, labels=labels, parent=np.asarray(parent, dtype=np.int64),
               depth=depth_arr, index=index, children=children, leaf_count=leaf_count,
               ancestors=ancestors)


def read_dgh(path: str, name: str | None = None, fmt: str = "tabs") -> DGH:
    """Read one hierarchy file in format `fmt` (UTF-8, a BOM is tolerated)."""
    check_format(fmt)
    if name is None:
        name = os.path.splitext(os.path.basename(path))[0]
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    return parse_dgh(text, name, path, fmt)


def read_dgh_folder(folder: str, fmt: str = "tabs") -> dict[str, DGH]:
    """Every `<column>.txt` of a folder (all in format `fmt`), keyed by column name."""
    check_format(fmt)
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"DGH folder not found: {folder}")
    result = {}
    for entry in sorted(os.listdir(folder)):
        full = os.path.join(folder, entry)
        if entry.endswith(".txt") and not entry.startswith(".") and os.path.isfile(full):
            result[entry[:-4]] = read_dgh(full, entry[:-4], fmt)
    return result


def render_dgh(dgh: DGH, fmt: str = "tabs") -> str:
    """The text of a hierarchy file in format `fmt`; parse_dgh reads it back to the same
    nodes in the same order."""
    if check_format(fmt) == "child-parent":
        return render_child_parent(dgh.labels, [int(p) for p in dgh.parent], dgh.path)
    if fmt == "paths":
        return render_paths(dgh.labels, [int(p) for p in dgh.parent])
    return render_tabs(dgh.labels, [int(d) for d in dgh.depth])
