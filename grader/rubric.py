"""The rubric: a TOML file listing settings, parts, points, cases, arguments and time limits.

    [settings]                       # all optional: grader/settings.py lists every one
    time_limit = 10.0                # with its type, default, bounds and meaning
    ...
    [[part]]
    function = "clustering_anonymizer"
    points = 20
    [[part.case]]
    name = "adult-hw1, k=4"
    data = "public/adult"            # a folder of cases_dir with adult-hw1.csv and DGHs/
    k = 4                            # the function's integer arguments by name
    hidden = false                   # hidden cases never show their data in feedback

Optional parts (contract.OPTIONAL_FUNCTIONS, e.g. topdown_anonymizer) are graded only by a
rubric that has a part for them; `variant = "lm-only"` in a clustering_anonymizer part grades
the Fall 2025 distance (grader/rubric-2025.toml shows both).

A part graded by the course staff (not run) says `kind = "manual"`; it has no function and no
cases, and the grader only checks the file it names (grader/grading/manual_check.py):

    [[part]]
    kind = "manual"                  # default "auto": the parts above
    name = "report"
    points = 10
    files = ["*.pdf"]                # globs relative to the submission folder (optional)
    max_pages = 1                    # optional: a PDF of at most this many pages
    description = "one-page report"  # optional, for the handout

A course's [data] table (grader/rubric_data.py) names its QIs, sensitive column, what is
released and its hierarchy format; a part may set `qis`, `judge = "rules"` (any output that
keeps the course's rules earns the points: samarati and mondrian) and `optional = true`.

Every error names the rubric file and the key at fault, e.g. `rubric.toml: part[2].case[1].k`.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from kanon.files import safe_name, sha256_bytes

from kanon.schema import DEFAULT as DEFAULT_SCHEMA, Schema

from .contract import CHOICE_PARAMS, GRADABLE, RULE_JUDGED, VARIANTS, int_params, is_cost
from .errors import UserError
from .paths import DEFAULT_RUBRIC
from .rubric_data import read_data, read_qis
from .rubric_manual import MANUAL_KEYS, RESERVED_NAMES, manual_part
from .settings import Settings, number, read_settings


PART_KEYS = {"function", "points", "partial_credit", "time_limit", "time_per_1000_rows", "case",
             "name", "variant", "kind", "qis", "judge", "optional"}
KINDS = ("auto", "manual")
JUDGES = ("exact", "rules")
"""exact: a case's output must be the reference's (else partial credit when valid and
private); rules: any output that keeps the course's rules is right (kanon/rules)."""
CASE_KEYS = {"name", "data", "anonymized", "hidden", "weight", "time_limit", "expect",
             "visibility", "description"}
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


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
    judge: str = "exact"  # JUDGES

    def cpu_limit(self, rows: int) -> float:
        """The CPU-time limit of this case's call when its dataset has `rows` data rows."""
        return round(self.time_limit + self.time_per_1000_rows * rows / 1000, 1)


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
    judge: str = "exact"  # JUDGES
    optional: bool = False  # shown as optional in the handout; its points count as any part's

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


class _Where:
    """Builds error messages that name the file and key."""

    def __init__(self, path: Path):
        self.path = path

    def error(self, key: str, message: str) -> UserError:
        return UserError(f"{self.path}: {key}: {message}")


def _number(where: _Where, key: str, value: object, kind: type, minimum: float | None = None,
            maximum: float | None = None) -> float | int:
    return number(value, kind, minimum, maximum, lambda message: where.error(key, message))


def _string(where: _Where, key: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise where.error(key, f"expected a non-empty string, got {value!r}")
    return value


def load(path: Path | None = None, overrides: dict[str, object] | None = None) -> Rubric:
    """Read and validate a rubric; `overrides` replace settings (e.g. --time-limit)."""
    path = Path(path or DEFAULT_RUBRIC).resolve()
    where = _Where(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise UserError(f"cannot read the rubric {path}: {e.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: not valid TOML: {e}") from None
    unknown = set(data) - {"settings", "part", "course", "data"}  # [course]: courses.folder
    if unknown:
        raise where.error(sorted(unknown)[0], "unknown key (expected [settings], [data] and "
                                              "[[part]])")
    settings = read_settings(path, data.get("settings", {}), overrides or {})
    schema, qis = read_data(data.get("data"), where.error)
    parts_raw = data.get("part")
    if not isinstance(parts_raw, list) or not parts_raw:
        raise where.error("part", "the rubric needs at least one [[part]]")
    parts: list[Part] = []
    for i, part_raw in enumerate(parts_raw, start=1):
        parts.append(_part(where, f"part[{i}]", part_raw, settings, schema, qis))
    if not any(not p.manual for p in parts):
        raise where.error("part", "the rubric needs at least one autograded part (kind = "
                          "\"auto\"), not only manual ones")
    keys = [p.key for p in parts]
    for key in keys:
        if keys.count(key) > 1:
            raise where.error("part", f"two parts are named {key!r}")
    ids = [c.id for p in parts for c in p.cases]
    for cid in ids:
        if ids.count(cid) > 1:
            raise where.error("part.case", f"two cases have the id {cid!r}; rename one")
    forced = (overrides or {}).get("time_limit")
    if forced is not None:  # a command-line limit applies to every case
        for part in parts:
            part.cases = [replace(c, time_limit=float(forced), time_per_1000_rows=0.0)
                          for c in part.cases]
    digest = sha256_bytes(raw + repr(settings.digest_items()).encode())
    return Rubric(path, digest, settings, parts, schema=schema,
                  language=_language(path, data))


def _language(path: Path, data: dict) -> str:
    """course.language of a course.toml (kept in the Gradescope zip's copy too); "en" when
    there is none."""
    from .language import DEFAULT, check_language
    table = data.get("course")
    if not isinstance(table, dict) or "language" not in table:
        return DEFAULT
    return check_language(table["language"], f"{path}: course.language")


def read_optional(where: _Where, key: str, raw: dict) -> bool:
    optional = raw.get("optional", False)
    if not isinstance(optional, bool):
        raise where.error(f"{key}.optional", f"expected true or false, got {optional!r}")
    return optional


def _part(where: _Where, key: str, raw: object, settings: Settings,
          schema: Schema = DEFAULT_SCHEMA, course_qis: tuple[str, ...] | None = None) -> Part:
    if not isinstance(raw, dict):
        raise where.error(key, "expected a table")
    kind = raw.get("kind", "auto")
    if kind not in KINDS:
        raise where.error(f"{key}.kind", f"expected \"auto\" or \"manual\", got {kind!r}")
    if kind == "manual":
        return Part(**manual_part(where.error, key, raw))
    for k in raw:
        if k not in PART_KEYS:
            raise where.error(f"{key}.{k}", f"unknown key; known: {', '.join(sorted(PART_KEYS))}")
    function = _string(where, f"{key}.function", raw.get("function"))
    if function not in GRADABLE:
        raise where.error(f"{key}.function", f"{function!r} is not a graded function; one of "
                          f"{', '.join(GRADABLE)}")
    variant = raw.get("variant")
    if variant is not None and variant not in VARIANTS.get(function, ()):
        known = VARIANTS.get(function, ())
        raise where.error(f"{key}.variant", f"{variant!r} is not a variant of {function}" + (
            f"; one of {', '.join(known)}" if known else f"; {function} has none"))
    name = safe_name(raw.get("name", function))
    points = _number(where, f"{key}.points", raw.get("points"), float, 0)
    partial = _number(where, f"{key}.partial_credit",
                      raw.get("partial_credit", settings.partial_credit), float, 0.0, 1.0)
    limit = _number(where, f"{key}.time_limit", raw.get("time_limit", settings.time_limit),
                    float, 0.001)
    per_rows = _number(where, f"{key}.time_per_1000_rows",
                       raw.get("time_per_1000_rows", settings.time_per_1000_rows), float, 0)
    judge_mode = raw.get("judge", "exact")
    if judge_mode not in JUDGES or (judge_mode == "rules" and function not in RULE_JUDGED):
        raise where.error(f"{key}.judge", f"one of {', '.join(JUDGES)} (\"rules\" for "
                          f"{' and '.join(RULE_JUDGED)} only), got {judge_mode!r}")
    qis = read_qis(raw.get("qis"), f"{key}.qis", where.error) or course_qis
    part = Part(name, function, points, partial, variant=variant, qis=qis, judge=judge_mode,
                optional=read_optional(where, key, raw))
    cases = raw.get("case")
    if not isinstance(cases, list) or not cases:
        raise where.error(f"{key}.case", "each part needs at least one [[part.case]]")
    for j, case_raw in enumerate(cases, start=1):
        part.cases.append(_case(where, f"{key}.case[{j}]", case_raw, part, limit, per_rows,
                                schema))
    return part


def _case(where: _Where, key: str, raw: object, part: Part, limit: float,
          per_rows: float, schema: Schema = DEFAULT_SCHEMA) -> Case:
    if not isinstance(raw, dict):
        raise where.error(key, "expected a table")
    ints = int_params(part.function)
    for k in raw:
        if k not in CASE_KEYS and k not in ints:
            raise where.error(f"{key}.{k}", f"unknown key; a {part.function} case takes "
                              f"{', '.join(sorted(CASE_KEYS | set(ints)))}")
    name = _string(where, f"{key}.name", raw.get("name"))
    data = _string(where, f"{key}.data", raw.get("data"))
    if Path(data).is_absolute() or ".." in Path(data).parts:
        raise where.error(f"{key}.data", "must be a folder inside cases_dir")
    values: dict[str, int] = {}
    for p in ints:
        if p not in raw:
            raise where.error(f"{key}.{p}", f"missing; {part.function} needs {', '.join(ints)}")
        if p in CHOICE_PARAMS:  # a string parameter, e.g. t_closeness's distance
            if raw[p] not in CHOICE_PARAMS[p]:
                raise where.error(f"{key}.{p}", f"one of {', '.join(CHOICE_PARAMS[p])}")
            values[p] = raw[p]
            continue
        values[p] = int(_number(where, f"{key}.{p}", raw[p], int))
    anonymized = raw.get("anonymized")
    if is_cost(part.function):
        anonymized = _string(where, f"{key}.anonymized", anonymized)
    elif anonymized is not None:
        raise where.error(f"{key}.anonymized", "only cost functions take an anonymized file")
    hidden = raw.get("hidden", False)
    if not isinstance(hidden, bool):
        raise where.error(f"{key}.hidden", f"expected true or false, got {hidden!r}")
    expect = raw.get("expect")
    if expect is not None and expect not in ("ValueError", "FileNotFoundError"):
        raise where.error(f"{key}.expect", "expected \"ValueError\" or \"FileNotFoundError\"")
    visibility = raw.get("visibility", "after_published" if hidden else "visible")
    if visibility not in VISIBILITIES:
        raise where.error(f"{key}.visibility", f"one of {', '.join(VISIBILITIES)}")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise where.error(f"{key}.description", "expected a string")
    return Case(
        id=f"{part.key}/{safe_name(name)}", part=part.key, function=part.function, name=name,
        data=data, ints=values, anonymized=anonymized, hidden=hidden,
        weight=_number(where, f"{key}.weight", raw.get("weight", 1.0), float, 0),
        time_limit=_number(where, f"{key}.time_limit", raw.get("time_limit", limit), float,
                           0.001),
        expect=expect, visibility=visibility, description=description,
        time_per_1000_rows=0.0 if "time_limit" in raw else per_rows, variant=part.variant,
        qis=part.qis, schema=schema, judge=part.judge)
