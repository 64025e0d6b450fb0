"""Public tests of each function your course grades (HANDOUT.md, each function's section): for
every function of data/functions.json, the tests its kind gets, named after the function
(`pytest -k NAME` runs one function's tests), on the cases of data/cases.json.

  an anonymizer  test_NAME_valid_and_k_anonymous[...] (or the privacy property the function
                 promises), test_NAME_matches_reference[...], test_NAME_rejects_bad_input[...]
  a cost         test_NAME[...], test_NAME_rejects_invalid_cell[...]
  a measure      test_NAME[...], test_NAME_rejects_bad_input[...]

A function beyond the default homework also gets test_NAME_signature (and an anonymizer
test_NAME_refuses_to_overwrite_the_raw_file); the others' are in test_public_api.py. Which
tests a function gets is data too: its `checks` in data/functions.json. The tests of a
function beyond the default homework run when your course grades it
(tests/public/course.json); in a folder holding every part's tests, they also run when your
file defines it, and are skipped otherwise.
"""
from __future__ import annotations

import json
from typing import Callable

import pytest

from messages import _
from public_cases import (BAD_COSTS, BAD_MEASURES, CASES, COSTS, EXPECTED, FUNCTIONS, MEASURES,
                          OPTIONAL_SIGNATURES, _timeout, bad_calls, runs)

RAW_FILE_TEST = pytest.mark.timeout(120)


def _expected(name: str) -> dict:
    """A file of reference values (data/expected/), read when a test needs it."""
    return json.loads((EXPECTED / name).read_text(encoding="utf-8"))


def signature_test(function: str) -> Callable:
    @RAW_FILE_TEST
    def test(runner, solution):
        runner.applies(function)
        got = solution.parameters(function)
        if got != OPTIONAL_SIGNATURES[function]:
            pytest.fail(_("{name} must take {wanted}, yours takes {got}").format(
                name=function, wanted=OPTIONAL_SIGNATURES[function], got=got), pytrace=False)
    return test


def anonymizer_tests(function: str, spec: dict) -> dict[str, tuple[str, Callable]]:
    """The tests an anonymizer may get, by check: its signature, its output's property, its
    match with the reference, its bad calls, its refusal to overwrite the raw file."""
    name = spec["marker"]

    @pytest.mark.parametrize("run", runs(function))
    def test_property(run, runner):
        runner.check_property(run)

    @pytest.mark.parametrize("run", runs(function))
    def test_matches_reference(run, runner):
        runner.check_expected(run)

    @pytest.mark.parametrize("bad", bad_calls(function))
    def test_rejects_bad_input(bad, runner):
        runner.check_bad_call(bad)

    @RAW_FILE_TEST
    def test_refuses_to_overwrite_the_raw_file(runner):
        runner.check_rejects(function, "jobsex", ["adult-hw1.csv", "DGHs", *spec["example"],
                                                  "adult-hw1.csv"],
                             _("output_file is the raw dataset file itself"))

    return {"signature": (f"test_{name}_signature", signature_test(function)),
            "property": (f"test_{name}_{spec['property']['test']}", test_property),
            "expected": (f"test_{name}_matches_reference", test_matches_reference),
            "bad_calls": (f"test_{name}_rejects_bad_input", test_rejects_bad_input),
            "raw_file": (f"test_{name}_refuses_to_overwrite_the_raw_file",
                         test_refuses_to_overwrite_the_raw_file)}


def cost_tests(function: str, spec: dict) -> dict[str, tuple[str, Callable]]:
    """The tests a cost may get, by check: its value on each anonymized input, its refusal
    of an invalid cell."""
    cases = [pytest.param(c, id=c.id, marks=_timeout(c.case)) for c in COSTS]
    bad = [pytest.param(case, file, column, id=f"{case}-{file.removesuffix('.csv')}",
                        marks=_timeout(case)) for case, file, column in BAD_COSTS]

    @pytest.mark.parametrize("case", cases)
    def test_value(case, runner):
        runner.check_cost(function, case, _expected("costs.json")[case.id][function])

    @pytest.mark.parametrize("case, name, column", bad)
    def test_rejects_invalid_cell(case, name, column, runner):
        runner.check_rejects(function, case, ["adult-hw1.csv", name, "DGHs"],
                             _("a cell is not a generalization of its raw value"), column,
                             extra_file=CASES / case / name)

    return {"value": (f"test_{spec['marker']}", test_value),
            "bad_cells": (f"test_{spec['marker']}_rejects_invalid_cell",
                          test_rejects_invalid_cell)}


def measure_tests(function: str, spec: dict) -> dict[str, tuple[str, Callable]]:
    """The tests a privacy measure may get, by check: its signature, its value on each
    anonymized input, its bad calls."""
    name = spec["marker"]
    cases = [pytest.param(c, id=c.id, marks=_timeout(c.input.case))
             for c in MEASURES if c.function == function]
    bad = [pytest.param(c, n, a, col, why, marks=_timeout(c),
                        id="-".join([c, n.removesuffix(".csv"), *map(str, a)]))
           for f, c, n, a, col, why in BAD_MEASURES if f == function]

    @pytest.mark.parametrize("case", cases)
    def test_value(case, runner):
        runner.check_cost(function, case.input, _expected("measures.json")[function][case.id],
                          case.args)

    @pytest.mark.parametrize("case, name, args, column, reason", bad)
    def test_rejects_bad_input(case, name, args, column, reason, runner):
        runner.check_rejects(function, case, ["adult-hw1.csv", name, "DGHs", *args], reason,
                             column, extra_file=CASES / case / name)

    return {"signature": (f"test_{name}_signature", signature_test(function)),
            "value": (f"test_{name}", test_value),
            "bad_calls": (f"test_{name}_rejects_bad_input", test_rejects_bad_input)}


KINDS = {"anonymizer": anonymizer_tests, "cost": cost_tests, "measure": measure_tests}


def all_tests() -> dict[str, Callable]:
    """Every function's tests by name: the checks data/functions.json gives it (a function
    your course's rules judge has test_public_rules.py's instead), each marked with its
    function's marker."""
    tests: dict[str, Callable] = {}
    for function, spec in FUNCTIONS.items():
        marker = getattr(pytest.mark, spec["marker"])
        made = KINDS[spec["kind"]](function, spec) if spec["kind"] in KINDS else {}
        for name, test in (made[check] for check in spec["checks"] if check in made):
            test.__name__ = test.__qualname__ = name
            tests[name] = marker(test)
    return tests


globals().update(all_tests())
