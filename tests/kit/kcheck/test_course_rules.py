"""kcheck.course_rules: the time formula, the import scan and the unavailable-package sentence
that the grader and the self-check both use (hand-computed examples)."""
from __future__ import annotations

from grader.catalogs import translator
from kcheck.course_rules import cpu_limit, imports, rule, unavailable
from kcheck.text import Verbatim, render


def test_a_calls_limit_is_its_base_plus_its_share_per_thousand_rows() -> None:
    assert cpu_limit(10.0, 20.0, 0) == 10.0
    assert cpu_limit(10.0, 20.0, 30_162) == 613.2  # 10 + 20 * 30.162 = 613.24
    assert cpu_limit(5.0, 0.0, 30_162) == 5.0
    assert cpu_limit(1.0, 0.5, 150) == 1.1  # 1.075, rounded to a tenth


def test_every_absolute_import_is_found_with_its_line() -> None:
    source = ("import os, numpy.linalg as la\n"
              "from pandas import DataFrame\n"
              "from . import helper\n"
              "def f():\n"
              "    import sklearn.cluster\n")
    assert imports(source, "x.py") == [("os", 1), ("numpy", 1), ("pandas", 2), ("sklearn", 5)]
    assert imports("def broken(:\n", "x.py") == []


def test_the_unavailable_sentence_in_english_and_chinese() -> None:
    message = unavailable("pandas", ["numpy"])
    assert str(message) == ("pandas is not available: this course allows only numpy and the "
                            "standard library")
    assert message.params["name"] == Verbatim("pandas")
    assert str(rule([])) == "only the standard library"
    assert str(rule(["sklearn", "numpy"])) == "only numpy, sklearn and the standard library"
    zh = translator("zh-CN")
    assert "、" in render(rule(["sklearn", "numpy"]), zh)
    assert render(message, zh).startswith("pandas")
    assert render(message, zh) != str(message)
