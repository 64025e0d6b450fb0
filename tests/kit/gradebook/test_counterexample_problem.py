"""A counterexample's failed call as data (issue 39, item 1): the probe words why a call gave
no answer as a kcheck.text Message, the record keeps it beside the English (`problem_ref`),
and the feedback renders it per language from the data; the English is byte for byte the
sentence the record has always held."""
from __future__ import annotations

from types import SimpleNamespace

from grader.catalogs import translator
from grader.gradebook.counterexample import outputs
from grader.grading.hidden_view import StudentCode
from grader.grading.record_parts import Counterexample
from grader.grading.shrink.probe import _why, failed
from kcheck.text import Message, render

ZH = translator("zh-CN")


def _scrub(text: str) -> str:
    return text.replace("/tmp/kanon-x/sub/", "")


def _failed(status: str, error: dict):
    return failed(_why(SimpleNamespace(status=status, error=error), _scrub, StudentCode()),
                  _scrub)


def test_an_exception_keeps_its_english_and_the_students_message_verbatim() -> None:
    answer = _failed("exception", {"type": "ValueError",
                                   "message": "bad /tmp/kanon-x/sub/a.py\n；two lines"})
    assert answer.differs and answer.yours is None
    assert answer.problem == "raised ValueError: bad a.py\n；two lines"
    assert answer.said.english() == answer.problem
    assert Message.from_json(answer.said.to_json()) == answer.said
    assert render(answer.said, ZH) == ZH("raised {kind}: {message}").format(kind="ValueError",
                                                       message="bad a.py\n；two lines")


def test_a_long_message_is_cut_like_the_english_and_an_untyped_one_is_an_exception() -> None:
    answer = _failed("exception", {"message": "x" * 400})
    assert answer.problem == ("raised an exception: " + "x" * 400)[:300]
    assert answer.said.english() == answer.problem
    assert answer.said.params["kind"] == Message("an exception")


def test_a_call_that_ended_otherwise_says_its_status() -> None:
    answer = _failed("crash", {})
    assert answer.problem == "ended with status crash"
    assert answer.said == Message("ended with status {status}", status="crash")


def _entry(**fields) -> Counterexample:
    return Counterexample.from_json({"found": True, "rows": [1], "expected": 1.5,
                                     "yours": None} | fields)


def test_the_feedback_renders_the_problem_from_its_data_in_each_language() -> None:
    said = failed(Message("did not return a number")).said
    entry = _entry(problem=said.english(), problem_ref=said.to_json())
    assert outputs(entry, "cost_MD") == ["Reference: `1.5`; yours: did not return a number."]
    zh = outputs(entry, "cost_MD", ZH)
    assert ZH("did not return a number") in zh[0]
    assert ZH("did not return a number") != "did not return a number"
    assert entry.to_json()["problem_ref"] == {"id": "did not return a number", "params": {}}


def test_a_record_without_the_data_shows_its_english_as_it_is() -> None:
    entry = _entry(problem="did not return a number")
    assert entry.problem_message() is None
    assert outputs(entry, "cost_MD", ZH) == [ZH("Reference: {expected}; yours: {got}.").format(
        expected="`1.5`", got="did not return a number")]
