"""Every text a course's students get is that course's (issue 25, item 3). For each example
course the bundle is built, and every file of it (its name, and its words when it is text:
HANDOUT.md, skeleton.py, the public tests' code and comments, their data and data files'
names) and the self-check's messages (on the untouched skeleton, and on a file that defines
nothing) are read: no word that belongs only to parts the course does not grade, no mention of
another term or course or of the kit's own decisions, no staff-only tool, no graded part called
optional, and the function count the rubric gives."""
from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from child_python import compiled_env
from shared_bundles import skeleton_self_check, unpacked_bundle

from grader.publishing.materials import view
from grader.publishing.materials.handout import WORDS as NUMBER_WORDS
from grader.rubric import load

pytestmark = pytest.mark.slow  # every course's materials built and read

REPO = Path(__file__).resolve().parents[3]
COURSES = ("grader/rubric.toml", "grader/rubric-2025.toml", "grader/rubric-all.toml",
           "examples/rubric.toml")
L_PARAMETER = r"(?-i:(?<![\w'’.`-])l(?![\w'’-]))|`l`"  # the letter l alone, as a variable
S_PARAMETER = r"`s`|\bs = \d|\bs=\d|\bseed\b"
# A word (regular expression, case-insensitive) -> the parts it belongs to: it may appear only
# in a course that grades one of them.
OWNED: dict[str, tuple[str, ...]] = {
    r"l-divers|distinct l\b|\bentropy l\b": ("bottomup_anonymizer", "entropy_l"),
    L_PARAMETER: ("bottomup_anonymizer", "entropy_l"),
    r"bottom-up|bottomup": ("bottomup_anonymizer",),
    r"samarati|max_sup": ("samarati",),
    r"suppress": ("samarati", "datafly"),
    S_PARAMETER: ("random_anonymizer",),
    r"mondrian|median": ("mondrian",),
    r"centroid": ("clustering_anonymizer",),
    r"top-?down": ("topdown_anonymizer", "topdown_greedy"),
    r"topdown_greedy|\bNCP\b": ("topdown_greedy",),
    r"lattice": ("bottomup_anonymizer", "samarati", "datafly", "kaca"),
    r"datafly": ("datafly",),
    r"\bkaca\b|\bWHD\b": ("kaca",),
    r"entropy": ("entropy_l",),
    r"t-close|t_close|earth mover|\bEMD\b": ("t_closeness",),
}
SHARED = ("tests/public/kanon_check.py", "kcheck/")
"""The checker every course's self-check shares, shipped as it is (issue 39, item 2: bundles
differ by data alone): its code names every rule it can check. What it tells students is
read below all the same, in the self-check's output."""
ELSEWHERE = [  # another term or course, the kit's decision history, a staff-only tool
    r"\b(fall|spring|summer|winter) (19|20)\d\d\b", r"\bother (courses?|terms?|years?)\b",
    r"\b(another|previous|last|older|earlier) (course|term|year|semester)",
    r"\byear's\b", r"\bthe kit\b", r"reference\.check", r"python -m reference",
    r"\bthe checker\b", r"optional part",
]
SKIP_ENV = ("PYTEST", "KANON")


def _self_check(folder: Path, *args: str) -> str:
    env = compiled_env({k: v for k, v in os.environ.items()  # compiled modules: reused
                        if not k.startswith(SKIP_ENV)})
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    return done.stdout + done.stderr


@pytest.fixture(scope="module", params=COURSES)
def texts(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The course's graded functions and every text its students get, by name."""
    rubric = REPO / request.param
    base = tmp_path_factory.mktemp(Path(request.param).stem)
    folder = unpacked_bundle(tmp_path_factory, rubric, base)  # built once per run
    (base / "nothing.py").write_text("X = 1\n", encoding="utf-8")
    found = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        try:  # every file's name and, when it is text, its words (code, comments, data)
            found[name] = name + "\n" + path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            found[name] = name  # a compressed expected output: its name only
    # the run's one self-check on this bundle's skeleton (test_courses.py reads it too)
    found["self-check on skeleton.py"] = skeleton_self_check(tmp_path_factory, rubric).output
    found["self-check on nothing.py"] = _self_check(folder, f"--solution={base / 'nothing.py'}")
    return {"graded": set(view(load(rubric)).names), "texts": found}


@functools.lru_cache(maxsize=None)  # a file every course ships alike is read once
def _hits(pattern: str, text: str) -> list[str]:
    return [text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ")
            for m in re.finditer(pattern, text, re.I)]


def test_no_word_of_a_part_the_course_does_not_grade(texts: dict) -> None:
    graded = texts["graded"]
    found = {(name, pattern): _hits(pattern, text)[:2]
             for name, text in texts["texts"].items() if not name.startswith(SHARED)
             for pattern, owners in OWNED.items() if not graded & set(owners)}
    assert not {k: v for k, v in found.items() if v}


def test_no_other_term_no_history_no_staff_tool(texts: dict) -> None:
    found = {(name, pattern): _hits(pattern, text)[:2]
             for name, text in texts["texts"].items() for pattern in ELSEWHERE}
    assert not {k: v for k, v in found.items() if v}


def test_the_self_check_counts_the_courses_functions(texts: dict) -> None:
    count = NUMBER_WORDS[len(texts["graded"])]
    out = texts["texts"]["self-check on nothing.py"]
    assert f"nothing.py has no function cost_MD; keep the {count} signatures of skeleton.py" \
        in out, out[-2000:]
    assert f"You implement {count} function" in texts["texts"]["HANDOUT.md"]


def test_the_vocabulary_finds_what_it_looks_for() -> None:
    """Each pattern matches the word it stands for (so a pass above means something)."""
    samples = {L_PARAMETER: "needs l = 2", S_PARAMETER: "with s = 7",
               r"suppress": "rows are suppressed"}
    for pattern, sample in samples.items():
        assert _hits(pattern, sample), pattern
    samples = {r"top-?down": "topdown_anonymizer", r"lattice": "smallest lattice vector",
               r"t-close|t_close|earth mover|\bEMD\b": "t_closeness"}
    for pattern, sample in samples.items():
        assert pattern in OWNED and _hits(pattern, sample), pattern
    assert not _hits(L_PARAMETER, "10 s per call, it'll, l-values, U and L")
    assert _hits(ELSEWHERE[0], "The Fall 2025 handout says only")
    assert _hits(ELSEWHERE[1], "other courses add a depth term")
