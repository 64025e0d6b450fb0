"""Submissions built from the staff solution for end-to-end grading tests: a folder whose
skeleton.py imports a copy of reference/ as its helper package `staffcopy`, with the core it
stands on (kanon/, with kcheck/) beside it, as a student's helper modules would be."""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def staff_submission(folder: Path, source: str) -> Path:
    """Write the submission `folder` (created) with `source` as its skeleton.py."""
    shutil.copytree(REPO / "reference", folder / "staffcopy",
                    ignore=shutil.ignore_patterns("__pycache__", "experiment*"))
    for core in ("kanon", "kcheck"):  # the core, and the checker it reads hierarchies with
        shutil.copytree(REPO / core, folder / core, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "skeleton.py").write_text(source, encoding="utf-8")
    return folder
