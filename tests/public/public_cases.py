"""The public cases: which function runs on which data with which arguments, read from data:
data/functions.json (each function your course grades: its test name, signature and checks)
and data/cases.json (its calls), both written for your course when your bundle was made.

A case folder `data/cases/<case>/` holds `raw.csv` and `DGHs/`; the case `adult` is the
bundle's own `adult-hw1.csv` and `DGHs/`. Each call runs in a fresh folder holding the case's
files as `adult-hw1.csv` and `DGHs` (relative paths, as the grader does). The reference
outputs live in `data/expected/`, `data/expected/costs.json` and `data/expected/measures.json`
(written by make_expected.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from messages import _

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CASES = DATA / "cases"
EXPECTED = DATA / "expected"
ROOT = HERE.parents[1]  # the folder holding skeleton.py, adult-hw1.csv and DGHs/
ADULT = "adult"


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


FUNCTIONS: dict[str, dict] = _load("functions.json")["functions"]
"""Each function whose public tests this folder holds -> what they need of it: `marker` (its
tests' name and marker), `kind` (anonymizer, cost, measure), `signature`, `optional`, and for
an anonymizer `extra` (its fifth parameter), `example`, `intervals` and `property`."""
SHORT = {function: spec["marker"] for function, spec in FUNCTIONS.items()}
"""Graded function -> the marker (and -k name) of its tests."""
OPTIONAL = tuple(f for f, spec in FUNCTIONS.items() if spec["optional"])
"""Functions beyond the default homework: their tests run when your course's rubric grades
them (tests/public/course.json) or when your file implements them; otherwise they are
skipped."""
INTERVALS = tuple(f for f, spec in FUNCTIONS.items() if spec.get("intervals"))
"""The functions whose numeric QI cells may be intervals [lo-hi]."""
EXTRA = {f: spec["extra"] for f, spec in FUNCTIONS.items() if spec.get("extra")}
"""The fifth parameter of the anonymizers that have one."""
ANONYMIZERS = [f for f, spec in FUNCTIONS.items()
               if spec["kind"] == "anonymizer" and not spec["optional"]]
SIGNATURES = {f: spec["signature"] for f, spec in FUNCTIONS.items() if not spec["optional"]}
"""The parameters every solution must have, in order."""
OPTIONAL_SIGNATURES = {f: spec["signature"] for f, spec in FUNCTIONS.items() if spec["optional"]}
"""The parameters of the functions beyond the default homework."""


def case_files(case: str) -> tuple[Path, Path]:
    """(raw dataset, DGH folder) of a case."""
    if case == ADULT:
        return ROOT / "adult-hw1.csv", ROOT / "DGHs"
    return CASES / case / "raw.csv", CASES / case / "DGHs"


@dataclass(frozen=True)
class Run:
    """One anonymizer call: function(raw, DGHs, k, [extra,] output). Row numbers in notes are
    data rows from 1, the header not counted (HANDOUT.md, "Background")."""

    function: str
    case: str
    k: int
    extra: int | None = None
    note: str = ""
    variant: str | None = None  # a rule variant (the handout of a course that grades them), e.g. "lm-only"

    @property
    def id(self) -> str:
        extra = "" if self.extra is None else f"-{EXTRA[self.function]}{self.extra}"
        variant = f"{self.variant}-" if self.variant else ""
        return f"{variant}{self.case}-k{self.k}{extra}"

    @property
    def expected(self) -> Path:
        suffix = ".csv.gz" if self.case == ADULT else ".csv"
        return EXPECTED / f"{SHORT[self.function]}-{self.id}{suffix}"

    def describe(self) -> str:
        extra = "" if self.extra is None else f", {EXTRA[self.function]}={self.extra}"
        variant = _(" with the {variant} variant").format(variant=self.variant) \
            if self.variant else ""
        return _("{call}{variant} on case {case!r}").format(
            call=f"{self.function}(k={self.k}{extra})", variant=variant, case=self.case)

    def args(self, raw: str, dghs: str, output: str) -> list:
        extra = [] if self.extra is None else [self.extra]
        return [raw, dghs, self.k, *extra, output]


@dataclass(frozen=True)
class CostCase:
    """The costs of an anonymized file: a file of the case folder, or (adult) the
    expected output of a Run."""

    case: str
    anonymized: str  # file name in data/cases/<case>/ (adult: in data/expected/, a Run's output)
    note: str = ""
    name: str = ""  # the id's second part, when not the file name

    @property
    def id(self) -> str:
        return f"{self.case}-{self.name or self.anonymized.removesuffix('.csv')}"

    def anonymized_path(self) -> Path:
        return (EXPECTED if self.case == ADULT else CASES / self.case) / self.anonymized


@dataclass(frozen=True)
class MeasureCase:
    """A privacy measure (a function of kind "measure") of a CostCase's anonymized file."""

    function: str
    input: CostCase
    distance: str | None = None  # the ground distance, when the measure takes one

    @property
    def id(self) -> str:
        return self.input.id + (f"-{self.distance}" if self.distance else "")

    @property
    def args(self) -> tuple:
        """The arguments after the DGH folder."""
        return () if self.distance is None else (self.distance,)


@dataclass(frozen=True)
class BadCall:
    """A call that must raise ValueError."""

    function: str
    case: str
    args: tuple  # the arguments between the DGH folder and the output file
    reason: str

    @property
    def id(self) -> str:
        return f"{self.case}-" + "-".join(str(a) for a in self.args)


_CASES = _load("cases.json")
RUNS: list[Run] = [Run(r["function"], r["case"], r["k"], r.get("extra"), r.get("note", ""),
                       r.get("variant")) for r in _CASES["runs"]]
_INPUTS = {key: CostCase(i["case"], i["anonymized"], i.get("note", ""), i.get("name", ""))
           for key, i in _CASES["inputs"].items()}
COSTS: list[CostCase] = [_INPUTS[key] for key in _CASES["costs"]]
MEASURES: list[MeasureCase] = [MeasureCase(m["function"], _INPUTS[m["input"]],
                                           m.get("distance")) for m in _CASES["measures"]]
BAD_MEASURES: list[tuple[str, str, str, tuple, str | None, str]] = [
    (b["function"], b["case"], b["anonymized"], tuple(b["args"]), b["column"], _(b["reason"]))
    for b in _CASES["bad_measures"]]
"""(function, case, anonymized file, arguments after the DGH folder, column the error must
name or None, why)"""
BAD_CALLS: list[BadCall] = [BadCall(b["function"], b["case"], tuple(b["args"]), _(b["reason"]))
                            for b in _CASES["bad_calls"]]
BAD_COSTS: list[tuple[str, str, str]] = [(b["case"], b["anonymized"], b["column"])
                                         for b in _CASES["bad_costs"]]
"""(case, anonymized file, column the error must name)"""


def _timeout(case: str):
    """pytest-timeout's limit of a test: a safety net for the self-check itself, twice the
    longest a call of your code may run (course_rules.stop_limit)."""
    return pytest.mark.timeout(600 if case == ADULT else 120)


def runs(function: str) -> list:
    """pytest params of the Runs of one function, under the rules your course grades it
    with (the handout's, or the rule variant course.json names)."""
    import course_rules
    wanted = course_rules.variant(function)
    return [pytest.param(r, id=r.id, marks=_timeout(r.case)) for r in RUNS
            if r.function == function and r.variant == wanted]


def bad_calls(function: str) -> list:
    """pytest params of the BadCalls of one function."""
    return [pytest.param(b, id=b.id, marks=_timeout(b.case)) for b in BAD_CALLS
            if b.function == function]


def per_function(functions: list[str]) -> list:
    """pytest params of the names of the functions your course grades, each with its
    marker."""
    import course_rules
    return [pytest.param(f, id=f, marks=getattr(pytest.mark, SHORT[f])) for f in functions
            if course_rules.graded(f, optional=f in OPTIONAL)]
