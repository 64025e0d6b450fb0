"""check_samarati on hand-computed examples: every rule broken alone, two right answers of the
same lowest height, unbalanced hierarchies, hidden messages.

The table (age, sex, job; QIs age and sex, job the sensitive column):

    1: 21 M a    2: 22 M b    3: 21 F c    4: 22 F d    (5: 30 M e, in FIVE only)

age: * > [20-24] > 21, 22 and * > [30-34] > 30 (height 2); sex: * > M, F (height 1).
FOUR, k = 2, max_sup = 0: (0,0) leaves 4 outliers; (1,0) gives ([20-24], M) x 2 and
([20-24], F) x 2, (0,1) gives (21, *) x 2 and (22, *) x 2: two right answers of height 1.
FIVE, k = 2: (1,0) and (0,1) each leave record 5 alone (1 outlier); with max_sup = 1 both are
right (record 5 deleted); with max_sup = 0 height 1 fails and (2,0) (3 x M, 2 x F) is the
only vector of height 2 that satisfies ((1,1) leaves record 5 alone).
"""
from __future__ import annotations

import pytest
from rules_brute import as_table, release_of, tree

from kcheck.rules import Broken, check_samarati
from kcheck.tables import Table

AGE = tree("age", ("*", [("[20-24]", ["21", "22"]), ("[30-34]", ["30"])]))
SEX = tree("sex", ("*", ["M", "F"]))
ROWS = [["21", "M", "a"], ["22", "M", "b"], ["21", "F", "c"], ["22", "F", "d"],
        ["30", "M", "e"]]
FOUR = release_of([AGE, SEX], ["age", "sex", "job"], ROWS[:4], [0, 1], [0, 1, 2])
FIVE = release_of([AGE, SEX], ["age", "sex", "job"], ROWS, [0, 1], [0, 1, 2])

BY_AGE = [["[20-24]", "M", "a"], ["[20-24]", "M", "b"], ["[20-24]", "F", "c"],
          ["[20-24]", "F", "d"]]  # vector (1, 0)
BY_SEX = [["21", "*", "a"], ["22", "*", "b"], ["21", "*", "c"], ["22", "*", "d"]]  # (0, 1)


def rules(release, rows, k=2, max_sup=0, hidden=False) -> list[str]:
    return [b.rule for b in check_samarati(release, k, max_sup, as_table(release, rows),
                                           hidden)]


def only(release, rows, k=2, max_sup=0, hidden=False) -> Broken:
    broken = check_samarati(release, k, max_sup, as_table(release, rows), hidden)
    assert len(broken) == 1, broken
    return broken[0]


@pytest.mark.parametrize("rows", [BY_AGE, BY_SEX])
def test_two_vectors_of_the_lowest_height_are_both_right(rows) -> None:
    assert rules(FOUR, rows) == []


@pytest.mark.parametrize("rows", [BY_AGE, BY_SEX])
def test_deleting_exactly_the_outliers_is_right(rows) -> None:
    assert rules(FIVE, rows, max_sup=1) == []


def test_columns_header() -> None:
    out = Table("output", ["age", "sex", "occupation"], BY_AGE)
    broken = check_samarati(FOUR, 2, 0, out)
    assert [b.rule for b in broken] == ["columns"]
    assert "['age', 'sex', 'job']" in broken[0].message


def test_columns_too_many_rows() -> None:
    assert only(FOUR, BY_AGE + [BY_AGE[0]]).rule == "columns"


def test_columns_sensitive_cell_names_the_row_and_its_record() -> None:
    rows = [BY_SEX[0], BY_SEX[1], ["21", "*", "x"], BY_SEX[3]]
    b = only(FOUR, rows)
    assert b.rule == "columns"
    assert "data row 3 of the output" in b.message and "raw data row 3" in b.message
    assert "'job'" in b.message and "'x'" in b.message and "'c'" in b.message


def test_columns_sensitive_cell_after_a_deletion_aligns_by_the_vector() -> None:
    rows = [["[20-24]", "M", "a"], ["[20-24]", "M", "b"], ["[20-24]", "F", "c"],
            ["[20-24]", "F", "e"]]
    b = only(FIVE, rows, max_sup=1)
    assert b.rule == "columns" and "data row 4 of the output" in b.message
    assert "raw data row 4" in b.message


def test_full_domain_two_levels_in_one_column() -> None:
    rows = [BY_AGE[0], ["22", "M", "b"], BY_AGE[2], BY_AGE[3]]
    b = only(FOUR, rows)
    assert b.rule == "full-domain"
    assert "data rows 1 and 2 of the output" in b.message and "'age'" in b.message
    assert "level 1" in b.message and "level 0" in b.message


def test_full_domain_suppressing_by_roots_instead_of_deleting() -> None:
    """A record written with '*' QI cells instead of deleted: both rules name its row and
    say it is deleted (a hidden case: no label)."""
    rows = BY_AGE + [["*", "*", "e"]]
    for hidden in (False, True):
        broken = check_samarati(FIVE, 2, 1, as_table(FIVE, rows), hidden)
        assert [b.rule for b in broken] == ["full-domain", "deletion"]
        assert all("data row 5 of the output" in b.message for b in broken)
        assert "deleted" in broken[0].message and "deleted" in broken[1].message
        assert ("('*', '*')" in broken[0].message) is not hidden
    rows = [["[20-24]", "M", "a"], ["*", "*", "b"], ["21", "F", "c"]]  # not only the '*' row
    assert rules(FIVE, rows, max_sup=1) == ["full-domain"]


def test_full_domain_a_cell_that_is_no_label() -> None:
    rows = [BY_AGE[0], BY_AGE[1], ["[20-25]", "F", "c"], BY_AGE[3]]
    b = only(FOUR, rows)
    assert b.rule == "full-domain"
    assert "data row 3 of the output, column 'age'" in b.message and "'[20-25]'" in b.message


def test_full_domain_a_combination_no_record_has() -> None:
    rows = [BY_AGE[0], BY_AGE[1], ["[30-34]", "F", "c"], BY_AGE[3]]
    b = only(FIVE, rows, max_sup=1)  # every cell is at a right level, but row 3 is no record's
    assert b.rule == "full-domain" and "data row 3 of the output" in b.message
    assert "raw data row 3" in b.message and "'[20-24]'" in b.message
    assert "column 'age'" in b.message


def test_deletion_a_record_released_twice() -> None:
    rows = [["21", "*", "a"], ["22", "*", "b"], ["22", "*", "c"], ["22", "*", "d"]]
    b = only(FOUR, rows)  # (22, *) has two records
    assert b.rule == "deletion" and "data row 4 of the output" in b.message


def test_satisfies_alone() -> None:
    b = only(FIVE, BY_AGE, max_sup=0)  # (1, 0): 1 outlier > 0; height 1 is not too high
    assert b.rule == "satisfies"
    assert "(age 1, sex 0)" in b.message and "1 outliers" in b.message
    assert "max_sup = 0" in b.message


def test_lowest_height_alone_names_a_lower_vector() -> None:
    rows = [["[20-24]", "*", job] for job in "abcd"]  # (1, 1): satisfies, height 2
    b = only(FOUR, rows)
    assert b.rule == "lowest-height"
    assert "(age 1, sex 1)" in b.message and "height 2" in b.message
    assert "(age 0, sex 1) of height 1" in b.message


def test_the_right_answer_of_five_without_suppression() -> None:
    rows = [["*", "M", "a"], ["*", "M", "b"], ["*", "F", "c"], ["*", "F", "d"],
            ["*", "M", "e"]]
    assert rules(FIVE, rows, max_sup=0) == []
    assert rules(FIVE, rows, max_sup=1) == ["lowest-height"]


def test_deletion_an_outlier_kept() -> None:
    rows = BY_AGE + [["[30-34]", "M", "e"]]
    b = only(FIVE, rows, max_sup=1)
    assert b.rule == "deletion"
    assert "raw data row 5 is an outlier of vector (age 1, sex 0)" in b.message
    assert "data row 5 of the output" in b.message


def test_deletion_a_record_left_out() -> None:
    rows = [BY_AGE[0], BY_AGE[2], BY_AGE[3]]
    b = only(FIVE, rows, max_sup=1)
    assert b.rule == "deletion" and "raw data row 2 is in a class" in b.message


def test_deletion_rows_out_of_raw_order() -> None:
    rows = [BY_SEX[1], BY_SEX[0], BY_SEX[2], BY_SEX[3]]
    b = only(FOUR, rows)
    assert b.rule == "deletion" and "data row 3 of the output" in b.message
    assert "raw order" in b.message


def test_several_rules_at_once_are_all_named() -> None:
    rows = [["[20-24]", "*", job] for job in "abcd"] + [["[30-34]", "*", "e"]]
    # FIVE, max_sup 0, (1,1): 1 outlier (no), height 2 = the lowest, record 5 kept
    assert rules(FIVE, rows, max_sup=0) == ["satisfies", "deletion"]


def test_everything_suppressed() -> None:
    release = release_of([AGE, SEX], ["age", "sex", "job"], ROWS[:1], [0, 1], [0, 1, 2])
    assert rules(release, [], k=2, max_sup=1) == []  # one record, k = 2: deleted at (0, 0)
    assert rules(release, [["21", "M", "a"]], k=2, max_sup=1) == ["deletion"]
    assert rules(release, [], k=2, max_sup=0) == ["satisfies"]  # nothing satisfies


UNEVEN = tree("u", ("*", [("A", ["a1", "a2"]), "b"]))  # b at depth 1, a1/a2 at depth 2


def test_an_unbalanced_hierarchy_clamps_at_the_root() -> None:
    release = release_of([UNEVEN], ["u", "s"], [["a1", "x"], ["a2", "y"], ["b", "z"],
                                                  ["b", "w"]], [0], [0, 1])
    # level 1: A, A, *, * (b clamps); level 2: all *. k = 2: level 1 is right
    assert rules(release, [["A", "x"], ["A", "y"], ["*", "z"], ["*", "w"]]) == []
    assert rules(release, [["*", "x"], ["*", "y"], ["*", "z"], ["*", "w"]]) == \
        ["lowest-height"]
    b = only(release, [["A", "x"], ["A", "y"], ["b", "z"], ["b", "w"]])
    assert b.rule == "full-domain" and "data rows 1 and 3 of the output" in b.message


def test_hidden_messages_show_no_cell_value() -> None:
    cases = [  # (release, rows, max_sup, whether the open message quotes a value)
        (FOUR, [BY_SEX[0], BY_SEX[1], ["21", "*", "x"], BY_SEX[3]], 0, True),
        (FOUR, [BY_AGE[0], BY_AGE[1], ["[20-25]", "F", "c"], BY_AGE[3]], 0, True),
        (FIVE, [BY_AGE[0], BY_AGE[1], ["[30-34]", "F", "c"], BY_AGE[3]], 1, True),
        (FOUR, [BY_AGE[0], ["22", "M", "b"], BY_AGE[2], BY_AGE[3]], 0, False),
        (FIVE, BY_AGE + [["[30-34]", "M", "e"]], 1, False),
    ]
    values = {cell for row in ROWS for cell in row} | set(AGE.parent) | set(SEX.parent) | \
        {"x", "[20-25]"}
    for release, rows, max_sup, quotes in cases:
        out = as_table(release, rows)
        open_ = check_samarati(release, 2, max_sup, out, False)
        hidden = check_samarati(release, 2, max_sup, out, True)
        assert hidden and [b.rule for b in hidden] == [b.rule for b in open_]
        assert any(f"'{v}'" in b.message for b in open_ for v in values) == quotes, open_
        for b in hidden:
            assert not [v for v in values if f"'{v}'" in b.message], b.message


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        check_samarati(FOUR, 0, 0, as_table(FOUR, BY_AGE))
    with pytest.raises(ValueError, match="max_sup must be at least 0"):
        check_samarati(FOUR, 2, -1, as_table(FOUR, BY_AGE))
    bad = release_of([AGE, SEX], ["age", "sex", "job"], [["23", "M", "a"]], [0, 1], [0, 1, 2])
    with pytest.raises(ValueError, match="raw data row 1, column 'age'"):
        check_samarati(bad, 1, 0, as_table(bad, [["23", "M", "a"]]))


def test_an_empty_raw_table() -> None:
    empty = release_of([AGE, SEX], ["age", "sex", "job"], [], [0, 1], [0, 1, 2])
    assert rules(empty, []) == []
    assert rules(empty, [["21", "M", "a"]]) == ["columns"]


def test_released_columns_may_be_every_column() -> None:
    release = release_of([AGE, SEX], ["age", "job", "sex", "x"],
                         [[a, j, s, "1"] for a, s, j in ROWS[:4]], [0, 2], [0, 1, 2, 3])
    rows = [["21", job, "*", "1"] if job in "ac" else ["22", job, "*", "1"] for job in "abcd"]
    assert rules(release, rows) == []
    rows[1][3] = "2"
    b = only(release, rows)
    assert b.rule == "columns" and "column 'x'" in b.message and "data row 2" in b.message


def test_make_release_takes_the_qis_from_the_hierarchies() -> None:
    from kcheck.rules import make_release

    raw = Table("raw.csv", ["age", "job", "sex", "x"], [["21", "a", "M", "1"]])
    by_name = {"sex": FOUR.trees[1], "age": FOUR.trees[0]}
    release = make_release(raw, by_name, "job")
    assert (release.qi_columns, release.released) == ([0, 2], [0, 1, 2])
    assert release.trees == [FOUR.trees[0], FOUR.trees[1]]
    assert make_release(raw, by_name).released == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="raw.csv: the sensitive column 'sex'"):
        make_release(raw, by_name, "sex")
    with pytest.raises(ValueError, match="'occupation'"):
        make_release(raw, by_name, "occupation")
