"""Quality gate of the public self-check (tests/public/).

The public tests pass against the reference, fail cleanly (one line each, no collection error)
against the untouched skeleton.py and against a solution that dies on import, catch every
mutant of tests/kit/mutants.py with the test it names, work from a student bundle's root, and
their expected outputs are what the reference produces today.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Queue
from typing import Iterator

import pytest

from child_python import PYTEST_OPTIONS, compiled_env
from forked_pytest import PytestServer
from mutants import MUTANTS, VARIANT_SOLUTION, Mutant, apply

ROOT = Path(__file__).resolve().parents[3]
PUBLIC = ROOT / "tests" / "public"
NOT_GRADED = ("test_public_api.py::test_signature",  # pass on the untouched skeleton
              "test_public_functions.py::test_topdown_signature",
              "test_public_functions.py::test_datafly_signature",
              "test_public_functions.py::test_entropy_l_signature",
              "test_public_functions.py::test_t_closeness_signature",
              "test_public_functions.py::test_greedy_signature",
              "test_public_functions.py::test_kaca_signature")
OPTIONAL_MARKS = ("topdown", "datafly", "entropy_l", "t_closeness", "greedy", "kaca",
                  "lm-only")  # optional parts and variants the default course skips
FAST = list(PYTEST_OPTIONS)  # no cache files, no unrelated plugins (child_python.py)
SMALL = "not adult"
"""The small cases only (-k): where a claim is about how the self-check is started (a solution
named by the environment, a bundle's root, one that dies on import) or which tests a course's
rules keep, adult-hw1.csv's cases add nothing (test_public_tests_pass_against_the_reference
runs them on the reference)."""


CHILD: dict[str, pytest.TempPathFactory] = {}  # set by `compiled`: the run's temporaries


@pytest.fixture(autouse=True, scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every pytest this module starts reuses the run's compiled modules and rewritten tests
    (tests/kit/child_python.py)."""
    CHILD["factory"] = tmp_path_factory


SELF_CHECK_PRELOAD = ("multiprocessing", "pdb", "gzip", "tomllib",  # the self-check's imports
                      "kcheck.checks", "kcheck.compare", "kcheck.tables", "kcheck.teach_text",
                      "kcheck.pool", "kcheck.search", "kcheck.course_rules",
                      "kcheck.time_policy")  # its checker, from the kit's root
"""What a warm pytest imports once: what every self-check run imports from the standard
library and the kit root's checker (forked_pytest.py). Not pytest's installed plugins: a run
would warn that it cannot rewrite their asserts."""


@pytest.fixture(scope="module")
def warm() -> Iterator[PytestServer]:
    """A warm pytest whose forks run public tests as `python -m pytest` does (forked_pytest.py);
    the runs that show the command itself (against the reference, the skeleton, from a
    bundle's root) start `python -m pytest` as it is."""
    server = PytestServer(ROOT, public_env(), preload=SELF_CHECK_PRELOAD)
    yield server
    server.close()


@dataclass
class Report:
    """Outcome of one public-test run: test id ('file.py::name[param]') -> (outcome, message)."""

    results: dict[str, tuple[str, str]]
    stdout: str

    def with_outcome(self, outcome: str) -> list[str]:
        return sorted(t for t, (o, _) in self.results.items() if o == outcome)


def public_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a public-test run: this one's, with `env` and the run's compiled
    modules."""
    environment = {k: v for k, v in os.environ.items() if k != "KANON_SOLUTION"}
    environment.update(env or {})
    if CHILD:  # the run's compiled modules (and rewritten tests), reused
        environment = {**compiled_env(environment, CHILD["factory"])}
    return environment


def run_public(tmp: Path, *args: str, cwd: Path = ROOT, tests: Path | None = PUBLIC,
               env: dict[str, str] | None = None, server: PytestServer | None = None,
               forget: tuple[str, ...] = ()) -> Report:
    """Run the public tests (`tests`, else the configured testpaths) in a subprocess (or a
    fork of `server`'s, forgetting its preloaded `forget`) and parse its JUnit XML."""
    xml = tmp / f"report-{len(list(tmp.glob('report-*')))}.xml"
    environment = public_env(env)
    command = [*([str(tests)] if tests else []), *FAST, "-q", f"--junitxml={xml}", *args]
    if server:
        completed = server.run(command, cwd, environment, xml.with_suffix(".out"), forget)
    else:
        completed = subprocess.run([sys.executable, "-m", "pytest", *command], cwd=cwd,
                                   env=environment, capture_output=True, text=True, timeout=600)
    results: dict[str, tuple[str, str]] = {}
    for case in ET.parse(xml).iter("testcase"):
        module = case.get("classname", "").rsplit(".", 1)[-1]
        name = f"{module}.py::{case.get('name')}" if module else case.get("name", "")
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
                message = child.get("message", "")
        results[name] = (outcome, message.removeprefix("Failed: "))
    return Report(results, completed.stdout)


def course_file(tmp: Path, rubric_path: str) -> dict[str, str]:
    """The environment that makes the public tests use `rubric_path`'s course.json."""
    from grader.authoring import course_file as course_mod
    from grader import rubric
    path = tmp / f"course-{Path(rubric_path).stem}.json"
    path.write_text(course_mod.course_json(rubric.load(ROOT / rubric_path)), encoding="utf-8")
    return {"KANON_COURSE_FILE": str(path)}


@dataclass
class ReferenceRun:
    """The public tests run against the reference: its report, and the folder of its
    temporaries (--basetemp), which keeps every call's output."""

    report: Report
    basetemp: Path


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> ReferenceRun:
    """`python -m pytest tests/public --solution reference` under the course that grades every
    part (grader/rubric-all.toml), once: its report, and the reference's outputs it kept."""
    tmp = tmp_path_factory.mktemp("reference-run")
    basetemp = tmp / "basetemp"
    report = run_public(tmp, "--solution", "reference", f"--basetemp={basetemp}",
                        env=course_file(tmp, "grader/rubric-all.toml"))
    return ReferenceRun(report, basetemp)


def run_outputs(basetemp: Path, runs: list, short: dict[str, str]) -> dict[Path, bytes]:
    """The output of each Run (tests/public/public_cases.py) that a public-test run kept in
    `basetemp`: conftest.Runner calls it in a fresh folder `<marker>-<run id>0` of the run's
    temporaries and leaves its `anonymized.csv` there; Run.expected -> its bytes."""
    outputs = {}
    for run in runs:
        out = basetemp / f"{short[run.function]}-{run.id}0" / "anonymized.csv"
        if out.is_file():
            outputs[run.expected] = out.read_bytes()
    return outputs


@pytest.mark.slow
def test_public_tests_pass_against_the_reference(reference_run):
    """Under the course that grades every part (grader/rubric-all.toml): all pass, none is
    skipped or left out."""
    report = reference_run.report
    assert report.with_outcome("passed") == sorted(report.results)
    for marker in ("topdown", "datafly", "entropy_l", "t_closeness", "greedy", "kaca",
                   "mondrian", "bottomup"):
        assert any(marker in t for t in report.results), marker
    assert not any("lm-only" in t for t in report.results)  # not this course's rules
    assert len(report.results) >= 150
    assert (f"{len(report.results)} public tests passed, 0 failed \N{EM DASH} "
            f"the grader also runs hidden cases") in report.stdout
    assert "left out" not in report.stdout


@pytest.mark.slow
def test_default_course_leaves_out_the_parts_it_does_not_grade(tmp_path, warm):
    report = run_public(tmp_path, "--solution", "reference", "-k", SMALL, server=warm)
    assert report.results and report.with_outcome("passed") == sorted(report.results)
    assert not any(any(m in t for m in OPTIONAL_MARKS) for t in report.results)
    assert "public tests of parts or rule variants your course does not grade were left " \
           "out" in report.stdout


ONE_FILE_SOLUTION = """# The reference (a mutant's copy) as a one-file solution.
from reference import *  # noqa: F401,F403
from reference import datafly, entropy_l, kaca, t_closeness  # noqa: F401
from reference import topdown_anonymizer, topdown_greedy  # noqa: F401
"""


def one_file_solution(package: Path) -> Path:
    """A solution beside `package` that exports the package's functions: the self-check
    reads the imports of this one file (not those of each of the package's modules)."""
    path = package.parent / "solution.py"
    path.write_text(ONE_FILE_SOLUTION, encoding="utf-8")
    return path


def variant_solution(package: Path) -> Path:
    """A solution beside `package` (a copy of the reference) with the variants swapped in."""
    path = package.parent / "solution2025.py"
    path.write_text(VARIANT_SOLUTION, encoding="utf-8")
    return path


def course_skeleton(tmp: Path, rubric_path: str) -> Path:
    """The untouched skeleton.py of the course graded by `rubric_path`."""
    from grader.publishing.materials import course_materials
    from grader import rubric
    path = tmp / f"skeleton-{Path(rubric_path).stem}" / "skeleton.py"
    path.parent.mkdir()
    path.write_bytes(course_materials(rubric.load(ROOT / rubric_path), ROOT)["skeleton.py"])
    return path


@pytest.mark.slow
def test_fall_2025_course_runs_topdown_and_the_lm_only_variant(tmp_path, warm):
    package = tmp_path / "reference"
    shutil.copytree(ROOT / "reference", package, ignore=shutil.ignore_patterns("__pycache__"))
    for core in ("kanon", "kcheck"):
        shutil.copytree(ROOT / core, tmp_path / core, ignore=shutil.ignore_patterns("__pycache__"))
    report = run_public(tmp_path, f"--solution={variant_solution(package)}",
                        "-k", f"(clustering or topdown) and {SMALL}", server=warm,
                        env=course_file(tmp_path, "grader/rubric-2025.toml"))
    passed = report.with_outcome("passed")
    assert any("lm-only" in t for t in passed) and any("topdown" in t for t in passed)
    assert passed == sorted(report.results)
    runs = [t for t in report.results if "matches_reference" in t and "clustering" in t]
    assert runs and all("lm-only" in t for t in runs)  # the default distance's: left out
    on_skeleton = run_public(tmp_path, "-k", "topdown",
                             f"--solution={course_skeleton(tmp_path, 'grader/rubric-2025.toml')}",
                             env=course_file(tmp_path, "grader/rubric-2025.toml"), server=warm)
    assert on_skeleton.results and on_skeleton.with_outcome("failed") == sorted(
        t for t in on_skeleton.results if "signature" not in t)  # graded: a stub fails
    assert "all tests passed" not in report.stdout.lower()


@pytest.mark.slow
def test_untouched_skeleton_fails_every_graded_test_cleanly(tmp_path):
    report = run_public(tmp_path)  # the default solution: skeleton.py at the root
    assert not report.with_outcome("skipped")  # other parts are left out, not skipped
    graded = [t for t in report.results if not t.startswith(NOT_GRADED)]
    assert graded and report.with_outcome("failed") == sorted(graded)
    for test in graded:
        message = report.results[test][1]
        assert "\n" not in message and message.endswith(
            "is not implemented yet (it raises NotImplementedError)"), (test, message)
    assert f"{len(report.results) - len(graded)} public tests passed, " \
        f"{len(graded)} failed" in report.stdout


@pytest.mark.slow
@pytest.mark.parametrize("source, says", [
    ("import sys\nprint('running experiments')\nsys.exit(3)\n", "SystemExit: 3"),
    ("def cost_MD(:\n", "SyntaxError"),
    ("import pluggy\n", "pluggy is not available: this course allows only numpy and the "
                        "standard library (broken.py, line 1)"),  # installed here, not allowed
    ("import os\nimport pytest\n", "pytest is not available: this course allows only numpy "
                                    "and the standard library (broken.py, line 2)"),
])
def test_a_solution_that_dies_on_import_gets_one_clear_message(tmp_path, source, says, warm):
    solution = tmp_path / "broken.py"
    solution.write_text(source, encoding="utf-8")
    report = run_public(tmp_path, f"--solution={solution}", "-k",
                        f"(cost_MD or random) and {SMALL}", server=warm)
    assert report.results and report.with_outcome("failed") == sorted(report.results)
    messages = {message for _, message in report.results.values()}
    assert len(messages) == 1
    message = messages.pop()
    assert message.startswith("could not import broken.py: ") and says in message
    assert "\n" not in message


@pytest.mark.slow
def test_solution_from_environment_variable(tmp_path, warm):
    report = run_public(tmp_path, "-k", f"cost_LM and {SMALL}",
                        env={"KANON_SOLUTION": "reference"},
                        server=warm)
    assert report.results and report.with_outcome("passed") == sorted(report.results)


@pytest.mark.slow
def test_runs_from_a_student_bundle_root(tmp_path):
    bundle = tmp_path / "bundle"
    shutil.copytree(PUBLIC, bundle / "tests" / "public",
                    ignore=shutil.ignore_patterns("__pycache__", "make_expected.py"))
    for name in ("skeleton.py", "adult-hw1.csv"):
        shutil.copyfile(ROOT / name, bundle / name)
    shutil.copytree(ROOT / "DGHs", bundle / "DGHs")
    shutil.copytree(ROOT / "kcheck", bundle / "kcheck",  # the checker every bundle ships
                    ignore=shutil.ignore_patterns("__pycache__"))
    (bundle / "pytest.ini").write_text("[pytest]\ntestpaths = tests/public\n", encoding="utf-8")
    on_skeleton = run_public(tmp_path, "-k", f"mondrian and {SMALL}", cwd=bundle, tests=None)
    assert on_skeleton.results and on_skeleton.with_outcome("failed") == sorted(
        t for t in on_skeleton.results if not t.startswith(NOT_GRADED))
    on_reference = run_public(tmp_path, "-k", f"mondrian and {SMALL}",
                              f"--solution={ROOT / 'reference'}",
                              cwd=bundle, tests=None)
    assert on_reference.results.keys() == on_skeleton.results.keys()
    assert on_reference.with_outcome("passed") == sorted(on_reference.results)


@pytest.mark.slow
def test_expected_outputs_are_what_the_reference_produces(reference_run):
    """make_expected.py --check finds nothing stale: the reference's outputs of the Runs the
    public tests ran against it (reference_run) are taken from that run, the others (a rule
    variant that course does not grade) are computed here, as are the costs and measures."""
    spec = importlib.util.spec_from_file_location("make_expected", PUBLIC / "make_expected.py")
    make_expected = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_expected)
    given = run_outputs(reference_run.basetemp, make_expected.RUNS, make_expected.SHORT)
    assert given.keys() == {r.expected for r in make_expected.RUNS if r.variant is None}
    assert make_expected.stale(given) == []


MUTANT_PRELOAD = (*SELF_CHECK_PRELOAD,
                  "kanon.problem", "kanon.classes", "kanon.files", "kanon.privacy")  # the core
"""What the mutants' servers import once: also the kit's core the reference copy stands on
(the solution runs in pytest's process there); a mutant of the core forgets the kit's and
imports its own."""


@pytest.fixture(scope="module")
def mutant_reports(tmp_path_factory) -> dict[str, Report]:
    """Every mutant's report of the public test that should catch it, two runs at a time,
    each forked from a warm pytest (forked_pytest.py) and calling the mutant in pytest's own
    process (--in-process): what is claimed is the test's verdict, which the other tests
    here show is the same in a fresh `python -m pytest` with the solution in its child. The
    solution is one file importing the mutant's reference package, which stands on the kit's
    own core unless the patch is in the core (mutants.apply, core=False): per run, only the
    patched package is compiled and only that file's imports are read."""
    servers: Queue[PytestServer] = Queue()
    for _ in range(2):
        servers.put(PytestServer(ROOT, public_env(), preload=MUTANT_PRELOAD))

    def run(mutant: Mutant) -> Report:
        folder = tmp_path_factory.mktemp("mutant")
        package = apply(mutant, ROOT / "reference", folder, core=False)
        forget = ("kanon",) if (folder / "kanon").is_dir() else ()  # the mutant's own core
        server = servers.get()
        try:
            if mutant.course:  # a variant: the course's rules, the reference's variants
                return run_public(folder, f"--solution={variant_solution(package)}",
                                  "--in-process", tests=PUBLIC / mutant.caught_by,
                                  env=course_file(folder, mutant.course), server=server,
                                  forget=forget)
            return run_public(folder, f"--solution={one_file_solution(package)}",
                              "--in-process", tests=PUBLIC / mutant.caught_by, server=server,
                              env=course_file(folder, "grader/rubric-all.toml"),  # every part
                              forget=forget)
        finally:
            servers.put(server)

    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            return dict(zip((m.name for m in MUTANTS), pool.map(run, MUTANTS)))
    finally:
        while not servers.empty():
            servers.get().close()


@pytest.mark.slow
@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_is_caught_by_a_public_test(mutant, mutant_reports):
    report = mutant_reports[mutant.name]
    assert list(report.results) == [mutant.caught_by]
    outcome, message = report.results[mutant.caught_by]
    assert outcome == "failed" and "\n" not in message, (outcome, message)
    assert "Warning" not in report.stdout  # e.g. a preloaded plugin pytest cannot rewrite


def test_at_least_eight_mutants_over_every_function():
    assert len(MUTANTS) >= 8
    assert {m.marker for m in MUTANTS} == {"cost_MD", "cost_LM", "random", "clustering",
                                           "bottomup", "samarati", "mondrian", "topdown",
                                           "datafly", "entropy_l", "t_closeness", "greedy",
                                           "kaca"}
    assert sum(m.marker == "topdown" for m in MUTANTS) >= 2
    for optional in ("datafly", "entropy_l", "t_closeness", "greedy", "kaca"):
        assert sum(m.marker == optional for m in MUTANTS) >= 2
    assert any(m.course for m in MUTANTS)  # the LM-only variant
