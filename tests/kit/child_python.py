"""The environment of a Python program a test starts (pytest on the public tests, the grader's
command line): compiled modules shared by every child of one test run.

Where PYTHONDONTWRITEBYTECODE is set (it is on the kit's CI machines), every child compiles
every module it imports, and pytest rewrites every test module's assertions, again and again.
`compiled_env` lets the children write and reuse their compiled modules in one folder of the
run's temporary directory (PYTHONPYCACHEPREFIX), never beside the sources, so the checkout
stays as it is. What the children do and print is unchanged.
"""
from __future__ import annotations

from pathlib import Path

import pytest


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """The test run's temporary folder: one for all pytest-xdist workers of a run (their base
    temporaries share a parent), else the serial run's own."""
    base = factory.getbasetemp()
    return base.parent if base.name.startswith("popen-gw") else base


def compiled_folder(factory: pytest.TempPathFactory) -> Path:
    """The run's folder of compiled modules."""
    return run_folder(factory) / "pycache"


PYTEST_OPTIONS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark")
"""Options of a pytest a test starts on the public tests: no cache files in the tree, and none
of the unrelated plugins that may be installed here (a student's machine needs only numpy and
pytest): hypothesis's imports hypothesis at the end of every run. Blocking a plugin that is
not installed is harmless."""

RUN: dict[str, pytest.TempPathFactory] = {}  # the run's temporaries (tests/kit/conftest.py)


def compiled_env(environment: dict[str, str],
                 factory: pytest.TempPathFactory | None = None) -> dict[str, str]:
    """`environment` with the children's compiled modules kept in `compiled_folder` (of
    `factory`, else of the run's), or `environment` as it is outside a test run."""
    factory = factory or RUN.get("factory")
    if factory is None:
        return dict(environment)
    changed = {k: v for k, v in environment.items() if k != "PYTHONDONTWRITEBYTECODE"}
    changed["PYTHONPYCACHEPREFIX"] = str(compiled_folder(factory))
    return changed
