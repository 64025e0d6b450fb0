"""Judging a mondrian output by the handout's rules (the dimension of each cut is free, so
several outputs are right). Standard library only.

Every record is released, so output rows align 1:1 with raw rows. A QI is numeric when every
raw value parses as a number; its cells are `[lo-hi]` (the raw spellings of the class's
smallest and largest value), or the value when they are equal; a categorical QI's cells are
the lowest common ancestor (LCA) of the class's values. Classes are the groups of rows with
identical QI cells, named by their first row (data rows counted from 1).

Rules, in the order reported (as the grader names them): columns (header, row count,
sensitive cells copied), cover (each QI cell covers its raw value), exact (cells are the
class's [min-max] / LCA), k (every class has at least k rows), median-cuts (the classes are
the leaves of a tree of allowable strict median cuts from the whole table: numeric, lhs = the
values <= the element at position (|P|-1)//2 of P's sorted values; categorical, the children
of LCA_P, no value equal to LCA_P; every side at least k rows), final (no class admits an
allowable cut on any QI).
"""
from __future__ import annotations

from collections import Counter

from messages import _

Rows = list[list[str]]
Hierarchy = dict[str, "str | None"]
BUDGET = 10_000  # partitions the tree search meets before giving up (plus ten per class)


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value - value == 0 else None  # finite


def _interval(cell: str) -> tuple[float, float] | None:
    if len(cell) < 5 or cell[0] != "[" or cell[-1] != "]":
        return None
    inner = cell[1:-1]
    for cut in range(1, len(inner)):
        if inner[cut] == "-":
            low, high = _number(inner[:cut]), _number(inner[cut + 1:])
            if low is not None and high is not None:
                return low, high
    return None


def _path(parent: Hierarchy, label: str) -> list[str]:
    """The labels from the root down to `label`."""
    path = [label]
    while parent.get(path[-1]) is not None:
        path.append(parent[path[-1]])
    return path[::-1]


def _lca(parent: Hierarchy, labels) -> str:
    paths = [_path(parent, x) for x in set(labels)]
    depth = 0
    while all(len(p) > depth + 1 for p in paths) and len({p[depth + 1] for p in paths}) == 1:
        depth += 1
    return paths[0][depth]


class Qi:
    """One QI's raw values, numeric (values) or categorical (hierarchy)."""

    def __init__(self, name: str, raw: list[str], parent: Hierarchy):
        self.name, self.raw, self.parent = name, raw, parent
        numbers = {v: _number(v) for v in set(raw)}
        spelled: dict[float, str] = {}
        self.numeric = all(n is not None and spelled.setdefault(n, v) == v
                           for v, n in numbers.items())
        self.value = [numbers[v] for v in raw] if self.numeric else None
        self.spelling = spelled
        self.children: dict[str, list[str]] = {}
        for child, up in parent.items():
            if up is not None:
                self.children.setdefault(up, []).append(child)

    def covers(self, raw: str, cell: str) -> bool:
        if cell in self.parent:
            return raw in _path(self.parent, raw) and cell in _path(self.parent, raw)
        bounds = _interval(cell)
        return bool(self.numeric and bounds and bounds[0] < bounds[1]
                    and bounds[0] <= float(raw) <= bounds[1])

    def child_towards(self, node: str, label: str) -> str | None:
        path = _path(self.parent, label)
        at = path.index(node)
        return path[at + 1] if at + 1 < len(path) else None


class Classes:
    """The output's classes (ids in order of first row) with their rows."""

    def __init__(self, qis: list[Qi], keys: list[tuple], k: int):
        self.qis, self.k = qis, k
        ids: dict[tuple, int] = {}
        self.members: list[list[int]] = []
        for i, key in enumerate(keys):
            c = ids.setdefault(key, len(ids))
            if c == len(self.members):
                self.members.append([])
            self.members[c].append(i)
        self.counts = [[Counter(q.value[i] if q.numeric else q.raw[i] for i in rows)
                        for q in qis] for rows in self.members]
        self.lca = [[None if q.numeric else _lca(q.parent, self.counts[c][j])
                     for j, q in enumerate(qis)] for c in range(len(self.members))]

    def size(self, part) -> int:
        return sum(len(self.members[c]) for c in part)

    def cut(self, part: tuple[int, ...], j: int) -> list[tuple[int, ...]] | None:
        """The parts of the allowable cut of QI j that keeps every class whole, or None."""
        qi = self.qis[j]
        if qi.numeric:
            merged = Counter()
            for c in part:
                merged.update(self.counts[c][j])
            if len(merged) < 2:
                return None
            middle, seen = (sum(merged.values()) - 1) // 2, 0
            for split in sorted(merged):
                seen += merged[split]
                if seen > middle:
                    break
            left = tuple(c for c in part if max(self.counts[c][j]) <= split)
            right = tuple(c for c in part if min(self.counts[c][j]) > split)
            if len(left) + len(right) < len(part):
                return None
            groups = [left, right]
        else:
            node = _lca(qi.parent, [self.lca[c][j] for c in part])
            if any(self.lca[c][j] == node for c in part):
                return None
            by_child: dict[str, list[int]] = {}
            for c in part:
                by_child.setdefault(qi.child_towards(node, self.lca[c][j]), []).append(c)
            groups = [tuple(g) for g in by_child.values()]
        if len(groups) < 2 or min(self.size(g) for g in groups) < self.k:
            return None
        return groups

    def admits_cut(self, c: int, j: int) -> bool:
        """Whether class c alone admits an allowable cut on QI j."""
        qi, counts, k = self.qis[j], self.counts[c][j], self.k
        if qi.numeric:
            values = sorted(counts.elements())
            split = values[(len(values) - 1) // 2]
            left = sum(n for v, n in counts.items() if v <= split)
            return left >= k and len(values) - left >= k
        node = self.lca[c][j]
        if node in counts:
            return False
        groups = Counter()
        for label, n in counts.items():
            groups[qi.child_towards(node, label)] += n
        return len(groups) >= 2 and min(groups.values()) >= k


def _rows(numbers: list[int]) -> str:
    return _(", ").join(map(str, numbers[:3])) + (_(", ...") if len(numbers) > 3 else "")


def _tree(classes: Classes) -> tuple[int, ...] | None:
    """None when the classes are the leaves of a tree of allowable cuts, else the first
    partition met that has no such cut (every class when the search gives up)."""
    memo: dict[tuple[int, ...], bool] = {}
    dead: list[tuple[int, ...]] = []
    budget = BUDGET + 10 * len(classes.members)

    def tree(part: tuple[int, ...]) -> bool:
        if len(part) == 1:
            return True
        if part in memo:
            return memo[part]
        if len(memo) >= budget:
            raise OverflowError
        memo[part] = False
        any_cut = False
        for j in range(len(classes.qis)):
            groups = classes.cut(part, j)
            if groups is not None:
                any_cut = True
                if all(tree(g) for g in groups):
                    memo[part] = True
                    return True
        if not any_cut and not dead:
            dead.append(part)
        return False

    everything = tuple(range(len(classes.members)))
    try:
        return None if tree(everything) else (dead[0] if dead else everything)
    except (OverflowError, RecursionError):
        return everything


def check(case, header: list[str], raw: Rows, dghs: dict[str, Hierarchy],
          out_header: list[str], out: Rows) -> list[tuple[str, str]]:
    """The broken rules of a mondrian output for a public case, [] for a right answer."""
    expected = list(case.columns)
    if out_header != expected:
        return [("columns", _("the header is {got}, but the released columns are {expected} "
                              "(in the raw file's order)").format(got=out_header,
                                                                 expected=expected))]
    if len(out) != len(raw):
        return [("columns", _("the output has {m} data rows, but the raw file has {n} and "
                              "every record is released").format(m=len(out), n=len(raw)))]
    broken = []
    for p, name in enumerate(expected):
        if name in case.qis:
            continue
        c = header.index(name)
        bad = next((i for i, (o, r) in enumerate(zip(out, raw)) if o[p] != r[c]), None)
        if bad is not None:
            broken.append(("columns", _("data row {row}, column {column!r}: the cell {cell!r} "
                                        "differs from the raw one {raw!r}").format(
                row=bad + 1, column=name, cell=out[bad][p], raw=raw[bad][c])))
            break
    qis = [Qi(q, [row[header.index(q)] for row in raw], dghs[q]) for q in case.qis]
    where = [expected.index(q) for q in case.qis]
    for i, (o, r) in enumerate(zip(out, raw)):
        bad = next((j for j, q in enumerate(qis) if not q.covers(q.raw[i], o[where[j]])), None)
        if bad is not None:
            broken.append(("cover", _uncovered(i + 1, qis[bad], o[where[bad]], qis[bad].raw[i])))
            break
    if not raw:
        return broken
    classes = Classes(qis, [tuple(o[p] for p in where) for o in out], case.k)
    broken += _class_rules(classes, out, where)
    return broken


def _uncovered(row: int, qi: Qi, cell: str, raw: str) -> str:
    """Why `cell` does not cover `raw`: an interval [v-v] (min = max keeps the raw value),
    or any other cell."""
    bounds = _interval(cell)
    if qi.numeric and bounds and bounds[0] == bounds[1]:
        return _("data row {row}, column {column!r}: the cell {cell!r} is an interval with lo = "
                 "hi, but an interval needs lo < hi: where the smallest and largest values "
                 "are equal, the cell keeps the raw value {raw!r}").format(
            row=row, column=qi.name, cell=cell, raw=raw)
    return _("data row {row}, column {column!r}: the cell {cell!r} does not cover the raw "
             "value {raw!r}").format(row=row, column=qi.name, cell=cell, raw=raw)


def _class_rules(classes: Classes, out: Rows, where: list[int]) -> list[tuple[str, str]]:
    broken, k = [], classes.k
    for c, rows in enumerate(classes.members):
        first = rows[0]
        for j, qi in enumerate(classes.qis):
            if qi.numeric:
                low, high = min(classes.counts[c][j]), max(classes.counts[c][j])
                want = qi.spelling[low] if low == high else \
                    f"[{qi.spelling[low]}-{qi.spelling[high]}]"
            else:
                want = classes.lca[c][j]
            if out[first][where[j]] != want:
                broken.append(("exact", _("the class of data row {row} ({size} rows), column "
                                          "{column!r}: the cell is {cell!r}, but the class's "
                                          "[min-max] range or lowest common ancestor is "
                                          "{expected!r}").format(
                    row=first + 1, size=len(rows), column=qi.name, cell=out[first][where[j]],
                    expected=want)))
                break
        else:
            continue
        break
    small = next((rows for rows in classes.members if len(rows) < k), None)
    if small is not None:
        broken.append(("k", _("the class of data row {row} has {size} row(s) (data rows "
                              "{rows}), fewer than k = {k}").format(
            row=small[0] + 1, size=len(small), rows=_rows([i + 1 for i in small]), k=k)))
    else:
        dead = _tree(classes)
        if dead is not None:
            firsts = [classes.members[c][0] + 1 for c in dead]
            broken.append(("median-cuts", _(
                "the classes are not the leaves of a tree of strict median cuts: the "
                "partition of the classes of data rows {rows} ({size} rows) has no allowable "
                "cut on any QI that keeps every class whole").format(
                rows=_rows(firsts), size=classes.size(dead))))
    final = next(((c, j) for c in range(len(classes.members))
                  for j in range(len(classes.qis)) if classes.admits_cut(c, j)), None)
    if final is not None:
        c, j = final
        broken.append(("final", _(
            "the class of data row {row} ({size} rows) still admits an allowable cut on "
            "column {column!r} (every part would keep at least k = {k} rows), so Mondrian "
            "would have cut it").format(row=classes.members[c][0] + 1,
                                        size=len(classes.members[c]),
                                        column=classes.qis[j].name, k=k)))
    return broken
