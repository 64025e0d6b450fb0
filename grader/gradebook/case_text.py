"""How one case's result reads in the feedback and Gradescope's text: its title, time, and
what of its message, traceback and printed output is shown (a hidden case: the head only)."""
from __future__ import annotations

from kcheck.text import Message, render

from ..grading.case_names import name_ref
from ..grading.record import CaseRecord
from ..grading.scores_text import fmt

__all__ = ["OUTPUT_SHOWN", "HIDDEN_FEEDBACK", "case_title", "fence", "from_data", "in_language",
           "name_text", "named", "shown", "time_text"]

OUTPUT_SHOWN = 3000  # characters of a case's printed output shown in feedback
HIDDEN_FEEDBACK = ("Hidden cases use datasets you have not seen. Their feedback gives the verdict, "
                   "the row and column at fault, an exception's type and your file and line; "
                   "never their data, an exception's message or what your code printed.")


def in_language(text: str, ref: dict | None, _=str) -> str:
    """The grader's sentence `text` in the language of `_`: rendered from its data (`ref`, a
    kcheck.text Message's JSON) when that reads as `text` in English; else (a record of an
    older grader, which the resume cache regrades) `text` as it is."""
    if ref and "id" in ref:
        said = Message.from_json(ref)
        if said.english() == text:
            return render(said, _)
    return text


def from_data(text: str, ref: dict | None, _=str) -> str:
    """The grader's sentence `text` in the language of `_`, rendered from its data (`ref`, a
    kcheck.text Message's JSON); without data (a record of an older grader, which the resume
    cache regrades) `text` as it is."""
    return render(Message.from_json(ref), _) if ref else text


def fence(text: str) -> str:
    text = text.replace("```", "'''")
    if len(text) > OUTPUT_SHOWN:
        text = text[:OUTPUT_SHOWN] + f"\n[... {len(text) - OUTPUT_SHOWN} more characters]"
    return "```\n" + text.rstrip("\n") + "\n```\n"


def shown(case: CaseRecord) -> tuple[str, str, str]:
    """A case's message head, traceback and printed output; a hidden case's head only."""
    head, _, trace = case.message.partition("\n")
    return (head, "", "") if case.hidden else (head, trace, case.output or "")


def case_title(case: CaseRecord, _=str) -> str:
    return (_("hidden case: ") if case.hidden else "") + name_text(case, _)


def name_text(case: CaseRecord, _=str) -> str:
    """A case's name in the language of `_` (`named`)."""
    return named(case.name, case.name_ref, _)


def named(name: str, ref: list | None = None, _=str) -> str:
    """A case's name in the language of `_`, from its phrases (`ref`, a record's `name_ref`: a
    kit phrase as a kcheck.text Message's JSON, the course's own words as they are) joined by
    the language's ", ". Without them (an older grader's record, one written by hand, a
    counterexample's `case`) the name, the rubric's own text, is read into its phrases as
    grading reads it (grader.grading.case_names)."""
    return _(", ").join(render(Message.from_json(p), _) if isinstance(p, dict) else p
                        for p in ref or name_ref(name))


def time_text(case: CaseRecord, _=str) -> str:
    """"0.42 s of its 11 s CPU-time limit" ("" for a case that did not run); the measured
    time varies from run to run, the limit does not. `_`: the course language's gettext."""
    limit = case.time_limit
    if limit is None:
        return ""
    used = case.cpu_seconds
    if used is None:
        return _("not run; CPU-time limit {limit} s").format(limit=fmt(limit))
    return _("{used} s of its {limit} s CPU-time limit").format(used=f"{used:.2f}",
                                                                 limit=fmt(limit))
