"""The rubric's [settings]: one frozen, validated object. Each setting's type, default, bounds
and help are declared once, in SETTINGS; the intake's caps are derived from it
(`Settings.caps`), the sandbox's limits by grader.grading.host.sandbox_limits.

Every error names the rubric file and the key, e.g. `rubric.toml: settings.memory_mb: must be
at least 1, got 0`, and says where the value came from when a command-line option set it.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, fields

from .errors import UserError

ENTRIES_PER_FILE = 50  # zip directory entries allowed per counted file (folders, __MACOSX, ...)


@dataclass(frozen=True)
class Caps:
    """Limits on what one archive may unpack to (Settings.caps derives them)."""

    max_bytes: int = 50 * 1024 * 1024
    max_files: int = 500  # files written (ignored entries are not)
    max_entries: int = ENTRIES_PER_FILE * 500  # directory entries, folders and ignored too

    def times(self, n: int) -> "Caps":
        """The caps of an archive holding `n` submissions."""
        return Caps(n * self.max_bytes, n * self.max_files, n * self.max_entries)


PACKAGE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RUN_AS = re.compile(r"(?:[A-Za-z0-9_][A-Za-z0-9_.-]{0,31})?")  # "" (= none) or a user


@dataclass(frozen=True)
class Setting:
    """How one setting is read: type, default, bounds, help."""

    name: str
    kind: type
    default: object
    help: str
    minimum: float | None = None
    maximum: float | None = None


SETTINGS: tuple[Setting, ...] = (
    Setting("import_time_limit", float, 10.0, "CPU seconds for importing the student's file",
            minimum=0.001),
    Setting("time_limit", float, 10.0, "CPU seconds every call gets ...", minimum=0.001),
    Setting("time_per_1000_rows", float, 20.0,
            "... plus this per 1,000 rows of the case's dataset", minimum=0),
    Setting("partial_credit", float, 0.5,
            "share of a case's points for a valid, private output that is not the reference's",
            minimum=0.0, maximum=1.0),
    Setting("cost_tolerance", float, 1e-6, "relative tolerance of cost values", minimum=0),
    Setting("memory_mb", int, 2048, "address-space limit of each child", minimum=1),
    Setting("file_size_mb", int, 64, "largest file a child may write", minimum=1),
    Setting("disk_mb", int, 1024, "all files under a child's scratch folder together",
            minimum=1),
    Setting("processes", int, 64, "extra processes/threads a child may start", minimum=1),
    Setting("open_files", int, 256, "open files of a child", minimum=1),
    Setting("output_kb", int, 16, "printed output kept per import and per call", minimum=1),
    Setting("max_archive_mb", int, 50, "what one submission may unpack to", minimum=1),
    Setting("max_archive_files", int, 500, "files one submission may hold", minimum=1),
    Setting("student_id_pattern", str, r"^(?P<id>[^_]+)",
            "regular expression naming the student in an entry's name: group (?P<id>...)"),
    Setting("cases_dir", str, "cases", "the cases folder, relative to the rubric"),
    Setting("run_as", str, "auto",
            "grader run as root: the user children run as (auto = nobody; none: root)"),
    Setting("allowed_packages", list, ("numpy",),
            "third-party packages student code may import"),
    Setting("counterexample_calls", int, 200,
            "calls per function to search public data for a counterexample (0: none)",
            minimum=0),
    Setting("counterexample_cpu", float, 20.0,
            "CPU seconds per function for that search (never changes a grade)", minimum=0),
)
BY_NAME = {s.name: s for s in SETTINGS}


@dataclass(frozen=True)
class Settings:
    """The validated settings of one rubric (defaults: SETTINGS)."""

    import_time_limit: float = 10.0
    time_limit: float = 10.0
    time_per_1000_rows: float = 20.0
    partial_credit: float = 0.5
    cost_tolerance: float = 1e-6
    memory_mb: int = 2048
    file_size_mb: int = 64
    disk_mb: int = 1024
    processes: int = 64
    open_files: int = 256
    output_kb: int = 16
    max_archive_mb: int = 50
    max_archive_files: int = 500
    student_id_pattern: str = r"^(?P<id>[^_]+)"
    cases_dir: str = "cases"
    run_as: str = "auto"
    allowed_packages: tuple[str, ...] = ("numpy",)
    counterexample_calls: int = 200
    counterexample_cpu: float = 20.0

    @property
    def id_pattern(self) -> re.Pattern:
        return re.compile(self.student_id_pattern)

    def caps(self):
        """What one submission's archive or folder may unpack to."""
        return Caps(max_bytes=self.max_archive_mb * 2**20, max_files=self.max_archive_files,
                    max_entries=ENTRIES_PER_FILE * self.max_archive_files)

    def digest_items(self) -> list[tuple[str, object]]:
        """(name, value) pairs in name order, lists as lists: what the rubric's hash covers."""
        return sorted((k, list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items())


def read_settings(path: object, raw: object, overrides: dict[str, object]) -> Settings:
    """Validate the [settings] table of rubric `path`; `overrides` (command-line options,
    None = not given) replace its values."""
    def error(key: str, message: str, source: str | None = None) -> UserError:
        where = f" (from {source})" if source else ""
        return UserError(f"{path}: settings.{key}{where}: {message}")

    if not isinstance(raw, dict):
        raise UserError(f"{path}: settings: expected a table")
    for key in raw:
        if key not in BY_NAME:
            raise error(key, f"unknown setting; known: {', '.join(sorted(BY_NAME))}")
    given = {k: v for k, v in overrides.items() if v is not None}
    values: dict[str, object] = {}
    for setting in SETTINGS:
        source = "the command line" if setting.name in given else None
        value = given.get(setting.name, raw.get(setting.name, setting.default))
        values[setting.name] = _check(setting, value, lambda m, s=setting, src=source:
                                      error(s.name, m, src))
    try:
        pattern = re.compile(str(values["student_id_pattern"]))
    except re.error as e:
        raise error("student_id_pattern", f"not a regular expression: {e}")
    if "id" not in pattern.groupindex:
        raise error("student_id_pattern", "needs a named group (?P<id>...)")
    return Settings(**values)


def _check(setting: Setting, value: object, error) -> object:
    if setting.name == "allowed_packages":
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, str) and PACKAGE.fullmatch(v) for v in value):
            raise error(f"expected a list of importable package names such as "
                        f"[\"numpy\", \"pandas\"], got {value!r}")
        return tuple(sorted(set(value)))
    if setting.name == "run_as":
        if not isinstance(value, str) or not RUN_AS.fullmatch(value):
            raise error(f"expected a user name, \"auto\" or \"none\", got {value!r}")
        return value
    if setting.kind is str:
        if not isinstance(value, str) or not value:
            raise error(f"expected a non-empty string, got {value!r}")
        return value
    return number(value, setting.kind, setting.minimum, setting.maximum, error)


def number(value: object, kind: type, minimum: float | None, maximum: float | None, error
           ) -> float | int:
    """`value` as `kind` (int or float) within the bounds; `error(message)` builds the
    exception otherwise."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int and not isinstance(value, int):
        ok = False
    if not ok or (isinstance(value, float) and not math.isfinite(value)):
        raise error(f"expected {'an integer' if kind is int else 'a number'}, got {value!r}")
    if minimum is not None and value < minimum:
        raise error(f"must be at least {minimum}, got {value}" if minimum != 0.001 else
                    f"must be positive, got {value}")
    if maximum is not None and value > maximum:
        raise error(f"must be at most {maximum}, got {value}")
    return kind(value)


assert [f.name for f in fields(Settings)] == [s.name for s in SETTINGS], "one list of settings"
assert all(getattr(Settings(), s.name) == s.default for s in SETTINGS), "one set of defaults"
