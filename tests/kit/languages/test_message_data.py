"""Messages as data (kcheck/text.py): an id (the English template, the catalog's msgid) with
parameters, rendered once per language. English is the record's sentence byte for byte, a
student's own text passes through untouched, and what the judge keeps as data renders in
Chinese exactly as the record's English did through the pattern layer
(grader/gradebook/student_messages.py; its readings frozen in zh_pattern_layer.json before it
is deleted: `frozen`)."""
from __future__ import annotations

import json

import pytest

from grader.catalogs import translator
from grader.gradebook.export import case_head
from grader.grading.compare import load_case_data
from grader.grading.hidden_view import StudentCode
from grader.grading.judge import judge
from grader.grading.record import CaseRecord
from grader.sandbox import CallOutcome
from kcheck.text import Joined, Message, Verbatim, fill, render, verbatim_params
from test_grader_messages_zh import (  # JUDGE: test_grader_judge.py's table
    JUDGE, english_left, frozen)

ZH = translator("zh-CN")
EN = translator("en")
BROKEN = Message("it breaks {rules}", rules=Joined(
    [Message('rule "{rule}": {detail}', rule="k", detail=Message("the rows differ")),
     Message('rule "{rule}": {detail}', rule="cover",
             detail=Message("data row {row}, column {column}: {detail}", row=3,
                            column=Verbatim("age; sex"),
                            detail=Message("the cell {cell} does not cover the raw value {raw}",
                                           cell=Verbatim("[1-2]"), raw=Verbatim("7"))))],
    "; "))


def test_english_is_the_template_filled_and_chinese_the_catalogs() -> None:
    said = Message("raised {kind} as the contract requires", kind=Verbatim("ValueError"))
    assert str(said) == said.english() == render(said, EN) == \
        "raised ValueError as the contract requires"
    assert render(said, ZH) == "按约定引发了 ValueError"
    assert BROKEN.english() == ('it breaks rule "k": the rows differ; rule "cover": data row 3, '
                                'column age; sex: the cell [1-2] does not cover the raw value 7')
    assert render(BROKEN, ZH) == frozen(BROKEN.english())
    assert "age; sex" in render(BROKEN, ZH) and "；" in render(BROKEN, ZH)


def test_a_students_text_is_never_translated() -> None:
    # an exception class the student named `nothing`: the pattern layer takes it for the
    # grader's word "nothing"; the message as data keeps it
    said = Message("raised {kind} as the contract requires", kind=Verbatim("nothing"))
    assert "nothing" in render(said, ZH)
    assert "nothing" not in frozen(said.english())
    assert list(verbatim_params(BROKEN)) == ["age; sex", "[1-2]", "7"]


def test_json_round_trip() -> None:
    data = json.loads(json.dumps(BROKEN.to_json()))
    assert Message.from_json(data) == BROKEN
    assert data["params"]["rules"]["join"] == "; "
    assert data["params"]["rules"]["items"][1]["params"]["detail"]["params"]["column"] == \
        {"verbatim": "age; sex"}


def test_a_missing_field_or_a_foreign_value_is_refused() -> None:
    with pytest.raises(ValueError, match="no value for kind"):
        Message("raised {kind}")
    with pytest.raises(TypeError, match="not list"):
        Message("raised {kind}", kind=["x"]).to_json()


def test_no_space_between_two_cjk_characters() -> None:
    assert fill("从 {a} 到 {b} 行", {"a": "数据", "b": "3"}) == "从数据到 3 行"
    assert fill("{a} 行", {"a": "x"}) == "x 行"


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("outcome, case, produced, status, fraction, words", JUDGE.CASES)
def test_the_judges_data_renders_as_the_pattern_layer_did(outcome, case, produced, status,
                                                          fraction, words, hidden) -> None:
    case = JUDGE.facts(case.function, case.expected, hidden)
    data = load_case_data(JUDGE.QUOTED) if case.expected.kind == "table" else None
    verdict = judge(outcome, case, produced, data)
    head = verdict.message.partition("\n")[0]
    if verdict.ref is None or "id" not in verdict.ref:  # the exact judge's (compare.py)
        assert outcome.status == "returned" and verdict.ref is None
        assert frozen(head) != head  # the pattern layer renders it, still
        return
    said = Message.from_json(verdict.ref)
    assert said.english() == head
    assert render(said, ZH) == _pattern_layer(head)
    record = CaseRecord("c", "p", case.function, "n", hidden, "visible", status,
                        verdict.message, 1.0, 0.0, message_ref=verdict.ref)
    assert case_head(record, head, "zh-CN", ZH) == render(said, ZH)
    assert case_head(record, head, "en", EN) == head


CODE = StudentCode({"lab.py": 20}, frozenset({"pandas", "Boom"}), ("numpy",))
TRACE = 'Traceback (most recent call last):\n  File "lab.py", line 12, in f\n    x()\n'


@pytest.mark.parametrize("outcome", [
    CallOutcome("exception", error={"type": "ModuleNotFoundError", "mro": ["ModuleNotFoundError"],
                                    "message": "pandas is not available: this course allows "
                                               "only numpy and the standard library",
                                    "traceback": TRACE}),
    CallOutcome("exception", error={"type": "Boom", "mro": ["Boom", "ValueError"],
                                    "message": "line one\nline two; 三", "traceback": TRACE}),
    CallOutcome("memory", error={"type": "MemoryError", "message": "", "traceback": TRACE}),
    CallOutcome("crash", error={"code": 3}),
    CallOutcome("exit", error={"code": "数据"}),
    CallOutcome("crash", error={"grader_error": "bad JSON"}),
])
@pytest.mark.parametrize("hidden", [False, True])
def test_exceptions_and_refusals_keep_their_data(outcome, hidden) -> None:
    case = JUDGE.facts("cost_MD", JUDGE.VALUE, hidden)
    verdict = judge(outcome, case, code=CODE)
    head = verdict.message.partition("\n")[0]
    said = Message.from_json(verdict.ref)
    assert verdict.message.startswith(said.english()) and said.english() == head
    assert render(said, ZH) == _pattern_layer(head)


def _pattern_layer(head: str) -> str:
    """What the pattern layer made of `head`, but where it was wrong: an exception with an
    empty message ("raised MemoryError: ") it took for a type named "MemoryError: ", leaving
    the English colon; the catalog's sentence has the Chinese one."""
    shown = frozen(head)
    return shown[:-2] + "：" if head.endswith("Error: ") else shown


def _mutants() -> list[bytes]:
    """The quoted case's expected output, broken one way each: a QI cell no hierarchy
    knows, a non-QI cell changed, a row left out, another header, the raw file itself (valid,
    not k-anonymous), another valid generalization (partial), and bytes that are no CSV."""
    from kanon.table import parse_table, render_csv
    expected = parse_table(JUDGE.EXPECTED.read_bytes())
    raw = parse_table((JUDGE.QUOTED / "adult-hw1.csv").read_bytes())

    def written(header, rows) -> bytes:
        return render_csv(header, rows).encode()

    def changed(row: int, column: int, value: str) -> bytes:
        rows = [list(r) for r in expected.rows]
        rows[row][column] = value
        return written(expected.header, rows)

    return [changed(1, 0, "Atlantis"), changed(2, 2, "other; note"), changed(0, 1, "[1-2]"),
            written(expected.header, expected.rows[:-1]),
            written(["x"] + expected.header[1:], expected.rows),
            written(raw.header, raw.rows), changed(0, 0, "*"), b"\xff\xfe\x00bad"]


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("function", ["mondrian", "clustering_anonymizer", "samarati",
                                      "bottomup_anonymizer"])
def test_exact_verdicts_render_as_the_pattern_layer_did(function, hidden) -> None:
    from grader.grading.compare import compare_table
    data = load_case_data(JUDGE.QUOTED)
    ints = {"k": 2, "max_sup": 1, "l": 2}
    made = 0
    for output in _mutants():
        verdict = compare_table(output, JUDGE.EXPECTED, data, function, ints, hidden)
        if verdict.said is None:  # a table the kanon core cannot read: English only, still
            assert verdict.message.startswith("the output is not a readable dataset")
            continue
        made += 1
        assert verdict.said.english() == verdict.message
        shown, was = render(verdict.said, ZH), frozen(verdict.message)
        if "other; note" in verdict.message:  # the pattern layer's "; " split a student's cell
            assert "'other; note'" in shown and "'other；note'" in was
            assert shown == was.replace("other；note", "other; note")
        else:
            assert shown == was
        assert not hidden or not list(verbatim_params(verdict.said)) or \
            "column" in verdict.said.english()  # a hidden case: a column's name at most
    assert made >= 6


def _as_before(said: Message, english: str) -> None:
    """`said` is `english` (the record's sentence as it was) and renders in Chinese as the
    pattern layer rendered that sentence."""
    assert said.english() == english
    assert render(said, ZH) == frozen(english)


def test_the_time_policys_plans_keep_their_data() -> None:
    from grader.grading.statuses import Status
    from grader.grading.time_policy import TimePolicy
    policy = TimePolicy()
    case = type("Case", (), {"function": "mondrian", "name": "200 rows, k=10"})()
    policy.record(case, 200, 10.0, Status.TIMEOUT)
    noted = policy.plan(case, 20.0)
    _as_before(noted.noted, noted.note)
    assert noted.skipped is None and noted.skip == ""
    policy.record(case, 300, 10.0, Status.TIMEOUT)
    skipped = policy.plan(case, 20.0)
    _as_before(skipped.skipped, skipped.skip)
    assert "200 rows, k=10" in render(skipped.skipped, ZH)


@pytest.mark.parametrize("outcome", [
    CallOutcome("timeout"), CallOutcome("timeout", error={"wall": True}),
    CallOutcome("exit", error={"code": 2}), CallOutcome("memory"),
    CallOutcome("crash", error={"signal": "SIGKILL"}),
    CallOutcome("exception", error={"type": "ValueError", "message": "bad: x"})])
def test_import_problems_keep_their_data(outcome) -> None:
    from grader.grading.session_keeper import describe_import, describe_import_message
    said = describe_import_message(outcome, 10.0)
    _as_before(said, describe_import(outcome, 10.0))
    _as_before(Message("your file could not be imported: {problem}", problem=said),
               f"your file could not be imported: {said}")


def test_privacy_summaries_keep_their_data() -> None:
    from grader.grading.privacy_summary import summary_message, summary_of
    rows = [["a", "x"], ["a", "y"], ["b", "x"], ["b", "x"], ["b", "y"], ["*", "z"]]
    for sensitive in (None, 1):
        for suppressed in (None, ("*",), ("a",)):
            _as_before(summary_message(rows, [0], sensitive, suppressed),
                       summary_of(rows, [0], sensitive, suppressed))
    _as_before(summary_message([["a"], ["a"]], [0], None), "k reached: 2 (1 class of 2 rows)")
    _as_before(summary_message([["a"], ["a"], ["b"], ["b"], ["*"]], [0], None, ("*",)),
               "k reached: 2 (2 classes of 2 rows), 1 row suppressed")


def test_the_feedback_renders_a_cases_privacy_from_its_data() -> None:
    from grader.gradebook.case_text import in_language
    said = Message("{summary}, {n} rows deleted", n=8, summary=Message(
        "k reached: {k} (1 class of {size} rows)", k=492, size=492))
    text = "k reached: 492 (1 class of 492 rows), 8 rows deleted"
    assert in_language(text, said.to_json(), ZH) == "达到的 k：492（1 个等价类，492 行），删除了 8 行"
    assert in_language(text, said.to_json(), EN) == text
    assert in_language(text, None, ZH) == text  # a record without data: its English, as is
    other = Message("k reached: {k} (1 class of {size} rows)", k=1, size=1).to_json()
    assert in_language(text, other, ZH) == text  # data of another sentence: the English too


def test_a_cases_message_composes_its_data() -> None:
    from grader.grading.case_runner import case_message
    from grader.grading.judge import Judgement, said
    from grader.grading.statuses import Status
    from grader.grading.time_policy import Plan
    plain = Plan(10.0)
    noted = Plan(1.0, noted=Message("ran under a shortened limit of {limit} s after an earlier "
                                    "timeout (on the case \"{name}\"; this case's own limit is "
                                    "{own} s)", limit="1", name="ties, k=3", own="2"))
    correct = said(Status.PASSED, Message("returned {value}, correct", value="12.0"), 1.0)
    crashed = said(Status.ERROR, Message("raised {kind}: {message}", kind=Verbatim("KeyError"),
                                         message=Verbatim("'x'")), tail="\nTraceback ...")
    for verdict in (correct, crashed):
        for plan in (plain, noted):
            for leftover, forbidden in ((0, False), (1, False), (3, False), (2, True)):
                message, ref = case_message(verdict, leftover, forbidden, plan)
                head, data = message.partition("\n")[0], Message.from_json(ref)
                if plan is plain:
                    _as_before(data, head)
                else:  # the pattern layer split the note at its own "; " (English left)
                    assert data.english() == head and not english_left(render(data, ZH))
                    assert english_left(frozen(head))
    message, _ = case_message(correct, 3, False, noted)
    assert message == ("ran under a shortened limit of 1 s after an earlier timeout (on the case "
                       "\"ties, k=3\"; this case's own limit is 2 s): returned 12.0, correct; "
                       "your code left 3 processes running after the call returned; they were "
                       "killed")
    assert case_message(crashed, 1, False, plain)[0].endswith(
        "Traceback ...; your code left 1 process running after the call returned; it was killed")
    kcheck = Judgement(Status.WRONG, "data row 1: the rule “k” is broken.", 0.0, {"rule": "k"})
    assert case_message(kcheck, 0, False, plain) == (kcheck.message, {"rule": "k"})
    assert case_message(kcheck, 1, False, plain)[1] is None
