"""skeleton.py, the students' starting file: given code, helpers, signatures and command line."""
from __future__ import annotations

import ast
import csv
import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import reference
import kanon.table
from kanon.hierarchy import read_dgh_folder

ROOT = Path(__file__).resolve().parents[3]
SKELETON = ROOT / "skeleton.py"
GRADED = ["cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
          "bottomup_anonymizer", "samarati", "mondrian", "topdown_anonymizer",
          "datafly", "entropy_l", "t_closeness", "topdown_greedy", "kaca"]
TODO_LINE = '    raise NotImplementedError("random_anonymizer: steps 2 and 3 (delete this line)")\n'


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def skeleton():
    return load(SKELETON, "skeleton_under_test")


@pytest.fixture(scope="module")
def every_part(tmp_path_factory):
    """The skeleton.py of the course that grades every part (grader/rubric-all.toml)."""
    from grader.publishing.materials import course_materials
    from grader.rubric import load as load_rubric
    path = tmp_path_factory.mktemp("all") / "skeleton.py"
    path.write_bytes(course_materials(load_rubric(ROOT / "grader" / "rubric-all.toml"),
                                      ROOT)["skeleton.py"])
    return load(path, "skeleton_every_part")


def write_csv(path: Path, rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return [r for r in csv.reader(f) if r]


# ---------------------------------------------------------------- the given random steps


@pytest.fixture(scope="module")
def random_filled_in(tmp_path_factory):
    """skeleton.py with the students' middle of random_anonymizer replaced by one EC per
    record (so the output is the raw table) that records the shuffled order."""
    text = SKELETON.read_text(encoding="utf-8")
    assert text.count(TODO_LINE) == 1, "the TODO line of random_anonymizer moved"
    text = text.replace(TODO_LINE, "    global SHUFFLED\n"
                                   "    SHUFFLED = [int(r[ROW_INDEX]) for r in raw_dataset]\n"
                                   "    clusters = [[r] for r in raw_dataset]\n")
    path = tmp_path_factory.mktemp("filled") / "skeleton_filled.py"
    path.write_text(text, encoding="utf-8")
    return load(path, "skeleton_filled")


@pytest.mark.parametrize("n, s", [(1, 0), (10, 7), (37, 0), (37, 123456), (50, 2**32 - 1)])
def test_given_shuffle_is_the_contract_permutation_and_rows_come_back_in_order(
        random_filled_in, tmp_path, n, s):
    # A column named "index" must not disturb the row tag; cells need CSV quoting.
    rows = [["index", "Sex", "note"]] + [[str(i % 3), ["Male", "Female"][i % 2], f'a,"{i}"']
                                          for i in range(n)]
    write_csv(tmp_path / "raw.csv", rows)
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "Sex.txt").write_text("Any\n\tMale\n\tFemale\n", encoding="utf-8")
    random_filled_in.random_anonymizer(str(tmp_path / "raw.csv"), str(tmp_path / "DGHs"), 1, s,
                                       str(tmp_path / "out.csv"))
    perm = np.arange(n)
    np.random.seed(s)
    np.random.shuffle(perm)
    assert random_filled_in.SHUFFLED == perm.tolist()
    assert read_csv(tmp_path / "out.csv") == rows


def test_untouched_random_anonymizer_says_not_implemented(skeleton, tmp_path):
    with pytest.raises(NotImplementedError):
        skeleton.random_anonymizer(str(ROOT / "adult-hw1.csv"), str(ROOT / "DGHs"), 4, 0,
                                   str(tmp_path / "out.csv"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", [n for n in GRADED if n != "random_anonymizer"])
def test_every_graded_function_starts_unimplemented(every_part, name, tmp_path):
    fn = getattr(every_part, name)
    args = ["a.csv", "b.csv", "DGHs"] if name.startswith("cost") or name == "entropy_l" else \
        ["a.csv", "b.csv", "DGHs", "equal"] if name == "t_closeness" else \
        ["a.csv", "DGHs", *[1] * (len(inspect.signature(fn).parameters) - 3), "out.csv"]
    with pytest.raises(NotImplementedError):
        fn(*args)


# ---------------------------------------------------------------- signatures, import


@pytest.mark.parametrize("name", GRADED)
def test_signature_matches_the_reference(every_part, name):
    mine = inspect.signature(getattr(every_part, name), eval_str=True)
    ref = inspect.signature(getattr(reference, name), eval_str=True)
    # the reference's keyword-only `schema` (a course's, kanon/schema.py) is the staff's own
    graded = [p for p in ref.parameters.values() if p.kind is not p.KEYWORD_ONLY]
    assert list(mine.parameters.values()) == graded
    if name.startswith("cost") or name in ("entropy_l", "t_closeness"):
        assert mine.return_annotation is float and ref.return_annotation is float


def test_import_has_no_side_effects(tmp_path):
    (tmp_path / "skeleton.py").write_bytes(SKELETON.read_bytes())
    result = subprocess.run([sys.executable, "-B", "-c", "import skeleton"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["skeleton.py"]


def test_imports_only_stdlib_and_numpy():
    tree = ast.parse(SKELETON.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    assert names - {"numpy"} <= set(sys.stdlib_module_names)


# ---------------------------------------------------------------- helpers


def test_read_dataset_ignores_blank_lines_and_bom_and_keeps_cells(skeleton, tmp_path):
    path = tmp_path / "d.csv"
    path.write_bytes('\ufeffa,b\r\n\r\n x ,"1, ""2"""\r\n\r\nZürich,\r\n'.encode("utf-8"))
    header, rows = skeleton.read_dataset(str(path))
    assert header == ["a", "b"]
    assert rows == [{"a": " x ", "b": '1, "2"'}, {"a": "Zürich", "b": ""}]


def test_read_dataset_names_file_and_row_of_a_short_row(skeleton, tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b\n1,2\n3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"d\.csv.*row 2"):
        skeleton.read_dataset(str(path))


def same_hierarchies(skeleton, folders: list[Path]) -> None:
    """skeleton.read_DGHs and the reference parse every folder to the same trees."""
    for folder in folders:
        mine, ref = skeleton.read_DGHs(str(folder)), read_dgh_folder(str(folder))
        assert sorted(mine) == sorted(ref)
        for name, dgh in ref.items():
            parents = {label: (None if p < 0 else dgh.labels[p])
                       for label, p in zip(dgh.labels, dgh.parent.tolist())}
            assert mine[name].parent == parents, f"{folder}/{name}.txt"
            assert mine[name].depth == dict(zip(dgh.labels, dgh.depth.tolist()))
            assert mine[name].root == dgh.root_label


def test_read_dgh_matches_the_reference_on_every_kit_hierarchy(skeleton):
    same_hierarchies(skeleton, [ROOT / "DGHs"] + sorted(
        (ROOT / "tests" / "public" / "data" / "cases").glob("*/DGHs")))


def test_read_dgh_and_read_dataset_on_the_real_course_data(skeleton, course_data):
    same_hierarchies(skeleton, [course_data / "DGHs"])
    header, rows = skeleton.read_dataset(str(course_data / "adult-hw1.csv"))
    table = kanon.table.read_table(str(course_data / "adult-hw1.csv"))
    assert header == table.header
    assert [[row[c] for c in header] for row in rows] == table.rows


@pytest.mark.parametrize("text, line", [("\tA\n", 1), ("A\n\n\t\tB\n", 3), ("A\nB\n", 2),
                                         ("A\n\tB\n\tB\n", 3)])
def test_read_dgh_names_file_and_line_of_a_bad_line(skeleton, tmp_path, text, line):
    path = tmp_path / "X.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=rf"X\.txt, line {line}"):
        skeleton.read_DGH(str(path))


def test_write_dataset_is_minimal_quoting_lf_and_refuses_the_raw_file(skeleton, tmp_path):
    out = tmp_path / "out.csv"
    skeleton.write_dataset([{"a": "x,y", "b": 'q"'}, {"a": "é", "b": ""}], str(out), ["a", "b"])
    assert out.read_bytes() == 'a,b\n"x,y","q"""\né,\n'.encode("utf-8")
    before = out.read_bytes()
    with pytest.raises(ValueError, match="raw dataset"):
        skeleton.write_dataset([{"a": "1", "b": "2"}], str(out), ["a", "b"],
                               raw_dataset_file=str(tmp_path / "." / "out.csv"))
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


# ---------------------------------------------------------------- command line


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-B", str(SKELETON), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("args", [(), ("random",), ("magic", "DGHs", "adult-hw1.csv", "o.csv", "4"),
                                  ("random", "DGHs", "adult-hw1.csv", "o.csv", "four"),
                                  ("mondrian", "DGHs", "adult-hw1.csv", "o.csv", "4", "1"),
                                  ("random", "DGHs", "adult-hw1.csv", "o.csv", "4", "0", "9")])
def test_cli_bad_arguments_print_the_usage_and_one_error_line_and_exit_2(args, tmp_path):
    result = cli(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("usage: python skeleton.py")
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and errors[0].startswith("python skeleton.py: error: ")
    assert list(tmp_path.iterdir()) == []


def test_cli_reports_an_unimplemented_function_in_one_line(tmp_path):
    result = cli("clustering", str(ROOT / "DGHs"), str(ROOT / "adult-hw1.csv"),
                 str(tmp_path / "o.csv"), "4", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == "error: clustering_anonymizer is not implemented yet\n"


def test_cli_runs_the_algorithm_with_defaults_and_prints_costs_and_time(skeleton, monkeypatch,
                                                                       tmp_path, capsys):
    calls = []

    def fake_samarati(raw, dghs, k, max_sup, out):
        calls.append((raw, dghs, k, max_sup, out))
        reference.samarati(raw, dghs, k, max_sup, out)

    monkeypatch.setattr(skeleton, "samarati", fake_samarati)
    monkeypatch.setattr(skeleton, "cost_MD", reference.cost_MD)
    monkeypatch.setattr(skeleton, "cost_LM", reference.cost_LM)
    cases = ROOT / "tests" / "public" / "data" / "cases" / "sam"
    out = str(tmp_path / "o.csv")
    status = skeleton._run(["samarati", str(cases / "DGHs"), str(cases / "raw.csv"), out, "2"])
    printed = capsys.readouterr().out.splitlines()
    assert status == 0
    assert calls == [(str(cases / "raw.csv"), str(cases / "DGHs"), 2, 0, out)]
    assert printed[:3] == [f"samarati: wrote {out}", "MD cost: 12", "LM cost: 3"]
    assert printed[3].startswith("time: ") and printed[3].endswith(" s")


def test_cli_error_from_a_function_is_one_line_with_exit_1(skeleton, monkeypatch, capsys):
    def broken(raw, dghs, k, out):
        raise ValueError(f"{raw} has 3 rows, fewer than k = {k}")

    monkeypatch.setattr(skeleton, "mondrian", broken)
    status = skeleton._run(["mondrian", "DGHs", "x.csv", "o.csv", "9"])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.err == "error: mondrian: ValueError: x.csv has 3 rows, fewer than k = 9\n"
