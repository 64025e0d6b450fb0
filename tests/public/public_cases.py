"""The public cases: which function runs on which data with which arguments.

A case folder `data/cases/<case>/` holds `raw.csv` and `DGHs/`; the case `adult` is the
bundle's own `adult-hw1.csv` and `DGHs/`. Each call runs in a fresh folder holding the case's
files as `adult-hw1.csv` and `DGHs` (relative paths, as the grader does). The reference
outputs live in `data/expected/`, `data/expected/costs.json` and `data/expected/measures.json`
(written by make_expected.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from messages import _

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CASES = DATA / "cases"
EXPECTED = DATA / "expected"
ROOT = HERE.parents[1]  # the folder holding skeleton.py, adult-hw1.csv and DGHs/
ADULT = "adult"

SHORT = {"cost_MD": "cost_MD", "cost_LM": "cost_LM", "random_anonymizer": "random",
         "clustering_anonymizer": "clustering", "bottomup_anonymizer": "bottomup",
         "samarati": "samarati", "mondrian": "mondrian", "topdown_anonymizer": "topdown",
         "datafly": "datafly", "entropy_l": "entropy_l", "t_closeness": "t_closeness",
         "topdown_greedy": "greedy", "kaca": "kaca"}
"""Graded function -> the marker (and -k name) of its tests."""

OPTIONAL = ("topdown_anonymizer", "datafly", "entropy_l", "t_closeness", "topdown_greedy", "kaca")
"""Functions beyond the seven of the default homework: their tests run when your course's
rubric grades them (tests/public/course.json) or when your file implements them; otherwise
they are skipped."""

INTERVALS = ("mondrian", "topdown_greedy")
"""The functions whose numeric QI cells may be intervals [lo-hi]."""

EXTRA = {"random_anonymizer": "s", "bottomup_anonymizer": "l", "samarati": "max_sup"}
"""The fifth parameter of the anonymizers that have one."""

ANONYMIZERS = [f for f in SHORT if f not in ("cost_MD", "cost_LM") and f not in OPTIONAL]


def case_files(case: str) -> tuple[Path, Path]:
    """(raw dataset, DGH folder) of a case."""
    if case == ADULT:
        return ROOT / "adult-hw1.csv", ROOT / "DGHs"
    return CASES / case / "raw.csv", CASES / case / "DGHs"


@dataclass(frozen=True)
class Run:
    """One anonymizer call: function(raw, DGHs, k, [extra,] output). Row numbers in notes are
    data rows from 1, the header not counted (HANDOUT.md, "Background")."""

    function: str
    case: str
    k: int
    extra: int | None = None
    note: str = ""
    variant: str | None = None  # a rule variant (the handout of a course that grades them), e.g. "lm-only"

    @property
    def id(self) -> str:
        extra = "" if self.extra is None else f"-{EXTRA[self.function]}{self.extra}"
        variant = f"{self.variant}-" if self.variant else ""
        return f"{variant}{self.case}-k{self.k}{extra}"

    @property
    def expected(self) -> Path:
        suffix = ".csv.gz" if self.case == ADULT else ".csv"
        return EXPECTED / f"{SHORT[self.function]}-{self.id}{suffix}"

    def describe(self) -> str:
        extra = "" if self.extra is None else f", {EXTRA[self.function]}={self.extra}"
        variant = _(" with the {variant} variant").format(variant=self.variant) \
            if self.variant else ""
        return _("{call}{variant} on case {case!r}").format(
            call=f"{self.function}(k={self.k}{extra})", variant=variant, case=self.case)

    def args(self, raw: str, dghs: str, output: str) -> list:
        extra = [] if self.extra is None else [self.extra]
        return [raw, dghs, self.k, *extra, output]


@dataclass(frozen=True)
class CostCase:
    """cost_MD and cost_LM of an anonymized file: a file of the case folder, or (adult) the
    expected output of a Run."""

    case: str
    anonymized: str  # file name in data/cases/<case>/ (adult: in data/expected/, a Run's output)
    note: str = ""
    name: str = ""  # the id's second part, when not the file name

    @property
    def id(self) -> str:
        return f"{self.case}-{self.name or self.anonymized.removesuffix('.csv')}"

    def anonymized_path(self) -> Path:
        return (EXPECTED if self.case == ADULT else CASES / self.case) / self.anonymized


@dataclass(frozen=True)
class MeasureCase:
    """entropy_l or t_closeness of a CostCase's anonymized file."""

    function: str
    input: CostCase
    distance: str | None = None  # t_closeness's ground distance

    @property
    def id(self) -> str:
        return self.input.id + (f"-{self.distance}" if self.distance else "")

    @property
    def args(self) -> tuple:
        """The arguments after the DGH folder."""
        return () if self.distance is None else (self.distance,)


@dataclass(frozen=True)
class BadCall:
    """A call that must raise ValueError."""

    function: str
    case: str
    args: tuple  # the arguments between the DGH folder and the output file
    reason: str

    @property
    def id(self) -> str:
        return f"{self.case}-" + "-".join(str(a) for a in self.args)


RUNS: list[Run] = [
    # random: n not a multiple of k (the last EC takes the rest), a seed other than 0, n == k
    Run("random_anonymizer", "jobsex", 3, 7, "10 rows: ECs of 3, 3 and 4"),
    Run("random_anonymizer", "world", 5, 42, "12 rows: ECs of 5 and 7"),
    Run("random_anonymizer", "world", 12, 0, "one EC of every row"),
    Run("random_anonymizer", ADULT, 8, 2026),
    # clustering: ties between equally near records, leftovers joining the nearest centroid
    Run("clustering_anonymizer", "jobsex", 2),
    Run("clustering_anonymizer", "jobsex", 3, note="one leftover record"),
    Run("clustering_anonymizer", "world", 4),
    Run("clustering_anonymizer", "world", 5, note="two leftover records"),
    Run("clustering_anonymizer", "mdscale", 2,
        note="MD_dist / (2 * sum of heights): without the division row 2 looks nearest to row 1"),
    Run("clustering_anonymizer", ADULT, 16),
    # bottom-up: lowest LM at the first satisfying level, l-diversity, lexicographic ties
    Run("bottomup_anonymizer", "lattice", 2, 1, "(0,1) and (1,0) satisfy; (1,0) has lower LM"),
    Run("bottomup_anonymizer", "lattice", 2, 2, "l = 2 moves the answer up to (1,1)"),
    Run("bottomup_anonymizer", "tie4", 2, 1, "(0,1) and (1,0) tie: lexicographic order"),
    Run("bottomup_anonymizer", "world", 3, 2),
    Run("bottomup_anonymizer", "jobsex", 2, 2),
    Run("bottomup_anonymizer", ADULT, 16, 2),
    # samarati: suppression of outliers, lowest LM among the nodes at the lowest height
    Run("samarati", "sam", 2, 0, "height 2: (2,0) has lower LM than (1,1)"),
    Run("samarati", "sam", 2, 2, "height 0 with two rows suppressed"),
    Run("samarati", "supp", 2, 1, "(1,0) has the lower LM before suppression, (0,1) after"),
    Run("samarati", "world", 3, 2),
    Run("samarati", "jobsex", 3, 1),
    Run("samarati", ADULT, 16, 100),
    # mondrian: lower median, width ties (column order), categorical cuts, intervals
    Run("mondrian", "grid", 2, note="every width ties at the start: column order"),
    Run("mondrian", "grid", 3),
    Run("mondrian", "world", 2),
    Run("mondrian", "world", 3),
    Run("mondrian", "jobsex", 2),
    Run("mondrian", ADULT, 8),
    # beyond the default homework (run when the course grades them or the solution has them)
    # topdown: fewest children, then L1 distance of the shares to uniform, then leftmost QI
    Run("topdown_anonymizer", "jobsex", 2, note="the handout's example: Sex (L1 0) beats Job "
                                                "(L1 0.2); each node decides on its own"),
    Run("topdown_anonymizer", "jobsex", 3),
    Run("topdown_anonymizer", "world", 2),
    Run("topdown_anonymizer", "world", 3),
    Run("topdown_anonymizer", "grid", 2),
    Run("topdown_anonymizer", "mdscale", 1, note="k = 1: specialize down to the raw values"),
    Run("topdown_anonymizer", ADULT, 8),
    # datafly: the QI with the most distinct values climbs (ties: leftmost), no suppression
    Run("datafly", "jobsex", 2, note="the handout's example: Job (4 values) climbs first"),
    Run("datafly", "jobsex", 3),
    Run("datafly", "world", 2),
    Run("datafly", "world", 3),
    Run("datafly", "lattice", 2),
    Run("datafly", "tie4", 2, note="two QIs with as many distinct values: the leftmost climbs"),
    Run("datafly", ADULT, 16),
    # topdown_greedy: NCP distances, three rounds for the pair, u's group on ties, balancing
    Run("topdown_greedy", "jobsex", 3, note="the handout's example: {3} takes rows 1 and 9"),
    Run("topdown_greedy", "jobsex", 2),
    Run("topdown_greedy", "world", 2, note="intervals for age, DGH nodes for city"),
    Run("topdown_greedy", "world", 3),
    Run("topdown_greedy", "grid", 2, note="two numeric QIs: [lo-hi] or the raw value"),
    Run("topdown_greedy", "mdscale", 2),
    Run("topdown_greedy", ADULT, 8),
    # kaca: the earliest small class merges with its nearest class (WHD, every record counted)
    Run("kaca", "jobsex", 2, note="the handout's example: (Writer, Any) for rows 5 and 8"),
    Run("kaca", "jobsex", 3),
    Run("kaca", "world", 2),
    Run("kaca", "world", 3),
    Run("kaca", "grid", 2),
    Run("kaca", "lattice", 2),
    Run("kaca", "tie4", 2, note="equal distances: the class with the lowest first record"),
    Run("kaca", ADULT, 8),
    # clustering with the LM-only distance (a rubric part with variant = "lm-only")
    Run("clustering_anonymizer", "jobsex", 3, variant="lm-only"),
    Run("clustering_anonymizer", "world", 4, variant="lm-only"),
    Run("clustering_anonymizer", "world", 5, variant="lm-only"),
    Run("clustering_anonymizer", "mdscale", 2, variant="lm-only",
        note="without the MD term row 2 (LM_dist 1/2) and row 4 (3/8): row 4 still wins"),
]

COSTS: list[CostCase] = [
    CostCase("jobsex", "anon-example.csv", "the handout's worked example"),
    CostCase("world", "anon-mixed.csv", "labels, intervals and a row of roots only"),
    CostCase("world", "raw.csv", "the raw table itself: both costs are 0"),
    CostCase(ADULT, "random-adult-k8-s2026.csv.gz", "every QI generalized to LCAs", "levels"),
    CostCase(ADULT, "mondrian-adult-k8.csv.gz", "age intervals, other QIs LCAs", "intervals"),
]

_DISEASE = CostCase("disease", "anon-example.csv",
                   "the handout's example (Beyond k-anonymity): ECs A, B, C")
_CODES = CostCase("disease-codes", "anon-example.csv",
                  "the same with Disease coded 1 Flu, 2 Cold, 3 HIV, 4 Cancer")
_ADULT_L2 = CostCase(ADULT, "bottomup-adult-k16-l2.csv.gz", "an output with k = 16, l = 2",
                     "bottomup")
MEASURES: list[MeasureCase] = [
    # entropy_l: exp(min over the ECs of the entropy of the sensitive values)
    MeasureCase("entropy_l", _DISEASE),  # exp(ln 3 - (2/3) ln 2) = 1.8899
    MeasureCase("entropy_l", COSTS[0]),  # jobsex: a one-value EC, l = 1
    MeasureCase("entropy_l", COSTS[1]),  # world: intervals and labels
    MeasureCase("entropy_l", _ADULT_L2),
    # t_closeness: the largest EMD of an EC's sensitive values from the table's
    MeasureCase("t_closeness", _DISEASE, "equal"),  # 1/2
    MeasureCase("t_closeness", _CODES, "equal"),  # 1/2
    MeasureCase("t_closeness", _CODES, "ordered"),  # 31/72
    MeasureCase("t_closeness", COSTS[0], "equal"),
    MeasureCase("t_closeness", COSTS[1], "equal"),
    MeasureCase("t_closeness", _ADULT_L2, "equal"),
]

BAD_MEASURES: list[tuple[str, str, str, tuple, str | None, str]] = [
    # (function, case, anonymized file, arguments after the DGH folder, column the error must
    # name or None, why)
    ("entropy_l", "jobsex", "anon-not-ancestor.csv", (), "Job",
     _("a cell is not a generalization of its raw value")),
    ("t_closeness", "jobsex", "anon-not-ancestor.csv", ("equal",), "Job",
     _("a cell is not a generalization of its raw value")),
    ("t_closeness", "disease", "anon-example.csv", ("ordered",), None,
     _("Flu, Cold, HIV, Cancer are not numbers: no ordered distance")),
    ("t_closeness", "disease", "anon-example.csv", ("hierarchical",), None,
     _("the graded distances are 'equal' and 'ordered'")),
]

BAD_CALLS: list[BadCall] = [
    BadCall("random_anonymizer", "jobsex", (11, 0), "n = 10 < k = 11"),
    BadCall("random_anonymizer", "jobsex", (True, 0),
            _("k must be an integer, and bool is not")),
    BadCall("clustering_anonymizer", "jobsex", (11,), "n = 10 < k = 11"),
    BadCall("bottomup_anonymizer", "lattice", (2, 3), _("only 2 distinct S values: l = 3 fails "
                                                        "even at the top of the lattice")),
    BadCall("bottomup_anonymizer", "lattice", (0, 1), "k < 1"),
    BadCall("samarati", "sam", (7, 0), _("6 rows < k = 7 and nothing may be suppressed")),
    BadCall("samarati", "sam", (2, -1), "max_sup < 0"),
    BadCall("mondrian", "jobsex", (11,), "n = 10 < k = 11"),
    BadCall("topdown_anonymizer", "jobsex", (11,), "n = 10 < k = 11"),
    BadCall("topdown_anonymizer", "jobsex", (0,), "k < 1"),
    BadCall("datafly", "jobsex", (11,), "n = 10 < k = 11"),
    BadCall("datafly", "jobsex", (True,), _("k must be an integer, and bool is not")),
    BadCall("topdown_greedy", "jobsex", (11,), "n = 10 < k = 11"),
    BadCall("topdown_greedy", "jobsex", (0,), "k < 1"),
    BadCall("kaca", "jobsex", (11,), "n = 10 < k = 11"),
    BadCall("kaca", "jobsex", (2.0,), _("k must be an integer")),
]

BAD_COSTS: list[tuple[str, str, str]] = [
    # (case, anonymized file, column the error must name)
    ("jobsex", "anon-not-ancestor.csv", "Job"),
    ("world", "anon-interval-outside.csv", "age"),
]


SIGNATURES = {
    "cost_MD": "(raw_dataset_file, anonymized_dataset_file, DGH_folder)",
    "cost_LM": "(raw_dataset_file, anonymized_dataset_file, DGH_folder)",
    "random_anonymizer": "(raw_dataset_file, DGH_folder, k, s, output_file)",
    "clustering_anonymizer": "(raw_dataset_file, DGH_folder, k, output_file)",
    "bottomup_anonymizer": "(raw_dataset_file, DGH_folder, k, l, output_file)",
    "samarati": "(raw_dataset_file, DGH_folder, k, max_sup, output_file)",
    "mondrian": "(raw_dataset_file, DGH_folder, k, output_file)",
}
"""The parameters every solution must have, in order."""


def _timeout(case: str):
    """pytest-timeout's limit of a test: a safety net for the self-check itself, twice the
    longest a call of your code may run (course_rules.stop_limit)."""
    return pytest.mark.timeout(600 if case == ADULT else 120)


def runs(function: str) -> list:
    """pytest params of the Runs of one function, under the rules your course grades it
    with (the handout's, or the rule variant course.json names)."""
    import course_rules
    wanted = course_rules.variant(function)
    return [pytest.param(r, id=r.id, marks=_timeout(r.case)) for r in RUNS
            if r.function == function and r.variant == wanted]


OPTIONAL_SIGNATURES = {"topdown_anonymizer": "(raw_dataset_file, DGH_folder, k, output_file)",
                       "datafly": "(raw_dataset_file, DGH_folder, k, output_file)",
                       "entropy_l": "(raw_dataset_file, anonymized_dataset_file, DGH_folder)",
                       "t_closeness": "(raw_dataset_file, anonymized_dataset_file, DGH_folder, "
                                      "distance)",
                       "topdown_greedy": "(raw_dataset_file, DGH_folder, k, output_file)",
                       "kaca": "(raw_dataset_file, DGH_folder, k, output_file)"}
"""The parameters of the functions beyond the default homework."""


def bad_calls(function: str) -> list:
    """pytest params of the BadCalls of one function."""
    return [pytest.param(b, id=b.id, marks=_timeout(b.case)) for b in BAD_CALLS
            if b.function == function]


def per_function(functions: list[str]) -> list:
    """pytest params of the names of the functions your course grades, each with its
    marker."""
    import course_rules
    return [pytest.param(f, id=f, marks=getattr(pytest.mark, SHORT[f])) for f in functions
            if course_rules.graded(f, optional=f in OPTIONAL)]
