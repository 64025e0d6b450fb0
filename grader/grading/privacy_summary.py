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
from kcheck.text import Message

from .compare import CaseData, load_case_data

L_PARTS = ("bottomup_anonymizer", "entropy_l")
"""The parts whose handout sections define l-diversity."""


def shows_l(functions) -> bool:
    """Whether a course grading `functions` shows distinct l in the summary."""
    return any(f in L_PARTS for f in functions)


def summarize(output_bytes: bytes, case: Path | CaseData, suppression: bool = False,
              distinct_l: bool = True) -> str | None:
    """`summarize_message` in English."""
    said = summarize_message(output_bytes, case, suppression, distinct_l)
    return None if said is None else said.english()


def summarize_message(output_bytes: bytes, case: Path | CaseData, suppression: bool = False,
                      distinct_l: bool = True) -> Message | None:
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
            line = summary_message(out.rows, qi_columns, None if sensitive is None
                                   else position[sensitive])
            deleted = len(data.table.rows) - len(out.rows)
            if not suppression or deleted <= 0:
                return line
            return (Message("{summary}, 1 row deleted", summary=line) if deleted == 1 else
                    Message("{summary}, {n} rows deleted", summary=line, n=deleted))
        roots = tuple(d.root_label for d in data.dghs) if suppression else None
        return summary_message(out.rows, qi_columns, _sensitive(data) if distinct_l else None,
                               roots)
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
    return summary_message(rows, qi_columns, sensitive, suppressed).english()


def summary_message(rows: list[list[str]], qi_columns: list[int], sensitive: int | None,
                    suppressed: tuple[str, ...] | None = None) -> Message:
    """`summary_of` as a message (kcheck.text)."""
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
    if len(sizes) == 1:
        line = Message("k reached: {k} (1 class of {size} rows)", k=smallest, size=smallest)
    elif smallest == largest:
        line = Message("k reached: {k} ({classes} classes of {size} rows)", k=smallest,
                       classes=len(sizes), size=smallest)
    else:
        line = Message("k reached: {k} ({classes} classes of {low} to {high} rows)",
                       k=smallest, classes=len(sizes), low=smallest, high=largest)
    if apart:
        line = (Message("{summary}, 1 row suppressed", summary=line) if apart == 1 else
                Message("{summary}, {n} rows suppressed", summary=line, n=apart))
    if sensitive is not None:
        line = Message("{summary}; distinct l: {l}", summary=line,
                       l=min(len(v) for v in values.values()))
    return line
