"""Running the students' self-check of a bundle on a single-bug mutant of the reference
(tests/kit/mutants.py) and reading its "public counterexample" sections (tests/public/
teach.py): used by tests/kit/publishing/test_selfcheck_counterexample.py and
bench/bench_selfcheck_teach.py."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from child_python import PYTEST_OPTIONS, compiled_env
from mutants import VARIANT_SOLUTION, Mutant, apply

KIT = Path(__file__).resolve().parents[2]
ALL = "grader/rubric-all.toml"  # every part: every mutant's function is graded
FUNCTIONS = {"cost_MD": "cost_MD", "cost_LM": "cost_LM", "random": "random_anonymizer",
             "clustering": "clustering_anonymizer", "bottomup": "bottomup_anonymizer",
             "samarati": "samarati", "mondrian": "mondrian", "topdown": "topdown_anonymizer",
             "datafly": "datafly", "entropy_l": "entropy_l", "t_closeness": "t_closeness",
             "greedy": "topdown_greedy", "kaca": "kaca"}
"""A mutant's marker -> the function it breaks."""
SECTION = re.compile(r"^-+ public counterexample -+$", re.M)
NAMED = re.compile(r"on which (\w+) and the handout's rules disagree|No public counterexample "
                   r"for (\w+)|makes (\w+) differ")
SPENT = re.compile(r"\(the search: (\d+) calls, ([\d.]+) s\)")


@dataclass
class Lesson:
    """One "public counterexample" section: the function it names, whether it shows a
    counterexample, the search's calls and seconds, its text."""

    function: str
    found: bool
    calls: int
    seconds: float
    text: str


def bundle(rubric: str, out: Path) -> Path:
    """The students' bundle of `rubric` (relative to the kit), unpacked in `out`; its
    folder."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "grader", "bundle", "--course", str(KIT / rubric),
                    "--out", str(out / "student.zip")], cwd=KIT, check=True,
                   capture_output=True)
    with zipfile.ZipFile(out / "student.zip") as archive:
        archive.extractall(out)
    return out / "kanon-hw1"


def lessons(stdout: str) -> list[Lesson]:
    """The sections of a pytest run's output."""
    found = []
    for match in SECTION.finditer(stdout):
        text = stdout[match.end():].split("\n_", 1)[0].split("\n----", 1)[0]
        named, spent = NAMED.search(text), SPENT.search(text)
        found.append(Lesson(next(g for g in named.groups() if g), "Expected" in text,
                            int(spent.group(1)), float(spent.group(2)), text.strip()))
    return found


def solution(mutant: Mutant | None, work: Path) -> Path:
    """The mutant's solution in `work` (the reference itself for None)."""
    if mutant is None:
        return KIT / "reference"
    package = apply(mutant, KIT / "reference", work)
    if mutant.course:
        path = work / "solution2025.py"
        path.write_text(VARIANT_SOLUTION, encoding="utf-8")
        return path
    return package


def run(folder: Path, answer: Path, tests: str | None = None, *options: str
        ) -> tuple[list[Lesson], float, str]:
    """The bundle's self-check (only the file `tests` when given, with pytest's `options`)
    on the solution `answer`: its sections, its wall time, its output."""
    env = compiled_env({k: v for k, v in os.environ.items()  # compiled modules: reused
                        if k not in ("KANON_SOLUTION", "KANON_COURSE_FILE")})
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", *PYTEST_OPTIONS, "-q",
                           f"--solution={answer}", *([tests] if tests else []), *options],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=900)
    return lessons(done.stdout), time.monotonic() - start, done.stdout


def caught_in(mutant: Mutant) -> str:
    """The public test file that catches `mutant`, relative to the bundle folder."""
    return "tests/public/" + mutant.caught_by.split("::")[0]
