"""Message catalogs (grader/catalogs.py): every student-visible `_("...")` of the grader and
the self-check has a zh-CN entry, the committed .mo files are the compiled .po files, the
compiler's output reads back through the standard library's gettext (as msgfmt's does), and
what a zh-CN course's students read from them (the feedback's fixed words, the bundle's
README, the self-check's messages module) is Chinese."""
from __future__ import annotations

import gettext
import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from grader.catalogs import (catalog_problems, extract, mo_bytes, po_path, read_po, translator,
                             unwrapped)
from grader.gradebook.export import feedback_md, gradescope_json
from grader.publishing.materials.translations import english_runs
from grader.publishing.student_readme import language_entries, readme
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]


def test_every_message_has_a_zh_cn_entry_and_every_mo_is_compiled() -> None:
    assert catalog_problems("zh-CN", REPO) == []
    assert catalog_problems("en", REPO) == []
    assert len(extract(REPO, "grader")) >= 30


def _copy_catalogs(root: Path) -> None:
    """The kit's zh-CN catalogs (.po and .mo) of every domain, under `root`."""
    for domain in ("kcheck", "grader", "selfcheck"):
        po = po_path(REPO, domain, "zh-CN")
        target = po_path(root, domain, "zh-CN")
        target.parent.mkdir(parents=True)
        shutil.copy(po, target)
        shutil.copy(po.with_suffix(".mo"), target.with_suffix(".mo"))


def test_a_message_without_an_entry_is_reported(tmp_path: Path) -> None:
    _copy_catalogs(tmp_path)
    (tmp_path / "tests" / "public" / "test_x.py").write_text(
        'from messages import _\nprint(_("a new message for students"))\n', encoding="utf-8")
    found = catalog_problems("zh-CN", tmp_path)
    assert found == [f"{po_path(tmp_path, 'selfcheck', 'zh-CN')}: no zh-CN entry for 'a new "
                     f"message for students' (used at tests/public/test_x.py:2)"]
    po = po_path(tmp_path, "grader", "zh-CN")
    po.write_text(po.read_text(encoding="utf-8") + '\nmsgid "x"\nmsgstr "叉"\n',
                  encoding="utf-8")
    assert f"{po.with_suffix('.mo')}: missing or older than grader.po; run python -m grader " \
           f"languages --compile" in catalog_problems("zh-CN", tmp_path)


def test_every_self_check_entry_is_a_message_the_self_check_uses() -> None:
    """The self-check's catalog holds what it renders and nothing else (a sentence left behind
    by a reworded check would be translated by no one)."""
    used = extract(REPO, "selfcheck")
    entries = read_po(po_path(REPO, "selfcheck", "zh-CN"))
    assert sorted(k for k in entries if k and k not in used) == []
    assert "k must be an integer, and bool is not" in used  # a public case's reason


def test_a_kcheck_message_has_one_entry_in_kcheck_catalog(tmp_path: Path) -> None:
    """kcheck's messages reach students from the grader and from the self-check; each
    `Message("...")` id of kcheck is a message of kcheck's own domain (both fall back to it),
    the grader's own and kanon's of the grader's only."""
    _copy_catalogs(tmp_path)
    (tmp_path / "kcheck" / "new.py").write_text(
        'from .text import Message\n\nNEW = Message("a new check for {name}", name="x")\n',
        encoding="utf-8")
    (tmp_path / "kanon").mkdir()
    (tmp_path / "kanon" / "new.py").write_text(
        'from kcheck.text import Message\nM = Message("a new cell sentence")\n', encoding="utf-8")
    assert extract(tmp_path, "kcheck") == {"a new check for {name}": "kcheck/new.py:3"}
    assert extract(tmp_path, "grader") == {"a new cell sentence": "kanon/new.py:2"}
    assert "a new check for {name}" not in extract(tmp_path, "selfcheck")
    found = catalog_problems("zh-CN", tmp_path)
    assert f"{po_path(tmp_path, 'kcheck', 'zh-CN')}: no zh-CN entry for 'a new check for " \
           f"{{name}}' (used at kcheck/new.py:3)" in found
    assert f"{po_path(tmp_path, 'grader', 'zh-CN')}: no zh-CN entry for 'a new cell " \
           f"sentence' (used at kanon/new.py:2)" in found
    assert len(found) == 2, found


def test_the_grader_and_the_self_check_read_kcheck_messages_from_one_entry() -> None:
    """A kcheck message is translated once (kcheck.po) and reads the same through the
    grader's catalog, the self-check's and kcheck's own."""
    import importlib.util
    from kcheck.text import catalog
    spec = importlib.util.spec_from_file_location("selfcheck_messages",
                                                  REPO / "tests" / "public" / "messages.py")
    messages = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(messages)
    ids = extract(REPO, "kcheck")
    assert ids
    entries = read_po(po_path(REPO, "kcheck", "zh-CN"))
    grader_zh = translator("zh-CN")
    selfcheck_zh = messages.translations("zh-CN").gettext
    for message_id in ids:
        assert entries[message_id]
        assert catalog("zh-CN")(message_id) == grader_zh(message_id) == \
            selfcheck_zh(message_id) == entries[message_id]
    for domain in ("grader", "selfcheck"):
        assert not set(ids) & set(read_po(po_path(REPO, domain, "zh-CN"))) - \
            set(extract(REPO, domain)), f"{domain}.po repeats a kcheck entry"


def test_a_self_check_sentence_outside_the_catalog_is_reported(tmp_path: Path) -> None:
    public = tmp_path / "tests" / "public"
    public.mkdir(parents=True)
    (public / "test_y.py").write_text(
        '"""A docstring is not a message, nor is an assert\'s."""\nimport pytest\n'
        'from messages import _\n\n\ndef test_y(run):\n'
        '    assert run, "public cases always have a run"\n'
        '    pytest.fail(f"{run}: the output has too many rows", pytrace=False)\n'
        '    pytest.skip(_("{run} is not graded here").format(run=run))\n'
        'NOTES = [Run("mondrian", "jobsex", 2, note="the handout worked example")]\n'
        'LABEL = "two words"\n', encoding="utf-8")
    (public / "make_expected.py").write_text('print("staff only: never shipped")\n',
                                             encoding="utf-8")
    assert unwrapped(tmp_path, "selfcheck") == [
        "tests/public/test_y.py:8: '{}: the output has too many rows'"]
    assert unwrapped(tmp_path, "grader") == []
    assert f"tests/public/test_y.py:8: '{{}}: the output has too many rows': a sentence " \
           f"students read is not in _() (its zh-CN entry cannot exist)" in \
        catalog_problems("zh-CN", tmp_path)
    assert unwrapped(REPO, "selfcheck") == []


def test_compiled_catalogs_read_back_through_gettext(tmp_path: Path) -> None:
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", "PASS": "通过",
               "Printed:": "打印的内容：", "untranslated": ""}
    (tmp_path / "a.mo").write_bytes(mo_bytes(entries))
    with open(tmp_path / "a.mo", "rb") as f:
        catalog = gettext.GNUTranslations(f)
    assert catalog.gettext("PASS") == "通过" and catalog.gettext("Printed:") == "打印的内容："
    assert catalog.gettext("untranslated") == "untranslated"
    assert mo_bytes(entries) == mo_bytes(dict(reversed(entries.items())))  # deterministic
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt (GNU gettext) is not installed: compared with gettext only")
    po = po_path(REPO, "grader", "zh-CN")
    subprocess.run(["msgfmt", "-o", str(tmp_path / "b.mo"), str(po)], check=True)
    with open(tmp_path / "b.mo", "rb") as f:
        theirs = gettext.GNUTranslations(f)
    for msgid, msgstr in read_po(po).items():
        if msgid:
            assert theirs.gettext(msgid) == msgstr == translator("zh-CN")(msgid)


def test_zh_cn_feedback_has_chinese_fixed_words() -> None:
    rubric = load(REPO / "grader" / "rubric.toml")
    part = rubric.auto_parts[0]
    record = {"student": "alice", "score": 5.0, "max": 110.0, "status": "wrong_output",
              "source": "alice.py", "notes": [], "parts": {part.key: 5.0},
              "cases": [{"part": part.key, "status": "wrong_output", "hidden": True,
                         "name": "ties", "points": 0.0, "max_points": 5.0,
                         "message": "row 3, column age: expected 1, got 2",
                         "time_limit": 10.0, "cpu_seconds": 0.5, "visibility": "visible"}]}
    zh = feedback_md(record, replace(rubric, language="zh-CN"))
    assert zh.startswith("# alice 的反馈\n\n**得分：5 / 110**（4.55%）。状态：`wrong_output`。")
    assert "- **【未通过】**隐藏测试用例：ties — 0 / 5 — `wrong_output` — 用时 0.50 秒，CPU 时间限制 " \
           "10 秒" in zh
    assert "隐藏测试用例使用你没有见过的数据集" in zh and "Hidden cases use" not in zh
    text = json.loads(gradescope_json(record, replace(rubric, language="zh-CN")))
    assert text["tests"][0]["name"] == f"{part.key}: 隐藏测试用例：ties"
    assert "时间：用时 0.50 秒，CPU 时间限制 10 秒。" in text["tests"][0]["output"]
    en = feedback_md(record, rubric)
    assert en.startswith("# Feedback for alice\n\n**Score: 5 / 110** (4.55%). Status: "
                         "`wrong_output`.")
    assert "- **FAIL** hidden case: ties — 0 / 5 — `wrong_output` — 0.50 s of its 10 s " \
           "CPU-time limit" in en


def test_the_zh_cn_bundle_readme_and_catalog(tmp_path: Path) -> None:
    assert readme("en") is None and language_entries("en", REPO) == []
    text = readme("zh-CN")
    assert text.startswith("# k-匿名（k-anonymity）作业\n\n请先阅读作业说明")
    assert english_runs(text) == []
    names = [e.name for e in language_entries("zh-CN", REPO)]
    assert names == ["README.md", "tests/public/messages.py",
                     "tests/public/locale/zh_CN/LC_MESSAGES/selfcheck.mo",
                     "kcheck/locale/zh_CN/LC_MESSAGES/kcheck.mo"]


def test_the_self_checks_messages_module_reads_the_courses_language(tmp_path: Path) -> None:
    public = tmp_path / "tests" / "public"
    (public / "locale" / "zh_CN" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(REPO / "tests" / "public" / "messages.py", public)
    shutil.copytree(REPO / "kcheck", tmp_path / "kcheck",  # beside tests/, as in a bundle
                    ignore=shutil.ignore_patterns("__pycache__"))
    (public / "locale" / "zh_CN" / "LC_MESSAGES" / "selfcheck.mo").write_bytes(
        mo_bytes({"": "Content-Type: text/plain; charset=UTF-8\n", "passed": "通过"}))
    probe = "import messages; print(messages.language(), messages._('passed'))"
    for course, shown in (({"language": "zh-CN"}, "zh-CN 通过"), ({}, "en passed")):
        (public / "course.json").write_text(json.dumps(course), encoding="utf-8")
        done = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, "
                               f"{str(public)!r}); {probe}"], capture_output=True, text=True,
                              timeout=60)
        assert done.stdout.strip() == shown, done.stderr


def test_a_zh_cn_counterexample_is_explained_in_chinese() -> None:
    from grader.gradebook.counterexample import section
    from grader.grading.record_parts import Counterexample
    dgh = "Any\n\tA\n\t\ta1\n\t\ta2\n\tB\n\t\tb1\n\t\tb2\n\t\tb3\n"
    entry = {"hidden": True, "found": True, "calls": 12, "case": "ties, k=3", "ints": {"k": 2},
             "rows": [3, 5], "source": "public/adult", "qis": ["job"], "header": ["job", "dis"],
             "raw": [["a1", "x"], ["b1", "y"]], "dghs": {"job": dgh}, "problem": None,
             "expected": "job,dis\nAny,x\nAny,y\n", "yours": "job,dis\nA,x\nAny,y\n"}
    zh = "\n".join(section(Counterexample.from_json(entry), "mondrian", "mondrian", "skeleton",
                           translator("zh-CN")))
    assert zh.startswith("### mondrian 的反例\n\n这是一个取自公开数据的小输入")
    assert "输入：`public/adult` 中的 2 行，即第 3、5 条数据行（不计表头）；" in zh
    assert "| 数据行 | job | dis |" in zh and "job.txt（高度 2，5 个叶节点）：" in zh
    assert "你的输出（不同的单元格以**粗体**显示）：" in zh
    assert english_runs(zh) == []
    missed = {**entry, "found": False, "stopped": "budget"}
    zh = "\n".join(section(Counterexample.from_json(missed), "mondrian", "mondrian", "skeleton", translator("zh-CN")))
    assert "没有找到使你的函数与参考实现结果不同的小型公开输入（在调用次数预算内）（共 12 次调用）。" in zh


def test_no_zh_cn_entry_holds_an_english_sentence() -> None:
    for domain in ("grader", "selfcheck"):
        entries = read_po(po_path(REPO, domain, "zh-CN"))
        english = {msgid: english_runs(msgstr) for msgid, msgstr in entries.items() if msgid}
        assert {k: v for k, v in english.items() if v} == {}


def test_a_po_file_giving_a_msgid_twice_or_a_fuzzy_entry_is_refused(tmp_path: Path) -> None:
    """msgfmt refuses a msgid given twice; so does the kit, naming the file and the line (two
    helpers adding the same separator to their sections of one catalog would do it)."""
    from grader.errors import UserError
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid ", "\nmsgstr "、"\n\nmsgid "a"\nmsgstr "甲"\n\n'
                  'msgid ", "\nmsgstr "、"\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"x\.po, line 10: the msgid ', ' is given twice"):
        read_po(po)
    po.write_text('msgid "a"\nmsgstr "甲"\n\n#, fuzzy\nmsgid "b"\nmsgstr "乙"\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"x\.po, line 4: a fuzzy entry"):
        read_po(po)
    po.write_text('msgid "a"\nmsgstr "甲"\n\nmsgid "b"\nmsgstr "乙"\n', encoding="utf-8")
    assert read_po(po) == {"a": "甲", "b": "乙"}
