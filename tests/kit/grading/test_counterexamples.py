"""Counterexamples (issue 21): the search over the pool's chains, the pool's public origin, and
end to end on the example class and on seeded single-bug variants of the reference."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from grader import rubric
from grader.authoring import pool as builder
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.grading.shrink.pool import KIT_POOL, Chain, Member, Source, load_chains
from kcheck.search import Answer, search
from mutants import MUTANTS, write_submission

KIT = Path(__file__).resolve().parents[3]
EXAMPLES = KIT / "examples"
# mutants of the seven default functions whose examples-rubric cases fail, fast to grade
FLOOR_MUTANTS = ("LM as a mean over records instead of a sum",
                 "random: the seed is ignored",
                 "clustering: the MD term is not normalised",
                 "bottom-up: l-diversity ignored",
                 "mondrian: the upper median",
                 "mondrian: interval bounds written as floats, not the raw strings")
FLOOR = 0.8  # share of wrong/partial parts that get a counterexample of <= 12 rows, 3 QIs


def _chain(n: int) -> Chain:
    source = Source("t.csv", ["a", "s"], {i: [str(i), "x"] for i in range(1, n + 1)},
                    {"a": "Any\n"})
    rows = list(range(1, n + 1))
    return Chain([Member(source, tuple(rows[:n - i]), ("a",), {"k": 1}, "") for i in range(n)])


def test_search_binary_searches_a_differing_chain_for_its_smallest_member() -> None:
    calls = []
    def probe(member: Member) -> Answer:
        calls.append(len(member.rows))
        return Answer(5 in member.rows, "yours")
    found = search([_chain(12)], probe)
    assert found.member.rows == (1, 2, 3, 4, 5) and found.answer.differs
    assert len(calls) <= 5 and calls[0] == 12  # the seed first, then halves


def test_search_skips_agreeing_seeds_and_stops_when_the_budget_is_spent() -> None:
    assert search([_chain(6)], lambda m: Answer(False)) is None
    assert search([_chain(6)], lambda m: None) is None


def _public_values() -> set[str]:
    values: set[str] = set()
    for folder in (KIT / "tests" / "public" / "data" / "cases", KIT / "grader" / "cases" / "public"):
        for path in folder.rglob("*"):
            if path.suffix == ".csv":
                with open(path, encoding="utf-8", newline="") as f:
                    values |= {c for row in csv.reader(f) for c in row}
            elif path.suffix == ".txt":
                values |= {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    return values


def test_every_value_of_the_pool_occurs_in_public_data() -> None:
    public = _public_values()
    interval = re.compile(r"^\[(.+)-(.+)\]$")
    for function, variant in builder.targets():
        for chain in load_chains(KIT_POOL, function, variant):
            for member in chain.members:
                cells = {c for row in member.table() for c in row}
                if member.source.anonymized is not None:
                    cells |= {c for row in member.table(anonymized=True) for c in row}
                if isinstance(member.expected, str):
                    cells |= {c for row in list(csv.reader(io.StringIO(member.expected)))[1:]
                              for c in row}
                for cell in cells:
                    m = interval.match(cell)
                    bounds = {m.group(1), m.group(2)} if m and cell not in public else {cell}
                    assert bounds <= public, (function, cell)


def test_the_pool_holds_no_hidden_value_and_is_fresh() -> None:
    hidden: set[str] = set()
    for path in (KIT / "grader" / "cases" / "hidden").rglob("adult-hw1.csv"):
        with open(path, encoding="utf-8", newline="") as f:
            hidden |= {c for row in list(csv.reader(f))[1:] for c in row}
    only_hidden = {v for v in hidden - _public_values() if len(v) >= 4 and not v.isdigit()}
    assert {"Brussels", "Antwerp"} <= only_hidden  # so the check means something
    pool = [json.loads(p.read_text(encoding="utf-8")) for p in KIT_POOL.glob("*.json")]
    values = {json.dumps(v, ensure_ascii=False) for p in pool for v in _strings(p)}
    assert not [v for v in only_hidden if json.dumps(v, ensure_ascii=False) in values]
    assert builder.fresh(), "run `python -m grader regen` to rebuild grader/cases/counterexamples"


def _strings(data: object):
    """Every string in a JSON value, CSV texts split into cells."""
    if isinstance(data, str):
        yield data
        if "\n" in data:
            for row in csv.reader(io.StringIO(data)):
                yield from row
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


@pytest.fixture(scope="module")
def bob(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bob")
    grade_class(BatchSettings(EXAMPLES / "submissions", out, rubric.load(EXAMPLES / "rubric.toml"),
                              sandbox="none", progress=False, only=("bob",)))
    return out


@pytest.mark.slow
def test_a_wrong_submission_gets_a_counterexample_a_reader_can_check(bob: Path) -> None:
    feedback = (bob / "feedback" / "bob.md").read_text(encoding="utf-8")
    assert "### Counterexample for cost_LM" in feedback
    assert "### Counterexample for clustering_anonymizer" in feedback
    assert "pointer to the rule, not another test" in feedback
    assert 'HANDOUT.md, section "clustering_anonymizer"' in feedback
    assert "from skeleton import cost_LM" in feedback
    folder = bob / "feedback" / "bob" / "counterexamples"
    assert sorted(p.name for p in (folder / "clustering_anonymizer").iterdir()) == [
        "DGHs", "expected.csv", "raw.csv", "yours.csv"]
    assert (folder / "cost_LM" / "anonymized.csv").is_file()
    results = json.loads((bob / "results" / "bob" / "results.json").read_text())
    assert sum("### Counterexample for" in t["output"] for t in results["tests"]) == 2


def _counterexample(feedback: str, part: str) -> tuple[list[int], str, list[list[str]]]:
    """(the data rows its Input line names, the source file, its input table with the
    header row)."""
    section = feedback.split(f"### Counterexample for {part}")[1].split("\n### ")[0]
    named = re.search(r"Input: data rows? ([\d, ]+) \(the header is not counted\) of `([^`]+)`",
                      section)
    table = section[section.index("| data row |"):].split("\n\n")[0].splitlines()
    shown = [[c.strip() for c in line.strip("|").split("|")] for line in table[:1] + table[2:]]
    return [int(n) for n in named.group(1).split(", ")], named.group(2), shown


def test_a_counterexample_shows_the_data_rows_it_names(bob: Path) -> None:
    """Rows are data rows from 1, the header not counted (HANDOUT.md, "Background"): the rows
    the Input line names are the source file's rows the table shows, by number and content."""
    feedback = (bob / "feedback" / "bob.md").read_text(encoding="utf-8")
    for part in ("cost_LM", "clustering_anonymizer"):
        numbers, source, (columns, *shown) = _counterexample(feedback, part)
        with open(KIT / source, encoding="utf-8", newline="") as f:
            header, *data = list(csv.reader(f))
        assert [int(row[0]) for row in shown] == numbers, part
        for number, row in zip(numbers, shown):
            assert row[1:] == [data[number - 1][header.index(c)] for c in columns[1:]], part
    numbers, source, (_, *shown) = _counterexample(feedback, "cost_LM")  # checked by hand:
    assert (source, numbers) == ("tests/public/data/cases/jobsex/raw.csv", [3, 4])
    assert [row[1] for row in shown] == ["Engineer", "Dancer"]  # lines 4 and 5 of the file


@pytest.mark.slow
def test_the_search_is_deterministic_and_never_changes_a_grade(bob: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    r = rubric.load(EXAMPLES / "rubric.toml")
    grade_class(BatchSettings(EXAMPLES / "submissions", again, r, sandbox="none", progress=False,
                              only=("bob",)))
    def record(out: Path) -> dict:
        return json.loads((out / "results" / "bob" / "record.json").read_text())
    first, second = record(bob), record(again)
    strip = lambda e: {k: v for k, v in e.items() if k != "cpu_seconds"}  # noqa: E731
    assert ({k: strip(e) for k, e in first["counterexamples"].items()}
            == {k: strip(e) for k, e in second["counterexamples"].items()})
    off = tmp_path / "off"
    grade_class(BatchSettings(EXAMPLES / "submissions", off, rubric.load(EXAMPLES / "rubric.toml",
                              {"counterexample_calls": 0}), sandbox="none", progress=False, only=("bob",)))
    assert "counterexamples" not in record(off)
    assert (record(off)["parts"], record(off)["status"]) == (first["parts"], first["status"])


@pytest.mark.slow
def test_seeded_single_bug_variants_get_small_counterexamples(tmp_path: Path) -> None:
    chosen = [m for m in MUTANTS if m.name in FLOOR_MUTANTS]
    assert len(chosen) == len(FLOOR_MUTANTS)
    for n, mutant in enumerate(chosen):
        write_submission(mutant, KIT / "reference", tmp_path / "subs" / f"m{n}",
                         tmp_path / "work" / f"m{n}")
    batch = grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out", rubric.load(EXAMPLES / "rubric.toml"),
                                      jobs=2, sandbox="none", progress=False))
    entries = [e for r in batch.records for e in (r.get("counterexamples") or {}).values()]
    small = [e for e in entries if e["found"] and len(e["rows"]) <= 12 and len(e["qis"]) <= 3]
    assert len(entries) >= len(chosen) and len(small) >= FLOOR * len(entries)


def test_the_rerun_command_runs_in_any_shell(tmp_path: Path) -> None:
    """The feedback's rerun command is `python -c "..."` alone: no `cd ... &&` (Windows
    PowerShell 5 has no `&&`), no `VAR=value` prefix (POSIX only), nothing a shell expands
    inside double quotes; run as written from the feedback's folder, with the placeholder
    replaced by the student's folder, it calls the student's function on the files."""
    import shlex
    import subprocess
    import sys
    from grader.gradebook.counterexample import YOUR_FOLDER, command
    mine = tmp_path / "my hw"
    mine.mkdir()
    (mine / "skeleton.py").write_text(
        "def cost_MD(raw, anonymized, dghs):\n    return len(open(raw).read())\n\n"
        "def mondrian(raw, dghs, k, out):\n    open(out, 'w').write(f'{k},{dghs}\\n')\n",
        encoding="utf-8")
    folder = tmp_path / "feedback" / "counterexamples" / "mondrian"
    folder.mkdir(parents=True)
    (folder / "raw.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    line = command("mondrian", {"k": 2}, "skeleton", "counterexamples/mondrian")
    words = shlex.split(line)
    assert words[:2] == ["python", "-c"] and len(words) == 3, line
    assert line.count('"') == 2 and not set(words[2]) & set('"$%!`'), line
    code = words[2].replace(YOUR_FOLDER, str(mine))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / "feedback",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (folder / "yours.csv").read_text(encoding="utf-8") == "2,DGHs\n"
    cost = shlex.split(command("cost_MD", {}, "skeleton", "counterexamples/mondrian"))[2]
    done = subprocess.run([sys.executable, "-c", cost.replace(YOUR_FOLDER, str(mine))],
                          cwd=tmp_path / "feedback", capture_output=True, text=True, timeout=60)
    assert done.stdout == "8\n", done.stderr  # printed: "a,b\n1,2\n" has 8 characters
