"""The feedback text of a rule-judged part's counterexample (hook.py's entry with `judge`
"rules"): the rules the student's output breaks on a small public input, that input with its
hierarchies, one right answer (the reference's) and the student's output with the cells that
differ marked, and the rerun command. render.py calls it and writes its files (raw.csv, DGHs/,
expected.csv: the right answer, yours.csv), as for an exactly judged part.

Row numbers are those of the files: the rule checkers' messages count the data rows of
raw.csv ("raw data row 2") and of the output ("data row 3") from 1, so the tables do too; the
input table also names each row's data row in the public file it comes from.
"""
from __future__ import annotations

from ...contract import data_rows
from .render import SECTION, _rows, _table, command, tree

WHAT = ("A small input from public data on which your output breaks a rule of the handout. It "
        "is a pointer to the rule, not another test: it earns and costs nothing.")

__all__ = ["WHAT", "section"]


def _marks(right, mine) -> set[tuple[int, int]]:
    if not (right and mine and len(right[1]) == len(mine[1]) and right[0] == mine[0]):
        return set()
    return {(i, j) for i, (a, b) in enumerate(zip(right[1], mine[1]))
            for j in range(max(len(a), len(b))) if a[j:j + 1] != b[j:j + 1]}


def outputs(entry: dict) -> list[str]:
    """One right answer and the student's output, the cells that differ in bold."""
    right = _rows(entry["expected"])
    yours = entry.get("yours")
    mine = None if yours is None else _rows(yours)
    marks = _marks(right, mine)
    lines = ["One right answer (the reference's; any output that keeps every rule is right):",
             ""] + _table(*right, list(range(1, len(right[1]) + 1)), marks) + [""]
    if entry["problem"]:
        return lines + [f"Yours: your function {entry['problem']}."]
    if mine is None:
        return lines + ["Yours is not a readable CSV table:", "", "```", yours[:1500], "```"]
    return lines + [("Yours (cells that differ from that answer in **bold**):" if marks else
                     "Yours:"), ""] + _table(*mine, list(range(1, len(mine[1]) + 1)), marks)


def section(entry: dict, part: str, function: str, module: str) -> list[str]:
    """The feedback lines of a found counterexample of a rule-judged part."""
    ints = ", ".join(f"{k} = {v}" for k, v in entry["ints"].items()) or "none"
    n = len(entry["rows"])
    lines = [f"### Counterexample for {part}", "", WHAT, "",
             f"Input: {data_rows(entry['rows'])} of `{entry['source']}` ({n} rows, the "
             f"released columns only), raw.csv's data rows 1 to {n}; QIs kept: "
             f"{', '.join(entry['qis'])}, with their public hierarchies; arguments: {ints}.",
             ""]
    raw = [[str(source)] + row for source, row in zip(entry["rows"], entry["raw"])]
    lines += _table([f"{entry['source']} row"] + entry["header"], raw,
                    list(range(1, n + 1))) + [""]
    lines += ["Hierarchies (only the nodes that matter):", ""]
    columns = {q: entry["header"].index(q) for q in entry["qis"]}
    for qi, text in entry["dghs"].items():
        values = {row[columns[qi]] for row in entry["raw"]}
        lines += tree(qi, text, values, entry.get("hierarchy_format", "tabs"))
    lines += [""]
    if entry.get("broken"):
        lines += ["Your output breaks:", ""]
        lines += [f"- rule \"{rule}\": {message}" for rule, message in entry["broken"]]
        lines += [""]
    lines += outputs(entry) + [""]
    lines += [f"The rules that decide it: HANDOUT.md, section "
              f"\"{SECTION.get(function, function)}\".",
              f"Files: `counterexamples/{part}/` beside this feedback; rerun yours with "
              f"`{command(function, entry['ints'], module, f'counterexamples/{part}')}` and "
              f"compare with expected.csv (one right answer).", ""]
    return lines
