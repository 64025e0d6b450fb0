"""A course's language (issue: a course in its own language): `language` in course.toml's
[course] table, set by `course new --language`, shown by `check`, part of the course
fingerprint only when it is not English (so every English course's fingerprint, and so every
golden file, is as before); an unknown language is refused naming the kit's."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from grader import cli
from grader.courses.create import course_toml
from grader.courses.folder import load_course
from grader.errors import UserError
from grader.grading.fingerprint import differences, fingerprint
from grader.grading.term_view import apply_term
from grader.language import LANGUAGES, check_language
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]


def test_the_kit_knows_english_and_simplified_chinese() -> None:
    assert set(LANGUAGES) == {"en", "zh-CN"}
    assert check_language("zh-CN", "x") == "zh-CN"
    with pytest.raises(UserError, match=r"course.language: 'fr' is not a language this kit "
                                        r"has; known: en \(English\), zh-CN"):
        check_language("fr", "course.toml: course.language")


def test_the_example_courses_are_english_and_their_fingerprints_record_no_language() -> None:
    for folder in ("default", "fall2025", "all"):
        course = load_course(REPO / "courses" / folder)
        assert course.language == "en"
        assert "language" not in fingerprint(apply_term(course.rubric))


def test_the_language_is_part_of_the_fingerprint() -> None:
    english = apply_term(load(REPO / "grader" / "rubric.toml"))
    chinese = replace(english, language="zh-CN")
    ours, theirs = fingerprint(english), fingerprint(chinese)
    assert theirs["language"] == "zh-CN" and ours["fingerprint"] != theirs["fingerprint"]
    assert {k: v for k, v in theirs.items() if k not in ("fingerprint", "language")} == \
        {k: v for k, v in ours.items() if k != "fingerprint"}
    assert differences(ours, theirs) == ["language: 'zh-CN' there, 'en' in the course"]
    assert differences(theirs, ours) == ["language: 'en' there, 'zh-CN' in the course"]


def test_course_toml_writes_the_language_line_only_when_not_english() -> None:
    assert "language" not in course_toml("Fall 2026", "default", "[settings]\n")
    text = course_toml("Fall 2026", "default", "[settings]\n", "zh-CN")
    assert '\nfrom = "default"\nlanguage = "zh-CN"\n\n[settings]\n' in text


def test_course_new_language_then_check_shows_it(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    folder = tmp_path / "zh"
    assert cli.main(["course", "new", str(folder), "--from", "examples", "--term", "Fall 2026",
                     "--language", "zh-CN"]) == 0
    assert "language zh-CN (Simplified Chinese" in capsys.readouterr().err
    course = load_course(folder)
    assert course.language == "zh-CN" and course.rubric.language == "zh-CN"
    assert fingerprint(apply_term(course.rubric))["language"] == "zh-CN"
    assert cli.main(["check", "--course", str(folder)]) == 0
    assert re.search(r"ok: course .*, term Fall 2026, language zh-CN \(Simplified Chinese",
                     capsys.readouterr().err)
    # a course made from it keeps its language unless --language says otherwise
    assert cli.main(["course", "new", str(tmp_path / "copy"), "--from", str(folder),
                     "--term", "Fall 2026"]) == 0
    assert load_course(tmp_path / "copy").language == "zh-CN"
    assert cli.main(["course", "new", str(tmp_path / "en"), "--from", str(folder),
                     "--term", "Fall 2026", "--language", "en"]) == 0
    assert load_course(tmp_path / "en").language == "en"
    assert "language" not in (tmp_path / "en" / "course.toml").read_text(encoding="utf-8")


def test_an_unknown_language_is_refused_naming_the_kits(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["course", "new", str(tmp_path / "fr"), "--from", "examples", "--term",
                     "Fall 2026", "--language", "fr"]) != 0
    err = capsys.readouterr().err
    assert "--language: 'fr' is not a language this kit has; known: en (English), zh-CN" in err
    assert not (tmp_path / "fr").exists()
    folder = tmp_path / "zh"
    assert cli.main(["course", "new", str(folder), "--from", "examples", "--term",
                     "Fall 2026"]) == 0
    toml = folder / "course.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "[course]\n", "[course]\nlanguage = \"zh-TW\"\n"), encoding="utf-8")
    with pytest.raises(UserError, match=r"course.toml: course.language: 'zh-TW' is not a "
                                        r"language this kit has; known: en \(English\), zh-CN"):
        load_course(folder)
