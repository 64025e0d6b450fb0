"""The part concept (issue 37): a part's judge is a strategy (grader/grading/judges.py) and its
declaration (grader/parts/), so a module should not ask which judge or which schema a part has.
The kit is not there yet: the modules below still ask (the rule-judged parts' own pool and
self-check, the default contract's keys and counterexamples). This test counts the questions
and fails when a module outside the judges starts asking, or when one listed asks more: the
number can only go down, as each module moves its question into a judge."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
QUESTION = re.compile(r'schema\.is_default|\.judge\s*[!=]=|judge\s*==\s*"rules"|'
                      r'get\("judge"\)|case\.judge in|\.judge in \(')
ALLOWED = {  # module -> the questions it may still ask (today's count)
    "grader/authoring/regen.py": 5,  # the quality band: its expectation
    "grader/authoring/rules_pool.py": 1,
    "grader/courses/checks.py": 1,
    "grader/courses/create.py": 1,
    "grader/courses/solution.py": 2,
    "grader/grading/case_runner.py": 1,
    "grader/grading/expected.py": 1,
    "grader/gradebook/counterexample.py": 2,
    "grader/grading/shrink/hook.py": 2,
    "grader/publishing/materials/course.py": 2,
    "grader/publishing/pool_files.py": 2,
    "grader/publishing/rules_selfcheck.py": 2,
}
JUDGES = {"grader/grading/judges.py", "grader/grading/judge.py", "grader/parts/judge_names.py"}


def _questions() -> dict[str, int]:
    found = {}
    for path in sorted((REPO / "grader").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel in JUDGES:
            continue
        n = len(QUESTION.findall(path.read_text(encoding="utf-8")))
        if n:
            found[rel] = n
    return found


def test_no_module_outside_the_judges_asks_more_which_judge_or_schema_a_part_has() -> None:
    found = _questions()
    more = {m: n for m, n in found.items() if n > ALLOWED.get(m, 0)}
    assert not more, f"modules asking which judge or schema a part has: {more}; move the " \
                     f"question into a judge (grader/grading/judges.py)"


def test_the_list_shrinks_when_a_module_stops_asking() -> None:
    found = _questions()
    fewer = {m: (n, found.get(m, 0)) for m, n in ALLOWED.items() if found.get(m, 0) < n}
    assert not fewer, f"lower ALLOWED to today's counts: {fewer}"
