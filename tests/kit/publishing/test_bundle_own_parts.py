"""A course's own functions reach students like the kit's: the toy course (toy_course.py,
written into a temporary folder: no kit file knows its functions) is regenerated and bundled
as an instructor does; its HANDOUT.md has their sections (from the course's handout/ folder)
with their points, its skeleton.py their stubs with the contract's exact signatures, and its
self-check, run with pytest in the unzipped folder as students do, passes a known-good
solution, names the broken rule of a buggy one (kcheck's words, in the course's language) and
says "not implemented yet" for the untouched skeleton."""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from child_python import PYTEST_OPTIONS
from forked_pytest import PytestServer
from shared_bundles import unpacked_bundle

from grader.errors import UserError
from grader.publishing.bundle import collect
from grader.publishing.materials import course_materials
from grader.rubric import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "courses"))
from toy_course import make_toy_course, toy_student  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
GRADER = [sys.executable, "-m", "grader"]
HIDDEN_CASE = """\
[[part.case]]
name = "secret toy, k=4"
data = "public/toy"
k = 4
hidden = true
"""
SIGNATURES = {"chunk_anonymizer": ["raw_dataset_file", "DGH_folder", "k", "output_file"],
              "count_classes": ["raw_dataset_file", "anonymized_dataset_file", "DGH_folder"]}


def _run(args: list[str], cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)


SELF_CHECK = ["-q", *PYTEST_OPTIONS]
"""The self-check's options as students start it (none of the unrelated plugins this machine may have:
child_python.PYTEST_OPTIONS)."""


def _bundle(root: Path, language: str = "en", in_process: bool = False) -> Path:
    """The toy course (with a hidden case) regenerated and bundled; the unzipped folder.
    `in_process`: the two commands called in this process (the English bundle runs them as
    command lines)."""
    rubric = make_toy_course(root / "course", language, extra_cases=HIDDEN_CASE)
    regen = ["regen", "--rubric", str(rubric), "--keep-datasets"]
    made = ["bundle", "--course", str(rubric), "--out", str(root / "z.zip")]
    if in_process:
        from grader import cli
        assert cli.main(regen) == 0 and cli.main(made) == 0
    else:
        done = _run(GRADER + regen)
        assert done.returncode == 0, done.stderr
        done = _run(GRADER + made)
        assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(root / "z.zip") as z:
        z.extractall(root / "unzipped")
    return root / "unzipped" / "kanon-hw1"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    return _bundle(tmp_path_factory.mktemp("toy-bundle"))


@pytest.fixture(scope="module")
def warm() -> Iterator[PytestServer]:
    """A warm pytest whose forks run the self-check as `python -m pytest` does in a folder
    (tests/kit/forked_pytest.py: only the start-up is shared); the untouched skeleton's
    self-check starts `python -m pytest` as it is."""
    server = PytestServer(REPO, dict(os.environ))
    yield server
    server.close()


def _pytest(folder: Path, *args: str, server: PytestServer | None = None
            ) -> subprocess.CompletedProcess:
    """The self-check run in `folder` with `args`: `python -m pytest`, or a fork of `server`
    (what it printed, stdout and stderr together, is the stdout)."""
    if server is None:
        return _run([sys.executable, "-m", "pytest", *SELF_CHECK, *args], cwd=folder)
    handle, name = tempfile.mkstemp(suffix=".out")
    os.close(handle)
    try:
        return server.run([*SELF_CHECK, *args], folder, dict(os.environ), Path(name))
    finally:
        os.unlink(name)


def _self_check(bundle: Path, tmp: Path, student: str | None,
                server: PytestServer | None = None) -> subprocess.CompletedProcess:
    """pytest in a copy of the unzipped folder, with `student`'s skeleton.py (None: the
    bundle's own, untouched)."""
    folder = tmp / f"student-{student or 'skeleton'}"
    shutil.copytree(bundle, folder)
    if student is not None:
        source = toy_student(tmp / f"sub-{student}", student) / "skeleton.py"
        shutil.copyfile(source, folder / "skeleton.py")
    return _pytest(folder, server=server)


# ------------------------------------------------------------------------------ HANDOUT.md


def test_the_handout_has_each_own_function_with_its_section_and_points(bundle: Path) -> None:
    handout = (bundle / "HANDOUT.md").read_text(encoding="utf-8")
    assert handout.count("\n## chunk_anonymizer (6 points)\n") == 1
    assert handout.count("\n## count_classes (4 points)\n") == 1
    assert "| [`chunk_anonymizer`](#chunk_anonymizer-6-points) | 6 |" in handout
    assert "| [`count_classes`](#count_classes-4-points) | 4 |" in handout
    assert "| **Total** | **10** |" in handout
    assert "chunk_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str)" \
        in handout
    assert "Sort the records by their QIs" in handout  # the course's own text
    assert "band the staff's own runs give earns 6 points." in handout  # {{points}}
    assert "*6 points · CPU-time limit per call:" in handout  # {{meta}}
    assert "| `chunk_anonymizer`, `count_classes` |" in handout  # the time limits
    assert "[chunk_anonymizer](#chunk_anonymizer-6-points) · [count_classes](#count_classes-4" \
        in handout  # the contents
    assert "{{" not in handout
    commands = handout.split("\n## Command line\n")[1].split("\n## ")[0]
    assert ("python skeleton.py chunk_anonymizer <raw_dataset_file> <DGH_folder> <k> "
            "<output_file>") in commands
    assert ("python skeleton.py count_classes <raw_dataset_file> <anonymized_dataset_file> "
            "<DGH_folder>") in commands
    assert "pytest -k chunk_anonymizer" in handout  # checking your work
    assert "one function: chunk_anonymizer, count_classes" in handout
    checking = handout.split("\n## Checking your work\n")[1].split("\n## ")[0]
    assert "`tests/public/data/course/`" in checking and "`kcheck/`" in checking


def test_a_course_function_without_its_handout_section_is_an_error_naming_the_path(
        tmp_path: Path) -> None:
    rubric = make_toy_course(tmp_path / "course")
    missing = tmp_path / "course" / "handout" / "count_classes.md"
    missing.unlink()
    with pytest.raises(UserError, match=str(missing).replace("\\", "\\\\") + ": missing"):
        course_materials(load(rubric), REPO)
    out = _run(GRADER + ["materials", "--course", str(rubric), "--out", str(tmp_path / "m")])
    assert out.returncode != 0 and str(missing) in out.stderr


# ------------------------------------------------------------------------------ skeleton.py


def test_the_skeleton_has_a_stub_with_the_exact_signature_of_each(bundle: Path) -> None:
    tree = ast.parse((bundle / "skeleton.py").read_text(encoding="utf-8"))
    stubs = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)
             and node.name in SIGNATURES}
    assert list(stubs) == list(SIGNATURES)
    for name, node in stubs.items():
        assert [a.arg for a in node.args.args] == SIGNATURES[name]
        assert not node.args.defaults and not node.args.kwonlyargs
        doc = ast.get_docstring(node)
        assert "HANDOUT.md" in doc and f"{name} (" in doc
        raised = node.body[-1]
        assert isinstance(raised, ast.Raise) and raised.exc.func.id == "NotImplementedError"
    text = (bundle / "skeleton.py").read_text(encoding="utf-8")
    assert "def chunk_anonymizer(raw_dataset_file, DGH_folder, k, output_file):" in text
    assert all(len(line) <= 99 for line in text.splitlines())


def test_the_skeleton_imports_without_side_effects_and_runs_them_from_the_command_line(
        bundle: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cli"
    shutil.copytree(bundle, folder)
    before = sorted(p.name for p in folder.iterdir())
    imported = _run([sys.executable, "-B", "-c", "import skeleton"], cwd=folder)
    assert imported.returncode == 0 and imported.stdout == "" and imported.stderr == ""
    assert sorted(p.name for p in folder.iterdir()) == before
    data = "tests/public/data/course/public/toy"
    run = _run([sys.executable, "skeleton.py", "chunk_anonymizer", f"{data}/adult-hw1.csv",
                f"{data}/DGHs", "3", "out.csv"], cwd=folder)
    assert run.returncode == 1 and "chunk_anonymizer is not implemented yet" in run.stderr
    usage = _run([sys.executable, "skeleton.py", "--help"], cwd=folder)
    assert usage.returncode == 0 and ("python skeleton.py count_classes <raw_dataset_file> "
                                      "<anonymized_dataset_file> <DGH_folder>") in usage.stdout
    bad = _run([sys.executable, "skeleton.py", "chunk_anonymizer", "a", "b", "three", "c"],
               cwd=folder)
    assert bad.returncode == 2 and "k must be an integer" in bad.stderr
    text = (folder / "skeleton.py").read_text(encoding="utf-8")
    (folder / "skeleton.py").write_text(text.replace('raise NotImplementedError("count_classes")',
                                                     "return 7.0"), encoding="utf-8")
    counted = _run([sys.executable, "skeleton.py", "count_classes", f"{data}/adult-hw1.csv",
                    f"{data}/anonymized-chunk_anonymizer-k3.csv", f"{data}/DGHs"], cwd=folder)
    assert counted.returncode == 0 and counted.stdout.startswith("count_classes: 7.0\n")


# ------------------------------------------------------------------------------ what ships


def test_the_bundle_ships_kcheck_as_it_is_the_public_cases_and_nothing_hidden(
        bundle: Path) -> None:
    shipped = sorted(p.name for p in (bundle / "kcheck").glob("*.py"))
    assert shipped == sorted(p.name for p in (REPO / "kcheck").glob("*.py"))
    for name in shipped:
        assert (bundle / "kcheck" / name).read_bytes() == (REPO / "kcheck" / name).read_bytes()
    cases = json.loads((bundle / "tests/public/data/course/cases.json").read_text("utf-8"))
    names = [c["case"] for c in cases["cases"]]
    assert names == ["toy, k=3", "toy, k=5", "k = 0", "toy, chunks of 3"]
    band = cases["cases"][0]
    assert band["judge"] == "quality" and band["band_max"] > 0 and band["args"] == [
        "adult-hw1.csv", "DGHs", 3, "output.csv"]
    assert band["released"] == ["age", "sex", "zip", "disease"] and band["numeric"] == ["age"]
    assert cases["cases"][2]["expect"] == "ValueError"
    assert cases["cases"][3]["judge"] == "number" and cases["cases"][3]["expected"] == 8.0
    every = [p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()]
    assert not any("secret" in p or p.startswith(("ref/", "grader/", "reference/"))
                   for p in every)
    assert "tests/public/data/course/public/toy/anonymized-chunk_anonymizer-k3.csv" in every
    assert "secret toy" not in "".join((bundle / p).read_text("utf-8", "replace")
                                      for p in every)


def test_a_course_without_functions_of_its_own_ships_none_of_it() -> None:
    names = [e.name for e in collect(REPO, "", REPO / "grader" / "rubric-2025.toml")]
    assert not any(n.startswith("tests/public/data/course/") for n in names)
    assert "tests/public/test_public_course_parts.py" not in names
    shipped = {n for n in names if n.startswith("kcheck/")}  # every self-check judges with it
    assert shipped == {f"kcheck/{p.relative_to(REPO / 'kcheck').as_posix()}"
                       for p in (REPO / "kcheck").rglob("*.py") if "__pycache__" not in p.parts}


# ------------------------------------------------------------------------------ self-check


def test_the_self_check_passes_a_known_good_solution(bundle: Path, tmp_path: Path,
                                                     warm: PytestServer) -> None:
    done = _self_check(bundle, tmp_path, "good", warm)
    assert done.returncode == 0, done.stdout
    assert "6 public tests passed, 0 failed" in done.stdout


def test_the_self_check_names_the_rule_a_buggy_solution_breaks(bundle: Path, tmp_path: Path,
                                                               warm: PytestServer) -> None:
    done = _self_check(bundle, tmp_path, "buggy", warm)
    assert done.returncode == 1 and "4 public tests passed, 2 failed" in done.stdout
    assert ("chunk_anonymizer(k=5) on case 'toy, k=5': it breaks the rule \"quality.k\": data "
            "row 6: the row's equivalence class has size 4, less than k = 5.") in done.stdout
    assert ("count_classes() on case 'toy, chunks of 3': it breaks the rule \"number.off\": "
            "the result is 9; the expected value is 8 (") in done.stdout


def test_the_self_check_says_an_untouched_skeleton_is_not_implemented(bundle: Path,
                                                                      tmp_path: Path) -> None:
    done = _self_check(bundle, tmp_path, None)
    assert done.returncode == 1
    for name in SIGNATURES:
        assert f"{name} is not implemented yet (it raises NotImplementedError)" in done.stdout


def test_the_self_check_names_a_missing_function_among_all_the_course_grades(
        bundle: Path, tmp_path: Path, warm: PytestServer) -> None:
    folder = tmp_path / "renamed"
    shutil.copytree(bundle, folder)
    good = toy_student(tmp_path / "sub", "good") / "skeleton.py"
    (folder / "skeleton.py").write_text(good.read_text(encoding="utf-8").replace(
        "def count_classes(", "def count_clases("), encoding="utf-8")
    done = _pytest(folder, server=warm)
    assert done.returncode == 1
    assert ("skeleton.py has no function count_classes; keep the two signatures of "
            "skeleton.py") in done.stdout


def test_a_chinese_course_gets_its_sections_and_the_self_check_in_chinese(
        tmp_path: Path, warm: PytestServer) -> None:
    bundle = _bundle(tmp_path, "zh-CN", in_process=True)
    handout = (bundle / "HANDOUT.md").read_text(encoding="utf-8")
    assert "\n## chunk_anonymizer（6 分）" in handout and "按准标识符" in handout
    assert "都得 6 分。" in handout
    skeleton = (bundle / "skeleton.py").read_text(encoding="utf-8")
    assert "本课程自己的函数：规则见 HANDOUT.md 的“count_classes（4 分）”一节。" in skeleton
    done = _self_check(bundle, tmp_path, "buggy", warm)
    assert done.returncode == 1
    assert "违反了规则“quality.k”：第 6 条数据行：该行所在的等价类只有 4 条记录，少于 k = 5。" \
        in done.stdout
    assert "违反了规则“number.off”：返回值为 9，期望值为 8（" in done.stdout


def test_the_course_reference_counts_as_the_solution_for_the_leak_check(tmp_path: Path) -> None:
    from grader.publishing.bundle import verify
    from grader.zipfiles import Entry
    from toy_course import REFERENCE
    rubric = make_toy_course(tmp_path / "course")
    leaked = Entry("kanon-hw1/helpers.py", REFERENCE.encode("utf-8"))
    with pytest.raises(UserError, match="helpers.py contains .* distinctive lines of course "
                                        "reference toy.py"):
        verify([leaked], REPO, "kanon-hw1", [rubric])
    kcheck = [Entry(f"kanon-hw1/kcheck/{p.name}", p.read_bytes())
              for p in sorted((REPO / "kcheck").glob("*.py"))]
    verify(kcheck, REPO, "kanon-hw1", [rubric])  # kcheck as it is: no leak
    edited = Entry("kanon-hw1/kcheck/hierarchies.py",  # kcheck's name, the reference inside
                   (REPO / "kcheck" / "hierarchies.py").read_bytes() + REFERENCE.encode())
    with pytest.raises(UserError, match="kcheck/hierarchies.py contains"):
        verify([edited], REPO, "kanon-hw1", [rubric])


def test_the_tdg_lab_demo_bundle_checks_its_own_functions_in_chinese(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, warm: PytestServer) -> None:
    """courses/tdg-lab, a real zh-CN course with functions of its own: its bundle holds only
    its public cases, and its self-check names cost_NCP's broken number (a mutant that
    charges a leaf) and the untouched skeleton's "not implemented" in Chinese."""
    bundle = unpacked_bundle(tmp_path_factory, REPO / "courses" / "tdg-lab",  # once per run
                             tmp_path / "unzipped")
    cases = json.loads((bundle / "tests/public/data/course/cases.json").read_text("utf-8"))
    assert {c["function"] for c in cases["cases"]} == {"topdown_greedy", "cost_NCP"}
    assert not any(c["case"].startswith(("500 rows", "200 rows", "ages 30-45"))
                   for c in cases["cases"])  # the hidden cases
    untouched = _pytest(bundle, "-k", "cost_NCP", server=warm)
    assert untouched.returncode == 1 and "cost_NCP 尚未实现" in untouched.stdout
    shutil.copyfile(REPO / "tests/kit/tdg_class/ncp_leaf_one/skeleton.py",
                    bundle / "skeleton.py")
    mutant = _pytest(bundle, "-k", "cost_NCP and case", server=warm)
    assert mutant.returncode == 1 and "违反了规则“number.off”：返回值为" in mutant.stdout
