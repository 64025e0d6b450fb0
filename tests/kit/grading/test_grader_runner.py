"""Grading a batch: outputs, determinism, resuming after an interruption, contained failures."""
from __future__ import annotations

import csv
import json
import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.grading import grade as grade_mod
from grader import rubric
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from tiny_class import CASES, REPO, TINY, answers, student, tiny_rubric

def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def batch(tmp_path: Path):
    r = tiny_rubric(tmp_path)
    a = answers(r)
    subs = tmp_path / "subs"
    student(subs / "ann", repr(a["cost_MD"]), repr(a["cost_LM"]))
    student(subs / "ben", repr(a["cost_MD"]), "0.0")
    student(subs / "cat", "'text'", "1 / 0")
    return r, subs


def read_grades(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def tree_bytes(out: Path) -> dict[str, bytes]:
    skip = ("timings.csv", "record.json")
    return {p.relative_to(out).as_posix(): RUN_TIMES.sub(b"", TIME.sub(b"_ s of its",
                                                                     p.read_bytes()))
            for p in sorted(out.rglob("*"))
            if p.is_file() and p.name not in skip and ".work" not in p.parts}


TIME = re.compile(rb"[0-9]+\.[0-9]{2} s of its")  # measured CPU times: the only varying bytes
# ... and the dashboard's section drawn from timings.csv (summary.html's one varying section)
RUN_TIMES = re.compile(rb"<h2>Run time per function</h2>.*?<h2>", re.DOTALL)


@pytest.mark.slow
def test_batch_outputs_and_same_bytes_on_every_run(batch, tmp_path: Path) -> None:
    r, subs = batch
    first = grade_class(BatchSettings(subs, tmp_path / "out1", r, jobs=2, sandbox="none", progress=False))
    assert (first.graded, first.cached) == (3, 0)
    grades = read_grades(tmp_path / "out1" / "grades.csv")
    assert [(g["student"], g["cost_MD"], g["cost_LM"], g["total"], g["percent"], g["status"])
            for g in grades] == [("ann", "4", "6", "10", "100", "ok"),
                                 ("ben", "4", "0", "4", "40", "ok"),
                                 ("cat", "0", "0", "0", "0", "error")]
    feedback = (tmp_path / "out1" / "feedback" / "cat.md").read_text(encoding="utf-8")
    assert "`bad-return`" in feedback and "returned str, not a number" in feedback
    # a hidden case: the type and the student's line, no message, no scratch path
    assert "raised ZeroDivisionError at skeleton.py, line 5\n" in feedback
    assert "division by zero" not in feedback and "<sandbox>" not in feedback
    results = json.loads((tmp_path / "out1" / "results" / "ben" / "results.json").read_text())
    assert results["score"] == 4.0
    assert [(t["name"], t["score"], t["max_score"], t["status"], t["visibility"])
            for t in results["tests"]] == [
        ("cost_MD: hidden case: unbalanced hierarchies, intervals", 4.0, 4.0, "passed",
         "after_published"),
        ("cost_LM: hidden case: unbalanced hierarchies, intervals", 0.0, 6.0, "failed",
         "after_published")]
    summary = json.loads((tmp_path / "out1" / "summary.json").read_text())
    assert summary["status_counts"] == {"error": 1, "ok": 2}
    assert summary["distribution"]["40-49"] == 1 and summary["distribution"]["90-100"] == 1
    second = grade_class(BatchSettings(subs, tmp_path / "out2", r, jobs=1, sandbox="none", progress=False))
    assert second.graded == 3
    assert tree_bytes(tmp_path / "out1") == tree_bytes(tmp_path / "out2")


def test_a_hidden_case_shows_no_printed_output_and_no_message(tmp_path: Path) -> None:
    """What the code printed or raised on a hidden case is not kept: the record and the
    feedback say the exception's type and the student's file and line (the many renderings
    of a leak are tests/kit/grading/test_hidden_leaks.py's)."""
    r = tiny_rubric(tmp_path)
    subs = tmp_path / "subs"
    student(subs / "dee", "0.0", "0.0", extra=(
        "def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):\n"
        "    text = open(raw_dataset_file, encoding='utf-8').read()\n"
        "    print(text)\n"
        "    raise ValueError('unexpected value ' + text.splitlines()[1])\n\n"))
    (subs / "dee" / "skeleton.py").write_text(
        (subs / "dee" / "skeleton.py").read_text().replace(
            "def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):\n    return 0.0",
            "def unused():\n    return 0.0"), encoding="utf-8")
    grade_class(BatchSettings(subs, tmp_path / "out", r, sandbox="none", progress=False))
    text = (tmp_path / "out" / "feedback" / "dee.md").read_text(encoding="utf-8")
    record = json.loads((tmp_path / "out" / "results" / "dee" / "record.json").read_text())
    case = next(c for c in record["cases"] if c["function"] == "cost_MD")
    assert (case["status"], case["message"], case["output"]) == (
        "error", "raised ValueError at skeleton.py, line 4", "")
    assert "  raised ValueError at skeleton.py, line 4\n" in text
    assert "Printed:" not in text and "unexpected value" not in text and "Traceback" not in text
    raw = (CASES / "hidden" / "unbalanced" / "adult-hw1.csv").read_text(encoding="utf-8")
    for value in ("Brussels", "Antwerp", "Oceania", "Asthma", "Covid", "age,region,job"):
        assert value in raw and value not in text and value not in json.dumps(record)


@pytest.mark.slow
def test_rerun_reuses_unchanged_submissions_only(batch, tmp_path: Path) -> None:
    r, subs = batch
    out = tmp_path / "out"
    grade_class(BatchSettings(subs, out, r, jobs=2, sandbox="none", progress=False))
    again = grade_class(BatchSettings(subs, out, r, jobs=2, sandbox="none", progress=False))
    assert (again.graded, again.cached) == (0, 3)
    student(subs / "ben", "0.0", "0.0")
    changed = grade_class(BatchSettings(subs, out, r, jobs=2, sandbox="none", progress=False))
    assert (changed.graded, changed.cached) == (1, 2)
    assert read_grades(out / "grades.csv")[1]["total"] == "0"
    other = rubric.load(r.path, {"time_limit": 1.5})
    assert grade_class(BatchSettings(subs, out, other, sandbox="none", progress=False)).graded == 3


@pytest.mark.slow
def test_a_grader_failure_on_one_submission_does_not_stop_the_batch(batch, tmp_path: Path,
                                                                     monkeypatch) -> None:
    r, subs = batch
    real = grade_mod.grade

    def flaky(sub, ctx):
        if sub.student == "ben":
            raise RuntimeError("grader bug")
        return real(sub, ctx)
    monkeypatch.setattr("grader.grading.runner.grade", flaky)
    result = grade_class(BatchSettings(subs, tmp_path / "out", r, jobs=2, sandbox="none", progress=False))
    assert [x["status"] for x in result.records] == ["ok", "grader-error", "error"]
    monkeypatch.setattr("grader.grading.runner.grade", real)
    again = grade_class(BatchSettings(subs, tmp_path / "out", r, jobs=2, sandbox="none", progress=False))
    assert (again.graded, again.cached) == (1, 2)  # a grader-error is never cached


@pytest.mark.slow
def test_interrupted_run_resumes_without_losing_or_redoing_work(tmp_path: Path) -> None:
    r = tiny_rubric(tmp_path)
    a = answers(r)
    subs = tmp_path / "subs"
    for name in ("a1", "a2", "a3"):
        student(subs / name, repr(a["cost_MD"]), repr(a["cost_LM"]))
    for name in ("z1", "z2"):  # each call takes the whole time limit
        student(subs / name, "next(x for x in iter(int, 1) if x)", "0")  # spins
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    scratch.mkdir()
    # a short limit: z1 and z2 spin three times in all (z1 is interrupted, then graded again)
    short = tmp_path / "short.toml"
    short.write_text(TINY.replace("time_limit = 2\n", "time_limit = 0.5\n"), encoding="utf-8")
    cmd = [sys.executable, "-m", "grader", "grade", str(subs), "--out", str(out), "--rubric",
           str(short), "--jobs", "1", "--sandbox", "none", "--scratch", str(scratch)]
    # Ctrl-C as a TA's terminal sends it, even when this suite itself runs in the background
    # (where a shell starts it with SIGINT ignored, and the grader would inherit that).
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_sigint_default)
    deadline = time.monotonic() + 60
    while not (out / "results" / "a3" / "record.json").exists():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    time.sleep(0.3)  # z1 is running now
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "rerun the same command to resume" in err
    assert not (out / "grades.csv").exists()
    done = sorted(p.parent.name for p in (out / "results").glob("*/record.json"))
    assert done[:3] == ["a1", "a2", "a3"] and "z2" not in done
    assert list(scratch.iterdir()) == []  # scratch folders removed ...
    assert not [p for p in Path("/proc").glob("[0-9]*") if _cwd_under(p, scratch)]  # no child
    resumed = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"reused {len(done)}" in resumed.stderr
    assert [g["status"] for g in read_grades(out / "grades.csv")] == ["ok"] * 3 + ["timeout"] * 2


def _cwd_under(proc: Path, folder: Path) -> bool:
    try:
        return str(folder) in os.readlink(proc / "cwd")
    except OSError:
        return False


@pytest.mark.slow
def test_cli_reports_user_errors_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(tmp_path / "none"),
                           "--out", str(tmp_path / "o")], cwd=REPO, capture_output=True,
                          text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("error: submissions not found:") and "Traceback" not in done.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace("points = 4", "points = -4"), encoding="utf-8")
    (tmp_path / "subs").mkdir()
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(tmp_path / "subs"),
                           "--out", str(tmp_path / "o"), "--rubric", str(bad)], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 2 and "part[1].points: must be at least 0" in done.stderr
