"""The self-check of a course's own functions (rubric [[function]]), made at bundle time from
the rubric's PUBLIC cases of them, as data: no kit file names a course's function.

Such a course's students get, besides the self-check of the kit's functions it grades:

  - tests/public/test_public_course_parts.py (which the other courses never get): for each
    case below, the student's function called as the self-check calls every function (a
    child process with a time limit: student_calls.py), its result judged by kcheck (quality,
    number) with kcheck's message in the course's language;
  - kcheck/, the standard-library checker the grader judges these parts with, as it is (a
    top-level folder of the bundle: it holds no reference solution; every course's bundle
    has it, `kcheck_entries`: the whole self-check judges with it);
  - tests/public/data/course/: cases.json (per public case: the function, the call's
    arguments, its data folder, the judge, the band's top or the expected number or error,
    the QIs, numeric QIs, sensitive and released columns and the hierarchy format) and each
    public data folder those cases read (the dataset, exactly the hierarchy files the calls
    get, any anonymized input regen made), under its rubric path (`public/toy/...`).

Hidden cases never reach it: only cases without `hidden = true`, and only their data folders.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

from ..contract import RAW_FILE
from ..errors import UserError
from ..grading.expected import input_files, load_manifest, lookup
from ..grading.term_view import apply_term
from ..parts.contract import FILE_NAMES
from ..paths import PUBLIC_TESTS
from ..rubric import Case, Rubric
from ..zipfiles import Entry

__all__ = ["OWN_TEST", "KCHECK", "DATA", "own_cases", "kept_paths", "own_entries",
           "kcheck_entries"]

PUBLIC = Path(PUBLIC_TESTS).as_posix() + "/"
OWN_TEST = PUBLIC + "test_public_course_parts.py"
"""The self-check's test file of a course's own functions: shipped only to such a course."""
KCHECK = "kcheck"
DATA = PUBLIC + "data/course/"
GZIP_ABOVE = 100_000  # bytes: a larger dataset ships gzip-compressed


def own_cases(rubric: Rubric) -> list[Case]:
    """The public cases of the course's own functions, in rubric order ([] for a course
    without functions of its own)."""
    if not rubric.functions:
        return []
    return [c for c in rubric.cases() if not c.hidden and c.spec.origin == "course"]


def kept_paths(paths: set[Path], root: Path, rubric: Rubric) -> set[Path]:
    """The allow-listed files a course ships: test_public_course_parts.py only to a course
    with public cases of functions of its own."""
    if own_cases(rubric):
        return paths
    return {p for p in paths if p != root / OWN_TEST}


def _released(case: Case, header: list[str]) -> list[str]:
    """The columns the function's output holds, as the grader's quality judge says."""
    schema = case.schema
    if schema.other_columns == "keep":
        return list(header)
    return list(case.qis or ()) + ([schema.sensitive] if schema.sensitive else [])


def _records(raw: bytes) -> list[list[str]]:
    return [r for r in csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")) if r]


def _header(raw: bytes) -> list[str]:
    return _records(raw)[0]


def _expected(case: Case, rubric: Rubric, manifest: dict) -> dict:
    """What the case must give, as the self-check reads it."""
    found = lookup(case, rubric.cases_dir, manifest)
    if found.kind == "error":
        return {"expect": found.error}
    if found.kind == "band":
        return {"band_max": found.value, "metric": "ncp"}
    if found.kind == "value":
        return {"expected": found.value}
    return {"expected_table": found.path}


def own_entries(rubric: Rubric, root: Path) -> list[Entry]:
    """tests/public/data/course/ of a course with functions of its own ([] otherwise)."""
    cases = own_cases(rubric)
    if not cases:
        return []
    rubric = apply_term(rubric)
    cases = own_cases(rubric)
    manifest = load_manifest(rubric.cases_dir)
    files: dict[str, bytes] = {}
    listed = []
    for case in cases:
        contract = case.spec
        inputs = input_files(case, rubric.cases_dir)
        raw = inputs[RAW_FILE].read_bytes()
        folder = case.data.strip("/")
        raw_name = RAW_FILE + (".gz" if len(raw) > GZIP_ABOVE else "")
        files[f"{folder}/{raw_name}"] = gzip.compress(raw, mtime=0) \
            if raw_name.endswith(".gz") else raw
        dghs = []
        anonymized = None
        for name, path in inputs.items():
            if name == RAW_FILE:
                continue
            if name.startswith("DGHs/"):
                dghs.append(name.split("/", 1)[1])
                files[f"{folder}/{name}"] = path.read_bytes()
            else:  # the anonymized input, under its name in the data folder (as it is:
                anonymized = path.name  # a course's handout may tell students to open it)
                files[f"{folder}/{path.name}"] = path.read_bytes()
        entry = {
            "id": case.id.replace("/", "-"), "case": case.name, "part": case.part,
            "function": case.function, "judge": case.judge,
            "params": [[p.name, p.kind] for p in contract.params],
            "args": contract.call_args(case.ints),
            "values": {p.name: case.ints[p.name] for p in contract.params if not p.is_file
                       and p.name in case.ints},
            "data": folder, "raw": raw_name, "dghs": sorted(dghs), "anonymized": anonymized,
            "output": FILE_NAMES["output"] if contract.returns == "file" else None,
            "rows": len(_records(raw)) - 1,
            "qis": list(case.qis or ()), "numeric": list(case.schema.numeric),
            "sensitive": case.schema.sensitive,
            "released": _released(case, _header(raw)),
            "hierarchy_format": case.schema.hierarchy_format,
            "tolerance": rubric.settings.cost_tolerance, "expect": case.expect,
        }
        expected = _expected(case, rubric, manifest)
        table = expected.pop("expected_table", None)
        if table is not None:
            name = f"expected/{entry['id']}.csv"
            files[name] = Path(table).read_bytes()
            expected["expected_table"] = name
        entry.update(expected)
        listed.append(entry)
    files["cases.json"] = (json.dumps({"cases": listed}, indent=1, sort_keys=True,
                                      ensure_ascii=False) + "\n").encode("utf-8")
    return [Entry(DATA + name, data) for name, data in sorted(files.items())]


def kcheck_entries(root: Path) -> list[Entry]:
    """kcheck/ as it is: the checker the self-check judges every output with (the grader's)."""
    package = root / KCHECK
    modules = sorted(p for p in package.glob("*.py"))
    if not modules:
        raise UserError(f"cannot bundle: {package} holds no kcheck modules (the checker the "
                        f"self-check judges outputs with)")
    return [Entry(f"{KCHECK}/{p.name}", p.read_bytes()) for p in modules]
