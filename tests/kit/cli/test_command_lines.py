"""The reference's and skeleton.py's command lines agree: same arguments, exit codes, output
format and labels, both answer --help, and both warn (on stderr) when a hierarchy file is
missing, naming the columns that will be published unchanged.

Each command line runs as a fresh process (`python -m reference`, `python skeleton.py`); the
bad-argument cases, which stop at the argument parse, run in this process but one."""
from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SMALL = REPO / "tests" / "public" / "data" / "cases" / "sam"


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """skeleton.py with its seven functions taken from the reference (its own command line)."""
    folder = tmp_path_factory.mktemp("solved")
    text = (REPO / "skeleton.py").read_text(encoding="utf-8")
    head, main = text.rsplit('if __name__ == "__main__":', 1)
    delegate = ("from reference import (bottomup_anonymizer, clustering_anonymizer, cost_LM,\n"
                "                       cost_MD, mondrian, random_anonymizer, samarati)\n\n\n")
    (folder / "skeleton.py").write_text(head + delegate + 'if __name__ == "__main__":' + main,
                                        encoding="utf-8")
    return folder / "skeleton.py"


def both(solved: Path, cwd: Path, *args: str) -> dict[str, subprocess.CompletedProcess]:
    env_path = {"PYTHONPATH": str(REPO)}
    commands = {"reference": [sys.executable, "-m", "reference"],
                "skeleton": [sys.executable, str(solved)]}
    return {name: subprocess.run(command + list(args), cwd=cwd, capture_output=True, text=True,
                                 env={**env_path, "PATH": "/usr/bin:/bin"}, timeout=300)
            for name, command in commands.items()}


def both_inside(solved: Path, cwd: Path, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture,
                *args: str) -> dict[str, subprocess.CompletedProcess]:
    """`both` in this process: each command line's main() with the argv[0] a fresh process
    has (the program name follows it), in `cwd`; what it returns and prints."""
    from reference import __main__ as reference_cli
    spec = importlib.util.spec_from_file_location("solved_skeleton", solved)
    skeleton = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(skeleton)
    monkeypatch.chdir(cwd)
    mains = {"reference": (str(REPO / "reference" / "__main__.py"), reference_cli.main),
             "skeleton": (str(solved), skeleton._run)}
    runs = {}
    for name, (argv0, main) in mains.items():
        monkeypatch.setattr(sys, "argv", [argv0, *args])
        capsys.readouterr()
        status = main(list(args))
        said = capsys.readouterr()
        runs[name] = subprocess.CompletedProcess([argv0, *args], status, said.out, said.err)
    return runs


def without_time(text: str) -> str:
    return re.sub(r"time: [0-9.]+ s", "time: T s", text)


def prog_free(text: str) -> str:
    return text.replace("python -m reference", "PROG").replace("python skeleton.py", "PROG")


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ("samarati", "DGHs", "raw.csv", "out.csv", "2"),
    ("bottomup", "DGHs", "raw.csv", "out.csv", "2", "1"),
    ("mondrian", "DGHs", "raw.csv", "out.csv", "3"),
])
def test_same_output_format(solved: Path, tmp_path: Path, args) -> None:
    shutil.copytree(SMALL / "DGHs", tmp_path / "DGHs")
    shutil.copyfile(SMALL / "raw.csv", tmp_path / "raw.csv")
    runs = both(solved, tmp_path, *args)
    assert runs["reference"].returncode == runs["skeleton"].returncode == 0, runs
    ref, ske = (without_time(runs[n].stdout) for n in ("reference", "skeleton"))
    assert ref == ske
    assert re.fullmatch(rf"{args[0]}: wrote out.csv\nMD cost: \d+\nLM cost: [0-9.]+\n"
                        r"time: T s\n", ref), ref
    assert runs["reference"].stderr == runs["skeleton"].stderr == ""


BAD_ARGUMENTS = [
    ("clustering", "DGHs", "raw.csv", "out.csv", "abc"),
    ("clustering", "DGHs", "raw.csv", "out.csv"),
    ("magic", "DGHs", "raw.csv", "out.csv", "4"),
    ("mondrian", "DGHs", "raw.csv", "out.csv", "4", "1"),
    ("random", "DGHs", "raw.csv", "out.csv", "4", "0", "9"),
    ("samarati", "DGHs", "raw.csv", "out.csv", "4", "x"),
]
FRESH_BAD_ARGUMENTS = BAD_ARGUMENTS[:1]  # also as fresh processes: the exit status a shell sees


@pytest.mark.slow
@pytest.mark.parametrize("args", BAD_ARGUMENTS)
def test_bad_arguments_exit_2_with_the_same_message(solved: Path, tmp_path: Path, args,
                                                    monkeypatch, capsys) -> None:
    if args in FRESH_BAD_ARGUMENTS:
        runs = both(solved, tmp_path, *args)
    else:
        runs = both_inside(solved, tmp_path, monkeypatch, capsys, *args)
    for run in runs.values():
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr.startswith("usage: ") and "Traceback" not in run.stderr
    errors = {name: prog_free(run.stderr.splitlines()[-1]) for name, run in runs.items()}
    choices = {name: re.findall(r"'(\w+)'", e.partition("(choose from")[2])
               for name, e in errors.items()}  # the reference also offers the optional parts
    assert set(choices["skeleton"]) <= set(choices["reference"])
    errors = {name: e.partition("(choose from")[0] for name, e in errors.items()}
    assert errors["reference"] == errors["skeleton"] and errors["reference"].startswith(
        "PROG: error: ")
    assert list(tmp_path.iterdir()) == []


def test_both_answer_help(solved: Path, tmp_path: Path) -> None:
    runs = both(solved, tmp_path, "--help")
    for run in runs.values():
        assert run.returncode == 0 and run.stdout.startswith("usage: ")
        assert "max_sup" in run.stdout and run.stderr == ""


@pytest.mark.slow
def test_a_missing_hierarchy_file_warns_on_both(solved: Path, tmp_path: Path) -> None:
    shutil.copytree(REPO / "DGHs", tmp_path / "DGHs", ignore=shutil.ignore_patterns("education.txt"))
    rows = (REPO / "adult-hw1.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    # the warning is about the header: the dataset's first 300 rows are enough
    (tmp_path / "adult-hw1.csv").write_text("".join(rows[:301]), encoding="utf-8")
    runs = both(solved, tmp_path, "mondrian", "DGHs", "adult-hw1.csv", "out.csv", "50")
    for run in runs.values():
        assert run.returncode == 0, run.stderr  # the contract's rule still applies
        warning, = [line for line in run.stderr.splitlines() if line.startswith("warning:")]
        assert "education, income" in warning and "published unchanged" in warning
    assert runs["reference"].stderr == runs["skeleton"].stderr


def test_no_warning_when_only_the_sensitive_column_lacks_a_hierarchy(solved: Path,
                                                                      tmp_path: Path) -> None:
    shutil.copytree(SMALL / "DGHs", tmp_path / "DGHs")
    shutil.copyfile(SMALL / "raw.csv", tmp_path / "raw.csv")
    for run in both(solved, tmp_path, "mondrian", "DGHs", "raw.csv", "out.csv", "2").values():
        assert run.returncode == 0 and run.stderr == ""
