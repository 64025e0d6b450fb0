"""The kit's sandboxed grader: grade a class's submission zips against a declarative rubric.

    python -m grader grade SUBMISSIONS --out DIR [--jobs N] [--rubric RUBRIC.toml]
    python -m grader regen [--rubric RUBRIC.toml ...]
    python -m grader similarity SUBMISSIONS --out FILE
    python -m grader export DIR --format canvas|moodle|gradescope [--roster CSV] --out FILE

The version is part of the resume cache's key (with a hash of the grader's own sources), so
results cached by an older grader are never reused.
"""
__version__ = "1.0.0"
