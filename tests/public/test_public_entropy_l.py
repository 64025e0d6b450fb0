"""Public tests of entropy_l (HANDOUT.md, "entropy_l"). They run when your course grades it
(tests/public/course.json); in a folder holding every part's tests, they also run when your
file defines entropy_l, and are skipped otherwise."""
import json

import pytest

from messages import _
from public_cases import (BAD_MEASURES, CASES, EXPECTED, MEASURES, OPTIONAL_SIGNATURES,
                          _timeout)

pytestmark = pytest.mark.entropy_l
FUNCTION = "entropy_l"
EXPECTED_VALUES = json.loads((EXPECTED / "measures.json").read_text(encoding="utf-8"))[FUNCTION]


@pytest.mark.timeout(120)
def test_entropy_l_signature(runner, solution):
    runner.applies(FUNCTION)
    got = solution.parameters(FUNCTION)
    if got != OPTIONAL_SIGNATURES[FUNCTION]:
        pytest.fail(_("{name} must take {wanted}, yours takes {got}").format(
            name=FUNCTION, wanted=OPTIONAL_SIGNATURES[FUNCTION], got=got), pytrace=False)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=_timeout(c.input.case))
                                  for c in MEASURES if c.function == FUNCTION])
def test_entropy_l(case, runner):
    runner.check_cost(FUNCTION, case.input, EXPECTED_VALUES[case.id], case.args)


@pytest.mark.parametrize("case, name, args, column, reason", [
    pytest.param(c, n, a, col, why, id=f"{c}-{n.removesuffix('.csv')}", marks=_timeout(c))
    for f, c, n, a, col, why in BAD_MEASURES if f == FUNCTION])
def test_entropy_l_rejects_bad_input(case, name, args, column, reason, runner):
    runner.check_rejects(FUNCTION, case, ["adult-hw1.csv", name, "DGHs", *args], reason, column,
                         extra_file=CASES / case / name)
