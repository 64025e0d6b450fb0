"""The counterexample pool as stored: one JSON file per graded function (and rule variant)
under `<cases_dir>/counterexamples/`, written by grader/authoring/pool.py.

A *source* is one public dataset: its label (e.g. `adult-hw1.csv`), header, the rows the pool
uses (by 1-based data row number), the DGH text of each QI, and for the functions that read an
anonymized table the rows of that table. A *member* is a subset: row numbers and kept QIs
(non-QI columns always stay), with the reference's output (CSV text or a number). A *chain*
lists nested members from the largest (its seed) to the smallest, with the call's integer
arguments.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kanon.table import render_csv

from ...contract import ANONYMIZED_INPUT, DGH_DIR, RAW_FILE
from ...paths import GRADER_DIR

POOL_DIR = "counterexamples"
KIT_POOL = GRADER_DIR / "cases" / POOL_DIR


def pool_key(function: str, variant: str | None) -> str:
    """The pool file's stem: the function, with its rule variant after a `~`."""
    return f"{function}~{variant}" if variant else function


@dataclass(frozen=True)
class Source:
    """A public dataset as the pool keeps it."""

    label: str  # where the rows come from, as students know it
    header: list[str]
    rows: dict[int, list[str]]  # 1-based data row number -> cells
    dghs: dict[str, str]  # QI column -> DGH file text
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
    expected: object  # CSV text (a table) or a float

    @property
    def size(self) -> tuple[int, int]:
        """(rows, QIs): what the search makes small."""
        return len(self.rows), len(self.qis)

    @property
    def columns(self) -> list[int]:
        """The source columns kept: the QIs kept and every non-QI column."""
        return [i for i, c in enumerate(self.source.header)
                if c in self.qis or c not in self.source.dghs]

    @property
    def header(self) -> list[str]:
        return [self.source.header[i] for i in self.columns]

    def table(self, anonymized: bool = False) -> list[list[str]]:
        """The member's raw rows (or its anonymized rows), kept columns only."""
        cells = self.source.anonymized if anonymized else self.source.rows
        return [[cells[r][i] for i in self.columns] for r in self.rows]

    def write(self, folder: Path, raw_name: str = RAW_FILE,
              anonymized_name: str = ANONYMIZED_INPUT) -> None:
        """The member's input files in `folder`: the raw table, DGHs/ and (costs) the
        anonymized table, under the given names."""
        _scratch_write(folder / raw_name, render_csv(self.header, self.table()))
        for qi in self.qis:
            _scratch_write(folder / DGH_DIR / f"{qi}.txt", self.source.dghs[qi])
        if self.source.anonymized is not None:
            _scratch_write(folder / anonymized_name,
                           render_csv(self.header, self.table(anonymized=True)))


def _scratch_write(path: Path, text: str) -> None:
    """One input file of a call in a scratch folder (read by that call, then removed): private
    (0600) as kanon.files' atomic write makes it, but not flushed to disk, which a search of
    hundreds of calls pays for in time and nothing else."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
        f.write(text.encode("utf-8"))


@dataclass(frozen=True)
class Chain:
    members: list[Member]  # largest (the seed) first, each a subset of the one before


def _source(data: dict) -> Source:
    rows = {int(n): cells for n, cells in data["rows"].items()}
    anonymized = data.get("anonymized")
    return Source(data["label"], data["header"], rows, data["dghs"],
                  data.get("anonymized_label"),
                  None if anonymized is None else {int(n): c for n, c in anonymized.items()})


def load_chains(folder: Path, function: str, variant: str | None) -> list[Chain]:
    """The chains of one function's pool file ([] when there is none); read once per grader
    process and file version."""
    path = folder / f"{pool_key(function, variant)}.json"
    if not path.is_file():
        return []
    return _load(str(path), path.stat().st_mtime)


@lru_cache(maxsize=32)
def _load(path: str, stamp: float) -> list[Chain]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sources = {key: _source(s) for key, s in data["sources"].items()}
    return [Chain([Member(sources[c["source"]], tuple(m["rows"]), tuple(m["qis"]), c["ints"],
                          m["expected"]) for m in c["members"]])
            for c in data["chains"]]


def pool_folder(cases_dir: Path) -> Path:
    """The pool a rubric's grading uses: its cases folder's, else the kit's own (a folder
    holding only its rule-judged parts' pool, rules/, has none of its own)."""
    own = cases_dir / POOL_DIR
    return own if has_own_pool(cases_dir) else KIT_POOL


def has_own_pool(cases_dir: Path) -> bool:
    """Whether the cases folder holds its own copy of the kit's pool."""
    own = cases_dir / POOL_DIR
    return own.is_dir() and any(own.glob("*.json"))
