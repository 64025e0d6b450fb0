"""The rule checkers' messages as data (kcheck.rules.words): both catalogs hold the same
templates with the same parameters, the Chinese ones are written unwrapped, a hidden case's
phrases keep no value of the data, and every message the property tests' checks give renders
in both languages."""
from __future__ import annotations

import re
import string

import pytest
from rules_brute import as_table
from test_rules_mondrian import LAB, RIGHT, lab
from test_rules_samarati import BY_AGE, BY_SEX, FIVE

from kcheck.rules import check_mondrian, check_samarati
from kcheck.rules.words import CATALOG, SECRET, Phrase, phrase, render

CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_catalogs_have_the_same_templates_and_fields() -> None:
    assert CATALOG["en"].keys() == CATALOG["zh-CN"].keys()
    for key, english in CATALOG["en"].items():
        assert _fields(english) == _fields(CATALOG["zh-CN"][key]), key
        if key.endswith("/hidden"):
            assert not _fields(english) & SECRET, key


def test_chinese_is_written_unwrapped() -> None:
    for key, text in CATALOG["zh-CN"].items():
        assert not re.search(f"[{CJK}] +[{CJK}]", text), key


def test_a_hidden_phrase_drops_the_data() -> None:
    shown = phrase("cover.misses", cell="[1-3]", raw="7")
    hidden = phrase("cover.misses", True, cell="[1-3]", raw="7")
    assert render(shown) == "the cell '[1-3]' does not cover the raw value '7'"
    assert hidden == Phrase("cover.misses/hidden") and "7" not in render(hidden, "zh-CN")
    assert render(shown, "zh-CN") == "单元格 '[1-3]' 没有覆盖原始值 '7'"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        render(shown, "fr")


def _walk(words: Phrase):
    yield words
    for _, value in words.params:
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Phrase):
                yield from _walk(item)


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
        assert b.text() == b.message == render(b.words)
        chinese = b.text("zh-CN")
        assert chinese != b.message and not re.search(f"[{CJK}] +[{CJK}]", chinese)
        if hidden:
            assert all(not dict(p.params).keys() & SECRET for p in _walk(b.words)), b
