"""A course's columns, as the judges need them: its QIs, which of them are numeric, its
sensitive column, the columns an output releases and its hierarchy files' format.

`numeric=None` means "the QIs without a hierarchy file" (the TDG lab's rule); `released=None`
means the QIs and the sensitive column. Nothing here is a course's constant: each course
states its own `Spec` (e.g. from its course file).
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from .hierarchies import FORMATS, Tree, read_folder
from .quality import Judgement, RawCase, judge_prepared, prepare_raw
from .tables import Table

__all__ = ["Spec", "spec_of"]


@dataclass(frozen=True)
class Spec:
    """A course's columns and hierarchy format (module docstring)."""

    qis: tuple[str, ...]
    sensitive: str
    numeric: tuple[str, ...] | None = None
    released: tuple[str, ...] | None = None
    hierarchy_format: str = "paths"
    delimiter: str = ";"

    def __post_init__(self) -> None:
        if not self.qis or len(set(self.qis)) != len(self.qis):
            raise ValueError(f"the QIs must be distinct and at least one, got {self.qis}")
        if self.sensitive in self.qis:
            raise ValueError(f"the sensitive column {self.sensitive!r} is a QI")
        if self.released is not None and not {*self.qis, self.sensitive} <= set(self.released):
            raise ValueError(f"the released columns {self.released} must hold every QI and "
                             f"the sensitive column {self.sensitive!r}")
        if self.hierarchy_format not in FORMATS:
            raise ValueError(f"unknown hierarchy format {self.hierarchy_format!r}")

    def released_columns(self) -> tuple[str, ...]:
        return self.released if self.released is not None else (*self.qis, self.sensitive)

    def numeric_columns(self, hierarchies: dict[str, Tree]) -> tuple[str, ...]:
        """The numeric QIs: as stated, or the QIs without a hierarchy."""
        if self.numeric is not None:
            return self.numeric
        return tuple(q for q in self.qis if q not in hierarchies)

    def read_hierarchies(self, folder: str | os.PathLike[str]) -> dict[str, Tree]:
        """The folder's `<column>.txt` files of the course's QIs (others are ignored)."""
        trees = read_folder(folder, self.hierarchy_format, self.delimiter)
        return {name: tree for name, tree in trees.items() if name in self.qis}

    def prepare(self, raw: Table | str | os.PathLike[str] | bytes,
                hierarchies: dict[str, Tree] | str | os.PathLike[str]) -> RawCase:
        """The raw side of a case (kcheck.quality.prepare_raw); `hierarchies` may be the
        folder of hierarchy files."""
        if not isinstance(hierarchies, dict):
            hierarchies = self.read_hierarchies(hierarchies)
        return prepare_raw(raw, hierarchies, qis=self.qis,
                           numeric=self.numeric_columns(hierarchies),
                           released=self.released_columns())

    def judge(self, case: RawCase, output: Table | str | os.PathLike[str] | bytes, *, k: int,
              band_max: float | None = None, metric: str = "ncp") -> Judgement:
        """kcheck.quality.judge_prepared on a case this spec prepared."""
        return judge_prepared(case, output, k=k, band_max=band_max, metric=metric)


def spec_of(qis: Sequence[str], sensitive: str, **options: object) -> Spec:
    """A Spec from any sequences (stored as tuples)."""
    for name in ("numeric", "released"):
        if options.get(name) is not None:
            options[name] = tuple(options[name])  # type: ignore[arg-type]
    return Spec(tuple(qis), sensitive, **options)  # type: ignore[arg-type]
