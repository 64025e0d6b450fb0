"""A manual part's check line and a case's name as data (grader/grading/manual_check.py,
case_names.py): the record keeps them beside their English, the gradebook renders them in the
course's language from that data (never from the English; a counterexample quotes the
name as the title shows it), in Chinese as the pattern layer
(grader/gradebook/student_messages.py, its readings frozen in zh_pattern_layer.json) did, and
a student's file name byte for byte."""
from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from grader import rubric
from grader.catalogs import translator
from grader.gradebook.case_text import name_text
from grader.gradebook.counterexample import section
from grader.gradebook.export import feedback_md, gradescope_json
from grader.grading import manual_check
from grader.grading.case_names import name_phrases, name_ref
from grader.grading.manual_scores import with_manual
from grader.grading.record import CaseRecord, StudentRecord
from grader.grading.record_parts import Counterexample
from kcheck.text import Message, render, verbatim_params
from manual_class import DOCX, pdf
from test_grader_messages_zh import FROZEN, english_left, frozen, frozen_name

REPO = Path(__file__).resolve().parents[3]
ZH = translator("zh-CN")
EN = translator("en")
USTC = REPO / "courses" / "ustc" / "rubric.toml"


def part(**changes) -> rubric.Part:
    fields = {"files": ("*.pdf",), "max_pages": 1, **changes}
    return rubric.Part("report", "", 10.0, 0.0, kind="manual", **fields)


FILES = [  # (the files handed in, the part's changes, the problem)
    ({"report.pdf": pdf(1)}, {}, None),
    ({"report.pdf": pdf(2)}, {"max_pages": 2}, None),
    ({"report.pdf": pdf(3)}, {}, "too-long"),
    ({"report.pdf": DOCX}, {}, "not-pdf"),
    ({"report.pdf": b"\xd0\xcf\x11\xe0" + bytes(40)}, {}, "not-pdf"),
    ({"report.pdf": b"{\\rtf1 hello}"}, {}, "not-pdf"),
    ({"report.pdf": b"plain text"}, {}, "not-pdf"),
    ({"report.pdf": b"%PDF-1.7\nno PDF at all\n%%EOF\n"}, {}, "unreadable"),
    ({"notes.txt": b"x"}, {}, "missing"),
    ({"notes.txt": b"x"}, {"files": ("*.txt",), "max_pages": None}, None),
    ({}, {"files": ()}, None),
    ({f"r{n}.pdf": pdf(1) for n in range(7)}, {}, None),  # 7 match: 5 listed, then "..."
]


@pytest.mark.parametrize("files, changes, problem", FILES)
def test_a_check_line_reads_in_chinese_as_before(tmp_path: Path, files, changes,
                                                 problem) -> None:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    found = manual_check.check_part(part(**changes), tmp_path)
    said = Message.from_json(found["check_ref"])
    assert found["problem"] == problem
    assert render(said, EN) == said.english() == found["check"]
    shown = render(said, ZH)
    assert shown == frozen(found["check"]) and not english_left(shown), shown


def test_without_pypdf_and_when_not_checked_too(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "report.pdf").write_bytes(pdf(1))
    monkeypatch.setitem(sys.modules, "pypdf", None)  # `import pypdf` raises ImportError
    checks = [manual_check.check_part(part(), tmp_path),
              manual_check.not_checked(Message("the submission could not be unpacked"))]
    for found in checks:
        said = Message.from_json(found["check_ref"])
        assert said.english() == found["check"]
        assert render(said, ZH) == frozen(found["check"])
    assert render(Message.from_json(checks[1]["check_ref"]), ZH) == "未检查：无法解压提交（submission）"


def test_a_file_name_is_the_students_own_text(tmp_path: Path) -> None:
    names = ["报告 一; 二.pdf", "b.pdf"]
    for name in names:
        (tmp_path / name).write_bytes(pdf(1))
    said = Message.from_json(manual_check.check_part(part(), tmp_path)["check_ref"])
    assert sorted(verbatim_params(said)) == ["b.pdf"] * 3 + names[:1]  # found, listed, taken
    assert render(said, ZH) == "找到 b.pdf，共 1 页；由课程助教评分（有 2 个文件与 *.pdf 匹配：" \
        "b.pdf、报告 一; 二.pdf；采用了第一个，b.pdf）"


def _case_names() -> list[str]:
    names = set()
    for path in [*REPO.glob("grader/rubric*.toml"), *REPO.glob("courses/*/rubric*.toml")]:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        names |= {case["name"] for p in data.get("part", []) for case in p.get("case", [])}
    return sorted(names)


WRONG_BEFORE = "suppressed rows"  # the pattern layer took "suppressed" for "{n}": "suppressed 行"


@pytest.mark.parametrize("name", _case_names())
def test_every_case_name_reads_as_before(name: str) -> None:
    case = CaseRecord.from_json({"name": name, "name_ref": name_ref(name)})
    assert name_text(case) == name_text(case, EN) == name
    assert not [v for p in name_phrases(name) if isinstance(p, Message)
                for v in verbatim_params(p)]  # the rubric's words: no student's text
    if name not in FROZEN["case_name"]:  # a name rubrics gained after the pattern layer went
        assert not english_left(name_text(case, ZH)), name
        return
    before = frozen_name(name)
    if WRONG_BEFORE in name:
        assert name_text(case, ZH) == before.replace("suppressed 行", WRONG_BEFORE)
    else:
        assert name_text(case, ZH) == before


def test_a_names_phrases() -> None:
    assert name_phrases("200 rows, sex as a categorical QI, k=5") == [
        Message("{n} rows", n="200"), Message("{column} as a categorical QI", column="sex"),
        "k=5"]
    assert [p.id if isinstance(p, Message) else p
            for p in name_phrases("ages 30-45, k=3, no suppression")] == [
        "ages {low}-{high}", "k=3", "no suppression"]
    assert name_phrases("ten QIs, suppressed rows") == ["ten QIs", "suppressed rows"]
    assert json.loads(json.dumps(name_ref("500 rows, k=7"))) == [
        {"id": "{n} rows", "params": {"n": "500"}}, "k=7"]


def _record(check: dict, name: str, with_data: bool) -> StudentRecord:
    case = {"id": "samarati/x", "part": "samarati", "function": "samarati", "name": name,
            "status": "passed", "message": "identical to the reference output",
            "max_points": 1.0, "points": 1.0}
    if with_data:
        case["name_ref"] = name_ref(name)
    else:
        check = {k: v for k, v in check.items() if k != "check_ref"}
    record = StudentRecord.from_json({"student": "s", "cases": [case]})
    return with_manual(record, rubric.load(USTC), {"report": check})


def test_the_gradebook_renders_from_the_data_not_from_the_english(tmp_path: Path) -> None:
    (tmp_path / "r.pdf").write_bytes(DOCX)
    course = replace(rubric.load(USTC), language="zh-CN")  # course.toml's language
    report = next(p for p in course.manual_parts if p.key == "report")
    check = manual_check.check_part(report, tmp_path)
    name = "200 rows, k=3"
    staff = ZH("{part}: graded by course staff on Gradescope").format(part="report")
    shown = json.loads(gradescope_json(_record(check, name, True), course))
    tests = {t["name"]: t["output"] for t in shown["tests"]}
    assert "samarati: 200 行、k=3" in tests
    assert tests[staff] == frozen(check["check"]) == \
        "r.pdf 不是 PDF（它是 zip 压缩包，例如改了名的 Word .docx 文件）"
    old = json.loads(gradescope_json(_record(check, name, False), course))  # an older record
    tests = {t["name"]: t["output"] for t in old["tests"]}  # regraded, never pattern-read
    assert tests[staff] == check["check"]
    assert "samarati: 200 行、k=3" in tests  # the name: the rubric's text, read as grading does
    feedback = feedback_md(_record(check, name, True), course)
    assert "200 行、k=3 — 1 / " in feedback and f"- {tests[staff]}\n" not in feedback
    assert "- r.pdf 不是 PDF（它是 zip 压缩包，例如改了名的 Word .docx 文件）\n" in feedback


def test_a_counterexample_not_found_quotes_the_name_as_the_title_shows_it() -> None:
    entry = Counterexample.from_json({"found": False, "judge": "rules", "hidden": False,
                                      "case": "200 rows, k=3", "calls": 7,
                                      "stopped": "budget"})
    assert section(entry, "mondrian", "mondrian", "lab")[3].startswith(
        "Look again at a public case, \"200 rows, k=3\" (its name")
    assert "“200 行、k=3”" in section(entry, "mondrian", "mondrian", "lab", ZH)[3]


def test_a_part_the_grader_failed_to_check_reads_in_chinese_whole() -> None:
    record = with_manual(StudentRecord.from_json({"student": "s"}), rubric.load(USTC), {})
    check = record.manual_check("report")
    assert (check.problem, check.check) == ("not-checked", "not checked: the grader failed on "
                                                           "this submission")
    assert render(Message.from_json(check.check_ref), ZH) == "未检查：评分程序处理这份提交时出错"
