"""The rules judge's sentences as data (grader/grading/rules_said.py, rules_judge.py): every
rule checker's phrase is a catalog message whose English is the phrase's byte for byte, a
verdict keeps its message as a kcheck.text Message rendered per language (a student's cell
passes through untouched, a hidden case's message holds none of the data), and a rules
counterexample's broken rules render from the record's data. Chinese reads as the pattern
layer (grader/gradebook/student_messages.py) read the English (frozen in
tests/kit/languages/zh_pattern_layer.json before it is deleted), except where that layer was
wrong (a student's cell holding "; rule").

Hand example: test_rules_judge.py's (Samarati, k = 2, max_sup = 0, right answers the vectors
(A 2, B 0) and (A 1, B 1) of height 2)."""
from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from test_rules_judge import ARGS, data, table  # noqa: F401 (data: the fixture)

from grader.catalogs import translator
from grader.gradebook.counterexample import broken_rules
from grader.grading.record_parts import Counterexample
from grader.grading.rules_judge import judge_by_rules
from grader.grading.rules_said import said
from kcheck.rules.words import CATALOG, Phrase, phrase, render as phrase_text
from kcheck.text import Message, render, verbatim_params

ZH = translator("zh-CN")
FROZEN = json.loads((Path(__file__).resolve().parents[1] / "languages" / "zh_pattern_layer.json")
                    .read_text(encoding="utf-8"))["translate"]
"""What the pattern layer (grader/gradebook/student_messages.py) made in zh-CN of each English
sentence, frozen before it is deleted."""
CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
AT = phrase("at.median", bound="25")
VALUES = {
    "row": 3, "column": "age", "detail": phrase("cell.not_label", cell="[1-3]"),
    "header": ["age", "sex"], "columns": ["age", "zip"], "found": 7, "rows": "3, 8, 9, ...",
    "cell": "x'y", "raw_row": 4, "raw": "21", "first": 1, "levels1": phrase("level", list="0"),
    "levels2": phrase("levels", list="1, 2"), "list": "1, 2", "roots": "'*', '*'",
    "vector": "(age 1, sex 0)", "label": "[20-29]", "count": 5, "k": 2, "max_sup": 1,
    "height": 3, "better": "(age 0, sex 1)", "lowest": 1, "after": 2, "size": 4,
    "what": phrase("what.lca"), "expected": "*", "named": phrase("cuts.part", rows="1, 4"),
    "reasons": (phrase("why.ancestor", column="sex"),
                phrase("why.small_side", column="age", at=AT, size=1, k=2),
                phrase("why.splits", column="zip", at=phrase("at.children"), row=2)),
    "at": AT, "bound": "25", "how": phrase("how.median"),
    "closest": phrase("closest", label="[20-29]", column="age", cell="3")}
"""A value for every field of the rule phrases (nested phrases for the nested fields)."""


def _every_phrase() -> list[Phrase]:
    found = []
    for key, text in CATALOG["en"].items():
        if key != "; ":
            fields = sorted({name for _, name, _, _ in string.Formatter().parse(text) if name})
            found.append(Phrase(key, tuple((name, VALUES[name]) for name in fields)))
    return found


@pytest.mark.parametrize("words", _every_phrase(), ids=lambda p: p.key)
def test_every_rule_phrase_is_a_catalog_message_reading_the_same(words: Phrase) -> None:
    message = said(words)
    assert message.english() == phrase_text(words)
    assert Message.from_json(message.to_json()) == message
    chinese = render(message, ZH)
    assert chinese != message.english() and not re.search(f"[{CJK}] +[{CJK}]", chinese)
    assert chinese == FROZEN[message.english()]  # as the pattern layer read it


def test_a_phrase_without_a_catalog_message_is_refused() -> None:
    with pytest.raises(ValueError, match="no catalog message for the rule phrase 'nothing'"):
        said(Phrase("nothing"))


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
    detail = said(phrase("k", row=1, size=2, rows="1, 2", k=3))
    return Counterexample.from_json({"judge": "rules", "broken": [["k", detail.english()]],
                                     **parts, **({} if "broken_said" in parts else
                                                 {"broken_said": [detail.to_json()]})})


def test_a_rules_counterexample_renders_its_broken_rules_from_data() -> None:
    english = "the class of data row 1 has 2 row(s) (data rows 1, 2), fewer than k = 3"
    assert broken_rules(_entry()) == [("k", english)]
    assert broken_rules(_entry(), ZH) == [("k", "第 1 条数据行所在的等价类有 2 行（数据行 1、2），"
                                                "少于 k = 3")]
    assert broken_rules(_entry(broken_said=None), ZH) == [("k", english)]  # an older record's
