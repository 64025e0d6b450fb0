"""The privacy checks every anonymizer's output is judged by: k-anonymity, distinct
l-diversity and the suppression count (Samarati's fully suppressed rows). Each check takes the
classes of `kanon.classes.group_rows` and returns the first violating class (in order of first
row), or None."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = ["ClassViolation", "suppressed_rows", "k_violation", "l_violation"]

Groups = dict[tuple[str, ...], list[int]]


@dataclass(frozen=True)
class ClassViolation:
    """An equivalence class that breaks a property: its first data row (1-based), its size,
    and (l-diversity) its number of distinct sensitive values."""

    first_row: int
    size: int
    distinct: int | None = None


def suppressed_rows(groups: Groups, root_labels: Sequence[str]) -> list[int]:
    """The data rows whose QI cells are all at the root of their hierarchy."""
    return groups.get(tuple(root_labels), [])


def k_violation(groups: Groups, k: int, exempt: tuple[str, ...] | None = None
                ) -> ClassViolation | None:
    """The first class of fewer than k rows (the class with QI cells `exempt` is skipped: the
    suppressed rows)."""
    for key, members in groups.items():
        if len(members) < k and key != exempt:
            return ClassViolation(members[0], len(members))
    return None


def l_violation(groups: Groups, rows: Sequence[Sequence[str]], sensitive: int, l: int
                ) -> ClassViolation | None:
    """The first class with fewer than l distinct values in column `sensitive`."""
    for members in groups.values():
        distinct = len({rows[n - 1][sensitive] for n in members})
        if distinct < l:
            return ClassViolation(members[0], len(members), distinct)
    return None
