"""The self-check of a course whose parts are judged by rules on its own data (a [data] schema
and `judge = "rules"` parts: the USTC lab), made at bundle time from the course's PUBLIC data.

Such a course's students get, instead of the kit's default-contract tests of those functions
(their generic tests in test_public_functions.py, which functions.json leaves out,
test_public_api.py and the data only they use):

  - tests/public/test_public_rules.py and its helper rules_cases.py (standard library only),
    which the other courses never get, judging the outputs by kcheck.rules: the bundle ships
    kcheck/ as it is (its rules/ too), the grader's own rule sets, never a rewritten copy;
  - tests/public/data/rules/: a few small row subsets of the course's public dataset, drawn
    deterministically (SUBSETS), the full public file gzip-compressed (the adult-size cases
    of the rubric), each part's DGH folder holding exactly its QIs' hierarchy files (the
    course's format; the bundle's own DGHs/<part>/ when it has them), and cases.json: per
    case its arguments and its released columns (no answer: the self-check judges each output
    by the rules, as the grader does).
"""
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path, PurePosixPath

from kanon.table import Table, read_table
from ..contract import DGH_DIR, RAW_FILE
from ..paths import PUBLIC_TESTS
from ..rubric import Part, Rubric
from ..zipfiles import Entry
from .materials.course import view

PUBLIC = Path(PUBLIC_TESTS).as_posix() + "/"
OWN_TEST = PUBLIC + "test_public_rules.py"
"""The rules self-check's test file: shipped only to a rules course."""
DATA = PUBLIC + "data/rules/"
FULL = "adult"  # the full public file's case name (public_cases.ADULT: runs last, gated)
SUBSETS = ((24, 2, 2), (40, 3, 4), (60, 5, 6))
"""(rows, k, max_sup) of the small cases drawn from the public file (Mondrian: k only)."""
TO_ROOT = "../" * len(PurePosixPath(DATA).parts)
"""From DATA up to the bundle's top: a case's `dghs` (relative to DATA) names the bundle's
DGHs/<part>/ when the course has per-part folders, instead of a second copy."""
GZIP_ABOVE = 100_000  # bytes: a larger raw file ships gzip-compressed


def rule_parts(rubric: Rubric) -> list[Part]:
    """The parts the rules self-check covers: rule-judged parts of a course with a [data]
    schema that have a case on public data ([] for every other course)."""
    if rubric.schema.is_default:
        return []
    return [p for p in rubric.auto_parts if p.judge == "rules" and p.qis and
            any(not c.hidden and c.expect is None for c in p.cases)]


def kept_paths(paths: set[Path], root: Path, rubric: Rubric,
               users: dict[str, list[str]]) -> set[Path]:
    """The allow-listed files a course ships: without test_public_rules.py unless it is a
    rules course; a rules course without test_public_api.py and the data files only its
    rule-judged functions use (their generic tests are left out by data: functions.json)."""
    own = root / OWN_TEST
    parts = rule_parts(rubric)
    if not parts:
        return {p for p in paths if p != own}
    judged = {p.function for p in parts}
    graded = {p.function for p in rubric.auto_parts}
    dropped = {root / PUBLIC / "test_public_api.py"}
    data = root / PUBLIC / "data"
    kept = set()
    for path in paths:
        if path in dropped:
            continue
        if data in path.parents:
            rel = path.relative_to(root / PUBLIC).as_posix()
            keys = [rel] + [q.as_posix() for q in Path(rel).parents if q.as_posix() != "."]
            who = next((users[k] for k in keys if k in users), None)
            if who is not None and {w.split(":")[0] for w in who} & graded <= judged:
                continue
        kept.add(path)
    return kept


def _drawn(n: int, size: int) -> list[int]:
    """`size` row indices of `n`, drawn by a fixed seed, in raw order."""
    return sorted(random.Random(f"rules-selfcheck-{size}").sample(range(n), size))


def _csv(header: list[str], rows: list[list[str]]) -> bytes:
    from kanon.table import render_csv
    return render_csv(header, rows).encode("utf-8")


def rules_entries(rubric: Rubric) -> list[Entry]:
    """The rules self-check's data files (DATA), [] for a course without rule parts (kcheck/,
    rules/ included, is every course's: own_selfcheck.kcheck_entries)."""
    parts = rule_parts(rubric)
    if not parts:
        return []
    schema = rubric.schema
    source = next(rubric.cases_dir / c.data for p in parts for c in p.cases
                  if not c.hidden and c.expect is None)
    raw = read_table(str(source / RAW_FILE))
    full = (source / RAW_FILE).read_bytes()
    files: dict[str, bytes] = {}
    if len(full) > GZIP_ABOVE:
        files["adult-hw1.csv.gz"] = gzip.compress(full, mtime=0)
        full_name = "adult-hw1.csv.gz"
    else:
        files[full_name := "adult-hw1.csv"] = full
    subsets = {}
    for size, _, _ in SUBSETS:
        rows = [raw.rows[i] for i in _drawn(len(raw.rows), size)]
        subsets[size] = Table(f"rows{size}.csv", raw.header, rows)
        files[f"raw/rows{size}.csv"] = _csv(raw.header, rows)
    cases, rejects = [], []
    for part in parts:
        dghs = next((f.path for f in view(rubric).part_folders if f.part == part.key), None)
        if dghs is not None:  # the bundle's own DGHs/<part>/ (course_data.with_part_folders)
            dghs = TO_ROOT + dghs
        else:
            dghs = f"{part.key}/DGHs"
            for qi in part.qis:
                files[f"{dghs}/{qi}.txt"] = (source / DGH_DIR / f"{qi}.txt").read_bytes()
        released = [raw.header[c] for c in schema.released(
            raw.header, [raw.header.index(q) for q in part.qis], str(source / RAW_FILE))]
        base = {"part": part.key, "function": part.function, "qis": list(part.qis),
                "columns": released, "dghs": dghs, "optional": part.optional}
        samarati = part.function == "samarati"
        draws = [(f"rows{size}", f"raw/rows{size}.csv", subsets[size], k, sup)
                 for size, k, sup in SUBSETS]
        draws += [(FULL, full_name, raw, c.ints["k"], c.ints.get("max_sup"))
                  for c in part.cases if not c.hidden and c.expect is None and
                  c.data == source.relative_to(rubric.cases_dir).as_posix()]
        for case, path, table, k, sup in draws:
            entry = dict(base, case=case, raw=path, k=k, rows=len(table.rows))
            if samarati:
                entry["max_sup"] = sup
            cases.append(entry)
        small = f"rows{SUBSETS[0][0]}"
        bad = [([0, 2], "k = 0 < 1"), ([2, -1], "max_sup < 0")] if samarati else \
            [([SUBSETS[0][0] + 1], f"n = {SUBSETS[0][0]} < k = {SUBSETS[0][0] + 1}")]
        if part.key == part.function:
            rejects += [dict(base, case=small, raw=f"raw/{small}.csv", args=a, reason=why,
                             k=a[0], rows=SUBSETS[0][0], **({"max_sup": a[1]} if samarati
                                                            else {}))
                        for a, why in bad]
    files["cases.json"] = (json.dumps({"cases": cases, "rejects": rejects}, indent=1,
                                      sort_keys=True) + "\n").encode("utf-8")
    return [Entry(DATA + name, data) for name, data in sorted(files.items())]


__all__ = ["OWN_TEST", "kept_paths", "rule_parts", "rules_entries"]
