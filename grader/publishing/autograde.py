"""What runs inside the Gradescope autograder for every submission (run_autograder calls
`autograde_main`): grade /autograder/submission exactly as `python -m grader grade` would
(same rubric, sandbox and scoring, through grader.grading.runner.run_batch and the gradebook)
and write /autograder/results/results.json with grader.gradebook.export's Gradescope record
(plus execution_time), whatever happens. KANON_AUTOGRADER_ROOT moves the /autograder root, so the
unpacked zip can be tried locally. grader.publishing.gradescope builds the zip.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from kanon.files import atomic_write_bytes

from .. import rubric as rubric_mod
from ..catalogs import translator
from ..errors import UserError
from ..gradebook import export
from ..gradebook.writer import Gradebook
from ..grading.batch import SANDBOXES, BatchSettings
from ..grading.record import as_record
from ..grading.runner import run_batch

ROOT_ENV = "KANON_AUTOGRADER_ROOT"
SANDBOX_ENV = "KANON_AUTOGRADER_SANDBOX"  # auto (default), bwrap, landlock or none: `--sandbox`
RUN_AS_ENV = "KANON_AUTOGRADER_RUN_AS"  # overrides the rubric's run_as, as `grade --run-as`
STUDENT = "submission"  # the one student's id inside the container


def _hidden_note(_: Callable[[str], str]) -> str:
    """The note under the summary of a submission graded on hidden cases, in `_`'s language."""
    return _("Hidden cases use datasets you have not seen; their results appear when the "
             "grades are published. They give the verdict, the row and column at fault, an "
             "exception's type and your file and line; never their data, an exception's "
             "message or what your code printed.")


def _failure_output(_: Callable[[str], str]) -> str:
    """What a student reads when the autograder itself failed, in `_`'s language."""
    return _("The autograder could not grade this submission (a problem on the course staff's "
             "side, not necessarily in your code). Please tell the course staff.")


def _course_translator(root: Path) -> Callable[[str], str]:
    """The `_` of the course's language; English when the rubric or its catalog cannot be
    read (then the failure itself is what the student is told about)."""
    try:
        return translator(rubric_mod.load(root / "source" / "grader" / "rubric.toml").language)
    except Exception:  # noqa: BLE001 - a broken setup still gets a results.json
        return translator("en")


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
    source = root / "source"
    submission = root / "submission"
    rubric = rubric_mod.load(source / "grader" / "rubric.toml",
                             {"run_as": os.environ.get(RUN_AS_ENV)})
    with tempfile.TemporaryDirectory(prefix="kanon-autograde-") as tmp:
        if not submission.is_dir() or not any(submission.iterdir()):
            raise NothingSubmitted(f"{submission} is empty")
        _stage_submission(submission, Path(tmp) / "submissions")
        sandbox = os.environ.get(SANDBOX_ENV) or "auto"
        if sandbox not in SANDBOXES:
            raise UserError(f"{SANDBOX_ENV} must be auto, bwrap, landlock or none, not "
                            f"{sandbox!r}")
        batch = BatchSettings(Path(tmp) / "submissions", Path(tmp) / "out", rubric, jobs=1,
                              sandbox=sandbox, progress=False)
        result = run_batch(batch, Gradebook())
        if result.interrupted or len(result.records) != 1:
            raise RuntimeError(f"the grader returned {len(result.records)} records")
        record = as_record(result.records[0])
    results = json.loads(export.gradescope_json(record, rubric))
    if any(case.hidden for case in record.cases):
        results["output"] = results.get("output", "").rstrip("\n") + "\n" + \
            _hidden_note(translator(rubric.language))
    for warning in result.warnings or []:
        print(f"warning: {warning}")
    print(f"graded with Python {sys.version.split()[0]} ({sys.executable}), sandbox "
          f"{result.sandbox}, student code run as {result.run_as or 'the grader'}: "
          f"{record.status}, {record.autograded} / {rubric.auto_points} "
          f"(the autograded parts)")
    return results


def failure_results(message: str) -> dict:
    """What Gradescope gets when grading itself failed: zero, and a note for the student."""
    return {"score": 0.0, "output": message, "stdout_visibility": "hidden", "tests": []}


def autograde(root: Path) -> int:
    """Grade the submission under `root` and write root/results/results.json, whatever
    happens (the traceback goes to stdout, which only instructors see). 0, or 1 on failure."""
    started = time.monotonic()
    status = 0
    _ = _course_translator(root)
    try:
        results = grade_submission(root)
    except NothingSubmitted as e:
        print(f"error: {e}")
        results = failure_results(_("Nothing was submitted."))
    except UserError as e:
        print(f"error: {e}")
        results, status = failure_results(f"{_failure_output(_)}\n({e})"), 1
    except Exception:  # noqa: BLE001 - every submission must get a results.json
        traceback.print_exc(file=sys.stdout)
        results, status = failure_results(_failure_output(_)), 1
    results["execution_time"] = round(time.monotonic() - started)
    atomic_write_bytes(root / "results" / "results.json",
                     (json.dumps(results, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    return status


def autograde_main(argv: list[str] | None = None) -> int:
    """Entry point of run_autograder: `--root DIR` (default $KANON_AUTOGRADER_ROOT or
    /autograder)."""
    parser = argparse.ArgumentParser(prog="run_autograder")
    parser.add_argument("--root", type=Path,
                        default=Path(os.environ.get(ROOT_ENV) or "/autograder"))
    return autograde(parser.parse_args(argv).root.resolve())
