"""A hidden case of a part judged by rules (courses/ustc's Samarati and Mondrian) shows the
verdict, each broken rule's name and its row and column numbers only: no vector, level, count,
label or value computed from the hidden data, in English (the record) and in zh-CN (the
verdict's message as data, kcheck.text, rendered as the feedback renders it). The outputs are
those of tests/kit/publishing/rules_students.py's single-bug students on the hidden dataset
sample-200; the same outputs judged as a public case name vectors, counts and cells (so the
test can fail).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from grader.catalogs import translator
from grader.courses.folder import resolve
from grader.grading.compare import load_case_data
from grader.grading.rules_judge import judge_by_rules
from kcheck.text import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "publishing"))
from rules_students import source  # noqa: E402

KIT = Path(__file__).resolve().parents[3]
COURSE = KIT / "courses" / "ustc"
HIDDEN = COURSE / "cases" / "hidden" / "sample-200"
CALLS = {"samarati": {"k": 5, "max_sup": 10}, "mondrian": {"k": 3}}
BUGS = [("higher", "samarati"), ("satisfies", "samarati"), ("keep-outliers", "samarati"),
        ("not-full-domain", "samarati"), ("star-outliers", "samarati"),
        ("all-columns", "samarati"), ("all-columns", "mondrian"), ("k-1", "mondrian"),
        ("upper-median", "mondrian"), ("stop-early", "mondrian"),
        ("equal-bounds", "mondrian")]
VERDICTS = ("it breaks ", "valid and k-anonymous, but it breaks ")


def _part(function: str):
    rubric, _ = resolve(COURSE)
    return next(p for p in rubric.auto_parts if p.key == function)


def _output(bug: str, function: str, tmp: Path) -> bytes:
    """The single-bug student's output on the hidden dataset, called here with the part's
    QIs' hierarchy files only."""
    part = _part(function)
    (tmp / "DGHs").mkdir()
    for qi in part.qis:
        (tmp / "DGHs" / f"{qi}.txt").write_bytes((HIDDEN / "DGHs" / f"{qi}.txt").read_bytes())
    module = ModuleType(f"student_{bug.replace('-', '_')}")
    exec(compile(source(bug), "student.py", "exec"), module.__dict__)  # noqa: S102
    ints = CALLS[function]
    getattr(module, function)(str(HIDDEN / "adult-hw1.csv"), str(tmp / "DGHs"), *ints.values(),
                              str(tmp / "out.csv"))
    return (tmp / "out.csv").read_bytes()


def _items(message: str, prefixes: tuple[str, ...], separator: str) -> list[str]:
    prefix = next((p for p in prefixes if message.startswith(p)), None)
    assert prefix is not None, message
    return message[len(prefix):].split(separator)


@pytest.mark.parametrize("bug, function", BUGS)
def test_a_hidden_rule_judged_case_names_rules_rows_and_columns_only(
        bug: str, function: str, tmp_path: Path) -> None:
    part = _part(function)
    schema = part.cases[0].schema
    data = load_case_data(HIDDEN, tuple(part.qis), schema)
    produced = _output(bug, function, tmp_path)
    hidden = judge_by_rules(produced, data, function, CALLS[function], hidden=True)
    public = judge_by_rules(produced, data, function, CALLS[function], hidden=False)
    assert hidden.status == public.status and hidden.status in ("wrong", "partial")
    columns = "|".join(re.escape(repr(c)) for c in data.table.header)
    english = re.compile(rf'rule "(?P<rule>[a-z-]+)"(?: at (?:raw )?data row \d+'
                         rf'(?:, column (?:{columns}))?| at column (?:{columns}))?')
    items = _items(hidden.message, VERDICTS, "; ")
    assert all(english.fullmatch(item) for item in items), hidden.message
    assert [english.fullmatch(i)["rule"] for i in items] == re.findall(
        r'rule "([a-z-]+)": ', public.message)  # the same rules as a public case's
    assert len(public.message) > len(hidden.message) + 20  # which says more
    _ = translator("zh-CN")
    assert hidden.said.english() == hidden.message
    chinese = render(hidden.said, _)
    zh = re.compile(rf'规则“[a-z-]+”(?:（(?:原始)?第 \d+ 条数据行(?:，列 (?:{columns}))?）'
                    rf'|（列 (?:{columns})）)?')
    zh_verdicts = tuple(_(v.strip() + " {rules}").replace("{rules}", "") for v in VERDICTS)
    items = _items(chinese, zh_verdicts, _("; "))
    assert all(zh.fullmatch(item) for item in items), chinese


def test_the_messages_that_misled_name_the_rule_and_the_row(tmp_path: Path) -> None:
    """An interval [v-v] and records written with '*' cells instead of deleted (public
    case: the rule, the row, and what to do)."""
    mondrian = _part("mondrian")
    data = load_case_data(HIDDEN, tuple(mondrian.qis), mondrian.cases[0].schema)
    (tmp_path / "m").mkdir()
    verdict = judge_by_rules(_output("equal-bounds", "mondrian", tmp_path / "m"), data,
                             "mondrian", CALLS["mondrian"], hidden=False)
    found = re.search(r'rule "cover": data row (\d+), column \'(\w+)\': the cell '
                      r"'\[([\d.]+)-([\d.]+)\]' is an interval with lo = hi, but an interval "
                      r"needs lo < hi: where the smallest and largest values are equal, the "
                      r"cell keeps the raw value '([\d.]+)'", verdict.message)
    assert found and found[3] == found[4] == found[5], verdict.message
    samarati = _part("samarati")
    data = load_case_data(HIDDEN, tuple(samarati.qis), samarati.cases[0].schema)
    (tmp_path / "s").mkdir()
    verdict = judge_by_rules(_output("star-outliers", "samarati", tmp_path / "s"), data,
                             "samarati", CALLS["samarati"], hidden=False)
    rows = re.findall(r"data row (\d+) of the output", verdict.message)
    assert verdict.status == "wrong" and len(rows) == 2 and rows[0] == rows[1]
    assert 'rule "full-domain": ' in verdict.message and 'rule "deletion": ' in verdict.message
    assert "must be deleted (left out of the output)" in verdict.message
