"""The rubric loader: the default rubric, validation messages naming file and key, overrides."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader import rubric
from grader.errors import UserError

REPO = Path(__file__).resolve().parents[3]

MINIMAL = """\
[settings]
time_limit = 3
cases_dir = "{cases}"

[[part]]
function = "mondrian"
points = 10

[[part.case]]
name = "small"
data = "hidden/ties"
k = 3
hidden = true

[[part.case]]
name = "other"
data = "hidden/quoted"
k = 2
weight = 3
time_limit = 7
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rubric.toml"
    path.write_text(text.replace("{cases}", str(REPO / "grader" / "cases")), encoding="utf-8")
    return path


def test_default_rubric_matches_the_handout_points() -> None:
    r = rubric.load()
    points = {p.function: p.points for p in r.auto_parts}
    assert points == {"cost_MD": 5, "cost_LM": 5, "random_anonymizer": 10,
                      "clustering_anonymizer": 20, "bottomup_anonymizer": 20, "samarati": 20,
                      "mondrian": 20}
    assert r.auto_points == 100 and r.max_points == 110  # the report: 10, graded by staff
    [report] = r.manual_parts
    assert (report.key, report.points, report.files, report.max_pages) == (
        "report", 10, ("*.pdf",), 4)
    assert r.settings.time_limit == 10 and r.settings.import_time_limit == 10
    assert r.settings.allowed_packages == ("numpy",)
    limits = {c.function: c.cpu_limit(9999) for c in r.cases() if not c.hidden}
    assert limits == {"cost_MD": 110.0, "cost_LM": 110.0, "random_anonymizer": 110.0,
                      "clustering_anonymizer": 609.9, "bottomup_anonymizer": 609.9,
                      "samarati": 609.9, "mondrian": 110.0}  # the handout's table
    cases = r.cases()
    assert {c.data.split("/")[0] for c in cases} == {"public", "hidden"}
    assert all(c.hidden == c.data.startswith("hidden/") for c in cases)
    assert all(c.visibility == ("after_published" if c.hidden else "visible") for c in cases)


def test_weights_limits_and_ids(tmp_path: Path) -> None:
    r = rubric.load(write(tmp_path, MINIMAL))
    small, other = r.cases()
    assert small.id == "mondrian/small" and small.ints == {"k": 3}
    assert (small.time_limit, other.time_limit) == (3.0, 7.0)
    part = r.parts[0]
    assert (part.case_points(small), part.case_points(other)) == (2.5, 7.5)
    forced = rubric.load(write(tmp_path, MINIMAL), {"time_limit": 0.5})
    assert [c.time_limit for c in forced.cases()] == [0.5, 0.5]
    assert forced.sha256 != r.sha256


@pytest.mark.parametrize("change, key, message", [
    (("k = 3", 'k = "three"'), "part[1].case[1].k", "expected an integer"),
    (("k = 3", "k = true"), "part[1].case[1].k", "expected an integer"),
    (("k = 3", "s = 3"), "part[1].case[1].s", "unknown key"),
    (('function = "mondrian"', 'function = "mondrain"'), "part[1].function", "not a graded"),
    (("time_limit = 3", "time_limt = 3"), "settings.time_limt", "unknown setting"),
    (("time_limit = 3", "partial_credit = 1.5"), "settings.partial_credit", "at most 1.0"),
    (('name = "other"', 'name = "small"'), "part.case", "two cases have the id"),
    (('data = "hidden/ties"', 'data = "../secret"'), "part[1].case[1].data", "inside cases_dir"),
    (("hidden = true", "hidden = 1"), "part[1].case[1].hidden", "true or false"),
])
def test_errors_name_the_file_and_key(tmp_path: Path, change, key, message) -> None:
    path = write(tmp_path, MINIMAL.replace(*change, 1))
    with pytest.raises(UserError) as e:
        rubric.load(path)
    assert str(e.value).startswith(f"{path}: {key}: ")
    assert message in str(e.value)


def test_unreadable_rubrics(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot read the rubric"):
        rubric.load(tmp_path / "missing.toml")
    with pytest.raises(UserError, match="not valid TOML"):
        rubric.load(write(tmp_path, "[[part]\n"))
    with pytest.raises(UserError, match="needs a named group"):
        rubric.load(write(tmp_path, MINIMAL.replace("time_limit = 3",
                                                    "student_id_pattern = '^(.*)$'")))
