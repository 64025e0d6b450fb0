"""The student bundle (`python -m grader bundle`): contents, determinism, leak checks, and a
fresh unpack + fresh virtual environment in which the public tests judge skeleton.py."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from child_python import PYTEST_OPTIONS
from shared_bundles import course_bundle

from grader.publishing import bundle, leaks
from grader import zipfiles
from grader.errors import UserError

FOLDER = bundle.DEFAULT_FOLDER


def build_cli(root: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    """Run the bundle command as an instructor would (the module entry point), from `root`."""
    env = dict(os.environ, PYTHONPATH=str(bundle.KIT_ROOT))  # the kit under test, installed or not
    return subprocess.run([sys.executable, "-m", "grader", "bundle", "--root", str(root),
                           "--out", str(out), *extra],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def student_zip(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "student.zip"
    done = build_cli(repo, out)
    assert done.returncode == 0, done.stderr
    return out


def names(zip_path: Path) -> list[str]:
    with zipfile.ZipFile(zip_path) as archive:
        return archive.namelist()


def kit_copy(repo: Path, dest: Path) -> Path:
    """A minimal kit checkout in `dest`: everything the bundle reads, plus reference/."""
    dest.mkdir(parents=True)
    for name in ("skeleton.py", "adult-hw1.csv"):
        shutil.copy2(repo / name, dest / name)
    shutil.copytree(repo / "DGHs", dest / "DGHs")
    shutil.copytree(repo / "reference", dest / "reference",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(repo / "tests" / "public", dest / "tests" / "public",
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    shutil.copytree(repo / "kcheck", dest / "kcheck",  # every bundle ships it as it is
                    ignore=shutil.ignore_patterns("__pycache__"))
    for sources in ("handout", "skeleton"):  # the section sources skeleton.py and HANDOUT.md
        shutil.copytree(repo / MATERIALS / sources, dest / MATERIALS / sources)  # come from
    return dest


MATERIALS = Path("grader") / "publishing" / "materials"
HEAD = MATERIALS / "skeleton" / "head.py.txt"  # the first section source of skeleton.py


# ------------------------------------------------------------------------------ contents


DEFAULT_TESTS = ("api", "functions")
OTHER_PARTS = ("topdown", "datafly", "greedy", "kaca", "entropy_l", "t_closeness",
               "clustering-lm-only")  # optional parts and variants: not the default course's
MEASURE_CASES = ("disease", "disease-codes")  # used by the privacy measures' tests only


def test_bundle_holds_exactly_the_allow_listed_files(repo: Path, student_zip: Path) -> None:
    inside = {n.removeprefix(f"{FOLDER}/") for n in names(student_zip)}
    assert all(n.startswith(f"{FOLDER}/") for n in names(student_zip))
    expected = {"skeleton.py", "HANDOUT.md", "adult-hw1.csv", "requirements.txt", "pytest.ini",
                "conftest.py", "course-fingerprint.json"}  # index.json is the kit's own
    expected |= {f"DGHs/{p.name}" for p in (repo / "DGHs").glob("*.txt")}
    public = repo / "tests" / "public" / "data"
    expected |= {p.relative_to(repo).as_posix() for p in (public / "expected").iterdir()
                 if not p.name.startswith(OTHER_PARTS) and p.name != "measures.json"}
    expected |= {p.relative_to(repo).as_posix() for p in (public / "cases").rglob("*")
                 if p.is_file() and p.relative_to(public / "cases").parts[0] not in
                 MEASURE_CASES}
    expected |= {f"tests/public/test_public_{name}.py" for name in DEFAULT_TESTS}
    expected |= {"tests/public/conftest.py", "tests/public/course.json",
                 "tests/public/data/functions.json", "tests/public/data/cases.json"}
    expected |= {f"kcheck/{p.relative_to(repo / 'kcheck').as_posix()}"  # as it is
                 for p in (repo / "kcheck").rglob("*.py") if "__pycache__" not in p.parts}
    expected |= {f"tests/public/data/counterexamples/{f}.json" for f in (  # pool_files.py
        "cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
        "bottomup_anonymizer", "samarati", "mondrian")}
    assert expected <= inside, expected - inside
    extra = inside - expected
    # The only other files are the public tests' helper modules, all at tests/public/*.py.
    assert all(n.startswith("tests/public/") and n.endswith(".py") and n.count("/") == 2
               and not n.startswith("tests/public/test_") for n in extra), extra
    assert not any(n.split("/")[0] in ("reference", "grader") for n in inside)
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in inside)
    with zipfile.ZipFile(student_zip) as archive:  # the tests' Python as it is, data cut
        for name in sorted(n for n in inside if n.startswith("tests/public/") and
                           n.endswith(".py")):
            assert archive.read(f"{FOLDER}/{name}") == (repo / name).read_bytes(), name
        functions = json.loads(archive.read(f"{FOLDER}/tests/public/data/functions.json"))
    assert list(functions["functions"]) == ["cost_MD", "cost_LM", "random_anonymizer",
                                            "clustering_anonymizer", "bottomup_anonymizer",
                                            "samarati", "mondrian"]


def test_public_data_index_is_fresh(repo: Path) -> None:
    """tests/public/data/index.json (which course features need each public file) is what
    make_expected.data_users() computes today: rerun tests/public/make_expected.py if not."""
    sys.path.insert(0, str(repo / "tests" / "public"))
    try:
        import make_expected
        stored = (repo / "tests" / "public" / "data" / "index.json").read_text(encoding="utf-8")
        assert stored == make_expected.index_text(), "index.json is stale"
        users = json.loads(stored)
    finally:
        sys.path.remove(str(repo / "tests" / "public"))
    assert users["test_public_api.py"] == ["*"]
    assert users["data/expected/mondrian-adult-k8.csv.gz"] == ["cost_LM", "cost_MD", "mondrian"]
    assert users["test_public_functions.py"] == ["*"]  # its tests come from the data
    assert users["data/expected/clustering-lm-only-world-k4.csv"] == [
        "clustering_anonymizer:lm-only"]
    assert users["data/cases/disease"] == ["entropy_l", "t_closeness"]


def test_kits_handout_and_skeleton_are_the_default_courses_and_requirements_are_minimal(
        repo: Path, student_zip: Path) -> None:
    """The top-level HANDOUT.md and skeleton.py are what `bundle` writes for
    grader/rubric.toml (refresh them with `python -m grader materials --out .`)."""
    with zipfile.ZipFile(student_zip) as archive:
        for name in ("skeleton.py", "HANDOUT.md"):
            assert archive.read(f"{FOLDER}/{name}") == (repo / name).read_bytes(), \
                f"{name} is not the default course's: run python -m grader materials --out ."
        requirements = archive.read(f"{FOLDER}/requirements.txt").decode()
        ini = archive.read(f"{FOLDER}/pytest.ini").decode()
    wanted = [line.split(">=")[0].strip() for line in requirements.splitlines()
              if line.strip() and not line.startswith("#")]
    assert sorted(wanted) == ["numpy", "pytest", "pytest-timeout"]
    assert "[pytest]" in ini and "testpaths = tests/public" in ini


def test_bundle_is_deterministic_with_fixed_metadata(repo: Path, student_zip: Path,
                                                     tmp_path_factory: pytest.TempPathFactory
                                                     ) -> None:
    """Built again, in another process and at another time (the run's shared build of the
    default course, tests/kit/shared_bundles.py), the bundle has the same bytes."""
    again = course_bundle(tmp_path_factory, repo / "grader" / "rubric.toml")
    assert again.read_bytes() == student_zip.read_bytes()
    with zipfile.ZipFile(student_zip) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {(i.external_attr >> 16) & 0o777 for i in infos} == {0o644}


# ------------------------------------------------------------------------------ fresh unpack


def run_public_tests(python: Path, folder: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest in `folder` with `python`, as a student starts it (none of the unrelated plugins
    this machine's site-packages, seen by the venv, may hold: child_python.PYTEST_OPTIONS)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "KANON"))}
    return subprocess.run([str(python), "-m", "pytest", "-q", *PYTEST_OPTIONS, *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=1200)


@pytest.mark.slow
def test_fresh_unpack_and_venv_checks_the_skeleton(repo: Path, student_zip: Path,
                                                   tmp_path: Path) -> None:
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(student_zip) as archive:
        archive.extractall(unpacked)
    folder = unpacked / FOLDER
    # --system-site-packages: numpy, pytest and pytest-timeout come from the machine, so the
    # test downloads nothing; the venv still isolates the kit itself (not installed there).
    # When these tests themselves run in a venv (CI), its site-packages is added as a plain
    # path: its packages import, but its .pth files (an editable install of the kit) do not run.
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    outer = [p for p in site.getsitepackages() if Path(p).is_dir()]
    Path(purelib, "_outer_site.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    probe = subprocess.run([str(python), "-c", "import reference"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert probe.returncode != 0, "the venv must not see the kit's reference package"

    collected = run_public_tests(python, folder, "--collect-only")
    assert collected.returncode == 0, collected.stdout + collected.stderr
    assert "error" not in collected.stdout.lower()

    untouched = run_public_tests(python, folder)
    assert untouched.returncode == 1, untouched.stdout + untouched.stderr  # 1 = tests failed
    summary = untouched.stdout.strip().splitlines()[-1]
    assert " failed" in summary and "error" not in summary, summary

    # The staff solution, copied OUTSIDE the bundle folder, passes the public tests: those of
    # the small cases (adult-hw1.csv's add nothing to what the venv and the unpack show;
    # courses/test_courses.py runs every public test of this bundle on the course's known-good
    # solution, reference_solution/test_quality_gate.py every one on the reference).
    solution = tmp_path / "solution"
    shutil.copytree(repo / "reference", solution, ignore=shutil.ignore_patterns("__pycache__"))
    for core in ("kanon", "kcheck"):  # the core it imports (and its checker), beside it
        shutil.copytree(repo / core, tmp_path / core, ignore=shutil.ignore_patterns("__pycache__"))
    solved = run_public_tests(python, folder, f"--solution={solution}", "-k", "not adult")
    assert solved.returncode == 0, solved.stdout[-3000:] + solved.stderr[-2000:]
    summary = solved.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "error" not in summary, summary


def test_no_unpacked_file_reveals_the_reference_or_a_hidden_case(repo: Path, student_zip: Path,
                                                                 tmp_path: Path) -> None:
    with zipfile.ZipFile(student_zip) as archive:
        archive.extractall(tmp_path)
    files = [p for p in (tmp_path / FOLDER).rglob("*") if p.is_file()]
    digests = {hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
    reference = [p for p in (repo / "reference").glob("*.py")]
    assert not digests & {hashlib.sha256(p.read_bytes()).hexdigest() for p in reference}
    secrets = leaks.hidden_secrets(repo)
    assert not digests & {hashlib.sha256(p.read_bytes()).hexdigest() for p in secrets}
    for path in files:
        text = path.read_bytes()
        for module in reference:
            body = module.read_bytes().strip()
            assert body not in text or len(body) < 200, f"{path} holds {module}"
    # And the builder's own verification agrees on what was unpacked.
    entries = [zipfiles.Entry(p.relative_to(tmp_path).as_posix(), p.read_bytes()) for p in files]
    bundle.verify(entries, repo)


# ------------------------------------------------------------------------------ refusals


@pytest.mark.slow
def test_refuses_a_skeleton_holding_the_reference(repo: Path, tmp_path: Path) -> None:
    root = kit_copy(repo, tmp_path / "kit")
    pasted = "\n".join(p.read_text() for p in sorted((root / "reference").glob("*.py")))
    (root / HEAD).write_text(pasted, encoding="utf-8")
    out = tmp_path / "student.zip"
    done = build_cli(root, out)
    assert done.returncode == 2
    assert "skeleton.py" in done.stderr and "reference/" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists() and not list(tmp_path.glob(".student.zip*"))


def test_refuses_one_pasted_reference_function(repo: Path, tmp_path: Path) -> None:
    root = kit_copy(repo, tmp_path / "kit")
    mondrian = (root / "reference" / "mondrian.py").read_text(encoding="utf-8")
    with open(root / HEAD, "a", encoding="utf-8") as f:
        f.write("\n\n" + mondrian)
    with pytest.raises(UserError, match="mondrian.py"):
        bundle.verify(bundle.collect(root), root)


@pytest.mark.slow
def test_refuses_a_hidden_case_file_and_allows_shared_hierarchies(repo: Path,
                                                                  tmp_path: Path) -> None:
    root = kit_copy(repo, tmp_path / "kit")
    case = root / leaks.HIDDEN_CASES / "secret-case"
    (case / "DGHs").mkdir(parents=True)
    shutil.copy2(root / "DGHs" / "age.txt", case / "DGHs" / "age.txt")  # public hierarchy
    expected = "age,income\n" + "".join(f"[{i}-{i + 9}],<=50K\n" for i in range(0, 400, 10))
    (case / "expected.csv").write_text(expected, encoding="utf-8")
    bundle.verify(bundle.collect(root), root)  # reusing a public hierarchy reveals nothing

    leaked = root / "tests" / "public" / "data" / "expected" / "leak.csv"
    shutil.copy2(case / "expected.csv", leaked)
    with pytest.raises(UserError, match="identical to the hidden case file"):
        bundle.verify(bundle.collect(root), root)
    leaked.write_text("header\n" + expected + "more\n", encoding="utf-8")
    with pytest.raises(UserError, match="contains the hidden case file"):
        bundle.verify(bundle.collect(root), root)


def test_refuses_public_tests_importing_the_kit(repo: Path, tmp_path: Path) -> None:
    root = kit_copy(repo, tmp_path / "kit")
    (root / "tests" / "public" / "test_zz_cheat.py").write_text(
        "from reference import mondrian\n", encoding="utf-8")
    with pytest.raises(UserError, match="test_zz_cheat.py imports reference"):
        bundle.verify(bundle.collect(root), root)


def test_paths_under_reference_or_grader_are_refused() -> None:
    assert bundle.path_problem(f"{FOLDER}/reference/dgh.py", FOLDER)
    assert bundle.path_problem("grader/cases/x.csv", "")
    assert bundle.path_problem(f"{FOLDER}/../x", FOLDER)
    assert bundle.path_problem(f"{FOLDER}/tests/public/conftest.py", FOLDER) is None


def test_only_imported_helpers_of_the_public_tests_are_bundled(repo: Path,
                                                               tmp_path: Path) -> None:
    root = kit_copy(repo, tmp_path / "kit")
    (root / "tests" / "public" / "make_secret_tool.py").write_text("X = 1\n", encoding="utf-8")
    listed = {e.name for e in bundle.collect(root, "")}
    assert "tests/public/make_secret_tool.py" not in listed
    assert "tests/public/conftest.py" in listed and "skeleton.py" in listed


def test_missing_section_source_is_a_one_line_error(repo: Path, tmp_path: Path) -> None:
    root = kit_copy(repo, tmp_path / "kit")
    (root / MATERIALS / "handout" / "ties.md").unlink()
    done = build_cli(root, tmp_path / "student.zip")
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: cannot bundle: a section source is missing: "
                                   f"{root / MATERIALS / 'handout' / 'ties.md'}")
    assert not (tmp_path / "student.zip").exists()


@pytest.mark.slow
def test_folder_option_puts_files_at_the_root(repo: Path, tmp_path: Path) -> None:
    root = kit_copy(repo, tmp_path / "kit")
    out = tmp_path / "flat.zip"
    from grader import cli  # in process: the command line runs in the tests around this one
    assert cli.main(["bundle", "--root", str(root), "--out", str(out), "--folder", ""]) == 0
    assert "skeleton.py" in names(out) and "pytest.ini" in names(out)


def test_hidden_secrets_follow_the_rubric(repo: Path) -> None:
    from grader.grading.expected import case_key, load_manifest
    from grader.rubric import load
    rubric = load(repo / "grader" / "rubric.toml")
    entries = load_manifest(rubric.cases_dir)["entries"]
    files = {c.hidden: set() for c in rubric.cases()}
    for case in rubric.cases():
        entry = entries[case_key(case, rubric.cases_dir)]
        if entry.get("file"):
            files[case.hidden].add((rubric.cases_dir / entry["file"]).resolve())
    secrets = {p.resolve() for p in leaks.hidden_secrets(repo)}
    assert files[True] and files[True] <= secrets
    assert not (files[False] - files[True]) & secrets  # public cases' outputs are not secret
    assert (repo / "adult-hw1.csv").resolve() not in secrets


def test_course_file_is_fresh_and_the_bundle_carries_the_rubrics_rules(
        repo: Path, student_zip: Path) -> None:
    from grader import rubric
    from grader.authoring.course_file import course_json
    wanted = course_json(rubric.load())
    assert (repo / "tests" / "public" / "course.json").read_text(encoding="utf-8") == wanted, \
        "tests/public/course.json is stale: run `python -m grader regen`"
    with zipfile.ZipFile(student_zip) as archive:
        assert archive.read(f"{FOLDER}/tests/public/course.json").decode() == wanted
        requirements = archive.read(f"{FOLDER}/requirements.txt").decode()
    assert "numpy>=1.24" in requirements.splitlines()
    settings = json.loads(wanted)
    assert settings["allowed_packages"] == ["numpy"]
    assert settings["time"]["clustering_anonymizer"] == {"time_limit": 10.0,
                                                         "time_per_1000_rows": 60.0}
