"""Every zh-CN message students or staff read is written Chinese (tests/kit/languages/zh_text.py):
no space between two CJK characters, no English prose outside code, file names, identifiers
and a student's own text, Chinese commas in lists, the glossary's words. Checked: every msgstr
of the grader's, the self-check's and kcheck's catalogs, every message a producer makes as a kcheck.text
Message (its catalog entry), kcheck's zh-CN catalog, and a zh-CN course's feedback,
HTML page and Gradescope results.json rendered from a hand-made failing record (no grading
run: the slow end-to-end test test_zh_failing_feedback.py grades real ones). A student's own
text (an exception's message) passes through byte for byte."""
from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from grader.catalogs import po_path, read_po, translator
from grader.gradebook.export import feedback_md, gradescope_json, write_student
from grader.gradebook.feedback_export import student_page
from grader.grading.hidden_view import StudentCode
from grader.grading.judge import judge
from grader.publishing.autograde import _failure_output, _hidden_note
from grader.grading.notes import Note, file_list, notes_ref
from grader.grading.session_keeper import hint_message, retry_note
from grader.rubric import load
from grader.sandbox.packages import unavailable
from kcheck.messages import TEXTS, render, render_facts
from kcheck.text import Message, Verbatim
from kcheck.text import Joined, Message
from kcheck.text import render as render_message
from kcheck.verdicts import PASSED, WRONG, Verdict

from grader.sandbox import CallOutcome
from test_grader_messages_zh import JUDGE, message_ids
from zh_text import ascii_list_commas, avoided_words, cjk_spaces, english_prose, prose_lines

REPO = Path(__file__).resolve().parents[3]
ZH = translator("zh-CN")
STUDENT_TEXT = "k 无效; 应为 正整数"  # an exception's message: `;` and a space between CJK
QUOTED = (STUDENT_TEXT, "debug 4; 你好 世界", "name 'pd' is not defined")
"""The student's own text in the pages: its exception messages (Python's, for a NameError)
and what it printed, shown as they are."""
ALLOWED = ("Mondrian", "Samarati")  # the algorithms' names


def problems(text: str, student_texts: tuple[str, ...] = ()) -> list[str]:
    """What a Chinese reader would object to in `text` (Markdown or plain): the checks of
    zh_text on its prose lines, the student's own texts set aside."""
    for quoted in student_texts:
        text = text.replace(quoted, "`quoted`")
    found = [f"avoided word: {w}" for w in avoided_words(text)]
    for line in prose_lines(text, comments=False):
        found += [f"CJK space {s!r} in {line!r}" for s in cjk_spaces(line)]
        found += [f"English {s!r} in {line!r}" for s in english_prose(line, ALLOWED)]
        found += [f"ASCII comma {s!r} in {line!r}" for s in ascii_list_commas(line)]
    return found


def page_text(page: str) -> str:
    """The prose of an HTML page, one block a line: preformatted text left out, inline code
    as a code span, inline tags removed without adding a space."""
    text = re.sub(r"<pre>.*?</pre>|<style>.*?</style>", "\n", page, flags=re.S)
    text = re.sub(r"<code>.*?</code>", "`code`", text, flags=re.S)
    text = re.sub(r"</?(p|li|ul|ol|h\d|tr|td|th|table|br|div|body|head|title)\b[^>]*>", "\n",
                  text)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def _catalog_texts() -> list[tuple[str, str]]:
    texts = []
    for domain in ("kcheck", "grader", "selfcheck"):
        entries = read_po(po_path(REPO, domain, "zh-CN"))
        texts += [(f"{domain}.po: {msgid[:60]!r}", msgstr)
                  for msgid, msgstr in entries.items() if msgid]
    return texts


@pytest.mark.parametrize("where,text", _catalog_texts())
def test_every_catalog_message_is_written_chinese(where: str, text: str) -> None:
    assert problems(text) == [], where


def test_every_message_a_producer_makes_has_a_written_chinese_translation() -> None:
    made = message_ids()
    assert len(made) > 100  # every Message("...") of grader/, kanon/, kcheck/
    bad = {t: problems(ZH(t)) for t in made if problems(ZH(t))}
    untranslated = [t for t in made if ZH(t) == t and re.search("[a-z]{3}", t)]
    assert bad == {} and untranslated == []


CODE = StudentCode({"lab.py": 20}, frozenset({"pandas"}), ("numpy",))
REFUSED = "pandas is not available: this course allows only numpy and the standard library"


def _raised(kind: str, message: str, hidden: bool = False, line: int = 0,
            hint: Message | None = None) -> Message:
    """The judge's message (grader/grading/judge.py) of a call that raised `kind` (`hint`: on
    a NameError, the import retry's left-out line)."""
    trace = f'  File "lab.py", line {line}, in f\n    import pandas\n' if line else ""
    error = {"type": kind, "mro": [kind], "message": message, "traceback": trace}
    verdict = judge(CallOutcome("exception", error=error), JUDGE.facts("cost_MD", JUDGE.VALUE,
                                                                        hidden), code=CODE,
                    hint=hint)
    said = Message.from_json(verdict.ref)
    assert verdict.message.partition("\n")[0] == said.english()
    return said


@pytest.mark.parametrize("said,english,chinese", [
    (lambda: _raised("ValueError", STUDENT_TEXT), f"raised ValueError: {STUDENT_TEXT}",
     f"引发了 ValueError：{STUDENT_TEXT}"),
    (lambda: _raised("ValueError", "bad k; use k >= 1"), "raised ValueError: bad k; use k >= 1",
     "引发了 ValueError：bad k; use k >= 1"),
    (lambda: _raised("ModuleNotFoundError", REFUSED, hidden=True, line=2),
     f"raised ModuleNotFoundError at lab.py, line 2: {REFUSED}",
     "在 lab.py 第 2 行引发了 ModuleNotFoundError：pandas 不可用；本课程的规则：仅 numpy 和标准库"),
    (lambda: Message("the class of data row {row} has {size} row(s) (data rows {rows}), fewer "
                     "than k = {k}", row=3, size=2, rows=Joined([3, 8, 9, "..."]), k=4),
     "the class of data row 3 has 2 row(s) (data rows 3, 8, 9, ...), fewer than k = 4",
     "第 3 条数据行所在的等价类有 2 行（数据行 3、8、9、...），少于 k = 4"),
    (lambda: Message("your file could not be imported: {problem}", problem=Message(
        "it raised {kind}: {message}", kind=Verbatim("KeyError"), message=Verbatim("'a; b'"))),
     "your file could not be imported: it raised KeyError: 'a; b'",
     "无法导入你的文件：它引发了 KeyError：'a; b'"),
    (lambda: _raised("NameError", "name 'pd' is not defined", hint=hint_message(
        {"lines": [1, 1], "code": "import pandas as pd", "reason": f"it raised "
         f"ModuleNotFoundError: {REFUSED}", "said": Message(
             "it raised {kind}: {message}", kind=Verbatim("ModuleNotFoundError"),
             message=unavailable("pandas", ["numpy"])).to_json()}, ["numpy"])),
     "raised NameError: name 'pd' is not defined (line 1, `import pandas as pd`, was left out: "
     "it raised ModuleNotFoundError: pandas is not available: this course allows only numpy "
     "and the standard library)",
     "引发了 NameError：name 'pd' is not defined（第 1 行 `import pandas as pd` 被略去：它引发了 "
     "ModuleNotFoundError：pandas 不可用；本课程的规则：仅 numpy 和标准库）"),
    (lambda: Message("Data files in your submission are not used (each case supplies its own "
                     "adult-hw1.csv and DGHs): {files}.",
                     files=file_list(["a b.csv", "c;d.csv", "e.csv", "f.csv", "g.csv"], 2)),
     "Data files in your submission are not used (each case supplies its own adult-hw1.csv and "
     "DGHs): a b.csv, c;d.csv and 3 more.",
     "你提交中的数据文件不会被使用（每个测试用例自带 adult-hw1.csv 和 DGHs）：a b.csv、c;d.csv 及另外 3 个。"),
])
def test_student_text_passes_through_and_the_grader_s_words_are_translated(
        said, english: str, chinese: str) -> None:
    message = said()
    assert message.english() == english
    assert render_message(message, ZH) == chinese


def test_every_kcheck_verdict_renders_as_written_chinese() -> None:
    rendered = [render_facts(12, 4, 0.25, language="zh-CN")]
    for key, template in TEXTS.items():
        rule, _, detail = key.partition("/")
        params = {name: ["age", "sex"] if name in ("found", "expected") else 7
                  for name in re.findall(r"\{(\w+)\}", template)}
        for row, column in ((3, "age"), (3, None), (None, "age"), (None, None)):
            verdict = Verdict(PASSED if rule == "passed" else WRONG, rule, row, column, params,
                              detail)
            rendered += [render(verdict, "zh-CN"), render(verdict, "zh-CN", hidden=True)]
    assert [(text, problems(text)) for text in rendered if problems(text)] == []
    assert "第 3 条数据行，列 `age`：输出的列为 `age`、`sex`，应恰为 `age`、`sex`" in "\n".join(rendered)


def _record(part: str) -> dict:
    """A failing student of a zh-CN course: an exception with the student's own message, a
    refused package (hidden case), a NameError with its hint, a broken rule with a privacy
    summary, a timeout, a pass; notes of a retried import and unused data files."""
    case = {"id": "c2", "part": part, "points": 0.0, "max_points": 5.0, "time_limit": 10.0,
            "cpu_seconds": 0.5, "hidden": False, "visibility": "visible"}
    refused = ("pandas is not available: this course allows only numpy and the standard "
               "library")
    dgh = "Any\n\tA\n\t\ta1\n\t\ta2\n\tB\n\t\tb1\n\t\tb2\n\t\tb3\n"
    counterexample = {
        "hidden": False, "found": True, "calls": 12, "case": "adult-hw1, k=4", "case_id": "c1",
        "ints": {"k": 2, "max_sup": 0}, "rows": [3, 5], "source": "public/adult",
        "qis": ["job", "sex"], "header": ["job", "sex", "dis"],
        "raw": [["a1", "M", "x"], ["b1", "M", "y"]], "dghs": {"job": dgh, "sex": "Any\n\tM\n"},
        "problem": None, "expected": "job,sex,dis\nAny,M,x\nAny,M,y\n",
        "yours": "job,sex,dis\nA,M,x\nAny,M,y\n"}
    notes = _notes(refused)
    problem = Message("it raised {kind}: {message}", kind=Verbatim("ModuleNotFoundError"),
                      message=unavailable("pandas", ["numpy"]))
    raised = Message("raised {kind}: {message}", kind=Verbatim("ValueError"),
                     message=Verbatim(STUDENT_TEXT))
    privacy = Message("{summary}, {n} rows suppressed", n=2, summary=Message(
        "k reached: {k} ({classes} classes of {low} to {high} rows)", k=2, classes=3, low=2,
        high=4))
    return {
        "counterexamples": {part: counterexample},
        "student": "li", "score": 5.0, "max": 110.0, "status": "error", "source": "li.py",
        "solution": "li/lab.py", "parts": {part: 5.0},
        "notes": [str(n) for n in notes], "notes_ref": notes_ref(notes),
        "cases": [
            case | {"status": "error", "name": "adult-hw1, k=4", "id": "c1",
                    "output": "debug 4; 你好 世界\n"} | _said(
                raised, f"raised ValueError: {STUDENT_TEXT}", f"\n  File \"lab.py\", line 7, in "
                f"mondrian\n    raise ValueError(\"{STUDENT_TEXT}\")"),
            case | {"status": "error", "name": "ties, k=3", "hidden": True} | _said(
                Message("raised {kind} at {where}: {refusal}", kind=Verbatim("ModuleNotFoundError"),
                        where=Message("{file}, line {line}", file=Verbatim("lab.py"), line=2),
                        refusal=unavailable("pandas", ["numpy"])),
                f"raised ModuleNotFoundError at lab.py, line 2: {refused}"),
            case | {"status": "error", "name": "500 rows, k=2"} | _said(
                Message("raised {kind}: {message}", kind=Verbatim("NameError"), message=Message(
                    "{message} (line {n}, `{code}`, was left out: {reason})",
                    message=Verbatim("name 'pd' is not defined"), n=1,
                    code=Verbatim("import pandas as pd"), reason=problem)),
                "raised NameError: name 'pd' is not defined (line 1, `import pandas as pd`, was "
                f"left out: it raised ModuleNotFoundError: {refused})"),
            case | {"status": "wrong", "name": "ages 20-40, k=5",
                    "privacy": privacy.english(), "privacy_ref": privacy.to_json()} | _said(
                Message("it breaks {rules}", rules=Joined([Message(
                    'rule "{rule}": {detail}', rule="k", detail=Message(
                        "the class of data row {row} has {size} row(s) (data rows {rows}), fewer "
                        "than k = {k}", row=3, size=2, rows=Joined([3, 8]), k=4))], "; ")),
                'it breaks rule "k": the class of data row 3 has 2 row(s) (data rows 3, 8), '
                "fewer than k = 4"),
            case | {"status": "timeout", "name": "adult-hw1, k=10", "cpu_seconds": 10.0} | _said(
                Message("ran out of time: it used its whole CPU-time limit of {limit} s for this "
                        "case ({rows} rows)", limit="10", rows=9999),
                "ran out of time: it used its whole CPU-time limit of 10 s for this case "
                "(9999 rows)"),
            case | {"status": "passed", "name": "adult-hw1, k=2", "points": 5.0} | _said(
                Message("identical to the reference output"), "identical to the reference output"),
        ]}


def _said(message: Message, english: str, tail: str = "") -> dict:
    """A case's message (`english`, then `tail`: a traceback) and its data (`message_ref`), as
    the judge keeps them (grader/grading/judge.py `said`)."""
    assert message.english() == english
    return {"message": english + tail, "message_ref": message.to_json()}


def _notes(refused: str) -> list[str]:
    """The notes of a retried import and unused data files, made as the grader makes them
    (their messages kept as data: grader/grading/notes.py)."""
    problem = Message("it raised {kind}: {message}", kind=Verbatim("ModuleNotFoundError"),
                      message=unavailable("pandas", ["numpy"]))
    assert problem.params["message"].english() == refused
    dropped = [{"lines": [1, 1], "code": "import pandas as pd", "reason": problem.english(),
                "said": problem.to_json()}]
    notes = [retry_note({"problem": problem.english(), "dropped": dropped}, problem, ["numpy"]),
             Note(Message("Data files in your submission are not used (each case supplies "
                          "its own adult-hw1.csv and DGHs): {files}.",
                          files=file_list(["a.csv", "b.csv"], 8)))]
    assert notes == [  # the English of the record, as ever
        f"Importing your file failed (it raised ModuleNotFoundError: {refused}). It was "
        f"imported again one top-level statement at a time and graded that way, leaving out: "
        f"line 1 (`import pandas as pd`: it raised ModuleNotFoundError: {refused}). Keep "
        f"command-line code and experiments under `if __name__ == \"__main__\":`.",
        "Data files in your submission are not used (each case supplies its own adult-hw1.csv "
        "and DGHs): a.csv, b.csv."]
    return notes


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    rubric = replace(load(REPO / "grader" / "rubric.toml"), language="zh-CN")
    record = _record(rubric.auto_parts[-1].key)
    out = tmp_path_factory.mktemp("graded")
    write_student(out, record, rubric)
    (out / "summary.json").write_text(json.dumps({"course": {"language": "zh-CN"}}),
                                      encoding="utf-8")
    page = student_page(out, "li")
    results = json.loads(gradescope_json(record, rubric))
    return {"feedback": feedback_md(record, rubric), "page": page, "page text": page_text(page),
            "results": "\n\n".join([results.get("output", ""), _hidden_note(ZH)]
                                   + [t["name"] + "\n" + t["output"] for t in results["tests"]])}


@pytest.mark.parametrize("what", ["feedback", "page text", "results"])
def test_a_failing_student_s_pages_are_written_chinese(rendered: dict[str, str],
                                                       what: str) -> None:
    assert problems(rendered[what], QUOTED) == []


def test_the_student_s_own_text_is_shown_byte_for_byte(rendered: dict[str, str]) -> None:
    assert f"引发了 ValueError：{STUDENT_TEXT}" in rendered["feedback"]
    assert f"raise ValueError(\"{STUDENT_TEXT}\")" in rendered["feedback"]
    assert "debug 4; 你好 世界" in rendered["feedback"]
    assert html.escape(f"引发了 ValueError：{STUDENT_TEXT}", quote=False) in rendered["page"]
    assert f"引发了 ValueError：{STUDENT_TEXT}" in rendered["results"]
    assert "k 无效；" not in rendered["feedback"] + rendered["results"]


def test_gradescope_s_notes_are_in_the_course_s_language() -> None:
    assert _hidden_note(ZH).startswith("隐藏测试用例使用你没有见过的数据集，")
    assert _failure_output(ZH).startswith("自动评分程序未能为这份提交评分")
    english = translator("en")
    assert _hidden_note(english).startswith("Hidden cases use datasets you have not seen; their "
                                            "results appear when the grades are published.")
    assert problems(_hidden_note(ZH) + "\n" + _failure_output(ZH) + "\n"
                    + ZH("Nothing was submitted.")) == []
