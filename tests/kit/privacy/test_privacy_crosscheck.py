"""The checker against pyCANON (an independent implementation; the `crosscheck` extra:
pip install -e ".[crosscheck]"), on random releases written to files and read back.

Figures both define the same way must agree: k, distinct l, t-closeness (pyCANON: the
ordered distance for a numeric sensitive attribute, the equal distance for a string one),
discernibility, C_avg (pyCANON's average_ecsize with the k reached), the largest prosecutor
risk (max_rir). Known differences, each settled by a hand-made case below:
- entropy l: pyCANON truncates e ** (min entropy) with int(), so two equally frequent values
  give e ** ln 2 = 1.9999999999999998 -> 1; the definition (entropy >= log l) gives 2.
- recursive (c, l): pyCANON sorts a class's counts in ascending order, so its r_1 is the
  smallest count; the definition (Machanavajjhala et al.) takes the largest.
- average risk: pyCANON's average_rir is the mean of 1/|E| over classes; the prosecutor
  average risk (El Emam) is the mean over records, classes / n.
- ordinal strings such as the income ranges: pyCANON uses the equal distance; the ordered
  distance applies (we report both).
"""
from __future__ import annotations

import csv
import math
from importlib.util import find_spec

import numpy as np
import pytest

from reference.check import build_report
from kanon.privacy import entropy_l, load_release, recursive_c, recursive_l
from test_privacy_hand import JOBS

if find_spec("pandas") is None or find_spec("pycanon") is None:
    pytest.skip("pyCANON is not installed: pip install -e '.[crosscheck]'",
                allow_module_level=True)


@pytest.fixture(autouse=True, scope="module")
def _pycanon() -> None:
    """pyCANON and pandas (with scipy, ~2 CPU-s) imported when a test of this file runs, not
    when a parallel run's every worker collects it."""
    global pd, anonymity, metrics
    import pandas as pd
    from pycanon import anonymity, metrics


JOB = {"Engineer": ["Engineer", "Professional", "Any"], "Lawyer": ["Lawyer", "Professional", "Any"],
       "Writer": ["Writer", "Artist", "Any"], "Dancer": ["Dancer", "Artist", "Any"]}
SEX = {"Male": ["Male", "Any"], "Female": ["Female", "Any"]}


def write(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    return str(path)


def random_release(tmp_path, seed: int, numeric: bool):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(12, 50))
    job_level, sex_level = int(rng.integers(0, 3)), int(rng.integers(0, 2))
    raw, anon = [["Job", "Sex", "S"]], [["Job", "Sex", "S"]]
    for _ in range(n):
        job, sex = rng.choice(list(JOB)), rng.choice(list(SEX))
        s = str(rng.integers(1, 6)) if numeric else rng.choice(["flu", "cold", "hiv", "gout"])
        level = job_level + int(rng.random() < 0.2)  # a few rows climb one more level
        raw.append([job, sex, s])
        anon.append([JOB[job][min(level, 2)], SEX[sex][sex_level], s])
    values = {r[2] for r in raw[1:]}
    if len(values) < 2:  # pyCANON's ordered distance divides by m - 1
        raw[1][2] = anon[1][2] = sorted({"1", "2"} - values)[0] if numeric else "other"
    raw_file, anon_file = write(tmp_path / "raw.csv", raw), write(tmp_path / "anon.csv", anon)
    frame = pd.DataFrame(anon[1:], columns=anon[0])
    if numeric:
        frame["S"] = frame["S"].astype(int)
    raw_frame = pd.DataFrame(raw[1:], columns=raw[0])
    return load_release(raw_file, anon_file, str(JOBS / "DGHs")), frame, raw_frame


@pytest.mark.parametrize("seed", range(16))
def test_agrees_with_pycanon(tmp_path, seed):
    numeric = seed % 2 == 0
    release, frame, raw_frame = random_release(tmp_path, seed, numeric)
    rep = build_report(release)
    qi, sa = ["Job", "Sex"], ["S"]
    assert rep["k"] == anonymity.k_anonymity(frame, qi)
    assert rep["distinct_l"] == anonymity.l_diversity(frame, qi, sa)
    t = anonymity.t_closeness(frame, qi, sa)
    assert rep["t_closeness"]["ordered" if numeric else "equal"] == pytest.approx(t, abs=1e-12)
    assert rep["utility"]["discernibility"] == metrics.discernability_metric(raw_frame, frame, qi)
    assert rep["utility"]["C_avg"] == pytest.approx(metrics.average_ecsize(raw_frame, frame, qi))
    assert rep["risk"]["prosecutor_max"] == pytest.approx(metrics.max_rir(frame, qi))
    # the average risk: pyCANON's is over classes, ours over records (see the module docstring)
    sizes = release.sizes
    assert metrics.average_rir(frame, qi) == pytest.approx(np.mean(1 / sizes))
    assert rep["risk"]["prosecutor_avg"] == pytest.approx(len(sizes) / sizes.sum())
    # entropy l: equal unless exp(min entropy) is an integer that int() truncates
    theirs = anonymity.entropy_l_diversity(frame, qi, sa)
    real = rep["entropy_l_real"]
    if abs(real - round(real)) > 1e-9:
        assert rep["entropy_l"] == theirs
    else:
        assert rep["entropy_l"] == round(real) and theirs in (round(real), round(real) - 1)


def frame_of(groups: dict[str, list[str]]):
    rows = [[qi, s] for qi, values in groups.items() for s in values]
    return pd.DataFrame(rows, columns=["Q", "S"])


def test_entropy_difference_by_hand():
    # one class, two values once each: entropy ln 2, so the table is entropy 2-diverse;
    # pyCANON computes e ** (ln 2) = 1.9999999999999998 and truncates it to 1
    frame = frame_of({"a": ["flu", "cold"]})
    assert entropy_l(np.array([[1, 1]])) == 2  # right: ln 2 >= ln 2
    assert anonymity.entropy_l_diversity(frame, ["Q"], ["S"]) == 1


def test_recursive_difference_by_hand():
    # one class with counts (3, 1), l = 2: the smallest c with r_1 < c r_2 is 4 (3 < 4 * 1;
    # 3 < 3 * 1 fails). pyCANON takes r_1 = 1 (ascending order): floor(1 / 3 + 1) = 1, and
    # with c = 1 the class would need 3 < 1, which is false.
    frame = frame_of({"a": ["x", "x", "x", "y"]})
    counts = np.array([[3, 1]])
    assert recursive_c(counts, 2) == 4
    assert recursive_l(counts, 4) == 2 and recursive_l(counts, 3) == 1
    c, l = anonymity.recursive_c_l_diversity(frame, ["Q"], ["S"])
    assert (c, l) == (1, 2)


def test_ordinal_income_difference_by_hand():
    # two classes over the ordered ranges <=50K, (50K, 100K], >100K: pyCANON treats the strings
    # as unordered (equal distance); the ordered distance sees that the first class's values
    # are the two lowest, next to each other
    frame = frame_of({"a": ["<=50K", "(50K, 100K]"], "b": [">100K", ">100K"]})
    t_equal = anonymity.t_closeness(frame, ["Q"], ["S"])
    assert t_equal == pytest.approx(1 / 2)  # class b: P = (0, 0, 1), Q = (1/4, 1/4, 1/2)
    from kanon.privacy import sensitive_domain, t_closeness
    domain, order = sensitive_domain(list(frame["S"]))
    assert order == "ranges" and domain == ["<=50K", "(50K, 100K]", ">100K"]
    counts = np.array([[1, 1, 0], [0, 0, 2]])
    # ordered, class b: r = (-1/4, -1/4, 1/2), prefix sums -1/4, -1/2, 0 -> 3/4 / 2 = 3/8;
    # class a: r = (1/4, 1/4, -1/2) -> 3/8 as well
    assert t_closeness(counts, "ordered") == pytest.approx(3 / 8)
    assert t_closeness(counts, "equal") == pytest.approx(t_equal)
    assert math.isclose(3 / 8, 0.375)


def test_agrees_with_pycanon_on_adult(repo, tmp_path):
    # the bundled data, anonymized by the reference's bottom-up (k = 16, l = 2): pyCANON's
    # t-closeness treats income as unordered, so it equals our equal-distance t
    import reference
    raw, dghs, out = str(repo / "adult-hw1.csv"), str(repo / "DGHs"), str(tmp_path / "o.csv")
    reference.bottomup_anonymizer(raw, dghs, 16, 2, out)
    rep = build_report(load_release(raw, out, dghs))
    frame = pd.read_csv(out, dtype=str, keep_default_na=False)
    qi, sa = rep["quasi_identifiers"], ["income"]
    assert rep["k"] == anonymity.k_anonymity(frame, qi)
    assert rep["distinct_l"] == anonymity.l_diversity(frame, qi, sa)
    assert rep["entropy_l"] == anonymity.entropy_l_diversity(frame, qi, sa)
    assert rep["t_closeness"]["equal"] == pytest.approx(anonymity.t_closeness(frame, qi, sa))
    assert rep["sensitive_order"] == "ranges" and "ordered" in rep["t_closeness"]
