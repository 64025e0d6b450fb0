"""The students' materials assembled from section sources (grader/publishing/materials): the
template language, the re-wrapping, and a course's handout and skeleton decided by its rubric
alone (sections, points, limits, packages, command line)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from grader import contract
from grader.errors import UserError
from grader.publishing.materials import course_materials, render_handout, view
from grader.publishing.materials.handout import SOURCES as HANDOUT_SOURCES
from grader.publishing.materials.reflow import reflow
from grader.publishing.materials.skeleton_file import SOURCES as SKELETON_SOURCES
from grader.publishing.materials.template import features_used, render
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]
CASES = (REPO / "grader" / "cases").as_posix()

# ------------------------------------------------------------------------------ template


@pytest.mark.parametrize("text, features, out", [
    ("a\n<!-- if x -->\nb\n<!-- end -->\nc\n", {"x"}, "a\nb\nc\n"),
    ("a\n<!-- if x -->\nb\n<!-- end -->\nc\n", set(), "a\nc\n"),
    ("<!-- if x y -->\nb\n<!-- else -->\nz\n<!-- end -->\n", {"y"}, "b\n"),
    ("<!-- if x -->\nb\n<!-- else -->\nz\n<!-- end -->\n", set(), "z\n"),
    ("<!-- if !x -->\nnot x\n<!-- end -->\n", set(), "not x\n"),
    ("<!-- if x -->\n<!-- if y -->\nxy\n<!-- else -->\nx only\n<!-- end -->\n<!-- end -->\n",
     {"x"}, "x only\n"),
    ("<!-- if x -->\n<!-- if y -->\nxy\n<!-- end -->\n<!-- else -->\nnone\n<!-- end -->\n",
     {"y"}, "none\n"),
    ("# <!-- if x -->\nA = 1\n# <!-- end -->\n", {"x"}, "A = 1\n"),  # the Python form
    ("k-anonymity{{?x:, plus l}}{{?y:, plus s}}.\n", {"y"}, "k-anonymity, plus s.\n"),
    ("total {{total}} points\n", set(), "total 100 points\n"),
])
def test_template_blocks_inline_and_fields(text, features, out) -> None:
    assert render(text, frozenset(features), {"total": "100"}, "s.md") == out


@pytest.mark.parametrize("text, message", [
    ("a\n{{nope}}\n", "s.md, line 2: unknown field {{nope}}"),
    ("<!-- if x -->\nb\n", "s.md, line 1: `if` without an `end`"),
    ("b\n<!-- end -->\n", "s.md, line 2: `end` without an `if`"),
    ("<!-- else -->\n", "s.md, line 1: `else` without an `if`"),
])
def test_template_errors_name_the_source_and_line(text, message) -> None:
    with pytest.raises(UserError) as caught:
        render(text, frozenset(), {}, "s.md")
    assert str(caught.value) == message


def test_every_feature_a_source_tests_exists() -> None:
    """A typo in an `if` (say `mondrain`) would silently drop a rule from every course."""
    known = set(contract.GRADABLE) | {"costs", "measures", "manual", "manual:report",
                                      "packages:numpy"}
    known |= {f"{f}:{v}" for f, vs in contract.VARIANTS.items() for v in (*vs, "default")}
    known |= {f"{f}:rules" for f in contract.RULE_JUDGED}
    known |= {f"{kind}:{f}" for f in contract.GRADABLE for kind in ("qis", "optional")}
    known |= {"optional", "schema:delete", "schema:drop", "schema:sensitive",
              "hierarchy:child-parent", "this:files", "this:described", "this:optional",
              "this:pages", "staff:no-files", "dghs:parts", "selfcheck:cases"}
    known |= {f"optional:{p.key}" for course in sorted((REPO / "courses").glob("*/rubric.toml"))
              for p in load(course).parts if p.optional}  # a demo course's optional part
    sources = [*HANDOUT_SOURCES.glob("*.md"), *SKELETON_SOURCES.glob("*.txt")]
    assert len(sources) > 30
    for path in sources:
        text = path.read_text(encoding="utf-8")
        inline = set(re.findall(r"\{\{\?([^:{}]+):", text))
        used = features_used(text) | {t.lstrip("!") for i in inline for t in i.split()}
        assert used <= known, (path.name, used - known)


# ------------------------------------------------------------------------------ reflow


def test_reflow_wraps_long_paragraphs_and_items_only() -> None:
    long = "word " * 30
    text = (f"{long.strip()}\n\n- {long.strip()}\n  more\n\n```\n{long}\n```\n\n"
            f"| a | {long} |\n\nshort line\nstays\n")
    out = reflow(text).split("\n")
    assert all(len(line) <= 95 for line in out if not line.startswith(("|", "word word")))
    assert f"{long}" in out and f"| a | {long} |" in out  # code and tables untouched
    assert "short line" in out and "stays" in out
    item = out.index(next(line for line in out if line.startswith("- ")))
    assert out[item + 1].startswith("  word")  # the item's continuation keeps its indent


def test_reflow_never_starts_a_line_with_list_or_heading_syntax() -> None:
    text = "x " * 48 + "- y " + "z " * 10  # a naive wrap would start a line with "- y"
    assert reflow(text.strip()) == text.strip()


# ------------------------------------------------------------------------------ a course


SMALL = f"""
[settings]
cases_dir = "{CASES}"
allowed_packages = ["numpy", "scipy"]
import_time_limit = 5.0
memory_mb = 1024

[[part]]
function = "cost_LM"
points = 7.5
time_limit = 3.0
time_per_1000_rows = 0.0

[[part.case]]
name = "adult-hw1, intervals"
data = "public/adult"
anonymized = "anonymized/intervals.csv"

[[part]]
function = "samarati"
points = 12.5
time_per_1000_rows = 30.0

[[part.case]]
name = "unbalanced, k=4, max_sup=3"
data = "hidden/unbalanced"
k = 4
max_sup = 3
hidden = true
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    path = tmp_path_factory.mktemp("small") / "rubric.toml"
    path.write_text(SMALL, encoding="utf-8")
    files = course_materials(load(path), REPO)
    return {name: data.decode("utf-8") for name, data in files.items()}


def test_small_courses_handout_has_its_sections_points_and_limits(small) -> None:
    handout = small["HANDOUT.md"]
    headings = re.findall(r"^(##+ .*)$", handout, re.M)
    words = " ".join(handout.split())  # sentences whatever the line breaks
    assert "### cost_LM (7.5 points)" in headings and "## samarati (12.5 points)" in headings
    assert not any("cost_MD" in h or "mondrian" in h for h in headings)
    assert "| **Total** | **20** |" in handout
    assert ("*7.5 points · CPU-time limit per call: 3 s (3 s on `adult-hw1.csv`) · packages: "
            "numpy, scipy and the standard library.*") in words
    assert "| `samarati` | 10 s + 30 s per 1,000 rows | 310 s |" in handout
    assert "importing your file gets 5 s" in words and "at most 1 GB of memory" in words
    assert "this course allows only numpy, scipy and the standard library" in words
    # samarati without bottom-up: the lattice is defined in its own section
    section = handout[handout.index("## samarati"):handout.index("## Bad input")]
    assert "A lattice node is a vector" in section and "bottom-up example" not in section
    assert "None of this homework's anonymizers writes intervals" in words
    for function in contract.GRADABLE:
        if function not in ("cost_LM", "samarati"):
            assert not re.search(rf"(?<![\w.]){function}(?!\w)", handout), function


def test_small_courses_skeleton_has_its_stubs_and_command_line(small) -> None:
    tree = ast.parse(small["skeleton.py"])
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    graded = defined & set(contract.GRADABLE)
    assert graded == {"cost_LM", "samarati"}
    namespace: dict = {}
    exec(compile(small["skeleton.py"], "skeleton.py", "exec"), namespace)  # no side effects
    assert namespace["ALGORITHMS"] == {"samarati": ("samarati", 0)}
    assert "ROW_INDEX" not in namespace  # random_anonymizer's helper: not this course's
    assert "where <algorithm> is one of samarati." in small["skeleton.py"]


def test_handout_of_the_default_course_is_the_kits_own() -> None:
    course = view(load(REPO / "grader" / "rubric.toml"))
    assert render_handout(course) == (REPO / "HANDOUT.md").read_text(encoding="utf-8")
