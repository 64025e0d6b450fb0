"""Feedback of hand-made records (issue 38, item 6): a bold suppressed cell is a bold star
in the Markdown, the LMS page and Gradescope's text; the staff's one comment appears once
whatever the number of manual parts; Gradescope's text names no folder of files."""
from __future__ import annotations

import json
from pathlib import Path

from grader import rubric as rubric_mod
from grader.gradebook.export import feedback_md, gradescope_json
from grader.gradebook.markdown_html import to_html
from grader.grading.manual_scores import set_scores
from grader.grading.record import as_record
from grader.grading.results import SubmissionResult
from grader.grading.statuses import Status
from manual_class import RUBRIC

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = rubric_mod.load(REPO / "examples" / "rubric.toml")
# samarati on two rows of the public jobsex case: the reference generalizes Job to Any, the
# student suppresses the first row's Job (a `*`, the cell that differs, in bold)
ENTRY = {"calls": 3, "cpu_seconds": 0.1, "case": "unbalanced, k=4, max_sup=3",
         "case_id": "samarati/unbalanced_k_4_max_sup_3", "hidden": False, "status": "wrong",
         "found": True, "source": "tests/public/data/cases/jobsex/raw.csv", "rows": [1, 2],
         "header": ["Job", "Sex"], "qis": ["Job"], "raw": [["Engineer", "M"], ["Dancer", "F"]],
         "ints": {"k": 2, "max_sup": 0}, "dghs": {"Job": "Any\n\tEngineer\n\tDancer\n"},
         "expected": "Job,Sex\nAny,M\nAny,F\n", "yours": "Job,Sex\n*,M\nAny,F\n",
         "problem": None}


def _record(rubric: rubric_mod.Rubric) -> dict:
    result = SubmissionResult("ann", "ann.zip", [])
    result.fill(rubric, Status("wrong"), "wrong output")
    return result.to_json(rubric)


def _samarati_record() -> dict:
    record = _record(EXAMPLES)
    record["counterexamples"] = {"samarati": dict(ENTRY)}
    return record


def _gradescope_counterexample(record: dict) -> str:
    tests = json.loads(gradescope_json(record, EXAMPLES))["tests"]
    (output,) = [t["output"] for t in tests if "### Counterexample for" in t["output"]]
    return output


def test_a_bold_suppressed_cell_is_a_bold_star_everywhere() -> None:
    record = _samarati_record()
    md = feedback_md(record, EXAMPLES)
    assert "| 1 | **\\*** | M |" in md and "| 1 | **Any** | M |" in md
    assert "*****" not in md
    page = to_html(md)
    assert '<td class="left"><strong>*</strong></td>' in page
    assert "\\*" not in page and "<strong>\\</strong>" not in page
    assert "| 1 | **\\*** | M |" in _gradescope_counterexample(record)


def test_gradescope_text_names_no_folder_the_feedback_names() -> None:
    record = _samarati_record()
    md = feedback_md(record, EXAMPLES)
    assert "Files: `counterexamples/samarati/` beside this feedback" in md
    output = _gradescope_counterexample(record)
    assert "counterexamples/" not in output and "beside this feedback" not in output
    assert output.rstrip().endswith('HANDOUT.md, section "samarati" (and "Ties" for equal '
                                    'choices).')
    rules = _samarati_record()
    rules["counterexamples"]["samarati"].update(judge="rules", broken=[["k", "a class of 1"]])
    assert "counterexamples/" in feedback_md(rules, EXAMPLES)
    assert "counterexamples/" not in _gradescope_counterexample(rules)


def test_the_staff_comment_appears_once_under_three_manual_parts(tmp_path: Path) -> None:
    text = RUBRIC.format(cases=(REPO / "grader" / "cases").as_posix())
    manual = text[text.index('[[part]]\nkind = "manual"'):]
    for name in ("slides", "poster"):
        text += "\n" + manual.replace('name = "report"', f'name = "{name}"')
    (tmp_path / "rubric.toml").write_text(text, encoding="utf-8")
    rubric = rubric_mod.load(tmp_path / "rubric.toml")
    assert [p.key for p in rubric.manual_parts] == ["report", "slides", "poster"]
    record = as_record(_record(rubric))
    set_scores(record, rubric, {"report": 8.0, "slides": 9.0, "poster": None},
               "Clear tables; label the axes")
    md = feedback_md(record, rubric)
    assert md.count("Comment: Clear tables; label the axes") == 1
    slides = md[md.index("## slides: 9 / 10"):md.index("## poster:")]
    assert "- Comment: Clear tables; label the axes" in slides  # the last part scored
    set_scores(record, rubric, {"poster": 7.0}, None)
    md = feedback_md(record, rubric)
    assert md.count("Comment: Clear tables") == 1
    assert "- Comment: Clear tables" in md[md.index("## poster: 7 / 10"):]
    set_scores(record, rubric, {"report": None, "slides": None, "poster": None}, None)
    assert "Comment:" not in feedback_md(record, rubric)  # no score, no comment: as before
