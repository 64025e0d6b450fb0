"""Regenerate the public tests' expected outputs with the reference solution (kit only).

    python tests/public/make_expected.py          # rewrite data/expected/
    python tests/public/make_expected.py --check  # exit 1 when a stored file is stale

Each Run of data/cases.json (read by public_cases.py) runs the reference in a fresh folder
holding the case as `adult-hw1.csv` and `DGHs` (as the tests and the grader do); its output
is stored as
data/expected/<function>-<case>-k<k>[...].csv (gzip-compressed, with a fixed header, for the
adult case). costs.json holds cost_MD and cost_LM of every CostCase, measures.json entropy_l
and t_closeness of every MeasureCase (optional parts). data/index.json says which course
features need each file (data_users below): a course's bundle ships only its own.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

import kanon_check  # noqa: E402
import reference  # noqa: E402
from public_cases import (ADULT, ANONYMIZERS, BAD_CALLS, BAD_COSTS, BAD_MEASURES,  # noqa: E402
                          COSTS, DATA, EXPECTED, MEASURES, OPTIONAL_SIGNATURES, RUNS,
                          SHORT, CostCase, MeasureCase, Run, case_files)

INDEX = DATA / "index.json"


VARIANT_FUNCTIONS = ("clustering_anonymizer",)
"""Functions whose rubric part may select a rule variant (HANDOUT.md's variant sections)."""
ALL = "*"


def user(function: str, variant: str | None = None) -> str:
    """The token of a course feature that needs a test or file: the function, or
    `<function>:<variant>` (`:default` for the handout's own rules) for VARIANT_FUNCTIONS."""
    if function in VARIANT_FUNCTIONS:
        return f"{function}:{variant or 'default'}"
    return function


def data_users() -> dict[str, list[str]]:
    """Every file of tests/public (relative path; a case folder stands for its files) -> the
    features that need it (ALL: every course). A course's student bundle holds a file only
    when the course grades one of its users; tests/public/data/index.json is this table."""
    users: dict[str, set[str]] = {}

    def need(path: str, *who: str) -> None:
        users.setdefault(path, set()).update(who)

    def case(name: str, *who: str) -> None:
        if name != ADULT:
            need(f"data/cases/{name}", *who)

    costs = ("cost_MD", "cost_LM")
    for run in RUNS:
        who = user(run.function, run.variant)
        case(run.case, who)
        need(run.expected.relative_to(HERE).as_posix(), who)
    for cost in COSTS:
        case(cost.case, *costs)
        if cost.case == ADULT:
            need(cost.anonymized_path().relative_to(HERE).as_posix(), *costs)
    for measure in MEASURES:
        case(measure.input.case, measure.function)
        if measure.input.case == ADULT:
            need(measure.input.anonymized_path().relative_to(HERE).as_posix(), measure.function)
    for bad in BAD_CALLS:
        case(bad.case, user(bad.function))
    for name, *_ in BAD_COSTS:
        case(name, *costs)
    for function, name, *_ in BAD_MEASURES:
        case(name, function)
    case("jobsex", *(user(f) for f in ANONYMIZERS + list(OPTIONAL_SIGNATURES)
                     if f not in ("entropy_l", "t_closeness")))  # test_refuses_to_overwrite
    need("data/expected/costs.json", *costs)
    need("data/expected/measures.json", "entropy_l", "t_closeness")
    need("test_public_api.py", ALL)
    need("test_public_functions.py", ALL)  # its tests: those of data/functions.json
    return {path: sorted(who) for path, who in sorted(users.items())}


def index_text() -> str:
    """data/index.json: every public file -> the course features that need it."""
    return json.dumps(data_users(), indent=1, sort_keys=True) + "\n"


def _in_case_folder(case: str, action) -> object:
    """Run `action(folder)` with the working directory a fresh copy of the case."""
    import os
    raw, dghs = case_files(case)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shutil.copyfile(raw, folder / "adult-hw1.csv")
        shutil.copytree(dghs, folder / "DGHs")
        before = os.getcwd()
        os.chdir(folder)
        try:
            return action(folder)
        finally:
            os.chdir(before)


def run_output(run: Run) -> bytes:
    """The reference's output file of one Run, as bytes (LF, minimal quoting)."""
    def action(folder: Path) -> bytes:
        function = reference.VARIANTS[(run.function, run.variant)] if run.variant else \
            getattr(reference, run.function)
        function(*run.args("adult-hw1.csv", "DGHs", "anonymized.csv"))
        return (folder / "anonymized.csv").read_bytes()
    return _in_case_folder(run.case, action)


def cost_values(case: CostCase, outputs: dict[Path, bytes]) -> dict[str, float]:
    """cost_MD and cost_LM of a CostCase; adult inputs come from the fresh `outputs`."""
    source = case.anonymized_path()
    data = outputs[source] if source in outputs else source.read_bytes()

    def action(folder: Path) -> dict[str, float]:
        (folder / "anonymized.csv").write_bytes(data)
        return {name: getattr(reference, name)("adult-hw1.csv", "anonymized.csv", "DGHs")
                for name in ("cost_MD", "cost_LM")}
    return _in_case_folder(case.case, action)


def measure_value(case: MeasureCase, outputs: dict[Path, bytes]) -> float:
    """entropy_l / t_closeness of a MeasureCase; adult inputs come from the fresh `outputs`."""
    source = case.input.anonymized_path()
    data = outputs[source] if source in outputs else source.read_bytes()

    def action(folder: Path) -> float:
        (folder / "anonymized.csv").write_bytes(data)
        return getattr(reference, case.function)("adult-hw1.csv", "anonymized.csv", "DGHs",
                                                 *case.args)
    return _in_case_folder(case.input.case, action)


def stored_form(path: Path, data: bytes) -> bytes:
    """What is written to `path`: the bytes, gzip-compressed (mtime 0) for .gz files."""
    if path.suffix != ".gz":
        return data
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buffer, mtime=0) as f:
        f.write(data)
    return buffer.getvalue()


def generate(given: dict[Path, bytes] | None = None) -> dict[Path, bytes]:
    """Every expected file's content, freshly computed (uncompressed CSV bytes or JSON).
    `given`: Runs' outputs the reference has just produced elsewhere (a Run's expected path ->
    its output's bytes; e.g. the public tests run against the reference), used as they are;
    the others are computed here."""
    given = given or {}
    outputs = {run.expected: given[run.expected] if run.expected in given else run_output(run)
               for run in RUNS}
    costs = {case.id: cost_values(case, outputs) for case in COSTS}
    files = dict(outputs)
    files[EXPECTED / "costs.json"] = (json.dumps(costs, indent=1, sort_keys=True) + "\n").encode()
    measures: dict[str, dict[str, float]] = {}
    for case in MEASURES:
        measures.setdefault(case.function, {})[case.id] = measure_value(case, outputs)
    files[EXPECTED / "measures.json"] = (json.dumps(measures, indent=1, sort_keys=True)
                                         + "\n").encode()
    return files


def _parsed(path: Path, data: bytes):
    if path.suffix == ".json":
        return json.loads(data)
    return kanon_check.read_csv_text(data.decode("utf-8"))


def stale(given: dict[Path, bytes] | None = None) -> list[str]:
    """Expected files that are missing or differ (as parsed CSV / JSON) from a fresh run, and
    stored files no Run or CostCase produces. `given`: as generate's."""
    fresh = generate(given)
    problems = []
    for path, data in fresh.items():
        if not path.is_file():
            problems.append(f"{path.name}: missing")
            continue
        stored = path.read_bytes()
        if path.suffix == ".gz":
            stored = gzip.decompress(stored)
        if _parsed(path, stored) != _parsed(path, data):
            problems.append(f"{path.name}: differs from the reference's output")
    extra = sorted(p.name for p in EXPECTED.iterdir() if p not in fresh)
    problems += [f"{name}: not produced by any public case" for name in extra]
    if not INDEX.is_file() or INDEX.read_text(encoding="utf-8") != index_text():
        problems.append(f"{INDEX.name}: stale")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale()
        for line in problems:
            print(f"stale: {line}")
        print(f"{len(problems)} stale expected file(s)" if problems else "expected files are fresh")
        return 1 if problems else 0
    EXPECTED.mkdir(parents=True, exist_ok=True)
    fresh = generate()
    for old in EXPECTED.iterdir():
        if old not in fresh:
            old.unlink()
    for path, data in fresh.items():
        path.write_bytes(stored_form(path, data))
    INDEX.write_text(index_text(), encoding="utf-8")
    print(f"wrote {len(fresh)} files to {EXPECTED} and {INDEX.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
