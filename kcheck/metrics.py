"""Information loss of released cells, records and tables.

NCP (Xu et al., KDD 2006), as the TDG lab's contract states it: a numeric cell [lo-hi] costs
(hi - lo) / (max - min of the column over the whole raw table), 0 when that span is 0 (a
plain number costs 0); a node u costs leaves(u) / leaves(root), a leaf 0. A record's NCP is
the sum over its QIs, a table's the sum over its records.
LM (cost_LM's): a node costs (leaves(u) - 1) / (leaves(root) - 1), a range as its NCP;
a record's LM is the mean over its QIs, a table's the sum over its records.
"""
from __future__ import annotations

from collections.abc import Sequence

from .cells import Column, Parsed

__all__ = ["METRICS", "cell_cost", "record_cost", "table_cost"]

METRICS = ("ncp", "lm")


def _check(metric: str) -> str:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r} (choose one of: {', '.join(METRICS)})")
    return metric


def cell_cost(column: Column, parsed: Parsed, metric: str = "ncp") -> float:
    """The cost of one parsed cell (kcheck.cells)."""
    return column.ncp(parsed) if _check(metric) == "ncp" else column.lm(parsed)


def record_cost(columns: Sequence[Column], cells: Sequence[Parsed], metric: str = "ncp") -> float:
    """The cost of one record: its QI cells, one per column, summed (NCP) or averaged (LM)."""
    total = sum(cell_cost(c, p, metric) for c, p in zip(columns, cells, strict=True))
    return total if metric == "ncp" or not columns else total / len(columns)


def table_cost(columns: Sequence[Column], records: Sequence[Sequence[str]],
               metric: str = "ncp") -> float:
    """The cost of a table given as rows of QI cell strings (one per column, in `columns`'
    order). Each distinct cell is parsed once; a cell that does not parse is a ValueError
    naming the data row and column (covering is not checked here: kcheck.quality does)."""
    _check(metric)
    costs: list[dict[str, float]] = [{} for _ in columns]
    total = 0.0
    for row, record in enumerate(records, start=1):
        record_total = 0.0
        for column, cache, cell in zip(columns, costs, record, strict=True):
            cost = cache.get(cell)
            if cost is None:
                parsed = column.parse(cell)
                if isinstance(parsed, str):
                    raise ValueError(f"data row {row}, column {column.name!r}: {cell!r} is not "
                                     "a cell of the column")
                cost = cache[cell] = cell_cost(column, parsed, metric)
            record_total += cost
        total += record_total if metric == "ncp" or not columns else record_total / len(columns)
    return total
