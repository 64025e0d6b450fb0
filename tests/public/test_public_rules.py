"""Public tests of the functions your course judges by its rules (HANDOUT.md, "Grading"): each
output must keep every rule of the handout; any output that does is right (a samarati output
of any satisfying vector of the lowest height; a mondrian output of any order of cuts). Each
failure names the first broken rule as the grader does: the outputs are judged by the grader's
own rule sets (kcheck/rules, beside tests/)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import kanon_check as check
import teach_rules  # noqa: F401 (a failing part's public counterexample: teach.after_failure)
from messages import _, language
from public_cases import SIGNATURES
from rules_cases import (BY_RUN, CASES, RulesCase, case_release, fill_folder, judge,
                         optional_runs, raw_text, rejects, runs)

FUNCTIONS = sorted({c.function for c in CASES})
MARKS = {f: getattr(pytest.mark, f) for f in FUNCTIONS}


class _Size:
    """What the runner needs of a case's table to set its time limit: its row count."""

    def __init__(self, rows: int):
        self.rows = range(rows)


def _output(runner, case: RulesCase, folder: Path) -> tuple[list[str], check.Rows]:
    """(header, rows) the call wrote, or fail with one sentence."""
    runner.tables.setdefault(case.case, _Size(case.rows))
    fill_folder(case, folder)
    before = os.getcwd()
    os.chdir(folder)
    try:
        _, failure = runner.call(case.function, case.case, ["adult-hw1.csv", "DGHs",
                                                            *case.run.args("", "", "")[2:-1],
                                                            "anonymized.csv"],
                                 case.describe(), folder)
    finally:
        os.chdir(before)
    if failure:
        pytest.fail(failure, pytrace=False)
    out = folder / "anonymized.csv"
    if not out.is_file():
        pytest.fail(_("{what} returned without writing its output_file ('anonymized.csv' in "
                      "the working directory)").format(what=case.describe()), pytrace=False)
    try:
        return check.read_csv(str(out))
    except (UnicodeDecodeError, ValueError) as e:
        pytest.fail(_("{what}: the output is not a UTF-8 CSV file ({error})").format(
            what=case.describe(), error=e), pytrace=False)


def _params(function: str, optional: bool = False) -> list:
    """pytest params of `function`'s cases, each with the function's marker."""
    if function not in MARKS:
        return []
    return [pytest.param(*q.values, id=q.id, marks=[*q.marks, MARKS[function]])
            for q in (optional_runs if optional else runs)(function)]


@pytest.mark.parametrize("run", _params("samarati"))
def test_samarati_keeps_the_rules(run, runner, tmp_path):
    _keeps_the_rules(BY_RUN[run], runner, tmp_path)


@pytest.mark.parametrize("run", _params("mondrian"))
def test_mondrian_keeps_the_rules(run, runner, tmp_path):
    _keeps_the_rules(BY_RUN[run], runner, tmp_path)


@pytest.mark.parametrize("case, call", _params("mondrian", optional=True))
def test_mondrian_optional_part_keeps_the_rules(case, call, runner, tmp_path):
    _keeps_the_rules(call, runner, tmp_path)


def _keeps_the_rules(case: RulesCase, runner, tmp_path: Path) -> None:
    """The output keeps every rule of the handout; else the first broken rule, named."""
    runner.applies(case.function)
    header, out = _output(runner, case, tmp_path)
    raw_header, raw = check.read_csv_text(raw_text(case))
    broken = judge(case.function, case_release(case, raw_header, raw), case.k, case.max_sup,
                   header, out)
    if broken:
        pytest.fail(_("{what}: it breaks the rule \"{rule}\": {sentence}").format(
            what=case.describe(), rule=broken[0].rule, sentence=broken[0].text(language())),
            pytrace=False)


@pytest.mark.parametrize("bad", [pytest.param(*q.values, id=q.id, marks=[*q.marks, MARKS[f]])
                                 for f in FUNCTIONS for q in rejects(f)])
def test_rejects_bad_input(bad, runner, tmp_path):
    runner.applies(bad.function, any_variant=True)
    runner.tables.setdefault(bad.case, _Size(bad.rows))
    _check_rejects(runner, bad, [*bad.args], bad.reason, tmp_path)


@pytest.mark.parametrize("name", [pytest.param(f, id=f, marks=MARKS[f]) for f in FUNCTIONS])
def test_signature(name, solution, runner):
    runner.applies(name, any_variant=True)
    got = solution.parameters(name)
    if got != SIGNATURES[name]:
        pytest.fail(_("{name} must take {expected}, yours takes {got}").format(
            name=name, expected=SIGNATURES[name], got=got), pytrace=False)


@pytest.mark.parametrize("name", [pytest.param(f, id=f, marks=MARKS[f]) for f in FUNCTIONS])
def test_refuses_to_overwrite_the_raw_file(name, runner, tmp_path):
    runner.applies(name, any_variant=True)
    case = next(c for c in CASES if c.function == name and c.case != "adult")
    runner.tables.setdefault(case.case, _Size(case.rows))
    args = [case.k] + ([] if case.max_sup is None else [case.max_sup])
    _check_rejects(runner, case, args, _("output_file is the raw dataset file itself"), tmp_path,
                   output="adult-hw1.csv")


def _check_rejects(runner, case: RulesCase, args: list, reason: str, folder: Path,
                   output: str = "anonymized.csv") -> None:
    """The call raises ValueError and leaves the raw file as it was, writing nothing."""
    fill_folder(case, folder)
    call = ["adult-hw1.csv", "DGHs", *args, output]
    what = f"{case.function}({', '.join(map(repr, call))}) on case {case.case!r}"
    before = os.getcwd()
    os.chdir(folder)
    try:
        answer, problem = runner.call(case.function, case.case, call, what, folder,
                                      timed=False)
    finally:
        os.chdir(before)
    if answer.kind == "returned":
        problem = _("{what}: expected ValueError ({reason}), but it returned normally").format(
            what=what, reason=reason)
    elif answer.kind == "raised" and answer.value_error is None:
        problem = _("{what}: expected ValueError ({reason}), got {got}").format(
            what=what, reason=reason, got=answer.text)
    elif answer.kind == "raised":
        problem = None
    if problem:
        pytest.fail(problem, pytrace=False)
    if (folder / "adult-hw1.csv").read_text(encoding="utf-8") != raw_text(case):
        pytest.fail(_("{what}: raised ValueError but changed the raw file").format(what=what),
                    pytrace=False)
    left = sorted(p.name for p in folder.iterdir() if p.name not in ("adult-hw1.csv", "DGHs"))
    if left:
        pytest.fail(_("{what}: raised ValueError but left {files} behind (write to a "
                      "temporary file and rename it only when done)").format(
            what=what, files=_(", ").join(left)), pytrace=False)
