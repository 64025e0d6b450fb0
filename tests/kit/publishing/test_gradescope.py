"""The Gradescope autograder (`python -m grader gradescope`): the zip's layout, and the unpacked
autograder run locally (KANON_AUTOGRADER_ROOT) on the example submissions, checking
results.json against Gradescope's format and against `python -m grader grade`."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from child_python import compiled_env
from shared_bundles import course_autograder

from grader.publishing import gradescope

VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}
TEST_KEYS = {"score", "max_score", "name", "number", "output", "tags", "visibility", "status",
             "extra_data", "name_format", "output_format"}
TOP_KEYS = {"score", "execution_time", "output", "visibility", "stdout_visibility", "extra_data",
            "tests", "leaderboard", "output_format", "test_output_format", "test_name_format"}

# A small rubric over cases whose expected outputs the kit already stores: two public cases,
# one hidden case (its visibility defaults to after_published). Fast to grade.
SMALL_RUBRIC = """\
[settings]
cases_dir = "{cases}"   # rewritten to "cases" inside the autograder

[[part]]
function = "cost_MD"
points = 4

[[part.case]]
name = "adult-hw1, generalized levels"
data = "public/adult"
anonymized = "anonymized/levels.csv"

[[part]]
function = "random_anonymizer"
points = 5

[[part.case]]
name = "adult-hw1, k=4, s=7"
data = "public/adult"
k = 4
s = 7

[[part]]
function = "mondrian"
points = 6

[[part.case]]
name = "ties, k=35 (n=36)"
data = "hidden/ties"
k = 35
hidden = true
"""


def kit_env() -> dict[str, str]:
    return compiled_env(dict(os.environ, PYTHONPATH=str(gradescope.TEMPLATES.parents[2])))


def build_cli(out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", "gradescope", "--out", str(out), *extra],
                          env=kit_env(), capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def autograder_zip(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default course's autograder, shared by the run (the same bytes as `python -m grader
    gradescope --out` without a course: test_zip_is_deterministic builds that and compares)."""
    return course_autograder(tmp_path_factory, repo / "courses" / "default")


@pytest.fixture(scope="module")
def small_zip(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("small")
    rubric = folder / "rubric.toml"
    rubric.write_text(SMALL_RUBRIC.format(cases=(repo / "grader" / "cases").as_posix()),
                      encoding="utf-8")
    # in process, as the command builds it (the command itself runs in the two tests below)
    gradescope.build(repo, folder / "autograder.zip", rubric)
    return folder / "autograder.zip"


def unpack(zip_path: Path, root: Path) -> Path:
    """Lay out an /autograder root as Gradescope does: the zip's contents in source/."""
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(root / "source")
        for info in archive.infolist():  # zipfile drops permission bits; restore them
            os.chmod(root / "source" / info.filename, (info.external_attr >> 16) & 0o777)
    (root / "submission").mkdir()
    return root


def extract_submission(zip_path: Path, dest: Path) -> None:
    """Gradescope unpacks an uploaded zip into /autograder/submission."""
    with zipfile.ZipFile(zip_path) as archive:
        for info in archive.infolist():
            archive.extract(info, dest)


def run_autograder(root: Path, python: str = sys.executable, sandbox: str = "auto",
                   run_as: str | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    env = dict(os.environ, KANON_AUTOGRADER_ROOT=str(root), KANON_AUTOGRADER_PYTHON=python,
               KANON_AUTOGRADER_SANDBOX=sandbox)
    if run_as is not None:
        env["KANON_AUTOGRADER_RUN_AS"] = run_as
    env.pop("PYTHONPATH", None)  # the autograder must run from its own source/ folder
    done = subprocess.run([str(root / "source" / "run_autograder")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=900)
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    return done, results


def check_format(results: dict) -> None:
    """results.json as Gradescope's specification describes it."""
    assert set(results) <= TOP_KEYS, set(results) - TOP_KEYS
    assert isinstance(results["score"], (int, float))
    assert isinstance(results["execution_time"], int) and results["execution_time"] >= 0
    assert isinstance(results["output"], str)
    assert results["stdout_visibility"] in VISIBILITIES
    assert results.get("visibility", "visible") in VISIBILITIES
    assert isinstance(results["tests"], list)
    for test in results["tests"]:
        assert set(test) <= TEST_KEYS, set(test) - TEST_KEYS
        assert isinstance(test["name"], str) and test["name"]
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"],
                                                                       (int, float))
        assert 0 <= test["score"] <= test["max_score"] + 1e-9
        assert test["status"] in ("passed", "failed")
        assert isinstance(test["output"], str)
        assert test["visibility"] in VISIBILITIES
    assert abs(sum(t["score"] for t in results["tests"]) - results["score"]) < 1e-3


# ------------------------------------------------------------------------------ the zip


@pytest.mark.slow
def test_zip_has_gradescope_layout_and_only_what_grading_needs(autograder_zip: Path) -> None:
    with zipfile.ZipFile(autograder_zip) as archive:
        infos = {i.filename: i for i in archive.infolist()}
        setup = archive.read("setup.sh").decode()
        run = archive.read("run_autograder").decode()
        requirements = archive.read("requirements.txt").decode()
        rubric = archive.read("grader/rubric.toml").decode()
    for name in ("setup.sh", "run_autograder"):
        assert (infos[name].external_attr >> 16) & 0o777 == 0o755
    assert setup.startswith("#!/usr/bin/env bash") and run.startswith("#!/usr/bin/env bash")
    assert "python3.11" in setup and "deadsnakes" in setup and "KANON_AUTOGRADER_ROOT" in run
    assert requirements.split() == ["numpy>=1.24", "pypdf>=4"]  # pypdf: the report's pages
    assert 'cases_dir = "cases"' in rubric
    names = set(infos)
    assert {"grader/grading/runner.py", "grader/gradebook/export.py", "grader/sandbox/worker.py",
            "grader/cases/manifest.json"} <= names
    assert not any(n.startswith("reference/") for n in names)  # no algorithm, no staff solution
    assert {"kanon/__init__.py", "kanon/cells.py", "kanon/table.py",
            "kanon/privacy/__init__.py", "kcheck/quality.py"} <= names  # the core, whole
    assert not any(n.startswith(("tests/", "examples/")) or n in ("skeleton.py", "HANDOUT.md")
                   or "__pycache__" in n for n in names)
    assert {i.date_time for i in infos.values()} == {(1980, 1, 1, 0, 0, 0)}


@pytest.mark.slow
def test_zip_is_deterministic(autograder_zip: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.zip"
    assert build_cli(again).returncode == 0
    assert again.read_bytes() == autograder_zip.read_bytes()


def test_stale_cases_are_refused_with_one_line(repo: Path, tmp_path: Path) -> None:
    rubric = tmp_path / "rubric.toml"
    text = SMALL_RUBRIC.format(cases=(repo / "grader" / "cases").as_posix())
    rubric.write_text(text.replace("k = 35", "k = 34"), encoding="utf-8")  # never computed
    out = tmp_path / "autograder.zip"
    done = build_cli(out, "--rubric", str(rubric))
    assert done.returncode == 2
    assert done.stderr.startswith("error: the cases of ") and "grader regen" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not out.exists()


# ------------------------------------------------------------------------------ running it


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_correct_submission_gets_full_marks(repo: Path, autograder_zip: Path, tmp_path: Path,
                                            sandbox: str) -> None:
    """alice (a macOS zip, unpacked as Gradescope does) with bubblewrap when available, and
    without it (as in most hosted containers)."""
    root = unpack(autograder_zip, tmp_path / "autograder")
    extract_submission(repo / "examples" / "submissions" / "alice.zip", root / "submission")
    done, results = run_autograder(root, sandbox=sandbox)
    assert done.returncode == 0, done.stdout + done.stderr
    check_format(results)
    from grader.rubric import load
    rubric = load(repo / "grader" / "rubric.toml")
    assert results["score"] == pytest.approx(rubric.auto_points)  # Gradescope grades the report
    assert sum(t["max_score"] for t in results["tests"]) == pytest.approx(rubric.auto_points)
    assert len(results["tests"]) == len(rubric.cases()) + len(rubric.manual_parts)
    assert all(t["status"] == "passed" for t in results["tests"] if t["max_score"] > 0)
    staff = [t for t in results["tests"] if t["max_score"] == 0]
    assert [t["name"] for t in staff] == ["report: graded by course staff on Gradescope"]
    hidden = [t for t in results["tests"] if "hidden case" in t["name"]]
    assert hidden and all(t["visibility"] == "after_published" for t in hidden)
    assert all(t["visibility"] == "visible" for t in results["tests"] if t not in hidden)
    if os.geteuid() == 0:  # as on Gradescope: what student code never needs is root-only
        for folder in (root / "source" / "grader" / "cases", root / "submission"):
            assert all(p.lstat().st_mode & 0o077 == 0 for p in [folder, *folder.rglob("*")])
        assert "run as" in done.stdout


def without_times(tests: list[dict]) -> list[dict]:
    """The tests with their measured CPU times masked (they differ from run to run)."""
    return [{**t, "output": re.sub(r"Time: [0-9.]+ s of", "Time: _ s of", t["output"])}
            for t in tests]


@pytest.mark.slow
def test_same_results_as_grader_grade(repo: Path, small_zip: Path, tmp_path: Path) -> None:
    """bob (partly wrong, a folder) through the autograder and through `grader grade`."""
    root = unpack(small_zip, tmp_path / "autograder")
    shutil.copytree(repo / "examples" / "submissions" / "bob", root / "submission",
                    dirs_exist_ok=True)
    done, results = run_autograder(root, sandbox="none")
    assert done.returncode == 0, done.stdout + done.stderr
    check_format(results)

    subs = tmp_path / "subs"
    shutil.copytree(repo / "examples" / "submissions" / "bob", subs / "bob")
    # `grader grade` in process (its command line runs in tests/kit/cli and the docs' tests)
    from grader import cli
    assert cli.main(["grade", str(subs), "--out", str(tmp_path / "out"), "--jobs", "1",
                     "--quiet", "--sandbox", "none", "--rubric",
                     str(root / "source" / "grader" / "rubric.toml")]) == 0
    local = json.loads((tmp_path / "out" / "results" / "bob" / "results.json").read_text())
    assert without_times(results["tests"]) == without_times(local["tests"])
    assert results["score"] == local["score"]
    statuses = {t["name"]: t["status"] for t in results["tests"]}
    assert statuses["mondrian: hidden case: ties, k=35 (n=36)"] == "failed"  # not attempted
    assert statuses["cost_MD: adult-hw1, generalized levels"] == "passed"
    assert statuses["random_anonymizer: adult-hw1, k=4, s=7"] == "passed"
    assert results["score"] == pytest.approx(4.0 + 5.0)


@pytest.mark.slow
def test_crashing_submission_still_gets_results(repo: Path, small_zip: Path,
                                                tmp_path: Path) -> None:
    """oscar's code crashes (os._exit, segfault); uploaded as one zip, kept as a zip."""
    root = unpack(small_zip, tmp_path / "autograder")
    shutil.copyfile(repo / "examples" / "submissions" / "oscar.zip",
                    root / "submission" / "oscar.zip")
    done, results = run_autograder(root, sandbox="none")
    assert done.returncode == 0, done.stdout + done.stderr
    check_format(results)
    assert len(results["tests"]) == 3
    assert results["output"].startswith("Status: crash")
    random = next(t for t in results["tests"] if t["name"].startswith("random_anonymizer"))
    assert random["status"] == "failed" and random["score"] == 0
    assert "exit code 3" in random["output"]
    assert results["score"] == pytest.approx(4 + 6)  # cost_MD and mondrian still count


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_forbidden_reads_are_refused_as_in_grader_grade(repo: Path, small_zip: Path,
                                                        tmp_path: Path, sandbox: str) -> None:
    """judy looks for the grader's expected outputs; she must not score from them, whether
    bubblewrap is available (auto) or not (none, as in most hosted containers)."""
    root = unpack(small_zip, tmp_path / "autograder")
    extract_submission(repo / "examples" / "submissions" / "judy.zip", root / "submission")
    # without bubblewrap, as root: the guard must catch her (as `nobody`, which run_as gives
    # when the tests run as root, she could not even look at the grader's working folder)
    done, results = run_autograder(root, sandbox=sandbox,
                                   run_as="none" if sandbox == "none" else None)
    check_format(results)
    mondrian = next(t for t in results["tests"] if t["name"].startswith("mondrian"))
    assert mondrian["status"] == "failed" and mondrian["score"] == 0
    # bubblewrap hides the cases (she finds nothing and raises; a hidden case shows the type,
    # not her message); without it the guard refuses the read
    assert ("forbidden" in results["output"]) != (
        "raised FileNotFoundError at skeleton.py, line " in mondrian["output"])
    assert "no expected outputs" not in mondrian["output"]
    if sandbox == "none":
        assert "forbidden" in results["output"] and "refused" in mondrian["output"]


def test_grader_failure_still_writes_results(small_zip: Path, tmp_path: Path) -> None:
    root = unpack(small_zip, tmp_path / "autograder")
    (root / "submission" / "skeleton.py").write_text("x = 1\n", encoding="utf-8")
    (root / "source" / "grader" / "rubric.toml").write_text("[settings\n", encoding="utf-8")
    done, results = run_autograder(root)
    assert done.returncode == 0
    check_format(results)
    assert results["score"] == 0 and results["tests"] == []
    assert "course staff" in results["output"] and "not valid TOML" in done.stdout


def test_dead_interpreter_still_writes_results(small_zip: Path, tmp_path: Path) -> None:
    root = unpack(small_zip, tmp_path / "autograder")
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\nexit 3\n", encoding="utf-8")
    broken.chmod(0o755)
    done, results = run_autograder(root, python=str(broken))
    assert done.returncode == 0 and "status 3" in done.stdout
    assert results["score"] == 0.0 and results["tests"] == []
    assert results["stdout_visibility"] == "hidden"


def test_empty_submission_scores_zero(small_zip: Path, tmp_path: Path) -> None:
    root = unpack(small_zip, tmp_path / "autograder")
    done, results = run_autograder(root)
    check_format(results)
    assert results["score"] == 0 and "Nothing was submitted" in results["output"]


# ------------------------------------------------------------------------------ setup.sh

APT_STUB = """#!/bin/bash
echo "apt-get $*" >> "$STUB_DIR/log"
case " $* " in
  *" python3.11 "*)
    if [ -n "${STUB_APT_LACKS_PY311:-}" ] && [ ! -e "$STUB_DIR/ppa" ]; then exit 100; fi
    ln -sf "$STUB_PYTHON" "$STUB_DIR/python3.11";;
esac
"""
PPA_STUB = """#!/bin/bash
echo "add-apt-repository $*" >> "$STUB_DIR/log"
: > "$STUB_DIR/ppa"
"""


@pytest.mark.slow
@pytest.mark.parametrize("image", ["python3 new enough", "python3 too old",
                                   "python3.11 only from deadsnakes"])
def test_setup_sh_finds_or_installs_python_3_11(small_zip: Path, tmp_path: Path,
                                                image: str) -> None:
    """setup.sh on a simulated image: apt-get and add-apt-repository are stubs that log their
    arguments (and "install" python3.11 by linking this interpreter); PATH holds nothing else.
    The venv uses --system-site-packages and pip runs with no index, so numpy comes from this
    machine and nothing is downloaded; nor does pip check this machine's hundreds of other
    installed packages for conflicts among themselves (PIP_NO_WARN_CONFLICTS=0 is
    --no-warn-conflicts: an image's own venv holds only the requirements, and that check was
    most of the test's CPU time)."""
    root = unpack(small_zip, tmp_path / "autograder")
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for name, text in (("apt-get", APT_STUB), ("add-apt-repository", PPA_STUB)):
        (stubs / name).write_text(text, encoding="utf-8")
        (stubs / name).chmod(0o755)
    for tool in ("dirname", "ln"):
        os.symlink(shutil.which(tool), stubs / tool)
    if image == "python3 new enough":
        os.symlink(sys.executable, stubs / "python3")
    else:  # an image whose python3 is 3.10
        (stubs / "python3").write_text("#!/bin/bash\nexit 1\n", encoding="utf-8")
        (stubs / "python3").chmod(0o755)
    env = {"PATH": str(stubs), "HOME": str(tmp_path), "STUB_DIR": str(stubs),
           "STUB_PYTHON": sys.executable, "KANON_AUTOGRADER_ROOT": str(root),
           "KANON_AUTOGRADER_VENV_OPTIONS": "--system-site-packages --without-pip",
           "PIP_NO_INDEX": "1", "PIP_NO_CACHE_DIR": "1", "PIP_NO_WARN_CONFLICTS": "0"}
    if image == "python3.11 only from deadsnakes":
        env["STUB_APT_LACKS_PY311"] = "1"
    done = subprocess.run(["/bin/bash", str(root / "source" / "setup.sh")], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "autograder ready: Python 3.1" in done.stdout
    log = (stubs / "log").read_text(encoding="utf-8")
    assert "apt-get install -y bubblewrap" in log
    assert ("python3.11" in log) == (image != "python3 new enough")
    assert ("ppa:deadsnakes/ppa" in log) == (image == "python3.11 only from deadsnakes")

    # run_autograder then grades with the venv setup.sh made.
    (root / "submission" / "skeleton.py").write_text("x = 1\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KANON", "PYTHONPATH"))}
    env["KANON_AUTOGRADER_ROOT"] = str(root)
    ran = subprocess.run([str(root / "source" / "run_autograder")], env=env,
                         capture_output=True, text=True, timeout=600)
    assert f"({root / 'venv' / 'bin' / 'python'})" in ran.stdout, ran.stdout + ran.stderr
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    check_format(results)
    assert results["score"] == 0


def test_the_timeout_to_set_is_the_sum_of_the_courses_limits(repo: Path) -> None:
    """The examples' course: 14 cases at 2 s each (no per-row time), an import of 3 s and its
    statement-by-statement retry, and 7 parts' counterexample searches of 20 s: 174 s. The
    default course's adult cases make it far more than cases x time_limit."""
    from grader.courses.folder import resolve
    examples, _ = resolve(repo / "examples" / "course")
    assert gradescope.time_budget(examples) == (14, 14 * 2.0 + 2 * 3.0 + 7 * 20.0)
    assert gradescope.budget_line(examples).startswith(
        "autograder timeout: at least 174 s (3 min) per submission, the sum of the course's "
        "CPU-time limits (14 cases,")
    default, _ = resolve(repo / "courses" / "default")
    cases, seconds = gradescope.time_budget(default)
    assert seconds > 5 * cases * default.settings.time_limit  # what the old estimate said
