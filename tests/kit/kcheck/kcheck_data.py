"""The hand-made example the kcheck tests share: six patients, one numeric QI (age, no
hierarchy), one categorical QI (job, a ';' paths hierarchy), a sensitive column (disease)
and a column that is not released (name)."""
from __future__ import annotations

import csv
import io

from kcheck import Judgement, Table, Tree, judge_quality, parse_hierarchy, parse_table

JOB_PATHS = """Nurse;Health;*
Doctor;Health;*
Clerk;Office;*
Lawyer;Office;*
Artist;*
"""
RAW_CSV = """name,age,job,disease
Ann,23,Nurse,Flu
Bob,27,Doctor,Cold
Cid,25,Clerk,Flu
Dee,41,Lawyer,Asthma
Eve,45,Clerk,Cold
Fay,52,Artist,Flu
"""
# A valid 2-anonymous release: {Ann, Bob}, {Cid, Eve}, {Dee, Fay}, each at its middle.
GOOD_ROWS = [["[23-27]", "Health", "Flu"],
             ["[23-27]", "Health", "Cold"],
             ["[25-45]", "Clerk", "Flu"],
             ["[41-52]", "*", "Asthma"],
             ["[25-45]", "Clerk", "Cold"],
             ["[41-52]", "*", "Flu"]]
RELEASED = ["age", "job", "disease"]
QIS = ["age", "job"]
NUMERIC = ["age"]
# NCP by hand: age spans 52 - 23 = 29 over the raw table; job has 5 leaves (Health 2).
#   {Ann, Bob}: age 4/29 + job 2/5, twice      = 8/29 + 4/5
#   {Cid, Eve}: age 20/29 + job 0 (a leaf), twice = 40/29
#   {Dee, Fay}: age 11/29 + job 5/5, twice      = 22/29 + 2
#   total = 70/29 + 14/5 = 5.2137931...
GOOD_NCP = 70 / 29 + 14 / 5


def job_tree() -> Tree:
    return parse_hierarchy(JOB_PATHS, "job", "job.txt")


def raw_table() -> Table:
    return parse_table(RAW_CSV.encode(), "raw.csv")


def output(rows: list[list[str]] | None = None, header: list[str] | None = None) -> bytes:
    """The bytes of an output file (default: the valid release)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header or RELEASED)
    writer.writerows(GOOD_ROWS if rows is None else rows)
    return buffer.getvalue().encode()


def changed(row: int, column: str, cell: str) -> list[list[str]]:
    """The valid release with one cell changed (row from 1)."""
    rows = [list(r) for r in GOOD_ROWS]
    rows[row - 1][RELEASED.index(column)] = cell
    return rows


def judge(data: bytes, k: int = 2, **options) -> Judgement:
    """judge_quality on the example."""
    return judge_quality(raw_table(), {"job": job_tree()}, data, k=k, qis=QIS,
                         numeric=NUMERIC, released=RELEASED, **options)
