"""Running a course's own reference (a `[[function]]`'s, grader.parts.course_reference) on a
case: once, for its one answer (a table or a number), or over seeded runs, for the band a
part judged by quality accepts; and making a case's anonymized input from an anonymizer's
reference output (`anonymized = { function = ..., k = ... }`).

The band: the reference's utility (kcheck.metrics, NCP) over `seeds` runs with seeds 0, 1,
..., each run checked valid and k-anonymous by the same judge the students' outputs meet;
its top is the worst run's cost times 1 + `slack`.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable

from kanon.files import atomic_write_bytes

from ..contract import DGH_DIR, OUTPUT_FILE, RAW_FILE
from ..errors import UserError
from ..grading.expected import copy_inputs, data_folder
from ..parts import FunctionContract
from ..parts.course_reference import load_reference
from ..rubric import Case, Rubric

__all__ = ["run_course_reference", "make_inputs", "band"]


def _call(function: Callable, contract: FunctionContract, values: dict, folder: Path,
          seed: int | None) -> object:
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        options = {contract.seed_param: seed} if contract.seed_param and seed is not None \
            else {}
        return function(*contract.call_args(values), **options)
    finally:
        os.chdir(cwd)


def run_course_reference(rubric: Rubric, case: Case, seed: int | None = 0
                         ) -> tuple[str, object]:
    """("table", bytes), ("value", float) or ("error", type name) of the course's reference
    on `case` (a seeded reference gets `seed`)."""
    contract = case.spec
    function = load_reference(contract, rubric.course_dir)
    with tempfile.TemporaryDirectory(prefix="kanon-course-ref-") as tmp:
        copy_inputs(case, rubric.cases_dir, Path(tmp))
        try:
            result = _call(function, contract, case.ints, Path(tmp), seed)
        except (ValueError, FileNotFoundError) as e:
            if case.expect and case.expect in [c.__name__ for c in type(e).__mro__]:
                return "error", case.expect
            raise UserError(f"case {case.id}: the course's reference raised "
                            f"{type(e).__name__}: {e}") from None
        except Exception as e:  # staff code: say which case and where
            raise UserError(f"case {case.id}: the course's reference "
                            f"({contract.reference}) failed: {type(e).__name__}: {e}") from None
        if case.expect:
            raise UserError(f"case {case.id}: expects {case.expect}, but the course's "
                            f"reference did not raise it")
        if contract.returns_number:
            return "value", float(result)
        return "table", (Path(tmp) / OUTPUT_FILE).read_bytes()


def band(rubric: Rubric, case: Case) -> dict:
    """The quality band of `case`: the reference's cost over its seeded runs (each run judged
    valid and k-anonymous, or UserError), and the band's top."""
    from kcheck.hierarchies import read_folder
    from kcheck.messages import render
    from kcheck.quality import judge_quality
    options = dict(case.judge_options)
    seeds, slack = int(options["seeds"]), float(options["slack"])
    folder = data_folder(rubric.cases_dir, case.data)
    schema = case.schema
    trees = read_folder(folder / DGH_DIR, schema.hierarchy_format)
    released = list(case.qis or ()) + ([schema.sensitive] if schema.sensitive else [])
    costs = []
    for seed in range(seeds):
        kind, output = run_course_reference(rubric, case, seed)
        if kind == "error":
            return {"kind": "error", "error": output}
        verdict, facts = judge_quality(folder / RAW_FILE, trees, output, k=int(case.ints["k"]),
                                       qis=case.qis or (), numeric=schema.numeric,
                                       released=released)
        if not verdict.ok:
            raise UserError(f"case {case.id}: the course's reference with seed {seed} breaks "
                            f"its own judge: {render(verdict)}")
        costs.append(facts.cost)
    top = max(costs) * (1 + slack)
    return {"kind": "band", "metric": "ncp", "seeds": seeds, "slack": slack,
            "costs": costs, "band_max": top}


def make_inputs(rubric: Rubric) -> list[Path]:
    """Write every case's anonymized input made by an anonymizer's reference (seed 0) into
    the case's data folder, where its bytes differ; the files written."""
    written: list[Path] = []
    done: set[Path] = set()
    for case in rubric.cases():
        if case.anonymized_by is None:
            continue
        function, args = case.anonymized_by
        folder = data_folder(rubric.cases_dir, case.data)
        target = folder / case.anonymized
        if target in done:
            continue
        done.add(target)
        contract = rubric.functions.get(function)
        if contract is None:
            raise UserError(f"case {case.id}: its anonymized input is made by {function!r}, "
                            f"which is not one of the course's own functions ([[function]])")
        with tempfile.TemporaryDirectory(prefix="kanon-input-") as tmp:
            (Path(tmp) / DGH_DIR).mkdir()
            (Path(tmp) / RAW_FILE).write_bytes((folder / RAW_FILE).read_bytes())
            for path in sorted((folder / DGH_DIR).glob("*.txt")):
                (Path(tmp) / DGH_DIR / path.name).write_bytes(path.read_bytes())
            _call(load_reference(contract, rubric.course_dir), contract, dict(args),
                  Path(tmp), 0)
            data = (Path(tmp) / OUTPUT_FILE).read_bytes()
        if not target.is_file() or target.read_bytes() != data:
            atomic_write_bytes(target, data)
            written.append(target)
    return written
