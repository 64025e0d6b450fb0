"""The graded functions of HANDOUT.md: names, parameter lists, and how the grader calls them.

Every case runs with the current directory holding the case's dataset as `adult-hw1.csv` and
its hierarchies as `DGHs/` (the names the handout uses), so file arguments are relative paths.
"""
from __future__ import annotations

RAW_FILE = "adult-hw1.csv"
DGH_DIR = "DGHs"
ANONYMIZED_INPUT = "anonymized.csv"  # the cost functions' second argument
OUTPUT_FILE = "output.csv"  # where anonymizers write

SIGNATURES: dict[str, tuple[str, ...]] = {
    "cost_MD": ("raw_dataset_file", "anonymized_dataset_file", "DGH_folder"),
    "cost_LM": ("raw_dataset_file", "anonymized_dataset_file", "DGH_folder"),
    "random_anonymizer": ("raw_dataset_file", "DGH_folder", "k", "s", "output_file"),
    "clustering_anonymizer": ("raw_dataset_file", "DGH_folder", "k", "output_file"),
    "bottomup_anonymizer": ("raw_dataset_file", "DGH_folder", "k", "l", "output_file"),
    "samarati": ("raw_dataset_file", "DGH_folder", "k", "max_sup", "output_file"),
    "mondrian": ("raw_dataset_file", "DGH_folder", "k", "output_file"),
    # optional parts (the handout of a course that grades them): graded only by a rubric that names them
    "topdown_anonymizer": ("raw_dataset_file", "DGH_folder", "k", "output_file"),
    "datafly": ("raw_dataset_file", "DGH_folder", "k", "output_file"),
    "entropy_l": ("raw_dataset_file", "anonymized_dataset_file", "DGH_folder"),
    "t_closeness": ("raw_dataset_file", "anonymized_dataset_file", "DGH_folder", "distance"),
    "topdown_greedy": ("raw_dataset_file", "DGH_folder", "k", "output_file"),
    "kaca": ("raw_dataset_file", "DGH_folder", "k", "output_file"),
}
OPTIONAL_FUNCTIONS: tuple[str, ...] = ("topdown_anonymizer", "datafly", "entropy_l",
                                       "t_closeness", "topdown_greedy", "kaca")
FUNCTIONS: tuple[str, ...] = tuple(f for f in SIGNATURES if f not in OPTIONAL_FUNCTIONS)
"""The seven functions of the default homework: always checked, whatever the rubric."""
GRADABLE: tuple[str, ...] = tuple(SIGNATURES)
"""Every function a rubric part may grade: FUNCTIONS plus OPTIONAL_FUNCTIONS."""
VARIANTS: dict[str, tuple[str, ...]] = {"clustering_anonymizer": ("lm-only",)}
"""Rule variants a rubric part may select (`variant = "lm-only"`): the student's function
keeps its name and signature; its expected outputs come from the reference's variant."""
RULE_JUDGED: tuple[str, ...] = ("samarati", "mondrian")
"""Functions a rubric part may judge by the course's rules (`judge = "rules"`, kcheck/rules)
where they allow several right answers."""


def graded_functions(extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """FUNCTIONS plus the optional functions among `extra` (a rubric's functions), in
    SIGNATURES order."""
    return [f for f in SIGNATURES if f in FUNCTIONS or f in extra]
COST_FUNCTIONS = frozenset({"cost_MD", "cost_LM", "entropy_l", "t_closeness"})
"""Functions that return a number of an anonymized input (graded within cost_tolerance)."""
CHOICE_PARAMS: dict[str, tuple[str, ...]] = {"distance": ("equal", "ordered")}
"""Parameters that take one of a few strings (a rubric case says `distance = "ordered"`)."""
FILE_PARAMS = {
    "raw_dataset_file": RAW_FILE,
    "anonymized_dataset_file": ANONYMIZED_INPUT,
    "DGH_folder": DGH_DIR,
    "output_file": OUTPUT_FILE,
}


def int_params(function: str) -> tuple[str, ...]:
    """The parameters a rubric case gives (k, l, s, max_sup: integers; CHOICE_PARAMS:
    strings), in order."""
    return tuple(p for p in SIGNATURES[function] if p not in FILE_PARAMS)


def call_args(function: str, ints: dict[str, int]) -> list[object]:
    """The positional arguments of one call: file names from FILE_PARAMS, the others (integers,
    CHOICE_PARAMS strings) from `ints`."""
    return [FILE_PARAMS[p] if p in FILE_PARAMS else ints[p] for p in SIGNATURES[function]]


def is_cost(function: str) -> bool:
    return function in COST_FUNCTIONS


def data_rows(numbers: list[int] | tuple[int, ...]) -> str:
    """'data row 3' / 'data rows 3, 4', saying which rows it counts: the handout's numbering
    (HANDOUT.md, "Background"): data rows from 1, in file order, the header not counted."""
    shown = ", ".join(map(str, numbers))
    return f"data row{'s' if len(numbers) != 1 else ''} {shown} (the header is not counted)"
