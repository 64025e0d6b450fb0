"""`python -m grader regen`: the case datasets (casegen) and every case's expected output, made
by running the staff solution (the only part of the grader that does), with the manifest of
hashes that grader.grading.expected reads."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from kanon.files import atomic_write_text, dump_json, sha256_bytes, sha256_file

from ..contract import OUTPUT_FILE, call_args, is_cost
from ..errors import UserError
from ..grading.expected import MANIFEST, case_key, copy_inputs
from ..rubric import Case, Rubric
from . import casegen


def _run_reference(case: Case, cases_dir: Path) -> tuple[str, object]:
    """Run the reference on a case in a temporary folder: ("table", bytes), ("value", float)
    or ("error", type name)."""
    import reference
    function = reference.VARIANTS[(case.function, case.variant)] if case.variant else \
        getattr(reference, case.function)
    with tempfile.TemporaryDirectory(prefix="kanon-regen-") as tmp:
        copy_inputs(case, cases_dir, Path(tmp))
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            result = function(*call_args(case.function, case.ints))
        except (ValueError, FileNotFoundError) as e:
            if case.expect and case.expect in [c.__name__ for c in type(e).__mro__]:
                return "error", case.expect
            raise UserError(f"case {case.id}: the reference raised {type(e).__name__}: {e}")
        finally:
            os.chdir(cwd)
        if case.expect:
            raise UserError(f"case {case.id}: expects {case.expect}, but the reference "
                            f"did not raise it")
        if is_cost(case.function):
            return "value", float(result)
        return "table", (Path(tmp) / OUTPUT_FILE).read_bytes()


def regenerate(rubrics: list[Rubric], kit_root: Path, datasets: bool = True) -> dict:
    """Regenerate the datasets (casegen) and every expected output of `rubrics` (which must
    share one cases_dir); returns the new manifest. Entries no rubric uses are dropped."""
    dirs = {r.cases_dir for r in rubrics}
    if len(dirs) != 1:
        raise UserError("regen: the rubrics use different cases_dir folders; regenerate "
                        "them one at a time")
    cases_dir = dirs.pop()
    if datasets:
        casegen.generate(cases_dir, kit_root)
    expected_dir = cases_dir / "expected"
    if expected_dir.exists():
        shutil.rmtree(expected_dir)
    expected_dir.mkdir(parents=True)
    entries: dict[str, dict] = {}
    for rubric in rubrics:
        for case in rubric.cases():
            key = case_key(case, cases_dir)
            if key in entries:
                continue
            kind, result = _run_reference(case, cases_dir)
            entry = {"function": case.function, "data": case.data, "ints": case.ints,
                     "anonymized": case.anonymized, "kind": kind, "example_case": case.id}
            if case.variant:
                entry["variant"] = case.variant
            if kind == "error":
                entry["error"] = result
            else:
                suffix = ".csv" if kind == "table" else ".json"
                path = expected_dir / f"{key}{suffix}"
                data = result if kind == "table" else dump_json({"value": result}).encode()
                path.write_bytes(data)
                entry["file"] = path.relative_to(cases_dir).as_posix()
                entry["sha256"] = sha256_bytes(data)
            entries[key] = entry
    files = {p.relative_to(cases_dir).as_posix(): sha256_file(p)
             for p in sorted(cases_dir.rglob("*"))
             if p.is_file() and p.name != MANIFEST and "expected" not in p.relative_to(
                 cases_dir).parts[:1]}
    manifest = {"entries": entries, "files": files}
    atomic_write_text(cases_dir / MANIFEST, dump_json(manifest))
    return manifest
