"""The checkout itself: what the quick start leaves behind is ignored by git, and the sources
point only to documents that exist."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

LEFT_BY_QUICK_START = [".venv/bin/python", "anonymized.csv", "graded/grades.csv",
                       "kanon_kit.egg-info/PKG-INFO", "grader/__pycache__/cli.cpython-311.pyc",
                       ".pytest_cache/README.md"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_what_the_quick_start_leaves_is_ignored(repo: Path) -> None:
    if not (repo / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "check-ignore", "--no-index", *LEFT_BY_QUICK_START],
                          cwd=repo, capture_output=True, text=True)
    assert sorted(done.stdout.split()) == sorted(LEFT_BY_QUICK_START), done.stderr


def test_documents_named_in_the_sources_exist(repo: Path) -> None:
    named = re.compile(r"\b([A-Z][A-Z_]+\.md)\b")
    missing = []
    for path in sorted(repo.glob("*/*.py")) + sorted(repo.glob("tests/*/*.py")):
        for name in set(named.findall(path.read_text(encoding="utf-8"))):
            if not (repo / name).is_file():
                missing.append(f"{path.relative_to(repo)}: {name}")
    assert not missing
