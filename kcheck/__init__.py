"""kcheck: the judges of anonymized outputs that several answers may satisfy, shared by the
students' self-check and the grader. Standard library only (it ships in the student bundle).

Modules, one job each: tables (CSV files), hierarchies (trees in three file formats), cells
(what a released cell means), metrics (NCP, LM), verdicts (a judge's decision as data),
messages (verdicts and findings as kcheck.text Messages; hidden cases show no data), quality
(an anonymized table), number (a returned number), spec (a course's columns and format),
checks (the built-in anonymizers' outputs: validity, classes, k, l, suppression), compare (the
first difference from the expected output), time_policy (when a function's calls stop),
pool (the public counterexample pool's format and reading), search (the search for a
counterexample in it, the student's calls passed in), teach_text (the self-check's words
about a counterexample, in English and Simplified Chinese).
"""
from __future__ import annotations

from .cells import Categorical, Column, Numeric, covers, make_columns, middle
from .checks import (ClassViolation, Dataset, check_k, check_l, check_suppressed_k,
                     check_valid, group_rows, k_violation, l_violation, load_dataset,
                     suppressed_rows, suppression_violation)
from .compare import first_difference
from .hierarchies import HierarchyError, Tree, parse_hierarchy, read_folder, read_hierarchy
from .messages import LANGUAGES, render, render_facts, say
from .metrics import cell_cost, record_cost, table_cost
from .number import judge_number
from .quality import Facts, Judgement, RawCase, judge_prepared, judge_quality, prepare_raw
from .spec import Spec, spec_of
from .tables import Rows, Table, TableError, parse_table, read_csv, read_csv_text, read_table
from .verdicts import RULES, Finding, Verdict

__all__ = ["Categorical", "Column", "Numeric", "covers", "make_columns", "middle",
           "ClassViolation", "Dataset", "check_k", "check_l", "check_suppressed_k",
           "check_valid", "group_rows", "k_violation", "l_violation", "load_dataset",
           "suppressed_rows", "suppression_violation", "first_difference", "say",
           "Rows", "read_csv", "read_csv_text", "Finding",
           "HierarchyError", "Tree", "parse_hierarchy", "read_folder", "read_hierarchy",
           "LANGUAGES", "render", "render_facts", "cell_cost", "record_cost", "table_cost",
           "judge_number", "Facts", "Judgement", "RawCase", "judge_prepared", "judge_quality",
           "prepare_raw", "Spec", "spec_of", "Table", "TableError",
           "parse_table", "read_table", "RULES", "Verdict"]
