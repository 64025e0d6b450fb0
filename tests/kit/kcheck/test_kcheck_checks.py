"""kcheck.checks and kcheck.compare (the self-check's checks of the kit's anonymizers, the
grader's classes and violations) on a hand-made four-row table, and their sentences in English
and Chinese (kcheck.messages.say): the self-check's own wording, kept when it moved here."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kcheck import (Dataset, Finding, check_k, check_l, check_suppressed_k, check_valid,
                    first_difference, group_rows, k_violation, load_dataset, parse_hierarchy,
                    say, suppression_violation)
from kcheck.messages import CHECKS
from kcheck.text import catalog

AGE = "*\n\t[20-39]\n\t\t25\n\t\t30\n\t[40-59]\n\t\t45\n"
JOB = "Any\n\tOffice\n\t\tclerk\n\t\tmanager\n\tField\n\t\tfarmer\n"
HEADER = ["age", "job", "disease"]
RAW = [["25", "clerk", "flu"], ["30", "manager", "cold"], ["45", "farmer", "flu"],
       ["45", "clerk", "cold"]]
GOOD = [["[20-39]", "Office", "flu"], ["[20-39]", "Office", "cold"], ["[40-59]", "Any", "flu"],
        ["[40-59]", "Any", "cold"]]


def dataset() -> Dataset:
    trees = {"age": parse_hierarchy(AGE, "age", "DGHs/age.txt", "tabs"),
             "job": parse_hierarchy(JOB, "job", "DGHs/job.txt", "tabs")}
    return Dataset(HEADER, [list(r) for r in RAW], trees)


def changed(row: int, column: int, cell: str, rows: list[list[str]] = GOOD) -> list[list[str]]:
    out = [list(r) for r in rows]
    out[row][column] = cell
    return out


def test_a_valid_k_anonymous_l_diverse_output_has_no_finding() -> None:
    raw = dataset()
    assert raw.qi == [0, 1] and raw.sensitive == 2 and raw.roots == ("*", "Any")
    assert check_valid(raw, HEADER, GOOD) is None
    assert check_k(raw, GOOD, 2) is None and check_l(raw, GOOD, 2) is None
    assert check_suppressed_k(raw, GOOD, 2, 0) is None


def test_load_dataset_reads_the_raw_file_and_its_tab_hierarchies(tmp_path: Path) -> None:
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "age.txt").write_text(AGE, encoding="utf-8")
    (tmp_path / "DGHs" / "job.txt").write_text(JOB, encoding="utf-8")
    (tmp_path / "raw.csv").write_text("age,job,disease\r\n" + "".join(
        ",".join(r) + "\r\n" for r in RAW), encoding="utf-8-sig")
    raw = load_dataset(tmp_path / "raw.csv", tmp_path / "DGHs")
    assert raw.header == HEADER and raw.rows == RAW and sorted(raw.trees) == ["age", "job"]


ROW3 = "output data row 3 (the header is not counted), column"
ROW3_ZH = "输出的第 3 条数据行（不计表头）、列"


@pytest.mark.parametrize("header,rows,intervals,english,chinese", [
    (["age", "job", "illness"], GOOD, False,
     "the output header is ['age', 'job', 'illness'], expected the raw file's header "
     "['age', 'job', 'disease']",
     "输出的表头是 ['age', 'job', 'illness']，应为原始数据文件的表头 ['age', 'job', 'disease']"),
    (HEADER, GOOD[:3], False,
     "the output has 3 data rows, the raw file has 4 (one output row per raw row, in the same "
     "order)", "输出有 3 条数据行，原始数据文件有 4 行（每个原始行对应一个输出行，顺序相同）"),
    (HEADER, GOOD[:2] + [["[40-59]", "Any"]] + GOOD[3:], False,
     "output data row 3 (the header is not counted) has 2 cells, the header has 3",
     "输出的第 3 条数据行（不计表头）有 2 个单元格，表头有 3 列"),
    (HEADER, changed(2, 2, "cold"), False,
     f"{ROW3} 'disease': non-QI cells must not change, got 'cold' for the raw value 'flu' (are "
     f"the rows in their original order?)",
     f"{ROW3_ZH} 'disease'：非准标识符的单元格不能改变，原始值 'flu' 变成了 'cold'（各行是否保持原"
     f"来的顺序？）"),
    (HEADER, changed(2, 1, "Office"), False,
     f"{ROW3} 'job': 'Office' is neither the raw value 'farmer' nor one of its ancestors in "
     f"DGHs/job.txt (are the rows in their original order?)",
     f"{ROW3_ZH} 'job'：'Office' 既不是原始值 'farmer'，也不是它在 DGHs/job.txt 中的祖先（各行是否"
     f"保持原来的顺序？）"),
    (HEADER, changed(2, 0, "[40-50]"), False,
     f"{ROW3} 'age': '[40-50]' is not a label of DGHs/age.txt",
     f"{ROW3_ZH} 'age'：'[40-50]' 不是 DGHs/age.txt 中的标签"),
    (HEADER, changed(2, 0, "[forty-50]"), True,
     f"{ROW3} 'age': '[forty-50]' is not an interval [lo-hi] or a label of DGHs/age.txt",
     f"{ROW3_ZH} 'age'：'[forty-50]' 既不是区间 [lo-hi]，也不是 DGHs/age.txt 中的标签"),
    (HEADER, changed(2, 0, "[46-50]"), True,
     f"{ROW3} 'age': interval '[46-50]' must have lo < hi and contain the raw value '45'",
     f"{ROW3_ZH} 'age'：区间 '[46-50]' 必须满足 lo < hi 并包含原始值 '45'"),
])
def test_each_invalid_output_is_named_in_both_languages(
        header: list[str], rows: list[list[str]], intervals: bool, english: str,
        chinese: str) -> None:
    finding = check_valid(dataset(), header, rows, intervals)
    assert finding is not None
    assert say(finding) == english and say(finding, "zh-CN") == chinese


def test_intervals_are_cells_only_where_allowed_and_the_column_is_numeric() -> None:
    raw = dataset()
    assert check_valid(raw, HEADER, changed(2, 0, "[40-50]"), intervals=True) is None
    job = check_valid(raw, HEADER, changed(2, 1, "[40-50]"), intervals=True)
    assert job is not None and job.message == "valid.interval_or_label"  # job is not numeric
    equal = check_valid(raw, HEADER, changed(2, 0, "[45-45]"), intervals=True)
    assert equal is not None and equal.message == "valid.interval"  # lo < hi


def test_k_l_and_suppression_name_the_first_class_with_all_its_rows() -> None:
    raw = dataset()
    split = changed(3, 1, "Office", changed(2, 1, "Field"))  # rows 3, 4: two classes of one row
    assert say(check_k(raw, split, 2)) == (
        "the EC of data row 3 (the header is not counted) has 1 row(s), needs k = 2")
    assert say(check_k(raw, GOOD, 3), "zh-CN") == (
        "第 1、2 条数据行（不计表头）构成的等价类有 2 行，需要 k = 3")
    assert say(check_l(raw, GOOD, 3)) == (
        "the EC of data rows 1, 2 (the header is not counted) has 2 distinct disease, needs "
        "l = 3")
    suppressed = changed(2, 1, "Any", changed(2, 0, "*", split))  # row 3 at the roots
    assert say(check_suppressed_k(raw, suppressed, 2, 0)) == (
        "1 rows are suppressed (data row 3 (the header is not counted)), more than max_sup = 0, "
        "and they are fewer than k = 2")
    assert say(check_suppressed_k(raw, suppressed, 2, 1)) == (  # allowed: row 4 is too small
        "the EC of data row 4 (the header is not counted) has 1 row(s), needs k = 2")
    both = changed(3, 1, "Any", changed(3, 0, "*", suppressed))  # rows 3, 4: a class of k rows
    assert check_suppressed_k(raw, both, 2, 0) is None


def test_the_suppressed_rows_are_reported_only_when_they_come_first() -> None:
    raw = dataset()
    rows = [["25", "clerk", "flu"]] + [["*", "Any", d] for d in ("cold", "flu", "cold")]
    first = check_suppressed_k(raw, rows, 4, 0)
    assert first is not None and first.message == "k" and first.params["rows"] == [1]
    groups = group_rows(rows, raw.qi)
    assert groups == {("25", "clerk"): [1], ("*", "Any"): [2, 3, 4]}
    assert suppression_violation(groups, raw.roots, 4, 2).rows == (2, 3, 4)
    assert suppression_violation(groups, raw.roots, 3, 0) is None  # a class of k rows
    assert k_violation(groups, 4, exempt=raw.roots).first_row == 1


def test_a_long_class_is_shortened_after_eight_rows() -> None:
    finding = Finding("k", {"rows": list(range(1, 11)), "count": 10, "k": 11})
    assert say(finding) == ("the EC of data rows 1, 2, 3, 4, 5, 6, 7, 8, ... (10 rows) (the "
                            "header is not counted) has 10 row(s), needs k = 11")
    assert say(finding, "zh-CN") == ("第 1、2、3、4、5、6、7、8 条数据行……（共 10 行）（不计表头）"
                                     "构成的等价类有 10 行，需要 k = 11")


def test_first_difference_names_the_cell_and_counts_the_rows() -> None:
    raw = dataset()
    assert first_difference(raw, GOOD, GOOD) is None
    mine = changed(3, 1, "Field", changed(1, 0, "[20-59]"))
    found = first_difference(raw, GOOD, mine)
    assert say(found) == ("output data row 2 (the header is not counted), column 'age' (raw "
                          "value '30'): expected '[20-39]', got '[20-59]'; 2 of 4 rows differ")
    assert say(found, "zh-CN") == ("输出的第 2 条数据行（不计表头）、列 'age'（原始值 '30'）：应为 "
                                   "'[20-39]'，实际为 '[20-59]'；4 行中有 2 行不同")


def test_every_check_sentence_has_the_same_fields_in_both_languages() -> None:
    chinese = catalog("zh-CN")
    for key, text in CHECKS.items():
        assert chinese(text) != text, key  # translated
        assert sorted(re.findall(r"\{\w+", text)) == sorted(re.findall(r"\{\w+", chinese(text)))
