"""The grader's rules that the self-check applies too: which packages your code may import and
how much CPU time each call gets. The settings come from course.json, which the staff generate
from the grader's rubric (`python -m grader regen`); the rules themselves (the time formula,
the import scan, the wording) are kcheck.course_rules, the grader's own.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from messages import _  # first: it makes kcheck (the bundle's root) importable

from kcheck import course_rules as kcheck_rules
from kcheck.text import render

HERE = Path(__file__).resolve().parent
COURSE_FILE = HERE / "course.json"
if os.environ.get("KANON_COURSE_FILE"):  # staff: check against another rubric's course.json
    COURSE_FILE = Path(os.environ["KANON_COURSE_FILE"])
DEFAULT = {"allowed_packages": ["numpy"], "import_time_limit": 10.0,
           "time": {"default": {"time_limit": 10.0, "time_per_1000_rows": 20.0}}}
CLOSE = 0.5  # warn when a call uses this share of its limit or more
STOP_FACTOR = 3  # the self-check stops a call after this many times the grader's limit...
STOP_CAP = {False: 60.0, True: 300.0}  # ... or these seconds (True: adult-hw1.csv), if fewer
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen")


def course() -> dict:
    """The course's settings (the defaults when course.json is missing)."""
    try:
        return json.loads(COURSE_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return DEFAULT


def unavailable_message(name: str, allowed: list[str]) -> str:
    """The grader's words when student code imports a package the course does not allow."""
    return render(kcheck_rules.unavailable(name, allowed), _)


def unavailable_imports(solution: Path) -> list[str]:
    """One message per import of a package that this machine has but the grader does not
    allow, in the solution and the .py files beside it that it imports: 'pandas is not
    available: ... (skeleton.py, line 3)'."""
    allowed = list(course().get("allowed_packages", ["numpy"]))
    folder = solution.parent  # on sys.path first: what lies beside the solution is its own
    files = [solution] if solution.is_file() else sorted(solution.rglob("*.py"))
    local = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.iterdir()
                                                     if (p / "__init__.py").is_file()}
    if solution.is_dir():  # a package: its own modules too
        local |= {p.stem for p in solution.glob("*.py")}
    known = set(sys.stdlib_module_names) | set(sys.builtin_module_names) | set(allowed) | local
    messages, seen = [], set()
    todo = list(files)
    while todo:
        path = todo.pop(0)
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        for name, line in kcheck_rules.imports(
                path.read_text(encoding="utf-8", errors="replace"), str(path)):
            if name in local:
                todo += [folder / f"{name}.py", solution / f"{name}.py"]
            elif name not in known and installed(name):
                messages.append(_("{message} ({file}, line {line})").format(
                    message=unavailable_message(name, allowed), file=path.name, line=line))
    return messages


def installed(name: str) -> bool:
    """Whether `name` imports on this machine (a module that is nowhere fails on import, with
    its own message)."""
    import importlib.util
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def cpu_limit(function: str, rows: int) -> float:
    """The grader's CPU-time limit for one call of `function` on a dataset of `rows` rows."""
    times = course().get("time", DEFAULT["time"])
    rule_ = times.get(function, times.get("default", DEFAULT["time"]["default"]))
    return kcheck_rules.cpu_limit(rule_["time_limit"], rule_["time_per_1000_rows"], rows)


def stop_limit(function: str, rows: int, large: bool) -> float:
    """Wall-clock seconds the self-check lets one call of `function` on `rows` rows run
    before stopping it: STOP_FACTOR times the grader's CPU-time limit, at most STOP_CAP."""
    return min(STOP_CAP[large], STOP_FACTOR * cpu_limit(function, rows))


def import_limit() -> float:
    """Wall-clock seconds the self-check lets importing the solution take (at most 30)."""
    return min(30.0, STOP_FACTOR * float(course().get("import_time_limit", 10.0)))


def in_words(number: int) -> str:
    """'seven' for 7 (a figure from 14 up)."""
    return WORDS[number] if 0 <= number < len(WORDS) else str(number)


def graded(function: str, optional: bool = False) -> bool:
    """Whether the course's rubric grades `function`: it is in course.json's `time` (a
    function beyond the seven of the default homework is graded only when the rubric has a
    part for it). Without course.json, the seven functions of the default homework are."""
    times = course().get("time", {})
    if "default" in times and not optional:
        return True
    return function in times


def variant(function: str) -> str | None:
    """The rule variant the course grades `function` with ("lm-only": the clustering
    distance without its MD term), None for the handout's default rules."""
    return course().get("variants", {}).get(function)
