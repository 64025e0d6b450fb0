"""Public tests of the functions your course declares itself (each has its own section in
HANDOUT.md): every public case of your course's rubric for them, called as the grader calls
it, and judged by kcheck, the checker the grader judges them with (kcheck/ in this folder).
A table must be a valid generalization of the raw table, every equivalence class of at least k
records, and its information loss within the band the staff's own runs give; a number must be
within the tolerance of the expected value. Each failure names the first broken rule.

The cases are data: data/course/cases.json, written when your bundle was made, with the data
folders they read beside it. Each call runs in a fresh folder holding the case's dataset as
`adult-hw1.csv`, its hierarchies as `DGHs/` and, for a function that reads an anonymized
table, that table as `anonymized.csv`.
"""
from __future__ import annotations

import csv
import gzip
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

import course_rules
from messages import _, language

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the folder holding skeleton.py and kcheck/
OWN = HERE / "data" / "course"
RAW, DGHS, ANONYMIZED = "adult-hw1.csv", "DGHs", "anonymized.csv"


def _load() -> list[dict]:
    path = OWN / "cases.json"
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


CASES = _load()
FUNCTIONS = {case["function"]: case["params"] for case in CASES}


def _kcheck():
    """The kcheck package beside tests/ (the bundle's own copy)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import kcheck
    return kcheck


class _Size:
    """What the runner needs of a case's table to set its time limit: its row count."""

    def __init__(self, rows: int):
        self.rows = range(rows)


def describe(case: dict) -> str:
    """'chunk_anonymizer(k=3) on case 'toy, k=3''."""
    values = ", ".join(f"{name}={value!r}" for name, value in case["values"].items())
    return _("{call} on case {case!r}").format(call=f"{case['function']}({values})",
                                               case=case["case"])


def fill_folder(case: dict, folder: Path) -> None:
    """The case's dataset, hierarchies and anonymized input in `folder`."""
    data = OWN / case["data"]
    raw = data / case["raw"]
    if not raw.is_file():
        pytest.fail(_("public data missing: {path} (keep the bundle's files next to tests/)"
                      ).format(path=raw), pytrace=False)
    (folder / RAW).write_bytes(_read(raw))
    (folder / DGHS).mkdir()
    for name in case["dghs"]:
        shutil.copyfile(data / DGHS / name, folder / DGHS / name)
    if case["anonymized"]:
        (folder / ANONYMIZED).write_bytes(_read(data / case["anonymized"]))


def _read(path: Path) -> bytes:
    """A data file's bytes (a large one ships gzip-compressed: name.gz)."""
    return gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()


def require(solution, name: str) -> None:
    """Fail with one line unless the solution imported and defines `name` (counting every
    function your course grades, its own included)."""
    if solution.error:
        pytest.fail(solution.error, pytrace=False)
    if name not in solution.defined:
        count = len(course_rules.course().get("time", {})) or len(FUNCTIONS)
        pytest.fail(_("{file} has no function {name}; keep the {count} signatures of "
                      "skeleton.py").format(file=solution.path.name, name=name, number=count,
                                            count=course_rules.in_words(count)), pytrace=False)


def call(runner, case: dict, folder: Path, timed: bool = True):
    """Run the case's call in `folder`: (the answer, its one-line failure or None)."""
    runner.tables.setdefault(f"course:{case['data']}", _Size(case["rows"]))
    fill_folder(case, folder)
    before = os.getcwd()
    os.chdir(folder)
    try:
        return runner.call(case["function"], f"course:{case['data']}", list(case["args"]),
                           describe(case), folder, timed=timed)
    finally:
        os.chdir(before)


def broken(what: str, verdict, facts: str = "") -> None:
    """Fail with the first broken rule, in kcheck's words in your course's language."""
    sentence = _kcheck().render(verdict, language())
    if facts:  # Chinese text takes full-width parentheses
        sentence += f"（{facts}）" if language().startswith("zh") else f" ({facts})"
    pytest.fail(_("{what}: it breaks the rule \"{rule}\": {sentence}").format(
        what=what, rule=verdict.rule, sentence=sentence), pytrace=False)


def judge_table(case: dict, folder: Path) -> None:
    """The output judged by kcheck.quality (or equal to the expected table)."""
    kcheck = _kcheck()
    what = describe(case)
    output = folder / case["output"]
    if case["judge"] == "exact" and case.get("expected_table"):
        if not output.is_file():
            broken(what, kcheck.verdicts.wrong("quality.file", detail="missing"))
        with open(output, encoding="utf-8", newline="") as f:
            got = [row for row in csv.reader(f) if row]
        with open(OWN / case["expected_table"], encoding="utf-8", newline="") as f:
            expected = [row for row in csv.reader(f) if row]
        if got != expected:
            at = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b),
                      min(len(got), len(expected)))
            where = f"tests/public/data/course/{case['expected_table']}"
            problem = _("differs from the reference output {where}: {problem}").format(
                where=where, problem=kcheck.text.say(kcheck.messages.where_message(row=at),
                                                     language()))
            pytest.fail(_("{what}: {problem}").format(what=what, problem=problem),
                        pytrace=False)
        return
    trees = kcheck.read_folder(folder / DGHS, case["hierarchy_format"])
    result = kcheck.judge_quality(folder / RAW, trees, output, k=int(case["values"]["k"]),
                                  qis=case["qis"], numeric=case["numeric"],
                                  released=case["released"], band_max=case.get("band_max"),
                                  metric=case.get("metric", "ncp"))
    if not result.verdict.ok:
        facts = result.facts
        broken(what, result.verdict, kcheck.render_facts(
            facts.classes, facts.smallest, facts.cost, facts.metric, language()))


def judge_number(case: dict, answer) -> None:
    """The returned number judged by kcheck.number, within the course's tolerance."""
    what = describe(case)
    if answer.number is None:
        pytest.fail(_("{what}: returned {value}, expected a number").format(
            what=what, value=answer.text), pytrace=False)
    expected = float(case["expected"])
    verdict = _kcheck().judge_number(answer.number, expected,
                                     case["tolerance"] * max(1.0, abs(expected)))
    if not verdict.ok:
        broken(what, verdict)


def judge_error(case: dict, answer, folder: Path) -> None:
    """The call raised the expected exception (ValueError: and wrote nothing)."""
    what, error, reason = describe(case), case["expect"], case["case"]
    if error != "ValueError":  # FileNotFoundError
        if not answer.text.startswith(f"{error}:"):
            pytest.fail(_("{what}: expected {expected!r}, got {got!r}").format(
                what=what, expected=error, got=answer.text), pytrace=False)
        return
    if answer.kind == "returned":
        pytest.fail(_("{what}: expected ValueError ({reason}), but it returned normally").format(
            what=what, reason=reason), pytrace=False)
    if answer.value_error is None:
        pytest.fail(_("{what}: expected ValueError ({reason}), got {got}").format(
            what=what, reason=reason, got=answer.text), pytrace=False)
    if case["output"] and (folder / case["output"]).exists():
        pytest.fail(_("{what}: raised ValueError but left {files} behind (write to a temporary "
                      "file and rename it only when done)").format(
            what=what, files=case["output"]), pytrace=False)


if CASES:  # a course with functions of its own: its bundle holds their cases
    @pytest.mark.parametrize("name", [pytest.param(name, id=name) for name in FUNCTIONS])
    def test_course_function_signature(name, solution, runner):
        expected = "(" + ", ".join(param for param, _kind in FUNCTIONS[name]) + ")"
        require(solution, name)
        got = solution.parameters(name)
        if got != expected:
            pytest.fail(_("{name} must take {expected}, yours takes {got}").format(
                name=name, expected=expected, got=got), pytrace=False)

    @pytest.mark.parametrize("own_case", [pytest.param(case, id=case["id"]) for case in CASES])
    def test_course_function_case(own_case, solution, runner, tmp_path):
        require(solution, own_case["function"])
        answer, failure = call(runner, own_case, tmp_path, timed=own_case["expect"] is None)
        if own_case["expect"]:
            if answer.kind in ("returned", "raised"):
                judge_error(own_case, answer, tmp_path)
                return
        if failure:
            pytest.fail(failure, pytrace=False)
        if own_case["output"]:
            judge_table(own_case, tmp_path)
        else:
            judge_number(own_case, answer)
