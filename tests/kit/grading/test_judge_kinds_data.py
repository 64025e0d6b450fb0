"""A judged call's kind as data (issue 39, item 1): a hidden case's returned object of a type
the data may have named reads "an object of another type" in the course's language, and an
exception without a type "an exception"; the English is the sentence it always was."""
from __future__ import annotations

from grader.catalogs import translator
from grader.grading.hidden_view import StudentCode
from grader.grading.judge import judge, raised_message
from grader.sandbox import CallOutcome
from kcheck.text import Message, fill, render, verbatim_params
from test_grader_judge import facts

ZH = translator("zh-CN")


def test_a_hidden_cases_foreign_return_type_is_a_message_in_each_language() -> None:
    outcome = CallOutcome("returned", value={"value_kind": "other", "type": "Antwerp",
                                             "repr": "'Antwerp'"})
    verdict = judge(outcome, facts(hidden=True), code=StudentCode())
    said = Message.from_json(verdict.ref)
    assert verdict.message == said.english() == "returned an object of another type, not a number"
    assert list(verbatim_params(said)) == []
    assert render(said, ZH) == fill(ZH("returned {shown}, not a number"),
                                    {"shown": ZH("an object of another type")})
    assert ZH("an object of another type") != "an object of another type"


def test_an_exception_without_a_type_is_an_exception_in_each_language() -> None:
    said, trace = raised_message({"message": "boom"}, str)
    assert (said.english(), trace) == ("raised an exception: boom", "")
    assert render(said, ZH) == fill(ZH("raised {kind}: {message}"),
                                    {"kind": ZH("an exception"), "message": "boom"})
