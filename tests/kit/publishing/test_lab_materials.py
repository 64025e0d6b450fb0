"""A course with its own rules (courses/ustc: QIs per part, `occupation` sensitive, deleted
suppression, "child,parent" hierarchies, parts judged by rules, optional parts) gets materials
that follow its rubric: the lab's rules and worked examples are in its HANDOUT.md and
skeleton.py, and no sentence of the default contract that contradicts them is. The default
courses' materials do not change (test_materials.py compares them with the committed files)."""
from __future__ import annotations

import ast
import csv
import re
from dataclasses import replace
from pathlib import Path

import pytest

from grader.courses.folder import resolve
from grader.publishing.materials import render_handout, render_skeleton, view
from grader.rubric import load
from kcheck.hierarchies import parse_hierarchy

REPO = Path(__file__).resolve().parents[3]
USTC = REPO / "courses" / "ustc"
DGHS = REPO / "courses" / "ustc" / "cases" / "public" / "adult" / "DGHs"


@pytest.fixture(scope="module")
def lab():
    course = view(resolve(str(USTC))[0])
    assert course.language == "zh-CN"
    return course


@pytest.fixture(scope="module")
def zh(lab) -> str:
    return render_handout(lab)


@pytest.fixture(scope="module")
def en(lab) -> str:
    return render_handout(replace(lab, language="en"))


def test_one_entry_per_function_and_the_optional_parts_apart(lab) -> None:
    assert [(f.name, f.points, f.judge, f.qis) for f in lab.functions] == [
        ("samarati", 25, "rules", ("age", "sex", "race", "marital_status")),
        ("mondrian", 25, "rules", ("age", "education_num"))]
    assert [(o.name, o.points, o.function) for o in lab.optional_parts] == [
        ("samarati-utility", 15, ""), ("mondrian-categorical", 5, "mondrian")]
    assert (lab.required, lab.total) == (80, 100)
    assert {"samarati:rules", "mondrian:rules", "schema:delete", "schema:drop",
            "schema:sensitive", "hierarchy:child-parent", "optional", "optional:mondrian",
            "optional:mondrian-categorical", "optional:samarati-utility", "qis:samarati",
            "qis:mondrian", "staff:no-files"} <= lab.features
    assert lab.data.sensitive == "occupation" and lab.data.rows == 30162
    assert lab.data.released(("age", "education_num")) == ["age", "education_num",
                                                          "occupation"]


@pytest.mark.parametrize("rubric", ["grader/rubric.toml", "grader/rubric-2025.toml",
                                    "grader/rubric-all.toml", "examples/rubric.toml"])
def test_a_default_contract_course_has_none_of_the_new_tokens(rubric) -> None:
    course = view(load(REPO / rubric))
    new = [t for t in course.features
           if t.startswith(("schema:", "hierarchy:", "optional", "qis:", "staff:"))
           or t.endswith(":rules")]
    assert new == [] and course.optional_parts == () and course.data.rows == 9999
    assert course.required == course.total


def test_the_points_table_lists_each_function_once_and_marks_the_optional_parts(zh) -> None:
    table = zh[zh.index("| 评分项 | 分值 |"):zh.index("| **总计** | **100** |")]
    assert table.count("[`mondrian`](#mondrian-25-points) | 25 |") == 1
    assert "| **必做评分项合计** | **80** |" in table and "| **选做评分项合计** | **20** |" in table
    required, optional = table.split("必做评分项合计")
    assert "选做" not in required and optional.count("（选做，") == 2
    assert "代码清晰、注释充分" in required and "Samarati：按数据效用选择答案" in optional
    assert zh.count("\n## mondrian（25 分）") == 1 and zh.count("\n## samarati（25 分）") == 1
    assert "Code-clarity" not in zh and "Samarati-utility" not in zh


LAB_RULES = [  # (English, Chinese): the lab's rules and worked examples
    ('"child,parent"', "“child,parent”"),
    ("`37` → `[35-39]` → `[30-39]` → `[20-39]` → `*`",) * 2,
    ("`NM` = {`Never-married`}",) * 2,
    ("[1, 2, 3, 3, 4, 5]",) * 2, ("Left = [1, 2, 3, 3],\nright = [4, 5]", "左侧 = [1, 2, 3, 3]，右侧 = [4, 5]"),
    ("(5 · 1/6 + 3 · 0 + 2 · 1) / 10 = 17/60",) * 2,
    ("a **deleted**\n  (suppressed) record loses 1 in every QI", "被**删除**（suppression）的记录在每个 QI 上损失 1"),
    ("the outliers are **deleted** (not written)", "离群记录被**删除**（不写出）"),
    ("`occupation` is the sensitive attribute", "`occupation` 是敏感属性"),
    ("**lowest-height**",) * 2, ("**median-cuts**",) * 2, ("**final**",) * 2,
    ("**full-domain**",) * 2, ("**deletion**",) * 2, ("**cover**",) * 2, ("**satisfies**",) * 2,
    ("earns half of the case's points (partial credit)", "获得该用例分数的一半（部分分）"),
    ("`age`, `education_num` and `sex`", "`age`、`education_num` 和 `sex`"),
    ("(30,162 rows)", "（30,162 行）"),
]
DEFAULT_CONTRACT = [  # (English, Chinese): the default contract's sentences the lab contradicts
    ("Every rule below is exact", "下面的每条规则都是精确的"),
    ("every QI cell becomes its DGH root label", "单元格都变为其 DGH 的根节点"),
    ("the number of\nleading **tab** characters", "行首**制表符**"),
    ("Same header and column order as the raw file", "表头和列顺序与原始文件相同"),
    ("has the lowest LM cost (ties: lexicographically smallest vector)", "LM 代价（cost）最低的那个"),
    ("Try the QIs with width > 0 in order of width", "按宽度顺序尝试宽度 > 0 的 QI"),
    ("pass through unchanged", "原样输出"),
    ("the MD and LM costs of the output", "MD 与 LM 代价"),
    ("k = 4, 8, 16, 32, 64, 128, 256",) * 2,
    ("### The distortion metric (MD)", "失真度量（MD）"),
    ("9,999",) * 2, ("unbalanced hierarchies, a single QI", "不平衡的层次结构、只有一个准标识符"),
]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_handout_states_the_lab_rules_and_not_the_default_contract(en, zh, language) -> None:
    text, i = (en, 0) if language == "en" else (zh, 1)
    for rule in LAB_RULES:
        assert _flat(rule[i]) in _flat(text), rule[i]
    for sentence in DEFAULT_CONTRACT:
        assert _flat(sentence[i]) not in _flat(text), sentence[i]


def _skeleton(course) -> dict:
    text = render_skeleton(course)
    ast.parse(text)
    module: dict = {"__name__": "skeleton"}
    exec(compile(text, "skeleton.py", "exec"), module)
    return {"text": text, "module": module}


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_skeleton_follows_the_course(lab, language) -> None:
    got = _skeleton(replace(lab, language=language))
    text, module = got["text"], got["module"]
    assert module["ALGORITHMS"] == {"samarati": ("samarati", 0), "mondrian": ("mondrian", None)}
    assert "cost_MD" not in text and "cost_LM" not in text and "_missing_hierarchies" not in text
    assert "`occupation`" in module["samarati"].__doc__ and "`occupation`" in module[
        "mondrian"].__doc__
    assert "root" not in module["samarati"].__doc__ and "根节点" not in module["samarati"].__doc__
    for path in sorted(DGHS.glob("*.txt")):  # read_DGH reads the lab's files as the kit does
        dgh = module["read_DGH"](str(path))
        tree = parse_hierarchy(path.read_text(encoding="utf-8"), path.stem, path.name,
                               "child-parent")
        assert dgh.depth == dict(zip(tree.labels, tree.depth)) and dgh.root == tree.labels[0]
    age = module["read_DGH"](str(DGHS / "age.txt"))
    chain, node = [], "37"
    while node is not None:
        chain.append(node)
        node = age.parent[node]
    assert chain == ["37", "[35-39]", "[30-39]", "[20-39]", "*"]


@pytest.mark.parametrize("text, message", [
    ("a,*\na,b\n", "第 2 行：'a' 第二次作为子节点出现（另见第 1 行）"),
    ("a,*\nb,c\nc,b\n", "第 2 行：'b' 在一个环上"),
    ("a,*\nb\n", "第 2 行：应为一对 'child,parent'"),
    ("a,*\nb,+\n", "有 2 个根节点"),
])
def test_the_skeletons_read_dgh_names_the_file_and_line(lab, tmp_path, text, message) -> None:
    module = _skeleton(lab)["module"]
    path = tmp_path / "x.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(message)):
        module["read_DGH"](str(path))


def test_the_data_fields_come_from_the_public_dataset(lab, zh) -> None:
    with (REPO / "courses/ustc/cases/public/adult/adult-hw1.csv").open(newline="") as f:
        header = next(csv.reader(f))
    assert lab.data.columns == tuple(header)
    assert "其输出的列：`age`、`marital_status`、`occupation`、`race` 和 `sex`" in _flat(zh)


def test_an_optional_part_listed_first_does_not_decide_its_function(tmp_path) -> None:
    """The function's entry takes its required parts' points, QIs and judge, wherever the
    optional part stands in the rubric."""
    text = (USTC / "rubric.toml").read_text(encoding="utf-8")
    optional = text.index('[[part]]\nfunction = "mondrian"\nname = "mondrian-categorical"')
    required = text.index('[[part]]\nfunction = "mondrian"\npoints = 25')
    moved = text[:required] + text[optional:] + "\n" + text[required:optional]
    (tmp_path / "rubric.toml").write_text(moved, encoding="utf-8")
    (tmp_path / "cases").symlink_to(USTC / "cases")
    course = view(load(tmp_path / "rubric.toml"))
    mondrian = course.function("mondrian")
    assert (mondrian.points, mondrian.qis) == (25, ("age", "education_num"))
    assert [o.name for o in course.optional_parts] == ["mondrian-categorical",
                                                       "samarati-utility"]
    assert course.required == 80 and course.total == 100
