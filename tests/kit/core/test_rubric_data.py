"""The rubric's [data] table and a part's qis, judge and optional (grader/rubric_data.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader import rubric
from grader.errors import UserError
from kanon.schema import Schema

REPO = Path(__file__).resolve().parents[3]

TEXT = """\
[settings]
cases_dir = "{cases}"
{data}
[[part]]
function = "samarati"
points = 25
judge = "rules"
{part}
[[part.case]]
name = "small"
data = "hidden/ties"
k = 3
max_sup = 1

[[part]]
kind = "manual"
name = "utility"
points = 15
optional = true
"""

LAB = """
[data]
qis = ["age", "sex"]
sensitive = "occupation"
other_columns = "drop"
suppression = "delete"
hierarchy_format = "child-parent"
"""


def load(tmp_path: Path, data: str = LAB, part: str = "") -> rubric.Rubric:
    path = tmp_path / "rubric.toml"
    path.write_text(TEXT.format(cases=REPO / "grader" / "cases", data=data, part=part),
                    encoding="utf-8")
    return rubric.load(path)


def test_the_data_table_reaches_every_case(tmp_path):
    loaded = load(tmp_path)
    schema = Schema("occupation", "drop", "delete", "child-parent")
    assert loaded.schema == schema
    (case,) = loaded.cases()
    assert (case.qis, case.schema, case.judge) == (("age", "sex"), schema, "rules")
    assert [p.optional for p in loaded.parts] == [False, True]
    assert (loaded.max_points, loaded.optional_points) == (40, 15)


def test_a_part_names_its_own_qis(tmp_path):
    (case,) = load(tmp_path, part='qis = ["age", "race"]').cases()
    assert case.qis == ("age", "race")


def test_without_a_data_table_the_default_contract_holds(tmp_path):
    (case,) = load(tmp_path, data="").cases()
    assert (case.qis, case.schema.is_default) == (None, True)


@pytest.mark.parametrize("data, part, message", [
    ('[data]\nsuppression = "blank"\n', "", r"data\.suppression: one of root, delete, got 'blank'"),
    ('[data]\nother_columns = "drop"\n', "", r"data\.other_columns: \"drop\" releases only"),
    ('[data]\nqis = []\n', "", r"data\.qis: expected a non-empty list"),
    ('[data]\nqis = ["age", "age"]\n', "", r"data\.qis: a column is named twice"),
    ('[data]\nqis = ["age"]\nsensitive = "age"\n', "", r"data\.sensitive: 'age' is also"),
    ('[data]\ncolour = 1\n', "", r"data\.colour: unknown key"),
    ("", 'judge = "loose"', r"part\[1\]\.judge: one of exact, rules"),
    ("", 'optional = "yes"', r"part\[1\]\.optional: expected true or false"),
    ("", 'qis = "age"', r"part\[1\]\.qis: expected a non-empty list"),
])
def test_mistakes_name_the_file_and_key(tmp_path, data, part, message):
    text = TEXT.replace('judge = "rules"\n', "") if "judge" in part else TEXT
    path = tmp_path / "rubric.toml"
    path.write_text(text.format(cases=REPO / "grader" / "cases", data=data, part=part),
                    encoding="utf-8")
    with pytest.raises(UserError, match=r"rubric\.toml: " + message):
        rubric.load(path)


def test_only_samarati_and_mondrian_are_judged_by_rules(tmp_path):
    path = tmp_path / "rubric.toml"
    path.write_text(f'[settings]\ncases_dir = "{REPO / "grader" / "cases"}"\n[[part]]\n'
                    'function = "datafly"\npoints = 1\njudge = "rules"\n[[part.case]]\n'
                    'name = "x"\ndata = "hidden/ties"\nk = 2\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"judge: \"rules\" judges the kit.s samarati and mondrian only"):
        rubric.load(path)
