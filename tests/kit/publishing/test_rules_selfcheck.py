"""A rules-judged course's own self-check (grader/publishing/rules_selfcheck.py): the USTC
bundle ships cases drawn from the course's public data with the staff's Samarati facts and
the stdlib rule checkers, not the kit's default-contract tests; every other course's bundle
is left as it was. End to end: the staff solution and right-but-different students pass,
single-bug students fail naming the broken rule."""
from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from child_python import compiled_env
from forked_pytest import PytestServer
from rules_students import source
from shared_bundles import unpacked_bundle

from grader.courses.folder import resolve
from grader.courses.solution import solution_source
from grader.publishing import bundle
from grader.publishing.rules_selfcheck import DATA, OWN_TEST, rule_parts, rules_entries

REPO = Path(__file__).resolve().parents[3]
USTC = REPO / "courses" / "ustc"
PUBLIC = USTC / "cases" / "public" / "adult"


@pytest.fixture(scope="module")
def ustc_entries() -> dict[str, bytes]:
    """The USTC bundle's files (bundle.collect), name -> bytes: collected once, read by many."""
    return {e.name: e.data for e in bundle.collect(REPO, "", USTC)}


@pytest.fixture(scope="module")
def shipped(ustc_entries: dict[str, bytes]) -> dict[str, bytes]:
    """The rules self-check's data in the bundle (rules_entries), by name under DATA."""
    return {name[len(DATA):]: data for name, data in ustc_entries.items()
            if name.startswith(DATA)}


def test_a_rules_course_gets_kcheck_rules_as_it_is(ustc_entries: dict[str, bytes]) -> None:
    """The self-check judges with kcheck.rules: the bundle carries kcheck/ as it is, rules/
    included, byte for byte, with the compiled catalog of the course's language (USTC's is
    zh-CN), and no checker of its own."""
    top = ustc_entries
    shipped = sorted(n for n in top if n.startswith("kcheck/"))
    kit = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "kcheck").rglob("*.py")
                 if "__pycache__" not in p.parts) + ["kcheck/locale/zh_CN/LC_MESSAGES/kcheck.mo"]
    kit.sort()
    assert "kcheck/rules/samarati.py" in kit and shipped == kit
    for name in shipped:
        assert top[name] == (REPO / name).read_bytes(), name
    assert not any(n.startswith("tests/public/rules_") and n != "tests/public/rules_cases.py"
                   for n in top)


def test_only_a_rules_course_gets_the_rules_self_check(ustc_entries: dict[str, bytes]
                                                       ) -> None:
    for course in ("default", "fall2025", "all"):
        rubric, _ = resolve(REPO / "courses" / course)
        assert rule_parts(rubric) == [] and rules_entries(rubric) == []
        names = {e.name for e in bundle.collect(REPO, "", REPO / "courses" / course)}
        assert OWN_TEST not in names and not any(n.startswith(DATA) for n in names)
    entries = ustc_entries
    names = set(entries)
    public = sorted(n for n in names if n.startswith("tests/public/test_"))
    assert public == ["tests/public/test_public_functions.py", OWN_TEST]  # not the API's
    functions = json.loads(entries["tests/public/data/functions.json"])["functions"]
    assert {f: spec["checks"] for f, spec in functions.items()} == {
        "samarati": ["rules"], "mondrian": ["rules"]}  # no default-contract generic test
    assert not any(n.startswith(("tests/public/data/cases/", "tests/public/data/expected/"))
                   for n in names)


def test_the_cases_come_from_the_public_data_with_each_parts_qis(shipped, ustc_entries) -> None:
    raw = (PUBLIC / "adult-hw1.csv").read_bytes()
    assert gzip.decompress(shipped["adult-hw1.csv.gz"]) == raw
    lines = raw.decode("utf-8").splitlines()
    cases = json.loads(shipped["cases.json"])
    rubric, _ = resolve(USTC)
    top = ustc_entries
    assert not any("/DGHs/" in n for n in shipped)  # no second copy: the bundle's DGHs/<part>
    for part in rule_parts(rubric):
        dghs = sorted(n for n in top if n.startswith(f"DGHs/{part.key}/"))
        assert dghs == sorted(f"DGHs/{part.key}/{q}.txt" for q in part.qis)
        for name in dghs:
            assert top[name] == (PUBLIC / "DGHs" / Path(name).name).read_bytes()
        mine = [c for c in cases["cases"] if c["part"] == part.key]
        assert {c["dghs"] for c in mine} == {f"../../../../DGHs/{part.key}"}  # from DATA
        assert (Path("/b") / DATA / mine[0]["dghs"]).resolve() == Path(f"/b/DGHs/{part.key}")
        assert [c["case"] for c in mine] == ["rows24", "rows40", "rows60"] + \
            ["adult"] * sum(not c.hidden and c.expect is None for c in part.cases)
        for case in mine:
            header = lines[0].split(",")
            assert case["columns"] == [h for h in header if h in part.qis or h == "occupation"]
    for size in (24, 40, 60):  # rows of the public file, in its order
        rows = shipped[f"raw/rows{size}.csv"].decode("utf-8").splitlines()
        assert rows[0] == lines[0] and len(rows) == size + 1
        where = [lines.index(r) for r in rows[1:]]
        assert where == sorted(where)


def test_the_public_cases_ship_no_answer(shipped) -> None:
    """The self-check judges each output by the rules, as the grader does: a case holds its
    call and its released columns, never an answer (Samarati's lowest height or vectors)."""
    keys = {"part", "function", "qis", "columns", "dghs", "optional", "case", "raw", "k",
            "rows"}
    for case in json.loads(shipped["cases.json"])["cases"]:
        assert set(case) == keys | ({"max_sup"} if case["function"] == "samarati" else set())


# ---------------------------------------------------------------------- end to end (slow)


CHILD: dict[str, pytest.TempPathFactory] = {}  # set by `unpacked`: the run's temporaries


def _student_env() -> dict[str, str]:
    """A student's environment (no pytest or kit variables), with the run's compiled modules
    and rewritten tests reused (child_python.py)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "KANON"))}
    return compiled_env(env, CHILD["factory"]) if CHILD else env


def _self_check(folder: Path, solution: Path, *args: str,
                server: PytestServer | None = None) -> str:
    """What `python -m pytest --solution=SOLUTION ARGS` prints in the bundle `folder`: a
    fresh process, or a fork of the warm `server` (forked_pytest.py) when given."""
    command = ["-p", "no:cacheprovider", f"--solution={solution}", *args]
    if server is None:
        done = subprocess.run([sys.executable, "-m", "pytest", *command], cwd=folder,
                              env=_student_env(), capture_output=True, text=True,
                              timeout=1200)
        return done.stdout + done.stderr
    handle, name = tempfile.mkstemp(suffix=".out")
    os.close(handle)
    try:
        return server.run(command, folder, _student_env(), Path(name)).stdout
    finally:
        os.unlink(name)


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    CHILD["factory"] = tmp_path_factory
    return unpacked_bundle(tmp_path_factory, USTC, tmp_path_factory.mktemp("ustc") / "u")


@pytest.fixture(scope="module")
def warm(unpacked: Path) -> Iterator[PytestServer]:
    """A warm pytest whose forks run the bundle's self-check as `python -m pytest` does
    (forked_pytest.py): for the other students' runs; the staff solution's run starts
    `python -m pytest` as it is."""
    server = PytestServer(unpacked, _student_env())
    yield server
    server.close()


@pytest.mark.slow
def test_the_staff_solution_and_right_but_different_students_pass(
        unpacked: Path, tmp_path: Path, warm: PytestServer) -> None:
    solution = tmp_path / "solution.py"  # what `python -m grader solution --course` writes
    solution.write_text(solution_source(resolve(USTC)[0], "course ustc"), encoding="utf-8")
    student = tmp_path / "student.py"  # another samarati vector, the narrowest cut first
    student.write_text(source(None), encoding="utf-8")
    for who, server in ((solution, None), (student, warm)):  # the literal command, a fork
        out = _self_check(unpacked, who, server=server)
        assert "公开测试：21 个通过，0 个未通过" in out, out[-3000:]  # the course's language


SINGLE_BUGS = [
    ("higher", "samarati", "lowest-height"),
    ("satisfies", "samarati", "satisfies"),
    ("keep-outliers", "samarati", "deletion"),
    ("not-full-domain", "samarati", "full-domain"),
    ("all-columns", "samarati", "columns"),
    ("all-columns", "mondrian", "columns"),
    ("k-1", "mondrian", "k"),
    ("upper-median", "mondrian", "median-cuts"),
    ("stop-early", "mondrian", "final"),
]
RUNS: dict[str, str] = {}  # a bug -> its self-check's output, shared by its functions' tests


def _bug_run(folder: Path, work: Path, bug: str, server: PytestServer) -> str:
    """The self-check of the student with `bug`, on the small cases ("rows") of every function
    the bug is listed for: run once, read by each of those functions' tests."""
    if bug not in RUNS:
        functions = sorted({f for b, f, _ in SINGLE_BUGS if b == bug})
        student = work / "student.py"
        student.write_text(source(bug), encoding="utf-8")
        RUNS[bug] = _self_check(folder, student, "-k", f"({' or '.join(functions)}) and rows",
                                server=server)
    return RUNS[bug]


@pytest.mark.slow
@pytest.mark.parametrize("bug, function, rule", SINGLE_BUGS)
def test_a_single_bug_fails_naming_its_rule(unpacked: Path, tmp_path: Path, bug: str,
                                            function: str, rule: str,
                                            warm: PytestServer) -> None:
    out = _bug_run(unpacked, tmp_path, bug, warm)
    failures = [line for line in out.splitlines()  # "用例 'rows24' 上的 samarati(k=2, ...": ..."
                if re.match(rf"用例 '\w+' 上的 {function}\(k=", line) and "违反了规则" in line]
    assert failures and all(f'“{rule}”' in line for line in failures), out[-3000:]
    assert "违反了规则" in failures[0]  # in the course's language
