"""The record's notes as messages (issue 39, item 1): a producer makes each note as a Note
(its English, keeping its kcheck.text Message), the record keeps the messages beside the
English (`notes_ref`, written only when a note has data), the gradebook renders them per
language from that data and shows a note without data as its English; the sandbox's retry
reasons travel as data (`said`) and are cut to 300 characters with their data."""
from __future__ import annotations

import json
import pickle
import zipfile
from pathlib import Path

import pytest

from kanon.files import dump_json
from kcheck.text import Message, Verbatim, render

from grader.catalogs import translator
from grader.gradebook.notes_text import notes_text
from grader.grading.intake import ArchiveProblem, safe_extract
from grader.grading.notes import Note, file_list, message_of, notes_ref
from grader.grading.record import StudentRecord
from grader.grading.results import SubmissionResult
from grader.grading.session_keeper import retry_note
from grader.settings import Caps

REPO = Path(__file__).resolve().parents[3]
ZH = translator("zh-CN")
UNPACKED = Message("Unpacked the zip inside your submission: {name}.",
                   name=Verbatim("inner; 作业.zip"))


def _retry_part() -> dict:
    """The sandbox's retry part (a piece of the child's program, standard library only)."""
    namespace: dict = {}
    source = (REPO / "grader" / "sandbox" / "worker_parts" / "retry.py").read_text("utf-8")
    exec(compile(source, "retry.py", "exec"), namespace)
    return namespace


def test_a_note_is_its_english_and_keeps_its_message_through_a_pickle() -> None:
    note = Note(UNPACKED)
    assert note == "Unpacked the zip inside your submission: inner; 作业.zip."
    assert message_of(note) is UNPACKED and message_of(str(note)) is None
    assert message_of(pickle.loads(pickle.dumps(note))) == UNPACKED  # a cluster's task


def test_the_record_keeps_the_notes_data_only_when_a_note_has_some() -> None:
    assert notes_ref(["plain text"]) is None
    assert notes_ref(["plain text", Note(UNPACKED)]) == [None, UNPACKED.to_json()]
    result = SubmissionResult("ann", "ann.zip", ["plain text", Note(UNPACKED)])
    result.forbid(["/grader/x"], Message("in case {case}", case="c3"))
    data = json.loads(dump_json(StudentRecord(
        "ann", "ann.zip", [str(n) for n in result.notes], None, None, [], {}, {}, 0.0, 0.0, [],
        "ok", notes_ref=notes_ref(result.notes)).to_json()))
    assert data["notes"][2] == ("Your code tried to open the grader's own files in case c3. "
                                "The access was refused and recorded in your grade record.")
    assert data["notes_ref"][0] is None and data["notes_ref"][2]["params"]["where"] == {
        "id": "in case {case}", "params": {"case": "c3"}}
    typed = StudentRecord.from_json(data)
    assert typed.to_json() == data
    assert "notes_ref" not in StudentRecord.from_json({"notes": ["x"]}).to_json()


def test_notes_render_from_their_data_and_a_note_without_data_stays_english() -> None:
    record = StudentRecord.from_json({"notes": ["Unpacked the zip inside your submission: "
                                                "a.zip.", str(Note(UNPACKED)), "stale"],
                                      "notes_ref": [None, UNPACKED.to_json(),
                                                    UNPACKED.to_json()]})
    assert notes_text(record, ZH) == [
        "Unpacked the zip inside your submission: a.zip.",  # no data: an older record's text
        "已解压你的提交中的 zip 文件：inner; 作业.zip。",  # the student's `;` kept as it is
        "stale"]  # data that does not read as the note: the note's own text
    assert notes_text(record) == record.notes


def test_a_list_of_the_students_files_names_how_many_more() -> None:
    names = [f"d{i}.csv" for i in range(5)]
    assert str(Message("{files}", files=file_list(names[:2]))) == "d0.csv, d1.csv"
    shown = Message("{files}", files=file_list(names, 2))
    assert str(shown) == "d0.csv, d1.csv and 3 more"
    assert notes_text(StudentRecord.from_json({"notes": [str(shown)], "notes_ref": [
        shown.to_json()]}), ZH) == ["d0.csv、d1.csv 及另外 3 个"]


def test_a_refused_archive_says_why_as_data(tmp_path: Path) -> None:
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("../evil.py", "x = 1\n")
    with pytest.raises(ArchiveProblem) as refused:
        safe_extract(archive, tmp_path / "out", Caps())
    said = refused.value.said
    assert str(refused.value) == said.english() == ("the archive holds a path with '..': "
                                                   "'../evil.py'")
    assert said.params["name"] == Verbatim("'../evil.py'")


def test_the_retry_reasons_travel_as_data_and_are_cut_with_it() -> None:
    retry = _retry_part()
    reason, data = retry["_failure"](ValueError("bad; 值"))
    assert reason == "it raised ValueError: bad; 值"
    assert Message.from_json(data).english() == reason
    long_reason, long_data = retry["_failure"](KeyError("x" * 400))
    assert len(long_reason) == 300 and Message.from_json(long_data).english() == long_reason
    assert retry["static_reason"](__import__("ast").parse("samarati(1)").body[0]) == (
        "it runs samarati (an experiment)",
        {"id": "it runs {name} (an experiment)", "params": {"name": "samarati"}})
    assert retry["static_reason"](__import__("ast").parse("x = 1").body[0]) == ("", None)


def test_a_retry_note_renders_its_reasons_and_the_refusal_in_the_course_language() -> None:
    retry = _retry_part()
    refused = ModuleNotFoundError("pandas is not available: this course allows only numpy "
                                  "and the standard library")
    dropped = [{"lines": [1, 1], "code": "import pandas", **dict(zip(
        ("reason", "said"), retry["_failure"](refused)))},
        {"lines": [4, 6], "code": "main()", "reason": "it ran for 9 s", "said": None}]
    problem = Message("{note}: {message}", note=Verbatim("OSError"), message=Verbatim("gone"))
    note = retry_note({"problem": problem.english(), "dropped": dropped}, problem, ["numpy"])
    assert note == ("Importing your file failed (OSError: gone). It was imported again one "
                    "top-level statement at a time and graded that way, leaving out: line 1 "
                    "(`import pandas`: it raised ModuleNotFoundError: pandas is not available: "
                    "this course allows only numpy and the standard library); lines 4-6 "
                    "(`main()`: it ran for 9 s). Keep command-line code and experiments under "
                    "`if __name__ == \"__main__\":`.")
    shown = notes_text(StudentRecord.from_json({"notes": [str(note)],
                                                "notes_ref": notes_ref([note])}), ZH)[0]
    assert "第 1 行（`import pandas`：它引发了 ModuleNotFoundError：pandas 不可用" in shown
    assert "第 4-6 行（`main()`：it ran for 9 s）" in shown  # no data: the reason as it is


def test_a_signature_note_reads_in_chinese_with_the_students_names_as_they_are() -> None:
    from grader.grading.static import signature_check
    positional = [(n, "POSITIONAL_OR_KEYWORD", False) for n in ("a", "b", "c", "d")]
    _, _, notes = signature_check("mondrian", positional)
    assert notes == ["`mondrian`: parameter names (a, b, c, d) differ from the handout's "
                     "(raw_dataset_file, DGH_folder, k, output_file); graded by position, as "
                     "the handout calls it."]
    assert render(message_of(notes[0]), ZH) == (
        "`mondrian`：参数名（`a, b, c, d`）与作业说明中的（`raw_dataset_file, DGH_folder, k, "
        "output_file`）不同；按位置评分，与作业说明的调用方式一致。")
