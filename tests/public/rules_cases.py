"""The public cases of a course whose answers are judged by its rules (the handout's
"Grading"): data/rules/cases.json, written when the bundle was made from the course's public
data. Each case: a part, its function, a dataset (a few rows drawn from adult-hw1.csv, or the
whole file), k (and max_sup), the part's QIs and the released columns.

Each call runs in a fresh folder holding the case's rows as `adult-hw1.csv` and a `DGHs`
folder with exactly the part's QIs' hierarchy files ("child,parent" lines). Outputs are judged
by kcheck.rules, the rule sets the grader judges with (kcheck/ beside tests/, as it is).
"""
from __future__ import annotations

import gzip
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from messages import _
from public_cases import ADULT, Run

HERE = Path(__file__).resolve().parent
RULES = HERE / "data" / "rules"
ROOT = HERE.parents[1]  # the folder holding tests/ and kcheck/
HIERARCHY_FORMAT = "child-parent"


@dataclass(frozen=True)
class RulesCase:
    """One public call of a rule-judged part (data/rules/cases.json)."""

    part: str
    function: str
    case: str
    raw: str  # file under data/rules/ (.gz: compressed)
    dghs: str  # folder, relative to data/rules/ (the bundle's DGHs/<part> when it has them)
    k: int
    rows: int
    qis: tuple[str, ...]
    columns: tuple[str, ...]
    max_sup: int | None = None
    args: tuple = ()  # a refused call: the arguments between the DGH folder and the output
    reason: str = ""
    optional: bool = False  # an optional part: its failures hold back no other part's call

    @property
    def run(self) -> Run:
        note = "" if self.part == self.function else self.part
        return Run(self.function, self.case, self.k, self.max_sup, note)

    @property
    def id(self) -> str:
        return self.run.id if self.part == self.function else f"{self.part}-{self.run.id}"

    def describe(self) -> str:
        """'samarati(k=2, max_sup=2) on case 'rows24' (24 rows of adult-hw1.csv: ...)'."""
        found = [self.run.describe()]
        if self.part != self.function:
            found.append(_("(part {part})").format(part=self.part))
        if self.case != ADULT:
            found.append(_("({rows} rows of adult-hw1.csv: {path})").format(
                rows=self.rows, path=f"tests/public/data/rules/{self.raw}"))
        return " ".join(found)


def _load() -> tuple[list[RulesCase], list[RulesCase]]:
    path = RULES / "cases.json"
    if not path.is_file():
        return [], []
    found = json.loads(path.read_text(encoding="utf-8"))

    def made(entry: dict) -> RulesCase:
        entry = dict(entry)
        for key in ("qis", "columns", "args"):
            if key in entry:
                entry[key] = tuple(entry[key])
        return RulesCase(**entry)

    return [made(e) for e in found["cases"]], [made(e) for e in found["rejects"]]


CASES, REJECTS = _load()
BY_RUN = {case.run: case for case in CASES}


def _timeout(case: str):
    return pytest.mark.timeout(600 if case == ADULT else 120)


def runs(function: str) -> list:
    """pytest params of the Runs of `function`'s required rule-judged parts (a failure on a
    small case holds back the function's calls on adult-hw1.csv: call_gate.py)."""
    return [pytest.param(c.run, id=c.id, marks=_timeout(c.case)) for c in CASES
            if c.function == function and not c.optional]


def optional_runs(function: str) -> list:
    """pytest params (the case's name, the case) of `function`'s optional parts: run after
    the small cases too, but a failure holds back no call of the required parts."""
    return [pytest.param(c.case, c, id=c.id, marks=_timeout(c.case)) for c in CASES
            if c.function == function and c.optional]


def rejects(function: str) -> list:
    """pytest params of the calls of `function` that must raise ValueError."""
    return [pytest.param(c, id=f"{c.case}-" + "-".join(map(str, c.args)),
                         marks=_timeout(c.case)) for c in REJECTS if c.function == function]


def raw_text(case: RulesCase) -> str:
    """The case's raw dataset as text."""
    path = RULES / case.raw
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
            return f.read()
    return path.read_text(encoding="utf-8")


def fill_folder(case: RulesCase, folder: Path) -> None:
    """Put the case's `adult-hw1.csv` and `DGHs/` into `folder`."""
    (folder / "adult-hw1.csv").write_bytes(raw_text(case).encode("utf-8"))
    shutil.copytree(RULES / case.dghs, folder / "DGHs")


def kcheck_rules():
    """kcheck.rules, from the kcheck package beside tests/ (the bundle's own copy)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import kcheck.rules
    return kcheck.rules


def release(header: list[str], rows: list[list[str]], texts: dict[str, str], qis, columns,
            name: str = "adult-hw1.csv"):
    """The raw side of a call as kcheck.rules takes it: the raw rows, the QIs' hierarchies
    (QI -> the text of its "child,parent" file) and the released columns."""
    rules = kcheck_rules()
    from kcheck.hierarchies import parse_hierarchy
    from kcheck.tables import Table
    qi_columns = [c for c, column in enumerate(header) if column in qis]
    trees = [parse_hierarchy(texts[header[c]], header[c], f"DGHs/{header[c]}.txt",
                             HIERARCHY_FORMAT) for c in qi_columns]
    return rules.Release(Table(name, header, rows), qi_columns, trees,
                         [header.index(c) for c in columns])


def case_release(case: RulesCase, header: list[str], rows: list[list[str]]):
    """The release of a public case (its raw rows, read by the caller)."""
    texts = {qi: (RULES / case.dghs / f"{qi}.txt").read_text(encoding="utf-8")
             for qi in case.qis}
    return release(header, rows, texts, case.qis, case.columns)


def judge(function: str, release_, k: int, max_sup: int | None, header: list[str],
          rows: list[list[str]]) -> list:
    """The rules `function`'s output (header, rows) breaks, as kcheck.rules.Broken (each
    names its rule; `.text(language)` words it), [] for a right answer."""
    rules = kcheck_rules()
    from kcheck.tables import Table
    out = Table("anonymized.csv", header, rows)
    if function == "samarati":
        return rules.check_samarati(release_, k, max_sup, out)
    return rules.check_mondrian(release_, k, out)
