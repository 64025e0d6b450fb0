"""What a hidden case shows of a failed call (grader.grading.hidden_view, through the judge):
the verdict, the exception's type and the student's own file and line, never a message, an
exit code, a repr or a source line; the same calls on a public case keep their text."""
from __future__ import annotations

import re
import traceback
from pathlib import Path

import pytest

from grader.grading.hidden_view import TRACEBACK_CHARS, StudentCode, frame, type_name
from grader.grading.judge import judge
from grader.grading.statuses import Status
from grader.sandbox import CallOutcome
from test_grader_judge import RAISES, facts

REPO = Path(__file__).resolve().parents[3]
SCRATCH = "/tmp/kanon-dee-x/sub/"
SECRET = 'Zürich,2.25,naïve café,"Omnivore, ""all"""'
CODE = StudentCode({"skeleton.py": 40, "helpers/io.py": 12},
                   frozenset({"DatasetError", "cost_MD", "read"}))


def scrub(text: str) -> str:
    return text.replace(SCRATCH, "")


def trace(*frames: tuple[str, int], tail: str = f"ValueError: {SECRET}\n") -> str:
    """The worker's traceback text: frames (file under the scratch folder, line) then the
    exception's own lines."""
    return "".join(f'  File "{SCRATCH if not f.startswith("/") else ""}{f}", line {n}, in '
                   f"cost_MD\n    x = read(line)  # {SECRET}\n" for f, n in frames) + tail


def raised(kind: str = "ValueError", mro: list[str] | None = None, text: str = "") -> CallOutcome:
    return CallOutcome("exception", error={"type": kind, "mro": mro or [kind, "Exception"],
                                           "message": SECRET, "traceback": text})


HIDDEN = [
    # (outcome, the hidden case's whole message)
    (raised(text=trace(("skeleton.py", 12), ("helpers/io.py", 3))),
     "raised ValueError at helpers/io.py, line 3"),
    (raised(text=trace(("skeleton.py", 12), ("/usr/lib/python3.11/csv.py", 40))),
     "raised ValueError at skeleton.py, line 12"),  # a library's frame is not the student's
    (raised("DatasetError", ["DatasetError", "Exception"], trace(("skeleton.py", 7))),
     "raised DatasetError at skeleton.py, line 7"),  # the student's own class
    (raised("Brussels", ["Brussels", "KeyError", "LookupError"], trace(("skeleton.py", 7))),
     "raised a subclass of KeyError at skeleton.py, line 7"),  # a class the data named
    (raised(text=trace(("skeleton.py", 99))), "raised ValueError"),  # not a line it has
    (raised(text=trace(tail=f'ValueError: x\n  File "skeleton.py", line 2, in f\n')),
     "raised ValueError"),  # frames in the message are not frames
    (raised(text="x" * (TRACEBACK_CHARS - 40) + trace(("skeleton.py", 12))),
     "raised ValueError"),  # cut short: its start may be the message
    (raised("NotImplementedError"), "raised NotImplementedError"),
    (CallOutcome("exit", error={"code": repr(SECRET)}), "called sys.exit / exit"),
    (CallOutcome("crash", error={"code": "34"}),
     "the process ended without returning, e.g. through os._exit"),
    (CallOutcome("memory", error={"type": "MemoryError", "message": SECRET,
                                  "traceback": trace(("skeleton.py", 5))}),
     "ran out of memory (limit 2048 MB) at skeleton.py, line 5"),
    (CallOutcome("crash", error={"grader_error": f"unknown status {SECRET!r}"}),
     "the grader could not read what the call reported; a TA will look at it"),
    (CallOutcome("returned", value={"value_kind": "other", "type": "Antwerp", "repr": SECRET}),
     "returned an object of another type, not a number"),
    (CallOutcome("returned", value={"value_kind": "other", "type": "str", "repr": SECRET}),
     "returned str, not a number"),
]


@pytest.mark.parametrize("outcome, message", HIDDEN)
def test_a_hidden_case_shows_structured_facts_only(outcome, message) -> None:
    verdict = judge(outcome, facts(hidden=True), scrub=scrub, code=CODE)
    assert verdict.message == message
    assert not any(v in verdict.message for v in ("Zürich", "2.25", "naïve", "Omnivore", "34",
                                                  "Brussels", "Antwerp", "read(line)"))


@pytest.mark.parametrize("outcome, message", HIDDEN)
def test_a_public_case_keeps_its_text(outcome, message) -> None:
    """The public wording is as before: the message, the traceback, the exit code."""
    verdict = judge(outcome, facts(), scrub=scrub, code=CODE)
    if outcome.status == "exception" and outcome.error["type"] != "NotImplementedError":
        assert verdict.message.startswith(f"raised {outcome.error['type']}: {SECRET}")
        assert SCRATCH not in verdict.message
    elif outcome.status == "exit":
        assert verdict.message == f"called sys.exit / exit (code {SECRET!r})"
    elif outcome.status == "crash" and "code" in outcome.error:
        assert verdict.message == ("the process ended (exit code 34) without returning, e.g. "
                                   "through os._exit")
    elif outcome.status == "returned":
        assert verdict.message == f"returned {outcome.value['type']}, not a number"


def test_the_contracts_exception_is_named_by_a_type_the_data_cannot_have_made() -> None:
    for kind, mro, shown in (("ValueError", None, "ValueError"),
                             ("Seoul", ["Seoul", "ValueError", "Exception"],
                              "a subclass of ValueError")):
        verdict = judge(raised(kind, mro), facts(expected=RAISES, hidden=True), code=CODE)
        assert (verdict.status, verdict.message) == (
            Status.PASSED, f"raised {shown} as the contract requires")


def test_the_sandboxs_refusal_of_a_package_is_shown_not_a_message_like_it() -> None:
    """`import pandas` in a function, refused: the sandbox's own words, which no data make;
    the same words about a name not in the student's files are a message like any other."""
    code = StudentCode({"skeleton.py": 40}, frozenset({"pandas", "cost_MD"}), ("numpy",))
    rule = "is not available: this course allows only numpy and the standard library"
    for name, shown in (("pandas", f": pandas {rule}"), ("Antwerp", "")):
        outcome = CallOutcome("exception", error={
            "type": "ModuleNotFoundError", "mro": ["ModuleNotFoundError", "ImportError"],
            "message": f"{name} {rule}", "traceback": trace(("skeleton.py", 9))})
        verdict = judge(outcome, facts(hidden=True), scrub=scrub, code=code)
        assert verdict.message == f"raised ModuleNotFoundError at skeleton.py, line 9{shown}"


def test_a_real_traceback_gives_the_innermost_student_line(tmp_path: Path) -> None:
    """The worker's own format (traceback.format_list, carets included on 3.11), parsed."""
    (tmp_path / "skeleton.py").write_text(
        "import json\n\n\ndef cost_MD(raw):\n    return json.loads(raw)\n", encoding="utf-8")
    code = StudentCode.read(tmp_path)
    assert code.lines == {"skeleton.py": 5} and "cost_MD" in code.names
    namespace: dict = {}
    exec(compile((tmp_path / "skeleton.py").read_text(), str(tmp_path / "skeleton.py"),
                 "exec"), namespace)
    try:
        namespace["cost_MD"]('{"Zürich": ')
    except ValueError as error:
        frames = traceback.extract_tb(error.__traceback__)
        text = "".join(traceback.format_list(frames)) + "".join(
            traceback.format_exception_only(type(error), error))
    assert frame(text, code, lambda t: t.replace(f"{tmp_path}/", "")) == "skeleton.py, line 5"
    assert type_name("JSONDecodeError", ["JSONDecodeError", "ValueError"], code) == \
        "JSONDecodeError"


def test_the_traceback_cap_is_the_workers() -> None:
    worker = (REPO / "grader" / "sandbox" / "worker.py").read_text(encoding="utf-8")
    assert re.search(r"^TRACEBACK_CHARS = (\d+)$", worker, re.M).group(1) == str(TRACEBACK_CHARS)
