"""A course's schema (kanon/schema.py) in the reference: released columns and deletion.

Hand example: A = Any{a1{x1, x2}, a2{x3, x4}} (height 2), B = Any{b1, b2} (height 1), S is the
sensitive column and Name a column the course does not release. Rows r1 (x1, b1, s1, n1),
r2 (x1, b1, s2, n2), r3 (x2, b1, s1, n3), r4 (x3, b2, s2, n4); Samarati with k = 2, max_sup = 1:
height 0: (0,0) leaves r3, r4 alone (2 outliers > 1); height 1: (1,0) gives (a1, b1) x 3 and
(a2, b2) x 1 (1 outlier: r4), (0,1) leaves r3 and r4 alone: h* = 1, vector (1,0), r4 deleted.
"""
from __future__ import annotations

import csv

import pytest

from kanon.schema import Schema
from reference import mondrian, samarati

A = "Any\n\ta1\n\t\tx1\n\t\tx2\n\ta2\n\t\tx3\n\t\tx4\n"
B = "Any\n\tb1\n\tb2\n"
RAW = "A,Name,B,S\nx1,n1,b1,s1\nx1,n2,b1,s2\nx2,n3,b1,s1\nx3,n4,b2,s2\n"
LAB = Schema(sensitive="S", other_columns="drop", suppression="delete")


@pytest.fixture
def case(tmp_path):
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "A.txt").write_text(A, encoding="utf-8")
    (tmp_path / "DGHs" / "B.txt").write_text(B, encoding="utf-8")
    (tmp_path / "raw.csv").write_text(RAW, encoding="utf-8")
    return tmp_path


def rows(path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def test_samarati_deletes_the_outliers_and_releases_the_qis_and_the_sensitive_column(case):
    out = case / "out.csv"
    samarati(str(case / "raw.csv"), str(case / "DGHs"), 2, 1, str(out), schema=LAB)
    assert rows(out) == [["A", "B", "S"], ["a1", "b1", "s1"], ["a1", "b1", "s2"],
                         ["a1", "b1", "s1"]]


def test_samarati_by_default_suppresses_to_the_roots_and_keeps_every_column(case):
    out = case / "out.csv"
    samarati(str(case / "raw.csv"), str(case / "DGHs"), 2, 1, str(out))
    assert rows(out) == [["A", "Name", "B", "S"], ["a1", "n1", "b1", "s1"],
                         ["a1", "n2", "b1", "s2"], ["a1", "n3", "b1", "s1"],
                         ["Any", "n4", "Any", "s2"]]


def test_deletion_alone_keeps_every_column(case):
    out = case / "out.csv"
    samarati(str(case / "raw.csv"), str(case / "DGHs"), 2, 1, str(out),
             schema=Schema(suppression="delete"))
    assert rows(out)[0] == ["A", "Name", "B", "S"]
    assert len(rows(out)) == 4  # r4 deleted


def test_mondrian_releases_the_same_cells_without_the_other_columns(case):
    default, lab = case / "default.csv", case / "lab.csv"
    mondrian(str(case / "raw.csv"), str(case / "DGHs"), 2, str(default))
    mondrian(str(case / "raw.csv"), str(case / "DGHs"), 2, str(lab), schema=LAB)
    assert rows(lab) == [[r[0], r[2], r[3]] for r in rows(default)]


def test_a_missing_sensitive_column_is_named(case):
    with pytest.raises(ValueError, match=r"raw\.csv: no column 'Disease'"):
        mondrian(str(case / "raw.csv"), str(case / "DGHs"), 2, str(case / "out.csv"),
                 schema=Schema(sensitive="Disease", other_columns="drop"))
    assert not (case / "out.csv").exists()


def test_schema_refuses_unknown_settings():
    with pytest.raises(ValueError, match="suppression must be one of root, delete"):
        Schema(suppression="blank")
    with pytest.raises(ValueError, match="needs the sensitive column"):
        Schema(other_columns="drop")
    assert Schema().is_default and LAB.changes() == {
        "sensitive": "S", "other_columns": "drop", "suppression": "delete"}
