"""Judging one case is a pure function (grader.grading.judge): every status it gives, from a
table of call outcomes, expectations and outputs; and the statuses' one list is docs/tas.md's."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.catalogs import translator
from grader.grading.compare import load_case_data
from grader.grading.expected import Expected
from grader.grading.judge import CaseFacts, Produced, judge
from grader.grading.session_keeper import hint_message
from grader.sandbox import CallOutcome
from grader.grading.statuses import SUBMISSION_ORDER, VERDICTS, Status
from kanon.table import parse_table, render_csv
from kcheck.text import Message, render, verbatim_params

REPO = Path(__file__).resolve().parents[3]
QUOTED = REPO / "grader" / "cases" / "hidden" / "quoted"
EXPECTED = REPO / "grader" / "cases" / "expected" / "6e684a70fcbbd5b1c747b752.csv"  # k = 2

VALUE = Expected("value", value=12.0)
RAISES = Expected("error", error="ValueError")
TABLE = Expected("table", path=EXPECTED)


def facts(function: str = "cost_MD", expected: Expected = VALUE, hidden: bool = False
          ) -> CaseFacts:
    return CaseFacts(function, {"k": 2} if function != "cost_MD" else {}, hidden, expected,
                     partial_credit=0.5, cost_tolerance=1e-6, cpu_limit=10.5, rows=40,
                     memory_mb=2048, file_size_mb=64, disk_mb=1024)


def returned(value: object = 12.0) -> CallOutcome:
    kind = "number" if isinstance(value, float) else "none" if value is None else "other"
    shown = {"value": value} if kind == "number" else {"type": type(value).__name__}
    return CallOutcome("returned", value={"value_kind": kind, **shown})


def raised(kind: str, mro: list[str] | None = None, message: str = "boom") -> CallOutcome:
    return CallOutcome("exception", error={"type": kind, "mro": mro or [kind, "Exception"],
                                           "message": message})


def rows(path: Path) -> bytes:
    return path.read_bytes()


CASES = [
    # (outcome, facts, produced, status, fraction, words in the message)
    (returned(12.0), facts(), None, Status.PASSED, 1.0, "correct"),
    (returned(12.0000000001), facts(), None, Status.PASSED, 1.0, "correct"),
    (returned(13.0), facts(), None, Status.WRONG, 0.0, "not the correct cost"),
    (returned("12"), facts(), None, Status.BAD_RETURN, 0.0, "returned str, not a number"),
    (returned(None), facts(), None, Status.BAD_RETURN, 0.0, "returned None"),
    (raised("ValueError", ["ValueError", "Exception"]), facts(expected=RAISES), None,
     Status.PASSED, 1.0, "as the contract requires"),
    (returned(1.0), facts(expected=RAISES), None, Status.WRONG, 0.0, "should raise ValueError"),
    (raised("KeyError"), facts(expected=RAISES), None, Status.ERROR, 0.0, "raised KeyError"),
    (raised("NotImplementedError"), facts(), None, Status.NOT_ATTEMPTED, 0.0, "NotImpl"),
    (CallOutcome("timeout"), facts(), None, Status.TIMEOUT, 0.0, "CPU-time limit of 10.5 s"),
    (CallOutcome("timeout", error={"wall": True}), facts(), None, Status.TIMEOUT, 0.0,
     "wall-clock backstop of 33.5 s"),
    (CallOutcome("memory", error={"type": "MemoryError"}), facts(), None, Status.MEMORY, 0.0,
     "limit 2048 MB"),
    (CallOutcome("file-size"), facts(), None, Status.FILE_TOO_LARGE, 0.0, "larger than 64 MB"),
    (CallOutcome("file-size", error={"disk": True}), facts(), None, Status.FILE_TOO_LARGE, 0.0,
     "more than 1024 MB of files"),
    (CallOutcome("crash", error={"signal": "SIGSEGV"}), facts(), None, Status.CRASH, 0.0,
     "killed by SIGSEGV"),
    (CallOutcome("crash", error={"code": "3"}), facts(), None, Status.CRASH, 0.0, "os._exit"),
    (CallOutcome("exit", error={"code": "1"}), facts(), None, Status.EXIT, 0.0, "code 1"),
    (CallOutcome("crash", error={"grader_error": "unknown status 'passed'"}), facts(), None,
     Status.GRADER_ERROR, 0.0, "could not read what the call reported (unknown status"),
    (returned(None), facts("clustering_anonymizer", TABLE), Produced(missing=True),
     Status.NO_OUTPUT, 0.0, "without writing the output file"),
    (returned(None), facts("clustering_anonymizer", TABLE), Produced(not_regular=True),
     Status.FORBIDDEN, 0.0, "does not follow links"),
    (returned(None), facts("clustering_anonymizer", TABLE), Produced(rows(EXPECTED)),
     Status.PASSED, 1.0, "identical to the reference output"),
    (returned(None), facts("clustering_anonymizer", TABLE), Produced(b"\xff\xfe"),
     Status.WRONG, 0.0, "not a readable dataset"),
]


@pytest.mark.parametrize("outcome, case, produced, status, fraction, words", CASES)
def test_judge(outcome, case, produced, status, fraction, words) -> None:
    data = load_case_data(QUOTED) if case.expected.kind == "table" else None
    verdict = judge(outcome, case, produced, data)
    assert (verdict.status, verdict.fraction) == (status, fraction)
    assert words in verdict.message


def test_partial_and_wrong_tables() -> None:
    """A valid, 2-anonymous table that is not the reference's earns partial credit (every QI
    at its root); one that breaks k-anonymity is wrong and, hidden, quotes no value."""
    data = load_case_data(QUOTED)
    table = parse_table(rows(EXPECTED))
    roots = dict(zip(data.qi_columns, (d.root_label for d in data.dghs)))
    suppressed = [[roots.get(c, v) for c, v in enumerate(r)] for r in table.rows]
    partial = judge(returned(None), facts("clustering_anonymizer", TABLE),
                    Produced(render_csv(table.header, suppressed).encode("utf-8")), data)
    assert (partial.status, partial.fraction) == (Status.PARTIAL, 0.5), partial.message
    leaked = [list(data.table.rows[0])] + suppressed[1:]  # row 1 alone in its class
    wrong = judge(returned(None), facts("clustering_anonymizer", TABLE, hidden=True),
                  Produced(render_csv(table.header, leaked).encode("utf-8")), data)
    assert wrong.status == Status.WRONG
    assert "data row 1 (the header is not counted) has 1 row(s); k = 2" in wrong.message
    assert not any(v in wrong.message for v in data.table.rows[0] if len(v) >= 3)


def test_scrub_and_hint_reach_the_error_text() -> None:
    outcome = CallOutcome("exception", error={"type": "NameError", "mro": ["NameError"],
                                              "message": "name 'pd' is not defined",
                                              "traceback": "/tmp/x/sub/skeleton.py, line 3"})
    hint = hint_message({"lines": [1, 1], "code": "import pandas as pd",
                         "reason": "it runs pd (an experiment)"}, ["numpy"])
    verdict = judge(outcome, facts(), scrub=lambda t: t.replace("/tmp/x/sub/", ""), hint=hint)
    assert verdict.status == Status.ERROR
    assert verdict.message == ("raised NameError: name 'pd' is not defined (line 1, `import "
                               "pandas as pd`, was left out: it runs pd (an experiment))\n"
                               "skeleton.py, line 3")
    said = Message.from_json(verdict.ref)  # as data: the student's texts verbatim
    assert said.english() + "\nskeleton.py, line 3" == verdict.message
    assert list(verbatim_params(said)) == ["NameError", "name 'pd' is not defined",
                                           "import pandas as pd", "it runs pd (an experiment)"]
    zh = render(said, translator("zh-CN"))
    assert "name 'pd' is not defined" in zh and "`import pandas as pd`" in zh and \
        "was left out" not in zh


def test_every_status_is_listed_once_and_the_readme_table_follows_the_order() -> None:
    readme = (REPO / "docs" / "tas.md").read_text(encoding="utf-8")
    section = readme.split("### Statuses", 1)[1].split("\n### ", 1)[0]
    listed = [name for line in section.splitlines() if line.startswith("| `")
              for name in re.findall(r"`([a-z-]+)`", line.split("|")[1])]
    assert listed == [str(s) for s in SUBMISSION_ORDER]
    assert [str(s) for s in VERDICTS] == ["passed", "partial", "wrong"]
    assert len({str(s) for s in Status}) == len(list(Status))


def test_a_submissions_status_is_the_problem_that_cost_the_most_points() -> None:
    from grader.grading.statuses import submission_status
    # graded through the import retry: 20 points lost to a timeout, 5 to an exception, 10 to
    # wrong answers; the import problem is a note, not the status
    assert submission_status({"timeout": 20.0, "error": 5.0, "wrong": 10.0, "passed": 0.0},
                             set()) == Status.TIMEOUT
    assert submission_status({"timeout": 5.0, "error": 5.0}, set()) == Status.TIMEOUT  # tie
    assert submission_status({"no-output": 10.0, "error": 10.0}, set()) == Status.ERROR
    assert submission_status({"wrong": 30.0, "partial": 5.0, "passed": 0.0}, set()) == Status.OK
    assert submission_status({"passed": 0.0}, {Status.OUTPUT_CAPPED}) == Status.OUTPUT_CAPPED
    assert submission_status({"error": 2.5}, {Status.OUTPUT_CAPPED}) == Status.ERROR
    # forbidden and grader-error are shown whatever they cost
    assert submission_status({"timeout": 40.0, "passed": 0.0}, {Status.FORBIDDEN}) == (
        Status.FORBIDDEN)
    assert submission_status({"timeout": 40.0, "grader-error": 2.0, "forbidden": 3.0},
                             set()) == Status.GRADER_ERROR
    # an import that the retry could not save: its cases carry the import status
    assert submission_status({"import-exit": 95.0, "not-attempted": 5.0}, set()) == (
        Status.IMPORT_EXIT)
    assert submission_status({"error": 1e-12, "timeout": 1.0}, set()) == Status.TIMEOUT
