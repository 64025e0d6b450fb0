"""What a course's rubric says about its students' materials: the graded functions in order
(one entry per function: its required parts' points, variant, judge, QIs and CPU-time rule),
the parts graded by staff, the optional parts listed apart, the course's data (its columns,
sensitive column, suppression, hierarchy format) and the allowed packages.

Every piece of student material (handout, skeleton, public tests) is decided from this one
view, so the materials cannot disagree with the grader.
"""
from __future__ import annotations

import csv
import functools
from dataclasses import dataclass, field, replace
from pathlib import Path

from kcheck import course_rules

from ...authoring.public_data import MARKERS
from ...contract import DGH_DIR, OPTIONAL_FUNCTIONS, VARIANTS
from ...parts import FunctionContract
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
SELF_CHECK_MARKERS = MARKERS
"""Functions whose `pytest -k` name is not the function's own (tests/public/data/functions.json,
grader.authoring.public_data)."""
GROUPS = {"cost_MD": "costs", "cost_LM": "costs", "entropy_l": "measures",
          "t_closeness": "measures"}
"""Functions presented under a shared heading (its rules written once, in the group's
source)."""


@dataclass(frozen=True)
class PartFolder:
    """A part's own hierarchy folder in the bundle of a course whose parts have different
    QIs: DGHs/<part name> (the part's name, not its function's: two parts may grade one
    function with different QIs), holding exactly the part's QIs' files."""

    part: str
    function: str
    qis: tuple[str, ...]

    @property
    def path(self) -> str:
        return f"{DGH_DIR}/{self.part}"


@dataclass(frozen=True)
class TimeRule:
    """A call's CPU-time limit: `base` seconds plus `per_1000` per 1,000 rows."""

    base: float
    per_1000: float

    def on(self, rows: int) -> float:
        return course_rules.cpu_limit(self.base, self.per_1000, rows)

    def text(self) -> str:
        return (f"{_num(self.base)} s + {_num(self.per_1000)} s per 1,000 rows"
                if self.per_1000 else f"{_num(self.base)} s")


@dataclass(frozen=True)
class GradedFunction:
    """A graded function: its required parts' points (all its parts' when every one is
    optional), the first part's variant, judge, QIs and CPU-time rule."""

    name: str
    points: float
    variant: str | None
    time: TimeRule
    judge: str = "exact"
    qis: tuple[str, ...] | None = None
    contract: FunctionContract | None = None
    """A course's own function's contract (its rubric's [[function]]); None: the kit's."""

    @property
    def own(self) -> bool:
        """A function the course declares itself: its handout section comes from the course
        folder (handout/<name>.md), its stub from its contract."""
        return self.contract is not None and self.contract.origin == "course"

    @property
    def optional(self) -> bool:
        return self.name in OPTIONAL_FUNCTIONS and not self.own

    @property
    def by_rules(self) -> bool:
        """Judged by the course's rules (its handout says the rules, not one right output)."""
        return self.judge == "rules"

    @property
    def marker(self) -> str:
        return self.name if self.own else SELF_CHECK_MARKERS.get(self.name, self.name)


@dataclass(frozen=True)
class StaffPart:
    """A part graded by course staff (rubric `kind = "manual"`), e.g. the report."""

    name: str
    points: float
    files: tuple[str, ...]
    max_pages: int | None
    description: str = ""
    optional: bool = False


@dataclass(frozen=True)
class OptionalPart:
    """A part marked `optional = true`: an autograded one names its function, a manual one
    has none."""

    name: str
    points: float
    function: str = ""
    description: str = ""
    qis: tuple[str, ...] | None = None


@dataclass(frozen=True)
class CourseData:
    """What the course's [data] table and its public dataset say (the default contract: none
    of it, `columns` empty)."""

    sensitive: str | None = None
    other_columns: str = "keep"
    suppression: str = "root"
    hierarchy_format: str = "tabs"
    columns: tuple[str, ...] = ()  # the public dataset's header, () when not read
    rows: int = ADULT_ROWS

    def released(self, qis: tuple[str, ...]) -> list[str]:
        """The columns an anonymizer with these QIs writes, in raw column order."""
        if self.other_columns == "keep" or not self.columns:
            return list(self.columns)
        return [c for c in self.columns if c in qis or c == self.sensitive]


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
    optional_parts: tuple[OptionalPart, ...] = ()
    data: CourseData = field(default_factory=CourseData)
    part_folders: tuple[PartFolder, ...] = ()
    """One per autograded part naming QIs, when those parts' QIs differ; () keeps the flat
    DGHs/ (every part's QIs the same, or named by no part)."""

    def dgh_folder(self, function: str) -> str:
        """The folder a command line of `function` names: its first part's, else DGHs."""
        return next((f.path for f in self.part_folders if f.function == function), DGH_DIR)

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.functions]

    @property
    def own_functions(self) -> list[GradedFunction]:
        """The course's own graded functions (rubric [[function]]), in rubric order."""
        return [f for f in self.functions if f.own]

    @property
    def course_dir(self) -> Path:
        """The folder the rubric lies in: a course's own handout sections are in its
        handout/ folder."""
        return self.rubric_path.parent

    def group(self, name: str) -> str | None:
        """The shared heading a kit function is presented under (GROUPS); a course's own
        function has none."""
        own = any(f.own for f in self.functions if f.name == name)
        return None if own else GROUPS.get(name)

    def function(self, name: str) -> GradedFunction:
        return next(f for f in self.functions if f.name == name)

    @property
    def total(self) -> float:
        """Every part's points, the optional ones included."""
        return self.required + sum(p.points for p in self.optional_parts)

    @property
    def required(self) -> float:
        return sum(f.points for f in self.functions) + sum(p.points for p in self.staff_parts
                                                           if not p.optional)

    @property
    def anonymizers(self) -> list[GradedFunction]:
        """The kit's anonymizers the course grades (the command line's algorithms)."""
        return [f for f in self.functions if f.name in CLI_NAMES and not f.own]

    @property
    def features(self) -> frozenset[str]:
        """The tokens the section sources test: each graded function, `<function>:<variant>`
        (`:default` for the handout's own rules), each group (`costs`, `measures`), `manual`
        and `manual:<name>` for staff-graded parts, `packages:numpy` for each allowed package;
        `<function>:rules` (judged by the course's rules), `qis:<function>` (its part names
        its QIs), `optional`, `optional:<part name>` and `optional:<function>` (an optional
        part and the function it grades), `schema:delete` (suppressed records are not
        released), `schema:drop` (only the QIs and the sensitive column are released),
        `schema:sensitive` (the course names it), `hierarchy:child-parent` and
        `staff:no-files` (a staff-graded part asks for no file), `dghs:parts` (each part
        has its own hierarchy folder, DGHs/<part>), `selfcheck:cases` (a graded kit function
        not judged by rules: the self-check's tests/public/data/cases/ and expected/ ship).
        """
        found = set()
        for f in self.functions:
            if f.own:  # its section is the course's own: no kit rule is about it
                continue
            found.add(f.name)
            if f.name in VARIANTS:
                found.add(f"{f.name}:{f.variant or 'default'}")
            if f.name in GROUPS:
                found.add(GROUPS[f.name])
            if f.by_rules:
                found.add(f"{f.name}:rules")
            if f.qis is not None:
                found.add(f"qis:{f.name}")
        for part in self.staff_parts:
            found |= {"manual", f"manual:{part.name}"} | ({"staff:no-files"} if not part.files
                                                          else set())
        for opt in self.optional_parts:
            found |= {"optional", f"optional:{opt.name}"}
            if opt.function:
                found.add(f"optional:{opt.function}")
        found |= {f"packages:{p}" for p in self.allowed_packages}
        d = self.data
        found |= {token for token, on in (
            ("schema:delete", d.suppression == "delete"), ("schema:drop", d.other_columns == "drop"),
            ("schema:sensitive", d.sensitive is not None),
            ("hierarchy:child-parent", d.hierarchy_format == "child-parent"),
            ("dghs:parts", bool(self.part_folders)),
            ("selfcheck:cases", any(not f.own and not f.by_rules for f in self.functions))
        ) if on}
        return frozenset(found)

    def packages_text(self) -> str:
        names = sorted(self.allowed_packages)
        return (f"{', '.join(names)} and the standard library" if names
                else "the standard library only")


def view(rubric: Rubric) -> CourseView:
    """The course view of a loaded rubric: one entry per graded function (a function graded
    by several parts once, with its required parts' points), the optional parts apart."""
    functions: dict[str, GradedFunction] = {}
    staff, optional = [], []
    for part in rubric.parts:
        description = getattr(part, "description", "")
        is_optional = getattr(part, "optional", False)
        if getattr(part, "kind", "auto") == "manual":
            staff.append(StaffPart(part.key, part.points, tuple(getattr(part, "files", ())),
                                   getattr(part, "max_pages", None), description, is_optional))
            if is_optional:
                optional.append(OptionalPart(part.key, part.points, "", description))
            continue
        qis = getattr(part, "qis", None)
        if is_optional:
            optional.append(OptionalPart(part.key, part.points, part.function, description, qis))
        known = functions.get(part.function)
        if known is not None and (is_optional or known.points):  # the first required part
            if not is_optional:                                  # decides the rest
                functions[part.function] = replace(known, points=known.points + part.points)
            continue
        first = part.cases[0]
        functions[part.function] = GradedFunction(
            part.function, 0.0 if is_optional else part.points, part.variant,
            TimeRule(first.time_limit, first.time_per_1000_rows),
            getattr(part, "judge", "exact"), qis, getattr(part, "contract", None))
    s = rubric.settings
    return CourseView(rubric.path, tuple(functions.values()), tuple(staff),
                      tuple(s.allowed_packages), s.import_time_limit, s.memory_mb,
                      s.file_size_mb, s.partial_credit, s.cost_tolerance, rubric.language,
                      tuple(optional), _data(rubric), _part_folders(rubric))


def _part_folders(rubric: Rubric) -> tuple[PartFolder, ...]:
    """Each autograded part's own hierarchy folder, when the parts naming QIs name different
    ones; () otherwise."""
    named = [p for p in rubric.parts
             if getattr(p, "kind", "auto") != "manual" and getattr(p, "qis", None)]
    if len({frozenset(p.qis) for p in named}) < 2:
        return ()
    return tuple(PartFolder(p.key, p.function, tuple(p.qis)) for p in named)


def _data(rubric: Rubric) -> CourseData:
    """The course's data as its [data] table and its first public dataset say (the default
    contract: nothing read)."""
    schema = getattr(rubric, "schema", None)
    if schema is None or schema.is_default:
        return CourseData()
    columns: tuple[str, ...] = ()
    rows = ADULT_ROWS
    for case in rubric.cases():
        path = rubric.cases_dir / case.data / "adult-hw1.csv"
        if not case.hidden and path.is_file():
            found = path.stat()  # one read per version of the file (a build asks 8 times)
            columns, rows = _shape(str(path), found.st_ino, found.st_mtime_ns, found.st_size)
            break
    return CourseData(schema.sensitive, schema.other_columns, schema.suppression,
                      schema.hierarchy_format, columns, rows)


@functools.lru_cache(maxsize=32)
def _shape(path: str, inode: int, mtime_ns: int, size: int) -> tuple[tuple[str, ...], int]:
    """A dataset's header and number of rows (empty lines left out); the file's inode,
    modification time and size key the cache."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        records = [r for r in csv.reader(f) if r]
    return tuple(records[0]), len(records) - 1


def load(path: Path | None) -> CourseView:
    """The course view of the rubric at `path` (default grader/rubric.toml)."""
    return view(load_rubric(path))


def _num(value: float) -> str:
    """10.0 -> '10', 0.5 -> '0.5', 609.9 -> '609.9', 100.0 -> '100', 1000.0 -> '1,000'."""
    text = f"{value:,.1f}".rstrip("0").rstrip(".")
    return text


def points_text(value: float) -> str:
    return _num(value)
