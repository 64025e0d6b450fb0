"""kcheck's counterexample pool (pool.py), its search (search.py) and the self-check's words
about what it found (teach_text.py), on hand-made pools: the rules both the grader and the
self-check follow. (The grader's chain search: tests/kit/grading/test_counterexamples.py;
the self-check's glue: tests/kit/publishing/test_selfcheck_teach.py.)"""
from __future__ import annotations

import string
from pathlib import Path

from kcheck import teach_text
from kcheck.pool import Chain, Member, Source, csv_text, members, read_chains, used_lines
from kcheck.search import Answer, Budget, first_found
from kcheck.text import catalog

DGH = "Any\n\tlow\n\t\t1\n\t\t2\n\thigh\n\t\t6\n"
SOURCE = Source("t.csv", ["x", "y", "s"], {1: ["1", "6", "u"], 2: ["2", "1", "v"],
                                           3: ["6", "2", "w"]}, {"x": DGH, "y": DGH},
                "anon.csv", {1: ["low", "high", "u"], 2: ["low", "low", "v"],
                             3: ["high", "low", "w"]})


def _member(rows: tuple, qis: tuple = ("x",)) -> Member:
    return Member(SOURCE, rows, qis, {"k": 2}, "")


def test_a_member_keeps_its_qis_and_every_other_column_and_writes_them(tmp_path: Path) -> None:
    member = _member((1, 3))
    assert member.header == ["x", "s"] and member.raw == [["1", "u"], ["6", "w"]]
    assert member.anonymized == [["low", "u"], ["high", "w"]] and member.dghs == {"x": DGH}
    member.write(tmp_path, "adult-hw1.csv")
    assert (tmp_path / "adult-hw1.csv").read_bytes() == b"x,s\n1,u\n6,w\n"
    assert (tmp_path / "anonymized.csv").read_bytes() == b"x,s\nlow,u\nhigh,w\n"
    assert sorted(p.name for p in (tmp_path / "DGHs").iterdir()) == ["x.txt"]
    assert csv_text(["a b", "c"], [["1,2", 'say "hi"']]) == 'a b,c\n"1,2","say ""hi"""\n'


def test_a_pool_file_reads_back_as_written_and_members_come_smallest_first(
        tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_text('{"sources": {"t": {"label": "t.csv", "header": ["x", "y", "s"], '
                    '"dghs": {"x": "A\\n", "y": "A\\n"}, "rows": {"1": ["1", "6", "u"], '
                    '"2": ["2", "1", "v"], "3": ["6", "2", "w"]}}}, "chains": ['
                    '{"source": "t", "ints": {"k": 1}, "members": [{"rows": [1, 2, 3], '
                    '"qis": ["x", "y"], "expected": "a"}, {"rows": [1, 2], "qis": ["x", "y"], '
                    '"expected": "b"}]}, {"source": "t", "ints": {"k": 1}, "members": ['
                    '{"rows": [1, 2, 3], "qis": ["x"], "expected": "c"}, {"rows": [1, 2], '
                    '"qis": ["x", "y"], "expected": "b"}]}]}', encoding="utf-8")
    chains = read_chains(path)
    assert [[m.expected for m in c.members] for c in chains] == [["a", "b"], ["c", "b"]]
    assert chains[0].members[0].source.rows[3] == ["6", "2", "w"]  # row numbers as ints
    # rows x QIs: "c" 3 x 1, "b" 2 x 2 (once), "a" 3 x 2
    assert [m.expected for m in members(path)] == ["c", "b", "a"]


def _probe(answers: dict[tuple, Answer | None], made: list):
    def probe(member: Member) -> Answer | None:
        made.append(member.rows)
        return answers[member.rows]
    return probe


def test_the_first_that_differs_counts_and_with_rules_a_broken_rule_comes_first() -> None:
    pool = [_member((1,)), _member((1, 2)), _member((1, 2, 3))]
    raised = Answer(True, None, "raised ValueError")
    broken = Answer(True, "x,s\n", "", (("k", "a class of 1"),))
    answers = {(1,): Answer(False), (1, 2): raised, (1, 2, 3): broken}
    made: list = []
    assert first_found(pool, _probe(answers, made)).member is pool[1] and len(made) == 2
    found = first_found(pool, _probe(answers, made), rules=True)
    assert found.member is pool[2] and found.answer is broken
    answers[(1, 2, 3)] = Answer(True, "not a table")  # differs, names no rule
    assert first_found(pool, _probe(answers, made), rules=True).answer is raised
    answers[(1, 2, 3)] = None  # stopped: what was found so far
    assert first_found(pool, _probe(answers, made), rules=True).answer is raised
    assert first_found(pool, _probe({(1,): None}, made)) is None


def test_the_budget_cuts_each_call_and_says_why_it_stopped() -> None:
    budget = Budget(calls=3, seconds=10.0)
    assert budget.limit(4.0) == 4.0
    budget.used_seconds = 8.5
    assert budget.limit(4.0) == 1.5
    budget.used_seconds = 9.96
    assert budget.limit(4.0) is None and budget.stopped == "budget"
    budget.stop("timeout")
    assert budget.stopped == "budget"  # the first reason stays
    spent = Budget(calls=2, seconds=10.0, used_calls=2)
    assert spent.left() == 0.0 and spent.limit(1.0) is None


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_message_has_a_zh_cn_entry_with_the_same_fields() -> None:
    """Each id (TEMPLATES, SEPARATOR) is translated in kcheck's zh-CN catalog with its fields;
    the numbers come formatted, so an id has plain `{field}`s only."""
    zh = catalog("zh-CN")
    for key, template in {**teach_text.TEMPLATES, "separator": teach_text.SEPARATOR}.items():
        assert zh(template) != template, key
        assert _fields(zh(template)) == _fields(template), key
        assert all(not spec and not conversion for _, name, spec, conversion
                   in string.Formatter().parse(template) if name), key
    assert teach_text.text("row", "fr") == "row"  # a language without a catalog: English
    assert teach_text.text("row", "zh-CN") == "行"


def test_a_numeric_counterexample_in_words(tmp_path: Path) -> None:
    member = Member(SOURCE, (2,), ("y",), {}, 4.5)
    lines = teach_text.render(member, 3.0, "", "cost_MD", ["raw_dataset_file",
                              "anonymized_dataset_file", "DGH_folder"], tmp_path,
                              tmp_path / "mine.py", None)
    assert lines[2] == ("Input: raw.csv (1 of the data rows of t.csv: 2); QIs kept: y; "
                        "arguments: none.")
    assert lines[3:5] == ["    row  y  s", "    1    1  v"]
    assert "The anonymized input (anonymized.csv, the same rows of anon.csv):" in lines
    assert "Expected 4.5, yours 3.0." in lines and lines[-1].startswith("    python -c")
    zh = teach_text.render(member, 3.0, "", "cost_MD", ["raw_dataset_file"], tmp_path,
                           tmp_path / "m.py", None, "zh-CN")
    assert "预期 4.5，你的结果 3.0。" in zh and zh[2].endswith("参数：无。")
    assert teach_text.problem("raised", "zh-CN", error="E: x") == "抛出了 E: x"
    assert teach_text.spent("没有。", 3, 1.25, "zh-CN") == "没有。（搜索：3 次调用，1.2 秒）"
    assert teach_text.spent("None.", 3, 1.25) == "None. (the search: 3 calls, 1.2 s)"
    assert teach_text.stopped("limit", "f", 2, 0.25, 10.0) == (
        "No public counterexample for f: a call did not return within 0.2 s (an endless "
        "loop?), so the search stopped there.")
    assert teach_text.stopped("budget", "f", 2, 0.25, 7.5, "zh-CN") == \
        "在自检的 7.5 秒内没有找到 f 的公开反例（共 2 次调用）。"
    raised = teach_text.problem("raised", "zh-CN", error=ValueError("k 无效"))
    zh = teach_text.render(member, None, raised, "cost_MD", ["raw_dataset_file"], tmp_path,
                           tmp_path / "m.py", None, "zh-CN")
    assert "预期 4.5，你的结果抛出了 k 无效。" in zh  # no space between two CJK characters


PAIRS = "1,low\n2,low\n6,high\nlow,Any\nhigh,Any\n"  # the same tree as DGH, "child,parent"


def test_the_hierarchy_lines_used_in_either_format() -> None:
    assert used_lines(DGH, {"2"}) == ["Any", "  low", "    2"]
    assert used_lines(PAIRS, {"2"}, "child-parent") == ["2,low", "low,Any"]
    assert used_lines(PAIRS, {"6", "low"}, "child-parent") == [
        "6,high", "low,Any", "high,Any"]


def test_a_rules_counterexample_in_words(tmp_path: Path) -> None:
    source = Source("t.csv", ["x", "s"], {1: ["1", "u"], 2: ["2", "v"], 3: ["6", "w"]},
                    {"x": PAIRS}, None, None)
    member = Member(source, (1, 2), ("x",), {"k": 2, "max_sup": 0}, "x,s\nlow,u\nlow,v\n")
    params = ["raw_dataset_file", "DGH_folder", "k", "max_sup", "output_file"]
    read = lambda text: (text.splitlines()[0].split(","),  # noqa: E731
                         [r.split(",") for r in text.splitlines()[1:]])
    lines = teach_text.render_rules(member, "x,s\n1,u\n2,v\n", "", [("k", "row 1 alone")],
                                    "samarati", "q1", params, tmp_path, tmp_path / "m.py", read)
    assert lines[0].startswith("The smallest public input on which samarati (part q1) breaks")
    assert lines[2] == ("Input: raw.csv (2 of the data rows of t.csv: 1, 2); QIs kept: x; "
                        "arguments: k = 2, max_sup = 0.")
    assert "Hierarchy lines used (DGHs/x.txt):" in lines and "    1,low" in lines
    at = lines.index("Yours:")
    assert lines[at + 1:at + 5] == ["    row  x  s", "    1    1  u", "    2    2  v",
                                    'It breaks the rule "k": row 1 alone']
    assert lines[at + 5].startswith("One right answer") and lines[at + 8] == "    2    low  v"
    assert lines[-1] == "then compare yours.csv with expected.csv."
    zh = teach_text.render_rules(member, None, "抛出了 E", [], "samarati", "q1", params,
                                 tmp_path, tmp_path / "m.py", read, "zh-CN")
    assert zh[2] == ("输入：raw.csv（t.csv 的 2 条数据行：1、2）；保留的准标识符：x；"
                     "参数：k = 2、max_sup = 0。")
    assert "你的结果：你的函数抛出了 E。" in zh and not zh[-1].startswith("然后比较")
    zh = teach_text.render_rules(member, "x,s\n1,u\n2,v\n", "", [("k", "第 1 行单独成类")],
                                 "samarati", "q1", params, tmp_path, tmp_path / "m.py", read,
                                 "zh-CN")
    assert "你的输出：" in zh and '它违反了规则 "k"：第 1 行单独成类' in zh  # the grader's words
