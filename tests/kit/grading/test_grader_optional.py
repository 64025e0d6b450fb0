"""Optional parts in the grader (the handout of a course that grades them; grader/rubric-2025.toml):
topdown_anonymizer graded only when a rubric names it, clustering_anonymizer graded against
the LM-only variant when its part says `variant = "lm-only"`, the default rubric untouched."""
from __future__ import annotations

from pathlib import Path

import pytest

from staff_submission import staff_submission

from grader import contract, rubric

from grader.grading import static
from grader.errors import UserError
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "grader" / "cases"

RUBRIC = f"""
[settings]
import_time_limit = 5.0
time_limit = 5.0
time_per_1000_rows = 0.0
cases_dir = "{CASES.as_posix()}"

[[part]]
function = "clustering_anonymizer"
variant = "lm-only"
points = 10

[[part.case]]
name = "unbalanced, k=4"
data = "hidden/unbalanced"
k = 4
hidden = true

[[part]]
function = "topdown_anonymizer"
points = 10

[[part.case]]
name = "unbalanced, k=3"
data = "hidden/unbalanced"
k = 3
hidden = true

[[part.case]]
name = "ties, k=4"
data = "hidden/ties"
k = 4
hidden = true
"""

FULL = """from staffcopy import topdown_anonymizer
from staffcopy.clustering import clustering_anonymizer_lm_only as clustering_anonymizer
"""
OLD = """from staffcopy import clustering_anonymizer  # the 2024 distance, no top-down
"""


def _submit(folder: Path, name: str, source: str) -> None:
    staff_submission(folder / name, source)


@pytest.mark.slow
def test_rubric_grades_topdown_and_the_lm_only_variant(tmp_path: Path) -> None:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC, encoding="utf-8")
    r = rubric.load(path)
    _submit(tmp_path / "subs", "full", FULL)
    _submit(tmp_path / "subs", "old", OLD)
    result = grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out", r, jobs=1, sandbox="none",
                                       progress=False))
    records = {rec["student"]: rec for rec in result.records}
    full = {c["name"]: c for c in records["full"]["cases"]}
    assert all(c["status"] == "passed" for c in full.values()), full
    assert sum(c["points"] for c in full.values()) == pytest.approx(20)
    old = {(c["function"], c["name"]): c for c in records["old"]["cases"]}
    # the 2024 distance gives a valid k-anonymous output that differs from the 2025 one
    clustering = old[("clustering_anonymizer", "unbalanced, k=4")]
    assert clustering["status"] == "partial" and clustering["points"] == pytest.approx(5)
    for name in ("unbalanced, k=3", "ties, k=4"):
        assert old[("topdown_anonymizer", name)]["status"] == "missing"
        assert "topdown_anonymizer" in old[("topdown_anonymizer", name)]["message"]


def test_default_rubric_and_static_checks_ignore_optional_parts() -> None:
    assert contract.FUNCTIONS == ("cost_MD", "cost_LM", "random_anonymizer",
                                  "clustering_anonymizer", "bottomup_anonymizer", "samarati",
                                  "mondrian")
    default = rubric.load(REPO / "grader" / "rubric.toml")
    assert {c.function for c in default.cases()} == set(contract.FUNCTIONS)
    assert all(c.variant is None for c in default.cases())
    report = static.check_source("def mondrian(raw_dataset_file, DGH_folder, k, output_file):\n"
                                 "    return 1\n")
    assert set(report.functions) == set(contract.FUNCTIONS)
    report = static.check_source("def topdown_anonymizer(raw_dataset_file, DGH_folder, k, "
                                 "output_file):\n    raise NotImplementedError\n")
    assert report.functions["topdown_anonymizer"].state == "not-attempted"
    r2025 = rubric.load(REPO / "grader" / "rubric-2025.toml")
    assert {p.function: p.variant for p in r2025.parts}["clustering_anonymizer"] == "lm-only"
    assert "topdown_anonymizer" in {p.function for p in r2025.parts}
    assert r2025.max_points == default.auto_points == 100  # Fall 2025: the report included
    assert {p.function: p.points for p in r2025.auto_parts} == {
        "cost_MD": 10, "cost_LM": 10, "random_anonymizer": 20, "clustering_anonymizer": 20,
        "topdown_anonymizer": 30}  # that term's points (the contract, section 13)
    assert [(p.key, p.points, p.max_pages) for p in r2025.manual_parts] == [("report", 10, 1)]
    optional = rubric.load(REPO / "grader" / "rubric-optional.toml")
    assert {p.function for p in optional.parts} == set(contract.OPTIONAL_FUNCTIONS) | {
        "clustering_anonymizer"}
    assert all(any(c.hidden for c in p.cases) for p in optional.parts)


def test_unknown_variant_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC.replace('variant = "lm-only"', 'variant = "md-only"'),
                    encoding="utf-8")
    with pytest.raises(UserError, match=r"part\[1\]\.variant: 'md-only' is not a variant of "
                                        r"clustering_anonymizer; one of lm-only"):
        rubric.load(path)
    path.write_text(RUBRIC.replace('function = "topdown_anonymizer"\n',
                                   'function = "topdown_anonymizer"\nvariant = "lm-only"\n'),
                    encoding="utf-8")
    with pytest.raises(UserError, match=r"part\[2\]\.variant: .* topdown_anonymizer has none"):
        rubric.load(path)


def test_bundle_course_json_comes_from_the_course_rubric() -> None:
    import json

    from grader.publishing import bundle
    name = "tests/public/course.json"
    entries = bundle.collect(REPO, "", REPO / "grader" / "rubric-2025.toml")
    course = json.loads(next(e.data for e in entries if e.name == name))
    assert course["variants"] == {"clustering_anonymizer": "lm-only"}
    assert "topdown_anonymizer" in course["time"] and "bottomup_anonymizer" not in course["time"]
    default = next(e.data for e in bundle.collect(REPO, "") if e.name == name)
    assert default == (REPO / name).read_bytes()  # the default bundle: unchanged
