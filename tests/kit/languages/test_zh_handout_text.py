"""The Chinese that zh-CN students read, as a Chinese instructor writes it: HANDOUT.md,
README.md and skeleton.py of three zh-CN bundles (the USTC lab, a zh-CN copy of the default
course, the Top-Down Greedy lab), and what the bundled skeleton's command line prints (--help,
bad arguments, a function not implemented yet). No space between two CJK characters, no English
prose (code blocks' `#` comments and the skeleton's comments and docstrings included), no ASCII
commas in Chinese lists, none of the glossary's avoided words, and the glossary's terms where
their concepts are used. The bundles are built once for the module (a few seconds)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from shared_bundles import unpacked_bundle

from grader.catalogs import read_po
from kcheck.messages import CHECKS
from grader.publishing.materials.reflow import reflow

from zh_text import (allowed_english, ascii_list_commas, avoided_words, cjk_line_breaks,
                     cjk_spaces, english_prose, prose_lines, python_prose)

REPO = Path(__file__).resolve().parents[3]
COURSES = ["ustc", "default-zh", "tdg-lab"]
FILES = ["HANDOUT.md", "README.md", "skeleton.py"]
TEXTS = [(course, name) for course in COURSES for name in FILES]


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each course's bundle, unpacked: {course: its kanon-hw1 folder}."""
    root = tmp_path_factory.mktemp("zh-bundles")
    default = root / "default-zh-course"
    default.mkdir()
    (default / "course.toml").write_text(
        f'[course]\nformat = 1\npublic_demo = true\nrubric = "{REPO / "grader" / "rubric.toml"}"'
        f'\nlanguage = "zh-CN"\n', encoding="utf-8")
    folders = {"ustc": REPO / "courses" / "ustc", "default-zh": default,
               "tdg-lab": REPO / "courses" / "tdg-lab"}
    return {course: unpacked_bundle(tmp_path_factory, folder, root / course)  # once per run
            for course, folder in folders.items()}


def _prose(bundles: dict[str, Path], course: str, name: str) -> list[str]:
    text = (bundles[course] / name).read_text(encoding="utf-8")
    return python_prose(text) if name.endswith(".py") else prose_lines(text)


@pytest.mark.parametrize("course, name", TEXTS)
def test_no_space_between_two_cjk_characters(bundles, course, name) -> None:
    assert cjk_spaces("\n".join(_prose(bundles, course, name))) == []


@pytest.mark.parametrize("course, name", [t for t in TEXTS if t[1].endswith(".md")])
def test_no_line_break_between_two_cjk_characters(bundles, course, name) -> None:
    """Markdown shows a paragraph's line break as a space."""
    assert cjk_line_breaks((bundles[course] / name).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("course, name", TEXTS)
def test_no_english_prose(bundles, course, name) -> None:
    found = [(words, line) for line in _prose(bundles, course, name)
             for words in english_prose(line, allowed_english())]
    assert found == []


@pytest.mark.parametrize("course, name", TEXTS)
def test_chinese_lists_use_chinese_commas(bundles, course, name) -> None:
    found = [(c, line) for line in _prose(bundles, course, name)
             for c in ascii_list_commas(line)]
    assert found == []


@pytest.mark.parametrize("course, name", TEXTS)
def test_no_avoided_glossary_word(bundles, course, name) -> None:
    assert avoided_words((bundles[course] / name).read_text(encoding="utf-8")) == []


# A glossary term and the English words that use its concept in the English handout: where
# the English default course's HANDOUT.md uses the concept, its zh-CN copy uses the term.
CONCEPTS = {"准标识符": r"quasi-identifier", "敏感属性": r"sensitive attribute",
            "泛化层次": r"hierarch", "泛化向量": r"\bvector", "层级": r"\blevel",
            "泛化格": r"\blattice", "等价类": r"equivalence class", "离群记录": r"outlier",
            "分类型": r"categorical", "数值型": r"numeric", "自检": r"self-check",
            "公开用例": r"public case", "隐藏用例": r"hidden case", "反例": r"counterexample",
            "最近公共祖先": r"lowest common ancestor", "尚未实现": r"not implemented",
            "检查你的解答": r"Checking your work", "并列": r"\bties?\b", "隐匿": r"suppress",
            "评分项": r"\bPart\b"}


@pytest.mark.parametrize("term, english", sorted(CONCEPTS.items()))
def test_the_glossary_term_stands_where_its_concept_is_used(bundles, term, english) -> None:
    assert re.search(english, (REPO / "HANDOUT.md").read_text(encoding="utf-8"))
    assert term in (bundles["default-zh"] / "HANDOUT.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("course", ["ustc", "default-zh"])
def test_the_handout_defines_the_generalization_vector_in_the_lattice(bundles, course) -> None:
    handout = (bundles[course] / "HANDOUT.md").read_text(encoding="utf-8")
    definition = handout.index("**泛化向量**（generalization vector）")
    first = min(handout.find(f"\n## {name}（") % len(handout)
                for name in ("samarati", "bottomup_anonymizer"))
    assert first < definition < handout.index("\n## ", first + 1)  # the lattice's first section
    assert "**层级**（level）是各 s_i 之和" in handout[definition:]
    assert "## 多个正确答案" in handout and "[多个正确答案](#ties)" in handout


def test_the_ustc_handout_lists_the_qis_in_the_files_column_order(bundles) -> None:
    handout = (bundles["ustc"] / "HANDOUT.md").read_text(encoding="utf-8")
    assert "- `samarati`：`age`、`marital_status`、`race` 和 `sex`；" in handout
    assert "对 (`age`、`marital_status`、`race`、`sex`) 的泛化向量 (2, 1, 1, 0)" in handout
    assert "[`mondrian`（评分项 mondrian-categorical）]" in handout


# ------------------------------------------------------------------ the skeleton's command line

CALLS = {  # course: (arguments, exit status, words the output holds)
    "default-zh": [(["--help"], 0, "用法："), ([], 2, "缺少以下参数"),
                   (["nope", "DGHs", "adult-hw1.csv", "out.csv", "4"], 2, "无效的选择"),
                   (["clustering", "DGHs", "adult-hw1.csv", "out.csv", "x"], 2, "无效的 int 值"),
                   (["clustering", "DGHs", "adult-hw1.csv", "out.csv", "4", "3"], 2,
                    "clustering 没有第六个参数"),
                   (["clustering", "DGHs", "adult-hw1.csv", "out.csv", "4", "--bad"], 2,
                    "无法识别的参数"),
                   (["clustering", "DGHs", "adult-hw1.csv", "out.csv", "4"], 1,
                    "错误：clustering_anonymizer 尚未实现")],
    "ustc": [(["--help"], 0, "第六个参数是 max_sup"),
             (["mondrian", "DGHs", "adult-hw1.csv", "out.csv", "4", "2"], 2, "没有第六个参数")],
    "tdg-lab": [(["--help"], 0, "用法："), (["topdown_greedy", "a.csv"], 2, "需要 4 个参数"),
                (["topdown_greedy", "adult-hw1.csv", "DGHs", "x", "out.csv"], 2,
                 "k 必须是整数"),
                (["cost_NCP", "adult-hw1.csv", "adult-hw1.csv", "DGHs"], 1,
                 "错误：cost_NCP 尚未实现")],
}
CALL_CASES = [(course, i) for course, calls in CALLS.items() for i in range(len(calls))]
# the command line's own names: its program, metavars, algorithms, functions and parameters
_CODE_WORDS = re.compile(r"python skeleton\.py|<[^<>\s]+>|\[[^\[\]]*\]|'[^']*'|\b(algorithm|"
                         r"DGH-folder|NAME|ARGUMENT|random|clustering|bottomup|samarati|"
                         r"mondrian|topdown_greedy|cost_NCP|max_sup|[a-z]+_[a-z_]+|[kslh])\b")


@pytest.fixture(scope="module")
def outputs(bundles, tmp_path_factory) -> dict[tuple[str, int], subprocess.CompletedProcess]:
    """Every call of CALLS, run once in its bundle's folder."""
    out = {}
    for course, i in CALL_CASES:
        arguments = CALLS[course][i][0]
        out[course, i] = subprocess.run([sys.executable, "skeleton.py", *arguments],
                                        cwd=bundles[course], capture_output=True, text=True,
                                        timeout=120)
    return out


@pytest.mark.parametrize("course, i", CALL_CASES)
def test_the_skeletons_command_line_speaks_chinese(outputs, course, i) -> None:
    arguments, status, words = CALLS[course][i]
    done = outputs[course, i]
    text = done.stdout + done.stderr
    assert done.returncode == status, text
    assert words in text
    lines = [_CODE_WORDS.sub(" ", line) for line in text.splitlines()]
    assert [w for line in lines for w in english_prose(line, allowed_english())] == []
    assert cjk_spaces(text) == []
    assert "usage:" not in text and "error:" not in text


# ------------------------------------------------------------------------------------- reflow

def test_reflow_never_puts_a_space_inside_a_chinese_paragraph() -> None:
    """Joining a Chinese paragraph's lines with spaces would put one between two characters;
    a line break between two (a template marker's) is joined without one, a break between a
    CJK character and code with one space (as Markdown shows it)."""
    long = "第一个" + "不同的行" * 30
    assert reflow(f"{long}\n你的代码") == f"{long}你的代码"
    assert reflow(f"{long}\n`code` 你的代码\n\n- 一项\n  续行\n- 二项") == \
        f"{long} `code` 你的代码\n\n- 一项续行\n- 二项"
    assert reflow("使用相对路径 `adult-hw1.csv`\n和 `DGHs`") == "使用相对路径 `adult-hw1.csv` 和 `DGHs`"
    english = "word " * 30
    assert reflow(f"{english}\nmore") != f"{english}\nmore"  # English is still re-wrapped


# ------------------------------------------------------------- the skeleton's helpers' errors

HELPER_ERRORS = [  # (course, file content or None for a missing file, call, words)
    ("default-zh", None, "read_dataset", "找不到数据集文件"),
    ("default-zh", "a,b\n1,2,3\n", "read_dataset", "第 1 条数据行有 3 个单元格，而表头有 2 列"),
    ("default-zh", "Any\n\t\ta\n", "read_DGH", "比上一行深了不止一个制表符"),
    ("default-zh", None, "read_DGHs", "找不到 DGH 文件夹"),
    ("ustc", "a,*\na,b\n", "read_DGH", "'a' 第二次作为子节点出现（另见第 1 行）"),
    ("ustc", "a,*\nb,c\nc,b\n", "read_DGH", "'b' 在一个环上"),
    ("tdg-lab", "", "read_dataset", "文件是空的"),
]


@pytest.mark.parametrize("course, content, call, words", HELPER_ERRORS)
def test_the_skeletons_helpers_raise_their_errors_in_chinese(bundles, tmp_path, course, content,
                                                             call, words) -> None:
    module: dict = {"__name__": "skeleton"}
    source = (bundles[course] / "skeleton.py").read_text(encoding="utf-8")
    exec(compile(source, "skeleton.py", "exec"), module)
    path = tmp_path / "input"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises((ValueError, FileNotFoundError)) as raised:
        module[call](str(path))
    message = str(raised.value)
    assert words in message
    assert english_prose(message.replace(str(path), " "), allowed_english()) == []


# ------------------------------------------------- the messages the handout quotes, as printed

GRADER_PO = REPO / "grader" / "locale" / "zh_CN" / "LC_MESSAGES" / "grader.po"
SELFCHECK_PO = REPO / "tests" / "public" / "locale" / "zh_CN" / "LC_MESSAGES" / "selfcheck.po"
KCHECK_PO = REPO / "kcheck" / "locale" / "zh_CN" / "LC_MESSAGES" / "kcheck.po"
QUOTES = [  # (catalog, msgid, its fields, where the handout quotes it)
    (GRADER_PO, "k reached: {k} ({classes} classes of {low} to {high} rows)",
     {"k": 4, "classes": 812, "low": 4, "high": 31}, "default-zh"),
    (GRADER_PO, "{file} found, 1 page; graded by course staff", {"file": "report.pdf"},
     "default-zh"),
    (GRADER_PO, "ran out of memory (limit {mb} MB)", None, "default-zh"),
    (GRADER_PO, "data rows {rows} (the header is not counted)", {"rows": "3、17"}, "default-zh"),
    (KCHECK_PO, CHECKS["k"], {"rows": "", "count": 2, "k": 3}, "default-zh"),  # a finding
    (SELFCHECK_PO, "is not implemented yet (it raises NotImplementedError)", None, "default-zh"),
]


@pytest.mark.parametrize("po, msgid, values, course", QUOTES)
def test_the_handout_quotes_messages_as_students_see_them(bundles, po, msgid, values,
                                                           course) -> None:
    """A message the handout quotes reads as the catalog translates it (a message quoted in
    part, without its fields, by its words before the first field or parenthesis)."""
    msgstr = read_po(po)[msgid]
    quoted = msgstr.format(**values) if values else re.split(r"[{（]", msgstr)[0]
    assert quoted and quoted in (bundles[course] / "HANDOUT.md").read_text(encoding="utf-8")
