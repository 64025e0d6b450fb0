"""The self-check's words about a counterexample of the pool (kcheck/pool.py, search.py): the
section shown under a failing public test, in the course's language (`language`: "en",
"zh-CN", ...; one without a catalog reads English). Each sentence is a kcheck.text Message
(TEMPLATES: its English id by key) rendered through kcheck's catalog (kcheck.po, its
"kcheck/teach_text.py" section); a student's own text (an exception's message, a cell) is a
Verbatim, shown as it is. Standard library only: it ships in the students' bundle.
"""
from __future__ import annotations

from pathlib import Path

from .pool import Member, used_lines
from .text import LIST, N_, Joined, Message, Param, Verbatim, say

__all__ = ["TEMPLATES", "SEPARATOR", "FILES", "message", "text", "table", "command", "render",
           "render_rules", "problem", "stopped", "spent"]

FILES = {"raw_dataset_file": "raw.csv", "anonymized_dataset_file": "anonymized.csv",
         "DGH_folder": "DGHs", "output_file": "yours.csv"}
"""A call's file parameters -> the self-check's names of a member's files."""

SEPARATOR = LIST
"""The separator of the lists the section joins (row numbers, QIs, arguments)."""

TEMPLATES: dict[str, str] = {
    "section": N_("public counterexample"),
    "row": N_("row"),
    "none": N_("none"),
    "found": N_("The smallest public input on which {function} and the handout's rules "
                "disagree (from the course's public counterexample pool: a pointer to the "
                "rule, not another test):"),
    "found.rules": N_("The smallest public input on which {function} (part {part}) breaks a "
                      "rule of the handout (from the course's public counterexample pool: a "
                      "pointer to the rule, not another test):"),
    "input": N_("Input: raw.csv ({n} of the data rows of {source}: {rows}); QIs kept: {qis}; "
                "arguments: {ints}."),
    "anonymized": N_("The anonymized input (anonymized.csv, the same rows of {source}):"),
    "lines": N_("Hierarchy lines used (DGHs/{file}):"),
    "number": N_("Expected {expected}, yours {got}."),
    "expected": N_("Expected (the handout's rules):"),
    "yours.problem": N_("Yours: your function {problem}."),
    "yours.marked": N_("Yours (cells that differ are marked *like this*):"),
    "yours": N_("Yours:"),
    "broken": N_("It breaks the rule \"{rule}\": {sentence}"),
    "right": N_("One right answer (the staff solution's; any output that keeps every rule "
                "is right):"),
    "rerun": N_("Rerun exactly this call (the files are in {folder}):"),
    "compare": N_("then compare {yours} with {expected}."),
    "stopped.limit": N_("No public counterexample for {function}: a call did not return "
                        "within {limit} s (an endless loop?), so the search stopped there."),
    "stopped.budget": N_("No public counterexample for {function} within the self-check's "
                         "{budget} s ({calls} calls)."),
    "stopped.ended": N_("No public counterexample for {function}: the process running it "
                        "ended during the search."),
    "stopped.none": N_("No input of the public counterexample pool makes {function} differ "
                       "({calls} calls): the failing test above is the one to look at."),
    "spent": N_("(the search: {calls} calls, {seconds} s)"),
    "with_spent": N_("{line} {spent}"),
    "problem.raised": N_("raised {error}"),
    "problem.not_number": N_("returned {value}, not a number"),
    "problem.no_output": N_("returned without writing its output file"),
    "problem.not_csv": N_("wrote an output that is not a UTF-8 CSV file ({error})"),
}
"""Message key -> its id (the English template, kcheck.po's msgid; kcheck.text.Message): the
numbers in it come formatted (`limit` and `seconds` to one decimal, `budget` as %g)."""


def message(key: str, **params: Param) -> Message:
    """The message `key` with its fields' values (a student's own text as a Verbatim)."""
    return Message(TEMPLATES[key], params)


def text(key: str, language: str, **params: object) -> str:
    """The message `key` in `language` (English for a language without a catalog), its
    fields filled with `params` (a value other than a message parameter shown as its str)."""
    return say(message(key, **{k: v if isinstance(v, (str, int, float, Verbatim, Joined,
                                                       Message)) else str(v)
                               for k, v in params.items()}), language)


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
    m = member
    ints = Joined([f"{k} = {v}" for k, v in m.ints.items()], SEPARATOR) if m.ints \
        else message("none")
    lines = [say(message("input", n=len(m.rows), rows=Joined(m.rows, SEPARATOR),
                         source=m.label, qis=Joined(m.qis, SEPARATOR), ints=ints), language)]
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
                       got=Verbatim(problem_text or repr(yours)))]
        compare = ("", "expected.txt")
    else:
        expected = read_csv_text(str(m.expected))
        mine = read_csv_text(yours) if isinstance(yours, str) else None
        lines += [text("expected", language)] + table(*expected, language=language)
        if problem_text:
            lines += [text("yours.problem", language, problem=Verbatim(problem_text))]
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
        lines += [text("yours.problem", language, problem=Verbatim(problem_text))]
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
    return text(f"problem.{key}", language,
                **{k: Verbatim(str(v)) for k, v in params.items()})


def stopped(why: str, function: str, calls: int, limit: float, budget: float,
            language: str = "en") -> str:
    """The one line of a search that found nothing: `why` is "limit" (a call stopped at
    `limit` seconds), "budget" (`budget` seconds spent), "ended" or "none"."""
    return text(f"stopped.{why}", language, function=function, calls=calls,
                limit=f"{limit:.1f}", budget=f"{budget:g}")


def spent(line: str | None, calls: int, seconds: float, language: str = "en") -> str:
    """What the search spent, after `line` when given (a search that found nothing)."""
    said = text("spent", language, calls=calls, seconds=f"{seconds:.1f}")
    return said if line is None else text("with_spent", language, line=line, spent=said)
