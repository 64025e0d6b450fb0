"""Course folders (issue 24): `course new` writes a private folder (course.toml, a 256-bit
secret, README.md, this term's hidden cases); every command takes --course DIR and writes
nothing inside the kit or another course; one fingerprint per course term, checked against
built zips and graded folders; the secret never leaves the folder; bad input is one line.

Two courses made from the small examples' rubric with the same term share the module."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from child_python import compiled_env

from grader import cli
from grader.courses.folder import load_course
from grader.authoring.terms import term_seed
from grader.grading.executors.cluster_task import (COURSE_DIR, BatchSpec, host_identity,
                                                   refusal, worker_identity)
from grader.grading.term_view import apply_term

REPO = Path(__file__).resolve().parents[3]
TERM = "Fall 2026"
QUIET = ["--sandbox", "none", "--run-as", "none", "--jobs", "1", "--quiet"]


def tree(folder: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under `folder` (caches left out)."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def kit_state() -> dict[str, str]:
    """What a course's commands must never change: the kit's grader/ and tests/public/."""
    return {**tree(REPO / "grader"), **{f"tests/public/{k}": v
                                        for k, v in tree(REPO / "tests" / "public").items()}}


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd,
                          env=compiled_env(dict(os.environ)),  # compiled modules: reused
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two course folders from the examples' rubric with the same term, and a class whose
    one submission is course A's known-good solution."""
    base = tmp_path_factory.mktemp("courses")
    before = kit_state()
    for name in ("a", "b"):
        assert cli.main(["course", "new", str(base / name), "--from", "examples",
                         "--term", TERM]) == 0
    (base / "class" / "staff").mkdir(parents=True)
    assert cli.main(["solution", "--course", str(base / "a"), "--out",
                     str(base / "class" / "staff" / "skeleton.py")]) == 0
    assert kit_state() == before  # nothing written inside the kit
    return {"a": base / "a", "b": base / "b", "class": base / "class", "base": base}


def test_course_new_writes_a_private_folder(two) -> None:
    a = two["a"]
    assert sorted(p.name for p in a.iterdir()) == ["README.md", "cases", "course.toml", "secret"]
    secret = (a / "secret").read_text(encoding="ascii")
    assert len(secret) == 65 and int(secret, 16) >= 0 and secret.endswith("\n")
    assert stat.S_IMODE((a / "secret").stat().st_mode) == 0o600
    assert (a / "secret").read_text() != (two["b"] / "secret").read_text()
    readme = (a / "README.md").read_text(encoding="utf-8")
    assert "Keep this folder private" in readme and "`secret`" in readme
    course = load_course(a)
    assert course.term == TERM and not course.public_demo and len(course.key) == 32
    cases = sorted(p.name for p in (a / "cases").iterdir())
    assert cases == ["expected", "hidden", "manifest.json"]  # public data: the kit's
    manifest = json.loads((a / "cases" / "manifest.json").read_text())
    assert manifest["term"]["name"] == TERM
    assert manifest["term"]["seed"] == f"{term_seed(course.key, TERM, 'term'):016x}"


def test_the_same_term_in_two_courses_draws_different_hidden_data(two) -> None:
    a, b = (tree(two[n] / "cases") for n in ("a", "b"))
    hidden = [n for n in a if n.startswith("hidden/") and n.endswith("/adult-hw1.csv")]
    assert hidden and all(a[n] != b.get(n) for n in hidden)
    assert {n for n in a if n.startswith("expected/")} != {n for n in b if
                                                          n.startswith("expected/")}


def test_the_secret_is_never_overwritten_and_course_new_needs_an_empty_folder(
        two, capsys: pytest.CaptureFixture) -> None:
    before = tree(two["a"])
    assert cli.main(["course", "new", str(two["a"]), "--from", "default", "--term", "X"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err and str(two["a"]) in err
    assert tree(two["a"]) == before


@pytest.mark.slow
def test_the_known_good_solution_gets_full_marks_and_every_record_names_the_fingerprint(
        two, capsys: pytest.CaptureFixture) -> None:
    out = two["base"] / "graded-a"
    capsys.readouterr()
    assert cli.main(["grade", str(two["class"]), "--course", str(two["a"]), "--out", str(out),
                     *QUIET[:-1]]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    course = load_course(two["a"])
    from grader.grading.fingerprint import fingerprint
    stamp = fingerprint(apply_term(course.rubric))["fingerprint"]
    assert first == (f"course {two['a']}: term {TERM} (hidden cases drawn for this term); "
                     f"fingerprint {stamp}")
    record = json.loads((out / "results" / "staff" / "record.json").read_text())
    assert record["score"] == record["max"] == 100 and record["course"] == stamp
    summary = json.loads((out / "summary.json").read_text())
    assert summary["course"]["fingerprint"] == stamp and summary["course"]["term"] == TERM
    assert f"Course fingerprint: {stamp}" in (out / "summary.md").read_text(encoding="utf-8")
    assert cli.main(["check", "--course", str(two["a"]), "--against", str(out)]) == 0
    assert cli.main(["check", "--course", str(two["b"]), "--against", str(out)]) == 1
    err = capsys.readouterr().err
    assert "datasets:" in err and "expected outputs:" in err  # what differs, by name
    assert err.rstrip().endswith(f" grade SUBMISSIONS --out {out} --course {two['b']}"), err
    export = ["export", str(out), "--format", "gradescope", "--out", str(two["base"] / "g.csv")]
    assert cli.main([*export, "--course", str(two["b"])]) == 2  # graded with another course
    assert "was not graded with course" in capsys.readouterr().err
    assert not (two["base"] / "g.csv").exists()
    assert cli.main([*export, "--course", str(two["a"])]) == 0
    key = course.key.hex()
    for path in out.rglob("*"):  # the secret is in no file grading writes
        if path.is_file():
            assert key not in path.read_bytes().decode("utf-8", "replace").lower(), path


@pytest.mark.slow
def test_zips_carry_the_fingerprint_and_never_the_secret(two, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    a = two["a"]
    before_b = tree(two["b"])
    for command, name in (("gradescope", "ag.zip"), ("bundle", "st.zip")):  # in process
        # (both commands run as programs with --course in languages/test_zh_course_end_to_end.py)
        assert cli.main([command, "--course", str(a), "--out", str(tmp_path / name)]) == 0
    key = load_course(a).key
    for name in ("ag.zip", "st.zip"):
        with zipfile.ZipFile(tmp_path / name) as archive:
            names = archive.namelist()
            assert not [n for n in names if n.endswith("/secret") or n == "secret"]
            blob = b"".join(archive.read(n) for n in names)
        assert key not in blob and key.hex().encode() not in blob.lower()
        assert any(n.endswith("course-fingerprint.json") for n in names)
        capsys.readouterr()  # in process; `check --against` runs as a program below
        code = cli.main(["check", "--course", str(a), "--against", str(tmp_path / name)])
        err = capsys.readouterr().err
        assert code == 0 and "belongs to it" in err, err
    with zipfile.ZipFile(tmp_path / "st.zip") as archive:  # no hidden case reaches students
        shipped = {hashlib.sha256(archive.read(n)).hexdigest() for n in archive.namelist()}
    private = {d for n, d in tree(a / "cases").items() if "/DGHs/" not in n}
    assert private and not shipped & private
    # A new term for course A: the old autograder is refused, naming the term; B is untouched.
    done = run("regen", "--course", str(a), "--term", "Spring 2027")
    assert done.returncode == 0, done.stderr
    stale = run("check", "--course", str(a), "--against", str(tmp_path / "ag.zip"))
    assert stale.returncode == 1 and "term: 'Fall 2026' there, 'Spring 2027' in the course" \
        in stale.stderr, stale.stderr
    assert f"build it again from the course: python -m grader gradescope --out " \
           f"{tmp_path / 'ag.zip'} --course {a}" in stale.stderr, stale.stderr
    capsys.readouterr()  # in process: `check --against` ran as a program just above
    assert cli.main(["check", "--course", str(a), "--against", str(tmp_path / "st.zip")]) == 1
    assert f"python -m grader bundle --out {tmp_path / 'st.zip'} --course {a}" in \
        capsys.readouterr().err
    assert tree(two["b"]) == before_b
    capsys.readouterr()  # in process: `regen --term` ran as a program above
    assert cli.main(["regen", "--course", str(a), "--term", TERM]) == 0  # back, same bytes
    assert cli.main(["check", "--course", str(a), "--against", str(tmp_path / "ag.zip")]) == 0


@pytest.mark.slow
def test_grade_refuses_a_course_whose_cases_belong_to_another_term(
        two, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`grade` in process (it runs as a program in the tests around)."""
    folder = tmp_path / "c"
    shutil.copytree(two["b"], folder)
    text = (folder / "course.toml").read_text(encoding="utf-8")
    (folder / "course.toml").write_text(text.replace(f'term = "{TERM}"', 'term = "Other"'),
                                        encoding="utf-8")
    grade = ["grade", str(two["class"]), "--course", str(folder), "--out",
             str(tmp_path / "out"), *QUIET]
    capsys.readouterr()
    code, err = cli.main(grade), capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "of term 'Fall 2026'" in err and "term 'Other'" in err
    assert f"regen --course {folder}" in err and not (tmp_path / "out").exists()
    expected = next((folder / "cases" / "expected").iterdir())
    (folder / "course.toml").write_text(text, encoding="utf-8")
    expected.write_text("tampered\n", encoding="utf-8")
    code, err = cli.main(grade), capsys.readouterr().err
    assert code == 2 and "not ready to grade" in err, err
    assert f"regen --course {folder}" in err
    # in process (`check --course` runs as a program in test_ustc_course.py)
    assert cli.main(["check", "--course", str(folder)]) == 1


BAD = {
    "missing secret": (lambda f: (f / "secret").unlink(), "secret is missing"),
    "secret not a key": (lambda f: (f / "secret").write_text("hello\n"), "not a course secret"),
    "secret unreadable": (lambda f: ((f / "secret").unlink(), (f / "secret").mkdir()),
                          "cannot read the course's secret"),
    "newer kit": (lambda f: _edit(f, "format = 1", "format = 99"), "written by a newer kit"),
    "empty term": (lambda f: _edit(f, f'term = "{TERM}"', 'term = ""'), "name is empty"),
    "long term": (lambda f: _edit(f, f'term = "{TERM}"', f'term = "{"x" * 65}"'), "at most 64"),
    "unknown case data": (lambda f: _edit(f, 'data = "hidden/quoted"', 'data = "hidden/nope"'),
                          "is not in this kit"),
}


def _edit(folder: Path, old: str, new: str) -> None:
    path = folder / "course.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("what", list(BAD))
def test_bad_course_folders_are_one_line_naming_the_file_and_nothing_changes(
        what: str, two, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """In process: the command lines themselves run as programs in the tests above."""
    folder = tmp_path / "c"
    shutil.copytree(two["b"], folder)
    BAD[what][0](folder)
    before = tree(folder)
    for command in (["grade", str(two["class"]), "--course", str(folder), "--out",
                     str(tmp_path / "out"), *QUIET], ["regen", "--course", str(folder)]):
        capsys.readouterr()
        code = cli.main(command)
        err = capsys.readouterr().err
        assert code == 2, (command, err)
        assert err.count("\n") == 1 and err.startswith("error: "), err
        assert BAD[what][1] in err and str(folder) in err, err
        assert tree(folder) == before and not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_public_demo_warns_once_and_cannot_draw_a_term(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    """`grade` as a program (its warning, printed once); `solution` and the refused `regen`
    in process (both run as programs in other tests)."""
    staff = tmp_path / "class" / "staff"
    staff.mkdir(parents=True)
    assert cli.main(["solution", "--course", str(REPO / "examples" / "course"), "--out",
                     str(staff / "skeleton.py")]) == 0
    done = run("grade", str(tmp_path / "class"), "--course", "examples/course", "--out",
               str(tmp_path / "out"), *QUIET[:-1])
    assert done.returncode == 0, done.stderr
    warning = [line for line in done.stderr.splitlines() if "public demo course" in line]
    assert len(warning) == 1 and "course new DIR" in warning[0]  # printed once
    capsys.readouterr()
    code = cli.main(["regen", "--course", str(REPO / "examples" / "course"), "--term", TERM])
    err = capsys.readouterr().err
    assert code == 2 and "no secret" in err, err


def test_a_dask_worker_with_another_copy_of_the_course_is_refused(two, tmp_path: Path,
                                                                  monkeypatch) -> None:
    rubric = apply_term(load_course(two["a"]).rubric)
    spec = BatchSpec("batch", rubric, str(rubric.cases_dir), "none", host_identity(rubric))
    assert "course fingerprint" in spec.identity
    import pickle
    key = load_course(two["a"]).key
    payload = pickle.dumps(spec)  # what travels to every worker: never the secret
    assert key not in payload and key.hex().encode() not in payload
    same = worker_identity(spec)  # a shared filesystem: the same path
    assert refusal("w1", same, spec.identity) is None
    copy = tmp_path / "worker-copy"
    shutil.copytree(two["b"], copy)  # the worker's own copy, but of another course
    (copy / "secret").unlink()  # a worker never needs the secret
    monkeypatch.setenv(COURSE_DIR, str(copy))
    line = refusal("w2", worker_identity(spec), spec.identity)
    assert line and line.startswith("worker w2 refused: course fingerprint"), line
    shutil.rmtree(copy)
    shutil.copytree(two["a"], copy)
    assert refusal("w3", worker_identity(spec), spec.identity) is None
    assert os.environ[COURSE_DIR] == str(copy)


def test_settings_that_only_name_submissions_leave_the_fingerprint(tmp_path: Path) -> None:
    """--id-pattern (student_id_pattern), like cases_dir and run_as, is how this machine reads
    the download, not the course: the fingerprint stays; a graded setting changes it."""
    from grader.courses.folder import resolve
    from grader.grading.fingerprint import fingerprint
    course = REPO / "examples" / "course"
    plain = fingerprint(resolve(course)[0])
    canvas = fingerprint(resolve(course, {"student_id_pattern": r"^(?P<id>[^_]+)_\d+_"})[0])
    assert canvas == plain
    assert fingerprint(resolve(course, {"time_limit": 3.0})[0]) != plain


@pytest.mark.parametrize("command", ["grade", "bundle", "gradescope"])
def test_a_course_folder_that_does_not_exist_is_named_as_one(command: str,
                                                             tmp_path: Path) -> None:
    missing = tmp_path / "my-course"
    args = {"grade": [str(REPO / "examples" / "submissions"), "--out", str(tmp_path / "out")],
            "bundle": ["--out", str(tmp_path / "s.zip")],
            "gradescope": ["--out", str(tmp_path / "a.zip")]}[command]
    done = run(command, *args, "--course", str(missing))
    assert done.returncode == 2 and done.stderr == (
        f"error: --course {missing}: no such folder; make a course with `python -m grader "
        f"course new {missing} --from default --term NAME`\n"), done.stderr
    assert not (tmp_path / "out").exists()
