"""Public tests shared by all functions: the signatures, and refusing to overwrite the raw file."""
import pytest

from messages import _
from public_cases import ANONYMIZERS, FUNCTIONS, SIGNATURES, per_function


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", per_function(list(SIGNATURES)))
def test_signature(name, solution, runner):
    runner.applies(name, any_variant=True)  # skipped when your course does not grade it
    got = solution.parameters(name)
    if got != SIGNATURES[name]:
        pytest.fail(_("{name} must take {wanted}, yours takes {got}").format(
            name=name, wanted=SIGNATURES[name], got=got), pytrace=False)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", per_function(ANONYMIZERS))
def test_refuses_to_overwrite_the_raw_file(name, runner):
    runner.applies(name, any_variant=True)
    runner.check_rejects(name, "jobsex", ["adult-hw1.csv", "DGHs", *FUNCTIONS[name]["example"],
                                          "adult-hw1.csv"],
                         _("output_file is the raw dataset file itself"))
