"""Shared fixtures for the kit's own tests."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COURSE_DATA = (REPO / ".." / "shared" / "course-data").resolve()


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def course_data() -> Path:
    """../shared/course-data (a real course's adult-hw1.csv and DGHs/), beside the checkout."""
    if not (COURSE_DATA / "adult-hw1.csv").is_file() or not (COURSE_DATA / "DGHs").is_dir():
        pytest.skip(f"real-course fixture absent: {COURSE_DATA} (it lives in ../shared/course-data "
                    "beside the checkout and is never copied into the project)")
    return COURSE_DATA
