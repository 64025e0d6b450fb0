"""Fair grading of real student code: the retry's report, keyword calls, allowed packages and
the time policy (smallest cases first; after a timeout the later cases still run, see
test_grader_time_policy.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from grader.grading import static
from grader.sandbox import packages

from grader import rubric
from grader.errors import UserError
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.sandbox import WORKER_SOURCE, wall_backstop

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "grader" / "cases"

RUBRIC = f"""
[settings]
import_time_limit = 3.0
time_limit = 1.0
time_per_1000_rows = 0.0
cases_dir = "{CASES.as_posix()}"
{{extra}}

[[part]]
function = "mondrian"
points = 10

[[part.case]]
name = "unbalanced, k=3"
data = "hidden/unbalanced"
k = 3
hidden = true

[[part.case]]
name = "ties, k=35 (n=36)"
data = "hidden/ties"
k = 35
hidden = true

[[part]]
function = "random_anonymizer"
points = 10

[[part.case]]
name = "unbalanced, k=5 (n=53)"
data = "hidden/unbalanced"
k = 5
s = 1
hidden = true
"""


def make_rubric(tmp: Path, extra: str = "") -> rubric.Rubric:
    path = tmp / "rubric.toml"
    path.write_text(RUBRIC.replace("{extra}", extra), encoding="utf-8")
    return rubric.load(path)


def submit(subs: Path, name: str, source: str) -> None:
    (subs / name).mkdir(parents=True)
    (subs / name / "skeleton.py").write_text(source, encoding="utf-8")


def grade_one(tmp_path: Path, name: str, source: str) -> dict:
    """Grade the one submission `name` (its skeleton.py: `source`) with the module's rubric
    into tmp_path / "out"; its record."""
    r = make_rubric(tmp_path)
    submit(tmp_path / "subs", name, source)
    result = grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out", r, jobs=1, sandbox="none",
                                       progress=False))
    return result.records[0]


def test_one_wording_for_unavailable_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    monkeypatch.syspath_prepend(str(REPO / "tests" / "public"))  # its `messages` module
    spec = importlib.util.spec_from_file_location("course_rules",
                                                  REPO / "tests" / "public" / "course_rules.py")
    rules = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(rules)
    finally:  # the self-check's modules are not the kit's: leave none behind
        sys.modules.pop("messages", None)
    for allowed in ([], ["numpy"], ["numpy", "pandas"]):
        assert rules.unavailable_message("yaml", allowed) == packages.unavailable_message(
            "yaml", allowed)
    assert packages.unavailable_message("pandas", ["numpy"]) == (
        "pandas is not available: this course allows only numpy and the standard library")
    assert 'f"{top} is not available: this course allows {self.rule}"' in WORKER_SOURCE
    assert packages.requirements(["pandas", "yaml"]) == "numpy>=1.24\npandas\nPyYAML\n"


def test_an_allowed_package_that_is_not_installed_stops_the_batch_with_one_line(
        tmp_path: Path) -> None:
    r = make_rubric(tmp_path, 'allowed_packages = ["numpy", "no_such_package_kanon"]')
    submit(tmp_path / "subs", "ann", "def mondrian(a, b, k, o):\n    pass\n")
    with pytest.raises(UserError, match=r"allowed_packages: 'no_such_package_kanon' does not "
                                        r"import in .*pip install no_such_package_kanon"):
        grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out", r, jobs=1, sandbox="none",
                                  progress=False))
    with pytest.raises(UserError, match=r"settings.allowed_packages: expected a list"):
        make_rubric(tmp_path, 'allowed_packages = "numpy"')


def test_keyword_order_is_only_the_handouts_names_permuted() -> None:
    def params(*names: str, defaults: int = 0) -> list[tuple[str, str, bool]]:
        n = len(names)
        return [(x, "POSITIONAL_OR_KEYWORD", i >= n - defaults) for i, x in enumerate(names)]
    other_year = params("raw_dataset_file", "DGH_folder", "k", "output_file", "s")
    assert static.keyword_order(other_year, "random_anonymizer")
    assert not static.keyword_order(params("raw_dataset_file", "DGH_folder", "k", "s",
                                           "output_file"), "random_anonymizer")  # as handed out
    assert not static.keyword_order(params("raw", "dghs", "k", "out", "seed"),
                                    "random_anonymizer")  # other names: by position
    assert static.keyword_order(params("raw_dataset_file", "DGH_folder", "output_file", "k",
                                       "verbose", defaults=1), "mondrian")
    assert not static.keyword_order(params("raw_dataset_file", "DGH_folder", "output_file", "k",
                                           "verbose"), "mondrian")  # a required extra
    state, _, notes = static.signature_check("random_anonymizer", other_year)
    assert state == "ok" and "called by keyword" in notes[0]


@pytest.mark.slow
def test_time_policy_smallest_first_and_a_timeout_does_not_skip_the_next_case(
        tmp_path: Path) -> None:
    record = grade_one(tmp_path, "loop", (
        "def mondrian(raw_dataset_file, DGH_folder, k, output_file):\n"
        "    while True:\n        pass\n\n"
        "def random_anonymizer(raw_dataset_file, DGH_folder, k, output_file, s):\n"
        "    return k + s\n"))
    cases = {c["name"]: c for c in record["cases"]}
    ties, unbalanced = cases["ties, k=35 (n=36)"], cases["unbalanced, k=3"]
    assert ties["status"] == "timeout" and ties["time_limit"] == 1.0
    assert ties["message"].startswith("ran out of time: it used its whole CPU-time limit of 1 s")
    assert unbalanced["status"] == "timeout" and unbalanced["cpu_seconds"] is not None
    assert unbalanced["message"].startswith(  # its own limit: not "shortened"
        "ran out of time: it used its whole CPU-time limit of 1 s for this case (53 rows)")
    assert [c["name"] for c in record["cases"]] == [
        "unbalanced, k=3", "ties, k=35 (n=36)", "unbalanced, k=5 (n=53)"]  # rubric order
    rand = cases["unbalanced, k=5 (n=53)"]  # another year's order: called by keyword
    assert rand["status"] == "no-output" and "called by keyword" in " ".join(record["notes"])
    feedback = (tmp_path / "out" / "feedback" / "loop.md").read_text(encoding="utf-8")
    assert "not run" not in feedback and "s of its 1 s CPU-time limit" in feedback
    assert wall_backstop(1.0) == 5.0


def test_record_says_the_file_was_retried_and_what_was_left_out(tmp_path: Path) -> None:
    graded = grade_one(tmp_path, "cli", (
        "import sys\nimport pandas as pd\n\n"
        "def random_anonymizer(raw_dataset_file, DGH_folder, k, s, output_file):\n"
        "    return pd.DataFrame()\n\n"
        "def mondrian(raw_dataset_file, DGH_folder, k, output_file):\n"
        "    return 1\n\n"
        "if len(sys.argv) < 6:\n    print('usage')\n    sys.exit(1)\n"))
    record = json.loads((tmp_path / "out" / "results" / "cli" / "record.json").read_text())
    assert record["import"]["retried"] is True and record["import"]["mode"] == "retry"
    assert record["import"]["problem"] == ("ModuleNotFoundError: pandas is not available: "
                                           "this course allows only numpy and the standard "
                                           "library")
    assert [(d["lines"], d["reason"]) for d in record["import"]["dropped"]] == [
        ([2, 2], "it raised ModuleNotFoundError: pandas is not available: this course allows "
                 "only numpy and the standard library"),
        ([10, 12], "it reads the command line (sys.argv)")]
    notes = " ".join(record["notes"])
    assert "line 2 (`import pandas as pd`: it raised ModuleNotFoundError" in notes
    assert "lines 10-12 (`if len(sys.argv) < 6:`: it reads the command line (sys.argv))" in notes
    rand = next(c for c in record["cases"] if c["function"] == "random_anonymizer")
    assert rand["status"] == "error" and ("(line 2, `import pandas as pd`, was left out: it "
                                          "raised ModuleNotFoundError: pandas is not available"
                                          in rand["message"])
    mondrian = [c["status"] for c in record["cases"] if c["function"] == "mondrian"]
    assert mondrian == ["no-output", "no-output"]  # graded: its import problem is not its own
    # the retry left out the failing import; what cost points is the cases' own statuses:
    # random 10 points to `error`, mondrian 10 to `no-output` (a tie: the more serious)
    assert graded["status"] == "error"
    assert graded["remarks"] == ["import-error, graded one top-level statement at "
                                            "a time"]


@pytest.mark.slow
def test_an_import_exit_graded_through_the_retry_reads_as_what_cost_the_points(
        tmp_path: Path) -> None:
    record = grade_one(tmp_path, "cli", (  # the course skeleton's module-level command line
        "import sys\n\n"
        "def mondrian(raw_dataset_file, DGH_folder, k, output_file):\n"
        "    while True:\n        pass\n\n"
        "def random_anonymizer(raw_dataset_file, DGH_folder, k, s, output_file):\n"
        "    return None\n\n"
        "if len(sys.argv) < 6:\n    print('usage: ...')\n    sys.exit(2)\n"))
    assert record["import"]["mode"] == "retry" and record["score"] == 0
    # mondrian lost 10 points to timeouts, random 10 to no-output: a tie, the more serious
    assert record["status"] == "timeout"
    assert record["remarks"] == ["import-exit, graded one top-level statement at a time"]
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8") as f:
        assert f.read().splitlines()[1].endswith(
            ",timeout,\"import-exit, graded one top-level statement at a time\"")


def test_gradescope_scores_add_up_to_the_parts_points(tmp_path: Path) -> None:
    from grader.gradebook import export
    cases = "".join(f"""
[[part.case]]
name = "case {n}"
data = "hidden/{data}"
k = 1
hidden = true
""" for n, data in enumerate(("unbalanced", "ties", "quoted")))
    (tmp_path / "rubric.toml").write_text(
        f'[settings]\ncases_dir = "{CASES.as_posix()}"\n\n[[part]]\nfunction = "mondrian"\n'
        f'points = 10\n{cases}\n[[part]]\nfunction = "clustering_anonymizer"\npoints = 10\n'
        f'{cases}', encoding="utf-8")
    r = rubric.load(tmp_path / "rubric.toml")
    record = {"cases": [{"part": c.part, "max_points": round(r.part_of(c).case_points(c), 6),
                         "points": 0.0} for c in r.cases()]}
    assert [c["max_points"] for c in record["cases"]] == [3.333333] * 6
    shares = export._shares([(c["part"], c["max_points"]) for c in record["cases"]], r)
    assert shares == [3.375, 3.3125, 3.3125] * 2  # sixteenths: 10 each, not 9.9999
    assert sum(shares) == 20.0 and sum(reversed(shares)) == 20.0  # exactly, in floating point


def test_gradescope_max_scores_add_up_exactly_in_every_course() -> None:
    """Every course's tests add up to its points in floating point, in any order (Gradescope
    showed 99.99999999999997 for 3.3333 + 3.3334 + ...)."""
    from grader.gradebook import export
    for name in ("rubric.toml", "rubric-2025.toml", "rubric-all.toml", "rubric-optional.toml"):
        r = rubric.load(REPO / "grader" / name)
        record = {"cases": [{"part": c.part, "max_points": round(r.part_of(c).case_points(c), 6),
                             "points": 0.0} for c in r.cases()]}
        shares = export._shares([(c["part"], c["max_points"]) for c in record["cases"]], r)
        assert sum(shares) == r.auto_points == sum(sorted(shares)), name
        assert all(abs(s - round(s, 4)) < 1e-12 for s in shares), name  # at most 4 decimals
