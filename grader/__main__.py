"""`python -m grader`: the command line (see grader/cli.py)."""
import sys

from .cli import main

sys.exit(main())
