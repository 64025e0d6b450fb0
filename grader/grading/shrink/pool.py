"""Where the grader finds the counterexample pool: `<cases_dir>/counterexamples/`, else the
kit's own (grader/cases/counterexamples/, written by grader/authoring/pool.py). The pool's
format, its reading and its members are kcheck/pool.py's (the students' self-check reads the
same files with it); they are re-exported here for the grader's modules.
"""
from __future__ import annotations

from pathlib import Path

from kcheck.pool import Chain, Member, Source, load_chains, pool_key

from ...paths import GRADER_DIR

__all__ = ["POOL_DIR", "KIT_POOL", "pool_folder", "has_own_pool", "Chain", "Member",
           "Source", "load_chains", "pool_key"]

POOL_DIR = "counterexamples"
KIT_POOL = GRADER_DIR / "cases" / POOL_DIR


def pool_folder(cases_dir: Path) -> Path:
    """The pool a rubric's grading uses: its cases folder's, else the kit's own (a folder
    holding only its rule-judged parts' pool, rules/, has none of its own)."""
    own = cases_dir / POOL_DIR
    return own if has_own_pool(cases_dir) else KIT_POOL


def has_own_pool(cases_dir: Path) -> bool:
    """Whether the cases folder holds its own copy of the kit's pool."""
    own = cases_dir / POOL_DIR
    return own.is_dir() and any(own.glob("*.json"))
