"""Judging an anonymized table whose right answers differ (a heuristic's output).

`judge_quality` checks, in this order, and reports the first rule broken:
1. quality.file: the output is a readable CSV table (kcheck.tables);
2. quality.columns: its columns are exactly `released`, in the raw table's order;
3. quality.rows: it has as many data rows as the raw table (row i releases raw row i);
4. quality.cell / quality.copy / quality.cover: every QI cell parses (kcheck.cells) and
   covers its raw value, every other released cell equals its raw value; the first failure
   by row, then by column (in the output's column order);
5. quality.middle: every equivalence class (the records with identical QI cells) holds, in
   each QI, exactly its class's middle (the range/value of its raw values, or their lowest
   common ancestor); the first class by its first row, then by QI order;
6. quality.k: every class has at least k records (the first such class by its first row);
7. quality.utility: the table's cost (kcheck.metrics) is at most `band_max`, when given.
The row of a class verdict is the class's first row. Staff errors (a raw table without a QI,
a raw value that is not a label or not a number, a bad parameter) are ValueErrors, never
verdicts. The raw side (`prepare_raw`) is prepared once and may be reused for many outputs;
each distinct cell string is parsed once per column, each distinct (cell, raw) pair checked
once.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cells import Column, make_columns
from .hierarchies import Tree
from .metrics import METRICS
from .tables import Table, TableError, read_table
from .verdicts import Verdict, passed, wrong

__all__ = ["Facts", "Judgement", "RawCase", "prepare_raw", "judge_prepared", "judge_quality"]


@dataclass(frozen=True)
class Facts:
    """What was measured (None when the output broke a rule before it could be): the number
    of classes, the smallest class's size and the table's cost in `metric`. For display on
    public cases only (kcheck.messages.render_facts)."""

    classes: int | None = None
    smallest: int | None = None
    cost: float | None = None
    metric: str = "ncp"


@dataclass(frozen=True)
class Judgement:
    """A verdict and the facts measured on the way."""

    verdict: Verdict
    facts: Facts

    def __iter__(self):  # verdict, facts = judge_quality(...)
        return iter((self.verdict, self.facts))


@dataclass(frozen=True)
class RawCase:
    """The raw side of a judgement (`prepare_raw`): the raw table, its QIs and their columns
    (kcheck.cells), the released header (raw order), each released column's raw cells and
    each QI's parsed raw values, row by row."""

    raw: Table
    qis: list[str]
    columns: dict[str, Column]
    header: list[str]
    cells: dict[str, tuple[str, ...]]
    values: dict[str, list[Any]]
    lookup: dict[str, dict[str, Any]]  # QI -> raw string -> parsed raw value


def prepare_raw(raw: Table | str | os.PathLike[str] | bytes, hierarchies: dict[str, Tree], *,
                qis: Sequence[str], numeric: Iterable[str], released: Iterable[str]) -> RawCase:
    """Read and check the raw side once (staff errors are ValueErrors naming the table, the
    data row and the column): `qis` are the QI column names, `numeric` those of them without
    a hierarchy, `released` the columns an output holds (a set: their order is the raw
    table's); `hierarchies` maps each other QI to its Tree."""
    raw = raw if isinstance(raw, Table) else read_table(raw, None)
    qis = list(qis)
    if len(set(qis)) != len(qis):
        raise ValueError(f"a QI is named twice in {qis}")
    released = set(released)
    unknown = sorted(released - set(raw.header))
    if unknown:
        raise ValueError(f"{raw.name}: released columns {unknown} are not raw columns")
    hidden_qis = [q for q in qis if q not in released]
    if hidden_qis:
        raise ValueError(f"QIs {hidden_qis} are not released")
    header = [name for name in raw.header if name in released]
    columns = make_columns(raw.header, raw.rows, hierarchies, qis, numeric, raw.name)
    by_column = list(zip(*raw.rows)) if raw.rows else [() for _ in raw.header]
    cells = {name: by_column[raw.header.index(name)] for name in header}
    lookup = {q: {v: columns[q].raw(v) for v in set(cells[q])} for q in qis}
    values = {q: list(map(lookup[q].__getitem__, cells[q])) for q in qis}
    return RawCase(raw, qis, columns, header, cells, values, lookup)


def _columns_verdict(found: list[str], expected: list[str]) -> Verdict:
    at = next((i for i, (a, b) in enumerate(zip(found, expected)) if a != b),
              min(len(found), len(expected)))
    column = expected[at] if at < len(expected) else None  # never the student's text
    return wrong("quality.columns", column=column, found=found, expected=expected)


def _bad_pairs(case: RawCase, name: str, cells: tuple[str, ...]) -> dict[tuple[str, str], Verdict]:
    """The distinct (cell, raw) pairs of one column that break a rule, with their verdicts."""
    raw_cells = case.cells[name]
    bad: dict[tuple[str, str], Verdict] = {}
    column = case.columns.get(name)
    if column is None:
        for cell, value in set(zip(cells, raw_cells)):
            if cell != value:
                bad[cell, value] = wrong("quality.copy", column=name, cell=cell, raw=value)
        return bad
    lookup = case.lookup[name]
    parsed_of = {cell: column.parse(cell) for cell in set(cells)}
    for cell, value in set(zip(cells, raw_cells)):
        parsed = parsed_of[cell]
        if isinstance(parsed, str):
            bad[cell, value] = wrong("quality.cell", column=name, detail=parsed, cell=cell)
        elif not column.covers(parsed, lookup[value]):
            bad[cell, value] = wrong("quality.cover", column=name, cell=cell, raw=value)
    return bad


def _first_cell_failure(case: RawCase, out_cells: dict[str, tuple[str, ...]]) -> Verdict | None:
    """The first cell (by row, then column) that does not parse, cover or copy."""
    first: tuple[int, int, Verdict] | None = None
    for position, name in enumerate(case.header):
        cells, raw_cells = out_cells[name], case.cells[name]
        bad = _bad_pairs(case, name, cells)
        if not bad:
            continue
        limit = len(cells) if first is None else first[0] + 1
        for i in range(limit):
            verdict = bad.get((cells[i], raw_cells[i]))
            if verdict is not None:
                if first is None or (i, position) < first[:2]:
                    first = (i, position, verdict)
                break
    if first is None:
        return None
    i, _, verdict = first
    return Verdict(verdict.status, verdict.rule, i + 1, verdict.column, verdict.params,
                   verdict.detail)


def _read_output(output: Table | str | os.PathLike[str] | bytes) -> Table | Verdict:
    if isinstance(output, Table):  # made by the caller: rows of the header's width only
        width = len(output.header)
        short = next((i for i, row in enumerate(output.rows) if len(row) != width), None)
        if short is None:
            return output
        return wrong("quality.file", row=short + 1, detail="width",
                     cells=len(output.rows[short]), columns=width)
    try:
        return read_table(output, "output")
    except TableError as e:
        params = dict(e.facts)
        if e.kind == "duplicate":
            params["name"] = e.column
        return wrong("quality.file", row=e.row, detail=e.kind, **params)


def judge_prepared(case: RawCase, output: Table | str | os.PathLike[str] | bytes, *, k: int,
                   band_max: float | None = None, metric: str = "ncp") -> Judgement:
    """Judge `output` (a Table, a path or the file's bytes) against a prepared raw side:
    the module docstring's rules in order."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an integer of at least 1, got {k!r}")
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r} (choose one of: {', '.join(METRICS)})")
    no_facts = Facts(metric=metric)
    out = _read_output(output)
    if isinstance(out, Verdict):
        return Judgement(out, no_facts)
    if out.header != case.header:
        return Judgement(_columns_verdict(out.header, case.header), no_facts)
    n = len(case.raw.rows)
    if len(out.rows) != n:
        return Judgement(wrong("quality.rows", found=len(out.rows), expected=n), no_facts)
    by_column = list(zip(*out.rows)) if out.rows else [() for _ in out.header]
    out_cells = dict(zip(out.header, by_column))
    failure = _first_cell_failure(case, out_cells)
    if failure is not None:
        return Judgement(failure, no_facts)

    qis, columns = case.qis, case.columns
    class_of: dict[tuple[str, ...], int] = {}  # classes numbered by their first row
    class_of_row = [class_of.setdefault(key, len(class_of))
                    for key in zip(*(out_cells[q] for q in qis))]
    keys = list(class_of)
    counts = Counter(class_of_row)
    sizes = [counts[c] for c in range(len(keys))]
    first = dict(zip(reversed(class_of_row), range(n - 1, -1, -1)))
    first_row = [first[c] for c in range(len(keys))]

    parsed_cells: list[dict[str, Any]] = []
    record_costs = [0.0] * len(keys)
    for j, q in enumerate(qis):
        column = columns[q]
        parsed = {cell: column.parse(cell) for cell in set(key[j] for key in keys)}
        cost = {cell: column.ncp(p) if metric == "ncp" else column.lm(p)
                for cell, p in parsed.items()}
        parsed_cells.append(parsed)
        for c, key in enumerate(keys):
            record_costs[c] += cost[key[j]]
    per_record = 1 / len(qis) if metric == "lm" and qis else 1.0
    total = sum(size * cost for size, cost in zip(sizes, record_costs)) * per_record
    facts = Facts(classes=len(keys), smallest=min(sizes, default=0), cost=total, metric=metric)

    bad_middle: tuple[int, int, Any] | None = None  # (class, QI position, its middle)
    for j, q in enumerate(qis):
        column = columns[q]
        values: list[list[Any]] = [[] for _ in keys]
        for c, value in set(zip(class_of_row, case.values[q])):
            values[c].append(value)
        parsed = parsed_cells[j]
        end = len(keys) if bad_middle is None else bad_middle[0] + 1
        for c in range(end):
            middle = column.middle(values[c])
            if middle != parsed[keys[c][j]]:
                if bad_middle is None or (c, j) < bad_middle[:2]:
                    bad_middle = (c, j, middle)
                break
    if bad_middle is not None:
        c, j, middle = bad_middle
        return Judgement(wrong("quality.middle", row=first_row[c] + 1, column=qis[j],
                               cell=keys[c][j], middle=columns[qis[j]].text(middle),
                               size=sizes[c]), facts)
    small = next((c for c in range(len(keys)) if sizes[c] < k), None)
    if small is not None:
        return Judgement(wrong("quality.k", row=first_row[small] + 1, size=sizes[small], k=k),
                         facts)
    if band_max is not None and total > band_max:
        return Judgement(wrong("quality.utility", metric=metric.upper(), cost=total,
                               band_max=float(band_max)), facts)
    return Judgement(passed(), facts)


def judge_quality(raw: Table | str | os.PathLike[str] | bytes, hierarchies: dict[str, Tree],
                  output: Table | str | os.PathLike[str] | bytes, *, k: int,
                  qis: Sequence[str], numeric: Iterable[str], released: Iterable[str],
                  band_max: float | None = None, metric: str = "ncp") -> Judgement:
    """`prepare_raw` then `judge_prepared`: judge `output` (a Table, a path or the file's
    bytes) against the `raw` table (a Table, a path or bytes)."""
    case = prepare_raw(raw, hierarchies, qis=qis, numeric=numeric, released=released)
    return judge_prepared(case, output, k=k, band_max=band_max, metric=metric)
