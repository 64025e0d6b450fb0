"""A course's own graded functions: the rubric's `[[function]]` tables.

    [[function]]
    name = "cost_NCP"
    returns = "number"                              # or "file": it writes its output param
    reference = "reference/tdg.py:cost_NCP"         # in the course folder: staff code
    params = [{ name = "raw_dataset_file", kind = "raw" },
              { name = "anonymized_dataset_file", kind = "anonymized" },
              { name = "DGH_folder", kind = "dghs" }]
    # an integer: { name = "k", kind = "int", min = 1 }; a choice:
    # { name = "distance", kind = "choice", choices = ["equal", "ordered"] }
    seed_param = "seed"                             # optional: the reference's seed keyword

A declared function replaces the kit's function of the same name for this course. Every
error names the rubric file and the key, e.g. `rubric.toml: function[1].params[3].kind`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..errors import UserError
from .contract import KINDS, RETURNS, FunctionContract, Param

__all__ = ["FUNCTION_KEYS", "read_functions"]

FUNCTION_KEYS = {"name", "params", "returns", "reference", "seed_param"}
PARAM_KEYS = {"name", "kind", "min", "max", "choices"}
Error = Callable[[str, str], UserError]


def _identifier(value: object, key: str, error: Error) -> str:
    if not isinstance(value, str) or not value.isidentifier():
        raise error(key, f"expected a Python name such as \"cost_NCP\", got {value!r}")
    return value


def _param(raw: object, key: str, error: Error) -> Param:
    if not isinstance(raw, dict):
        raise error(key, "expected a table such as { name = \"k\", kind = \"int\", min = 1 }")
    for name in raw:
        if name not in PARAM_KEYS:
            raise error(f"{key}.{name}", f"unknown key; known: {', '.join(sorted(PARAM_KEYS))}")
    name = _identifier(raw.get("name"), f"{key}.name", error)
    kind = raw.get("kind")
    if kind not in KINDS:
        raise error(f"{key}.kind", f"one of {', '.join(KINDS)}, got {kind!r}")
    bounds: dict[str, int | None] = {}
    for side in ("min", "max"):
        value = raw.get(side)
        if value is not None and (kind != "int" or not isinstance(value, int)
                                  or isinstance(value, bool)):
            raise error(f"{key}.{side}", "an integer bound of an \"int\" parameter")
        bounds[side] = value
    choices = raw.get("choices", [])
    if kind == "choice" and (not isinstance(choices, list) or not choices
                             or not all(isinstance(c, str) and c for c in choices)):
        raise error(f"{key}.choices", "a \"choice\" parameter lists its strings, e.g. "
                                      "[\"equal\", \"ordered\"]")
    if kind != "choice" and "choices" in raw:
        raise error(f"{key}.choices", "only a \"choice\" parameter has choices")
    return Param(name, kind, bounds["min"], bounds["max"], tuple(choices))


def _function(raw: object, key: str, folder: Path, error: Error) -> FunctionContract:
    if not isinstance(raw, dict):
        raise error(key, "expected a table [[function]]")
    for name in raw:
        if name not in FUNCTION_KEYS:
            raise error(f"{key}.{name}",
                        f"unknown key; known: {', '.join(sorted(FUNCTION_KEYS))}")
    name = _identifier(raw.get("name"), f"{key}.name", error)
    params_raw = raw.get("params")
    if not isinstance(params_raw, list) or not params_raw:
        raise error(f"{key}.params", "expected the parameters in order, a table each")
    params = tuple(_param(p, f"{key}.params[{i}]", error)
                   for i, p in enumerate(params_raw, start=1))
    names = [p.name for p in params]
    for p in params:
        if names.count(p.name) > 1:
            raise error(f"{key}.params", f"two parameters are named {p.name!r}")
        if p.is_file and sum(q.kind == p.kind for q in params) > 1:
            raise error(f"{key}.params", f"two parameters of kind {p.kind!r}")
    returns = raw.get("returns")
    if returns not in RETURNS:
        raise error(f"{key}.returns", f"one of {', '.join(RETURNS)}, got {returns!r}")
    writes = any(p.kind == "output" for p in params)
    if writes != (returns == "file"):
        raise error(f"{key}.returns", "a function that writes a file has exactly one "
                                      "parameter of kind \"output\"; one that returns a "
                                      "number has none")
    reference = raw.get("reference")
    if not isinstance(reference, str) or reference.count(":") != 1:
        raise error(f"{key}.reference", "expected \"file.py:function\", a file in the course "
                                        f"folder, got {reference!r}")
    file, _, attribute = reference.partition(":")
    path = (folder / file)
    if (Path(file).is_absolute() or ".." in Path(file).parts or not file.endswith(".py")
            or not attribute.isidentifier()):
        raise error(f"{key}.reference", f"expected \"file.py:function\" inside the course "
                                        f"folder, got {reference!r}")
    seed = raw.get("seed_param", "")
    if seed != "" and (not isinstance(seed, str) or not seed.isidentifier()):
        raise error(f"{key}.seed_param", f"expected a keyword's name, got {seed!r}")
    return FunctionContract(name, params, returns, origin="course", reference=reference,
                            seed_param=seed)


def read_functions(raw: object, folder: Path, error: Error) -> dict[str, FunctionContract]:
    """The course's own functions by name (empty when the rubric declares none)."""
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise error("function", "expected [[function]] tables")
    found: dict[str, FunctionContract] = {}
    for i, item in enumerate(raw, start=1):
        contract = _function(item, f"function[{i}]", folder, error)
        if contract.name in found:
            raise error(f"function[{i}].name", f"two functions are named {contract.name!r}")
        found[contract.name] = contract
    return found
