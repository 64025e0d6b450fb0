"""A one-line privacy summary of an anonymizer's output, for the student's feedback
(issue 12, item 5). It never changes a score: grade.py records it next to the verdict.

    k reached: 4 (812 classes of 4 to 31 rows); distinct l: 2
    k reached: 5 (40 classes of 5 to 90 rows), 3 rows suppressed; distinct l: 2   (Samarati)

k reached is the size of the smallest equivalence class (rows with identical QI cells, the
QIs being the case's columns with a hierarchy); distinct l is the smallest number of distinct
values of the sensitive column (the single non-QI column) in a class, left out when the
dataset has no single sensitive column or the course grades no part about l-diversity
(L_PARTS: its students never met l). Only counts are shown, never a cell value, so the
line is safe for hidden cases. The function only reads data (compare.load_case_data,
compare.parse_table); it never runs the reference's algorithms and never raises.
"""
from __future__ import annotations

from pathlib import Path

from kanon.table import parse_table

from .compare import CaseData, load_case_data

L_PARTS = ("bottomup_anonymizer", "entropy_l")
"""The parts whose handout sections define l-diversity."""


def shows_l(functions) -> bool:
    """Whether a course grading `functions` shows distinct l in the summary."""
    return any(f in L_PARTS for f in functions)


def summarize(output_bytes: bytes, case: Path | CaseData, suppression: bool = False,
              distinct_l: bool = True) -> str | None:
    """The summary line of one output file's bytes on a case (its CaseData, or the folder
    that holds adult-hw1.csv and DGHs/); None when the output is not a readable table with
    the released columns and at least one data row, or the case's data cannot be read. With
    `suppression` (Samarati), the rows whose QIs are all at the DGH root are suppressed: they
    are counted apart, not as an EC (unless every row is suppressed); where the course deletes
    suppressed rows, the missing rows are counted as deleted."""
    try:
        data = case if isinstance(case, CaseData) else load_case_data(Path(case))
        out = parse_table(output_bytes)
        released = data.released_columns()
        if out.header != [data.table.header[c] for c in released] or not out.rows:
            return None
        position = {c: i for i, c in enumerate(released)}
        qi_columns = [position[c] for c in data.qi_columns]
        if data.schema.suppression == "delete":
            sensitive = data.table.header.index(data.schema.sensitive) if distinct_l else None
            line = summary_of(out.rows, qi_columns, None if sensitive is None
                              else position[sensitive])
            deleted = len(data.table.rows) - len(out.rows)
            return line + (f", {deleted} row{'' if deleted == 1 else 's'} deleted"
                           if suppression and deleted > 0 else "")
        roots = tuple(d.root_label for d in data.dghs) if suppression else None
        return summary_of(out.rows, qi_columns, _sensitive(data) if distinct_l else None, roots)
    except Exception:  # noqa: BLE001 -- a summary is optional; a bad output has a verdict
        return None


def _sensitive(data: CaseData) -> int | None:
    """The case's sensitive column for the summary's distinct l; None (no l in the line)
    when the dataset has no single one (CaseData.sensitive_column raises)."""
    try:
        return data.sensitive_column()
    except ValueError:
        return None


def summary_of(rows: list[list[str]], qi_columns: list[int], sensitive: int | None,
               suppressed: tuple[str, ...] | None = None) -> str:
    """The summary line of parsed rows (each as long as the header); `suppressed` is the QI
    cells of a suppressed row, whose rows are counted apart."""
    sizes: dict[tuple[str, ...], int] = {}
    values: dict[tuple[str, ...], set[str]] = {}
    for row in rows:
        key = tuple(row[c] for c in qi_columns)
        sizes[key] = sizes.get(key, 0) + 1
        if sensitive is not None:
            values.setdefault(key, set()).add(row[sensitive])
    apart = 0
    if suppressed in sizes and len(sizes) > 1:
        apart = sizes.pop(suppressed)
        values.pop(suppressed, None)
    smallest, largest = min(sizes.values()), max(sizes.values())
    count = f"{len(sizes)} class{'' if len(sizes) == 1 else 'es'}"
    span = f"{smallest}" if smallest == largest else f"{smallest} to {largest}"
    line = f"k reached: {smallest} ({count} of {span} rows)"
    if apart:
        line += f", {apart} row{'' if apart == 1 else 's'} suppressed"
    if sensitive is not None:
        line += f"; distinct l: {min(len(v) for v in values.values())}"
    return line
