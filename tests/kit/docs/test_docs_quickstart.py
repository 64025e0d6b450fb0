"""The README's quick start with its virtual environment `.venv` inside the checkout.

A copy of the checkout gets a `.venv` of its own (its packages reached through a `.pth` file
pointing at this interpreter's site-packages, so no package index is needed), then runs the
README's two commands from the copy's root: the reference on the bundled data, and the kit's
tests that look at the child's environment (they must tell the venv's site-packages, which
lie inside the checkout, from the kit's own sources). The install itself (`pip install -e`)
is what .ci/run does, in the same `.venv` layout.
"""
from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

COPIED = ["adult-hw1.csv", "DGHs", "kanon", "kcheck", "reference", "grader", "tests",
          "pyproject.toml"]


def _copy_checkout(repo: Path, dest: Path, names: list[str] = COPIED) -> None:
    """A copy of the checkout's `names` in `dest` (what a fresh clone holds of them)."""
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache")
    for name in names:
        source = repo / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=ignore)
        else:
            shutil.copyfile(source, dest / name)


def _in_repo_venv(checkout: Path) -> Path:
    """`python -m venv .venv` inside `checkout`; returns its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(checkout / ".venv")],
                   check=True, capture_output=True)
    python = checkout / ".venv" / "bin" / "python"
    inner_site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                                check=True, capture_output=True, text=True).stdout.strip()
    assert Path(inner_site).resolve().is_relative_to(checkout.resolve())
    outer = [*site.getsitepackages(), str(Path(numpy.__file__).parent.parent),
             str(Path(pytest.__file__).parent.parent)]
    (Path(inner_site) / "kit-test-packages.pth").write_text("\n".join(outer) + "\n")
    return python


@pytest.mark.slow
def test_the_readme_commands_pass_in_a_venv_inside_the_checkout(repo: Path,
                                                                 tmp_path: Path) -> None:
    quick = (repo / "README.md").read_text(encoding="utf-8").split("## Quick start", 1)[1]
    quick = quick.split("\n## ", 1)[0]
    assert "python3 -m venv .venv && . .venv/bin/activate\n" in quick
    assert ("python -m pip install -e \".[test]\" && python -m reference clustering DGHs "
            "adult-hw1.csv anonymized.csv 4\npython -m pytest\n") in quick
    checkout = tmp_path / "kanon-kit"
    checkout.mkdir()
    _copy_checkout(repo, checkout)
    python = _in_repo_venv(checkout)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "KANON_"))}
    env["VIRTUAL_ENV"] = str(checkout / ".venv")
    first = subprocess.run([str(python), "-m", "reference", "clustering", "DGHs", "adult-hw1.csv",
                            "anonymized.csv", "4"], cwd=checkout, env=env, capture_output=True,
                           text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "MD cost: 54321" in first.stdout
    second = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "tests/kit/sandbox/test_grader_sandbox.py", "-k",
                             "clean_environment or cannot_be_imported"],
                            cwd=checkout, env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-2000:]
    assert "2 passed" in second.stdout
