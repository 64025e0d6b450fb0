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
verdicts. Each distinct cell string is parsed once per column, each distinct (cell, raw)
pair checked once.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cells import Column, make_columns
from .hierarchies import Tree
from .metrics import METRICS
from .tables import Table, TableError, read_table
from .verdicts import Verdict, passed, wrong

__all__ = ["Facts", "Judgement", "judge_quality"]


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


def _expected_header(raw: Table, qis: Sequence[str], released: Iterable[str]) -> list[str]:
    released = set(released)
    unknown = sorted(released - set(raw.header))
    if unknown:
        raise ValueError(f"{raw.name}: released columns {unknown} are not raw columns")
    hidden_qis = [q for q in qis if q not in released]
    if hidden_qis:
        raise ValueError(f"QIs {hidden_qis} are not released")
    return [name for name in raw.header if name in released]


def _columns_verdict(found: list[str], expected: list[str]) -> Verdict:
    at = next((i for i, (a, b) in enumerate(zip(found, expected)) if a != b),
              min(len(found), len(expected)))
    column = expected[at] if at < len(expected) else None  # never the student's text
    return wrong("quality.columns", column=column, found=found, expected=expected)


def _first_cell_failure(out: Table, raw: Table, header: list[str],
                        columns: dict[str, Column]) -> Verdict | None:
    """The first cell (by row, then column) that does not parse, cover or copy."""
    first: tuple[int, int, Verdict] | None = None
    for position, name in enumerate(header):
        o, r = out.header.index(name), raw.header.index(name)
        pairs = {(orow[o], rrow[r]) for orow, rrow in zip(out.rows, raw.rows)}
        column = columns.get(name)
        bad: dict[tuple[str, str], Verdict] = {}
        if column is None:
            for cell, value in pairs:
                if cell != value:
                    bad[cell, value] = wrong("quality.copy", column=name, cell=cell, raw=value)
        else:
            parsed_of: dict[str, object] = {}
            raw_of: dict[str, object] = {}
            for cell, value in pairs:
                parsed = parsed_of.get(cell)
                if parsed is None:
                    parsed = parsed_of[cell] = column.parse(cell)
                if isinstance(parsed, str):
                    bad[cell, value] = wrong("quality.cell", column=name, detail=parsed, cell=cell)
                    continue
                raw_value = raw_of.get(value)
                if raw_value is None:
                    raw_value = raw_of[value] = column.raw(value)
                if not column.covers(parsed, raw_value):  # type: ignore[arg-type]
                    bad[cell, value] = wrong("quality.cover", column=name, cell=cell, raw=value)
        if not bad:
            continue
        limit = len(out.rows) if first is None else first[0] + 1
        for i in range(limit):
            verdict = bad.get((out.rows[i][o], raw.rows[i][r]))
            if verdict is not None:
                if first is None or (i, position) < first[:2]:
                    first = (i, position, verdict)
                break
    if first is None:
        return None
    i, _, verdict = first
    return Verdict(verdict.status, verdict.rule, i + 1, verdict.column, verdict.params,
                   verdict.detail)


def judge_quality(raw: Table | str | os.PathLike[str] | bytes, hierarchies: dict[str, Tree],
                  output: Table | str | os.PathLike[str] | bytes, *, k: int,
                  qis: Sequence[str], numeric: Iterable[str], released: Iterable[str],
                  band_max: float | None = None, metric: str = "ncp") -> Judgement:
    """Judge `output` (a Table, a path or the file's bytes) against the `raw` table: the
    module docstring's rules in order. `qis` are the QI column names, `numeric` those of them
    without a hierarchy (numbers and ranges), `released` the columns an output holds (a set:
    their order is the raw table's); `hierarchies` maps each other QI to its Tree."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an integer of at least 1, got {k!r}")
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r} (choose one of: {', '.join(METRICS)})")
    raw = raw if isinstance(raw, Table) else read_table(raw, None)
    qis = list(qis)
    header = _expected_header(raw, qis, released)
    columns = make_columns(raw.header, raw.rows, hierarchies, qis, numeric, raw.name)
    no_facts = Facts(metric=metric)

    if not isinstance(output, Table):
        try:
            output = read_table(output, "output")
        except TableError as e:
            params = dict(e.facts)
            if e.kind == "duplicate":
                params["name"] = e.column
            return Judgement(wrong("quality.file", row=e.row, detail=e.kind, **params),
                             no_facts)
    out = output
    if out.header != header:
        return Judgement(_columns_verdict(out.header, header), no_facts)
    if len(out.rows) != len(raw.rows):
        return Judgement(wrong("quality.rows", found=len(out.rows), expected=len(raw.rows)),
                         no_facts)
    failure = _first_cell_failure(out, raw, header, columns)
    if failure is not None:
        return Judgement(failure, no_facts)

    # classes: numbered by their first row
    qi_out = [out.header.index(q) for q in qis]
    qi_raw = [raw.header.index(q) for q in qis]
    class_of: dict[tuple[str, ...], int] = {}
    class_of_row = [class_of.setdefault(tuple(row[c] for c in qi_out), len(class_of))
                    for row in out.rows]
    keys = list(class_of)
    sizes = [0] * len(keys)
    first_row = [-1] * len(keys)
    for i, c in enumerate(class_of_row):
        if first_row[c] < 0:
            first_row[c] = i
        sizes[c] += 1

    parsed_keys: list[list[object]] = [[] for _ in keys]
    cost_of_cell: list[dict[str, float]] = []
    for j, q in enumerate(qis):
        column = columns[q]
        cache: dict[str, object] = {}
        costs: dict[str, float] = {}
        for c, key in enumerate(keys):
            cell = key[j]
            parsed = cache.get(cell)
            if parsed is None:
                parsed = cache[cell] = column.parse(cell)
                costs[cell] = column.ncp(parsed) if metric == "ncp" else \
                    column.lm(parsed)  # type: ignore[arg-type]
            parsed_keys[c].append(parsed)
        cost_of_cell.append(costs)
    total = 0.0
    for c, key in enumerate(keys):
        record = sum(costs[cell] for costs, cell in zip(cost_of_cell, key))
        if metric == "lm" and qis:
            record /= len(qis)
        total += sizes[c] * record
    facts = Facts(classes=len(keys), smallest=min(sizes, default=0), cost=total, metric=metric)

    bad_middle: tuple[int, int, object] | None = None  # (class, QI position, middle)
    for j, q in enumerate(qis):
        column = columns[q]
        at = qi_raw[j]
        values: list[set] = [set() for _ in keys]
        raw_of: dict[str, object] = {}
        for c, row in zip(class_of_row, raw.rows):
            value = row[at]
            parsed_raw = raw_of.get(value)
            if parsed_raw is None:
                parsed_raw = raw_of[value] = column.raw(value)
            values[c].add(parsed_raw)
        for c in range(len(keys)):
            if bad_middle is not None and (c, j) >= bad_middle[:2]:
                break
            middle = column.middle(values[c])  # type: ignore[arg-type]
            if middle != parsed_keys[c][j]:
                bad_middle = (c, j, middle)
                break
    if bad_middle is not None:
        c, j, middle = bad_middle
        column = columns[qis[j]]
        return Judgement(wrong("quality.middle", row=first_row[c] + 1, column=qis[j],
                               cell=keys[c][j], middle=column.text(middle),  # type: ignore
                               size=sizes[c]), facts)
    small = next((c for c in range(len(keys)) if sizes[c] < k), None)
    if small is not None:
        return Judgement(wrong("quality.k", row=first_row[small] + 1, size=sizes[small], k=k),
                         facts)
    if band_max is not None and total > band_max:
        return Judgement(wrong("quality.utility", metric=metric.upper(), cost=total,
                               band_max=float(band_max)), facts)
    return Judgement(passed(), facts)
