"""The optional graded measures (HANDOUT.md, "entropy_l (optional)" and "t_closeness
(optional)"): scalar functions of files, graded like cost_MD and cost_LM (a number within a
relative 1e-6), with the exact signatures of skeleton.py.

The QIs are the columns with a hierarchy in DGH_folder and the sensitive attribute is the
single other column (HANDOUT.md, "Files"); every QI cell is checked with the cost rules, so a
bad file raises the same ValueError (naming the row and the column) as the cost functions.
"""
from __future__ import annotations

from .kanon.privacy.closeness import t_closeness as _t_closeness
from .kanon.privacy.diversity import entropy_l_real
from .kanon.privacy.tables import _load, release_counts

__all__ = ["GRADED_DISTANCES", "entropy_l", "t_closeness"]

GRADED_DISTANCES = ("equal", "ordered")
"""The ground distances of the graded t_closeness. The hierarchical distance needs a
hierarchy of the sensitive attribute, which a DGH folder cannot hold (a column with a DGH file
is a QI): only the checker (`python -m reference.check --sensitive-dgh`) computes it."""


def entropy_l(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str) -> float:
    """The largest real l for which the anonymized table is entropy l-diverse:
    exp(min over the ECs of H(E)), H(E) = -sum_v p(E, v) ln p(E, v) over the sensitive values
    of E. Its floor is the integer entropy l of the checker."""
    release = _load(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    return entropy_l_real(release_counts(release)[0])


def t_closeness(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str,
                distance: str) -> float:
    """The smallest t for which the anonymized table is t-close: the largest Earth Mover's
    Distance between an EC's distribution of sensitive values and the whole table's, under
    the ground distance `distance`: "equal" (any values) or "ordered" (numeric sensitive
    values, by the numeric rule of HANDOUT.md, "Generalized cells", in numeric order).
    Another distance, or "ordered" on values that are not numeric, is a ValueError."""
    if not isinstance(distance, str) or distance not in GRADED_DISTANCES:
        raise ValueError(f"distance must be one of {', '.join(map(repr, GRADED_DISTANCES))}, "
                         f"got {distance!r}")
    release = _load(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    counts, _, order = release_counts(release)
    if distance == "ordered" and order != "numeric":
        raise ValueError(f"{raw_dataset_file}: the values of the sensitive column "
                         f"{release.sensitive_name!r} are not all numbers: the ordered "
                         f"distance does not apply")
    return _t_closeness(counts, distance)
