"""End to end, the rule-judged side of test_hidden_leaks.py: single-bug students of the USTC
lab (tests/kit/publishing/rules_students.py) graded on two hidden cases of courses/ustc (its
Samarati and Mondrian judged by rules), in English and in zh-CN, then exported (Moodle's
feedback zip of HTML pages, Gradescope's CSV). In every file the grader writes, a hidden case's
message is the verdict and each broken rule's name with its row and column only: none of what
the same outputs' public-case messages compute from the hidden data (vectors, heights, counts,
cells and labels) and no privacy summary (classes and their sizes) appears anywhere, in the
record, results.json (Gradescope's JSON), the Markdown feedback or the HTML pages.
"""
from __future__ import annotations

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
from grader.catalogs import translator
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.grading.compare import load_case_data
from grader.grading.rules_judge import judge_by_rules
from kcheck.text import Message, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "publishing"))
from rules_students import source  # noqa: E402

pytestmark = pytest.mark.slow  # two small classes graded and exported
KIT = Path(__file__).resolve().parents[3]
CASES = KIT / "courses" / "ustc" / "cases"
BUGS = ("star-outliers", "higher", "equal-bounds", "k-1")
STUDENT = {bug: bug.replace("-", " ").title().replace(" ", "_") for bug in BUGS}
"""A bug's student id: its submission folder is a Moodle download's, e.g. 'K 1_4243_...'."""
RUBRIC = """\
[course]
language = "{language}"

[settings]
time_limit = 10.0
import_time_limit = 10.0
counterexample_calls = 4
partial_credit = 0.5
cases_dir = "{cases}"

[data]
sensitive = "occupation"
other_columns = "drop"
suppression = "delete"
hierarchy_format = "child-parent"

[[part]]
function = "samarati"
points = 25
judge = "rules"
qis = ["age", "sex", "race", "marital_status"]

[[part.case]]
name = "500 rows, k=5, max_sup=10"
data = "hidden/sample-500"
k = 5
max_sup = 10
hidden = true

[[part]]
function = "mondrian"
points = 25
judge = "rules"
qis = ["age", "education_num"]

[[part.case]]
name = "200 rows, k=3"
data = "hidden/sample-200"
k = 3
hidden = true
"""
CALLS = {"samarati": ("sample-500", {"k": 5, "max_sup": 10}, ["age", "sex", "race",
                                                                  "marital_status"]),
         "mondrian": ("sample-200", {"k": 3}, ["age", "education_num"])}


@pytest.fixture(scope="module", params=["en", "zh-CN"])
def graded(request, tmp_path_factory) -> tuple[str, Path, rubric.Rubric]:
    base = tmp_path_factory.mktemp(f"rules-{request.param}")
    (base / "rubric.toml").write_text(RUBRIC.format(language=request.param, cases=CASES),
                                      encoding="utf-8")
    for n, bug in enumerate(BUGS):
        entry = base / "subs" / f"{STUDENT[bug].replace('_', ' ')}_{4242 + n}_assignsubmission_file_"
        entry.mkdir(parents=True)
        (entry / "skeleton.py").write_text(source(bug), encoding="utf-8")
    r = rubric.load(base / "rubric.toml", {"run_as": "none"})
    out = base / "out"
    assert grade_class(BatchSettings(base / "subs", out, r, sandbox="none",
                                     progress=False)).graded == len(BUGS)
    exports = out / "exports"
    exports.mkdir()
    for fmt, extra in (("moodle", ["--feedback", str(exports / "feedback.zip")]),
                       ("gradescope", [])):
        done = subprocess.run([sys.executable, "-m", "grader", "export", str(out), "--format",
                               fmt, "--out", str(exports / f"{fmt}.csv"), *extra],
                              cwd=KIT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    return request.param, out, r


def _texts(name: str, data: bytes) -> list[str]:
    """What a file says: its text, a JSON file's whole text, an HTML page unescaped, a zip's
    members."""
    if name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return [t for member in z.namelist() for t in _texts(member, z.read(member))]
    text = data.decode("utf-8", "replace")
    if name.endswith(".json"):
        return [text, json.dumps(json.loads(text), ensure_ascii=False)]
    return [text, html.unescape(text)] if name.endswith((".html", ".htm")) else [text]


def _public_facts(out: Path, language: str) -> set[str]:
    """What the hidden outputs' messages would say as public cases' (vectors, heights,
    counts, cells: computed from hidden data), in English and in the course's language."""
    _ = translator(language)
    facts = set()
    for bug in BUGS:
        record = json.loads((out / "results" / STUDENT[bug] / "record.json").read_text("utf-8"))
        for function, (folder, ints, qis) in CALLS.items():
            produced = out.parent / "outputs"  # the student's output again, called here
            produced.mkdir(exist_ok=True)
            data = load_case_data(CASES / "hidden" / folder, tuple(qis),
                                  rubric.load(out.parent / "rubric.toml").parts[0]
                                  .cases[0].schema)
            text = _rerun(bug, function, folder, ints, qis, produced)
            verdict = judge_by_rules(text, data, function, ints, hidden=False)
            assert verdict.said is not None and verdict.said.english() == verdict.message
            broken = verdict.said.params.get("rules")  # none when the output passed
            for item in broken.items if broken else ():  # 'rule "{rule}": {detail}'
                detail = item.params["detail"]
                facts |= {detail.english(), render(detail, _)}
                facts |= set(re.findall(r"\((?:\w+ \d+, )*\w+ \d+\)", detail.english()))
        assert record["cases"]
    return {f for f in facts if f}


def _rerun(bug: str, function: str, folder: str, ints: dict, qis: list[str],
           where: Path) -> bytes:
    from types import ModuleType
    dghs = where / f"{function}-DGHs"
    dghs.mkdir(exist_ok=True)
    for qi in qis:
        (dghs / f"{qi}.txt").write_bytes((CASES / "hidden" / folder / "DGHs" /
                                          f"{qi}.txt").read_bytes())
    module = ModuleType("student")
    exec(compile(source(bug), "student.py", "exec"), module.__dict__)  # noqa: S102
    target = where / f"{bug}-{function}.csv"
    getattr(module, function)(str(CASES / "hidden" / folder / "adult-hw1.csv"), str(dghs),
                              *ints.values(), str(target))
    return target.read_bytes()


def test_no_file_shows_what_a_hidden_rule_judged_case_computes(graded) -> None:
    language, out, _rubric = graded
    facts = _public_facts(out, language)
    assert any(re.fullmatch(r"\((?:\w+ \d+, )*\w+ \d+\)", f) for f in facts)  # vectors
    assert len(facts) >= 8  # so the check means something
    files = sorted(p for p in out.rglob("*") if p.is_file())
    names = {p.relative_to(out).as_posix() for p in files}
    for name in ("feedback/Higher.md", "results/Higher/results.json",
                 "results/Higher/record.json", "exports/feedback.zip",
                 "exports/gradescope.csv"):
        assert name in names, sorted(names)
    found = [(p.relative_to(out).as_posix(), f) for p in files
             for text in _texts(p.name, p.read_bytes()) for f in facts if f in text]
    assert found == []


def test_a_hidden_rule_judged_case_says_verdict_rules_rows_and_columns(graded) -> None:
    language, out, _rubric = graded
    _ = translator(language)
    english = r'rule "[a-z-]+"(?: at (?:raw )?data row \d+(?:, column \'[a-z_]+\')?)?'
    item = english if language == "en" else \
        r'规则“[a-z-]+”(?:（(?:原始)?第 \d+ 条数据行(?:，列 \'[a-z_]+\')?）)?'
    separator = re.escape(_("; "))
    shown = []
    for bug in BUGS:
        record = json.loads((out / "results" / STUDENT[bug] / "record.json").read_text("utf-8"))
        feedback = (out / "feedback" / f"{STUDENT[bug]}.md").read_text("utf-8")
        for case in record["cases"]:
            assert case["hidden"] and "privacy" not in case
            if case["status"] == "passed":
                continue
            assert re.fullmatch(rf"(?:valid and k-anonymous, but )?it breaks {english}"
                                rf"(?:; {english})*", case["message"]) or re.fullmatch(
                r"raised \w+(?: at skeleton\.py, line \d+)?", case["message"]), case["message"]
            said = Message.from_json(case["message_ref"])
            assert said.english() == case["message"]
            line = render(said, _)
            assert line in feedback
            if language != "en" and case["message"].startswith(("it", "valid")):
                verdict = next(_(v).replace("{rules}", "") for v in (
                    "valid and k-anonymous, but it breaks {rules}", "it breaks {rules}")
                    if line.startswith(_(v).replace("{rules}", "")))
                assert re.fullmatch(rf"{item}(?:{separator}{item})*", line[len(verdict):]), line
            shown.append(case["message"])
    assert len(shown) >= 4 and any("data row" in m for m in shown)
    assert _("k reached: {k} ({classes} classes of {low} to {high} rows)").split("{")[0] not in "".join(
        (out / "feedback" / f"{STUDENT[b]}.md").read_text("utf-8") for b in BUGS)
