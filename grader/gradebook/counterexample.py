"""A counterexample in words and files: the Markdown section of a part in the feedback (and
Gradescope's results), and its files under `feedback/<student>/counterexamples/<part>/`:
raw.csv, DGHs/, anonymized.csv (functions that read one), expected.csv and yours.csv (or
expected.txt and yours.txt for a number; a rule-judged part's expected.csv is one right
answer and its section names the rules broken). Everything comes from the record entry
(grader/grading/shrink/hook.py), so a cached record renders the same bytes."""
from __future__ import annotations

from pathlib import Path

from kanon.files import atomic_write_text
from kanon.hierarchy import parse_dgh
from kanon.table import parse_table, render_csv
from kcheck.text import Message, render

from ..catalogs import translator
from ..contract import SIGNATURES, data_rows, is_cost
from ..grading.record import CaseRecord, StudentRecord
from ..grading.record_parts import Counterexample
from .case_text import named

SECTION = {"cost_MD": "cost_MD", "cost_LM": "cost_LM", "entropy_l": "entropy_l",
           "t_closeness": "t_closeness"}  # the handout's heading of each function: its name
# (every student-visible phrase below goes through `_`, the course language's gettext:
# grader/catalogs.py; English is `str`, the text itself)


def _table(header: list[str], rows: list[list[str]], numbers: list[int] | None = None,
           marks: set[tuple[int, int]] = frozenset(), _=str) -> list[str]:
    """A Markdown table; `marks` (row, column) cells are shown **bold** (a `*` in a bold
    cell escaped, so a bold suppressed cell reads `**\\***`, a bold star, not `*****`)."""
    def cell(text: str) -> str:
        return (text or " ").replace("|", "\\|").replace("\n", " ")
    def bold(text: str) -> str:
        return "**" + cell(text).replace("*", "\\*") + "**"
    head = ([_("data row")] if numbers else []) + header
    lines = ["| " + " | ".join(map(cell, head)) + " |", "|" + "---|" * len(head)]
    for i, row in enumerate(rows):
        cells = [bold(v) if (i, j) in marks else cell(v) for j, v in enumerate(row)]
        lines.append("| " + " | ".join(([str(numbers[i])] if numbers else []) + cells) + " |")
    return lines


def tree(name: str, text: str, values: set[str], _=str, fmt: str = "tabs") -> list[str]:
    """The hierarchy as an indented tree of the nodes that matter: every ancestor of a value
    in `values`, with the number of leaves under each inner node and how many others hide."""
    dgh = parse_dgh(text, name, f"{name}.txt", fmt)
    shown = set()
    for value in values:
        node = dgh.index.get(value)
        while node is not None and node >= 0 and node not in shown:
            shown.add(node)
            node = int(dgh.parent[node]) if dgh.parent[node] >= 0 else None
    lines = ["    " + _("{file} (height {height}, {leaves} leaves):").format(
        file=f"{name}.txt", height=dgh.height, leaves=dgh.n_leaves)]
    def walk(node: int, depth: int) -> None:
        leaves = "" if dgh.is_leaf(node) else "  " + _("[{n} leaves]").format(
            n=int(dgh.leaf_count[node]))
        lines.append("    " + "    " * (depth + 1) + dgh.labels[node] + leaves)
        kids = [c for c in dgh.children[node] if c in shown]
        for child in kids:
            walk(child, depth + 1)
        hidden = len(dgh.children[node]) - len(kids)
        if hidden and kids:
            lines.append("    " + "    " * (depth + 2) + _("... {n} more").format(n=hidden))
    walk(0, 0)
    return lines


def _rows(text: str) -> tuple[list[str], list[list[str]]] | None:
    try:
        table = parse_table(text.encode("utf-8"))
    except ValueError:
        return None
    return table.header, table.rows


def _args(function: str, ints: dict, raw: str = "raw.csv") -> str:
    names = {"raw_dataset_file": raw, "anonymized_dataset_file": "anonymized.csv",
             "DGH_folder": "DGHs", "output_file": "yours.csv"}
    return ", ".join(repr(names[p]) if p in names else repr(ints[p])
                     for p in SIGNATURES[function])


YOUR_FOLDER = "/path/to/your/folder"  # the placeholder the student replaces


def command(function: str, ints: dict, module: str, folder: str) -> str:
    """The one command that reruns the student's function on the files, run from the
    feedback's folder in any shell (bash, zsh, Windows cmd and PowerShell alike): `python -c`
    and one double-quoted program that moves into `folder` and finds the student's module
    itself (single quotes only inside, a raw string for a Windows path, no `$`, `%` or `!`)."""
    call = f"{function}({_args(function, ints)})"
    shown = f"print({call})" if is_cost(function) else call
    return (f"python -c \"import os, sys; os.chdir('{folder}'); sys.path.insert(0, "
            f"r'{YOUR_FOLDER}'); from {module} import {function}; {shown}\"")


def _problem(entry: Counterexample, _=str) -> str | None:
    """How the student's call failed, in the language of `_`: rendered from its data; a
    record without data (a grader older than the data: its records are regraded, not reused)
    as its English."""
    said = entry.problem_message()
    return render(said, _) if said is not None else entry.problem


def outputs(entry: Counterexample, function: str, _=str) -> list[str]:
    """The reference's output and the student's, differing cells in bold."""
    expected, yours = entry.expected, entry.yours
    if is_cost(function):
        got = _problem(entry, _) or f"`{yours!r}`"
        return [_("Reference: {expected}; yours: {got}.").format(expected=f"`{expected!r}`",
                                                                  got=got)]
    lines = [_("The reference's output:"), ""]
    ref = _rows(expected)
    mine = None if yours is None else _rows(yours)
    marks = set()
    if ref and mine and len(mine[1]) == len(ref[1]):
        marks = {(i, j) for i, (a, b) in enumerate(zip(ref[1], mine[1]))
                 for j in range(max(len(a), len(b))) if a[j:j + 1] != b[j:j + 1]}
    lines += _table(*ref, entry.rows, marks, _) + [""]
    if entry.problem:
        return lines + [_("Yours: your function {problem}.").format(
            problem=_problem(entry, _))]
    if mine is None:
        return lines + [_("Yours is not a readable CSV table:"), "", "```", yours[:1500], "```"]
    return lines + [_("Yours (cells that differ in **bold**):"), ""] + _table(
        *mine, entry.rows if len(mine[1]) == len(entry.rows) else None, marks, _)


def section(entry: Counterexample, part: str, function: str, module: str, _=str,
            files: bool = True) -> list[str]:
    """The feedback lines of one part's counterexample (or why there is none); `files`:
    the line naming its files' folder beside the feedback (Gradescope's text has none)."""
    where = _("a hidden case") if entry.hidden else _("a public case")
    title = _("### Counterexample for {part}").format(part=part)
    if not entry.found:
        why = {"budget": _("within its budget"), "timeout": _("before a call ran out of time"),
               "session": _("before your code ended its process"),
               "forbidden": _("(a call touched files it may not)")}.get(entry.stopped, "")
        none = (_("No small public input on which your output breaks a rule was found {why} "
                  "({calls} calls).") if entry.judge == "rules" else
                _("No small public input on which your function differs from the reference "
                  "was found {why} ({calls} calls)."))
        return [title, "", none.format(
                    why=why, calls=entry.calls).replace("  ", " ").replace(" (", " (", 1),
                _("Look again at {where}, \"{case}\" (its name describes its structure), and "
                  "at the handout's rules for `{function}`.").format(
                    where=where, case=named(entry.case or "", None, _),
                    function=function), ""]
    if entry.judge == "rules":  # a part judged by the course's rules
        return rules_section(entry, part, function, module, _, files)
    ints = _(", ").join(f"{k} = {v}" for k, v in entry.ints.items()) or _("none")
    lines = [title, "", _("A small input from public data on which your function and the "
                          "reference disagree. It is a pointer to the rule, not another test: "
                          "it earns and costs nothing."), "",
             _("Input: {rows} of `{source}` ({n} rows); QIs kept: {qis}, with their public "
               "hierarchies; arguments: {ints}.").format(
                 rows=_data_rows(entry.rows, _), source=entry.source,
                 n=len(entry.rows), qis=_(', ').join(entry.qis), ints=ints), ""]
    lines += _table(entry.header, entry.raw, entry.rows, _=_) + [""]
    if entry.anonymized is not None:
        lines += [_("The anonymized input (the same rows of `{source}`):").format(
            source=entry.anonymized_source), ""]
        lines += _table(entry.header, entry.anonymized, entry.rows, _=_) + [""]
    lines += [_("Hierarchies (only the nodes that matter):"), ""]
    columns = {q: entry.header.index(q) for q in entry.qis}
    for qi, text in entry.dghs.items():
        values = {row[columns[qi]] for row in entry.raw}
        lines += tree(qi, text, values, _)
    lines += [""] + outputs(entry, function, _) + [""]
    rule = SECTION.get(function, function)
    rerun = command(function, entry.ints, module, f'counterexamples/{part}')
    decides = _("The rule that decides it: HANDOUT.md, section \"{rule}\"").format(rule=rule) \
        + ("" if is_cost(function) else _(" (and \"Ties\" for equal choices)"))
    lines += [_("{sentence}.").format(sentence=decides)]
    lines += [_("Files: `counterexamples/{part}/` beside this feedback; rerun yours with "
                "`{command}` and compare with expected{suffix}.").format(
                  part=part, command=rerun, suffix='.txt' if is_cost(function) else '.csv')
              ] if files else []
    return lines + [""]


def _data_rows(numbers: list[int], _=str) -> str:
    """contract.data_rows in the course's language."""
    if _ is str:
        return data_rows(numbers)
    return _("data rows {rows} (the header is not counted)").format(
        rows=_(", ").join(map(str, numbers)))


def write_files(folder: Path, entry: Counterexample, function: str) -> None:
    """The counterexample's files in `folder` (nothing when none was found)."""
    if not entry.found:
        return
    atomic_write_text(folder / "raw.csv", render_csv(entry.header, entry.raw))
    for qi, text in entry.dghs.items():
        atomic_write_text(folder / "DGHs" / f"{qi}.txt", text)
    if entry.anonymized is not None:
        atomic_write_text(folder / "anonymized.csv",
                          render_csv(entry.header, entry.anonymized))
    suffix = ".txt" if is_cost(function) else ".csv"
    atomic_write_text(folder / f"expected{suffix}", _text(entry.expected))
    yours = entry.yours
    atomic_write_text(folder / f"yours{suffix}",
                      _text(yours) if yours is not None else f"{entry.problem}\n")


def _text(value: object) -> str:
    return value if isinstance(value, str) else f"{value!r}\n"


def part_lines(record: StudentRecord, part, _=str, files: bool = True) -> list[str]:
    """The feedback lines of `part`'s counterexample in `record` ([] when it has none), in
    the language of `_` (the course's gettext; English by default); `files`: name the
    folder of its files beside the feedback (False in Gradescope's text: no such folder)."""
    entry = record.counterexample(part.key)
    if not entry:
        return []
    module = Path(record.solution or "skeleton.py").stem
    return section(entry, part.key, part.function, module, _, files)


def write_all(out: Path, record: StudentRecord, rubric) -> None:
    """Every part's counterexample files under out/feedback/<student>/counterexamples/."""
    for part in rubric.auto_parts:
        entry = record.counterexample(part.key)
        if entry:
            folder = out / "feedback" / record.student / "counterexamples" / part.key
            write_files(folder, entry, part.function)


def case_text(record: StudentRecord, rubric, case: CaseRecord) -> str:
    """What Gradescope's test of `case` adds: its part's counterexample, on the part's first
    failing case only ("" otherwise), without the feedback's folder of files (Gradescope
    has none)."""
    entry = record.counterexample(case.part)
    if not entry:
        return ""
    if case.id != entry.case_id:
        return ""
    part = next(p for p in rubric.auto_parts if p.key == case.part)
    return "\n\n" + "\n".join(part_lines(record, part, translator(rubric.language),
                                         files=False))


# A part judged by rules (grader/grading/shrink/rules_search.py): the rules broken, one
# right answer (the reference's) beside the student's output.

def _rule_marks(right, mine) -> set[tuple[int, int]]:
    """The (row, column) cells where two tables of the same header and length differ."""
    if not (right and mine and len(right[1]) == len(mine[1]) and right[0] == mine[0]):
        return set()
    return {(i, j) for i, (a, b) in enumerate(zip(right[1], mine[1]))
            for j in range(max(len(a), len(b))) if a[j:j + 1] != b[j:j + 1]}


def rule_outputs(entry: Counterexample, _=str) -> list[str]:
    """One right answer and the student's output, the cells that differ in bold; rows
    numbered as the output files' data rows (what the rules' messages count)."""
    right = _rows(entry.expected)
    yours = entry.yours
    mine = None if yours is None else _rows(yours)
    marks = _rule_marks(right, mine)
    lines = [_("One right answer (the reference's; any output that keeps every rule is "
               "right):"), ""] + _table(*right, list(range(1, len(right[1]) + 1)), marks, _)
    lines += [""]
    if entry.problem:
        return lines + [_("Yours: your function {problem}.").format(
            problem=_problem(entry, _))]
    if mine is None:
        return lines + [_("Yours is not a readable CSV table:"), "", "```", yours[:1500], "```"]
    heading = _("Yours (cells that differ from that answer in **bold**):") if marks else \
        _("Yours:")
    return lines + [heading, ""] + _table(*mine, list(range(1, len(mine[1]) + 1)), marks, _)


def broken_rules(entry: Counterexample, _=str) -> list[tuple[str, str]]:
    """Each rule the output breaks with its detail in the language of `_`, rendered from the
    record's data (`broken_said`); a record without it (an older kit's, which a grade run
    regrades) keeps its English."""
    said = entry.broken_said or []
    if len(said) != len(entry.broken):
        return [(rule, message) for rule, message in entry.broken]
    return [(rule, render(Message.from_json(data), _))
            for (rule, _english), data in zip(entry.broken, said)]


def rules_section(entry: Counterexample, part: str, function: str, module: str, _=str,
                  files: bool = True) -> list[str]:
    """The feedback lines of a found counterexample of a rule-judged part (hook.py's entry with
    `judge` "rules"): the rules broken, the input (rows numbered as raw.csv's, which the rules'
    messages count, beside the public file's), one right answer and the student's output."""
    ints = _(", ").join(f"{k} = {v}" for k, v in entry.ints.items()) or _("none")
    n = len(entry.rows)
    lines = [_("### Counterexample for {part}").format(part=part), "",
             _("A small input from public data on which your output breaks a rule of the "
               "handout. It is a pointer to the rule, not another test: it earns and costs "
               "nothing."), "",
             _("Input: {rows} of `{source}` ({n} rows, the released columns only), raw.csv's "
               "data rows 1 to {n}; QIs kept: {qis}, with their public hierarchies; "
               "arguments: {ints}.").format(
                 rows=_data_rows(entry.rows, _), source=entry.source, n=n,
                 qis=_(', ').join(entry.qis), ints=ints), ""]
    raw = [[str(source)] + row for source, row in zip(entry.rows, entry.raw)]
    head = [_("{source} row").format(source=entry.source)] + entry.header
    lines += _table(head, raw, list(range(1, n + 1)), _=_) + [""]
    lines += [_("Hierarchies (only the nodes that matter):"), ""]
    columns = {q: entry.header.index(q) for q in entry.qis}
    for qi, text in entry.dghs.items():
        values = {row[columns[qi]] for row in entry.raw}
        lines += tree(qi, text, values, _, entry.hierarchy_format or "tabs")
    lines += [""]
    if entry.broken:
        lines += [_("Your output breaks:"), ""]
        lines += [_("- rule \"{rule}\": {message}").format(rule=rule, message=message)
                  for rule, message in broken_rules(entry, _)] + [""]
    lines += rule_outputs(entry, _) + [""]
    rerun = command(function, entry.ints, module, f'counterexamples/{part}')
    lines += [_("The rules that decide it: HANDOUT.md, section \"{rule}\".").format(
                  rule=SECTION.get(function, function))]
    lines += [_("Files: `counterexamples/{part}/` beside this feedback; rerun yours with "
                "`{command}` and compare with expected.csv (one right answer).").format(
                  part=part, command=rerun)] if files else []
    return lines + [""]
