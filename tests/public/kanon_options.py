"""The self-check's command-line options: `--solution PATH` (or `--solution=PATH`) and
`--in-process` (student_calls.py).

pytest knows an option only when the conftest.py that adds it is loaded before the command
line is parsed. tests/public/conftest.py is, when pytest starts from the checkout or the
bundle folder with no path arguments; the bundle's own root conftest.py (which imports this
module) makes the option known from the bundle's tests/ folder and when a path is given too.
Both may load: the second registration is skipped.
"""
from __future__ import annotations

import pytest

from messages import _

HELP = _("the solution to test: a .py file or a package folder, relative to where pytest "
         "starts (default: $KANON_SOLUTION, else skeleton.py next to the tests/ folder)")


IN_PROCESS_HELP = _("run your functions in pytest's own process, for a debugger or "
                    "breakpoint() (no time limit of the self-check's own; also "
                    "KANON_IN_PROCESS=1; implied by --pdb and --trace)")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the options once, whichever conftest.py pytest loads first."""
    try:
        parser.addoption("--solution", default=None, metavar="PATH", help=HELP)
        parser.addoption("--in-process", action="store_true", default=False,
                         help=IN_PROCESS_HELP)
    except ValueError:  # "option names {'--solution'} already added": the other conftest did
        pass


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own: it reads the option next
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The self-check runs in one process even where pytest-xdist is installed and `-n` asks
    for workers: the call gate and the closing summary need every test's outcome in the
    process that reports them."""
    if getattr(config.option, "numprocesses", None):
        config.option.numprocesses = 0
