"""docs/instructors.md's autograder example (issue 38, item 6): what the demo class's alice
scores is said for every demo course, each "of N" being that course's autograded points and
full marks only on `default` (the scores were measured by grading alice with each course:
`python -m grader grade examples/submissions --course courses/NAME --only alice`)."""
from __future__ import annotations

import re
from pathlib import Path

from grader.courses.folder import resolve

REPO = Path(__file__).resolve().parents[3]
GUIDE = REPO / "docs" / "instructors.md"


def _example() -> str:
    """The paragraph's sentences about a known submission, on one line."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index("*Test Autograder* with a known submission")
    return " ".join(text[start:text.index("Students upload", start)].split())


def test_the_autograder_example_says_what_alice_scores_on_every_demo_course() -> None:
    said = dict((course, (float(got), float(of))) for got, of, course in re.findall(
        r"(\d+(?:\.\d+)?) of (?:the )?(\d+)(?: autograded points\))? on `([\w-]+)`",
        _example()))
    said.update({course: (float(got), float(of)) for got, of in re.findall(
        r"built from `default` it scores full marks \((\d+) of the (\d+) autograded points\)",
        _example()) for course in ["default"]})
    courses = sorted(p.name for p in (REPO / "courses").iterdir()
                     if (p / "course.toml").is_file())
    assert sorted(said) == courses
    for course, (got, of) in said.items():
        rubric, _ = resolve(REPO / "courses" / course)
        assert of == rubric.auto_points, course
        assert (got == of) == (course == "default"), course
