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

A course may declare functions of its own (`[[function]]`, grader/parts/declared.py: the
contract and the reference in its folder) and grade them like the kit's; a part's `judge`
is one of grader.parts.JUDGES. A "quality" part measures the reference's spread over
`seeds` seeded runs and accepts utility up to the worst of them times 1 + `slack`:

    [[part]]
    function = "topdown_greedy"
    judge = "quality"
    seeds = 10
    slack = 0.05

A number function's case may take as its anonymized input the reference's output of an
anonymizer on the same dataset: `anonymized = { function = "topdown_greedy", k = 10 }`.

Every error names the rubric file and the key at fault, e.g. `rubric.toml: part[2].case[1].k`.
"""
from __future__ import annotations


import tomllib
from dataclasses import replace
from pathlib import Path

from kanon.files import safe_name, sha256_bytes

from kanon.schema import DEFAULT as DEFAULT_SCHEMA, Schema

from .contract import VARIANTS
from .parts import LIBRARY, FunctionContract, judge_accepts
from .parts.declared import read_functions
from .errors import UserError
from .paths import DEFAULT_RUBRIC
from .rubric_data import read_data, read_qis
from .rubric_manual import MANUAL_KEYS, RESERVED_NAMES, manual_part
from .rubric_types import Case, Part, Rubric
from .settings import Settings, number, read_settings


PART_KEYS = {"function", "points", "partial_credit", "time_limit", "time_per_1000_rows", "case",
             "name", "variant", "kind", "qis", "judge", "optional", "seeds", "slack"}
KINDS = ("auto", "manual")
QUALITY_DEFAULTS = {"seeds": 10, "slack": 0.05}
"""A quality part's seeded reference runs and its slack over their worst utility."""
CASE_KEYS = {"name", "data", "anonymized", "hidden", "weight", "time_limit", "expect",
             "visibility", "description"}
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


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
    unknown = set(data) - {"settings", "part", "course", "data", "function"}  # [course]:
    if unknown:  # courses.folder
        raise where.error(sorted(unknown)[0], "unknown key (expected [settings], [data], "
                                              "[[function]] and [[part]])")
    settings = read_settings(path, data.get("settings", {}), overrides or {})
    schema, qis = read_data(data.get("data"), where.error)
    functions = read_functions(data.get("function"), path.parent, where.error)
    parts_raw = data.get("part")
    if not isinstance(parts_raw, list) or not parts_raw:
        raise where.error("part", "the rubric needs at least one [[part]]")
    parts: list[Part] = []
    for i, part_raw in enumerate(parts_raw, start=1):
        parts.append(_part(where, f"part[{i}]", part_raw, settings, schema, qis, functions))
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
                  language=_language(path, data), functions=functions)


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
          schema: Schema = DEFAULT_SCHEMA, course_qis: tuple[str, ...] | None = None,
          functions: dict[str, FunctionContract] | None = None) -> Part:
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
    own = (functions or {}).get(function)
    if own is None and function not in LIBRARY:
        known = list(LIBRARY) + [f for f in functions or {} if f not in LIBRARY]
        raise where.error(f"{key}.function", f"{function!r} is not a graded function; one of "
                          f"{', '.join(known)}, or declare it in a [[function]] table")
    contract = own or LIBRARY[function]
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
    default_judge = "number" if own is not None and contract.returns_number else "exact"
    judge_mode = raw.get("judge", default_judge)
    problem = judge_accepts(judge_mode, contract) if isinstance(judge_mode, str) else \
        "a judge's name"
    if problem:
        raise where.error(f"{key}.judge", f"{problem}, got {judge_mode!r}")
    options: list[tuple[str, float]] = []
    for option, default in QUALITY_DEFAULTS.items():
        if option in raw and judge_mode != "quality":
            raise where.error(f"{key}.{option}", "only a part judged by \"quality\" has it")
        if judge_mode == "quality":
            value = _number(where, f"{key}.{option}", raw.get(option, default),
                            int if option == "seeds" else float,
                            2 if option == "seeds" else 0.0,
                            100 if option == "seeds" else 10.0)
            options.append((option, value))
    qis = read_qis(raw.get("qis"), f"{key}.qis", where.error) or course_qis
    part = Part(name, function, points, partial, variant=variant, qis=qis, judge=judge_mode,
                optional=read_optional(where, key, raw), contract=own,
                judge_options=tuple(options))
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
    spec = part.contract or LIBRARY[part.function]
    ints = spec.value_params
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
        param = spec.param(p)
        if param.kind == "choice":  # a string parameter, e.g. t_closeness's distance
            if raw[p] not in param.choices:
                raise where.error(f"{key}.{p}", f"one of {', '.join(param.choices)}")
            values[p] = raw[p]
            continue
        values[p] = int(_number(where, f"{key}.{p}", raw[p], int))
    anonymized, anonymized_by = raw.get("anonymized"), None
    if spec.reads_anonymized:
        if isinstance(anonymized, dict):
            anonymized, anonymized_by = _made_input(where, f"{key}.anonymized", anonymized,
                                                    part)
        anonymized = _string(where, f"{key}.anonymized", anonymized)
    elif anonymized is not None:
        raise where.error(f"{key}.anonymized", "only a function with an anonymized input "
                                               "takes an anonymized file")
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
        qis=part.qis, schema=schema, judge=part.judge, contract=part.contract,
        judge_options=part.judge_options, anonymized_by=anonymized_by)


def _made_input(where: _Where, key: str, raw: dict, part: Part
                ) -> tuple[str, tuple[str, tuple[tuple[str, object], ...]]]:
    """`anonymized = { function = "topdown_greedy", k = 10 }`: the file name the reference's
    output gets in the case's data folder, and (function, arguments) to make it with."""
    function = raw.get("function")
    if not isinstance(function, str) or not function.isidentifier():
        raise where.error(f"{key}.function", "the anonymizer whose reference output is the "
                                             "input, e.g. \"topdown_greedy\"")
    args = {k: v for k, v in raw.items() if k != "function"}
    for name, value in args.items():
        if not isinstance(value, (int, str)) or isinstance(value, bool):
            raise where.error(f"{key}.{name}", f"an integer or a string, got {value!r}")
    shown = "-".join(f"{k}{v}" for k, v in sorted(args.items()))
    name = safe_name(f"anonymized-{function}" + (f"-{shown}" if shown else "")) + ".csv"
    return name, (function, tuple(sorted(args.items())))
