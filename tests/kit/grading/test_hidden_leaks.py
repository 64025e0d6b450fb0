"""End to end: a submission that prints its inputs raw, CSV-quoted, as repr and as JSON, on
stdout and stderr, and fails with exceptions, an exit and wrong outputs that quote raw lines
and cells (tests/kit/leaky_student/skeleton.py), graded on hidden cases with quoted cells,
commas, non-ASCII and one- and two-character cells: no hidden cell or hierarchy label, in any
of those renderings, is in any file the grader writes for students, the staff or the LMS
(feedback, results.json, record.json, summaries, `python -m grader export`'s CSVs and feedback
zip). A public case of the same file keeps its message and printed output.

What counts as public (the allow-list): the public dataset's cells and labels, every case's
column names, and every whole word of the kit's sources (its message templates), the public
counterexample pool (whose datasets share a few cells with the hidden ones, "Zürich" among
them), the rubric and the student's own file. The test asserts that the values it checks
include every kind of cell it means to (quoted, non-ASCII, short), so it can fail; with the
redaction of before (cells of 3+ characters replaced) it finds 36: 8 values, among them
"The ""Big"" Smoke", JSON-escaped "naïve café" and "BI", in the feedback, both JSON files and
the zip. Measured times (numbers that differ run to run) are masked, so it is not flaky. Parts judged
by rules (what their messages compute from hidden data): test_rules_hidden_leaks.py.
"""
from __future__ import annotations

import csv
import functools
import html
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader import rubric
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from tiny_class import CASES, REPO

pytestmark = pytest.mark.slow  # a class graded and exported
STUDENT = Path(__file__).resolve().parents[1] / "leaky_student" / "skeleton.py"
ENTRY = "Dee Leak_4242_assignsubmission_file_"  # a Moodle download's folder name
HIDDEN = ("quoted", "unbalanced", "single-qi", "ties", "many-qi")
RUBRIC = f"""\
[settings]
time_limit = 2
import_time_limit = 5
counterexample_calls = 6
cases_dir = "{CASES}"

[[part]]
function = "cost_MD"
points = 10

[[part.case]]
name = "adult-hw1, generalized levels"
data = "public/adult"
anonymized = "anonymized/levels.csv"

[[part.case]]
name = "commas, quotes, non-ASCII"
data = "hidden/quoted"
anonymized = "anonymized/levels.csv"
hidden = true

[[part]]
function = "cost_LM"
points = 10

[[part.case]]
name = "commas, quotes, non-ASCII"
data = "hidden/quoted"
anonymized = "anonymized/intervals.csv"
hidden = true

[[part.case]]
name = "single QI, suppressed rows"
data = "hidden/single-qi"
anonymized = "anonymized/suppressed.csv"
hidden = true

[[part]]
function = "random_anonymizer"
points = 10

[[part.case]]
name = "commas, quotes, non-ASCII, k=3"
data = "hidden/quoted"
k = 3
s = 11
hidden = true

[[part]]
function = "clustering_anonymizer"
points = 10

[[part.case]]
name = "ten QIs, k=5"
data = "hidden/many-qi"
k = 5
hidden = true

[[part]]
function = "bottomup_anonymizer"
points = 10

[[part.case]]
name = "unbalanced, k=3, l=2"
data = "hidden/unbalanced"
k = 3
l = 2
hidden = true

[[part]]
function = "samarati"
points = 10

[[part.case]]
name = "ties, k=4, max_sup=2"
data = "hidden/ties"
k = 4
max_sup = 2
hidden = true

[[part]]
function = "mondrian"
points = 10

[[part.case]]
name = "commas, quotes, non-ASCII, k=2"
data = "hidden/quoted"
k = 2
hidden = true
"""


def cells(path: Path) -> set[str]:
    with open(path, encoding="utf-8", newline="") as f:
        return {cell for row in csv.reader(f) for cell in row}


def labels(folder: Path) -> set[str]:
    return {line.strip() for p in folder.glob("*.txt")
            for line in p.read_text(encoding="utf-8").splitlines() if line.strip()}


def headers() -> set[str]:
    found = set()
    for path in (CASES / "public" / "adult" / "adult-hw1.csv",
                 *(CASES / "hidden" / h / "adult-hw1.csv" for h in HIDDEN)):
        with open(path, encoding="utf-8", newline="") as f:
            found |= set(next(csv.reader(f)))
    return found


def renderings(value: str) -> set[str]:
    """The value as a student's code may print it: raw, CSV-quoted, repr, JSON (both ways)."""
    return {value, '"' + value.replace('"', '""') + '"', repr(value), json.dumps(value),
            json.dumps(value, ensure_ascii=False)}


def pattern(text: str) -> re.Pattern:
    """`text` not inside a longer word or number ("2" is not in "20", "Any" not in "Many")."""
    before = r"(?<![\w.])" if re.match(r"\w", text) else ""
    after = r"(?!\w|\.\d)" if re.search(r"\w$", text) else ""
    return re.compile(before + re.escape(text) + after)


def public_words() -> str:
    """The kit's sources (its message templates; not casegen.py, which writes the kit's
    hidden data), the public counterexample pool, the rubric and the student's file."""
    texts = [p.read_text(encoding="utf-8") for folder in ("grader", "kanon")
             for p in sorted((REPO / folder).rglob("*.py")) if p.name != "casegen.py"]
    texts += [p.read_text(encoding="utf-8")
              for p in sorted((CASES / "counterexamples").glob("*.json"))]
    return "\n".join(texts + [RUBRIC, STUDENT.read_text(encoding="utf-8")])


@functools.cache
def checked_values() -> dict[str, list[re.Pattern]]:
    """Every hidden cell and label not also public -> the patterns of its renderings (worked
    out once; a pattern is searched for only where its text occurs at all)."""
    public = cells(CASES / "public" / "adult" / "adult-hw1.csv") | headers()
    public |= labels(CASES / "public" / "adult" / "DGHs")
    words = public_words()
    hidden: set[str] = set()
    for name in HIDDEN:
        hidden |= cells(CASES / "hidden" / name / "adult-hw1.csv") - headers()
        hidden |= labels(CASES / "hidden" / name / "DGHs")
    return {v: [pattern(r) for r in renderings(v)] for v in sorted(hidden)
            if v and v not in public and not (v in words and pattern(v).search(words))}


def json_strings(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *json_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in json_strings(v)]
    return [value] if isinstance(value, str) else []


# measured times vary from run to run and are never a leak: the CPU times of the feedback,
# timings.csv's numbers and the dashboard's run-time section (its bars' coordinates)
TIMES = re.compile(r"\b\d+\.\d{2} s of its\b")
NUMBERS = re.compile(r"\d+\.\d+")
RUN_TIMES = re.compile(r"<h2>Run time per function</h2>.*?<h2>", re.DOTALL)


def texts(name: str, data: bytes) -> list[str]:
    """What a file says, as a reader sees it: its text, a JSON file's strings, an HTML
    page's unescaped text, a zip's members."""
    if name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return [t for member in z.namelist() for t in texts(member, z.read(member))]
    text = TIMES.sub("", data.decode("utf-8", "replace"))
    if name == "timings.csv":
        text = NUMBERS.sub("", text)
    if name.endswith(".json"):  # its strings (its numbers are times, points and limits)
        return json_strings(json.loads(text))
    if name.endswith((".html", ".htm")):
        text = RUN_TIMES.sub("", text)
        return [text, html.unescape(text)]
    return [text]


def leaks(folder: Path, values: dict[str, list[re.Pattern]]) -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        for text in texts(path.name, path.read_bytes()):
            for value, patterns in values.items():
                if not any(shown in text for shown in renderings(value)):
                    continue  # no rendering's text, so no pattern of it, is in this text
                hit = next((p.pattern for p in patterns if p.search(text)), None)
                if hit is not None:
                    found.append((path.relative_to(folder).as_posix(), value, hit))
    return sorted(set(found))


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("leaky")
    (base / "rubric.toml").write_text(RUBRIC, encoding="utf-8")
    submission = base / "subs" / ENTRY
    submission.mkdir(parents=True)
    (submission / "skeleton.py").write_bytes(STUDENT.read_bytes())
    r = rubric.load(base / "rubric.toml", {"run_as": "none"})
    out = base / "out"
    result = grade_class(BatchSettings(base / "subs", out, r, sandbox="none", progress=False))
    assert result.graded == 1
    exports = out / "exports"  # inside the graded folder: scanned with the rest
    exports.mkdir()
    for fmt, extra in (("moodle", ["--feedback", str(exports / "feedback.zip")]),
                       ("gradescope", [])):
        done = subprocess.run([sys.executable, "-m", "grader", "export", str(out), "--format",
                               fmt, "--out", str(exports / f"{fmt}.csv"), *extra],
                              cwd=REPO, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    return out


def line_of(start: str) -> int:
    """The number of the student's first line that starts (indentation aside) with `start`."""
    lines = STUDENT.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.strip().startswith(start))


def test_the_check_covers_quoted_non_ascii_and_short_cells() -> None:
    values = checked_values()
    for value in ('The "Big" Smoke', 'Omnivore, "all"', "Seoul, KR", "東京", "naïve café",
                  'said "hello"', "Veg; vegan", "Antwerp", "Asthma", "47677", "4790*", "Circle",
                  "Q1-a", "BI", "ML", "Y", "9.5", "2.25"):
        assert value in values, value
    assert "Zürich" not in values  # public: a cell of tests/public's "world" case too
    assert len(values) >= 100


def test_no_hidden_cell_in_any_file_the_grader_writes(graded: Path) -> None:
    written = {p.relative_to(graded).as_posix() for p in graded.rglob("*") if p.is_file()}
    for name in ("feedback/Dee_Leak.md", "results/Dee_Leak/results.json",
                 "results/Dee_Leak/record.json", "summary.md", "summary.html",
                 "exports/feedback.zip", "exports/moodle.csv", "exports/gradescope.csv"):
        assert name in written, (name, sorted(written))
    assert leaks(graded, checked_values()) == []


def test_a_hidden_case_says_its_verdict_type_file_and_line(graded: Path) -> None:
    record = json.loads((graded / "results" / "Dee_Leak" / "record.json").read_text())
    hidden = {(c["function"], c["name"]): c for c in record["cases"] if c["hidden"]}
    assert all(c["output"] == "" for c in hidden.values())
    expected = {"cost_MD": ("ValueError", "raise ValueError("),
                "cost_LM": ("DatasetError", "raise DatasetError("),
                "bottomup_anonymizer": ("KeyError", "return counts[rows[1][-1]]"),
                "samarati": ("AssertionError", "assert len(rows) < 5")}
    for (function, name), case in hidden.items():
        if function in expected:
            kind, where = expected[function]
            assert case["message"] == f"raised {kind} at skeleton.py, line {line_of(where)}", \
                (function, name)
    assert hidden["clustering_anonymizer", "ten QIs, k=5"]["message"] == \
        "called sys.exit / exit"
    assert hidden["random_anonymizer", "commas, quotes, non-ASCII, k=3"]["message"] == \
        "not a valid generalization: the header differs from the raw file's header"
    assert hidden["mondrian", "commas, quotes, non-ASCII, k=2"]["message"] == \
        ("not a valid generalization: data row 2 (the header is not counted), column 'city': "
         "output is not an ancestor of "
         "the raw value")
    feedback = (graded / "feedback" / "Dee_Leak.md").read_text(encoding="utf-8")
    assert feedback.count("Printed:") == 1  # the public case's only


def test_a_public_case_keeps_its_message_and_printed_output(graded: Path) -> None:
    record = json.loads((graded / "results" / "Dee_Leak" / "record.json").read_text())
    public = next(c for c in record["cases"] if not c["hidden"])
    head, _, trace = public["message"].partition("\n")
    assert head.startswith("raised ValueError: cannot parse line 3: ")
    assert 'File "skeleton.py", line' in trace and "raise ValueError" in trace
    assert "first rows:" not in public["output"] and public["output"].startswith("age,")
