"""The judges a part may name, and which functions each can judge. The judging itself lives
in grader.grading.judges (one strategy per name); this is what a rubric is checked against.

- exact: the reference's one output (a table, byte for byte after normalising the file's
  form; a number within the course's tolerance): the kit's functions, and a course's own
  whose answer is unique;
- rules: a named rule set of kcheck/rules (the USTC lab's Samarati and Mondrian);
- quality: a heuristic whose right answers differ: a valid generalization of the raw table,
  every class of at least k records, utility within the band the reference's own seeded runs
  give (kcheck.quality);
- number: a returned number within the course's tolerance of the reference's (kcheck.number).
"""
from __future__ import annotations

from .contract import FunctionContract

__all__ = ["JUDGES", "RULE_SETS", "judge_accepts"]

JUDGES = ("exact", "rules", "quality", "number")
RULE_SETS = ("samarati", "mondrian")
"""The kit's rule sets (kcheck/rules), named by the function whose rules they are."""


def judge_accepts(judge: str, contract: FunctionContract) -> str:
    """"" when `judge` can decide `contract`'s cases, else why not (a sentence's end)."""
    if judge not in JUDGES:
        return f"one of {', '.join(JUDGES)}"
    if judge == "rules" and (contract.origin != "kit" or contract.name not in RULE_SETS):
        return f"\"rules\" judges the kit's {' and '.join(RULE_SETS)} only"
    if judge == "quality" and contract.returns_number:
        return "\"quality\" judges a function that writes a table, not one that returns a number"
    if judge == "number" and not contract.returns_number:
        return "\"number\" judges a function that returns a number"
    if judge == "quality" and contract.origin == "kit":
        return "\"quality\" needs the reference's seeded runs: declare the function in the " \
               "course's rubric ([[function]]) with its reference and seed_param"
    if judge == "quality" and not contract.seed_param:
        return "\"quality\" measures the reference's spread over seeded runs: the function " \
               "needs seed_param (its reference's seeding keyword)"
    return ""
