"""check_mondrian on hand-computed examples: every rule broken alone, two cut orders both
right, a categorical QI, hidden messages.

LAB is the lab's example: ages [1, 2, 3, 3, 4, 5], k = 2. The strict median (position
(6-1)//2 = 2 of the sorted values: 3) cuts [1, 2, 3, 3] | [4, 5]; [1, 2, 3, 3] cuts again
at 2 into [1, 2] | [3, 3]; nothing more is allowable. So the right answer is [1-2] x 2,
3 x 2, [4-5] x 2; the relaxed median's [1, 2, 3] | [3, 4, 5] is wrong.
"""
from __future__ import annotations

import pytest
from rules_brute import as_table, release_of, tree

from kcheck.rules import Broken, check_mondrian
from kcheck.tables import Table

AGES = ["1", "2", "3", "3", "4", "5"]
JOBS = list("abcdef")
AGE = tree("age", ("*", sorted(set(AGES))))
LAB = release_of([AGE], ["age", "job"], [[a, j] for a, j in zip(AGES, JOBS)], [0], [0, 1])
RIGHT = ["[1-2]", "[1-2]", "3", "3", "[4-5]", "[4-5]"]


def lab(cells: list[str]) -> list[list[str]]:
    return [[c, j] for c, j in zip(cells, JOBS)]


def broken(release, rows, k=2, hidden=False) -> list[Broken]:
    return check_mondrian(release, k, as_table(release, rows), hidden)


def only(release, rows, k=2, hidden=False) -> Broken:
    found = broken(release, rows, k, hidden)
    assert len(found) == 1, found
    return found[0]


def test_the_labs_strict_median_is_right() -> None:
    assert broken(LAB, lab(RIGHT)) == []


def test_the_relaxed_median_breaks_median_cuts() -> None:
    b = only(LAB, lab(["[1-3]"] * 3 + ["[3-5]"] * 3))
    assert b.rule == "median-cuts"
    assert "the whole table (6 rows)" in b.message
    assert "age: the median cut (<= 3) splits the class of data row 4" in b.message


def test_final_stopping_too_early() -> None:
    b = only(LAB, lab(["[1-3]"] * 4 + ["[4-5]"] * 2))
    assert b.rule == "final"
    assert "the class of data row 1 (4 rows)" in b.message and "'age'" in b.message


def test_exact_a_range_wider_than_the_class() -> None:
    b = only(LAB, lab(RIGHT[:4] + ["[4-6]"] * 2))
    assert b.rule == "exact"
    assert "the class of data row 5 (2 rows), column 'age'" in b.message
    assert "'[4-6]'" in b.message and "'[4-5]'" in b.message


def test_exact_an_interval_where_min_equals_max() -> None:
    b = only(LAB, lab(RIGHT[:2] + ["[3-3.5]"] * 2 + RIGHT[4:]))
    assert b.rule == "exact" and "data row 3" in b.message


def test_cover_and_exact() -> None:
    found = broken(LAB, lab(RIGHT[:4] + ["[5-6]"] * 2))
    assert [b.rule for b in found] == ["cover", "exact"]
    assert "data row 5, column 'age'" in found[0].message
    assert "'4'" in found[0].message


def test_cover_a_cell_that_is_no_cell() -> None:
    b = broken(LAB, lab(RIGHT[:5] + ["five"]))[0]
    assert b.rule == "cover" and "data row 6" in b.message and "nor an interval" in b.message


def test_k_alone() -> None:
    b = only(LAB, lab(["1", "2", "3", "3", "[4-5]", "[4-5]"]))
    assert b.rule == "k"
    assert "the class of data row 1 has 1 row(s)" in b.message and "k = 2" in b.message


def test_columns() -> None:
    wrong_header = Table("output", ["age", "occupation"], lab(RIGHT))
    assert [b.rule for b in check_mondrian(LAB, 2, wrong_header)] == ["columns"]
    assert only(LAB, lab(RIGHT)[:5]).rule == "columns"
    b = only(LAB, lab(RIGHT)[:3] + [["3", "x"]] + lab(RIGHT)[4:])
    assert b.rule == "columns" and "data row 4, column 'job'" in b.message
    assert "'x'" in b.message and "'d'" in b.message


# Two cut orders: (age, edu) = (1,1), (1,2), (2,1), (2,2), k = 2. Cutting age first gives
# classes by age; cutting edu first gives classes by edu. Both end there.
EDU = tree("edu", ("*", ["1", "2"]))
GRID = release_of([AGE, EDU], ["age", "edu", "job"],
                  [["1", "1", "a"], ["1", "2", "b"], ["2", "1", "c"], ["2", "2", "d"]],
                  [0, 1], [0, 1, 2])


def test_two_cut_orders_are_both_right() -> None:
    by_age = [["1", "[1-2]", "a"], ["1", "[1-2]", "b"], ["2", "[1-2]", "c"],
              ["2", "[1-2]", "d"]]
    by_edu = [["[1-2]", "1", "a"], ["[1-2]", "2", "b"], ["[1-2]", "1", "c"],
              ["[1-2]", "2", "d"]]
    assert broken(GRID, by_age) == [] and broken(GRID, by_edu) == []
    whole = [["[1-2]", "[1-2]", j] for j in "abcd"]
    assert [b.rule for b in broken(GRID, whole)] == ["final"]
    assert broken(GRID, whole, k=3) == []  # k = 3: no cut is allowable
    assert [b.rule for b in broken(GRID, by_age, k=3)] == ["k", "final"][:1]


SEX = tree("sex", ("*", [("M*", ["M1", "M2"]), "F"]))
MIXED = release_of([AGE, SEX], ["age", "sex", "job"],
                   [["1", "M1", "a"], ["2", "F", "b"], ["1", "M2", "c"], ["2", "F", "d"],
                    ["1", "M1", "e"], ["2", "M2", "f"]], [0, 1], [0, 1, 2])


def test_a_categorical_qi() -> None:
    # age cut at 1: [1,1,1] | [2,2,2]; sex cut: M* {a,c,e,f} | F {b,d}; k = 2
    by_age = [["1", "M*", "a"], ["2", "*", "b"], ["1", "M*", "c"], ["2", "*", "d"],
              ["1", "M*", "e"], ["2", "*", "f"]]
    assert broken(MIXED, by_age) == []
    # sex first: M* {a, c, e, f} | F {b, d}; on {a, c, e, f} age is not allowable ([1, 1, 1]
    # | [2]) but sex is: M1 {a, e} | M2 {c, f}
    by_sex = [["1", "M1", "a"], ["2", "F", "b"], ["[1-2]", "M2", "c"], ["2", "F", "d"],
              ["1", "M1", "e"], ["[1-2]", "M2", "f"]]
    assert broken(MIXED, by_sex) == []
    not_lca = [row[:] for row in by_age]
    for row in not_lca:
        row[1] = "*" if row[1] == "M*" else row[1]
    b = only(MIXED, not_lca)
    assert b.rule == "exact" and "lowest common ancestor" in b.message
    assert "'M*'" in b.message


def test_categorical_final_and_why_not() -> None:
    whole = [["[1-2]", "*", j] for j in "abcdef"]
    b = only(MIXED, whole)
    assert b.rule == "final" and "children of its LCA" not in b.message  # age cuts first
    split_m = [["1", "M*", "a"], ["2", "*", "b"], ["1", "M*", "c"], ["2", "*", "d"],
               ["1", "M1", "e"], ["2", "*", "f"]]
    found = broken(MIXED, split_m)  # {a, c} and {e}: cells exact, {e} too small
    assert [f.rule for f in found] == ["k"]
    assert "the class of data row 5 has 1 row(s) (data rows 5)" in found[0].message


def test_median_cuts_names_the_partition_with_no_usable_cut() -> None:
    # ages 1..8, k = 2: median 4 cuts [1-4] | [5-8]; a class [3-6] straddles every cut
    ages = [str(a) for a in range(1, 9)]
    release = release_of([tree("age", ("*", ages))], ["age", "job"],
                         [[a, "j"] for a in ages], [0], [0, 1])
    cells = ["[1-2]"] * 2 + ["[3-6]"] * 4 + ["[7-8]"] * 2
    b, final = broken(release, [[c, "j"] for c in cells])  # and [3-6] could be cut
    assert b.rule == "median-cuts" and "splits the class of data row 3" in b.message
    assert final.rule == "final" and "the class of data row 3 (4 rows)" in final.message
    deeper = ["[1-2]"] * 2 + ["[3-4]"] * 2 + ["5", "[6-7]", "[6-7]", "8"]
    found = broken(release, [[c, "j"] for c in deeper])
    assert [f.rule for f in found] == ["k"]
    wrong_sub = ["1", "[2-4]", "[2-4]", "[2-4]", "[5-6]", "[5-6]", "[7-8]", "[7-8]"]
    found = broken(release, [[c, "j"] for c in wrong_sub], k=1)
    assert [f.rule for f in found] == ["median-cuts", "final"]
    assert "the partition of the classes of data rows 1, 2" in found[0].message
    assert "(4 rows)" in found[0].message


def test_hidden_messages_show_no_cell_value() -> None:
    cases = [lab(["[1-3]"] * 3 + ["[3-5]"] * 3), lab(RIGHT[:4] + ["[4-6]"] * 2),
             lab(RIGHT[:4] + ["[5-6]"] * 2), lab(RIGHT[:5] + ["five"]),
             lab(RIGHT)[:3] + [["3", "x"]] + lab(RIGHT)[4:]]
    values = set(AGES) | set(JOBS) | {"x", "five", "[4-6]", "[5-6]", "[1-3]", "[3-5]",
                                      "[4-5]"}
    for rows in cases:
        open_ = broken(LAB, rows)
        hidden = broken(LAB, rows, hidden=True)
        assert [b.rule for b in hidden] == [b.rule for b in open_]
        assert any(v in b.message for b in open_ for v in values)
        for b in hidden:
            assert not [v for v in values if f"'{v}'" in b.message], b.message
            assert "<=" not in b.message


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        check_mondrian(LAB, 0, as_table(LAB, lab(RIGHT)))


def test_an_empty_raw_table() -> None:
    empty = release_of([AGE], ["age", "job"], [], [0], [0, 1])
    assert broken(empty, []) == []
    assert [b.rule for b in broken(empty, [["1", "a"]])] == ["columns"]


def test_numeric_cells_must_be_intervals_not_labels() -> None:
    b = only(LAB, lab(RIGHT[:4] + ["*"] * 2))  # '*' covers, but is not [4-5]
    assert b.rule == "exact" and "data row 5" in b.message
    found = broken(LAB, lab(RIGHT[:2] + ["[3-3]"] * 2 + RIGHT[4:]))
    assert [f.rule for f in found] == ["cover", "exact"]
    assert "lo < hi" in found[0].message


def test_the_cut_search_gives_up_after_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    import kcheck.rules.mondrian as checker
    from kcheck.rules.cuts import search
    from kcheck.rules.partitions import Classes
    from kcheck.rules.release import raw_codes

    qi = checker._qi(LAB, 0, raw_codes(LAB)[0])
    classes = Classes([qi], [0, 0, 1, 1, 2, 2], 2)
    assert search(classes) == (None, False)
    dead, gave_up = search(classes, budget=1)
    assert gave_up and list(dead) == [0, 1, 2]
    monkeypatch.setattr(checker, "search", lambda c: search(c, budget=1))
    b = only(LAB, lab(RIGHT))
    assert b.rule == "median-cuts" and "within the search's limit" in b.message
