"""kcheck.quality on a hand-made example (tests/kit/kcheck/kcheck_data.py): the valid release
passes with the NCP computed by hand, and each rule, broken once, gives its id, the data row
and the column at fault (the first failure by row, then column)."""
from __future__ import annotations

import math

import pytest

from kcheck import (Table, cell_cost, judge_quality, make_columns, record_cost, render,
                    render_facts, table_cost)
from kcheck.quality import judge_prepared, prepare_raw
from kcheck_data import (GOOD_NCP, GOOD_ROWS, NUMERIC, QIS, RELEASED, changed, job_tree,
                         judge, output, raw_table)


def _where(judgement):
    v = judgement.verdict
    return v.rule, v.row, v.column


def test_the_valid_release_passes_with_its_hand_computed_ncp() -> None:
    verdict, facts = judge(output())
    assert verdict.status == "passed" and verdict.rule == "passed"
    assert facts.classes == 3 and facts.smallest == 2
    assert math.isclose(facts.cost, GOOD_NCP, rel_tol=1e-12)
    assert render(verdict, "en") == "all rules hold."
    assert render_facts(facts.classes, facts.smallest, facts.cost) == \
        "equivalence classes: 3, the smallest of size 2; NCP: 5.213793103." == \
        f"equivalence classes: 3, the smallest of size 2; NCP: {facts.cost:.10g}."  # 10 digits


def test_a_table_a_path_and_bytes_are_judged_alike(tmp_path) -> None:
    path = tmp_path / "out.csv"
    path.write_bytes(output())
    table = Table("out", RELEASED, [list(r) for r in GOOD_ROWS])
    raw_path = tmp_path / "raw.csv"
    raw_path.write_bytes(raw_table_bytes())
    for raw in (raw_table(), raw_path, raw_table_bytes()):
        for out in (output(), path, str(path), table):
            j = judge_quality(raw, {"job": job_tree()}, out, k=2, qis=QIS, numeric=NUMERIC,
                              released=set(RELEASED))
            assert j.verdict.ok and math.isclose(j.facts.cost, GOOD_NCP)


def raw_table_bytes() -> bytes:
    from kcheck_data import RAW_CSV
    return RAW_CSV.encode()


def test_quality_file() -> None:
    j = judge(b"age,job\xff\n")
    assert _where(j) == ("quality.file", None, None) and j.verdict.detail == "encoding"
    j = judge(b"age,job,disease\n[23-27],Health,Flu\n[23-27],Health\n")
    assert _where(j) == ("quality.file", 2, None) and j.verdict.detail == "width"
    assert j.verdict.params == {"cells": 2, "columns": 3}
    assert judge(b"").verdict.detail == "empty"
    assert judge(b"age,age,job\n").verdict.detail == "duplicate"
    assert judge(b'age,job,disease\n"' + b"x" * 200_000 + b'"\n').verdict.detail == "csv"


def test_quality_file_missing(tmp_path) -> None:
    j = judge_quality(raw_table(), {"job": job_tree()}, tmp_path / "none.csv", k=2, qis=QIS,
                      numeric=NUMERIC, released=RELEASED)
    assert _where(j) == ("quality.file", None, None) and j.verdict.detail == "missing"


def test_quality_columns() -> None:
    j = judge(output([r[:2] for r in GOOD_ROWS], header=["age", "job"]))
    assert _where(j) == ("quality.columns", None, "disease")
    assert j.verdict.params == {"found": ["age", "job"], "expected": RELEASED}
    j = judge(output([[r[1], r[0], r[2]] for r in GOOD_ROWS], header=["job", "age", "disease"]))
    assert _where(j) == ("quality.columns", None, "age")
    # a column the student added is never named (the column is one of the course's)
    j = judge(output([r + ["x"] for r in GOOD_ROWS], header=RELEASED + ["secret"]))
    assert _where(j) == ("quality.columns", None, None)


def test_quality_rows() -> None:
    j = judge(output(GOOD_ROWS[:5]))
    assert _where(j) == ("quality.rows", None, None)
    assert j.verdict.params == {"found": 5, "expected": 6}


@pytest.mark.parametrize("cell, detail", [("Medic", "label"), ("Health ", "label")])
def test_quality_cell_categorical(cell: str, detail: str) -> None:
    j = judge(output(changed(3, "job", cell)))
    assert _where(j) == ("quality.cell", 3, "job") and j.verdict.detail == detail
    assert j.verdict.params == {"cell": cell}


@pytest.mark.parametrize("cell, detail", [("twenty", "number"), ("[23 -27]", "number"),
                                          ("[23,27]", "number"), ("[27-23]", "range"),
                                          ("[25-25]", "range"), ("Health", "number")])
def test_quality_cell_numeric(cell: str, detail: str) -> None:
    j = judge(output(changed(5, "age", cell)))
    assert _where(j) == ("quality.cell", 5, "age") and j.verdict.detail == detail


def test_quality_copy() -> None:
    j = judge(output(changed(4, "disease", "Flu")))
    assert _where(j) == ("quality.copy", 4, "disease")
    assert j.verdict.params == {"cell": "Flu", "raw": "Asthma"}


def test_quality_cover() -> None:
    j = judge(output(changed(2, "age", "[28-30]")))
    assert _where(j) == ("quality.cover", 2, "age")
    assert j.verdict.params == {"cell": "[28-30]", "raw": "27"}
    j = judge(output(changed(6, "job", "Office")))  # Fay is an Artist
    assert _where(j) == ("quality.cover", 6, "job")
    assert judge(output(changed(1, "age", "24"))).verdict.rule == "quality.cover"


def test_the_first_failure_by_row_then_column() -> None:
    rows = changed(5, "age", "twenty")  # a cell fault on row 5
    rows[1][1] = "Office"  # a cover fault on row 2, column job
    rows[3][2] = "Flu"  # a copy fault on row 4
    assert _where(judge(output(rows))) == ("quality.cover", 2, "job")
    rows[1][0] = "[0-1]"  # row 2 again, an earlier column
    assert _where(judge(output(rows))) == ("quality.cover", 2, "age")


def test_quality_middle() -> None:
    rows = changed(3, "age", "[20-45]")  # covers 25, but the class's range is [25-45]
    rows[4][0] = "[20-45]"
    j = judge(output(rows))
    assert _where(j) == ("quality.middle", 3, "age")
    assert j.verdict.params == {"cell": "[20-45]", "middle": "[25-45]", "size": 2}
    rows = changed(1, "job", "*")  # Nurse and Doctor: their lowest common ancestor is Health
    rows[1][1] = "*"
    j = judge(output(rows))
    assert _where(j) == ("quality.middle", 1, "job")
    assert j.verdict.params == {"cell": "*", "middle": "Health", "size": 2}
    assert j.facts.classes == 3  # the facts are measured all the same


def test_quality_middle_of_a_single_value_is_the_value() -> None:
    rows = [list(r) for r in GOOD_ROWS]
    rows[2][0] = rows[4][0] = "[25-45]"
    rows[2][1] = rows[4][1] = "Office"  # Clerk and Clerk: the middle is the leaf Clerk
    j = judge(output(rows))
    assert _where(j) == ("quality.middle", 3, "job") and j.verdict.params["middle"] == "Clerk"


def test_quality_k() -> None:
    rows = [list(r) for r in GOOD_ROWS]
    rows[3][:2] = ["41", "Lawyer"]  # Dee alone, then Fay alone
    rows[5][:2] = ["52", "Artist"]
    j = judge(output(rows))
    assert _where(j) == ("quality.k", 4, None)
    assert j.verdict.params == {"size": 1, "k": 2}
    assert j.facts.classes == 4 and j.facts.smallest == 1
    assert judge(output(), k=3).verdict.rule == "quality.k"
    assert judge(output(), k=2).verdict.ok


def test_quality_utility() -> None:
    j = judge(output(), band_max=5.0)
    assert _where(j) == ("quality.utility", None, None)
    assert j.verdict.params["band_max"] == 5.0
    assert math.isclose(j.verdict.params["cost"], GOOD_NCP)
    assert judge(output(), band_max=GOOD_NCP + 1e-9).verdict.ok


def test_lm_is_the_kits_cost_lm() -> None:
    # LM per record = mean over the 2 QIs; job: (leaves - 1) / (5 - 1), age as its NCP
    by_hand = 2 * ((4 / 29 + 1 / 4) / 2) + 2 * ((20 / 29 + 0) / 2) + 2 * ((11 / 29 + 1) / 2)
    verdict, facts = judge(output(), metric="lm")
    assert verdict.ok and facts.metric == "lm" and math.isclose(facts.cost, by_hand)


def test_staff_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="k must be"):
        judge(output(), k=0)
    with pytest.raises(ValueError, match="not released"):
        judge_quality(raw_table(), {"job": job_tree()}, output(), k=2, qis=QIS,
                      numeric=NUMERIC, released=["age", "disease"])
    with pytest.raises(ValueError, match="no hierarchy"):
        judge_quality(raw_table(), {}, output(), k=2, qis=QIS, numeric=NUMERIC,
                      released=RELEASED)
    with pytest.raises(ValueError, match=r"raw.csv, data row 2, column 'age'"):
        raw = raw_table()
        raw.rows[1][1] = "old"
        judge_quality(raw, {"job": job_tree()}, output(), k=2, qis=QIS, numeric=NUMERIC,
                      released=RELEASED)
    with pytest.raises(ValueError, match=r"data row 6, column 'job': 'Poet' is not a label"):
        raw = raw_table()
        raw.rows[5][2] = "Poet"
        judge_quality(raw, {"job": job_tree()}, output(), k=2, qis=QIS, numeric=NUMERIC,
                      released=RELEASED)


def test_a_prepared_raw_side_judges_many_outputs() -> None:
    case = prepare_raw(raw_table(), {"job": job_tree()}, qis=QIS, numeric=NUMERIC,
                       released=RELEASED)
    assert case.header == RELEASED and case.values["age"] == [23, 27, 25, 41, 45, 52]
    assert judge_prepared(case, output(), k=2).verdict.ok
    assert judge_prepared(case, output(changed(3, "job", "Medic")), k=2).verdict.rule == \
        "quality.cell"
    assert judge_prepared(case, output(), k=2).facts.cost == pytest.approx(GOOD_NCP)


def test_a_table_made_by_the_caller_with_a_short_row() -> None:
    rows = [list(r) for r in GOOD_ROWS]
    rows[4] = rows[4][:2]
    j = judge(Table("out", RELEASED, rows))
    assert _where(j) == ("quality.file", 5, None) and j.verdict.detail == "width"


def test_the_metrics_module_on_the_example() -> None:
    columns = make_columns(["age", "job"], [["23", "Nurse"], ["52", "Artist"]],
                           {"job": job_tree()}, QIS, NUMERIC)
    cols = [columns["age"], columns["job"]]
    records = [r[:2] for r in GOOD_ROWS]
    assert table_cost(cols, records) == pytest.approx(GOOD_NCP)
    by_hand = 2 * ((4 / 29 + 1 / 4) / 2) + 2 * ((20 / 29 + 0) / 2) + 2 * ((11 / 29 + 1) / 2)
    assert table_cost(cols, records, "lm") == pytest.approx(by_hand)
    parsed = [cols[0].parse("[23-27]"), cols[1].parse("Health")]
    assert record_cost(cols, parsed) == pytest.approx(4 / 29 + 2 / 5)
    assert cell_cost(cols[1], cols[1].parse("Nurse")) == 0.0
    assert cell_cost(cols[1], cols[1].parse("*"), "lm") == 1.0
    with pytest.raises(ValueError, match="data row 2, column 'job'"):
        table_cost(cols, [["23", "Nurse"], ["52", "Poet"]])
    with pytest.raises(ValueError, match="unknown metric"):
        table_cost(cols, records, "gcp")
