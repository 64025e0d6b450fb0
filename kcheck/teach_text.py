"""The self-check's words about a counterexample of the pool (kcheck/pool.py, search.py): the
section shown under a failing public test, in the course's language (`language`: "en" or
"zh-CN"; any other reads English). One catalog of templates per language, by message id; a
student's own text (an exception's message, a cell) is shown as it is. Standard library
only: it ships in the students' bundle.
"""
from __future__ import annotations

from pathlib import Path

from .pool import Member, used_lines

__all__ = ["CATALOG", "FILES", "text", "table", "command", "render", "render_rules", "problem",
           "stopped", "spent"]

FILES = {"raw_dataset_file": "raw.csv", "anonymized_dataset_file": "anonymized.csv",
         "DGH_folder": "DGHs", "output_file": "yours.csv"}
"""A call's file parameters -> the self-check's names of a member's files."""

CATALOG: dict[str, dict[str, str]] = {
    "en": {
        "section": "public counterexample",
        "row": "row",
        "none": "none",
        "separator": ", ",
        "found": "The smallest public input on which {function} and the handout's rules "
                 "disagree (from the course's public counterexample pool: a pointer to the "
                 "rule, not another test):",
        "found.rules": "The smallest public input on which {function} (part {part}) breaks a "
                       "rule of the handout (from the course's public counterexample pool: a "
                       "pointer to the rule, not another test):",
        "input": "Input: raw.csv ({n} of the data rows of {source}: {rows}); QIs kept: {qis}; "
                 "arguments: {ints}.",
        "anonymized": "The anonymized input (anonymized.csv, the same rows of {source}):",
        "lines": "Hierarchy lines used (DGHs/{file}):",
        "number": "Expected {expected}, yours {got}.",
        "expected": "Expected (the handout's rules):",
        "yours.problem": "Yours: your function {problem}.",
        "yours.marked": "Yours (cells that differ are marked *like this*):",
        "yours": "Yours:",
        "broken": "It breaks the rule \"{rule}\": {sentence}",
        "right": "One right answer (the staff solution's; any output that keeps every rule "
                 "is right):",
        "rerun": "Rerun exactly this call (the files are in {folder}):",
        "compare": "then compare {yours} with {expected}.",
        "stopped.limit": "No public counterexample for {function}: a call did not return "
                         "within {limit:.1f} s (an endless loop?), so the search stopped "
                         "there.",
        "stopped.budget": "No public counterexample for {function} within the self-check's "
                          "{budget:g} s ({calls} calls).",
        "stopped.ended": "No public counterexample for {function}: the process running it "
                         "ended during the search.",
        "stopped.none": "No input of the public counterexample pool makes {function} differ "
                        "({calls} calls): the failing test above is the one to look at.",
        "spent": "(the search: {calls} calls, {seconds:.1f} s)",
        "with_spent": "{line} {spent}",
        "problem.raised": "raised {error}",
        "problem.not_number": "returned {value}, not a number",
        "problem.no_output": "returned without writing its output file",
        "problem.not_csv": "wrote an output that is not a UTF-8 CSV file ({error})",
    },
    "zh-CN": {
        "section": "公开反例",
        "row": "行",
        "none": "无",
        "separator": "、",
        "found": "使 {function} 与作业说明的规则结果不一致的最小公开输入（取自本课程的公开反例库：它指向相关规则，而不是另一个测试）：",
        "found.rules": "使 {function}（评分项 {part}）违反作业说明中某条规则的最小公开输入（取自本课程的公开反例库：它指向相关规则，而不是另一个测试）：",
        "input": "输入：raw.csv（{source} 的 {n} 条数据行：{rows}）；保留的准标识符：{qis}；参数：{ints}。",
        "anonymized": "匿名化后的输入（anonymized.csv，{source} 的相同行）：",
        "lines": "用到的层次结构行（DGHs/{file}）：",
        "number": "预期 {expected}，你的结果 {got}。",
        "expected": "预期结果（按作业说明的规则）：",
        "yours.problem": "你的结果：你的函数{problem}。",
        "yours.marked": "你的输出（不同的单元格标记为 *这样*）：",
        "yours": "你的结果：",
        "broken": "它违反了规则 \"{rule}\"：{sentence}",
        "right": "一个正确答案（课程组参考解答的输出；满足每条规则的任何输出都是正确的）：",
        "rerun": "完全重现这次调用（文件位于 {folder}）：",
        "compare": "然后比较 {yours} 与 {expected}。",
        "stopped.limit": "没有找到 {function} 的公开反例：有一次调用在 {limit:.1f} 秒内没有返回（死循环？），搜索因此停止。",
        "stopped.budget": "在自检的 {budget:g} 秒内没有找到 {function} 的公开反例（共 {calls} 次调用）。",
        "stopped.ended": "没有找到 {function} 的公开反例：运行它的进程在搜索期间结束了。",
        "stopped.none": "公开反例库中没有任何输入能让 {function} 的结果与预期不同（共 {calls} 次调用）：请查看上面失败的测试。",
        "spent": "（搜索：{calls} 次调用，{seconds:.1f} 秒）",
        "with_spent": "{line}{spent}",
        "problem.raised": "抛出了 {error}",
        "problem.not_number": "返回了 {value}，不是数字",
        "problem.no_output": "返回了，但没有写出输出文件",
        "problem.not_csv": "写出的输出不是 UTF-8 编码的 CSV 文件（{error}）",
    },
}


def text(key: str, language: str, **params: object) -> str:
    """The message `key` in `language` (English for a language without a catalog), its
    fields filled with `params`."""
    return CATALOG.get(language, CATALOG["en"])[key].format(**params)


def table(header: list[str], rows: list[list[str]], marks: set = frozenset(),
          language: str = "en") -> list[str]:
    """Plain-text columns, numbered by data row; `marks` (row, column) cells as *cell*."""
    shown = [[text("row", language), *header]] + [
        [str(i + 1)] + [f"*{v}*" if (i, j) in marks else v for j, v in enumerate(row)]
        for i, row in enumerate(rows)]
    width = max(len(r) for r in shown)
    shown = [r + [""] * (width - len(r)) for r in shown]
    sizes = [max(len(r[c]) for r in shown) for c in range(width)]
    return ["    " + "  ".join(c.ljust(s) for c, s in zip(r, sizes)).rstrip() for r in shown]


def command(function: str, params: list[str], ints: dict, folder: Path,
            solution: Path) -> str:
    """One command that reruns exactly this call in any shell: `python -c` and one
    double-quoted program (single quotes inside, raw strings for Windows paths)."""
    module = solution.stem if solution.suffix == ".py" else solution.name
    args = ", ".join(repr(FILES[p]) if p in FILES else repr(ints[p]) for p in params)
    call = f"{function}({args})"
    shown = call if "output_file" in params else f"print({call})"
    return (f"python -c \"import os, sys; sys.path.insert(0, r'{solution.parent}'); "
            f"os.chdir(r'{folder}'); from {module} import {function}; {shown}\"")


def _differing(expected: tuple, mine: tuple | None) -> set:
    """The (row, column) cells where `mine` differs from `expected` (same row count only)."""
    if not mine or len(mine[1]) != len(expected[1]):
        return set()
    return {(i, j) for i, (a, b) in enumerate(zip(expected[1], mine[1]))
            for j in range(max(len(a), len(b))) if a[j:j + 1] != b[j:j + 1]}


def _input(member: Member, language: str, fmt: str = "tabs") -> list[str]:
    """The member's input: its rows, QIs and arguments, its tables and the lines of its
    hierarchy files (format `fmt`) that matter."""
    m, sep = member, text("separator", language)
    ints = sep.join(f"{k} = {v}" for k, v in m.ints.items()) or text("none", language)
    lines = [text("input", language, n=len(m.rows), rows=sep.join(map(str, m.rows)),
                  source=m.label, qis=sep.join(m.qis), ints=ints)]
    lines += table(m.header, m.raw, language=language)
    if m.anonymized is not None:
        lines += [text("anonymized", language, source=m.anonymized_label)] + table(
            m.header, m.anonymized, language=language)
    for qi, hierarchy in m.dghs.items():
        values = {row[m.header.index(qi)] for row in m.raw}
        lines += [text("lines", language, file=f"{qi}.txt")]
        lines += ["    " + line for line in used_lines(hierarchy, values, fmt)]
    return lines


def render(member: Member, yours: object, problem_text: str, function: str,
           params: list[str], folder: Path, solution: Path, read_csv_text,
           language: str = "en") -> list[str]:
    """The section's lines for a counterexample whose files are in `folder`: the student's
    answer `yours` (or `problem_text`, why there is none); `read_csv_text(text)` reads a CSV
    text as (header, rows)."""
    m = member
    lines = [text("found", language, function=function), ""] + _input(m, language)
    if "output_file" not in params:
        lines += [text("number", language, expected=repr(m.expected),
                       got=problem_text or repr(yours))]
        compare = ("", "expected.txt")
    else:
        expected = read_csv_text(str(m.expected))
        mine = read_csv_text(yours) if isinstance(yours, str) else None
        lines += [text("expected", language)] + table(*expected, language=language)
        if problem_text:
            lines += [text("yours.problem", language, problem=problem_text)]
        else:
            lines += [text("yours.marked", language)] + table(
                *mine, marks=_differing(expected, mine), language=language)
        compare = ("yours.csv", "expected.csv")
    lines += [text("rerun", language, folder=folder),
              "    " + command(function, params, m.ints, folder, solution)]
    if compare[0]:
        lines += [text("compare", language, yours=compare[0], expected=compare[1])]
    return lines


def render_rules(member: Member, yours: str | None, problem_text: str,
                 broken: list[tuple[str, str]], function: str, part: str, params: list[str],
                 folder: Path, solution: Path, read_csv_text, language: str = "en",
                 fmt: str = "child-parent") -> list[str]:
    """The section's lines for a rule-judged part's counterexample whose files are in
    `folder`: the student's output `yours` (or `problem_text`, why there is none) and the
    (rule, sentence) pairs it breaks, then one right answer (the member's expected output:
    any output that keeps every rule is right); `fmt`: the hierarchy files' format."""
    m = member
    lines = [text("found.rules", language, function=function, part=part), ""]
    lines += _input(m, language, fmt)
    if problem_text:
        lines += [text("yours.problem", language, problem=problem_text)]
    else:
        lines += [text("yours", language)] + table(*read_csv_text(yours), language=language)
        lines += [text("broken", language, rule=rule, sentence=sentence)
                  for rule, sentence in broken]
    lines += [text("right", language)] + table(*read_csv_text(str(m.expected)),
                                               language=language)
    lines += [text("rerun", language, folder=folder),
              "    " + command(function, params, m.ints, folder, solution)]
    if not problem_text:
        lines += [text("compare", language, yours="yours.csv", expected="expected.csv")]
    return lines


def problem(key: str, language: str, **params: object) -> str:
    """Why a call gave no answer to compare ("raised", "not_number", "no_output",
    "not_csv"), as the section says it after "your function"."""
    return text(f"problem.{key}", language, **params)


def stopped(why: str, function: str, calls: int, limit: float, budget: float,
            language: str = "en") -> str:
    """The one line of a search that found nothing: `why` is "limit" (a call stopped at
    `limit` seconds), "budget" (`budget` seconds spent), "ended" or "none"."""
    return text(f"stopped.{why}", language, function=function, calls=calls, limit=limit,
                budget=budget)


def spent(line: str | None, calls: int, seconds: float, language: str = "en") -> str:
    """What the search spent, after `line` when given (a search that found nothing)."""
    said = text("spent", language, calls=calls, seconds=seconds)
    return said if line is None else text("with_spent", language, line=line, spent=said)
