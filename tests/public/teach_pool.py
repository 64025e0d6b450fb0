"""The course's public counterexample pool, as the self-check reads it (standard library only).

The pool holds small inputs cut from public data (rows of adult-hw1.csv with their public
hierarchies, the public test datasets of data/cases/), each with the answer of the handout's
rules on it; never a hidden case. One JSON file per graded function (and rule variant):
`data/counterexamples/<function>.json` in the students' bundle (`<function>~<variant>.json`
for a rule variant), else, in the staff's checkout, grader/cases/counterexamples/ (the
file the grader's feedback searches too). A *member* is one input: some data rows and kept
QIs (every other column stays) of a source, the call's arguments and the expected answer (an
output CSV text or a number). `members` lists them smallest first.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
POOL_DIRS = (HERE / "data" / "counterexamples",
             HERE.parents[1] / "grader" / "cases" / "counterexamples")
"""Where the pool is: the bundle's copy first, else the staff's checkout's."""


def pool_file(function: str, variant: str | None) -> Path | None:
    """The pool file of `function` under the rule `variant` (None: the handout's), if any."""
    stem = f"{function}~{variant}" if variant else function
    for folder in POOL_DIRS:
        path = folder / f"{stem}.json"
        if path.is_file():
            return path
    return None


def csv_text(header: list[str], rows: list[list[str]]) -> str:
    """A table as csv.writer writes it, one '\\n' per line."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


@dataclass(frozen=True)
class Member:
    """One input of the pool and the expected answer on it."""

    label: str  # the public file its rows come from, e.g. adult-hw1.csv
    rows: tuple[int, ...]  # data row numbers of that file (from 1, the header not counted)
    qis: tuple[str, ...]  # the QIs kept
    ints: dict  # the call's other arguments by parameter name (k and the others)
    expected: object  # the output's CSV text, or a number
    header: list[str]  # the kept columns
    raw: list[list[str]]  # the member's raw rows, kept columns only
    dghs: dict[str, str]  # kept QI -> its hierarchy file's text
    anonymized: list[list[str]] | None = None  # functions that read an anonymized table
    anonymized_label: str | None = None

    @property
    def size(self) -> tuple[int, int]:
        """(rows x QIs, rows): what "smallest" orders by."""
        return len(self.rows) * len(self.qis), len(self.rows)

    def write(self, folder: Path) -> None:
        """The input files in `folder`: raw.csv, DGHs/<QI>.txt, anonymized.csv (if any)."""
        (folder / "DGHs").mkdir(parents=True, exist_ok=True)
        (folder / "raw.csv").write_text(csv_text(self.header, self.raw), encoding="utf-8",
                                        newline="")
        for qi, text in self.dghs.items():
            (folder / "DGHs" / f"{qi}.txt").write_text(text, encoding="utf-8", newline="")
        if self.anonymized is not None:
            (folder / "anonymized.csv").write_text(csv_text(self.header, self.anonymized),
                                                   encoding="utf-8", newline="")


def _member(source: dict, rows: list[int], qis: list[str], ints: dict,
            expected: object) -> Member:
    header, dghs = source["header"], source["dghs"]
    columns = [i for i, c in enumerate(header) if c in qis or c not in dghs]
    anonymized = source.get("anonymized")
    return Member(
        source["label"], tuple(rows), tuple(qis), dict(ints), expected,
        [header[i] for i in columns],
        [[source["rows"][str(r)][i] for i in columns] for r in rows],
        {q: dghs[q] for q in header if q in qis},
        None if anonymized is None else [[anonymized[str(r)][i] for i in columns]
                                         for r in rows],
        source.get("anonymized_label"))


def members(path: Path) -> list[Member]:
    """Every distinct member of a pool file, smallest first (rows x QIs, then rows, then the
    file's order)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    found: dict[tuple, Member] = {}
    for chain in data["chains"]:
        source = data["sources"][chain["source"]]
        for m in chain["members"]:
            key = (chain["source"], tuple(m["rows"]), tuple(m["qis"]),
                   tuple(sorted(chain["ints"].items())))
            if key not in found:
                found[key] = _member(source, m["rows"], m["qis"], chain["ints"], m["expected"])
    ordered = list(found.values())
    return sorted(ordered, key=lambda m: m.size)  # stable: the file's order among equals


def used_lines(text: str, values: set[str]) -> list[str]:
    """The lines of a hierarchy file (one label a line, a tab per level) that matter for
    `values`: each value's line and its ancestors', indented two spaces per level."""
    lines = text.splitlines()
    stack: list[int] = []
    keep: set[int] = set()
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip("\t"))
        stack = stack[:depth] + [n]
        if line.strip() in values:
            keep.update(stack)
    return ["  " * (len(lines[n]) - len(lines[n].lstrip("\t"))) + lines[n].strip()
            for n in sorted(keep)]
