"""tests/kit/forked_pytest.py: a run forked from the warm server reports what a fresh
`python -m pytest` does, and where the platform cannot fork (Windows, macOS) each run is one."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import forked_pytest
from forked_pytest import PytestServer

TESTS = "def test_good():\n    assert 1\n\n\ndef test_bad():\n    assert 2 + 2 == 5\n"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "KANON"))}


@pytest.mark.parametrize("forks", [True, False], ids=["fork", "fresh process"])
def test_a_run_reports_as_python_m_pytest_does(tmp_path: Path, forks: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    if forks and not hasattr(os, "fork"):
        pytest.skip("no os.fork on this platform: the fresh-process path is the one used")
    monkeypatch.setattr(forked_pytest, "FORKS", forks)
    (tmp_path / "test_two.py").write_text(TESTS, encoding="utf-8")
    server = PytestServer(tmp_path, _env())
    try:
        assert (server.process is not None) == forks
        done = server.run(["-q", "-p", "no:cacheprovider", "test_two.py"], tmp_path, _env(),
                          tmp_path / "out.txt")
        again = server.run(["-q", "-p", "no:cacheprovider", "test_two.py::test_good"],
                           tmp_path, _env(), tmp_path / "out2.txt")
    finally:
        server.close()
    assert done.returncode == 1 and "1 failed, 1 passed" in done.stdout
    assert "assert (2 + 2) == 5" in done.stdout  # pytest's own assertion rewriting
    assert again.returncode == 0 and "1 passed" in again.stdout
