"""The rule sets of a course whose answers several outputs satisfy (the USTC lab's Samarati
with deletion and strict Mondrian): one standard-library implementation, imported by the
grader and shipped as it is in the students' bundle.

Modules: release (`Broken`, `Release`, `make_release`, the header check), lattice
(Samarati's full-domain lattice: outliers, the lowest satisfying height, aligning rows), fit
(where a Samarati output breaks full-domain), samarati (`check_samarati`, `lowest_vectors`),
partitions (a Mondrian output's classes and the usable strict median cuts between them), cuts
(the tree search, the final check, why a partition has no cut), mondrian (`check_mondrian`).
Each checker returns the broken rules, [] for a right answer; every message names the data
row(s) and column and, for a hidden case, no cell value or hierarchy label.
"""
from __future__ import annotations

from .mondrian import RULES as MONDRIAN_RULES
from .mondrian import check_mondrian
from .release import Broken, Release, make_release
from .samarati import RULES as SAMARATI_RULES
from .samarati import check_samarati, lowest_vectors

__all__ = ["Broken", "Release", "make_release", "check_samarati", "check_mondrian",
           "lowest_vectors", "SAMARATI_RULES", "MONDRIAN_RULES"]
