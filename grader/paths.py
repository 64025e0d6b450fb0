"""Where the kit's files are, in one place: the kit root (a checkout, or the unpacked
Gradescope autograder) and the grader's own folders."""
from __future__ import annotations

from pathlib import Path

GRADER_DIR = Path(__file__).resolve().parent
KIT_ROOT = GRADER_DIR.parent
DEFAULT_RUBRIC = GRADER_DIR / "rubric.toml"
TEMPLATES = GRADER_DIR / "publishing" / "templates"  # what bundle and gradescope publish
WORKER = GRADER_DIR / "sandbox" / "worker.py"  # the child's program (stdlib only): first part
KIT_SKELETON = KIT_ROOT / "skeleton.py"
KIT_CASES = GRADER_DIR / "cases"  # the public demos' cases, and every course's public datasets

# Inside any kit root (a checkout, or the root given to `bundle --root`):
PUBLIC_TESTS = "tests/public"  # the students' self-check
BUNDLE_FOLDER = "kanon-hw1"  # the folder a student bundle unpacks into (bundle --folder)
HIDDEN_CASES = "grader/cases/hidden"  # the grader's hidden datasets
