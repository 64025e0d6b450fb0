"""tests/public/teach_rules.py, the self-check's public counterexample of a part judged by
rules (courses/ustc): every single-bug student of the kit's USTC class (tests/kit/ustc_class)
and of rules_students.py is shown one input of at most 12 rows from the course's public pool
(courses/ustc/cases/counterexamples/rules, shipped in the bundle) on which its output breaks
a rule, named as the grader's rules judge (kcheck/rules) names it on the same output; a right
student is shown none; the section reads in the course's language. The calls run in this
process (a stand-in for the self-check's worker); end to end in a bundle:
test_rules_selfcheck.py."""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

KIT = Path(__file__).resolve().parents[3]
PUBLIC = KIT / "tests" / "public"
CLASS = KIT / "tests" / "kit" / "ustc_class"
for folder in (PUBLIC, CLASS):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import teach_rules  # noqa: E402
from check_labels import main_file  # noqa: E402
from rules_students import source  # noqa: E402
from kcheck.pool import csv_text  # noqa: E402

from kcheck.hierarchies import parse_hierarchy  # noqa: E402
from kcheck.rules import check_mondrian, check_samarati, make_release  # noqa: E402
from kcheck.tables import parse_table  # noqa: E402

POOL = KIT / "courses" / "ustc" / "cases" / "counterexamples" / "rules"
FUNCTION = {"samarati": "samarati", "mondrian": "mondrian", "mondrian-categorical": "mondrian"}
RAISED = "raised"
EXPECTED = {  # (student, part) -> the first rule named (RAISED: the call raises)
    ("higher", "samarati"): "lowest-height",
    ("satisfies", "samarati"): "satisfies",
    ("keep-outliers", "samarati"): "deletion",
    ("not-full-domain", "samarati"): "full-domain",
    ("star-outliers", "samarati"): "full-domain",  # then deletion, on the same row
    ("all-columns", "samarati"): "columns",
    ("all-columns", "mondrian"): "columns",
    ("k-1", "mondrian-categorical"): "k",
    ("upper-median", "mondrian"): "final",  # the 1-row side forbids the cut: not cut at all
    ("stop-early", "mondrian"): "final",
    ("equal-bounds", "mondrian"): "cover",
    ("fewest_deleted", "mondrian-categorical"): "final",
    ("numpy_levelwise", "mondrian-categorical"): RAISED,
    ("widest_raw", "mondrian-categorical"): RAISED,
    ("no_delete", "samarati"): "full-domain",
    ("lattice_range", "samarati"): "lowest-height",
    ("first_vector_only", "samarati"): "lowest-height",
    # on a small input its vector is chosen by raw class sizes too: too many outliers
    ("raw_key_deletion", "samarati"): "satisfies",
    ("raw_key_deletion", "mondrian-categorical"): "final",
    ("all_columns", "samarati"): "columns",
    ("all_columns", "mondrian"): "columns",
    ("relaxed_median", "mondrian"): "median-cuts",
    ("widest_only", "mondrian"): "final",
    ("region_bounds", "mondrian"): "exact",
    ("counts_classes", "samarati"): "satisfies",
    ("partition_order", "mondrian-categorical"): "columns",
    ("one_side_check", "mondrian"): "k",
    ("float_bounds", "mondrian"): "exact",
}


class Calls:
    """The self-check's worker, in this process: `function(*args)` in `folder`."""

    process = object()

    def __init__(self, module: ModuleType):
        self.module = module

    def call(self, name: str, args: list, folder: Path, limit: float):
        before = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                getattr(self.module, name)(*args)
            return SimpleNamespace(kind="returned", text="None", number=None)
        except Exception as e:  # noqa: BLE001 -- the student's
            return SimpleNamespace(kind="raised", text=f"{type(e).__name__}: {e}", number=None)
        finally:
            os.chdir(before)


def _student(name: str, tmp: Path) -> ModuleType:
    """A folder of the USTC class or a rules_students.py bug, imported."""
    for key, module in list(sys.modules.items()):  # the class's helper modules share names
        if str(CLASS) in str(getattr(module, "__file__", "") or ""):
            del sys.modules[key]
    if (CLASS / name).is_dir():
        path = main_file(CLASS / name)
    else:
        path = tmp / "student.py"
        path.write_text(source(name), encoding="utf-8")
    sys.path.insert(0, str(path.parent))
    argv, sys.argv = sys.argv, [str(path)]  # imported, not run: pytest's own arguments aside
    try:
        module = ModuleType(f"student_{name}")
        module.__file__ = str(path)
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"),  # noqa: S102
                 module.__dict__)
    finally:
        sys.argv = argv
        sys.path.remove(str(path.parent))
    return module


def _grader_rules(member, function: str, output: str) -> list[str]:
    """The rules kcheck/rules (the grader's judge) finds broken in `output` on `member`."""
    header = member.header
    raw = parse_table(csv_text(header, member.raw).encode("utf-8"))
    dghs = {q: parse_hierarchy(text, q, f"DGHs/{q}.txt", "child-parent")
            for q, text in member.dghs.items()}
    release = make_release(raw, dghs, "occupation")  # the QIs and occupation
    out = parse_table(output.encode("utf-8"))
    ints = member.ints
    broken = check_samarati(release, ints["k"], ints["max_sup"], out) if function == \
        "samarati" else check_mondrian(release, ints["k"], out)
    return [b.rule for b in broken]


@pytest.mark.parametrize("student, part", sorted(EXPECTED))
def test_each_single_bug_student_is_shown_a_small_input_naming_its_rule(
        student: str, part: str, tmp_path: Path) -> None:
    function = FUNCTION[part]
    module = _student(student, tmp_path)
    schema = json.loads((POOL / f"{part}.json").read_text(encoding="utf-8"))["schema"]
    found = teach_rules.teach.search(Calls(module), function,
                                     teach_rules.teach.parameters(function),
                                     teach_rules.members(POOL / f"{part}.json"),
                                     tmp_path / "call", budget=60.0,
                                     judge=teach_rules.judge(function, schema))
    assert isinstance(found, teach_rules.teach.Found), found
    assert len(found.member.rows) <= 12
    if EXPECTED[student, part] == RAISED:
        assert found.problem.startswith("raised ") and not found.broken
        return
    rules = [rule for rule, _ in found.broken]
    assert rules[0] == EXPECTED[student, part], found.broken
    assert rules == _grader_rules(found.member, function, found.yours)  # as the grader says


def test_a_right_student_is_shown_no_counterexample(tmp_path: Path) -> None:
    module = _student("binary_first", tmp_path)
    for part, function in FUNCTION.items():
        lines = teach_rules.lesson(Calls(module), part, function, tmp_path / "s.py",
                                   tmp_path / "scratch", budget=60.0, folder=POOL)
        assert lines and len(lines) == 1 and "No input of the public counterexample pool" in \
            lines[0], lines


def test_the_section_names_the_rule_shows_one_right_answer_and_reads_in_chinese(
        tmp_path: Path, monkeypatch) -> None:
    course = tmp_path / "course.json"
    course.write_text(json.dumps({"language": "zh-CN"}), encoding="utf-8")
    monkeypatch.setenv("KANON_COURSE_FILE", str(course))
    module = _student("equal-bounds", tmp_path)
    lines = teach_rules.lesson(Calls(module), "mondrian", "mondrian", tmp_path / "lab.py",
                               tmp_path / "scratch", budget=60.0, folder=POOL)
    text = "\n".join(lines)
    assert lines[0].startswith("使 mondrian（评分项 mondrian）违反作业说明中某条规则的最小公开输入")
    assert "它违反了规则 \"cover\"：第 1 条数据行，列 'education_num'：单元格 '[" in text
    assert "是 lo = hi 的区间，但区间要求 lo < hi" in text
    assert "一个正确答案（课程组参考解答的输出" in text
    folder = tmp_path / "scratch" / "mondrian"
    assert sorted(p.name for p in folder.iterdir()) == ["DGHs", "expected.csv", "raw.csv"]
    k = int(re.search(r"mondrian\('raw.csv', 'DGHs', (\d+), 'yours.csv'\)", text)[1])
    module.mondrian(str(folder / "raw.csv"), str(folder / "DGHs"), k, str(folder / "yours.csv"))
    again = (folder / "yours.csv").read_text(encoding="utf-8").splitlines()
    assert all(f"  {cell}" in text for line in again[1:] for cell in line.split(","))
