"""The core package (kanon): the generalized-cell rule with its structured errors, tables
read from bytes and from files alike, equivalence classes and the privacy checks."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kanon import (CellFault, Column, group_rows, k_violation, l_violation, parse_dgh,
                   parse_interval, parse_table, read_table, render_csv, suppressed_rows)

AGE = parse_dgh("Any\n\t[0-50)\n\t\t20\n\t\t30\n\t[50-100)\n\t\t60\n\t\t70\n", "age", "age.txt")
JOB = parse_dgh("Any\n\tTech\n\t\tDev\n\t\tOps\n\tArt\n", "job", "job.txt")


def test_parse_interval_follows_the_contract() -> None:
    assert parse_interval("[1.5-2.25]") == (1.5, 2.25)
    assert parse_interval("[-5-10]") == (-5.0, 10.0)
    assert parse_interval("[1e-3-2]") == (0.001, 2.0)
    assert parse_interval("1-2") is None and parse_interval("[a-b]") is None
    assert parse_interval("[1-inf]") == (1.0, float("inf"))  # parsed; Column.check refuses it


@pytest.mark.parametrize("raw, cell, intervals, fault", [
    ("20", "20", True, None),
    ("20", "[0-50)", True, None),
    ("20", "Any", True, None),
    ("20", "[15-25]", True, None),
    ("20", "[20-20.5]", True, None),
    ("20", "[50-100)", True, CellFault.NOT_ANCESTOR),
    ("20", "30", True, CellFault.NOT_ANCESTOR),
    ("20", "twenty", True, CellFault.NOT_A_CELL),
    ("20", "[15-25]", False, CellFault.INTERVAL_NOT_ALLOWED),
    ("20", "[15-inf]", True, CellFault.INTERVAL_NOT_FINITE),
    ("20", "[nan-25]", True, CellFault.INTERVAL_NOT_FINITE),
    ("20", "[25-15]", True, CellFault.INTERVAL_EMPTY),
    ("20", "[20-20]", True, CellFault.INTERVAL_EMPTY),
    ("20", "[21-25]", True, CellFault.INTERVAL_MISSES),
])
def test_cell_rule_numeric_column(raw, cell, intervals, fault) -> None:
    column = Column("age", AGE, ["20", "30", "60", "70"])
    assert column.numeric
    error = column.check(raw, cell, intervals)
    assert (error.fault if error else None) is fault
    if error:
        assert (error.cell, error.raw, error.column, error.hierarchy) == (cell, raw, "age",
                                                                          "age.txt")
        assert error.fault.is_interval == error.fault.name.startswith("INTERVAL_")


@pytest.mark.parametrize("cell, fault, wording", [
    ("Tech", None, None),
    ("Art", CellFault.NOT_ANCESTOR, "'Art' is not 'Dev' or one of its ancestors in job.txt"),
    ("[1-2]", CellFault.INTERVAL_NOT_ALLOWED,
     "'[1-2]' is an interval, but column 'job' is not numeric"),
    ("Dev ", CellFault.NOT_A_CELL,
     "'Dev ' is neither a label of job.txt nor an interval [lo-hi]"),
])
def test_cell_rule_categorical_column(cell, fault, wording) -> None:
    column = Column("job", JOB, ["Dev", "Ops", "Art"])
    assert not column.numeric
    error = column.check("Dev", cell)
    assert (error.fault if error else None) is fault
    assert (error.describe() if error else None) == wording


def test_numeric_rule_needs_one_spelling_per_number() -> None:
    dgh = parse_dgh("Any\n\t5\n\t5.0\n", "x", "x.txt")
    assert not Column("x", dgh, ["5", "5.0"]).numeric
    assert Column("x", dgh, ["5", "5"]).numeric


@pytest.mark.parametrize("raw, cell, md, lm", [
    ("20", "20", 0, 0.0),
    ("20", "[0-50)", 1, 1 / 3),
    ("20", "Any", 2, 1.0),
    ("20", "[20-30]", 1, 0.2),  # covers leaves 20 and 30: LCA [0-50); LM (30-20)/(70-20)
    ("20", "[10-65]", 2, 1.1),  # covers 20, 30, 60: LCA Any; an interval wider than the data
])
def test_cell_costs(raw, cell, md, lm) -> None:
    column = Column("age", AGE, ["20", "30", "60", "70"])
    assert column.cost(raw, cell) == pytest.approx((md, lm))


def test_table_from_bytes_equals_table_from_file(tmp_path: Path) -> None:
    text = '\ufeffa,b\r\n1,"x, y"\r\n\r\n2,"say ""hi"""\r\n'
    path = tmp_path / "t.csv"
    path.write_bytes(text.encode("utf-8"))
    from_file, from_bytes = read_table(str(path)), parse_table(path.read_bytes())
    assert (from_file.header, from_file.rows) == (from_bytes.header, from_bytes.rows)
    assert from_file.rows == [["1", "x, y"], ["2", 'say "hi"']]
    assert render_csv(from_file.header, from_file.rows) == 'a,b\n1,"x, y"\n2,"say ""hi"""\n'


@pytest.mark.parametrize("data, message", [
    (b"", "t.csv: the file is empty"),
    (b"a,a\n1,2\n", "t.csv: column name 'a' appears twice"),
    (b"a,b\n1\n", "t.csv: data row 1 has 1 cells, the header has 2 columns"),
    (b"a\n\xff\n", "t.csv: not UTF-8 text"),
])
def test_table_errors_name_file_and_row(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_table(data, "t.csv")


def test_table_errors_of_an_output_never_quote_its_header() -> None:
    with pytest.raises(ValueError) as e:
        parse_table(b"secret,secret\n1,2\n")
    assert "secret" not in str(e.value) and "appears twice" in str(e.value)


def test_classes_and_checks() -> None:
    rows = [["A", "x", "s1"], ["B", "y", "s1"], ["A", "x", "s2"], ["*", "*", "s1"],
            ["B", "y", "s1"], ["A", "x", "s1"]]
    groups = group_rows(rows, [0, 1])
    assert groups == {("A", "x"): [1, 3, 6], ("B", "y"): [2, 5], ("*", "*"): [4]}
    assert suppressed_rows(groups, ["*", "*"]) == [4]
    assert k_violation(groups, 2).first_row == 4
    assert k_violation(groups, 2, exempt=("*", "*")) is None
    small = k_violation(groups, 3, exempt=("*", "*"))
    assert (small.first_row, small.size) == (2, 2)
    poor = l_violation(groups, rows, 2, 2)
    assert (poor.first_row, poor.size, poor.distinct) == (2, 2, 1)
    assert l_violation(groups, rows, 2, 1) is None


def test_core_never_imports_an_algorithm() -> None:
    import ast
    core = Path(__file__).resolve().parents[3] / "kanon"
    for path in core.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""]
                assert not any(n.split(".")[0] in ("reference", "grader") for n in names), path
    assert np  # numpy is the core's only third-party dependency


def test_grading_a_class_never_imports_an_algorithm() -> None:
    """Only grader/authoring (cases and expected outputs) may run the staff solution; the
    grader's other jobs stand on the core alone (the Gradescope zip ships no reference)."""
    import ast

    from grader.imports import absolute_imports
    grader = Path(__file__).resolve().parents[3] / "grader"
    checked = 0
    for path in sorted(grader.rglob("*.py")):
        if "authoring" in path.parts or "templates" in path.parts:
            continue
        names = absolute_imports(ast.parse(path.read_text(encoding="utf-8")))
        assert not [n for n in names if n.split(".")[0] == "reference"], path
        checked += 1
    assert checked > 20
