"""The third-party packages a course lets student code import (rubric `allowed_packages`).

Student code may import the standard library, its own modules and these packages, nothing
else: the child refuses any other import with `unavailable_message` (kcheck.course_rules:
the self-check's wording too; the child's program keeps a copy of the wording in
grader/sandbox/worker_parts/guards.py, since it runs without the grader; a test keeps the
two equal). The grader checks at start that each allowed package imports in the Python that
runs the children, and the Gradescope setup and the student bundle install them.
"""
from __future__ import annotations

import subprocess
import sys

from kcheck import course_rules
from kcheck.course_rules import unavailable
from kcheck.text import Message

from ..errors import UserError

# Import name -> the name pip installs it under, where the two differ.
PIP_NAMES = {"sklearn": "scikit-learn", "yaml": "PyYAML", "PIL": "Pillow",
             "cv2": "opencv-python", "bs4": "beautifulsoup4", "dateutil": "python-dateutil"}
PINS = {"numpy": "numpy>=1.24"}


def rule(allowed: list[str]) -> str:
    """"only numpy and the standard library" (the course's rule, for messages)."""
    return str(course_rules.rule(allowed))


def unavailable_message(name: str, allowed: list[str]) -> str:
    """What a student sees when their code imports a package the course does not allow."""
    return str(unavailable(name, allowed))


def refusal_of(text: str, allowed: list[str]) -> Message | None:
    """The sandbox's refusal of a package (`unavailable`) when `text` is exactly it, else
    None (a student's own message)."""
    name = text.partition(" ")[0]
    return unavailable(name, allowed) if text == unavailable_message(name, allowed) else None


def requirements(allowed: list[str]) -> str:
    """requirements.txt for the students' and the autograder's environments (numpy always:
    the kit needs it)."""
    names = sorted(set(allowed) | {"numpy"})
    return "".join(PINS.get(n, PIP_NAMES.get(n, n)) + "\n" for n in names)


def check_installed(allowed: list[str], site: list[str], python: str | None = None) -> None:
    """Raise UserError naming the first allowed package that does not import in `python`
    (the interpreter that runs student code) with the children's package folders `site`."""
    if not allowed:
        return
    code = ("import importlib, sys\nsys.path.extend(sys.argv[2:])\n"
            "for name in sys.argv[1].split(','):\n"
            "    try:\n        importlib.import_module(name)\n"
            "    except Exception as e:\n"
            "        print(name, type(e).__name__, e, sep='\\t'); sys.exit(3)\n")
    exe = python or sys.executable
    try:
        done = subprocess.run([exe, "-S", "-s", "-c", code, ",".join(sorted(allowed)), *site],
                              capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as e:
        raise UserError(f"allowed_packages: cannot run {exe} to check them: {e}") from None
    if done.returncode == 3:
        name, kind, message = (done.stdout.strip().split("\t") + ["", ""])[:3]
        raise UserError(f"allowed_packages: {name!r} does not import in {exe}, the Python that "
                        f"runs student code ({kind}: {message}); install it with "
                        f"`{exe} -m pip install {PIP_NAMES.get(name, name)}` or remove it from "
                        f"the rubric's allowed_packages")
    if done.returncode != 0:
        raise UserError(f"allowed_packages: checking them with {exe} failed: "
                        f"{done.stderr.strip().splitlines()[-1:] or done.returncode}")
