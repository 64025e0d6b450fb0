"""The kit's zh-CN skeleton sections (grader/publishing/materials/skeleton/zh-CN): every one up
to date with its English source, in Chinese (no English sentence in a docstring or comment),
and the code they render is the English skeleton's exactly: only docstrings, comments and
messages (f-strings, errors raised, the command line's words) differ. The handout's sections
come from a temporary copy (their translations are other files' work), so this test needs
only the skeleton's."""
from __future__ import annotations

import ast
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from grader.publishing.materials import course_materials
from grader.publishing.materials.translations import FOLDERS, header, problems
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]
MATERIALS = Path("grader") / "publishing" / "materials"


COMMAND_LINE = {"_parser", "_call", "_run", "_run_course_function"}


def _code(source: str) -> str:
    """The module's AST without docstrings (comments are not in an AST) and without the
    messages, in the course's language: f-strings, the strings of a `raise`, the command
    line's strings (and the zh-CN _parser's translation of argparse's own words)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for item in body if isinstance(body, list) else []:  # docstrings, attribute ones too
            if isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant) \
                    and isinstance(item.value.value, str):
                item.value.value = ""
    tree = _Messages().visit(tree)
    for function in tree.body:
        if isinstance(function, ast.FunctionDef) and function.name in COMMAND_LINE:
            function.body = [s for s in function.body if not _argparse_words(s)]
            for node in ast.walk(function):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    node.value = ""
    return ast.dump(tree)


class _Messages(ast.NodeTransformer):
    """Messages in the course's language: an f-string, and the strings of a `raise`."""

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.Constant:
        return ast.Constant("")

    def visit_Raise(self, node: ast.Raise) -> ast.Raise:
        self.generic_visit(node)
        for inner in ast.walk(node):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                inner.value = ""
        return node


def _argparse_words(statement: ast.stmt) -> bool:
    """`words = {...}` or `argparse._ = ...`: the zh-CN _parser's argparse words."""
    targets = getattr(statement, "targets", [])
    return any(ast.unparse(t) in ("words", "argparse._") for t in targets)


def test_every_skeleton_section_has_an_up_to_date_chinese_translation() -> None:
    found = [p for p in problems(REPO / MATERIALS, "zh-CN") if "/skeleton/" in p]
    assert found == []
    english = sorted(p.name for p in (REPO / MATERIALS / "skeleton").glob(FOLDERS["skeleton"]))
    assert sorted(p.name for p in (REPO / MATERIALS / "skeleton" / "zh-CN").glob("*.txt")) \
        == english


def test_the_kits_handout_translations_are_complete_once_there() -> None:
    """Every handout section has an up-to-date, English-free zh-CN translation (the
    translations arrive on their own branches: until handout/zh-CN exists this skips)."""
    if not (REPO / MATERIALS / "handout" / "zh-CN").is_dir():
        pytest.skip("no handout/zh-CN yet: the handout's translations are not merged")
    assert [p for p in problems(REPO / MATERIALS, "zh-CN") if "/handout/" in p] == []


def test_the_chinese_skeleton_is_the_english_code_with_chinese_docstrings(tmp_path: Path) -> None:
    shutil.copytree(REPO / MATERIALS / "skeleton", tmp_path / MATERIALS / "skeleton")
    shutil.copytree(REPO / MATERIALS / "handout", tmp_path / MATERIALS / "handout",
                    ignore=shutil.ignore_patterns("zh-CN"))
    (tmp_path / MATERIALS / "handout" / "zh-CN").mkdir()
    for english in (tmp_path / MATERIALS / "handout").glob("*.md"):
        (english.parent / "zh-CN" / english.name).write_text(
            f"{header(english)}\n{english.read_text(encoding='utf-8')}", encoding="utf-8")
    for rubric in ("rubric.toml", "rubric-all.toml", "rubric-2025.toml"):
        english = load(REPO / "grader" / rubric)
        en = course_materials(english, tmp_path)["skeleton.py"].decode()
        zh = course_materials(replace(english, language="zh-CN"), tmp_path)["skeleton.py"]
        zh = zh.decode()
        assert _code(zh) == _code(en)
        assert "你的解答写在这个文件里" in zh and "your solution goes in this file" not in zh
