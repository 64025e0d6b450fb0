"""Grader scoring: exact match, validity and privacy checks, and what feedback may reveal."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

import os

from grader.grading.compare import (NotARegularFile, compare_cost, compare_table, load_case_data,
                            read_output)

CASES = Path(__file__).resolve().parents[3] / "grader" / "cases"
QUOTED = CASES / "hidden" / "quoted"  # city, score (numeric), note, diet


def rows_of(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def write_rows(path: Path, rows: list[list[str]], **kw) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, **kw).writerows(rows)
    return path


@pytest.fixture(scope="module")
def data():
    return load_case_data(QUOTED)


def reference_output(tmp: Path, function: str, **ints) -> Path:
    import reference
    out = tmp / f"{function}.csv"
    args = [str(QUOTED / "adult-hw1.csv"), str(QUOTED / "DGHs")] + list(ints.values()) + [
        str(out)]
    getattr(reference, function)(*args)
    return out


def test_numeric_columns_as_the_handout_reads_them() -> None:
    from kanon.cells import is_numeric
    assert is_numeric(["1", "2.5", "-3"]) and not is_numeric([])
    assert not is_numeric(["1", "x"]) and not is_numeric(["1", "inf"])
    assert not is_numeric(["5", "5.0"])  # two spellings of one number


def test_costs_within_relative_tolerance() -> None:
    assert compare_cost(100.001, 100.0, 1e-6).status == "wrong"
    assert compare_cost(100.00001, 100.0, 1e-6).status == "passed"
    assert compare_cost(100.00000001, 100.0, 1e-6).status == "passed"
    assert compare_cost(0.0, 0.0, 1e-6).status == "passed"


def test_identical_output_passes_even_with_other_line_endings(tmp_path: Path, data) -> None:
    expected = reference_output(tmp_path, "clustering_anonymizer", k=2)
    same = tmp_path / "same.csv"
    same.write_bytes(expected.read_bytes())
    assert compare_table(same.read_bytes(), expected, data, "clustering_anonymizer", {"k": 2},
                         hidden=True).status == "passed"
    crlf = write_rows(tmp_path / "crlf.csv", rows_of(expected), quoting=csv.QUOTE_ALL)
    verdict = compare_table(crlf.read_bytes(), expected, data, "clustering_anonymizer", {"k": 2}, hidden=True)
    assert verdict.status == "passed" and "parsed CSV" in verdict.message


def test_a_different_valid_private_output_earns_partial(tmp_path: Path, data) -> None:
    expected = reference_output(tmp_path, "clustering_anonymizer", k=2)
    other = reference_output(tmp_path, "random_anonymizer", k=2, s=5)
    verdict = compare_table(other.read_bytes(), expected, data, "clustering_anonymizer", {"k": 2},
                            hidden=False)
    assert verdict.status == "partial"
    assert "valid and k-anonymous" in verdict.message and "expected " in verdict.message


def test_all_root_output_is_private_for_every_function(tmp_path: Path, data) -> None:
    rows = rows_of(QUOTED / "adult-hw1.csv")
    roots = {"city": "Anywhere", "score": "Any", "diet": "Any diet"}
    top = [rows[0]] + [[roots.get(h, cell) for h, cell in zip(rows[0], r)] for r in rows[1:]]
    out = write_rows(tmp_path / "top.csv", top, lineterminator="\n")
    expected = reference_output(tmp_path, "mondrian", k=2)
    for function, ints in [("mondrian", {"k": 40}), ("bottomup_anonymizer", {"k": 40, "l": 2}),
                           ("samarati", {"k": 40, "max_sup": 0})]:
        assert compare_table(out.read_bytes(), expected, data, function, ints, True).status == "partial"
    verdict = compare_table(out.read_bytes(), expected, data, "clustering_anonymizer", {"k": 41}, True)
    assert verdict.status == "wrong" and "has 40 row(s); k = 41" in verdict.message


def test_validity_failures_name_row_and_column_but_hide_hidden_values(tmp_path: Path,
                                                                       data) -> None:
    expected = reference_output(tmp_path, "mondrian", k=2)
    rows = rows_of(expected)
    city = rows[0].index("city")
    secret = rows_of(QUOTED / "adult-hw1.csv")[3][city]  # the raw value of data row 3
    rows[3][city] = "São Paulo" if secret != "São Paulo" else "東京"  # another leaf
    bad = write_rows(tmp_path / "bad.csv", rows, lineterminator="\n")
    hidden = compare_table(bad.read_bytes(), expected, data, "mondrian", {"k": 2}, hidden=True)
    assert hidden.status == "wrong"
    assert "data row 3 (the header is not counted), column 'city'" in hidden.message
    assert secret not in hidden.message and rows[3][city] not in hidden.message
    shown = compare_table(bad.read_bytes(), expected, data, "mondrian", {"k": 2}, hidden=False)
    assert repr(rows[3][city]) in shown.message


def test_intervals_only_for_mondrian_and_numeric_columns(tmp_path: Path, data) -> None:
    rows = rows_of(QUOTED / "adult-hw1.csv")
    score = rows[0].index("score")
    wide = [rows[0]] + [r[:score] + ["[1.5-10]"] + r[score + 1:] for r in rows[1:]]
    out = write_rows(tmp_path / "wide.csv", wide, lineterminator="\n")
    expected = reference_output(tmp_path, "mondrian", k=1)
    m = compare_table(out.read_bytes(), expected, data, "mondrian", {"k": 1}, hidden=False)
    assert m.status == "partial"
    c = compare_table(out.read_bytes(), expected, data, "clustering_anonymizer", {"k": 1}, hidden=False)
    assert c.status == "wrong" and "not a label of the column's hierarchy" in c.message
    narrow = [rows[0]] + [r[:score] + ["[7-9.5]"] + r[score + 1:] for r in rows[1:]]
    out2 = write_rows(tmp_path / "narrow.csv", narrow, lineterminator="\n")
    n = compare_table(out2.read_bytes(), expected, data, "mondrian", {"k": 1}, hidden=False)
    assert n.status == "wrong" and "does not contain" in n.message


def test_l_diversity_and_suppression_budget(tmp_path: Path, data) -> None:
    rows = rows_of(QUOTED / "adult-hw1.csv")
    header = rows[0]
    qi = {"city": "Anywhere", "score": "Any", "diet": "Any diet"}
    # all rows suppressed: one EC of 40 rows, fine for k <= 40 ...
    top = [header] + [[qi.get(h, c) for h, c in zip(header, r)] for r in rows[1:]]
    out = write_rows(tmp_path / "top.csv", top, lineterminator="\n")
    expected = reference_output(tmp_path, "samarati", k=2, max_sup=0)
    assert compare_table(out.read_bytes(), expected, data, "samarati", {"k": 50, "max_sup": 40},
                         True).status == "partial"
    verdict = compare_table(out.read_bytes(), expected, data, "samarati", {"k": 50, "max_sup": 39}, True)
    assert verdict.status == "wrong" and "max_sup = 39" in verdict.message
    notes = len({r[header.index("note, free text")] for r in rows[1:]})
    verdict = compare_table(out.read_bytes(), expected, data, "bottomup_anonymizer",
                            {"k": 2, "l": notes + 1}, True)
    assert verdict.status == "wrong" and f"{notes} distinct value(s)" in verdict.message


def test_unreadable_and_misshapen_outputs(tmp_path: Path, data) -> None:
    expected = reference_output(tmp_path, "mondrian", k=2)
    rows = rows_of(expected)
    short = write_rows(tmp_path / "short.csv", rows[:-1], lineterminator="\n")
    verdict = compare_table(short.read_bytes(), expected, data, "mondrian", {"k": 2}, True)
    assert verdict.status == "wrong" and "39 data rows, the raw file has 40" in verdict.message
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b\n1\n", encoding="utf-8")
    verdict = compare_table(ragged.read_bytes(), expected, data, "mondrian", {"k": 2}, True)
    assert verdict.status == "wrong" and "not a readable dataset" in verdict.message
    assert str(ragged) not in verdict.message


def test_output_files_that_are_links_are_never_followed(tmp_path: Path) -> None:
    secret = tmp_path / "expected.csv"
    secret.write_text("a\n1\n")
    (tmp_path / "soft.csv").symlink_to(secret)
    os.link(secret, tmp_path / "hard.csv")
    for name in ("soft.csv", "hard.csv"):
        with pytest.raises((NotARegularFile, OSError)):
            read_output(tmp_path / name)
    (tmp_path / "plain.csv").write_bytes(b"a\n2\n")
    assert read_output(tmp_path / "plain.csv") == b"a\n2\n"
