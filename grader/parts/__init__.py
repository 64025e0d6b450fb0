"""Graded parts as one concept: a function's contract (its parameters in order with their
kinds, what it returns), where its reference lives and which judge decides its cases.

Modules: contract (Param, FunctionContract: the declaration and how a call is made),
library (the kit's own functions, declared the same way a course declares its own),
declared (a rubric's `[[function]]` tables: a course's own functions), course_reference
(loading a course's reference module from its folder: staff code, never sandboxed, never
shipped to students), judge_names (the judges a part may name and what each accepts).
"""
from .contract import FunctionContract, Param
from .judge_names import JUDGES, judge_accepts
from .library import LIBRARY, kit_contract

__all__ = ["contract", "library", "declared", "course_reference", "judge_names",
           "FunctionContract", "Param", "LIBRARY", "kit_contract", "JUDGES", "judge_accepts"]
