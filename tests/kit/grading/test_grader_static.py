"""Grader static checks (by AST): signatures, renamed functions, stubs, indirect bindings."""
from __future__ import annotations

from grader.grading.static import check_source, positional_problem

FULL = {
    "cost_MD": "raw_dataset_file, anonymized_dataset_file, DGH_folder",
    "cost_LM": "raw_dataset_file, anonymized_dataset_file, DGH_folder",
    "random_anonymizer": "raw_dataset_file, DGH_folder, k, s, output_file",
    "clustering_anonymizer": "raw_dataset_file, DGH_folder, k, output_file",
    "bottomup_anonymizer": "raw_dataset_file, DGH_folder, k, l, output_file",
    "samarati": "raw_dataset_file, DGH_folder, k, max_sup, output_file",
    "mondrian": "raw_dataset_file, DGH_folder, k, output_file",
}


def source(overrides: dict[str, str | None] = None, extra: str = "") -> str:
    overrides = overrides or {}
    parts = []
    for name, params in FULL.items():
        if name in overrides:
            if overrides[name] is not None:
                parts.append(overrides[name])
            continue
        parts.append(f"def {name}({params}):\n    return 0\n")
    return "\n".join(parts) + extra


def states(text: str) -> dict[str, str]:
    return {n: c.state for n, c in check_source(text).functions.items()}


def test_a_complete_file_is_ok() -> None:
    assert set(states(source()).values()) == {"ok"}


def test_renamed_function_is_missing_with_a_hint() -> None:
    report = check_source(source({"cost_MD": "def costMD(raw_dataset_file, anonymized_dataset_"
                                             "file, DGH_folder):\n    return 0\n"}))
    check = report.functions["cost_MD"]
    assert check.state == "missing"
    assert "costMD(raw_dataset_file, anonymized_dataset_file, DGH_folder)" in check.message
    assert "renamed" in check.message


def test_reparametrised_functions() -> None:
    text = source({"samarati": "def samarati(raw_dataset_file, DGH_folder, k, output_file):\n"
                               "    pass\n",
                   "mondrian": "def mondrian(a, b, c, d, e):\n    return 0\n",
                   "cost_LM": "def cost_LM(*args, verbose):\n    return 0\n"})
    report = check_source(text)
    assert report.functions["samarati"].state == "signature"
    assert "takes 4 arguments, the contract passes 5" in report.functions["samarati"].message
    assert report.functions["mondrian"].state == "signature"
    assert report.functions["cost_LM"].state == "signature"
    assert "keyword-only" in report.functions["cost_LM"].message


def test_renamed_parameters_and_defaults_are_only_noted() -> None:
    text = source({"mondrian": "def mondrian(raw, dghs, k, out, verbose=False, *rest):\n"
                               "    return 0\n"})
    check = check_source(text).functions["mondrian"]
    assert check.state == "ok"
    assert "parameter names" in check.notes[0]


def test_stubs_are_not_attempted() -> None:
    text = source({"cost_MD": 'def cost_MD(raw_dataset_file, anonymized_dataset_file, '
                              'DGH_folder):\n    """Doc."""\n    raise NotImplementedError("x")\n',
                   "mondrian": "def mondrian(raw_dataset_file, DGH_folder, k, output_file):\n"
                               "    pass\n"})
    got = states(text)
    assert got["cost_MD"] == got["mondrian"] == "not-attempted"
    assert got["cost_LM"] == "ok"


def test_bindings_other_than_def_are_checked_at_run_time() -> None:
    text = source({"cost_MD": "from helpers import cost_MD\n",
                   "cost_LM": "cost_LM = lambda *a: 0\n", "mondrian": "class mondrian:\n  pass\n"})
    got = states(text)
    assert got["cost_MD"] == got["cost_LM"] == got["mondrian"] == "indirect"


def test_syntax_error_is_reported_not_raised() -> None:
    report = check_source("def cost_MD(:\n")
    assert report.syntax_error.startswith("SyntaxError") and "line 1" in report.syntax_error
    assert report.functions == {}


def test_positional_problem_uses_inspect_kinds() -> None:
    ok = [("a", "POSITIONAL_OR_KEYWORD", False), ("b", "POSITIONAL_ONLY", False),
          ("c", "POSITIONAL_OR_KEYWORD", True)]
    assert positional_problem(ok, 2) == "" and positional_problem(ok, 3) == ""
    assert "requires 2" in positional_problem(ok, 1)
    assert "takes 3" in positional_problem(ok, 4)
    assert positional_problem([("x", "VAR_POSITIONAL", True)], 5) == ""
