"""The public counterexample pool: its format, reading it, and a member's input files.

The pool holds small inputs cut from public data (rows of adult-hw1.csv with their public
hierarchies, the public test datasets), each with the reference's answer on it; never a
hidden case. `python -m grader regen` writes it (grader/authoring/pool.py, rules_pool.py):
one JSON file per graded function, `<function>.json` (`<function>~<variant>.json` for a
rule variant; a rule-judged part's: `rules/<part>.json`), holding

  sources  key -> {label, header, rows: {"<data row from 1>": cells}, dghs: {QI: file text},
           and for the functions that read an anonymized table anonymized_label, anonymized}
  chains   [{source, ints, members: [{rows, qis, expected}]}], each chain's members nested
           from the largest (its seed) to the smallest

A *member* is one input: some data rows and kept QIs of a source (every non-QI column stays),
the call's other arguments (`ints`) and the expected answer (an output's CSV text or a
number). The grader's feedback and the students' self-check read the same files through this
module. Standard library only: it ships in the students' bundle.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Source", "Member", "Chain", "pool_key", "load_chains", "read_chains",
           "smallest_first", "members", "csv_text", "used_lines"]

RAW_NAME, ANONYMIZED_NAME, DGH_DIR = "raw.csv", "anonymized.csv", "DGHs"


def pool_key(function: str, variant: str | None) -> str:
    """A pool file's stem: the function, with its rule variant after a `~`."""
    return f"{function}~{variant}" if variant else function


def csv_text(header: list[str], rows: list[list[str]]) -> str:
    """A table as csv.writer writes it, one '\\n' per line."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([header, *rows])
    return buffer.getvalue()


@dataclass(frozen=True)
class Source:
    """A public dataset as the pool keeps it."""

    label: str  # where the rows come from, as students know it
    header: list[str]
    rows: dict[int, list[str]]  # 1-based data row number -> cells
    dghs: dict[str, str]  # QI column -> hierarchy file text
    anonymized_label: str | None = None
    anonymized: dict[int, list[str]] | None = None  # same row numbers, the anonymized cells

    @property
    def qis(self) -> list[str]:
        return [c for c in self.header if c in self.dghs]


@dataclass(frozen=True)
class Member:
    """One input of the pool and the reference's answer on it."""

    source: Source
    rows: tuple[int, ...]
    qis: tuple[str, ...]
    ints: dict
    expected: object  # CSV text (a table) or a number

    @property
    def size(self) -> tuple[int, int]:
        """(rows, QIs): what the search makes small."""
        return len(self.rows), len(self.qis)

    @property
    def ident(self) -> tuple:
        """What makes two members the same input."""
        return (self.source.label, self.source.anonymized_label, self.rows, self.qis,
                tuple(sorted(self.ints.items())))

    @property
    def columns(self) -> list[int]:
        """The source columns kept: the QIs kept and every non-QI column."""
        return [i for i, c in enumerate(self.source.header)
                if c in self.qis or c not in self.source.dghs]

    @property
    def header(self) -> list[str]:
        return [self.source.header[i] for i in self.columns]

    @property
    def label(self) -> str:
        return self.source.label

    @property
    def anonymized_label(self) -> str | None:
        return self.source.anonymized_label

    @property
    def raw(self) -> list[list[str]]:
        """The member's raw rows, kept columns only."""
        return self.table()

    @property
    def anonymized(self) -> list[list[str]] | None:
        """The member's anonymized rows (kept columns), for the functions that read one."""
        return None if self.source.anonymized is None else self.table(anonymized=True)

    @property
    def dghs(self) -> dict[str, str]:
        """Kept QI -> its hierarchy file's text, in the header's order."""
        return {q: self.source.dghs[q] for q in self.header if q in self.qis}

    def table(self, anonymized: bool = False) -> list[list[str]]:
        """The member's raw rows (or its anonymized rows), kept columns only."""
        cells = self.source.anonymized if anonymized else self.source.rows
        return [[cells[r][i] for i in self.columns] for r in self.rows]

    def write(self, folder: Path, raw_name: str = RAW_NAME,
              anonymized_name: str = ANONYMIZED_NAME) -> None:
        """The member's input files in `folder`: the raw table, DGHs/<QI>.txt and (for the
        functions that read one) the anonymized table, under the given names."""
        (folder / DGH_DIR).mkdir(parents=True, exist_ok=True)
        files = {raw_name: csv_text(self.header, self.table())}
        files.update({f"{DGH_DIR}/{qi}.txt": self.source.dghs[qi] for qi in self.qis})
        if self.source.anonymized is not None:
            files[anonymized_name] = csv_text(self.header, self.table(anonymized=True))
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8", newline="")


@dataclass(frozen=True)
class Chain:
    members: list[Member]  # largest (the seed) first, each a subset of the one before


def _source(data: dict) -> Source:
    anonymized = data.get("anonymized")
    return Source(data["label"], data["header"],
                  {int(n): cells for n, cells in data["rows"].items()}, data["dghs"],
                  data.get("anonymized_label"),
                  None if anonymized is None else {int(n): c for n, c in anonymized.items()})


def read_chains(path: Path) -> list[Chain]:
    """The chains of one pool file, as written."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sources = {key: _source(s) for key, s in data["sources"].items()}
    return [Chain([Member(sources[c["source"]], tuple(m["rows"]), tuple(m["qis"]), c["ints"],
                          m["expected"]) for m in c["members"]])
            for c in data["chains"]]


def load_chains(folder: Path, function: str, variant: str | None) -> list[Chain]:
    """The chains of one function's pool file in `folder` ([] when there is none); read once
    per process and file version."""
    path = folder / f"{pool_key(function, variant)}.json"
    if not path.is_file():
        return []
    return _load(str(path), path.stat().st_mtime)


@lru_cache(maxsize=32)
def _load(path: str, stamp: float) -> list[Chain]:
    return read_chains(Path(path))


def smallest_first(chains: list[Chain]) -> list[Member]:
    """The pool's distinct members, smallest first: rows x QIs, then rows, then pool order."""
    seen: dict[tuple, Member] = {}
    for chain in chains:
        for member in chain.members:
            seen.setdefault(member.ident, member)
    members = list(seen.values())
    order = sorted(range(len(members)), key=lambda i: (
        members[i].size[0] * members[i].size[1], members[i].size[0], i))
    return [members[i] for i in order]


def members(path: Path) -> list[Member]:
    """Every distinct member of a pool file, smallest first (what the self-check searches)."""
    return smallest_first(read_chains(path))


def used_lines(text: str, values: set[str], fmt: str = "tabs") -> list[str]:
    """The lines of a hierarchy file that matter for `values`: each value's line and its
    ancestors'. `fmt` "tabs" (one label a line, a tab per level): indented two spaces per
    level; "child-parent" ("child,parent" lines): the lines of the values and their
    ancestors, in the file's order."""
    if fmt == "child-parent":
        from .hierarchies import parse_hierarchy
        tree = parse_hierarchy(text, "hierarchy", "hierarchy", fmt)
        keep_labels = {tree.labels[node] for value in values if value in tree
                       for node in tree.path[tree.index[value]]}
        return [line.strip() for line in text.splitlines()
                if line.strip() and line.strip().rpartition(",")[0] in keep_labels]
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
