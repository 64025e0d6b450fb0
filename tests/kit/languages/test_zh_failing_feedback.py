"""A zh-CN course's failing submissions read in Chinese: the demo course courses/ustc (its
smaller twin, tests/kit/ustc_class/small_course.py: the same rubric, language and hidden cases,
a 4,000-row public dataset, made once per run) grades copies of its known-good solution
broken in several ways (an exception, no output file,
sys.exit, NotImplementedError, printing and a wrong header, the raw file copied, a higher
vector than the lowest: partial credit, no graded function at all), and each student's
feedback.md, Gradescope results.json and Moodle/Canvas HTML page holds no English sentence
(translations.english_runs, the check the handout's translations pass) outside code,
tracebacks and printed output."""
from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from child_python import compiled_env

from grader.courses.folder import resolve
from grader.courses.solution import solution_source
from grader.gradebook.feedback_export import student_page
from grader.publishing.materials.translations import english_runs
from shared_bundles import ustc_twin
from test_zh_messages_text import page_text, problems

REPO = Path(__file__).resolve().parents[3]
USTC = REPO / "courses" / "ustc"
pytestmark = pytest.mark.slow

BROKEN = {  # student -> what replaces the solution's functions (appended to its file)
    "li": '''
def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    raise RuntimeError("boom")

def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    return None
''',
    "zhang": '''
import shutil as _shutil

def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    if k < 1:
        raise ValueError("k")
    _shutil.copyfile(raw_dataset_file, output_file)

def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    print("debug", k)
    with open(raw_dataset_file) as f, open(output_file, "w") as g:
        g.write("a,b,c\\n" + "\\n".join(f.read().splitlines()[1:]) + "\\n")
''',
    "zhao": '''
def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    raise NotImplementedError

def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    import sys
    sys.exit(3)
''',
    "sun": '''
import csv as _csv
import os as _os
_right_samarati = samarati

def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    _right_samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file)
    with open(output_file, newline="") as f:
        rows = list(_csv.reader(f))
    roots = {}
    for name in _os.listdir(DGH_folder):
        with open(_os.path.join(DGH_folder, name)) as f:
            pairs = [line.strip().split(",") for line in f if line.strip()]
        children = {c for c, _ in pairs}
        roots[name[:-4]] = next(p for _, p in pairs if p not in children)
    columns = [i for i, c in enumerate(rows[0]) if c in roots]
    for row in rows[1:]:
        for i in columns:
            row[i] = roots[rows[0][i]]
    with open(output_file, "w", newline="") as f:
        _csv.writer(f, lineterminator="\\n").writerows(rows)
''',
    "qian": "\ndef samarati(:\n",
}


QUOTED = ()
"""The students' own texts in their pages (exception messages, Python's own among them)."""


def grader(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=REPO,
                          env=compiled_env(dict(os.environ)), capture_output=True, text=True,
                          timeout=900)


def _visible(text: str) -> str:
    """The prose of a Gradescope output or an HTML page: code, tracebacks and printed
    output (fenced or <pre>), tags and inline code left out."""
    text = re.sub(r"<pre>.*?</pre>|<code>.*?</code>|<style>.*?</style>", " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def test_failing_zh_cn_submissions_read_in_chinese(tmp_path: Path,
                                                  tmp_path_factory: pytest.TempPathFactory
                                                  ) -> None:
    course = ustc_twin(tmp_path_factory)  # made once per run, shared (graded, never changed)
    # what `python -m grader solution --course` writes (that command is tested elsewhere)
    solution = solution_source(resolve(USTC)[0], "course ustc")
    for student, broken in BROKEN.items():
        (tmp_path / "subs" / student).mkdir(parents=True)
        (tmp_path / "subs" / student / "lab.py").write_text(solution + broken,
                                                            encoding="utf-8")
    out = tmp_path / "out"
    done = grader("grade", str(tmp_path / "subs"), "--course", str(course), "--out", str(out),
                  "--run-as", "none")
    assert done.returncode == 0, done.stderr
    statuses = set()
    for student in BROKEN:
        feedback = (out / "feedback" / f"{student}.md").read_text(encoding="utf-8")
        assert english_runs(feedback) == [], (student, english_runs(feedback))
        assert problems(feedback, QUOTED) == [], student
        results = json.loads((out / "results" / student / "results.json").read_text("utf-8"))
        texts = [results["output"]] + [t["name"] + "\n" + t["output"] for t in results["tests"]]
        for text in texts:
            assert english_runs(text) == [], (student, text)
            assert problems(text, QUOTED) == [], (student, text)
        statuses |= {line.split("`")[1] for line in feedback.splitlines()
                     if line.startswith("- **") and "`" in line}
        page = student_page(out, student)
        assert english_runs(_visible(page)) == [], (student, english_runs(_visible(page)))
        assert problems(page_text(page), QUOTED) == [], student
    assert {"error", "no-output", "exit", "not-attempted", "wrong", "partial",
            "no-solution"} <= statuses, statuses
    sun = (out / "feedback" / "sun.md").read_text(encoding="utf-8")
    assert "有效且满足 k-匿名，但违反了规则“lowest-height”" in sun
    assert "删除了 4 行" in sun  # the privacy summary's suffix (adult, k=10, on the twin)
