"""Every statement of a demo course's bundle is true for that bundle (issue 38).

- Every command line that its HANDOUT.md, README.md or skeleton.py documents runs in the
  unpacked bundle, with the course's known-good solution (grader.courses.solution) imported
  into the bundle's own skeleton.py, so that the documented command line itself is what runs;
  each output file it writes has the part's released columns as its header. The data is a
  row sample of the bundle's own adult-hw1.csv (its first SAMPLE_ROWS rows): the full files
  (9,999 and 30,162 rows) would make the suite slow, and what is checked (the command runs,
  the folder it names holds the part's QIs, the header) does not depend on the row count.
  `pytest -k NAME` lines are checked to select tests (collection only); commands that install
  packages or name placeholders are listed in NOT_RUN / skipped by PLACEHOLDER.
- Every path or file name that those three files name in code (spans and blocks) exists in
  the bundle, outputs that students create (OUTPUTS) aside.
"""
from __future__ import annotations

import csv
import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from child_python import PYTEST_OPTIONS
from forked_pytest import PytestServer
from shared_bundles import unpacked_bundle

from grader.courses.folder import resolve
from grader.courses.solution import solution_source
from grader.publishing.materials.course import CLI_NAMES, view

REPO = Path(__file__).resolve().parents[3]
COURSES = ["default", "fall2025", "all", "ustc", "tdg-lab"]
"""The demo course folders (default: grader/rubric.toml, fall2025: grader/rubric-2025.toml)."""
DOCUMENTS = ("HANDOUT.md", "README.md", "skeleton.py")
SAMPLE_ROWS = 800
OUTPUTS = {"anonymized.csv", "out.csv", "output.csv", "report.pdf"}
"""Files the documents name that students create themselves (never in the bundle)."""
PLACEHOLDER = re.compile(r"<|\.\.\.|\bNAME\b|\bARGUMENT\b|path/to/")
NOT_RUN = ("python -m pip install",)
"""Documented commands this test does not run: they install packages from the network."""
_BLOCK = re.compile(r"```[a-z]*\n(.*?)```", re.S)
_SPAN = re.compile(r"`([^`\n]+)`")


# ------------------------------------------------------------------------------ reading


def code_chunks(text: str) -> list[str]:
    """The code blocks' lines and the code spans of a Markdown or Python text, in order."""
    lines = [line for block in _BLOCK.findall(text) for line in block.splitlines()]
    return lines + _SPAN.findall(_BLOCK.sub("", text))


def commands(text: str) -> list[str]:
    """The command lines a document gives (code blocks and spans, and the skeleton's indented
    usage lines), their comments cut off, in order, once each."""
    found = code_chunks(text) + [line for line in text.splitlines()
                                 if line.startswith("    python ")]
    lines = [re.split(r"\s+#\s", line.strip())[0].strip() for line in found]
    return list(dict.fromkeys(line for line in lines
                              if re.match(r"(python|pytest)(\s|$)", line)))


def named_paths(text: str) -> set[str]:
    """The paths and file names a document names in code: words holding a `/` or ending
    with a file extension, placeholders (`<column>.txt`, globs, path/to/...) and fractions
    aside."""
    found = set()
    for chunk in code_chunks(text):
        for word in re.split(r"[\s=,;:()\"'（），：；、]+", re.split(r"\s+#\s", chunk)[0]):
            word = word.strip(".")
            if (not word or word.startswith(("-", "http")) or PLACEHOLDER.search(word)
                    or any(c in word for c in "*{}$|[]") or word[0].isdigit()):
                continue
            if "/" in word or re.search(r"\.(csv|gz|py|md|txt|json|ini|pdf|toml|mo)$", word):
                found.add(word)
    return found


# ------------------------------------------------------------------------------ the bundles


@pytest.fixture(scope="module", params=COURSES)
def course(request, tmp_path_factory: pytest.TempPathFactory):
    """(course folder, the unpacked bundle's folder, its rubric)."""
    folder = REPO / "courses" / request.param
    rubric = resolve(folder)[0]
    out = unpacked_bundle(tmp_path_factory, folder,  # the run's shared build, unpacked
                          tmp_path_factory.mktemp(f"bundle-{request.param}"))
    return request.param, out, rubric


def _documents(bundle: Path) -> dict[str, str]:
    return {name: (bundle / name).read_text(encoding="utf-8") for name in DOCUMENTS
            if (bundle / name).is_file()}


def test_every_path_the_documents_name_is_in_the_bundle(course) -> None:
    name, bundle, _ = course
    files = [p for p in bundle.rglob("*")]
    base = {p.name for p in files if p.is_file()}
    missing = []
    for document, text in _documents(bundle).items():
        for path in sorted(named_paths(text) - OUTPUTS):
            exists = (bundle / path).exists() if "/" in path.rstrip("/") else (
                path.rstrip("/") in base or (bundle / path).exists()
                or path.rstrip("/") == "kanon-hw1")  # the bundle's own folder
            if not exists:
                missing.append(f"{document}: {path}")
    assert missing == [], f"{name}: named but not in the bundle: {missing}"


# ------------------------------------------------------------------------------ the commands


def _known_good(bundle: Path, rubric, title: str) -> None:
    """The course's known-good functions imported into the bundle's own skeleton.py (its
    command line unchanged), and adult-hw1.csv cut to its first SAMPLE_ROWS rows."""
    (bundle / "known_good.py").write_text(solution_source(rubric, title), encoding="utf-8")
    skeleton = (bundle / "skeleton.py").read_text(encoding="utf-8")
    at = skeleton.rindex('if __name__ == "__main__":')
    (bundle / "skeleton.py").write_text(
        skeleton[:at] + "from known_good import *  # noqa: F401,F403\n\n\n" + skeleton[at:],
        encoding="utf-8")
    raw = bundle / "adult-hw1.csv"
    lines = raw.read_text(encoding="utf-8").splitlines(keepends=True)
    raw.write_text("".join(lines[:SAMPLE_ROWS + 1]), encoding="utf-8")


def _expected_header(rubric, bundle: Path, argv: list[str]) -> list[str]:
    """The released columns of the part a `python skeleton.py ...` line runs: the part whose
    folder it names (DGHs/<part>), else the first part of its function."""
    by_cli = {cli: function for function, cli in CLI_NAMES.items()}
    function = by_cli.get(argv[0], argv[0])
    folder = next((a for a in argv if a == "DGHs" or a.startswith("DGHs/")), "DGHs")
    parts = [p for p in rubric.auto_parts if p.function == function]
    part = next((p for p in parts if p.key == folder.partition("/")[2]), parts[0])
    with (bundle / "adult-hw1.csv").open(encoding="utf-8", newline="") as f:
        header = next(csv.reader(f))
    qis = [header.index(q) for q in (part.qis or ()) if q in header]
    return [header[c] for c in rubric.schema.released(header, qis)]


@pytest.fixture(scope="module")
def warm() -> Iterator[PytestServer]:
    """A warm pytest whose forks run the documented `pytest -k NAME` lines as `python -m pytest`
    does in the bundle (tests/kit/forked_pytest.py: only the start-up is shared; students'
    literal pytest commands run in test_bundle_selfcheck.py); the `python skeleton.py` lines
    run as they are."""
    server = PytestServer(REPO, dict(os.environ))
    yield server
    server.close()


def test_every_documented_command_runs_and_writes_the_released_columns(
        course, warm: PytestServer, tmp_path: Path) -> None:
    name, bundle, rubric = course
    _known_good(bundle, rubric, name)
    lines = list(dict.fromkeys(c for text in _documents(bundle).values()
                               for c in commands(text)))
    ran = []
    for line in lines:
        if PLACEHOLDER.search(line) or line.startswith(NOT_RUN):
            continue
        words = shlex.split(line)
        if words[0] == "pytest":
            if "-k" not in words:
                continue  # the whole self-check: test_bundle*.py run it
            done = warm.run([*words[1:], "--collect-only", "-q", *PYTEST_OPTIONS], bundle,
                            dict(os.environ), tmp_path / f"collect-{len(ran)}.out")
            assert done.returncode == 0 and re.search(r"^\d+/\d+ tests? collected|^\d+ tests? "
                                                      r"collected", done.stdout, re.M), (
                name, line, done.stdout[-800:])
            ran.append(line)
            continue
        before = {p.name: p.stat().st_mtime_ns for p in bundle.iterdir()}
        done = subprocess.run([sys.executable, *words[1:]], cwd=bundle, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, (name, line, done.stdout, done.stderr)
        ran.append(line)
        if words[2:] == ["--help"]:
            assert "python skeleton.py [-h]" in done.stdout, (name, line, done.stdout)
            folders = [f.path for f in view(rubric).part_folders]  # named by DGH-folder's help
            assert all(f in re.sub(r"-\s+", "-", done.stdout) for f in folders), done.stdout
            continue
        written = [w for w in words[2:] if w in OUTPUTS and (bundle / w).is_file()
                   and before.get(w) != (bundle / w).stat().st_mtime_ns]
        if words[2] in CLI_NAMES.values():  # a kit anonymizer: it writes its out.csv
            assert written, (name, line, done.stdout)
        if not written:  # reads an earlier command's output (cost_NCP): prints a number
            assert re.search(r"\d", done.stdout), (name, line, done.stdout)
            continue
        header = next(csv.reader(io.StringIO((bundle / written[0]).read_text("utf-8"))))
        assert header == _expected_header(rubric, bundle, words[2:]), (name, line, header)
    assert any(line.startswith("python skeleton.py") for line in ran), (name, lines)
