"""The kit's own graded functions, declared as contracts (grader/contract.py keeps their
signatures): the built-in library a rubric's parts pick from."""
from __future__ import annotations

from ..contract import CHOICE_PARAMS, COST_FUNCTIONS, SIGNATURES
from .contract import FunctionContract, Param

__all__ = ["LIBRARY", "kit_contract"]

_FILE_KINDS = {"raw_dataset_file": "raw", "DGH_folder": "dghs",
               "anonymized_dataset_file": "anonymized", "output_file": "output"}


def _param(name: str) -> Param:
    if name in _FILE_KINDS:
        return Param(name, _FILE_KINDS[name])
    if name in CHOICE_PARAMS:
        return Param(name, "choice", choices=CHOICE_PARAMS[name])
    return Param(name, "int")


LIBRARY: dict[str, FunctionContract] = {
    name: FunctionContract(name, tuple(_param(p) for p in params),
                           "number" if name in COST_FUNCTIONS else "file")
    for name, params in SIGNATURES.items()}


def kit_contract(name: str) -> FunctionContract:
    """The kit's contract of `name` (KeyError when the kit has no such function)."""
    return LIBRARY[name]
