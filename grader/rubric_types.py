"""The rubric's records: a Case (one call of a graded function on one dataset), a Part (an
autograded function with its cases, or a part the staff grade) and the Rubric (settings,
parts, the course's [data] and its own functions). grader.rubric reads and validates them."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kanon.schema import DEFAULT as DEFAULT_SCHEMA, Schema
from kcheck import course_rules

from .parts import LIBRARY, FunctionContract
from .settings import Settings

__all__ = ["Case", "Part", "Rubric"]


@dataclass(frozen=True)
class Case:
    """One call of a graded function on one dataset."""

    id: str  # "<part>/<name slug>", unique in the rubric
    part: str
    function: str
    name: str
    data: str  # folder under cases_dir
    ints: dict[str, int]
    anonymized: str | None  # cost functions: a file under the data folder
    hidden: bool
    weight: float
    time_limit: float  # CPU seconds every call gets ...
    expect: str | None  # an exception type name the call must raise, or None
    visibility: str
    description: str = ""
    time_per_1000_rows: float = 0.0  # ... plus this per 1,000 rows of the case's dataset
    variant: str | None = None  # the part's rule variant (contract.VARIANTS), None: the default
    qis: tuple[str, ...] | None = None  # the QIs whose hierarchies the call gets; None: all
    schema: Schema = DEFAULT_SCHEMA  # the course's columns and suppression ([data])
    judge: str = "exact"  # grader.parts.JUDGES
    contract: FunctionContract | None = None  # the function's (the kit's when None)
    judge_options: tuple[tuple[str, float], ...] = ()  # a quality part's seeds and slack
    anonymized_by: tuple[str, tuple[tuple[str, object], ...]] | None = None
    """A number case's input made by the reference: (anonymizer, its arguments)."""

    @property
    def spec(self) -> FunctionContract:
        """The function's contract: the course's own or the kit's."""
        return self.contract or LIBRARY[self.function]

    def cpu_limit(self, rows: int) -> float:
        """The CPU-time limit of this case's call when its dataset has `rows` data rows."""
        return course_rules.cpu_limit(self.time_limit, self.time_per_1000_rows, rows)


@dataclass
class Part:
    """A graded part: autograded (`kind` "auto": a function and its cases) or graded by the
    course staff (`kind` "manual": no function, no cases; `files` globs the grader looks for,
    `max_pages` the longest PDF allowed, None: any length)."""

    key: str
    function: str  # "" for a manual part
    points: float
    partial_credit: float
    cases: list[Case] = field(default_factory=list)
    variant: str | None = None
    kind: str = "auto"
    files: tuple[str, ...] = ()
    max_pages: int | None = None
    description: str = ""
    qis: tuple[str, ...] | None = None  # the part's QIs ([data] qis when it names none)
    judge: str = "exact"  # grader.parts.JUDGES
    optional: bool = False  # shown as optional in the handout; its points count as any part's
    contract: FunctionContract | None = None  # a course's own function's (None: the kit's)
    judge_options: tuple[tuple[str, float], ...] = ()

    @property
    def manual(self) -> bool:
        return self.kind == "manual"

    def case_points(self, case: Case) -> float:
        total = sum(c.weight for c in self.cases)
        return self.points * case.weight / total if total else 0.0


@dataclass
class Rubric:
    path: Path
    sha256: str
    settings: Settings
    parts: list[Part]
    term: str | None = None  # the term whose hidden cases these are (grading.term_view)
    schema: Schema = DEFAULT_SCHEMA  # the [data] table (grader/rubric_data.py)
    language: str = "en"  # what students read is in it ([course] language; grader.language)
    functions: dict[str, FunctionContract] = field(default_factory=dict)
    """The course's own functions ([[function]]), by name."""
    term_applied: bool = field(default=False, compare=False, repr=False)
    """Whether grading.term_view.apply_term gave it its cases folder's term already (then
    applying it again reads nothing: a command applies its course's term once)."""

    @property
    def course_dir(self) -> Path:
        """The folder the rubric lies in: a course's references and handout sections."""
        return self.path.parent

    @property
    def own_signatures(self) -> dict[str, tuple[str, ...]]:
        """The course's own functions' parameter names (for the static checks)."""
        return {name: c.names for name, c in self.functions.items()}

    def contract(self, function: str) -> FunctionContract:
        """A graded function's contract: the course's own, else the kit's."""
        return self.functions.get(function) or LIBRARY[function]

    @property
    def optional_points(self) -> float:
        """The optional parts' points (the USTC lab: 20 of 100)."""
        return sum(p.points for p in self.parts if p.optional)

    @property
    def cases_dir(self) -> Path:
        return (self.path.parent / self.settings.cases_dir).resolve()

    @property
    def max_points(self) -> float:
        """Every part's points, the manual parts' included."""
        return sum(p.points for p in self.parts)

    @property
    def auto_parts(self) -> list[Part]:
        """The parts the grader runs, in rubric order."""
        return [p for p in self.parts if not p.manual]

    @property
    def manual_parts(self) -> list[Part]:
        """The parts the course staff grade (kind = "manual"), in rubric order."""
        return [p for p in self.parts if p.manual]

    @property
    def auto_points(self) -> float:
        """The autograded parts' points (what Gradescope's autograder scores)."""
        return sum(p.points for p in self.auto_parts)

    @property
    def id_pattern(self) -> re.Pattern:
        return self.settings.id_pattern

    def cases(self) -> list[Case]:
        return [c for p in self.parts for c in p.cases]

    def part_of(self, case: Case) -> Part:
        return next(p for p in self.parts if p.key == case.part)
