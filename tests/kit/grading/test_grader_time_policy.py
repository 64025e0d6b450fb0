"""The time policy (issue 21, item 6): a timeout is evidence about one case, not about the
larger ones. After a function's first timeout its later cases run under the timed-out case's
limit (a probe) and earn their points; a second timeout skips the rest. Submissions from
tests/kit/timeout_patterns.py: the real students' patterns (loop forever on the hidden case
"unbalanced" only) and one that loops in every function."""
from __future__ import annotations

from pathlib import Path

import pytest
from timeout_patterns import write_pattern

from grader import rubric
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.grading.statuses import Status
from grader.grading.time_policy import TimePolicy

pytestmark = pytest.mark.slow  # classes whose calls run into their time limits

CASES = Path(__file__).resolve().parents[3] / "grader" / "cases"

# time_per_1000_rows makes the adult cases' own limit (10.6 s) far above the probe's (0.7 s);
# the short base limit keeps the six timeouts cheap, the adult probes (0.2-0.3 CPU-s) pass
RUBRIC = f"""
[settings]
import_time_limit = 5.0
time_limit = 0.6
time_per_1000_rows = 1.0
cases_dir = "{CASES.as_posix()}"
student_id_pattern = '^(?P<id>.+)$'

[[part]]
function = "cost_MD"
points = 5

[[part.case]]
name = "unbalanced hierarchies, intervals"
data = "hidden/unbalanced"
anonymized = "anonymized/intervals.csv"
hidden = true

[[part.case]]
name = "adult-hw1, generalized levels"
data = "public/adult"
anonymized = "anonymized/levels.csv"

[[part.case]]
name = "adult-hw1, intervals"
data = "public/adult"
anonymized = "anonymized/intervals.csv"

[[part]]
function = "mondrian"
points = 20

[[part.case]]
name = "adult-hw1, k=5"
data = "public/adult"
k = 5

[[part.case]]
name = "unbalanced, k=3"
data = "hidden/unbalanced"
k = 3
hidden = true

[[part.case]]
name = "ties, k=35 (n=36)"
data = "hidden/ties"
k = 35
hidden = true
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    tmp = tmp_path_factory.mktemp("time-policy")
    (tmp / "rubric.toml").write_text(RUBRIC, encoding="utf-8")
    for name in ("interval_cost", "interval_mondrian", "loop_everywhere"):
        write_pattern(tmp / "subs", name)
    result = grade_class(BatchSettings(tmp / "subs", tmp / "out", rubric.load(tmp / "rubric.toml"), jobs=2,
                                       sandbox="none", progress=False))
    records = {r["student"]: r for r in result.records}
    for name, record in records.items():
        record["feedback"] = (tmp / "out" / "feedback" / f"{name}.md").read_text("utf-8")
    return records


def cases(record: dict, function: str) -> dict[str, dict]:
    return {c["name"]: c for c in record["cases"] if c["function"] == function}


SHORTENED = ("ran under a shortened limit of 0.7 s after an earlier timeout (on the case "
             "\"unbalanced")


def test_a_loop_on_one_small_case_does_not_cost_the_adult_cases(graded) -> None:
    cost = cases(graded["interval_cost"], "cost_MD")
    looped = cost["unbalanced hierarchies, intervals"]
    assert looped["status"] == "timeout" and looped["time_limit"] == 0.7
    for name in ("adult-hw1, generalized levels", "adult-hw1, intervals"):
        probe = cost[name]
        assert probe["status"] == "passed" and probe["points"] == probe["max_points"], probe
        assert probe["time_limit"] == 0.7 and probe["cpu_seconds"] is not None
        assert probe["message"].startswith(SHORTENED + " hierarchies, intervals\"; this "
                                           "case's own limit is 10.6 s): returned ")
        assert probe["message"].endswith(", correct")
    assert graded["interval_cost"]["parts"]["cost_MD"] == pytest.approx(5 * 2 / 3, abs=1e-4)
    mondrian = cases(graded["interval_mondrian"], "mondrian")
    assert [c["status"] for c in mondrian.values()] == ["passed", "timeout", "passed"]
    adult = mondrian["adult-hw1, k=5"]
    assert adult["message"] == (SHORTENED + ", k=3\"; this case's own limit is 10.6 s): "
                                "identical to the reference output")
    assert graded["interval_mondrian"]["parts"]["mondrian"] == pytest.approx(20 * 2 / 3, abs=1e-4)
    assert "ran under a shortened limit of 0.7 s after an earlier timeout" in (
        graded["interval_mondrian"]["feedback"])
    assert graded["interval_mondrian"]["status"] == "timeout"


def test_a_loop_everywhere_spends_two_timeouts_per_function(graded) -> None:
    record = graded["loop_everywhere"]
    mondrian = cases(record, "mondrian")
    ties, unbalanced, adult = (mondrian["ties, k=35 (n=36)"], mondrian["unbalanced, k=3"],
                               mondrian["adult-hw1, k=5"])
    assert ties["status"] == unbalanced["status"] == adult["status"] == "timeout"
    assert ties["time_limit"] == 0.6 and ties["cpu_seconds"] is not None
    assert unbalanced["time_limit"] == 0.6 and unbalanced["cpu_seconds"] is not None
    assert unbalanced["message"].startswith(
        "ran under a shortened limit of 0.6 s after an earlier timeout (on the case \"ties, "
        "k=35 (n=36)\"; this case's own limit is 0.7 s): ran out of time: it used its whole "
        "CPU-time limit of 0.6 s for this case (53 rows)")
    assert adult["cpu_seconds"] is None and adult["message"] == (
        "not run: `mondrian` ran out of time twice (on the cases \"ties, k=35 (n=36)\" (36 "
        "rows) and \"unbalanced, k=3\" (53 rows)), so its later cases, on datasets as large "
        "or larger, are skipped")
    cost = cases(record, "cost_MD")  # the second timeout is on a 9,999-row case, the same
    ran = [c for c in cost.values() if c["cpu_seconds"] is not None]  # size as the third
    assert len(ran) == 2 and all(c["time_limit"] == 0.7 for c in ran)
    assert cost["adult-hw1, intervals"]["message"].startswith(
        "not run: `cost_MD` ran out of time twice")
    assert record["score"] == 0 and record["status"] == "timeout"
    assert "`timeout` — not run; CPU-time limit 10.6 s" in record["feedback"]


class _Case:
    def __init__(self, name: str, function: str = "mondrian"):
        self.name, self.function = name, function


def test_the_policy_alone() -> None:
    policy = TimePolicy()
    small, mid, large, other = _Case("small"), _Case("mid"), _Case("large"), _Case("x", "samarati")
    assert policy.plan(small, 10.3).limit == 10.3 and not policy.plan(small, 10.3).note
    policy.record(small, 31, 10.3, Status.TIMEOUT)
    probe = policy.plan(large, 110.0)
    assert probe.limit == 10.3 and not probe.skip and "shortened limit of 10.3 s" in probe.note
    assert policy.plan(other, 110.0).limit == 110.0  # another function: its own limit
    same = policy.plan(mid, 10.3)  # a case with the same limit is not "shortened"
    assert same.limit == 10.3 and not same.note
    policy.record(mid, 53, 10.3, Status.PASSED)  # a probe that finished: still one timeout
    assert not policy.plan(large, 110.0).skip
    policy.record(mid, 53, 10.3, Status.WRONG)
    policy.record(large, 9999, 10.3, Status.TIMEOUT)
    skipped = policy.plan(_Case("larger"), 610.0)
    assert skipped.skip.startswith("not run: `mondrian` ran out of time twice (on the cases "
                                   "\"small\" (31 rows) and \"large\" (9999 rows))")
    assert skipped.limit == 610.0
