"""What a course's rubric says about its students' materials: the graded functions in order,
their points, variants and CPU-time rules, the parts graded by staff, the allowed packages.

Every piece of student material (handout, skeleton, public tests) is decided from this one
view, so the materials cannot disagree with the grader.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...contract import OPTIONAL_FUNCTIONS, VARIANTS
from ...rubric import Rubric
from ...rubric import load as load_rubric

ADULT_ROWS = 9999  # the kit's adult-hw1.csv: the row count the handout's limits are quoted for

CLI_NAMES = {"random_anonymizer": "random", "clustering_anonymizer": "clustering",
             "bottomup_anonymizer": "bottomup", "samarati": "samarati", "mondrian": "mondrian",
             "topdown_anonymizer": "topdown", "datafly": "datafly",
             "topdown_greedy": "greedy", "kaca": "kaca"}
"""Anonymizer -> its name on the command line (skeleton.py and python -m reference)."""
SIXTH = {"random_anonymizer": ("s", 0), "bottomup_anonymizer": ("l", 1),
         "samarati": ("max_sup", 0)}
"""Anonymizers with a fifth parameter -> (its name, the command line's default)."""
SELF_CHECK_MARKERS = {"random_anonymizer": "random", "clustering_anonymizer": "clustering",
                      "bottomup_anonymizer": "bottomup", "topdown_anonymizer": "topdown",
                      "topdown_greedy": "greedy"}
"""Functions whose `pytest -k` name is not the function's own (tests/public/public_cases)."""
GROUPS = {"cost_MD": "costs", "cost_LM": "costs", "entropy_l": "measures",
          "t_closeness": "measures"}
"""Functions presented under a shared heading (its rules written once, in the group's
source)."""


@dataclass(frozen=True)
class TimeRule:
    """A call's CPU-time limit: `base` seconds plus `per_1000` per 1,000 rows."""

    base: float
    per_1000: float

    def on(self, rows: int) -> float:
        return round(self.base + self.per_1000 * rows / 1000, 1)

    def text(self) -> str:
        return (f"{_num(self.base)} s + {_num(self.per_1000)} s per 1,000 rows"
                if self.per_1000 else f"{_num(self.base)} s")


@dataclass(frozen=True)
class GradedFunction:
    name: str
    points: float
    variant: str | None
    time: TimeRule

    @property
    def optional(self) -> bool:
        return self.name in OPTIONAL_FUNCTIONS

    @property
    def marker(self) -> str:
        return SELF_CHECK_MARKERS.get(self.name, self.name)


@dataclass(frozen=True)
class StaffPart:
    """A part graded by course staff (rubric `kind = "manual"`), e.g. the report."""

    name: str
    points: float
    files: tuple[str, ...]
    max_pages: int | None


@dataclass(frozen=True)
class CourseView:
    rubric_path: Path
    functions: tuple[GradedFunction, ...]
    staff_parts: tuple[StaffPart, ...]
    allowed_packages: tuple[str, ...]
    import_time_limit: float
    memory_mb: int
    file_size_mb: int
    partial_credit: float
    cost_tolerance: float
    language: str = "en"  # the section sources' language (materials/translations.py)

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.functions]

    def function(self, name: str) -> GradedFunction:
        return next(f for f in self.functions if f.name == name)

    @property
    def total(self) -> float:
        return sum(f.points for f in self.functions) + sum(p.points for p in self.staff_parts)

    @property
    def anonymizers(self) -> list[GradedFunction]:
        return [f for f in self.functions if f.name in CLI_NAMES]

    @property
    def features(self) -> frozenset[str]:
        """The tokens the section sources test: each graded function, `<function>:<variant>`
        (`:default` for the handout's own rules), each group (`costs`, `measures`), `manual`
        and `manual:<name>` for staff-graded parts, `packages:numpy` for each allowed package.
        """
        found = set()
        for f in self.functions:
            found.add(f.name)
            if f.name in VARIANTS:
                found.add(f"{f.name}:{f.variant or 'default'}")
            if f.name in GROUPS:
                found.add(GROUPS[f.name])
        for part in self.staff_parts:
            found |= {"manual", f"manual:{part.name}"}
        found |= {f"packages:{p}" for p in self.allowed_packages}
        return frozenset(found)

    def packages_text(self) -> str:
        names = sorted(self.allowed_packages)
        return (f"{', '.join(names)} and the standard library" if names
                else "the standard library only")


def view(rubric: Rubric) -> CourseView:
    """The course view of a loaded rubric."""
    functions, staff = [], []
    for part in rubric.parts:
        if getattr(part, "kind", "auto") == "manual":
            staff.append(StaffPart(part.key, part.points, tuple(getattr(part, "files", ())),
                                   getattr(part, "max_pages", None)))
            continue
        first = part.cases[0]
        functions.append(GradedFunction(part.function, part.points, part.variant,
                                        TimeRule(first.time_limit, first.time_per_1000_rows)))
    s = rubric.settings
    return CourseView(rubric.path, tuple(functions), tuple(staff), tuple(s.allowed_packages),
                      s.import_time_limit, s.memory_mb, s.file_size_mb, s.partial_credit,
                      s.cost_tolerance, rubric.language)


def load(path: Path | None) -> CourseView:
    """The course view of the rubric at `path` (default grader/rubric.toml)."""
    return view(load_rubric(path))


def _num(value: float) -> str:
    """10.0 -> '10', 0.5 -> '0.5', 609.9 -> '609.9', 100.0 -> '100', 1000.0 -> '1,000'."""
    text = f"{value:,.1f}".rstrip("0").rstrip(".")
    return text


def points_text(value: float) -> str:
    return _num(value)
