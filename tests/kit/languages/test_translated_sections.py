"""A zh-CN course's materials come from the translated section sources (handout/zh-CN/NAME.md,
skeleton/zh-CN/NAME.txt), never from the English ones: a missing or stale translation (its
first line records the sha256 of the English source it translates) is an error naming the
file and `python -m grader languages`, and a translated text holding an English sentence is
reported. Fixtures: a copy of the section sources in a temporary kit, where every section's
"translation" is the English text under a correct header except two written in Chinese."""
from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from grader import cli
from grader.errors import UserError
from grader.publishing import languages
from grader.publishing.materials import course_materials
from grader.publishing.materials.translations import english_runs, header, problems
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]
MATERIALS = Path("grader") / "publishing" / "materials"
TIES = """## 平局（ties）

两个距离或代价相差不超过 1e-9 时视为相等。每个平局（tie）都按各函数中写明的平局规则处理（行号
最小、聚类最早、字典序最小的距离向量）；行的编号与[背景](#background)中相同（第 1 条数据行
最先）。测试数据保证不相等的值之差远大于 1e-9。
"""
COST_MD = '''def cost_MD(raw_dataset_file: str, anonymized_dataset_file: str,
            DGH_folder: str) -> float:
    """失真度量 MD（distortion）：每个单元格从原始值泛化（generalization）到匿名化值所升的层数之和。"""
    raise NotImplementedError
'''


@pytest.fixture()
def kit(tmp_path: Path) -> Path:
    """A kit root whose section sources are a copy of the kit's, each with a zh-CN file."""
    for folder in ("handout", "skeleton"):
        shutil.copytree(REPO / MATERIALS / folder, tmp_path / MATERIALS / folder,
                        ignore=shutil.ignore_patterns("zh-CN"))
    for folder, pattern in (("handout", "*.md"), ("skeleton", "*.txt")):
        (tmp_path / MATERIALS / folder / "zh-CN").mkdir()
        for english in (tmp_path / MATERIALS / folder).glob(pattern):
            translate(english, english.read_text(encoding="utf-8"))
    translate(tmp_path / MATERIALS / "handout" / "ties.md", TIES)
    translate(tmp_path / MATERIALS / "skeleton" / "cost_MD.py.txt", COST_MD)
    return tmp_path


def translate(english: Path, text: str) -> Path:
    path = english.parent / "zh-CN" / english.name
    path.write_text(f"{header(english)}\n{text}", encoding="utf-8")
    return path


def chinese_rubric():
    return replace(load(REPO / "grader" / "rubric.toml"), language="zh-CN")


def test_a_zh_cn_course_reads_the_translations(kit: Path) -> None:
    files = course_materials(chinese_rubric(), kit)
    handout, skeleton = files["HANDOUT.md"].decode(), files["skeleton.py"].decode()
    assert "两个距离或代价相差不超过 1e-9 时视为相等" in handout
    assert "Two distances or costs within 1e-9" not in handout
    assert "失真度量 MD（distortion）" in skeleton and "<!-- source:" not in skeleton + handout
    # the English course of the same kit is untouched by the translations
    english = course_materials(load(REPO / "grader" / "rubric.toml"), kit)
    assert english["HANDOUT.md"] == (REPO / "HANDOUT.md").read_bytes()
    assert english["skeleton.py"] == (REPO / "skeleton.py").read_bytes()


def test_generated_words_are_chinese_and_every_generated_link_has_its_english_anchor(
        kit: Path) -> None:
    from grader.publishing.materials import view
    from grader.publishing.materials.handout import fields
    rubric = chinese_rubric()
    handout = course_materials(rubric, kit)["HANDOUT.md"].decode()
    skeleton = course_materials(rubric, kit)["skeleton.py"].decode()
    assert '## 平局（ties） <a id="ties"></a>' in handout
    assert '## mondrian（20 分） <a id="mondrian-20-points"></a>' in handout
    assert "*20 分 · 每次调用的 CPU 时间限制：10 秒 + 每千行 10 秒（在 `adult-hw1.csv` 上为 " \
           "110 秒）· 可用的包：numpy 和标准库。*" in handout
    assert "| **总计** | **110** |" in handout and "| 评分项 | 分值 |" in handout
    assert "其中 <algorithm> 是 random、clustering、bottomup、samarati 或 mondrian 之一。用 `pytest` " \
        "自检" in skeleton
    values = fields(view(rubric), kit / MATERIALS / "handout")
    targets = set(re.findall(r"\]\(#([^)]+)\)", "\n".join(values.values())))
    assert "background" in targets and "mondrian-20-points" in targets
    missing = sorted(t for t in targets if f'<a id="{t}"></a>' not in handout)
    assert missing == []


def test_a_missing_translation_is_an_error_naming_the_file_and_the_command(kit: Path) -> None:
    (kit / MATERIALS / "handout" / "zh-CN" / "ties.md").unlink()
    with pytest.raises(UserError) as e:
        course_materials(chinese_rubric(), kit)
    assert f"{kit / MATERIALS / 'handout' / 'zh-CN' / 'ties.md'}: missing (the zh-CN " \
           f"translation of ties.md)" in str(e.value)
    assert "`python -m grader languages --language zh-CN` lists" in str(e.value)
    assert any(p.endswith("zh-CN/ties.md: missing (the zh-CN translation of ties.md)")
               for p in problems(kit / MATERIALS, "zh-CN"))


def test_a_stale_translation_is_an_error(kit: Path) -> None:
    english = kit / MATERIALS / "skeleton" / "cost_MD.py.txt"
    english.write_text(english.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"zh-CN/cost_MD.py.txt: stale: it translates an "
                                        r"older cost_MD.py.txt"):
        course_materials(chinese_rubric(), kit)
    bad = kit / MATERIALS / "handout" / "zh-CN" / "ties.md"
    bad.write_text("## 平局\n", encoding="utf-8")
    assert any("zh-CN/ties.md, line 1: expected the header '<!-- source: ties.md sha256="
               in p for p in problems(kit / MATERIALS, "zh-CN"))


def test_an_english_sentence_in_a_translation_is_reported(kit: Path) -> None:
    found = problems(kit / MATERIALS, "zh-CN")
    assert not any("zh-CN/ties.md" in p or "zh-CN/cost_MD.py.txt" in p for p in found)
    assert any("handout/zh-CN/background.md, line " in p and "an English sentence" in p
               for p in found)
    assert any("skeleton/zh-CN/cost_LM.py.txt, line " in p for p in found)


@pytest.mark.parametrize("text, python, runs", [
    ("这是一个句子，没有英文。", False, []),
    ("Two distances or costs within one of each other are equal.", False, 1),
    ("调用 `pytest -k clustering and not slow and not mondrian` 即可。", False, []),
    ("信息损失（LM, the loss metric of Iyengar and his colleagues）。", False, []),
    ("```\nthis is a code block with many English words\n```", False, []),
    ("<!-- if a b c d e f g -->", False, []),
    ("见 [the handout's own section on ties](#ties)。", False, 1),
    ("x = compute(the, first, second, third, fourth, fifth)", True, []),
    ("    # Returns the number of rows in the table here", True, 1),
    ('    """返回表的行数。"""', True, []),
])
def test_english_runs(text: str, python: bool, runs) -> None:
    assert len(english_runs(text, python)) == (runs or 0)


def test_the_languages_command_lists_what_is_missing(kit: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    (kit / MATERIALS / "handout" / "zh-CN" / "ties.md").unlink()
    found = languages.missing("zh-CN", kit)
    assert any("zh-CN/ties.md: missing" in p for p in found)
    assert languages.missing("en", kit) == []
    assert cli.main(["languages", "--language", "fr"]) == 2
    assert "--language: 'fr' is not a language this kit has" in capsys.readouterr().err
