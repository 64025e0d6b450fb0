"""The typed record (issue 39, item 3): StudentRecord.from_json reads every record grading
writes and to_json gives back the same JSON, byte for byte through dump_json (a graded
record.json, hand-made records with every key written only sometimes), and its readers
say what the keys said."""
from __future__ import annotations

import json
from pathlib import Path

from kanon.files import dump_json

from grader import rubric as rubric_mod
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.grading.manual_scores import set_scores
from grader.grading.record import StudentRecord, as_record
from grader.grading.results import SubmissionResult, case_result
from grader.grading.statuses import Status
from manual_class import write_rubric
from tiny_class import answers, student, tiny_rubric

REPO = Path(__file__).resolve().parents[3]


def _round_trip(data: dict) -> StudentRecord:
    text = dump_json(data)
    typed = StudentRecord.from_json(json.loads(text))
    assert dump_json(typed.to_json()) == text
    return typed


def test_a_graded_record_json_round_trips_byte_for_byte(tmp_path: Path) -> None:
    rubric = tiny_rubric(tmp_path)
    values = answers(rubric)
    student(tmp_path / "subs" / "ann", repr(values["cost_MD"]), "0.5")
    grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out", rubric, jobs=1,
                              sandbox="none", progress=False))
    text = (tmp_path / "out" / "results" / "ann" / "record.json").read_text(encoding="utf-8")
    typed = StudentRecord.from_json(json.loads(text))
    assert dump_json(typed.to_json()) == text
    assert (typed.student, typed.score, typed.max, typed.sandbox) == ("ann", 4.0, 10.0, "none")
    assert [(c.part, c.points, c.status) for c in typed.cases] == [
        ("cost_MD", 4.0, "passed"), ("cost_LM", 0.0, "wrong")]
    assert typed.percent == 40.0 and typed.autograded == 4.0
    assert set(typed.extra) == {"key", "course"}  # the runner's, of no reader's concern


def test_every_sometimes_written_key_round_trips(tmp_path: Path) -> None:
    rubric = rubric_mod.load(REPO / "examples" / "rubric.toml")
    result = SubmissionResult("bob", "bob.zip", ["a note"], solution="skeleton.py",
                              import_info={"status": "ok", "output": "hi\n"})
    result.fill(rubric, Status("wrong"), "wrong output")
    first = rubric.cases()[0]
    result.cases[0] = case_result(rubric, first, Status("passed"), "", fraction=1.0,
                                  seconds=0.5, cpu_seconds=0.25, time_limit=2.0,
                                  ref={"rule": "k", "row": 3})
    result.cases[0].privacy = "k reached: 2"
    result.forbidden_paths = ["/grader/cases/x"]
    result.counterexamples = {"cost_MD": {"found": False, "calls": 4}}
    data = result.to_json(rubric)
    data.update(sandbox="bwrap", key=None, course="0123456789abcdef")
    typed = _round_trip(data)
    case = typed.cases[0]
    assert (case.privacy, case.message_ref, case.seconds) == ("k reached: 2",
                                                               {"rule": "k", "row": 3}, 0.5)
    assert typed.cases[1].privacy is None and "privacy" not in typed.cases[1].to_json()
    assert (typed.import_info.status, typed.import_info.output) == ("ok", "hi\n")
    assert typed.import_info.to_json() == {"status": "ok", "output": "hi\n"}
    found = typed.counterexample("cost_MD")
    assert (found.found, found.calls, found.yours) == (False, 4, None)
    assert found.to_json() == {"found": False, "calls": 4}
    assert typed.counterexample("mondrian") is None
    assert typed.part_points(first.part) == typed.parts[first.part] > 0
    assert typed.extra == {"key": None, "course": "0123456789abcdef"}
    assert as_record(typed) is typed


def test_manual_parts_round_trip_before_and_after_a_merge(tmp_path: Path) -> None:
    rubric = rubric_mod.load(write_rubric(tmp_path))
    result = SubmissionResult("cat", "cat.zip", [])
    result.fill(rubric, Status("passed"), "")
    data = result.to_json(rubric)
    typed = _round_trip(data)
    assert typed.manual_score("report") is None and typed.manual_comment == ""
    assert typed.manual_check("report").problem == "not-checked"
    set_scores(typed, rubric, {"report": 7.5}, "Clear")
    typed = _round_trip(typed.to_json())
    assert (typed.manual_score("report"), typed.manual_comment) == (7.5, "Clear")
    assert (typed.autograded, typed.score) == (0.0, 7.5)  # fill gives no points


def test_a_record_without_manual_parts_has_no_manual_keys() -> None:
    rubric = rubric_mod.load(REPO / "examples" / "rubric.toml")
    result = SubmissionResult("dan", "dan.zip", [])
    result.fill(rubric, Status("missing"), "no such function")
    typed = _round_trip(result.to_json(rubric))
    assert (typed.manual, typed.auto_score, typed.manual_comment) == (None, None, None)
    assert typed.autograded == typed.score == 0.0 and typed.manual_score("report") is None
    assert not {"manual", "auto_score", "manual_comment", "forbidden_paths",
                "counterexamples"} & set(typed.to_json())


def test_a_hand_made_record_reads_as_empty_where_it_says_nothing() -> None:
    data = {"student": "eve", "score": 5.0, "max": 10.0, "status": "wrong",
            "cases": [{"part": "cost_MD", "points": 0.0, "max_points": 5.0, "hidden": True}]}
    typed = _round_trip(data)  # its keys only, as it was
    assert (typed.notes, typed.solution, typed.remarks, typed.parts) == ([], None, [], {})
    assert (typed.cases[0].message, typed.cases[0].time_limit) == ("", None)
    assert typed.to_json() == data


def test_the_typed_updates_write_what_the_json_record_said(tmp_path: Path) -> None:
    rubric = rubric_mod.load(write_rubric(tmp_path))
    error = {"student": "fay", "source": "fay.zip", "status": "grader-error", "notes": [],
             "cases": [], "parts": {}, "score": 0.0, "max": 20.0, "solution": None,
             "import": None, "timing": {}, "key": None}  # no remarks: a grader error's record
    typed = _round_trip(error)
    assert typed.cache_key is None
    set_scores(typed, rubric, {"report": 6.0}, None)  # the checks it lacked come first
    data = typed.to_json()
    assert "remarks" not in data and data["manual_comment"] == ""
    assert (data["score"], data["auto_score"], data["manual"]["report"]["score"]) == (6.0, 0.0,
                                                                                     6.0)
    typed.remark("report: not a PDF")
    typed.set_cache_key("abc")
    typed.set_course("0123")
    data = _round_trip(typed.to_json()).to_json()
    assert (data["remarks"], data["key"], data["course"]) == (["report: not a PDF"], "abc",
                                                              "0123")


def test_the_nested_parts_round_trip_with_keys_they_do_not_know() -> None:
    data = {"student": "gus", "score": 3.0, "max": 10.0, "status": "wrong",
            "import": {"status": "error", "mode": "retry", "problem": "SyntaxError", "new": 1},
            "manual": {"report": {"file": "r.pdf", "pages": 2, "problem": None,
                                  "check": "r.pdf: 2 pages", "score": None, "by": "ta"}},
            "counterexamples": {"cost_MD": {"found": True, "calls": 3, "rows": [1, 2],
                                            "yours": None, "problem": "raised", "extra": [1]}}}
    typed = _round_trip(data)
    assert (typed.import_info.mode, typed.import_info.extra) == ("retry", {"new": 1})
    assert typed.import_info.output is None and "output" not in typed.import_info.to_json()
    check = typed.manual_check("report")
    assert (check.file, check.pages, check.score, check.extra) == ("r.pdf", 2, None,
                                                                  {"by": "ta"})
    entry = typed.counterexample("cost_MD")
    assert (entry.rows, entry.yours, entry.problem, entry.judge) == ([1, 2], None, "raised",
                                                                     None)
    assert "yours" in entry.to_json() and "judge" not in entry.to_json()
    typed.set_manual_score("report", 4.5)
    assert typed.to_json()["manual"]["report"] == {**data["manual"]["report"], "score": 4.5}
    assert typed.manual_check("slides").check is None  # a part it has no check of


def test_a_stored_record_that_is_not_one_is_graded_again(tmp_path: Path) -> None:
    from grader.grading.runner import _read_record
    folder = tmp_path / "results" / "hal"
    folder.mkdir(parents=True)
    for text in ('{"student": "hal", "cases": [1]}', "[]", "{not json"):
        (folder / "record.json").write_text(text, encoding="utf-8")
        assert _read_record(tmp_path, "hal") is None, text
    (folder / "record.json").write_text('{"student": "hal", "key": "k"}', encoding="utf-8")
    assert as_record(_read_record(tmp_path, "hal")).cache_key == "k"
