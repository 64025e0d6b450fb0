"""Grader intake: safe unzipping, finding submissions and student ids, choosing the solution."""
from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from grader.errors import UserError
from grader.grading.intake import ArchiveProblem, Caps, discover, safe_extract, unpack
from grader.grading.solution import choose

PATTERN = re.compile(r"^(?P<id>[^_]+)")
GOOD = "def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):\n    return 1.0\n"


def make_zip(path: Path, files: dict[str, bytes | str], links: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o120777 << 16)
            zf.writestr(info, "/etc/passwd")
    return path


@pytest.mark.parametrize("name", ["../evil.py", "a/../../evil.py", "/etc/evil.py",
                                  "C:/evil.py", "..\\evil.py"])
def test_unsafe_paths_are_refused_before_anything_is_written(tmp_path: Path, name: str) -> None:
    archive = make_zip(tmp_path / "s.zip", {"skeleton.py": GOOD, name: "x"})
    with pytest.raises(ArchiveProblem) as e:
        safe_extract(archive, tmp_path / "out", Caps())
    assert e.value.status == "unsafe-archive"
    assert not (tmp_path / "out" / "skeleton.py").exists()
    assert not (tmp_path / "evil.py").exists()


def test_links_are_refused(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "s.zip", {"skeleton.py": GOOD}, links=("data.csv",))
    with pytest.raises(ArchiveProblem, match="symbolic link"):
        safe_extract(archive, tmp_path / "out", Caps())


def test_size_and_count_caps_use_the_real_bytes(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "big.zip", {"skeleton.py": GOOD, "zeros.bin": b"\0" * 300_000})
    with pytest.raises(ArchiveProblem, match="more than"):
        safe_extract(archive, tmp_path / "a", Caps(max_bytes=200_000))
    many = make_zip(tmp_path / "many.zip", {f"f{i}.py": "" for i in range(12)})
    with pytest.raises(ArchiveProblem, match="more than 10 files"):
        safe_extract(many, tmp_path / "b", Caps(max_files=10))
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\3\4 not really a zip")
    with pytest.raises(ArchiveProblem) as e:
        safe_extract(bad, tmp_path / "c", Caps())
    assert e.value.status == "bad-archive"


def test_packaging_noise_is_skipped_and_backslashes_normalized(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "s.zip", {
        "hw\\skeleton.py": GOOD, "hw\\helpers\\util.py": "X = 1\n",
        "__MACOSX/hw/._skeleton.py": "mac", "hw/__pycache__/skeleton.cpython-311.pyc": "pyc",
        "hw/old.pyc": "pyc", "hw/.DS_Store": "ds"})
    safe_extract(archive, tmp_path / "out", Caps())
    found = sorted(p.relative_to(tmp_path / "out").as_posix()
                   for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert found == ["hw/helpers/util.py", "hw/skeleton.py"]


def test_discover_folder_of_zips_folders_and_loose_files(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    make_zip(subs / "alice_123_hw1.zip", {"skeleton.py": GOOD})
    (subs / "bob").mkdir()
    (subs / "bob" / "skeleton.py").write_text(GOOD)
    (subs / "carol_late_1_2_skeleton.py").write_text(GOOD)
    (subs / "carol_late_1_2_helper.py").write_text("X = 1\n")
    (subs / "alice_456_resubmitted.zip").write_bytes((subs / "alice_123_hw1.zip").read_bytes())
    found = discover(subs, tmp_path / "work", PATTERN, Caps())
    assert [(s.student, s.kind) for s in found] == [
        ("alice", "zip"), ("alice~2", "zip"), ("bob", "folder"), ("carol", "files")]
    assert "same student id" in found[1].notes[0]
    canvas = re.compile(r"^(?P<id>[^_]+)_(?:late_)?\d+_\d+_")
    carol = discover(subs, tmp_path / "work", canvas, Caps())[-1]
    folder = unpack(carol, tmp_path / "carol", canvas, Caps())
    assert sorted(p.name for p in folder.iterdir()) == ["helper.py", "skeleton.py"]


def test_discover_download_all_zip_with_a_top_folder(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("dave/skeleton.py", GOOD)
    download = make_zip(tmp_path / "download.zip", {
        "HW1 submissions/dave_77.zip": inner.getvalue(),
        "HW1 submissions/erin_88/skeleton.py": GOOD,
        "__MACOSX/HW1 submissions/._dave_77.zip": "mac"})
    found = discover(download, tmp_path / "work", PATTERN, Caps())
    assert [(s.student, s.kind) for s in found] == [("dave", "zip"), ("erin", "folder")]
    folder = unpack(found[0], tmp_path / "dave", PATTERN, Caps())
    assert (folder / "dave" / "skeleton.py").read_text() == GOOD


def test_discover_refuses_a_missing_or_unsafe_download(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not found"):
        discover(tmp_path / "nope", tmp_path / "w", PATTERN, Caps())
    evil = make_zip(tmp_path / "all.zip", {"../x.zip": "x"})
    with pytest.raises(UserError, match=r"'\.\.'"):
        discover(evil, tmp_path / "w", PATTERN, Caps())


def test_a_zip_inside_the_submission_is_unpacked(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("skeleton.py", GOOD)
    subs = tmp_path / "subs"
    subs.mkdir()
    make_zip(subs / "frank.zip", {"frank.zip": inner.getvalue()})
    sub = discover(subs, tmp_path / "w", PATTERN, Caps())[0]
    folder = unpack(sub, tmp_path / "f", PATTERN, Caps())
    assert (folder / "frank" / "skeleton.py").is_file()
    assert any("zip inside" in n for n in sub.notes)


# -- choosing the solution -------------------------------------------------------------------
STUB = "def {0}(*args):\n    raise NotImplementedError\n"
ALL = ["cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
       "bottomup_anonymizer", "samarati", "mondrian"]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_skeleton_py_wins_and_imports_see_its_folder(tmp_path: Path) -> None:
    root = write(tmp_path, {"hw/skeleton.py": GOOD, "hw/other.py": GOOD + GOOD.replace("MD", "LM"),
                            "notes.txt": "x", "adult-hw1.csv": "a\n1\n"})
    sol = choose(root)
    assert sol.file == root / "hw" / "skeleton.py" and sol.module == "skeleton"
    assert sol.import_paths == [root / "hw", root]
    assert any("Data files" in n and "adult-hw1.csv" in n for n in sol.notes)


def test_untouched_skeleton_gives_way_to_the_implemented_file(tmp_path: Path) -> None:
    implemented = "".join(f"def {n}(*a):\n    return 1\n" for n in ALL)
    root = write(tmp_path, {"skeleton.py": "".join(STUB.format(n) for n in ALL),
                            "my solution.py": implemented})
    sol = choose(root)
    assert sol.file == root / "my solution.py" and sol.module == "solution"
    assert "untouched skeleton" in sol.notes[0]


def test_without_skeleton_the_file_defining_most_functions(tmp_path: Path) -> None:
    root = write(tmp_path, {"pkg/__init__.py": "from .a import cost_MD, cost_LM, mondrian\n",
                            "pkg/a.py": GOOD, "hw1.py": GOOD + GOOD.replace("MD", "LM")})
    assert choose(root).file == root / "hw1.py"


def test_a_notebook_only_submission_is_graded_from_its_code_cells(tmp_path: Path) -> None:
    cells = [{"cell_type": "code", "source": ["%matplotlib inline\n", GOOD]},
             {"cell_type": "markdown", "source": "text"}]
    root = write(tmp_path, {"HW 1.ipynb": json.dumps({"cells": cells})})
    sol = choose(root)
    assert sol.file == root / "HW_1_notebook.py"
    assert sol.file.read_text().startswith("# %matplotlib inline\n")
    assert "code cells of HW 1.ipynb" in sol.notes[-1]


def test_nothing_to_grade(tmp_path: Path) -> None:
    root = write(tmp_path, {"report.pdf": "x", "util.py": "X = 1\n"})
    sol = choose(root)
    assert sol.file is None and "No Python file" in sol.notes[-1]
