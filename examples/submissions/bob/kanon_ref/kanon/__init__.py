"""The kit's core: tables, hierarchies, generalized cells, equivalence classes and privacy
checks, shared by the staff solution (reference/) and the grader (grader/).

Standard library and numpy only. Nothing here anonymizes: the algorithms live in reference/,
and the grader's class-grading side imports only this package. `kanon.privacy` holds the
privacy models and utility metrics of the checker (`python -m reference.check`), one module
each.
"""
from .cells import CellError, CellFault, Column, is_numeric, numeric_values, parse_interval
from .checks import ClassViolation, k_violation, l_violation, suppressed_rows
from .classes import equivalence_classes, group_rows, lca_per_class
from .files import atomic_write_bytes, atomic_write_text, dump_json
from .hierarchy import DGH, parse_dgh, read_dgh, read_dgh_folder, render_dgh
from .problem import Problem, check_int, load_problem, load_problem_for_k
from .schema import DEFAULT as DEFAULT_SCHEMA, Schema
from .table import Table, check_output_path, parse_table, read_table, render_csv, write_table

__all__ = [
    "Table", "read_table", "parse_table", "render_csv", "write_table", "check_output_path",
    "DGH", "parse_dgh", "read_dgh", "read_dgh_folder", "render_dgh",
    "Problem", "load_problem", "load_problem_for_k", "check_int", "Schema", "DEFAULT_SCHEMA",
    "CellError", "CellFault", "Column", "is_numeric", "numeric_values", "parse_interval",
    "equivalence_classes", "group_rows", "lca_per_class",
    "ClassViolation", "k_violation", "l_violation", "suppressed_rows",
    "atomic_write_bytes", "atomic_write_text", "dump_json",
]
