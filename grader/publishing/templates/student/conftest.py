"""Makes `pytest --solution PATH` (or `--solution=PATH`) work from this folder, from tests/
and with a path to this folder from elsewhere: pytest only knows options added by conftest.py
files it loads before reading the command line, and this one, at the folder's root, is."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests" / "public"))

from kanon_options import pytest_addoption  # noqa: E402,F401
