"""kcheck.messages and kcheck.number: both languages word every rule (and every variant) with
the same fields; the Chinese is written as a Chinese instructor writes it; a hidden case's
message shows the rule's name, the row and the column only, never a value of the table."""
from __future__ import annotations

import json
import math
import re
import string
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from kcheck import LANGUAGES, RULES, Verdict, judge_number, render, render_facts, say
from kcheck.messages import (CHECKS, NAMES, TEXTS, WHERE, facts_message, finding_message,
                             template_keys, verdict_message)
from kcheck.text import Message, catalog, verbatim_params
from kcheck.text import say as say_message
from kcheck.verdicts import DETAILS, Finding
from kcheck_data import GOOD_ROWS, RAW_CSV, changed, judge, output

CJK = "\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef"
CJK_SPACE_CJK = re.compile(f"[{CJK}]\\s+[{CJK}]")


def _keys() -> list[tuple[str, str]]:
    return [(rule, detail) for rule in RULES for detail in DETAILS.get(rule, ("",))]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


ZH = catalog("zh-CN")


def _sample(rule: str, detail: str) -> Verdict:
    fields = _fields(TEXTS[template_keys(rule, detail)])
    params = {name: ["a", "b"] if name in ("found", "expected") else f"<{name}>"
              for name in fields}
    status = "passed" if rule == "passed" else "wrong"
    return Verdict(status, rule, 3 if rule != "passed" else None, "age" if "." in rule else None,
                   params, detail)


def test_the_catalog_is_complete_in_every_language() -> None:
    """Every rule has a name and a text per variant; kcheck.po translates each of them (and
    each check's sentence) with the same fields."""
    assert LANGUAGES == ("en", "zh-CN")
    assert set(NAMES) == set(RULES)
    assert set(TEXTS) == {template_keys(r, d) for r, d in _keys()}
    for text in [*NAMES.values(), *TEXTS.values(), *WHERE.values(), *CHECKS.values()]:
        assert ZH(text) != text, text
        assert _fields(ZH(text)) == _fields(text), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_renders(language: str) -> None:
    for rule, detail in _keys():
        verdict = _sample(rule, detail)
        full, hidden = render(verdict, language), render(verdict, language, hidden=True)
        for name in verdict.params:
            if name not in ("found", "expected"):
                assert f"<{name}>" in full, (rule, name)
                assert f"<{name}>" not in hidden
        assert say_message(Message(NAMES[rule]), language) in hidden or rule == "passed"
        if verdict.row is not None:
            assert "3" in full and "`age`" in full and "`age`" in hidden


def _zh_texts() -> list[str]:
    texts = [ZH(t) for t in [*NAMES.values(), *TEXTS.values(), *WHERE.values()]]
    texts += [say_message(facts_message(12, 4, 0.25), "zh-CN")]
    texts += [render(_sample(r, d), "zh-CN", hidden) for r, d in _keys()
              for hidden in (False, True)]
    return texts


def test_the_chinese_is_written_as_a_chinese_instructor_writes_it() -> None:
    for text in _zh_texts():
        assert not CJK_SPACE_CJK.search(text), text
        prose = re.sub(r"`[^`]*`|\{[^}]*\}|<[^>]*>", "", text)  # code, fields, sample values
        assert not re.search(r"[,;:()?!]", prose), text  # Chinese punctuation: ，；：（）
        assert not re.search(f"[{CJK}]\\.", prose), text
    names = " ".join(ZH(t) for t in NAMES.values())
    texts = " ".join(ZH(t) for t in TEXTS.values())
    for term in ("准标识符", "敏感属性", "等价类", "信息损失", "层次结构", "区间", "泛化"):
        assert term in names + texts, term
    assert all(ZH(t).endswith("。") for t in TEXTS.values())
    assert "lo < hi" in texts and "`[lo-hi]`" in texts


def test_a_students_text_is_never_altered() -> None:
    cell = "{x} 'quote' `tick` 中 文"
    verdict = judge(output(changed(2, "job", cell))).verdict
    for language in LANGUAGES:
        assert f"`{cell}`" in render(verdict, language)


def _table_strings() -> set[str]:
    raw = {cell for line in RAW_CSV.splitlines() for cell in line.split(",")}
    return raw | {cell for row in GOOD_ROWS for cell in row}


def _broken_outputs() -> list[bytes]:
    rows = [list(r) for r in GOOD_ROWS]
    rows[3][:2], rows[5][:2] = ["41", "Lawyer"], ["52", "Artist"]
    middle = changed(3, "age", "[20-45]")
    middle[4][0] = "[20-45]"
    return [output(changed(3, "job", "Medic")), output(changed(5, "age", "[45-25]")),
            output(changed(4, "disease", "Flu")), output(changed(2, "age", "[28-30]")),
            output(changed(6, "job", "Office")), output(middle), output(rows),
            output(GOOD_ROWS[:5]), output([r[:2] for r in GOOD_ROWS], ["age", "job"]),
            b"age,job,disease\n[23-27],Health\n", b"age,job,disease\n\xff\n"]


def test_a_hidden_message_shows_no_value_of_the_table() -> None:
    strings = _table_strings() - {"name", "age", "job", "disease"}  # column names may show
    verdicts = [judge(data).verdict for data in _broken_outputs()]
    verdicts.append(judge(output(), band_max=1.0).verdict)
    assert {v.rule for v in verdicts} >= {r for r in RULES if r.startswith("quality.")}
    for verdict in verdicts:
        for language in LANGUAGES:
            shown = render(verdict, language, hidden=True)
            assert not [s for s in strings if s in shown], (verdict, shown)
            assert not re.search(r"\d", shown.replace(str(verdict.row), "", 1)), shown
            assert "`" + "`" not in shown
            full = render(verdict, language)
            assert full != shown
    facts = judge(output()).facts
    assert render_facts(facts.classes, facts.smallest, facts.cost, hidden=True) == ""
    assert render_facts(None, None, None) == ""


def test_a_verdict_as_a_message_is_data_and_a_hidden_one_holds_none() -> None:
    """verdict_message keeps the student's cell Verbatim and reads the same after a JSON round
    trip; a hidden case's message holds the row, the column and the rule's name only."""
    cell = "{x} 'quote' 中 文"
    verdict = judge(output(changed(2, "job", cell))).verdict
    said = verdict_message(verdict)
    assert cell in list(verbatim_params(said))
    again = Message.from_json(said.to_json())
    for language in LANGUAGES:
        assert say_message(again, language) == render(verdict, language)
    for verdict in [judge(data).verdict for data in _broken_outputs()]:
        hidden = verdict_message(verdict, hidden=True)
        assert list(verbatim_params(hidden)) == []
        assert set(hidden.params) <= {"where", "name"}
        where = hidden.params.get("where")
        assert where is None or set(where.params) <= {"row", "column"}
    assert verdict_message(judge(output()).verdict, hidden=True) == Message(TEXTS["passed"])


def test_a_finding_as_a_message_quotes_the_students_cells_verbatim() -> None:
    finding = Finding("difference", {"row": 2, "column": "age", "raw": "30", "expected": "[20-39]",
                                     "got": "中 文", "differing": 2, "rows": 4})
    said = finding_message(finding)
    assert list(verbatim_params(said)) == ["'中 文'"]
    assert said.english() == say(finding) == (
        "output data row 2 (the header is not counted), column 'age' (raw value '30'): "
        "expected '[20-39]', got '中 文'; 2 of 4 rows differ")
    assert say_message(Message.from_json(said.to_json()), "zh-CN") == say(finding, "zh-CN")
    header = finding_message(Finding("valid.header", {"header": ["a", "b c"], "raw": ["a"]}))
    assert header.english() == "the output header is ['a', 'b c'], expected the raw file's " \
                               "header ['a']"
    assert list(verbatim_params(header)) == ["['a', 'b c']"]
    rows = Finding("l", {"rows": list(range(1, 11)), "count": 1, "name": "disease", "l": 2})
    assert say(rows, "zh-CN") == ("第 1、2、3、4、5、6、7、8 条数据行……（共 10 行）（不计表头）构成的"
                                  "等价类有 1 个不同的 disease 值，需要 l = 2")


def test_unknown_language_and_rule() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        render(judge(output()).verdict, "fr")
    with pytest.raises(ValueError, match="unknown rule"):
        Verdict("wrong", "quality.nope")
    with pytest.raises(ValueError):
        Verdict("passed", "quality.k")
    with pytest.raises(ValueError, match="no detail"):
        Verdict("wrong", "quality.cell", detail="nope")


@pytest.mark.parametrize("value", [0.5, 1, Fraction(1, 2), 0.5 + 1e-10])
def test_judge_number_passes_numbers_within_tolerance(value) -> None:
    verdict = judge_number(value, 0.5 if value != 1 else 1.0, 1e-9)
    assert verdict.ok and verdict.rule == "passed"


def test_judge_number_rules() -> None:
    for value in (True, False, "0.5", None, [0.5], complex(0.5, 0)):
        verdict = judge_number(value, 0.5, 1e-9)
        assert (verdict.status, verdict.rule) == ("wrong", "number.type")
        assert verdict.params == {"value": repr(value), "type": type(value).__name__}
    for value in (math.nan, math.inf, -math.inf, 0.5 + 1e-8, -0.5):
        verdict = judge_number(value, 0.5, 1e-9)
        assert verdict.rule == "number.off" and verdict.row is None and verdict.column is None
    verdict = judge_number(0.75, 0.5, 0.1)
    assert render(verdict) == "the result is 0.75; the expected value is 0.5 (tolerance 0.1)."
    assert render(verdict, "zh-CN") == "返回值为 0.75，期望值为 0.5（容差为 0.1）。"
    assert render(verdict, "zh-CN", hidden=True) == "违反规则“返回值与期望值之差在容差以内”。"
    assert render(judge_number("x", 0.5, 0.1), hidden=True) == \
        "the rule “the result is a number” is broken."
    assert render(judge_number(0.5, 0.5, 0.1), "zh-CN", hidden=True) == "全部规则均满足。"
    with pytest.raises(ValueError, match="tolerance"):
        judge_number(0.5, 0.5, -1)
    with pytest.raises(ValueError, match="expected"):
        judge_number(0.5, math.nan, 1)
    assert judge_number(101.0, 100.0, 0.01, relative=True).ok
    assert judge_number(101.5, 100.0, 0.01, relative=True).params["tolerance"] == 1.0


def test_a_students_object_whose_repr_fails() -> None:
    class Odd:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    verdict = judge_number(Odd(), 0.5, 0.1)
    assert verdict.params == {"value": "<Odd object>", "type": "Odd"}


def test_judge_number_takes_numpy_scalars() -> None:
    np = pytest.importorskip("numpy")
    assert judge_number(np.float64(0.5), 0.5, 0).ok and judge_number(np.int64(2), 2, 0).ok
    assert judge_number(np.bool_(True), 1, 0).rule == "number.type"


MEMORY_LOADER = """
import importlib.abc, importlib.util, json, sys
SOURCES = json.load(open(sys.argv[1], encoding="utf-8"))


class Sources(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name in SOURCES:
            return importlib.util.spec_from_loader(name, self, is_package=name == "kcheck")

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__name__ == "kcheck":
            module.__path__ = []
        exec(compile(SOURCES[module.__name__], "<memory>", "exec"), module.__dict__)


sys.meta_path.insert(0, Sources())
from kcheck import judge_number, render
print(render(judge_number(0.75, 0.5, 0.1), "zh-CN"))
"""


def test_kcheck_served_from_memory_words_its_messages_in_english(tmp_path: Path) -> None:
    """The staff solution file (grader solution) serves kcheck's modules from memory, without
    a `__file__`: kcheck imports and words its verdicts, in English (no catalog to read)."""
    package = Path(__file__).resolve().parents[3] / "kcheck"
    sources = {("kcheck." + p.stem if p.stem != "__init__" else "kcheck"):
               p.read_text(encoding="utf-8") for p in package.glob("*.py")}
    (tmp_path / "sources.json").write_text(json.dumps(sources), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", MEMORY_LOADER, str(tmp_path / "sources.json")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "the result is 0.75; the expected value is 0.5 (tolerance 0.1).\n"
