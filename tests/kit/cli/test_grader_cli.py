"""The grader's command line as a TA meets it: every user error of every command is one line
on stderr (no traceback), exits non-zero and leaves nothing behind; --version, --help on every
command with help on every option; the program name follows argv[0]; `check` says when all
is well; warnings come before the grading, not only after it."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from child_python import compiled_env
from grader import __version__, cli

REPO = Path(__file__).resolve().parents[3]
ALICE = REPO / "examples" / "submissions" / "alice.zip"


CHILD: dict[str, str] = {}  # the children's environment (set by `compiled`)


@pytest.fixture(autouse=True, scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every fresh `python -m grader` of this module reuses the run's compiled modules."""
    CHILD.update(compiled_env({**os.environ, "PYTHONPATH": str(REPO)}, tmp_path_factory))


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = CHILD or {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def run_inside(cwd: Path, *args: str, monkeypatch: pytest.MonkeyPatch,
               capsys: pytest.CaptureFixture) -> subprocess.CompletedProcess:
    """`python -m grader ARGS` in this process (cwd `cwd`, argv[0] grader/__main__.py, as a
    fresh `python -m grader` has it): what the command line parses and says, without a fresh
    interpreter's start-up. An exception that escapes main() fails the test, as a traceback
    would show in a fresh process."""
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "argv", [str(REPO / "grader" / "__main__.py"), *args])
    capsys.readouterr()
    try:
        status = cli.main(list(args))
    except SystemExit as exit:  # argparse: --help, or a usage mistake
        status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    said = capsys.readouterr()
    return subprocess.CompletedProcess(["python", "-m", "grader", *args], status, said.out,
                                       said.err)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else b"<dir>")
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A folder with an existing file, an empty folder, one submission and a graded folder."""
    (tmp_path / "README.md").write_text("an existing file\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "subs").mkdir()
    shutil.copyfile(ALICE, tmp_path / "subs" / "alice.zip")
    (tmp_path / "graded").mkdir()
    (tmp_path / "graded" / "grades.csv").write_text("student,total\nalice,100\n")
    (tmp_path / "roster.csv").write_text("Student,ID\n")
    return tmp_path


USER_ERRORS = [
    ("grade", "subs", "--out", "README.md"),
    ("grade", "missing", "--out", "out"),
    ("grade", "empty", "--out", "out"),
    ("grade", "subs", "--out", "out", "--jobs", "0"),
    ("grade", "subs", "--out", "out", "--jobs", "abc"),
    ("grade", "subs", "--out", "out", "--rubric", "missing.toml"),
    ("grade", "subs", "--out", "out", "--rubric", "README.md"),
    ("grade", "subs", "--out", "out", "--id-pattern", "("),
    ("grade", "subs", "--out", "out", "--sandbox", "magic"),
    ("grade", "subs", "--out", "out", "--only", "nobody-here"),
    ("grade", "subs"),
    ("grade", "subs", "--out", "out", "--scratch", "nowhere"),
    ("grade", "README.md", "--out", "out"),
    ("similarity", "empty", "--out", "pairs.csv"),
    ("similarity", "missing", "--out", "pairs.csv"),
    ("similarity", "subs", "--out", "empty"),
    ("similarity", "subs", "--out", "pairs.csv", "--threshold", "2"),
    ("bundle", "--out", "empty"),
    ("bundle", "--out", "student.zip", "--root", "empty"),
    ("gradescope", "--out", "empty"),
    ("gradescope", "--out", "ag.zip", "--rubric", "missing.toml"),
    ("check", "--rubric", "missing.toml"),
    ("regen", "--rubric", "missing.toml"),
    ("export", "missing", "--format", "canvas", "--out", "grades-canvas.csv"),
    ("export", "empty", "--format", "canvas", "--out", "grades-canvas.csv"),
    ("export", "graded", "--format", "canvas", "--out", "grades-canvas.csv"),
    ("export", "graded", "--format", "blackboard", "--out", "x.csv"),
    ("export", "graded", "--format", "moodle", "--out", "empty"),
    ("export", "graded", "--format", "moodle", "--out", "graded/grades.csv"),
    ("export", "graded", "--format", "moodle", "--out", "no-such-folder/x.csv"),
    ("nonsense",),
    (),
]


# A few user errors in a fresh `python -m grader` process (the exit status and stderr a TA's
# shell sees); every one of them in this process too, which is what the others get.
FRESH_ERRORS = [("grade", "subs", "--out", "README.md"), ("grade", "subs", "--out", "out",
                 "--jobs", "abc"), ("export", "graded", "--format", "canvas", "--out",
                 "grades-canvas.csv"), ("nonsense",)]


def _one_line_error(workspace: Path, done: subprocess.CompletedProcess,
                    before: dict[str, bytes]) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "error: " in lines[0], done.stderr
    assert snapshot(workspace) == before


@pytest.mark.parametrize("args", USER_ERRORS, ids=[" ".join(a) or "no-args" for a in USER_ERRORS])
def test_user_errors_are_one_line_and_leave_nothing_behind(workspace: Path, args, monkeypatch,
                                                            capsys) -> None:
    before = snapshot(workspace)
    _one_line_error(workspace, run_inside(workspace, *args, monkeypatch=monkeypatch,
                                          capsys=capsys), before)


@pytest.mark.slow
@pytest.mark.parametrize("args", FRESH_ERRORS, ids=[" ".join(a) for a in FRESH_ERRORS])
def test_user_errors_in_a_fresh_process(workspace: Path, args) -> None:
    assert args in USER_ERRORS
    before = snapshot(workspace)
    _one_line_error(workspace, run(workspace, *args), before)


def test_version() -> None:
    done = run(REPO, "--version")
    assert done.returncode == 0 and done.stdout == f"python -m grader {__version__}\n"


HEAVY = ("numpy", "kanon", "kcheck", "reference", "grader.commands", "grader.rubric")
PARSER_IMPORTS = ("import sys; from grader import cli; cli._parser('x'); "
                  "print(' '.join(sorted(m for m in sys.modules if m.startswith(%r))))" % (HEAVY,))


def test_the_parser_imports_no_command_s_work() -> None:
    """Every `python -m grader` builds the whole parser: its modules import no numpy, kanon,
    kcheck or rubric (each command imports its work when it runs), so `--help`, `--version`
    and a usage mistake start in a fraction of the time a numpy import takes."""
    env = CHILD or {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", PARSER_IMPORTS], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == "\n", (done.stdout, done.stderr)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_option_of_every_command_has_help_and_a_full_description() -> None:
    parser = cli._parser("kanon-grader")
    for name, sub in _subparsers(parser).items():
        assert sub.description and not sub.description.rstrip().endswith(("the", "from")), name
        assert sub.description.rstrip().endswith("."), (name, sub.description)
        for action in sub._actions:
            assert action.help, (name, action.option_strings or action.dest)


def test_each_command_answers_help(tmp_path: Path, monkeypatch, capsys) -> None:
    for name in _subparsers(cli._parser("x")):
        done = run_inside(tmp_path, name, "--help", monkeypatch=monkeypatch, capsys=capsys)
        assert done.returncode == 0 and done.stdout.startswith(f"usage: python -m grader {name}")


@pytest.mark.slow
def test_a_command_answers_help_in_a_fresh_process(tmp_path: Path) -> None:
    done = run(tmp_path, "grade", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m grader grade")


def test_the_program_name_follows_argv0(monkeypatch, capsys) -> None:
    assert cli.prog_name("/usr/local/bin/kanon-grader") == "kanon-grader"
    assert cli.prog_name("/x/grader/__main__.py") == "python -m grader"
    monkeypatch.setattr(sys, "argv", ["/venv/bin/kanon-grader"])
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert capsys.readouterr().out.startswith("usage: kanon-grader ")


def test_check_says_so_when_all_is_fresh() -> None:
    done = run(REPO, "check")
    assert done.returncode == 0
    assert done.stderr.startswith("ok: the expected outputs of all ") and "fresh" in done.stderr


def test_warnings_come_before_the_grading(tmp_path: Path, monkeypatch, capsys) -> None:
    from grader.grading import host, runner

    order: list[str] = []

    def fake_resolve(choice, scratch_base, warnings):
        warnings.append("run_as auto: a test warning; student code runs as root")
        return None

    real_grade_one = runner._grade_one

    def spy(sub, ctx, key):
        order.append("graded")
        return real_grade_one(sub, ctx, key)

    monkeypatch.setattr(host, "resolve_run_as", fake_resolve)
    monkeypatch.setattr(runner, "_grade_one", spy)
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copyfile(ALICE, subs / "alice.zip")
    real_print = print

    def spy_print(*args, **kwargs):
        text = " ".join(str(a) for a in args)
        if text.startswith("warning: "):
            order.append("warning")
        real_print(*args, **kwargs)

    monkeypatch.setattr("builtins.print", spy_print)
    status = cli.main(["grade", str(subs), "--out", str(tmp_path / "out"), "--rubric",
                       str(REPO / "examples" / "rubric.toml"), "--sandbox", "none",
                       "--quiet", "--only", "alice"])
    assert status == 0
    assert order[0] == "warning" and "graded" in order
    assert capsys.readouterr().err.count("a test warning") == 1  # once, before the grading


def test_the_run_as_warning_is_printed_once_and_names_the_way_out(tmp_path: Path, monkeypatch,
                                                                 capsys) -> None:
    """As root with run_as = auto and a Python `nobody` cannot run: one warning, naming
    --run-as none and how to make the Python readable, and the last line points to it."""
    from grader.grading import host
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(host, "python_problem", lambda run_as, folder: "Permission denied")
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copyfile(ALICE, subs / "alice.zip")
    status = cli.main(["grade", str(subs), "--out", str(tmp_path / "out"), "--rubric",
                       str(REPO / "examples" / "rubric.toml"), "--sandbox", "none"])
    err = capsys.readouterr().err
    assert status == 0, err
    warnings = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert len(set(warnings)) == len(warnings)  # each printed once
    run_as, = [w for w in warnings if w.startswith("warning: run_as auto: ")]
    assert run_as.startswith("warning: run_as auto: user 'nobody' cannot run ")
    assert "so student code runs as root" in run_as
    assert "--run-as none" in run_as and f"chmod -R o+rX {sys.prefix}" in run_as
    assert f"student code runs as the grader's user; {len(warnings)} warning(s) above); " \
        "see " in err


def test_the_progress_bar_shows_time_left_on_a_terminal(monkeypatch) -> None:
    import io

    from grader.grading import host, runner

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    bar = runner.Progress(4)
    bar.start -= 8.0  # two submissions took 8 s: about 8 s left for the other two
    for name in ("a", "b"):
        bar.update({"student": name, "status": "ok", "score": 1.0, "max": 1.0})
    assert "2/4" in screen.getvalue() and "s left" in screen.getvalue()
    assert screen.getvalue().rsplit("\r", 1)[-1].split("s left")[0].split("~")[-1].strip() == "8"
