"""topdown_greedy and kaca graded end to end (the handout of a course that grades them): a rubric part
switches each on; the reference passes every case, a plausible mistake gets partial credit
(valid and k-anonymous, but not the reference output), a submission without the function is
"missing", and a topdown_greedy output's intervals are accepted as valid cells."""
from __future__ import annotations

from pathlib import Path

import pytest

from staff_submission import staff_submission

from grader import rubric
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "grader" / "cases"

RUBRIC = f"""
[settings]
import_time_limit = 5.0
time_limit = 5.0
time_per_1000_rows = 0.0
cases_dir = "{CASES.as_posix()}"

[[part]]
function = "topdown_greedy"
points = 10

[[part.case]]
name = "unbalanced, k=3"
data = "hidden/unbalanced"
k = 3
hidden = true

[[part.case]]
name = "commas, quotes, non-ASCII, k=2"
data = "hidden/quoted"
k = 2
hidden = true

[[part]]
function = "kaca"
points = 10

[[part.case]]
name = "ten QIs, k=2"
data = "hidden/many-qi"
k = 2
hidden = true

[[part.case]]
name = "unbalanced, k=3"
data = "hidden/unbalanced"
k = 3
hidden = true
"""

FULL = "from staffcopy import topdown_greedy, kaca\n"
WRONG = """import numpy as np

from staffcopy import kaca_module as _k, topdown_greedy_module as _g


class _Lopsided(_g._Greedy):  # the pair from one round only: u = the lowest-index record
    def pair(self, rows):
        d = self.dist(self.record(int(rows[0])), rows)
        d[0] = -np.inf
        return 0, int(np.argmax(d))


def _equal_weights(dgh):  # WHD with beta = 0: every level step weighs the same
    h = dgh.height + 1
    cw = np.zeros(h + 1)
    cw[1:] = np.arange(h) / max(h - 1, 1)
    return cw


_g._Greedy = _Lopsided
_k.level_weights = _equal_weights
topdown_greedy = _g.topdown_greedy
kaca = _k.kaca
"""
NONE = "from staffcopy import mondrian  # neither optional function\n"


def _submit(folder: Path, name: str, source: str) -> None:
    sub = staff_submission(folder / name, source)
    init = sub / "staffcopy" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + (
        "import sys as _sys\n"
        "kaca_module = _sys.modules[__name__ + '.kaca']\n"
        "topdown_greedy_module = _sys.modules[__name__ + '.topdown_greedy']\n"),
        encoding="utf-8")


@pytest.mark.slow
def test_rubric_grades_topdown_greedy_and_kaca(tmp_path: Path) -> None:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC, encoding="utf-8")
    r = rubric.load(path)
    for name, source in (("full", FULL), ("wrong", WRONG), ("none", NONE)):
        _submit(tmp_path / "subs", name, source)
    result = grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out", r, jobs=1, sandbox="none",
                                       progress=False))
    records = {rec["student"]: rec for rec in result.records}
    full = {(c["function"], c["name"]): c for c in records["full"]["cases"]}
    assert len(full) == 4 and all(c["status"] == "passed" for c in full.values()), full
    assert sum(c["points"] for c in full.values()) == pytest.approx(20)
    wrong = {(c["function"], c["name"]): c for c in records["wrong"]["cases"]}
    for function in ("topdown_greedy", "kaca"):
        statuses = {c["status"] for (f, _), c in wrong.items() if f == function}
        assert "partial" in statuses and statuses <= {"partial", "passed"}, wrong
    assert all("valid and k-anonymous" in c["message"] for c in wrong.values()
               if c["status"] == "partial")
    none = {(c["function"], c["name"]): c for c in records["none"]["cases"]}
    assert all(c["status"] == "missing" and c["function"] in c["message"]
               for c in none.values()), none


def test_rubric_optional_limits_match_the_handout() -> None:
    """HANDOUT.md, "kaca": KACA gets clustering's limit, topdown_greedy mondrian's."""
    r = rubric.load(REPO / "grader" / "rubric-optional.toml")
    limits = {c.function: c.cpu_limit(9999) for c in r.cases()
              if not c.hidden and c.function in ("topdown_greedy", "kaca")}
    assert limits == {"topdown_greedy": 110.0, "kaca": 609.9}
    parts = {p.function: p for p in r.parts}
    assert parts["topdown_greedy"].points == parts["kaca"].points == 20
    assert sum(c.hidden for c in parts["kaca"].cases) == 5
    assert sum(c.hidden for c in parts["topdown_greedy"].cases) == 5
