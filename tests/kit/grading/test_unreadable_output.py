"""An output that is not a dataset (issue 39, item 1): kanon.table words why as data
(TableError.said), the exact judge's verdict keeps it as a Message whose English is the
sentence it always wrote, rendered per language and holding none of the file's values."""
from __future__ import annotations

import pytest

from grader.catalogs import translator
from grader.grading.compare import unreadable
from kanon.table import TableError, parse_table
from kcheck.text import Message, render, verbatim_params

ZH = translator("zh-CN")
HEAD = "the output is not a readable dataset: "


def _error(data: bytes, path: str = "output") -> TableError:
    with pytest.raises(TableError) as caught:
        parse_table(data, path)
    return caught.value


@pytest.mark.parametrize("data, english", [
    (b"\xffa,b\n", "not UTF-8 text (invalid start byte at byte 0)"),
    (b"\n\n", "the file is empty; the first row must name the columns"),
    (b"a,a\n1,2\n", "a column name appears twice in the header"),
    (b"a,b\n1,2\n3\n", "data row 2 has 1 cells, the header has 2 columns"),
])
def test_the_verdict_is_the_english_it_was_and_holds_no_value(data: bytes, english: str) -> None:
    verdict = unreadable(_error(data))
    assert (verdict.status, verdict.message) == ("wrong", HEAD + english)
    assert verdict.said.english() == verdict.message
    assert list(verbatim_params(verdict.said)) == []


def test_the_verdict_renders_in_chinese_from_its_data() -> None:
    verdict = unreadable(_error(b"a,b\n1,2\n3\n"))
    detail = ZH("data row {n} has {cells} cells, the header has {columns} columns").format(
        n=2, cells=1, columns=2)
    assert render(verdict.said, ZH) == ZH("the output is not a readable dataset: {why}").format(
        why=detail)
    assert detail != "data row 2 has 1 cells, the header has 2 columns"


def test_a_named_file_keeps_its_name_in_the_text_not_in_the_data() -> None:
    error = _error(b"a,a\n", "out.csv")
    assert str(error) == "out.csv: column name 'a' appears twice in the header"
    assert error.said == Message("column name {name} appears twice in the header",
                                 {"name": error.said.params["name"]})
    assert list(verbatim_params(error.said)) == ["'a'"]
