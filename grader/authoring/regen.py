"""`python -m grader regen [--course DIR [--term NAME]]`: the case datasets (casegen) and every case's expected
output, made by running the staff solution (the only part of the grader that does), with the
manifest of hashes that grader.grading.expected reads.

With a term (grader/authoring/terms.py) the hidden datasets are drawn for it, each hidden
case's arguments are chosen (the first candidate whose rendered name is free in its rubric and
whose claims hold) and the manifest records them under `term` (grader/grading/term_view.py).
Without one, the default datasets and a manifest without `term` are written, byte for byte
as before; with --keep-datasets, the term the manifest records is kept.

A term needs a course's secret (`key`, grader/courses/secret.py): its draws are seeded from
it. A course's cases folder (`public=False`) gets only its hidden datasets (the public ones
are the kit's); its counterexample pool is the kit's when that is fresh, else built into its
own folder, so a course's regen never writes inside the kit; its rule-judged parts get a pool
of their own from its public data (rules_pool.py). A course whose rubric declares a data model
([[data.hidden]], grader/rubric_model.py) draws those datasets from it (model_draw.py), and
the kit's hidden datasets only when its cases use them."""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from kanon.files import atomic_write_text, dump_json, sha256_bytes, sha256_file

from ..contract import OUTPUT_FILE, call_args, is_cost
from ..errors import UserError
from ..grading.expected import MANIFEST, case_key, copy_inputs, load_manifest
from ..grading.term_view import case_ident, term_case
from ..grading.shrink.pool import POOL_DIR
from ..rubric import Case, Rubric
from . import casegen, course_runs, model_draw, pool, rules_pool, terms


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
            options = {} if case.schema.is_default else {"schema": case.schema}
            result = function(*call_args(case.function, case.ints), **options)
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


def _expected_of(rubric: Rubric, case: Case, cases_dir: Path) -> tuple[str, object]:
    """What a case must produce: the kit's reference's answer, or for a course's own
    function its reference's (one answer; a band for a part judged by quality)."""
    if case.spec.origin == "kit":
        return _run_reference(case, cases_dir)
    if case.judge == "quality" and not case.expect:
        found = course_runs.band(rubric, case)
        if found["kind"] == "error":
            return "error", found["error"]
        return "band", found
    return course_runs.run_course_reference(rubric, case)


def _claims_hold(case: Case, cases_dir: Path) -> bool:
    """Whether what the case's name claims is true of its term dataset: "(suppression
    decides)" means the output with its max_sup differs from the one with max_sup = 0."""
    if "suppression decides" not in case.name or "max_sup" not in case.ints or case.expect:
        return True
    try:
        without = _run_reference(replace(case, ints={**case.ints, "max_sup": 0}), cases_dir)
    except UserError:  # no node satisfies without suppression: it does decide
        return True
    return _run_reference(case, cases_dir) != without


def _choose(base: Case, term: dict, key: bytes, cases_dir: Path, taken: set[str]) -> Case:
    """`base` as graded in `term`, choosing (and recording) its arguments the first time."""
    ident = case_ident(base)
    rows = term["rows"].get(base.data)
    if rows is None or ident in term["cases"]:
        return term_case(base, term)
    for ints in terms.candidates(term["name"], key, base, rows):
        case = term_case(base, term, ints)
        if case.id not in taken and _claims_hold(case, cases_dir):
            term["cases"][ident] = ints
            return case
    raise UserError(f"--term {term['name']!r}: no argument in range keeps case {base.id} "
                    f"true to its name; choose another term name")


TERM_KEEPS = "--term draws new hidden datasets; it cannot be combined with --keep-datasets"
NEEDS_COURSE = ("a term's hidden cases are drawn with a course's secret: make a course "
                "folder with `python -m grader course new DIR --from default --term NAME` "
                "and use --course DIR")


def _term_of(cases_dir: Path, term: str | None, datasets: bool, key: bytes | None
             ) -> dict | None:
    """The manifest's new term record: --term's, or with --keep-datasets the recorded one."""
    if not datasets:
        if term is not None:
            raise UserError(TERM_KEEPS)
        kept = load_manifest(cases_dir).get("term")
        term = kept["name"] if kept else None
    if term is None:
        return None
    if key is None:
        raise UserError(NEEDS_COURSE)
    return terms.record(terms.check_name(term), key)


def _pool(cases_dir: Path, public: bool, rubrics: list[Rubric]) -> None:
    """Keep the counterexample pools fresh: the kit's (kit cases), or for a course the kit's
    when fresh, else the course's own copy (none when no exactly judged part of the course
    follows the default contract: only those use it); and the course's own pool of its
    rule-judged parts (rules_pool.py)."""
    own = cases_dir / POOL_DIR
    if public:
        pool.build()
    elif pool.fresh() or not any(r.schema.is_default and any(p.judge != "rules" for p in
                                                              r.auto_parts) for r in rubrics):
        for path in sorted(own.glob("*.json")) if own.is_dir() else []:
            path.unlink()
    else:
        pool.build(own)
    rules_pool.build(rubrics)
    if own.is_dir() and not any(own.iterdir()):
        own.rmdir()


def _declares(rubric: Rubric) -> bool:
    """Whether the rubric draws hidden datasets from its data model ([[data.hidden]])."""
    model = model_draw.declared(rubric)
    return model is not None and bool(model.hidden)


def regenerate(rubrics: list[Rubric], kit_root: Path, datasets: bool = True,
               term: str | None = None, secret: bytes | None = None, public: bool = True) -> dict:
    """Regenerate the datasets (casegen) and every expected output of `rubrics` (which must
    share one cases_dir), in term `term` (None: the default) drawn with the course's `secret`;
    returns the new manifest. Entries no rubric uses are dropped. `public`: whether the
    cases folder holds the public datasets too (the kit's own), or only hidden ones (a
    course's)."""
    dirs = {r.cases_dir for r in rubrics}
    if len(dirs) != 1:
        raise UserError("regen: the rubrics use different cases_dir folders; regenerate "
                        "them one at a time")
    cases_dir = dirs.pop()
    record = _term_of(cases_dir, term, datasets, secret)
    modelled = [r for r in rubrics if _declares(r)]
    if record and modelled:  # a course drawing from its data model: only the kit's datasets it uses
        used = {c.data for r in rubrics for c in r.cases()}
        record["rows"] = {d: n for d, n in record["rows"].items() if d in used}
    if datasets and modelled:  # first: a filter that cannot be met fails fast
        if record is None:
            raise UserError(f"{modelled[0].path}: its [[data.hidden]] datasets are drawn for "
                            f"a term with a course's secret; {NEEDS_COURSE}")
        for rubric in modelled:  # grader/authoring/model_draw.py
            model_draw.draw_all(rubric, cases_dir, secret, record["name"])
    _pool(cases_dir, public, rubrics)  # the counterexamples' inputs and answers (shrink/)
    if datasets and (not modelled or record["rows"]):
        casegen.generate(cases_dir, kit_root,
                         terms.draws(record["name"], secret) if record else None, public)
    for rubric in rubrics:  # a course's anonymized inputs made by its own anonymizers
        course_runs.make_inputs(rubric)
    expected_dir = cases_dir / "expected"
    if expected_dir.exists():
        shutil.rmtree(expected_dir)
    expected_dir.mkdir(parents=True)
    entries: dict[str, dict] = {}
    for rubric in rubrics:
        taken: set[str] = set()
        for case in rubric.cases():
            case = _choose(case, record, secret, cases_dir, taken) if record else case
            taken.add(case.id)
            key = case_key(case, cases_dir)
            if key in entries:
                continue
            kind, result = _expected_of(rubric, case, cases_dir)
            entry = {"function": case.function, "data": case.data, "ints": case.ints,
                     "anonymized": case.anonymized, "kind": kind, "example_case": case.id}
            if case.variant:
                entry["variant"] = case.variant
            if not case.schema.is_default:
                entry["schema"] = case.schema.changes()
            if kind == "error":
                entry["error"] = result
            else:
                suffix = ".csv" if kind == "table" else ".json"
                path = expected_dir / f"{key}{suffix}"
                data = result if kind == "table" else dump_json(
                    result if kind == "band" else {"value": result}).encode()
                path.write_bytes(data)
                entry["file"] = path.relative_to(cases_dir).as_posix()
                entry["sha256"] = sha256_bytes(data)
            entries[key] = entry
    files = {p.relative_to(cases_dir).as_posix(): sha256_file(p)
             for p in sorted(cases_dir.rglob("*"))
             if p.is_file() and p.name != MANIFEST and not {"expected", POOL_DIR} & set(
                 p.relative_to(cases_dir).parts[:1])}
    manifest = {"entries": entries, "files": files}
    if record:
        manifest["term"] = record
    atomic_write_text(cases_dir / MANIFEST, dump_json(manifest))
    return manifest
