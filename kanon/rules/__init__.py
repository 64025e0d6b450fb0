"""Rule checkers: judge an anonymizer's output when a course's rules allow several right
answers (the USTC lab's Samarati and Mondrian), for the grader and the students' self-check
alike (standard library and numpy only).

Modules: release (`Broken`, `Release`, `make_release`, the header check, encoders), lattice
(Samarati's full-domain lattice: outliers, the lowest satisfying height, aligning rows), fit
(where a Samarati output breaks full-domain), samarati (`check_samarati`), partitions (a
Mondrian output's classes and the usable strict median cuts between them), cuts (the tree
search, the final check, why a partition has no cut), mondrian (`check_mondrian`). Each
checker returns the broken rules, [] for a right answer; every message names the data row(s)
and column and, for a hidden case, no cell value or hierarchy label.
"""
from .mondrian import RULES as MONDRIAN_RULES
from .mondrian import check_mondrian
from .release import Broken, Release, make_release
from .samarati import RULES as SAMARATI_RULES
from .samarati import check_samarati

__all__ = ["Broken", "Release", "make_release", "check_samarati", "check_mondrian",
           "SAMARATI_RULES", "MONDRIAN_RULES"]
