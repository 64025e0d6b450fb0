"""The grader's sentences about a submission read in Chinese for a zh-CN course and stay the
record's English for an English one: every status the judge gives (grader/grading/judge.py,
compare.py, hidden_view.py), every rule kcheck/rules can name as broken, the privacy summary, a
manual part's check line, the time policy's notes and the import notes, each made as a
kcheck.text Message by the module that writes it, then rendered through the zh-CN catalog with
no English words left (code, quoted values and column lists aside). A sentence a producer still
writes as English only is read as the pattern layer read it before it was deleted
(zh_pattern_layer.json, `frozen`)."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from grader.catalogs import MESSAGE_SOURCES, _literal_calls, translator
from grader.gradebook.case_text import named
from grader.grading.compare import load_case_data
from grader.grading.judge import judge
from grader.grading.manual_check import check_part
from grader.grading.privacy_summary import summary_message
from grader.grading.rules_judge import judge_by_rules
from grader.grading.session_keeper import describe_import_message
from grader.grading.time_policy import TimePolicy
from grader.grading.statuses import Status
from grader.rubric import Part
from grader.sandbox import CallOutcome
from kcheck.text import Message, Verbatim, render

REPO = Path(__file__).resolve().parents[3]
ZH = translator("zh-CN")
EN = translator("en")
_WORDS = re.compile(r"\b[A-Za-z][A-Za-z-]*(?:[ ,]+[A-Za-z][A-Za-z-]*){2,}")
_CODE = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|\[[^\]]*\]|\([A-Za-z_]+ \d[^)]*\)")
FROZEN = json.loads((REPO / "tests" / "kit" / "languages" / "zh_pattern_layer.json")
                    .read_text(encoding="utf-8"))


def frozen(english: str) -> str:
    """The zh-CN the pattern layer (grader/gradebook/student_messages.py `translate`) made of
    `english`, frozen before it was deleted (zh_pattern_layer.json)."""
    return FROZEN["translate"][english]


def frozen_name(name: str) -> str:
    """The zh-CN the pattern layer made of a case's name (`case_name`), frozen likewise."""
    return FROZEN["case_name"][name]


def english_left(text: str) -> list[str]:
    """Runs of three or more English words outside code, quoted values and lists."""
    return _WORDS.findall(_CODE.sub(" ", text))


def _judge_table():
    spec = importlib.util.spec_from_file_location(
        "judge_table", REPO / "tests" / "kit" / "grading" / "test_grader_judge.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


JUDGE = _judge_table()


def message_ids() -> dict[str, str]:
    """Every `Message("...")` id the producers make (grader/catalogs.py's MESSAGE_SOURCES of
    the grader's catalog), and the sandboxed child's `said("...")` (a Message's JSON made
    without kcheck) -> where it is first made."""
    found: dict[str, str] = {}
    for pattern in MESSAGE_SOURCES["grader"]:
        for path in sorted(REPO.glob(pattern)):
            _literal_calls(REPO, path, ("Message",), found)
    for path in sorted(REPO.glob("grader/sandbox/worker_parts/*.py")):
        _literal_calls(REPO, path, ("said",), found)
    return found


def assert_chinese(said: Message | str) -> str:
    """`said` in Chinese, asserted to have no English words left: a Message rendered through
    the zh-CN catalog (and its English through the English one); a sentence its producer still
    writes as English only, as the pattern layer read it (`frozen`)."""
    if isinstance(said, Message):
        english, shown = said.english(), render(said, ZH)
        assert render(said, EN) == english
    else:
        english, shown = said, frozen(said)
    assert shown != english and not english_left(shown), (english, shown)
    return shown


def as_message(ref: dict | None, english: str) -> Message | str:
    """A record's message data (`ref`, a kcheck.text Message's JSON) checked against its
    English, or the English where there is none (kcheck's own judge's data is no Message)."""
    if ref is None or "id" not in ref:
        return english
    said = Message.from_json(ref)
    assert said.english() == english
    return said


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("outcome, case, produced, status, fraction, words", JUDGE.CASES)
def test_every_judgement_reads_in_chinese(outcome, case, produced, status, fraction, words,
                                         hidden) -> None:
    case = JUDGE.facts(case.function, case.expected, hidden)
    data = load_case_data(JUDGE.QUOTED) if case.expected.kind == "table" else None
    verdict = judge(outcome, case, produced, data)
    assert_chinese(as_message(verdict.ref, verdict.message.partition("\n")[0]))


def test_a_known_message_reads_as_the_catalog_says() -> None:
    assert render(Message("raised {kind} as the contract requires",
                          kind=Verbatim("ValueError")), ZH) == "按约定引发了 ValueError"
    assert render(Message("raised {kind} at {where}", kind=Verbatim("RuntimeError"),
                          where=Message("{file}, line {line}", file=Verbatim("lab.py"),
                                        line=12)), ZH) == "在 lab.py 第 12 行引发了 RuntimeError"
    assert named("200 rows, sex as a categorical QI, k=5", None, ZH) == \
        "200 行、sex 作为分类型准标识符（QI）、k=5"
    assert named("200 rows, k=5", None, EN) == "200 rows, k=5"


A = "Any\n\ta1\n\t\tx1\n\t\tx2\n\ta2\n\t\tx3\n\t\tx4\n"
B = "Any\n\tb1\n\tb2\n"
RAW = "Name,A,B,S\nn1,x1,b1,s1\nn2,x2,b2,s2\nn3,x3,b1,s1\nn4,x4,b2,s2\n"


def table(*rows: str, header: str = "A,B,S") -> bytes:
    return (header + "\n" + "".join(r + "\n" for r in rows)).encode()


BROKEN = [  # (function, output): each breaks some rule of the USTC lab
    ("samarati", table("Any,Any,s1", "Any,Any,s2", "Any,Any,s1", "Any,Any,s2")),
    ("samarati", table("x1,b1,s1", "x2,b2,s2", "x3,b1,s1", "x4,b2,s2")),
    ("samarati", table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1", "a2,Any,s9")),
    ("samarati", table("a1,Any,s1", "x2,Any,s2", "a2,Any,s1", "a2,Any,s2")),
    ("samarati", table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1")),
    ("samarati", table("a1,s1", "a1,s2", header="A,S")),
    ("samarati", b"A,B,S\nx1,b1\n"),
    ("mondrian", table("x1,b1,s1", "x2,b2,s2", "x3,b1,s1", "x4,b2,s2")),
    ("mondrian", table("Any,Any,s1", "Any,Any,s2", "Any,Any,s1", "Any,Any,s2")),
    ("mondrian", table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1", "zz,Any,s2")),
    ("mondrian", table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1", "a2,b9,s2")),
    ("mondrian", table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1", "a2,Any,s2", header="A,B,T")),
]


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("function, output", BROKEN)
def test_every_broken_rule_reads_in_chinese(tmp_path: Path, function, output, hidden) -> None:
    from kanon.schema import Schema
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "A.txt").write_text(A, encoding="utf-8")
    (tmp_path / "DGHs" / "B.txt").write_text(B, encoding="utf-8")
    (tmp_path / "adult-hw1.csv").write_text(RAW, encoding="utf-8")
    data = load_case_data(tmp_path, ("A", "B"), Schema(sensitive="S", other_columns="drop",
                                                      suppression="delete"))
    verdict = judge_by_rules(output, data, function, {"k": 2, "max_sup": 0}, hidden=hidden)
    assert verdict.status != "passed"
    if verdict.said is not None:
        assert verdict.said.english() == verdict.message
    assert_chinese(verdict.message if verdict.said is None else verdict.said)


def test_privacy_summaries_read_in_chinese() -> None:
    rows = [["a", "x"], ["a", "y"], ["b", "x"], ["b", "x"], ["b", "y"], ["*", "z"]]
    for sensitive in (None, 1):
        for suppressed in (None, ("*",)):
            assert_chinese(summary_message(rows, [0], sensitive, suppressed))
    assert_chinese(summary_message([["a"], ["a"]], [0], None))
    assert_chinese(summary_message([["a"], ["a"], ["*"]], [0], None, ("*",)))
    one = Message("{summary}, {n} rows deleted", n=8, summary=Message(
        "k reached: {k} (1 class of {size} rows)", k=492, size=492))
    many = Message("{summary}, {n} rows deleted", n=16, summary=Message(
        "k reached: {k} ({classes} classes of {low} to {high} rows)", k=19, classes=29, low=19,
        high=2903))
    assert one.english() == "k reached: 492 (1 class of 492 rows), 8 rows deleted"
    assert assert_chinese(one) == "达到的 k：492（1 个等价类，492 行），删除了 8 行"
    assert many.english() == "k reached: 19 (29 classes of 19 to 2903 rows), 16 rows deleted"
    assert assert_chinese(many) == "达到的 k：19（29 个等价类，每个 19 到 2903 行），删除了 16 行"


def test_manual_parts_time_policy_and_import_notes_read_in_chinese(tmp_path: Path) -> None:
    part = Part("report", "", 20.0, 0.0, kind="manual", files=("*.pdf",), max_pages=2)
    for checked in (part, "not a pdf", Part("code", "", 10.0, 0.0, kind="manual")):
        if isinstance(checked, str):
            (tmp_path / "r.pdf").write_bytes(checked.encode())
            checked = part
        found = check_part(checked, tmp_path)
        assert_chinese(as_message(found["check_ref"], found["check"]))
    policy = TimePolicy()
    case = type("Case", (), {"function": "mondrian", "name": "adult, k=10"})()
    policy.record(case, 500, 10.0, Status.TIMEOUT)
    assert_chinese(policy.plan(case, 20.0).noted)
    policy.record(case, 600, 10.0, Status.TIMEOUT)
    assert_chinese(policy.plan(case, 20.0).skipped)
    for outcome in (CallOutcome("timeout"), CallOutcome("timeout", error={"wall": True}),
                    CallOutcome("exit", error={"code": 2}), CallOutcome("memory"),
                    CallOutcome("crash", error={"signal": "SIGKILL"})):
        assert_chinese(describe_import_message(outcome, 10.0))


def test_every_messages_translation_uses_only_its_fields() -> None:
    # (the pattern layer also needed distinct fields, for its regular expressions; a Message
    # fills a field used twice, "{n}", from one value)
    field = re.compile(r"\{(\w+)\}")
    for template in message_ids():
        assert set(field.findall(ZH(template))) <= set(field.findall(template)), template


def test_retries_refused_files_and_archives_read_in_chinese(tmp_path: Path) -> None:
    import zipfile

    from grader.grading.intake import ArchiveProblem, safe_extract
    from grader.grading.results import SubmissionResult
    from grader.grading.session_keeper import retry_note
    from grader.sandbox.packages import unavailable_message
    from grader.settings import Caps
    dropped = [{"lines": [3, 3], "code": "import pandas", "reason": unavailable_message(
        "pandas", ["numpy"])}, {"lines": [5, 7], "code": "main()", "reason":
        "it reads the command line (sys.argv)"}]
    for problem in ("ModuleNotFoundError: pandas is not available: this course allows only "
                    "numpy and the standard library", "it used more than 10 s of CPU time"):
        assert_chinese(retry_note({"problem": problem, "dropped": dropped}))
    assert_chinese(retry_note({"problem": "it ran for more than 30 s (waiting)", "dropped": []}))
    result = SubmissionResult("s", "s.zip", [])
    result.forbid(["/grader/x"], "in case 3")
    result.forbid(["/grader/y"], "while your file was imported")
    for note in result.notes:
        assert_chinese(note)
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("../evil.py", "x = 1\n")
    with pytest.raises(ArchiveProblem) as refused:
        safe_extract(archive, tmp_path / "out", Caps())
    assert_chinese(str(refused.value.args[-1]))
