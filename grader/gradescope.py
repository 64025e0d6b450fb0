"""`python -m grader gradescope --out autograder.zip`: a Gradescope autograder built from the
kit's own grader, and the code that runs inside it for every submission.

The zip (Gradescope's layout: setup.sh and run_autograder at its root, unpacked by Gradescope
into /autograder/source) holds:
  setup.sh, run_autograder     install Python >= 3.11 + numpy; grade one submission
  requirements.txt             numpy and the rubric's allowed_packages
  grader/**.py                 the grader package: intake, sandbox, rubric, scoring, export
  kanon/**.py                  the kit's core (tables, hierarchies, cell rule, checks), whole
  grader/rubric.toml           the rubric (the kit's, or --rubric; its cases_dir becomes "cases")
  grader/cases/**              every case's datasets, the expected outputs and the manifest
The staff solution (reference/) is not shipped: expected outputs are precomputed
(`python -m grader regen`).

For each submission run_autograder calls `autograde_main`, which grades
/autograder/submission exactly as `python -m grader grade` would (same rubric, sandbox and
scoring, through grader.runner.run_batch) and writes /autograder/results/results.json with
grader.export's Gradescope record (plus execution_time). KANON_AUTOGRADER_ROOT moves the
/autograder root, so the unpacked zip can be tried locally.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zipfile
from pathlib import Path

from .bundle import Entry, kit_root, print_listing, write_atomically, zip_bytes
from .errors import UserError
from .packages import requirements

TEMPLATES = Path(__file__).resolve().parent / "publish_templates" / "gradescope"
EXECUTABLES = ("setup.sh", "run_autograder")
ROOT_ENV = "KANON_AUTOGRADER_ROOT"
SANDBOX_ENV = "KANON_AUTOGRADER_SANDBOX"  # auto (default), bwrap or none, as `grade --sandbox`
RUN_AS_ENV = "KANON_AUTOGRADER_RUN_AS"  # overrides the rubric's run_as, as `grade --run-as`
STUDENT = "submission"  # the one student's id inside the container
SKIPPED_DIRS = {"__pycache__", ".pytest_cache"}
FAILURE_OUTPUT = ("The autograder could not grade this submission (a problem on the course "
                  "staff's side, not necessarily in your code). Please tell the course staff.")
HIDDEN_NOTE = ("Hidden cases use datasets you have not seen; their results appear when the "
               "grades are published.")


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


def _rubric_text(path: Path) -> str:
    """The rubric's text with its cases_dir setting pointing at the zip's grader/cases."""
    text = path.read_text(encoding="utf-8")
    line = re.compile(r'^(\s*)cases_dir\s*=\s*("[^"]*"|\'[^\']*\')(.*)$', re.MULTILINE)
    if len(line.findall(text)) > 1:
        raise UserError(f"{path}: settings.cases_dir appears more than once")
    return line.sub(lambda m: f'{m.group(1)}cases_dir = "cases"{m.group(3)}', text)


# What the autograder ships besides its templates, rubric and cases: the grader and the kit's
# core, whole. Grading never runs an algorithm (expected outputs are precomputed), so the
# staff solution (reference/) is not shipped at all.
SHIPPED_PACKAGES = ("grader", "kanon")


def shipped_code(root: Path) -> list[Entry]:
    """Every .py file of the shipped packages (not the templates of what is published)."""
    return [e for package in SHIPPED_PACKAGES for e in _tree(root / package, package, (".py",))
            if "/publish_templates/" not in e.name]


def collect(root: Path, rubric_path: Path | None = None) -> list[Entry]:
    """The autograder's entries: templates, the grader and core packages, rubric, cases.
    Refuses a rubric whose expected outputs are missing or stale."""
    from . import rubric as rubric_mod
    from .expected import stale
    rubric = rubric_mod.load(rubric_path or root / "grader" / "rubric.toml")
    problems = stale([rubric])
    if problems:
        raise UserError(f"the cases of {rubric.path} are not up to date ({problems[0]}"
                        f"{f'; and {len(problems) - 1} more' if len(problems) > 1 else ''}); "
                        f"run `python -m grader regen` first")
    entries = [Entry(name, (TEMPLATES / name).read_bytes(), executable=True)
               for name in EXECUTABLES]
    entries.append(Entry("requirements.txt",
                         requirements(list(rubric.settings["allowed_packages"])).encode()))
    entries += shipped_code(root)
    entries.append(Entry("grader/rubric.toml", _rubric_text(rubric.path).encode("utf-8")))
    entries += _tree(rubric.cases_dir, "grader/cases")
    names = [e.name for e in entries]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise UserError(f"two autograder files would be named {duplicated[0]}")
    return sorted(entries, key=lambda e: e.name)


IMPORT_PROBE = ("import sys; sys.path.insert(0, sys.argv[1]); "
                "import grader.gradescope, grader.runner, grader.export, grader.compare")


def verify(data: bytes) -> None:
    """Unpack the built zip in a temporary folder and check that it is self-consistent: the
    required files at the root, executable, and the rubric's expected outputs all present."""
    from . import rubric as rubric_mod
    from .expected import stale
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
    write_atomically(out, data)
    return entries


# ------------------------------------------------------------------------------ grading


class NothingSubmitted(Exception):
    """The submission folder is empty."""


def _stage_submission(submission: Path, subs: Path) -> None:
    """Put Gradescope's one submission where the grader's intake finds one student: a lone
    zip stays a zip, anything else becomes the student's folder."""
    subs.mkdir(parents=True)
    files = [p for p in submission.iterdir() if p.name != "__MACOSX"] \
        if submission.is_dir() else []
    if len(files) == 1 and files[0].is_file() and files[0].suffix.lower() == ".zip":
        shutil.copyfile(files[0], subs / f"{STUDENT}.zip")
    else:
        shutil.copytree(submission, subs / STUDENT, symlinks=True)


def grade_submission(root: Path) -> dict:
    """Grade <root>/submission with <root>/source's grader; Gradescope's results as a dict."""
    from . import export, rubric as rubric_mod
    from .runner import run_batch
    source = root / "source"
    submission = root / "submission"
    rubric = rubric_mod.load(source / "grader" / "rubric.toml",
                             {"run_as": os.environ.get(RUN_AS_ENV)})
    with tempfile.TemporaryDirectory(prefix="kanon-autograde-") as tmp:
        if not submission.is_dir() or not any(submission.iterdir()):
            raise NothingSubmitted(f"{submission} is empty")
        _stage_submission(submission, Path(tmp) / "submissions")
        sandbox = os.environ.get(SANDBOX_ENV) or "auto"
        if sandbox not in ("auto", "bwrap", "none"):
            raise UserError(f"{SANDBOX_ENV} must be auto, bwrap or none, not {sandbox!r}")
        result = run_batch(Path(tmp) / "submissions", Path(tmp) / "out", rubric, jobs=1,
                           sandbox=sandbox, progress=False)
        if result.interrupted or len(result.records) != 1:
            raise RuntimeError(f"the grader returned {len(result.records)} records")
        record = result.records[0]
    results = json.loads(export.gradescope_json(record, rubric))
    if any(case["hidden"] for case in record["cases"]):
        results["output"] = results.get("output", "").rstrip("\n") + "\n" + HIDDEN_NOTE
    for warning in result.warnings or []:
        print(f"warning: {warning}")
    print(f"graded with Python {sys.version.split()[0]} ({sys.executable}), sandbox "
          f"{result.sandbox}, student code run as {result.run_as or 'the grader'}: "
          f"{record['status']}, {record['score']} / {record['max']}")
    return results


def failure_results(message: str) -> dict:
    """What Gradescope gets when grading itself failed: zero, and a note for the student."""
    return {"score": 0.0, "output": message, "stdout_visibility": "hidden", "tests": []}


def autograde(root: Path) -> int:
    """Grade the submission under `root` and write root/results/results.json, whatever
    happens (the traceback goes to stdout, which only instructors see). 0, or 1 on failure."""
    started = time.monotonic()
    status = 0
    try:
        results = grade_submission(root)
    except NothingSubmitted as e:
        print(f"error: {e}")
        results = failure_results("Nothing was submitted.")
    except UserError as e:
        print(f"error: {e}")
        results, status = failure_results(f"{FAILURE_OUTPUT}\n({e})"), 1
    except Exception:  # noqa: BLE001 - every submission must get a results.json
        traceback.print_exc(file=sys.stdout)
        results, status = failure_results(FAILURE_OUTPUT), 1
    results["execution_time"] = round(time.monotonic() - started)
    write_atomically(root / "results" / "results.json",
                     (json.dumps(results, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    return status


def autograde_main(argv: list[str] | None = None) -> int:
    """Entry point of run_autograder: `--root DIR` (default $KANON_AUTOGRADER_ROOT or
    /autograder)."""
    parser = argparse.ArgumentParser(prog="run_autograder")
    parser.add_argument("--root", type=Path,
                        default=Path(os.environ.get(ROOT_ENV) or "/autograder"))
    return autograde(parser.parse_args(argv).root.resolve())


# ------------------------------------------------------------------------------ command line


def _configure(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--out", required=True, type=Path, metavar="ZIP",
                        help="the autograder zip to write (upload it to Gradescope)")
    parser.add_argument("--rubric", type=Path, default=None, metavar="TOML",
                        help="the rubric to grade with (default: grader/rubric.toml)")
    parser.add_argument("--root", default=None, metavar="DIR",
                        help="the kit checkout to build from (default: this one)")
    parser.set_defaults(func=run)
    return parser


def add_parser(subparsers: "argparse._SubParsersAction") -> argparse.ArgumentParser:
    """Register `gradescope` on the grader's sub-command parser."""
    return _configure(subparsers.add_parser(
        "gradescope", help="build a Gradescope autograder zip from this grader and rubric",
        description=" ".join(__doc__.split("\n\n")[0].split())))


def run(args: argparse.Namespace) -> int:
    """Build the autograder zip; print its files and sizes. 0 on success, 2 on a user error."""
    try:
        entries = build(kit_root(args.root), args.out, args.rubric)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print_listing(entries, args.out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _configure(argparse.ArgumentParser(prog="python -m grader.gradescope",
                                                description=" ".join(__doc__.split("\n\n")[0].split())))
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
