"""The rule checkers' messages (kcheck.rules.words): every template is a kcheck.text Message
whose id has a zh-CN entry in kcheck's catalog with the same fields, written unwrapped; the
English is the checkers' sentence byte for byte and the Chinese what the grader's students
read (frozen in tests/kit/languages/zh_pattern_layer.json); a list of numbers is joined per
language; a hidden case's messages keep no value of the data; and every message the property
tests' checks give renders in both languages.

VALUES: a value for every parameter of the templates (nested messages for the nested fields).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rules_brute import as_table
from test_rules_mondrian import LAB, RIGHT, lab
from test_rules_samarati import BY_AGE, BY_SEX, FIVE

from kcheck.rules import check_mondrian, check_samarati
from kcheck.rules.words import KEYS, SECRET, numbers, phrase, render
from kcheck.text import Message, catalog, verbatim_params

CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
FIELD = re.compile(r"\{(\w+)\}")
FROZEN = json.loads((Path(__file__).resolve().parents[1] / "languages" / "zh_pattern_layer.json")
                    .read_text(encoding="utf-8"))["translate"]
"""What the grader's students read in zh-CN of each English sentence, frozen."""
AT = phrase("at.median", bound="25")
VALUES = {
    "row": 3, "column": "age", "detail": phrase("cell.not_label", cell="[1-3]"),
    "header": ["age", "sex"], "columns": ["age", "zip"], "found": 7, "rows": numbers([3, 8]),
    "cell": "x'y", "raw_row": 4, "raw": "21", "first": 1,
    "levels1": phrase("level", list=numbers([0])),
    "levels2": phrase("levels", list=numbers([1, 2])), "list": numbers([1, 2]),
    "roots": "'*', '*'", "vector": "(age 1, sex 0)", "label": "[20-29]", "count": 5, "k": 2,
    "max_sup": 1, "height": 3, "better": "(age 0, sex 1)", "lowest": 1, "after": 2, "size": 4,
    "what": phrase("what.lca"), "expected": "*",
    "named": phrase("cuts.part", rows=numbers([1, 4, 6, 9], 3)),
    "reasons": (phrase("why.ancestor", qi="sex"),
                phrase("why.small_side", qi="age", at=AT, size=1, k=2),
                phrase("why.splits", qi="zip", at=phrase("at.children"), row=2)),
    "at": AT, "bound": "25", "qi": "age", "how": phrase("how.median"),
    "closest": phrase("closest", label="[20-29]", column="age", cell="3")}
SHOWN = {"cell": "x'y", "raw": "21", "label": "[20-29]", "roots": "'*'", "bound": "25",
         "header": "'sex'"}
"""What a hidden case's message must not show (VALUES' data, as a message would show it)."""


def _every(key: str) -> Message:
    hidden = key.endswith("/hidden")
    return phrase(key.removesuffix("/hidden"), hidden, **VALUES)


def _walk(message: Message):
    yield message
    for value in message.params.values():
        for item in getattr(value, "items", (value,)):
            if isinstance(item, Message):
                yield from _walk(item)


@pytest.mark.parametrize("key", KEYS)
def test_every_template_reads_in_both_languages(key: str) -> None:
    message = _every(key)
    zh = catalog("zh-CN")
    for part in _walk(message):
        assert zh(part.id) != part.id, part.id
        assert set(FIELD.findall(zh(part.id))) == set(FIELD.findall(part.id)), part.id
        assert not re.search(f"[{CJK}] +[{CJK}]", zh(part.id)), part.id
    english, chinese = render(message), render(message, "zh-CN")
    assert english == message.english() and chinese != english
    assert not re.search(f"[{CJK}] +[{CJK}]", chinese)
    if english in FROZEN:
        assert chinese == FROZEN[english]  # what the grader's students read
    if key.endswith("/hidden"):
        assert not list(verbatim_params(message))
        assert not any(value in english for value in SHOWN.values()), english


def test_the_english_is_the_checkers_sentence() -> None:
    assert render(phrase("k", row=1, size=2, rows=numbers([1, 2]), k=3)) == \
        "the class of data row 1 has 2 row(s) (data rows 1, 2), fewer than k = 3"
    assert render(_every("cuts")) == (
        "the classes are not the leaves of a tree of strict median cuts: the partition of the "
        "classes of data rows 1, 4, 6, ... (4 rows) has no allowable cut on any QI that keeps "
        "every class whole (sex: a row's value is the partition's common ancestor itself; "
        "age: the median cut (<= 25) leaves a side of 1 rows, fewer than k = 2; zip: the cut "
        "into the children of the common ancestor splits the class of data row 2)")
    assert render(_every("exact")) == ("the class of data row 3 (4 rows), column 'age': the "
                                       "cell is \"x'y\", but the lowest common ancestor of "
                                       "the class's values is '*'")
    assert render(_every("header")) == ("the header is ['age', 'sex'], but the released "
                                        "columns are ['age', 'zip'] (in the raw file's order)")


def test_a_list_of_numbers_is_joined_per_language() -> None:
    message = phrase("levels.apart", first=1, row=3, column="age",
                     levels1=phrase("level", list=numbers([0])),
                     levels2=phrase("levels", list=numbers([1, 2])))
    assert render(message) == (
        "data rows 1 and 3 of the output, column 'age': the cells are at different levels of "
        "the hierarchy (level 0 and levels 1, 2), but full-domain generalization puts a "
        "column at one level")
    assert render(message, "zh-CN") == (
        "输出的第 1 和第 3 条数据行，列 'age'：这些单元格位于泛化层次结构的不同层级（层级 0 和"
        "层级 1、2），但全域泛化要求一列处于同一层级")
    assert render(phrase("cuts.part", rows=numbers([3, 8, 9, 12], 3)), "zh-CN") == \
        "数据行 3、8、9、... 所在等价类组成的分区"


def test_a_hidden_phrase_drops_the_data() -> None:
    shown = phrase("cover.misses", cell="[1-3]", raw="7")
    hidden = phrase("cover.misses", True, cell="[1-3]", raw="7")
    assert render(shown) == "the cell '[1-3]' does not cover the raw value '7'"
    assert list(verbatim_params(shown)) == ["'[1-3]'"]
    assert hidden == Message("the cell does not cover the raw value") and \
        "7" not in render(hidden, "zh-CN")
    assert render(shown, "zh-CN") == "单元格 '[1-3]' 没有覆盖原始值 '7'"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        render(shown, "fr")
    with pytest.raises(ValueError, match="no rule message 'nothing'"):
        phrase("nothing")
    with pytest.raises(ValueError, match="rule message 'k': no value for size"):
        phrase("k", row=1, rows=numbers([1]), k=2)
    assert SECRET >= set(SHOWN)


def test_a_students_cell_passes_through_untouched() -> None:
    message = phrase("cell.not_label", cell="q; rule \"k\"")
    assert list(verbatim_params(message)) == ["'q; rule \"k\"'"]
    assert render(message, "zh-CN") == "单元格 'q; rule \"k\"' 不是该列泛化层次结构（DGH）的标签"
    assert Message.from_json(message.to_json()) == message


@pytest.mark.parametrize("hidden", [False, True])
def test_the_checkers_messages_render_in_both_languages(hidden: bool) -> None:
    found = []
    for rows in ([["21", "M", "a"], ["[20-24]", "M", "b"]], BY_SEX[:2], BY_AGE[::-1],
                 [["*", "*", "a"]] + BY_AGE[1:], [["99", "M", "a"]]):
        found += check_samarati(FIVE, 2, 0, as_table(FIVE, rows), hidden)
    for ages in (RIGHT[:4] + ["*"] * 2, ["[1-5]"] * 6, ["[3-3]"] * 6, ["x"] * 6,
                 ["1", "2", "3", "3", "[4-4]", "5"]):
        rows = [[age] + row[1:] for age, row in zip(ages, lab(RIGHT))]
        found += check_mondrian(LAB, 2, as_table(LAB, rows), hidden)
    assert {b.rule for b in found} >= {"full-domain", "satisfies", "deletion", "cover",
                                       "exact", "k", "final"}
    for b in found:
        assert b.text() == b.message == render(b.words) == b.words.english()
        chinese = b.text("zh-CN")
        assert chinese != b.message and not re.search(f"[{CJK}] +[{CJK}]", chinese)
        if b.message in FROZEN:
            assert chinese == FROZEN[b.message]
        assert Message.from_json(b.words.to_json()) == b.words
        if hidden:
            assert not list(verbatim_params(b.words)), b
