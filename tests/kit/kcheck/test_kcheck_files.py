"""kcheck.tables and kcheck.hierarchies: tables from paths and bytes, the three hierarchy
formats read into the same trees (the kit's own DGHs/ and the USTC lab's files read alike by
kanon and by kcheck), the tree queries, and every format error naming the file and line."""
from __future__ import annotations

from pathlib import Path

import pytest

from kanon import read_dgh_folder, render_dgh
from kcheck import (HierarchyError, TableError, Tree, parse_hierarchy, parse_table,
                    read_folder, read_hierarchy, read_table)
from kcheck.cells import Numeric, covers, make_columns, middle, parse_number, parse_range
from kcheck_data import JOB_PATHS, job_tree

REPO = Path(__file__).resolve().parents[3]
JOB_TABS = "*\n\tHealth\n\t\tNurse\n\t\tDoctor\n\tOffice\n\t\tClerk\n\t\tLawyer\n\tArtist\n"
JOB_CP = "Nurse,Health\nDoctor,Health\nHealth,*\nClerk,Office\nLawyer,Office\nOffice,*\nArtist,*\n"


def _paths(tree: Tree, delimiter: str = ";") -> str:
    """A tree written in the paths format, one line per leaf in preorder."""
    return "".join(delimiter.join(tree.labels[n] for n in reversed(tree.path[node])) + "\n"
                   for node in range(len(tree.labels)) if not tree.children[node])


def test_tables_from_bytes_and_paths(tmp_path: Path) -> None:
    data = "\ufeffa,b\r\n1,\"x,y\"\r\n\r\n2,z\r\n".encode()
    table = parse_table(data, "t.csv")
    assert table.header == ["a", "b"] and table.rows == [["1", "x,y"], ["2", "z"]]
    assert table.column("b") == ["x,y", "z"]
    (tmp_path / "t.csv").write_bytes(data)
    assert read_table(tmp_path / "t.csv").rows == table.rows
    assert read_table(data).name == "output"


@pytest.mark.parametrize("data, kind, row, column, text", [
    (b"a,b\n1,2\n3\n", "width", 2, "b", "t.csv, data row 2, column 'b': 1 cells"),
    (b"a,b\n1,2,3\n", "width", 1, None, "t.csv, data row 1: 3 cells"),
    (b"a,a\n", "duplicate", None, "a", "t.csv, column 'a': the column name appears twice"),
    (b"\n\n", "empty", None, None, "t.csv: the file is empty"),
    (b"a\n\xe9\n", "encoding", None, None, "t.csv: not UTF-8 text"),
])
def test_table_errors_name_the_file_row_and_column(data, kind, row, column, text) -> None:
    with pytest.raises(TableError) as caught:
        parse_table(data, "t.csv")
    e = caught.value
    assert (e.kind, e.row, e.column, e.file) == (kind, row, column, "t.csv")
    assert str(e).startswith(text)


def test_the_three_formats_read_into_one_tree() -> None:
    trees = [parse_hierarchy(JOB_PATHS, "job", "job.txt"),
             parse_hierarchy(JOB_PATHS.replace(";", " > "), "job", "job.txt", delimiter=">"),
             parse_hierarchy(JOB_TABS, "job", "job.txt", "tabs"),
             parse_hierarchy(JOB_CP, "job", "job.txt", "child-parent")]
    for tree in trees:
        assert tree.labels == ["*", "Health", "Nurse", "Doctor", "Office", "Clerk", "Lawyer",
                               "Artist"]
        assert tree.parent == trees[0].parent
    tree = trees[0]
    assert tree.root == "*" and tree.n_leaves == 5
    assert [tree.leaves(x) for x in ("*", "Health", "Nurse", "Artist")] == [5, 2, 1, 1]
    assert tree.covers("Health", "Nurse") and tree.covers("*", "Clerk")
    assert tree.covers("Nurse", "Nurse") and not tree.covers("Office", "Nurse")
    assert not tree.covers("Nurse", "Health")
    assert tree.lca(["Nurse"]) == "Nurse" and tree.lca(["Nurse", "Doctor"]) == "Health"
    assert tree.lca(["Clerk", "Lawyer", "Clerk"]) == "Office"
    assert tree.lca(["Nurse", "Artist"]) == "*" and tree.lca(["Health", "Doctor"]) == "Health"
    assert tree.is_leaf("Artist") and not tree.is_leaf("Office") and "Poet" not in tree


def test_read_folder_reads_every_txt(tmp_path: Path) -> None:
    (tmp_path / "job.txt").write_text(JOB_PATHS, encoding="utf-8")
    (tmp_path / "sex.txt").write_text("\ufeffMale;*\n\nFemale ; *\n", encoding="utf-8")
    (tmp_path / ".hidden.txt").write_text("x;*\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("x", encoding="utf-8")
    trees = read_folder(tmp_path)
    assert sorted(trees) == ["job", "sex"]
    assert trees["sex"].labels == ["*", "Male", "Female"] and trees["sex"].name == "sex"
    assert trees["job"].file == str(tmp_path / "job.txt")


@pytest.mark.parametrize("text, line, words", [
    ("a;*\nb;X\n", 2, "ends in 'X', but line 1 ends in '*'"),
    ("a;A;*\nb;B;*\na;B;*\n", 3, "the leaf 'a' is listed a second time (first on line 1)"),
    ("a;A;*\nb;A;B;*\n", 2, "'A' has the parent 'B' here, but '*' on line 1"),
    ("a;A;*\nA;*\n", 2, "'A' is listed as a leaf, but line 1 lists it as an ancestor"),
    ("A;*\na;A;*\n", 2, "'A' is an ancestor here, but line 1 lists it as a leaf"),
    ("a;;*\n", 1, "an empty label"),
    ("a;b;a;*\n", 1, "'a' appears twice on one line"),
])
def test_paths_errors_name_the_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(HierarchyError) as caught:
        parse_hierarchy(text, "x", "x.txt")
    assert caught.value.line == line and caught.value.file == "x.txt"
    assert str(caught.value).startswith(f"x.txt, line {line}: ") and words in str(caught.value)


@pytest.mark.parametrize("fmt, text, line, words", [
    ("tabs", "\t*\n", 1, "must not be indented"),
    ("tabs", "*\n\ta\nb\n", 3, "'b' is a second root"),
    ("tabs", "*\n\t\ta\n", 2, "more than one tab deeper"),
    ("tabs", "*\n\ta\n\ta\n", 3, "repeated (first on line 2)"),
    ("child-parent", "a,*\nb\n", 2, "expected one 'child,parent' pair"),
    ("child-parent", "a,*\na,b\n", 2, "'a' is a child a second time"),
    ("child-parent", "a,b\nb,a\nc,*\n", 1, "a cycle"),
    ("child-parent", "a,*\nb,+\n", 2, "'+' is a second root"),
    ("child-parent", "a,a\n", 1, "its own parent"),
])
def test_tabs_and_child_parent_errors_name_the_file_and_line(fmt, text, line, words) -> None:
    with pytest.raises(HierarchyError) as caught:
        parse_hierarchy(text, "x", "x.txt", fmt)
    assert caught.value.line == line and words in str(caught.value)


def test_whole_file_errors(tmp_path: Path) -> None:
    for fmt in ("paths", "tabs", "child-parent"):
        with pytest.raises(HierarchyError, match="x.txt: "):
            parse_hierarchy("\n \n", "x", "x.txt", fmt)
    with pytest.raises(ValueError, match="unknown hierarchy format"):
        parse_hierarchy("a;*", "x", "x.txt", "yaml")
    (tmp_path / "bad.txt").write_bytes(b"\xff;*\n")
    with pytest.raises(HierarchyError, match="not UTF-8"):
        read_hierarchy(tmp_path / "bad.txt")
    with pytest.raises(HierarchyError, match="not found"):
        read_folder(tmp_path / "none")


def test_the_kits_hierarchies_read_as_kanon_reads_them(tmp_path: Path) -> None:
    """The kit's DGHs/ (tabs), the same in child-parent, and written back as paths: kcheck's
    trees have kanon's labels, parents and leaf counts."""
    kit = read_dgh_folder(str(REPO / "DGHs"))
    tabs = read_folder(REPO / "DGHs", "tabs")
    for name, dgh in kit.items():
        (tmp_path / f"{name}.txt").write_text(render_dgh(dgh, "child-parent"), encoding="utf-8")
    child_parent = read_folder(tmp_path, "child-parent")
    assert sorted(tabs) == sorted(kit) == sorted(child_parent)
    for name, dgh in kit.items():
        for tree in (tabs[name], child_parent[name]):
            assert tree.labels == dgh.labels
            assert tree.parent == [int(p) for p in dgh.parent]
            assert tree.leaf_count == [int(c) for c in dgh.leaf_count]
            assert tree.depth == [int(d) for d in dgh.depth]
        paths = parse_hierarchy(_paths(tabs[name]), name, f"{name}.txt")
        assert paths.labels == dgh.labels and paths.parent == tabs[name].parent


def test_the_ustc_labs_child_parent_files_read_as_kanon_reads_them() -> None:
    folder = REPO / "courses" / "ustc" / "cases" / "public" / "adult" / "DGHs"
    kit = read_dgh_folder(str(folder), fmt="child-parent")
    ours = read_folder(folder, "child-parent")
    assert sorted(kit) == sorted(ours) and kit
    for name, dgh in kit.items():
        assert ours[name].labels == dgh.labels
        assert ours[name].parent == [int(p) for p in dgh.parent]


def test_numbers_ranges_and_cell_helpers() -> None:
    assert parse_number("37") == 37 and isinstance(parse_number("37"), int)
    assert parse_number("-2.5") == -2.5 and parse_number("1e3") == 1000.0
    assert parse_number(" 37") is None and parse_number("inf") is None
    assert parse_number("nan") is None and parse_number("") is None
    assert parse_range("[23-27]") == (23, 27) and parse_range("[-5--3]") == (-5, -3)
    assert parse_range("[1.5-2e1]") == (1.5, 20.0) and parse_range("[27-23]") == (27, 23)
    assert parse_range("[23 - 27]") is None and parse_range("(23-27]") is None
    age = Numeric("age", ["23", "27", "52"])
    assert (age.low, age.high, age.span) == (23, 52, 29)
    assert covers(age, "[23-27]", "27") and covers(age, "27", "27")
    assert not covers(age, "[23-26]", "27") and not covers(age, "[27-23]", "25")
    assert middle(age, ["27", "23"]) == "[23-27]" and middle(age, ["52"]) == "52"
    columns = make_columns(["age", "job"], [["23", "Nurse"], ["52", "Doctor"]],
                           {"job": job_tree()}, ["job", "age"], ["age"])
    assert list(columns) == ["job", "age"]
    assert middle(columns["job"], ["Nurse", "Doctor"]) == "Health"
    assert covers(columns["job"], "*", "Nurse") and not covers(columns["job"], "x", "Nurse")
