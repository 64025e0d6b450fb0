"""What a course says of its data's columns beyond the hierarchies (a Schema).

The default contract (Schema()): the QIs are the columns with a hierarchy file, every other
column is copied unchanged, a suppressed record is written with every QI cell at its
hierarchy's root, hierarchies are tab-indented files. A course may say instead which column is
sensitive, that the other columns are not released, that suppressed records are deleted, and
that its hierarchies are "child,parent" files (the USTC lab: courses/ustc/rubric.toml).
"""
from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["Schema", "DEFAULT", "OTHER_COLUMNS", "SUPPRESSIONS", "HIERARCHY_FORMATS"]

OTHER_COLUMNS = ("keep", "drop")
"""keep: non-QI columns are copied unchanged; drop: only the QIs and the sensitive column are
released."""
SUPPRESSIONS = ("root", "delete")
"""root: a suppressed record's QI cells become their hierarchy roots; delete: it is not
released."""
HIERARCHY_FORMATS = ("tabs", "child-parent", "paths")
"""tabs: one node per line, depth by leading tabs; child-parent: one "child,parent" pair per
line; paths: one "leaf;parent;...;root" line per leaf (the Top-Down Greedy lab's)."""


@dataclass(frozen=True)
class Schema:
    """A course's rules for its columns, suppressed records and hierarchy files."""

    sensitive: str | None = None  # None: the single non-QI column, when there is one
    other_columns: str = "keep"
    suppression: str = "root"
    hierarchy_format: str = "tabs"
    numeric: tuple[str, ...] = ()  # QIs without a hierarchy file: ranges [lo-hi] (paths)

    def __post_init__(self) -> None:
        for name, allowed in (("other_columns", OTHER_COLUMNS), ("suppression", SUPPRESSIONS),
                              ("hierarchy_format", HIERARCHY_FORMATS)):
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        if self.other_columns == "drop" and not self.sensitive:
            raise ValueError("other_columns = \"drop\" needs the sensitive column named")

    @property
    def is_default(self) -> bool:
        return self == DEFAULT

    def changes(self) -> dict[str, str]:
        """The settings that differ from the default contract (for keys and records)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(DEFAULT, f.name)}

    def released(self, header: list[str], qi_columns: list[int], path: str = "") -> list[int]:
        """The raw columns an anonymizer writes, in raw order: all of them, or the QIs and
        the sensitive column. ValueError naming the file when the sensitive column is
        missing."""
        if self.other_columns == "keep":
            return list(range(len(header)))
        if self.sensitive not in header:
            raise ValueError(f"{path or 'the dataset'}: no column {self.sensitive!r} (the "
                             f"sensitive attribute); its columns are {', '.join(header)}")
        keep = set(qi_columns) | {header.index(self.sensitive)}
        return [c for c in range(len(header)) if c in keep]


DEFAULT = Schema()
