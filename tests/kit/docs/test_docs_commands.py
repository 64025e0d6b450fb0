"""Every command in the guides is checked: each command line of the ```bash blocks of README.md
and docs/*.md is parsed by the real command line it names, and the cheap, self-contained ones
are run literally in a copy of the checkout (or in the student bundle that the guide's own
`bundle` command makes).

- `python -m grader ...`: grader.cli's parser; the parsed `func` must be one of the grader's.
- `python -m reference ...`, `reference.check`, `reference.experiments`: their argparse
  parsers; `reference.data` and `reference.lab_hierarchies` build their parsers inside main(),
  which runs up to the parse only.
- `python skeleton.py ...`: the skeleton's own parser.
- `pytest ...` (a student's, in the bundle) and `python -m pytest ...` (the kit's): run below
  when listed in LITERAL, otherwise run literally with `--collect-only -q` added, so pytest
  itself parses and checks the shown options (`-m 'not slow'`, `--durations=30`, `-n 0`), and
  must exit 0 and print its "collected" line. A line that names no test file collects one small
  file (`SMALL_COLLECTION`, which has slow and quick tests, so `-m 'not slow'` keeps some and
  drops some), not the whole suite: the outer run that runs this test collects the whole suite
  itself (a collection error anywhere fails that run), so a nested whole-suite collection would
  only repeat that proof, at about 10 CPU-seconds a line.
- `python SCRIPT.py` (the examples' builders): run below, in LITERAL.
- Anything else is in NOT_RUN with the reason it is not run.

A command that is in a guide but neither parses nor runs fails, naming the file and line
(the installed scripts `kanon-grader` and `kanon-reference` count as their `python -m` forms).
"""
from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from unittest import mock

import pytest

from test_docs_quickstart import _copy_checkout

REPO = Path(__file__).resolve().parents[3]
GUIDES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
COPIED = ["adult-hw1.csv", "DGHs", "kanon", "kcheck", "reference", "grader", "tests",
          "pyproject.toml", "skeleton.py", "HANDOUT.md", "README.md", "docs", "examples", "courses"]

NOT_RUN = {
    ("python", "-m", "pip"): "installs packages from a package index; these tests run in the "
    "environment it made (.ci/run runs the Quick start's install)",
    ("python3", "-m", "venv"): "makes a virtual environment: test_docs_quickstart.py makes one "
    "inside a copy of the checkout (without pip) and .ci/run runs this very line",
    (".",): "activates the virtual environment in the reader's shell; test_docs_quickstart.py "
    "runs the venv's interpreter directly",
    ("sudo",): "installs a system package (bubblewrap) as root",
    ("dask",): "starts a long-running Dask scheduler or worker; test_grader_cluster.py grades "
    "on the same loopback cluster, which the grader's cluster_local starts",
    ("mkdir",): "sets up the fixed folder /tmp/ag for the autograder's local trial, which "
    "test_gradescope.py runs under a temporary KANON_AUTOGRADER_ROOT",
    ("unzip",): "unpacks into the fixed folder /tmp/ag for the autograder's local trial (see "
    "run_autograder)",
    ("/tmp/ag/source/run_autograder",): "the autograder's local trial in the fixed /tmp/ag: "
    "test_gradescope.py runs run_autograder the same way (KANON_AUTOGRADER_ROOT, "
    "KANON_AUTOGRADER_PYTHON) under a temporary root",
    ("cat",): "prints the autograder's results.json, which test_gradescope.py reads",
    ("cp",): "copies a new grades.csv over the golden examples/expected-grades.csv: it would "
    "change the checkout",
}


@dataclass(frozen=True)
class Command:
    where: str                # "docs/tas.md:22"
    text: str                 # the command as the guide writes it (comments dropped)
    argv: tuple[str, ...]

    @property
    def program(self) -> tuple[str, ...]:
        """argv without leading VAR=value assignments."""
        argv = list(self.argv)
        while argv and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", argv[0]):
            argv.pop(0)
        return tuple(argv)


def _uncomment(line: str) -> str:
    """The line without its shell comment (a `#` at the start of a word)."""
    return re.sub(r"(^|\s)#.*$", "", line).strip()


def guide_commands(guide: Path) -> list[Command]:
    """Every command of the guide's ```bash blocks: continuation lines joined, `&&` chains
    split, a trailing `&` dropped."""
    found: list[Command] = []
    in_bash, pending, start = False, "", 0
    for number, line in enumerate(guide.read_text(encoding="utf-8").splitlines(), 1):
        fence = line.strip()
        if fence.startswith("```"):
            in_bash = fence == "```bash" if not in_bash else False
            continue
        if not in_bash:
            continue
        if not pending:
            start = number
        code = _uncomment(line)
        if code.endswith("\\"):
            pending += code[:-1] + " "
            continue
        code, pending = pending + code, ""
        if not code:
            continue
        words = shlex.split(code)
        if words and words[-1] == "&":
            words.pop()
        chain: list[list[str]] = [[]]
        for word in words:
            if word in ("&&", ";", "||"):
                chain.append([])
            else:
                chain[-1].append(word)
        for argv in chain:
            if argv:
                found.append(Command(f"{guide.relative_to(REPO)}:{start}",
                                     shlex.join(argv), tuple(argv)))
    return found


COMMANDS = [command for guide in GUIDES for command in guide_commands(guide)]


# ------------------------------------------------------------------------------ the parsers

class _Parsed(Exception):
    """Raised by the spy once argparse has parsed: the command's work is not run."""


def _parse_inside(main: Callable[[list[str]], object], args: list[str]) -> argparse.Namespace:
    """Run `main(args)` only up to its argparse parse (for a parser built inside main)."""
    real = argparse.ArgumentParser.parse_args

    def spy(self, args=None, namespace=None):
        raise _Parsed(real(self, args, namespace))

    with mock.patch.object(argparse.ArgumentParser, "parse_args", spy):
        try:
            main(args)
        except _Parsed as parsed:
            return parsed.args[0]
    raise AssertionError("main() returned without parsing its arguments")


def _skeleton():
    spec = importlib.util.spec_from_file_location("skeleton_under_test", REPO / "skeleton.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _parse_grader(args: list[str]) -> None:
    from grader import cli
    parsed = cli._parser("python -m grader").parse_args(args)
    assert callable(parsed.func) and parsed.func.__module__.startswith("grader."), parsed


def _parse_reference(module: str, args: list[str]) -> None:
    if module == "reference":
        from reference.__main__ import parser
        parser().parse_args(args)
    elif module == "reference.check":
        from reference.check import parser
        parser().parse_args(args)
    elif module == "reference.experiments":
        from reference.experiments import _parser
        _parser().parse_args(args)
    elif module == "reference.data":
        from reference.data import main
        _parse_inside(main, args)
    elif module == "reference.lab_hierarchies":
        from reference.lab_hierarchies import main
        _parse_inside(main, args)
    else:
        raise AssertionError(f"no parser known for python -m {module}")


PARSERS: dict[tuple[str, ...], Callable[[list[str]], None]] = {
    ("python", "-m", "grader"): _parse_grader,
    ("kanon-grader",): _parse_grader,
    ("kanon-reference",): lambda args: _parse_reference("reference", args),
    ("python", "skeleton.py"): lambda args: _skeleton()._parser().parse_args(args),
    **{("python", "-m", name): (lambda args, name=name: _parse_reference(name, args))
       for name in ("reference", "reference.check", "reference.experiments", "reference.data",
                    "reference.lab_hierarchies")},
}


_COLLECTED: set[str] = set()
SMALL_COLLECTION = "tests/kit/docs/test_docs_commands.py"  # this file: slow and quick tests
COLLECTED_LINE = re.compile(r"^\d+(/\d+)? tests? collected( \(\d+ deselected\))? in ", re.M)


def _collect_argv(program: tuple[str, ...]) -> list[str]:
    """A kit's `python -m pytest` line as it is run here: its own words, `--collect-only -q`,
    and SMALL_COLLECTION where the line names no test path (the whole suite otherwise)."""
    names_tests = any(word.startswith("tests/") for word in program[3:])
    return [*program, "--collect-only", "-q", "-p", "no:cacheprovider",
            *([] if names_tests else [SMALL_COLLECTION])]


def _is_pytest(program: tuple[str, ...]) -> bool:
    return program[:1] == ("pytest",) or program[:3] == ("python", "-m", "pytest")


# ---------------------------------------------------------------------- the literal runs

@dataclass(frozen=True)
class Run:
    text: str                 # exactly as the guide has it
    folder: str               # "kit" (the checkout's copy) or "student" (the unpacked bundle)
    status: int = 0
    says: str = ""            # a piece of stdout + stderr


USTC = "courses/ustc/cases"
USTC_DRAWS = [("public/adult", 30162, ""),
              ("hidden/sample-500", 500, " --rows 500 --seed 20210316"),
              ("hidden/sample-200", 200, " --rows 200 --seed 20210317"),
              ("hidden/ages-30-45", 61, " --rows 61 --seed 20210318 --ages 30-45")]

CANVAS_GRADE = ("python -m grader grade examples/downloads/canvas.zip --out graded-canvas "
                "--course examples/course --id-pattern '^(?P<id>[^_]+)_(?:late_)?\\d+_\\d+_'")
LITERAL = [
    Run("python -m grader check", "kit", 0, "are fresh"),
    Run("python -m reference clustering DGHs adult-hw1.csv anonymized.csv 4", "kit", 0,
        "MD cost:"),
    Run("python -m reference.check anonymized.csv --raw adult-hw1.csv --dghs DGHs", "kit", 0,
        "k (smallest class):"),
    Run("python -m reference.check anonymized.csv --raw adult-hw1.csv --dghs DGHs --json", "kit",
        0, "{"),
    Run("python -m reference.data ../shared/adult-model.json adult-hw1.csv", "kit", 0,
        "wrote 9999 rows"),
    *(Run(f"python -m reference.data courses/ustc/data-model.json {USTC}/{case}/adult-hw1.csv"
          f"{options}", "kit", 0, f"wrote {rows} rows") for case, rows, options in USTC_DRAWS),
    Run(f"python -m reference.lab_hierarchies {USTC}/public/adult", "kit", 0,
        "wrote 5 hierarchies"),
    Run(f"python -m reference.lab_hierarchies {USTC}/hidden/sample-500 {USTC}/hidden/sample-200 "
        f"{USTC}/hidden/ages-30-45", "kit", 0, "wrote 5 hierarchies"),
    Run("python examples/make_examples.py", "kit", 0, "wrote 13 submissions"),
    Run("python examples/make_hostile.py", "kit", 0, "submissions"),
    Run("python -m grader grade examples/submissions --out graded --course examples/course",
        "kit", 0, "graded 13, reused 0"),
    # the demo class as Canvas's and Moodle's downloads, from the download to the LMS's files
    Run("python examples/make_downloads.py", "kit", 0, "wrote canvas.zip, moodle.zip"),
    Run(CANVAS_GRADE, "kit", 0, "graded 13, reused 0"),
    Run("python -m grader check --course examples/course --against graded-canvas", "kit", 0,
        "graded-canvas belongs to it"),
    Run("python -m grader export graded-canvas --format canvas --roster "
        "examples/rosters/canvas.csv --out canvas.csv --feedback canvas-feedback.zip", "kit", 0,
        "wrote canvas-feedback.zip: 13 student(s)"),
    Run("python -m grader grade examples/downloads/moodle.zip --out graded-moodle --course "
        "examples/course", "kit", 0, "graded 13, reused 0"),
    Run("python -m grader export graded-moodle --format moodle --roster "
        "examples/rosters/moodle.csv --out moodle.csv --feedback moodle-feedback.zip", "kit", 0,
        "wrote moodle-feedback.zip: 13 student(s)"),
    Run("python -m grader export graded --format moodle --roster worksheet.csv --out moodle.csv",
        "kit", 0, "wrote moodle.csv: 13 student(s)"),
    Run("python -m grader export graded --format canvas --roster gradebook.csv --out canvas.csv",
        "kit", 0, "wrote canvas.csv: 13 student(s)"),
    Run("python -m grader export graded --format gradescope --roster roster.csv --out "
        "gradescope.csv", "kit", 0, "wrote gradescope.csv: 13 student(s)"),
    Run("python -m grader export graded --format moodle --roster worksheet.csv --out moodle.csv "
        "--feedback moodle-feedback.zip", "kit", 0, "wrote moodle-feedback.zip: 13 student(s)"),
    Run("python -m grader export graded-canvas --format canvas --feedback canvas-feedback.zip",
        "kit", 0, "wrote canvas-feedback.zip: 13 student(s)"),
    Run("python -m grader similarity SUBMISSIONS --out graded/pairs.csv", "kit", 0, "pairs.csv"),
    Run("python -m grader bundle --out ../student.zip", "kit", 0, "wrote ../student.zip"),
    Run("pytest", "student", 1, "public tests passed, "),
    Run("pytest -k clustering", "student", 1, "public self-check"),
    Run("pytest --solution=path/to/file.py", "student", 0, "90 public tests passed, 0 failed"),
    Run("python -m grader bundle --course grader/rubric-2025.toml --out ../student.zip", "kit",
        0, "wrote ../student.zip"),
    Run("python -m pytest tests/public --solution=reference", "kit", 0, " 0 failed"),
    Run("python -m grader regen", "kit", 0, "expected outputs"),
    Run("python -m grader check", "kit", 0, "are fresh"),
]
LITERAL_TEXTS = {shlex.join(shlex.split(run.text)) for run in LITERAL}
MODEL = REPO.parent / "shared" / "adult-model.json"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "KANON_"))}


def _argv(words: list[str]) -> list[str]:
    """The words with `python` and `pytest` made this interpreter's."""
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    if words[0] == "pytest":
        script = Path(sys.executable).with_name("pytest")
        return [str(script), *words[1:]] if script.exists() else [sys.executable, "-m", *words]
    return words


def _run(words: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(_argv(words), cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=600)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


SIMILARITY_CLASS = ("alice.zip", "bob", "carol.zip")  # a zip, a folder, a zip


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout, beside a `shared` link (for ../shared/adult-model.json), with
    the guides' placeholders made real: SUBMISSIONS is a class of three of the demo class's
    students (similarity compares every pair: three make pairs.csv and pairs.html as a class
    does, tests/kit/similarity checks the measure), and the rosters the export commands name
    are the demo class's rosters."""
    root = tmp_path_factory.mktemp("docs-commands")
    checkout = root / "kanon-kit"
    checkout.mkdir()
    _copy_checkout(REPO, checkout, COPIED)
    if MODEL.is_file():
        (root / "shared").symlink_to(MODEL.parent)
    (checkout / "SUBMISSIONS").mkdir()
    for name in SIMILARITY_CLASS:
        (checkout / "SUBMISSIONS" / name).symlink_to(f"../examples/submissions/{name}")
    for system, name in (("moodle", "worksheet.csv"), ("canvas", "gradebook.csv"),
                         ("gradescope", "roster.csv")):
        shutil.copyfile(checkout / "examples" / "rosters" / f"{system}.csv", checkout / name)
    return checkout


# ---------------------------------------------------------------------------------- tests

def test_the_guides_have_commands_to_check() -> None:
    assert len(COMMANDS) > 40
    assert {c.where.split(":")[0] for c in COMMANDS} >= {
        "README.md", "docs/students.md", "docs/tas.md", "docs/instructors.md", "docs/reference.md"}


def _param(command: Command):
    """A command as a test parameter: a pytest line starts pytest in a copy of the checkout
    (`_collect_argv`), so it is slow."""
    slow = _is_pytest(command.program) and command.text not in LITERAL_TEXTS
    return pytest.param(command, marks=[pytest.mark.slow] if slow else [],
                        id=f"{command.where} {command.text[:60]}")


@pytest.mark.parametrize("command", [_param(c) for c in COMMANDS])
def test_every_command_parses_or_runs(command: Command, request: pytest.FixtureRequest) -> None:
    program = command.program
    where = f"{command.where}: `{command.text}`"
    for prefix, parse in PARSERS.items():
        if program[:len(prefix)] == prefix:
            try:
                parse(list(program[len(prefix):]))
            except SystemExit as exit:  # argparse refused it
                pytest.fail(f"{where} does not parse (exit status {exit.code})")
            return
    if _is_pytest(program):
        if command.text in LITERAL_TEXTS:
            return  # run in test_the_cheap_commands_run_literally
        assert program[0] != "pytest", (
            f"{where}: a student's pytest command; add it to LITERAL (it runs in the bundle)")
        if command.text not in _COLLECTED:  # the same line in two guides: collected once
            kit = request.getfixturevalue("kit")
            done = _run(_collect_argv(program), kit)
            assert done.returncode == 0, f"{where} does not collect: {done.stdout[-2000:]}" \
                                         f"{done.stderr[-2000:]}"
            assert COLLECTED_LINE.search(done.stdout), f"{where}: {done.stdout[-2000:]}"
            _COLLECTED.add(command.text)
        return
    if program[:1] == ("python",) and len(program) > 1 and program[1].endswith(".py"):
        assert (REPO / program[1]).is_file(), f"{where}: no such script"
        assert command.text in LITERAL_TEXTS, f"{where}: a script; add it to LITERAL"
        return
    for prefix, reason in NOT_RUN.items():
        if program[:len(prefix)] == prefix:
            assert reason
            return
    pytest.fail(f"{where} neither parses nor runs: give it a parser in PARSERS, a literal run "
                f"in LITERAL or a reason in NOT_RUN ({Path(__file__).name})")


def test_every_literal_run_and_reason_is_used_by_a_guide() -> None:
    shown = {c.text for c in COMMANDS}
    missing = sorted(LITERAL_TEXTS - shown)
    assert not missing, f"no guide shows these commands any more: {missing}"
    unused = [prefix for prefix in NOT_RUN
              if not any(c.program[:len(prefix)] == prefix for c in COMMANDS)]
    assert not unused, f"NOT_RUN entries no guide uses: {unused}"


def test_a_command_that_neither_parses_nor_runs_is_named(tmp_path: Path) -> None:
    text = "# Bad\n\n```bash\npython -m grader grade --no-such-option\nfrobnicate now\n```\n"
    (tmp_path / "bad.md").write_text(text, encoding="utf-8")
    with mock.patch(f"{__name__}.REPO", tmp_path):
        found = guide_commands(tmp_path / "bad.md")
    assert [(c.where, c.text) for c in found] == [
        ("bad.md:4", "python -m grader grade --no-such-option"), ("bad.md:5", "frobnicate now")]
    with pytest.raises(SystemExit):
        _parse_grader(list(found[0].program[3:]))
    assert not any(found[1].program[:len(p)] == p for p in (*PARSERS, *NOT_RUN))


@pytest.mark.slow
def test_the_cheap_commands_run_literally(kit: Path, tmp_path: Path) -> None:
    student = tmp_path / "student"
    skipped = []
    for run in LITERAL:
        words = shlex.split(run.text)
        model = MODEL.parent / Path(words[3]).name if len(words) > 3 else MODEL
        if run.text.startswith("python -m reference.data") and not model.is_file():
            skipped.append(f"{run.text} (no {model})")
            continue
        if run.folder == "student" and not student.exists():
            with zipfile.ZipFile(kit.parent / "student.zip") as archive:
                archive.extractall(student)
            student = student / "kanon-hw1"
            (student / "path" / "to").mkdir(parents=True)
            from grader import cli  # in process: the placeholder's file, not a guide's line
            assert cli.main(["solution", "--course", str(kit / "courses" / "default"), "--out",
                             str(student / "path" / "to" / "file.py")]) == 0
        cwd = kit if run.folder == "kit" else student
        done = _run(words, cwd)
        said = done.stdout + done.stderr
        assert done.returncode == run.status, (run.text, done.returncode, said[-3000:])
        assert run.says in said, (run.text, said[-3000:])
        CHECKS.get(run.text, lambda kit, done: None)(kit, done)
    if skipped:
        warnings.warn(f"not run: {skipped}")


def _same_data(kit: Path, done) -> None:
    assert (kit / "adult-hw1.csv").read_bytes() == (REPO / "adult-hw1.csv").read_bytes()


def _same_files(*paths: str) -> Callable[[Path, object], None]:
    """A check: each path (a file, or a folder's files) is the committed one byte for byte."""
    def check(kit: Path, done) -> None:
        for path in paths:
            if (REPO / path).is_dir():
                assert _files(kit / path) == _files(REPO / path), path
            else:
                assert (kit / path).read_bytes() == (REPO / path).read_bytes(), path
    return check


def _same_examples(kit: Path, done) -> None:
    assert _files(kit / "examples" / "submissions") == _files(REPO / "examples" / "submissions")


def _same_hostile(kit: Path, done) -> None:
    assert _files(kit / "examples" / "hostile" / "submissions") == \
        _files(REPO / "examples" / "hostile" / "submissions")


def _golden_grades(kit: Path, done) -> None:
    def rows(path: Path) -> list[dict]:
        with open(path, encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))
    assert rows(kit / "graded" / "grades.csv") == rows(REPO / "examples" / "expected-grades.csv")
    assert (kit / "graded" / "summary.html").is_file()


def _json_report(kit: Path, done) -> None:
    assert json.loads(done.stdout)


def _pairs(kit: Path, done) -> None:
    assert (kit / "graded" / "pairs.html").is_file()
    assert "3 submissions" in done.stdout + done.stderr  # the whole SUBMISSIONS class
    with open(kit / "graded" / "pairs.csv", encoding="utf-8", newline="") as f:
        assert next(csv.reader(f))[:3] == ["student_a", "student_b", "similarity"]


def _feedback_zip(kit: Path, done) -> None:
    with zipfile.ZipFile(kit / "moodle-feedback.zip") as archive:
        assert any(name.endswith("/feedback.html") for name in archive.namelist())


def _same_downloads(kit: Path, done) -> None:
    assert _files(kit / "examples" / "downloads") == _files(REPO / "examples" / "downloads")


def _csv_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _golden_by_lms(kit: Path, folder: str, system: str) -> None:
    """Every student of the LMS download gets the golden grades of the plain class (joined
    through the roster), with the LMS's identity kept."""
    roster = _csv_rows(REPO / "examples" / "rosters" / f"{system}.csv")
    if system == "canvas":
        plain = {r["ID"]: r["SIS Login ID"] for r in roster if r["ID"]}
    else:
        plain = {r["Identifier"].split()[-1]: r["Email address"].split("@")[0] for r in roster}
    golden = {r["student"]: r for r in _csv_rows(REPO / "examples" / "expected-grades.csv")}
    graded = _csv_rows(kit / folder / "grades.csv")
    assert len(graded) == len(golden) == 13
    skip = {"student", "lms", "lms_id", "lms_name", "source"}
    for row in graded:
        assert row["lms"] == system, row
        want = golden[plain[row["lms_id"]]]
        assert {k: v for k, v in row.items() if k not in skip} == \
            {k: v for k, v in want.items() if k not in skip}, row


def _canvas_export(kit: Path, done) -> None:
    rows = list(csv.reader((kit / "canvas.csv").open(encoding="utf-8", newline="")))
    assert rows[0][-1] == "HW1: k-anonymity (4242)"  # the roster's own assignment, updated
    assert len(rows) == 2 + 13 and rows[2][:2] == ["Anders, Alice", "80101"]
    with zipfile.ZipFile(kit / "canvas-feedback.zip") as archive:
        assert "andersalice_80101_90001_feedback.html" in archive.namelist()


def _moodle_export(kit: Path, done) -> None:
    with zipfile.ZipFile(kit / "moodle-feedback.zip") as archive:
        assert "Alice Anders_51201_assignsubmission_file_/feedback.html" in archive.namelist()


CHECKS = {
    "python -m reference.data ../shared/adult-model.json adult-hw1.csv": _same_data,
    **{run.text: _same_files(shlex.split(run.text)[4]) for run in LITERAL
       if "data-model.json" in run.text},
    **{run.text: _same_files(*(f"{case}/DGHs" for case in shlex.split(run.text)[3:]))
       for run in LITERAL if run.text.startswith("python -m reference.lab_hierarchies")},
    "python examples/make_examples.py": _same_examples,
    "python examples/make_hostile.py": _same_hostile,
    "python -m grader grade examples/submissions --out graded --course examples/course":
        _golden_grades,
    "python -m reference.check anonymized.csv --raw adult-hw1.csv --dghs DGHs --json":
        _json_report,
    "python -m grader similarity SUBMISSIONS --out graded/pairs.csv": _pairs,
    "python -m grader export graded --format moodle --roster worksheet.csv --out moodle.csv "
    "--feedback moodle-feedback.zip": _feedback_zip,
    "python examples/make_downloads.py": _same_downloads,
    CANVAS_GRADE: lambda kit, done: _golden_by_lms(kit, "graded-canvas", "canvas"),
    "python -m grader grade examples/downloads/moodle.zip --out graded-moodle --course "
    "examples/course": lambda kit, done: _golden_by_lms(kit, "graded-moodle", "moodle"),
    "python -m grader export graded-canvas --format canvas --roster examples/rosters/canvas.csv "
    "--out canvas.csv --feedback canvas-feedback.zip": _canvas_export,
    "python -m grader export graded-moodle --format moodle --roster examples/rosters/moodle.csv "
    "--out moodle.csv --feedback moodle-feedback.zip": _moodle_export,
}
