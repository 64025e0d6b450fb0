"""The rules judge's sentences as data (grader/grading/rules_judge.py): a verdict keeps its
message as a kcheck.text Message whose rule details are the checker's own Messages
(kcheck.rules.words, translated in kcheck's catalog), rendered per language (a student's cell
passes through untouched, a hidden case's message holds none of the data), and a rules
counterexample's broken rules render from the record's data. Chinese reads as the pattern
layer (grader/gradebook/student_messages.py) read the English (frozen in
tests/kit/languages/zh_pattern_layer.json before it was deleted), except where that layer was
wrong (a student's cell holding "; rule").

Hand example: test_rules_judge.py's (Samarati, k = 2, max_sup = 0, right answers the vectors
(A 2, B 0) and (A 1, B 1) of height 2)."""
from __future__ import annotations

from test_rules_judge import ARGS, data, table  # noqa: F401 (data: the fixture)

from grader.catalogs import translator
from grader.gradebook.counterexample import broken_rules
from grader.grading.record_parts import Counterexample
from grader.grading.rules_judge import judge_by_rules
from kcheck.rules.words import numbers, phrase
from kcheck.text import render, verbatim_params

ZH = translator("zh-CN")


def test_a_verdict_is_its_message_rendered_in_every_language(data) -> None:  # noqa: F811
    output = table("Any,Any,s1", "Any,Any,s2", "Any,Any,s1", "Any,Any,s2")
    verdict = judge_by_rules(output, data, "samarati", ARGS, hidden=False)
    assert verdict.status == "partial" and verdict.message == verdict.said.english() == (
        "valid and k-anonymous, but it breaks rule \"lowest-height\": the output's vector "
        "(A 2, B 1) has height 3, but vector (A 1, B 1) of height 2 already satisfies k = 2 "
        "with at most max_sup = 0 outliers")
    assert render(verdict.said, ZH) == (
        "有效且满足 k-匿名，但违反了规则“lowest-height”：输出的泛化向量 (A 2, B 1) 层级为 3，"
        "但层级为 2 的泛化向量 (A 1, B 1) 已经在至多 max_sup = 0 条离群记录下满足 k = 2")
    right = table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1", "a2,Any,s2")
    passed = judge_by_rules(right, data, "samarati", ARGS, hidden=False)
    assert render(passed.said, ZH) == "正确答案：它遵守作业说明（handout）的每一条规则"


def test_a_students_cell_passes_through_untouched(data) -> None:  # noqa: F811
    """The pattern layer split the English at "; rule" and left the detail in English with the
    student's `;` turned into `；`; from data, the cell is shown byte for byte."""
    output = table('"q; rule ""k""",b1,s1', "a1,Any,s2", "a2,Any,s1", "a2,Any,s2")
    verdict = judge_by_rules(output, data, "samarati", ARGS, hidden=False)
    assert verdict.status == "wrong"
    assert list(verbatim_params(verdict.said)) == ["'q; rule \"k\"'"]
    assert render(verdict.said, ZH) == (
        "违反了规则“full-domain”：输出的第 1 条数据行，列 'A'：单元格 'q; rule \"k\"' "
        "不是该列泛化层次结构（DGH）的标签")


def test_a_hidden_verdict_names_the_rule_row_and_column_only(data) -> None:  # noqa: F811
    output = table('"q; rule ""k""",b1,s1', "a1,Any,s2", "a2,Any,s1", "a2,Any,s2")
    verdict = judge_by_rules(output, data, "samarati", ARGS, hidden=True)
    assert verdict.message == "it breaks rule \"full-domain\" at data row 1, column 'A'"
    assert not list(verbatim_params(verdict.said)) and "q" not in str(verdict.said.to_json())
    assert render(verdict.said, ZH) == "违反了规则“full-domain”（第 1 条数据行，列 'A'）"


def _entry(**parts) -> Counterexample:
    detail = phrase("k", row=1, size=2, rows=numbers([1, 2]), k=3)
    return Counterexample.from_json({"judge": "rules", "broken": [["k", detail.english()]],
                                     **parts, **({} if "broken_said" in parts else
                                                 {"broken_said": [detail.to_json()]})})


def test_a_rules_counterexample_renders_its_broken_rules_from_data() -> None:
    english = "the class of data row 1 has 2 row(s) (data rows 1, 2), fewer than k = 3"
    assert broken_rules(_entry()) == [("k", english)]
    assert broken_rules(_entry(), ZH) == [("k", "第 1 条数据行所在的等价类有 2 行（数据行 1、2），"
                                                "少于 k = 3")]
    assert broken_rules(_entry(broken_said=None), ZH) == [("k", english)]  # an older record's
