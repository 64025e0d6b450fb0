"""The "child,parent" hierarchy format (the USTC lab's) beside the kit's tab-indented one:
hand-made files read into the same DGH as their tab twins (preorder node ids, children in
order of first appearance), the writer's exact text, round trips of the kit's hierarchies,
and every rule a file can break, each a ValueError naming the file and the line."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kanon import parse_dgh, read_dgh, read_dgh_folder, render_dgh

REPO = Path(__file__).resolve().parents[3]

# The lab's marital_status hierarchy written leaves first, as a person might: the groups are
# named as parents (lines 1-7) before they appear as children (lines 8-11).
MARITAL_CP = """Married-civ-spouse,Married
Married-AF-spouse,Married
Divorced,leave
Separated,leave
Widowed,alone
Married-spouse-absent,alone
Never-married,NM
Married,*
leave,*
alone,*
NM,*
"""
MARITAL_TABS = """*
\tMarried
\t\tMarried-civ-spouse
\t\tMarried-AF-spouse
\tleave
\t\tDivorced
\t\tSeparated
\talone
\t\tWidowed
\t\tMarried-spouse-absent
\tNM
\t\tNever-married
"""


def _same(a, b) -> None:
    assert a.labels == b.labels
    for field in ("parent", "depth", "leaf_count", "ancestors"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert a.children == b.children and a.index == b.index


def test_child_parent_reads_into_the_same_dgh_as_its_tab_twin(tmp_path: Path) -> None:
    (tmp_path / "marital_status.txt").write_text(MARITAL_CP, encoding="utf-8")
    cp = read_dgh(str(tmp_path / "marital_status.txt"), fmt="child-parent")
    _same(cp, parse_dgh(MARITAL_TABS, "marital_status", "tabs.txt"))
    assert cp.name == "marital_status" and cp.root_label == "*"
    assert cp.height == 2 and cp.n_leaves == 7
    assert cp.labels[:4] == ["*", "Married", "Married-civ-spouse", "Married-AF-spouse"]
    assert cp.labels[cp.up(np.array([cp.index["Separated"]]), 1)[0]] == "leave"
    assert cp.labels[cp.lca(np.array([cp.index["Widowed"], cp.index["Divorced"]]))] == "*"
    assert cp.lm(cp.index["alone"]) == pytest.approx(1 / 6)


def test_children_keep_the_order_of_first_appearance() -> None:
    # b1's parent B is named (line 2) before A is a child (line 4): B's group comes second
    # because A was first seen on line 1.
    dgh = parse_dgh("a1,A\nb1,B\nB,*\nA,*\na2,A\n", "x", "x.txt", "child-parent")
    assert dgh.labels == ["*", "A", "a1", "a2", "B", "b1"]
    assert dgh.parent.tolist() == [-1, 0, 1, 1, 0, 4]
    assert dgh.depth.tolist() == [0, 1, 2, 2, 1, 2]
    assert dgh.leaf_count.tolist() == [3, 2, 1, 1, 1, 1]
    assert all(dgh.parent[v] < v for v in range(1, dgh.n_nodes))  # preorder: parents first


def test_quotes_blank_lines_whitespace_bom_and_crlf(tmp_path: Path) -> None:
    text = ('\ufeff"Married, spouse present",Married  \r\n\r\n   \r\n'
            'Never-married , "single"\t\r\nMarried,*\r\n"single",*\r\n')
    (tmp_path / "m.txt").write_bytes(text.encode("utf-8"))
    dgh = read_dgh(str(tmp_path / "m.txt"), fmt="child-parent")
    assert dgh.labels == ["*", "Married", "Married, spouse present", "single", "Never-married"]
    assert render_dgh(dgh, "child-parent") == (
        'Married,*\n"Married, spouse present",Married\nsingle,*\nNever-married,single\n')


def test_the_writer_is_preorder_csv_and_reads_back() -> None:
    dgh = parse_dgh(MARITAL_CP, "m", "m.txt", "child-parent")
    text = render_dgh(dgh, "child-parent")
    assert text.splitlines()[:4] == ["Married,*", "Married-civ-spouse,Married",
                                     "Married-AF-spouse,Married", "leave,*"]
    assert sorted(text.splitlines()) == sorted(MARITAL_CP.splitlines())
    _same(parse_dgh(text, "m", "m.txt", "child-parent"), dgh)
    assert render_dgh(dgh) == MARITAL_TABS and render_dgh(dgh, "tabs") == MARITAL_TABS


def test_every_kit_hierarchy_survives_a_round_trip_through_child_parent() -> None:
    tabs = read_dgh_folder(str(REPO / "DGHs"))
    assert len(tabs) == 8
    for name, dgh in tabs.items():
        again = parse_dgh(render_dgh(dgh, "child-parent"), name, dgh.path, "child-parent")
        _same(again, dgh)
        assert render_dgh(again) == (REPO / "DGHs" / f"{name}.txt").read_text(encoding="utf-8")


def test_read_dgh_folder_reads_the_chosen_format(tmp_path: Path) -> None:
    (tmp_path / "sex.txt").write_text("Male,*\nFemale,*\n", encoding="utf-8")
    (tmp_path / "race.txt").write_text("White,*\nBlack,*\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("not a hierarchy\n", encoding="utf-8")
    dghs = read_dgh_folder(str(tmp_path), fmt="child-parent")
    assert sorted(dghs) == ["race", "sex"]
    assert dghs["sex"].labels == ["*", "Male", "Female"] and dghs["sex"].height == 1
    # the same files read as tab files: each line a second root
    with pytest.raises(ValueError, match=r"race\.txt, line 2: 'Black,\*' is a second root"):
        read_dgh_folder(str(tmp_path))


def test_an_unknown_format_is_refused_by_name(tmp_path: Path) -> None:
    for call in (lambda: parse_dgh("a,b\n", "x", "x.txt", "csv"),
                 lambda: read_dgh(str(tmp_path / "absent.txt"), fmt="csv"),
                 lambda: read_dgh_folder(str(tmp_path), fmt="csv"),
                 lambda: render_dgh(parse_dgh("*\n\ta\n", "x", "x.txt"), "csv")):
        with pytest.raises(ValueError, match=r"unknown hierarchy format 'csv' \(choose one of: "
                                             r"tabs, child-parent, paths\)"):
            call()


@pytest.mark.parametrize("text, line, says", [
    ("a,*\nb\n", 2, "expected one 'child,parent' pair, found 1 field(s) in 'b'"),
    ("a,*\nb,c,*\n", 2, "found 3 field(s) in 'b,c,*'"),
    ("a,*\n,*\n", 2, "the child label is empty"),
    ("a,*\nb, \n", 2, "the parent label is empty"),
    ("a,*\nb,b\n", 2, "'b' is its own parent (a cycle)"),
    ("a,*\nb,a\nb,*\n", 3, "'b' is a child a second time (its parent is 'a' on line 2)"),
    ("a,*\nb,a\nb,a\n", 3, "'b' is a child a second time"),
    ("a,*\n\nb,R\n", 3, "'R' is a second root (a parent that is never a child); the first is "
                        "'*' on line 1"),
    ("a,*\nx,y\ny,z\nz,x\n", 2, "a cycle: 'x' -> 'y' -> 'z' -> 'x' (child -> parent)"),
    ("q,p\np,q\n", 1, "a cycle: 'q' -> 'p' -> 'q'"),
    ('a,*\n"b,*\n', 2, "not a CSV line (unexpected end of data)"),
    ('a,*\n"b" c,*\n', 2, "not a CSV line"),
])
def test_each_broken_rule_names_the_file_and_line(tmp_path: Path, text, line, says) -> None:
    path = tmp_path / "h.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as error:
        read_dgh(str(path), fmt="child-parent")
    assert str(error.value).startswith(f"{path}, line {line}: "), str(error.value)
    assert says in str(error.value)


@pytest.mark.parametrize("text", ["", "\n  \n\n"])
def test_a_file_without_pairs_is_refused(tmp_path: Path, text) -> None:
    path = tmp_path / "h.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="has no 'child,parent' pairs") as error:
        read_dgh(str(path), fmt="child-parent")
    assert str(error.value).startswith(str(path))


def test_the_writer_refuses_what_would_not_read_back() -> None:
    with pytest.raises(ValueError, match="a root alone has no 'child,parent' pairs"):
        render_dgh(parse_dgh("Any\n", "one", "one.txt"), "child-parent")
    spaced = parse_dgh("Any\n\t two\n", "s", "s.txt")  # a tab file keeps leading spaces
    with pytest.raises(ValueError, match=r"s\.txt: the label ' two' cannot be written"):
        render_dgh(spaced, "child-parent")
