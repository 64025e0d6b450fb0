"""Public tests of cost_MD and cost_LM (HANDOUT.md, "Costs")."""
import json

import pytest

from messages import _
from public_cases import BAD_COSTS, CASES, COSTS, EXPECTED, _timeout

EXPECTED_COSTS = json.loads((EXPECTED / "costs.json").read_text(encoding="utf-8"))


def cases(marker: str) -> list:
    return [pytest.param(c, id=c.id, marks=[getattr(pytest.mark, marker), _timeout(c.case)])
            for c in COSTS]


def bad(marker: str) -> list:
    return [pytest.param(case, name, column, id=f"{case}-{name.removesuffix('.csv')}",
                         marks=[getattr(pytest.mark, marker), _timeout(case)])
            for case, name, column in BAD_COSTS]


@pytest.mark.parametrize("case", cases("cost_MD"))
def test_cost_MD(case, runner):
    runner.check_cost("cost_MD", case, EXPECTED_COSTS[case.id]["cost_MD"])


@pytest.mark.parametrize("case", cases("cost_LM"))
def test_cost_LM(case, runner):
    runner.check_cost("cost_LM", case, EXPECTED_COSTS[case.id]["cost_LM"])


@pytest.mark.parametrize("case, name, column", bad("cost_MD"))
def test_cost_MD_rejects_invalid_cell(case, name, column, runner):
    runner.check_rejects("cost_MD", case, ["adult-hw1.csv", name, "DGHs"],
                         _("a cell is not a generalization of its raw value"), column,
                         extra_file=CASES / case / name)


@pytest.mark.parametrize("case, name, column", bad("cost_LM"))
def test_cost_LM_rejects_invalid_cell(case, name, column, runner):
    runner.check_rejects("cost_LM", case, ["adult-hw1.csv", name, "DGHs"],
                         _("a cell is not a generalization of its raw value"), column,
                         extra_file=CASES / case / name)
