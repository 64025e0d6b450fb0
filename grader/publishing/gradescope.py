"""A Gradescope autograder built from the kit's own grader, and the code that runs inside it
for every submission (the `gradescope` command: grader.publishing.command_line).

The zip (Gradescope's layout: setup.sh and run_autograder at its root, unpacked by Gradescope
into /autograder/source) holds:
  setup.sh, run_autograder     install Python >= 3.11 + numpy; grade one submission
  requirements.txt             numpy and the rubric's allowed_packages (and pypdf when the
                               rubric has a manual part with files: the report's page count)
  grader/**.py                 the grader package: intake, sandbox, rubric, scoring, export
  kanon/**.py                  the kit's core (tables, hierarchies, cell rule, checks), whole
  kcheck/**.py                 the standard-library checker of the quality and number judges
  grader/rubric.toml           the rubric (the kit's, or --rubric; its cases_dir becomes "cases")
  grader/cases/**              every case's datasets, the expected outputs and the manifest
                               (a course's cases, with the kit's public datasets it uses)
  grader/course-fingerprint.json  the course term's fingerprint (check --against reads it)
  grader/locale/**.mo          a course in another language: its compiled feedback catalog
  kcheck/locale/**.mo          ... and kcheck's (the checker's messages, the fallback)
The course's secret is never shipped: grading needs its hidden cases, not the key.
The staff solution (reference/, and a course's own `reference = "file.py:name"` files) is not
shipped: expected outputs and quality bands are precomputed (`python -m grader regen`).

For each submission run_autograder calls `autograde_main`, which grades
/autograder/submission exactly as `python -m grader grade` would (same rubric, sandbox and
scoring, through grader.grading.runner.run_batch) and writes /autograder/results/results.json with
grader.gradebook.export's Gradescope record (plus execution_time). KANON_AUTOGRADER_ROOT moves the
/autograder root, so the unpacked zip can be tried locally.

A rubric's manual parts (kind = "manual") are not scored there: Gradescope grades them as its
own manual questions. results.json scores the autograded parts only (its tests add up to
Rubric.auto_points) and lists each manual part as one 0-point line saying what was found.
"""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from kanon.files import atomic_write_bytes

from .. import paths
from ..errors import UserError
from ..sandbox.packages import requirements
from ..grading.fingerprint import FINGERPRINT_FILE, file_text, fingerprint
from ..courses.secret import refuse_secret
from ..grading.term_view import apply_term
from ..zipfiles import Entry, zip_bytes

TEMPLATES = paths.TEMPLATES / "gradescope"
EXECUTABLES = ("setup.sh", "run_autograder")
SKIPPED_DIRS = {"__pycache__", ".pytest_cache"}
PDF_REQUIREMENT = "pypdf>=4\n"  # for the grader itself (never importable by student code)


# ------------------------------------------------------------------------------ building


def _tree(folder: Path, prefix: str, suffixes: tuple[str, ...] | None = None) -> list[Entry]:
    """Every file under `folder` (no caches), as entries named `prefix/<relative path>`."""
    entries = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or SKIPPED_DIRS & set(rel.parts) or path.suffix in (".pyc",):
            continue
        if suffixes is not None and not path.name.endswith(suffixes):
            continue
        entries.append(Entry(f"{prefix}/{rel.as_posix()}", path.read_bytes()))
    return entries


def _rubric_text(path: Path, language: str = "en") -> str:
    """The rubric's text with its cases_dir setting pointing at the zip's grader/cases, and
    the course's language (a public demo's rubric file has no [course] table to hold it)."""
    text = path.read_text(encoding="utf-8")
    if language != "en" and not re.search(r"^\s*\[course\]", text, re.MULTILINE):
        text = f"[course]\nlanguage = {json.dumps(language)}\n\n{text}"
    line = re.compile(r'^(\s*)cases_dir\s*=\s*("[^"]*"|\'[^\']*\')(.*)$', re.MULTILINE)
    if len(line.findall(text)) > 1:
        raise UserError(f"{path}: settings.cases_dir appears more than once")
    return line.sub(lambda m: f'{m.group(1)}cases_dir = "cases"{m.group(3)}', text)


# What the autograder ships besides its templates, rubric and cases: the grader, the kit's
# core and kcheck (the standard-library checker the quality and number judges use), whole. Grading never runs an algorithm (expected outputs are precomputed), so the
# staff solution (reference/) is not shipped at all.
SHIPPED_PACKAGES = ("grader", "kanon", "kcheck")


def shipped_code(root: Path) -> list[Entry]:
    """Every .py file of the shipped packages (not the templates of what is published)."""
    return [e for package in SHIPPED_PACKAGES for e in _tree(root / package, package, (".py",))
            if "/templates/" not in e.name]


def collect(root: Path, rubric_path: Path | None = None) -> list[Entry]:
    """The autograder's entries: templates, the grader and core packages, rubric, cases and
    the course fingerprint. `rubric_path`: a course folder or a rubric file (default the
    kit's). Refuses a course whose cases are missing, of another term or stale; never ships
    the course's secret."""
    from ..courses.folder import resolve
    rubric, course = resolve(rubric_path or root / "grader" / "rubric.toml")
    _require_fresh(rubric, course)
    entries = [Entry(name, (TEMPLATES / name).read_bytes(), executable=True)
               for name in EXECUTABLES]
    needed = requirements(rubric.settings.allowed_packages)
    if any(p.files for p in rubric.manual_parts):  # the grader counts the report's pages
        needed += PDF_REQUIREMENT
    entries.append(Entry("requirements.txt", needed.encode()))
    entries += shipped_code(root)
    entries.append(Entry("grader/rubric.toml", _rubric_text(rubric.path, rubric.language
                                                        ).encode("utf-8")))
    entries += _tree(rubric.cases_dir, "grader/cases")
    entries += _kit_material(rubric)
    if rubric.language != "en":  # the feedback's catalogs (an English course needs none)
        entries += _tree(root / "grader" / "locale", "grader/locale", (".mo",))
        entries += _tree(root / "kcheck" / "locale", "kcheck/locale", (".mo",))
    entries.append(Entry(f"grader/{FINGERPRINT_FILE}",
                         file_text(fingerprint(apply_term(rubric))).encode()))
    names = [e.name for e in entries]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise UserError(f"two autograder files would be named {duplicated[0]}")
    if course is not None and course.key is not None:
        refuse_secret(entries, course.key, "the autograder zip")
    return sorted(entries, key=lambda e: e.name)


def _require_fresh(rubric, course) -> None:
    from ..courses.checks import problems
    from ..grading.freshness import stale
    found = problems(course) if course is not None and not course.public_demo \
        else stale([rubric])
    if found:
        fix = course.command("regen") if course is not None and not course.public_demo \
            else "`python -m grader regen`"
        raise UserError(f"the cases of {rubric.path} are not up to date ({found[0]}"
                        f"{f'; and {len(found) - 1} more' if len(found) > 1 else ''}); "
                        f"run {fix} first")


def _kit_material(rubric) -> list[Entry]:
    """What a course reads from the kit rather than its own folder: the public datasets its
    cases use and, unless it has its own, the counterexample pool."""
    from ..grading.expected import data_folder
    from ..grading.shrink.pool import KIT_POOL, POOL_DIR, has_own_pool
    entries: list[Entry] = []
    for data in sorted({c.data for c in rubric.cases()}):
        folder = data_folder(rubric.cases_dir, data)
        if not folder.is_relative_to(rubric.cases_dir):
            entries += _tree(folder, f"grader/cases/{data}")
    if not has_own_pool(rubric.cases_dir) and KIT_POOL.is_dir():
        entries += _tree(KIT_POOL, f"grader/cases/{POOL_DIR}")
    return entries


def time_budget(rubric) -> tuple[int, float]:
    """(cases, CPU seconds) one submission may use at most: every case's own CPU-time limit
    (a slow but finishing function runs each case to just under it), the import and its retry
    one statement at a time, and each part's counterexample search."""
    from ..grading.case_runner import case_rows
    cases = rubric.cases()
    seconds = sum(c.cpu_limit(case_rows(rubric, c)) for c in cases)
    seconds += 2 * rubric.settings.import_time_limit
    if rubric.settings.counterexample_calls > 0:
        seconds += rubric.settings.counterexample_cpu * len({c.function for c in cases})
    return len(cases), seconds


def budget_line(rubric) -> str:
    """What to set Gradescope's autograder timeout to, from the course's limits."""
    cases, seconds = time_budget(rubric)
    return (f"autograder timeout: at least {seconds:,.0f} s ({seconds / 60:,.0f} min) per "
            f"submission, the sum of the course's CPU-time limits ({cases} cases, the import, "
            f"the counterexample searches); a correct, fast submission needs a small fraction "
            f"of it")


IMPORT_PROBE = ("import sys; sys.path.insert(0, sys.argv[1]); "
                "import grader.publishing.autograde, grader.grading.compare")


def verify(data: bytes) -> None:
    """Unpack the built zip in a temporary folder and check that it is self-consistent: the
    required files at the root, executable, and the rubric's expected outputs all present."""
    from .. import rubric as rubric_mod
    from ..grading.freshness import stale
    with tempfile.TemporaryDirectory(prefix="kanon-autograder-check-") as tmp:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            archive.extractall(tmp)
            modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in archive.infolist()}
        for name in EXECUTABLES:
            if modes.get(name) != 0o755:
                raise UserError(f"autograder zip: {name} is missing or not executable")
        problems = stale([rubric_mod.load(Path(tmp) / "grader" / "rubric.toml")])
        if problems:
            raise UserError(f"autograder zip: its cases are incomplete ({problems[0]})")
        probe = subprocess.run([sys.executable, "-I", "-c", IMPORT_PROBE, tmp],
                               capture_output=True, text=True, timeout=120)
        if probe.returncode != 0:
            last = (probe.stderr.strip().splitlines() or ["no message"])[-1]
            raise UserError(f"autograder zip: its grader cannot be imported ({last})")


def build(root: Path, out: Path, rubric_path: Path | None = None) -> list[Entry]:
    """Collect, check and write the autograder zip; returns its entries."""
    entries = collect(root, rubric_path)
    data = zip_bytes(entries)
    verify(data)
    atomic_write_bytes(out, data, mode=0o644)  # a file to upload
    return entries
