"""How the grader's command line is called, for messages that show a command."""
from __future__ import annotations

import os
import sys


def prog_name(argv0: str | None = None) -> str:
    """`python -m grader`, or the script's own name (`kanon-grader`)."""
    argv0 = sys.argv[0] if argv0 is None and sys.argv else (argv0 or "")
    name = os.path.basename(argv0)
    return "python -m grader" if name in ("", "__main__.py", "-c", "-m") else name
