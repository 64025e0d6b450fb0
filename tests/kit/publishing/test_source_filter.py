"""The bundle's public tests cut to a course's parts (grader/publishing/source_filter.py and
course_files.py): hand-made sources for each edit, then the Fall 2025 bundle, whose self-check
collects exactly the tests it collected before the cut and passes the course's solution."""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from unittest import mock

import pytest

from grader.publishing import bundle
from grader.publishing.course_files import renames
from grader.publishing.source_filter import decided, filter_source, filter_sources
from grader.zipfiles import zip_bytes

REPO = Path(__file__).resolve().parents[3]
KNOWN = frozenset({"cost_MD", "random_anonymizer", "samarati", "mondrian", "kaca"})
GRADED = frozenset({"cost_MD", "random_anonymizer"})

RUNS = '''RUNS = [
    # random: seeds
    Run("random_anonymizer", "a", 2),  # one
    # samarati: suppression
    Run("samarati", "a", 2,
        note="two lines"),
    # mondrian and random together
    Run("mondrian", "b", 2),
    Run("random_anonymizer", "b", 3),
]
'''


def test_a_literal_loses_other_parts_elements_and_their_group_comments() -> None:
    assert filter_source(RUNS, GRADED, KNOWN) == '''RUNS = [
    # random: seeds
    Run("random_anonymizer", "a", 2),  # one
    # mondrian and random together
    Run("random_anonymizer", "b", 3),
]
'''


def test_a_literal_whose_elements_share_lines_is_written_again() -> None:
    source = ('SHORT = {"cost_MD": "cost_MD", "random_anonymizer": "random",\n'
              '         "samarati": "samarati", "kaca": "kaca"}\n'
              'OPTIONAL = ("kaca", "samarati")\nONE = ("mondrian", "cost_MD")\n')
    assert filter_source(source, GRADED, KNOWN) == (
        'SHORT = {"cost_MD": "cost_MD", "random_anonymizer": "random"}\n'
        'OPTIONAL = ()\nONE = ("cost_MD",)\n')


def test_a_branch_a_course_decides_keeps_only_what_runs() -> None:
    source = '''def check(run):
    if run.function == "samarati":
        a = 1
    else:
        a = 2
    if a and run.function == "mondrian":
        a = 3
    if run.function in ("kaca", "mondrian"):
        a = 4
    elif run.function == "random_anonymizer":
        a = 5
    return a


def other(run):
    if run.function != "kaca":
        return 6
'''
    assert filter_source(source, GRADED, KNOWN) == '''def check(run):
    a = 2
    if run.function == "random_anonymizer":
        a = 5
    return a


def other(run):
    return 6
'''
    test = ast.parse('x == "samarati" or y', mode="eval").body
    assert decided(test, GRADED, KNOWN) is None  # y decides
    assert decided(ast.parse('x == "cost_MD"', mode="eval").body, GRADED, KNOWN) is None


def test_a_definition_only_the_cut_code_used_goes_with_its_docstring() -> None:
    checks = ('def check_k(rows):\n    return 1\n\n\n# for samarati\ndef check_sup(rows):\n'
              '    return 2\n\n\nTABLE = [check_sup]\n"""Its docstring."""\n\n\n'
              'def hook():\n    pass\n')
    user = ('import checks\n\n\ndef run(f):\n    if f == "samarati":\n'
            '        return checks.check_sup(1)\n    return checks.check_k(1)\n')
    kit = [checks, user, "import checks\nchecks.TABLE\n"]
    out = filter_sources({"checks.py": checks, "user.py": user}, GRADED, KNOWN, kit)
    assert out["user.py"] == 'import checks\n\n\ndef run(f):\n    return checks.check_k(1)\n'
    assert out["checks.py"] == 'def check_k(rows):\n    return 1\n\n\ndef hook():\n    pass\n'


def test_a_data_file_named_after_another_part_is_renamed() -> None:
    expected = "tests/public/data/expected/"
    names = [f"{expected}mondrian-adult-k8.csv.gz", f"{expected}random-adult-k8-s1.csv.gz",
             f"{expected}bottomup-adult-k16-l2.csv.gz", f"{expected}costs.json"]
    graded = frozenset({"cost_MD", "cost_LM", "random_anonymizer", "bottomup_anonymizer"})
    assert renames(names, graded) == {
        f"{expected}mondrian-adult-k8.csv.gz": f"{expected}anonymized-adult-k8.csv.gz"}


def _self_check(folder: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "KANON"))}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=900)
    return done.stdout + done.stderr


@pytest.mark.slow
def test_the_fall_2025_bundle_is_cut_and_its_self_check_loses_no_test(tmp_path: Path) -> None:
    course = REPO / "courses" / "fall2025"
    cut = tmp_path / "cut"
    whole = tmp_path / "whole"
    bundle.build(REPO, tmp_path / "cut.zip", course=course)
    with mock.patch.object(bundle, "course_entries", lambda entries, root, graded: entries):
        (tmp_path / "whole.zip").write_bytes(zip_bytes(bundle.collect(REPO, course=course)))
    for name, folder in (("cut.zip", cut), ("whole.zip", whole)):
        with zipfile.ZipFile(tmp_path / name) as archive:
            archive.extractall(folder)
    cut, whole = cut / bundle.DEFAULT_FOLDER, whole / bundle.DEFAULT_FOLDER
    public = cut / "tests" / "public"
    assert not (public / "data" / "index.json").exists()
    assert (public / "data" / "expected" / "anonymized-adult-k8.csv.gz").is_file()
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(public.glob("*.py")))
    assert not re.search(r"samarati|mondrian|bottomup|kaca|datafly|entropy|t_clos", text)

    def collected(folder: Path) -> list[str]:
        out = _self_check(folder, "--collect-only", "-q")
        return sorted(line for line in out.splitlines() if "::" in line)

    assert collected(cut) == collected(whole) != []
    solution = tmp_path / "solution.py"
    made = subprocess.run([sys.executable, "-m", "grader", "solution", "--course", str(course),
                           "--out", str(solution)], cwd=REPO, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    out = _self_check(cut, f"--solution={solution}")
    assert re.search(r"\b\d+ public tests passed, 0 failed", out), out[-3000:]
