"""The measures as functions of files, with fixed signatures in the style of the graded
functions (skeleton.py): a rubric could include them as optional parts. Each reads the raw
table, the anonymized table and the DGH folder (the QIs are the columns with a hierarchy, the
sensitive attribute the single other column, as for l-diversity in HANDOUT.md, "Files"),
checks every cell with the cost rules, and raises ValueError naming the file, row and column
on bad input, FileNotFoundError for a missing file or folder.
"""
from __future__ import annotations

import numpy as np

from .classes import Release, load_release
from .closeness import DISTANCES, sensitive_domain, t_closeness
from .diversity import distinct_l, entropy_l, recursive_l, sensitive_counts

__all__ = ["release_counts", "k_anonymity_of", "distinct_l_of", "entropy_l_of",
           "recursive_l_of", "t_closeness_of"]


def release_counts(release: Release) -> tuple[np.ndarray, list[str], str | None]:
    """(counts, domain, order): counts[e, v] = rows of class e with the v-th sensitive value
    of `domain` (sensitive_domain's order; `order` says where it comes from)."""
    domain, order = sensitive_domain(release.values, release.sensitive_dgh)
    code = {v: i for i, v in enumerate(domain)}
    values = np.fromiter((code[v] for v in release.values), dtype=np.int64, count=release.n)
    counts = sensitive_counts(release.class_of_row, values, len(release.sizes), len(domain))
    return counts, domain, order


def _load(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str,
          sensitive_DGH_file: str | None = None) -> Release:
    release = load_release(raw_dataset_file, anonymized_dataset_file, DGH_folder,
                           sensitive_dgh=sensitive_DGH_file)
    if release.n == 0:
        raise ValueError(f"{anonymized_dataset_file}: the table has no data rows")
    return release


def k_anonymity_of(raw_dataset_file: str, anonymized_dataset_file: str,
                   DGH_folder: str) -> int:
    """The k the anonymized table reaches: the size of its smallest equivalence class."""
    return int(_load(raw_dataset_file, anonymized_dataset_file, DGH_folder).sizes.min())


def distinct_l_of(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str) -> int:
    """The smallest number of distinct sensitive values in an equivalence class."""
    release = _load(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    return distinct_l(release_counts(release)[0])


def entropy_l_of(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str) -> int:
    """The largest integer l with entropy >= ln l in every equivalence class."""
    release = _load(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    return entropy_l(release_counts(release)[0])


def recursive_l_of(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str,
                   c: float) -> int:
    """The largest l for which the table is recursive (c, l)-diverse (0 when none)."""
    if isinstance(c, bool) or not isinstance(c, (int, float, np.integer, np.floating)) \
            or not np.isfinite(c) or not c > 0:
        raise ValueError(f"c must be a positive number, got {c!r}")
    release = _load(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    counts = release_counts(release)[0]
    return recursive_l(counts, float(c))


def t_closeness_of(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str,
                   distance: str, sensitive_DGH_file: str | None = None) -> float:
    """The smallest t for which the table is t-close under the ground distance `distance`:
    "equal", "ordered" (the sensitive values need an order: the hierarchy's, numeric, or
    ranges) or "hierarchical" (needs `sensitive_DGH_file`)."""
    if distance not in DISTANCES:
        raise ValueError(f"distance must be one of {', '.join(DISTANCES)}, got {distance!r}")
    release = _load(raw_dataset_file, anonymized_dataset_file, DGH_folder, sensitive_DGH_file)
    counts, domain, order = release_counts(release)
    if distance == "ordered" and order is None:
        raise ValueError(f"{raw_dataset_file}: the values of column {release.sensitive_name!r} "
                         f"have no order (not numbers, not ranges, no hierarchy): the ordered "
                         f"distance does not apply")
    if distance == "hierarchical" and release.sensitive_dgh is None:
        raise ValueError("the hierarchical distance needs the sensitive attribute's hierarchy "
                         "(sensitive_DGH_file)")
    return t_closeness(counts, distance, release.sensitive_dgh, domain)
