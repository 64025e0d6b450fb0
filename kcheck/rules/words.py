"""The rule checkers' messages as data: a `Phrase` is a template id with parameters (a
parameter may itself be a phrase, or a tuple of phrases joined by the language's separator),
rendered once per language from CATALOG ("en", the grader's words; "zh-CN").

A hidden case's phrases use the templates ending in "/hidden" and carry no cell value,
label, range bound or header (`phrase(..., hidden=True)` drops them): what a hidden case
shows is only row numbers, column names, counts, vectors and levels.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LANGUAGES", "CATALOG", "Phrase", "phrase", "render"]

LANGUAGES = ("en", "zh-CN")
SECRET = frozenset({"cell", "raw", "label", "expected", "roots", "bound", "header"})
"""Parameters that hold the data itself: never kept in a hidden case's phrase."""


@dataclass(frozen=True)
class Phrase:
    """One message: its template id and parameters (plain values, phrases, tuples of
    phrases)."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str) -> Any:
        return dict(self.params).get(name)


def phrase(key: str, hidden: bool = False, **params: Any) -> Phrase:
    """The phrase `key` ("<key>/hidden" without the data's values when `hidden`)."""
    if hidden:
        return Phrase(key + "/hidden", tuple((k, v) for k, v in params.items()
                                             if k not in SECRET))
    return Phrase(key, tuple(params.items()))


def render(words: Phrase, language: str = "en") -> str:
    """The phrase in `language` (ValueError for a language without a catalog)."""
    try:
        catalog = CATALOG[language]
    except KeyError:
        raise ValueError(f"unknown language {language!r} (choose one of: "
                         f"{', '.join(LANGUAGES)})") from None
    values = {}
    for name, value in words.params:
        if isinstance(value, Phrase):
            value = render(value, language)
        elif isinstance(value, tuple) and value and isinstance(value[0], Phrase):
            value = catalog["; "].join(render(v, language) for v in value)
        values[name] = value
    return catalog[words.key].format(**values)


_EN: dict[str, str] = {
    "; ": "; ",
    # where a cell is: a prefix with the detail after it
    "at.row_column": "data row {row}, column {column!r}: {detail}",
    "at.output_row_column": "data row {row} of the output, column {column!r}: {detail}",
    # columns
    "header": "the header is {header}, but the released columns are {columns} (in the raw "
              "file's order)",
    "header/hidden": "the header differs from the released columns {columns} (in the raw "
                     "file's order)",
    "rows.every": "the output has {found} data rows, but the raw file has {rows} and every "
                  "record is released",
    "rows.more": "the output has {found} data rows, more than the raw file's {rows}",
    "copied.record": "the cell {cell!r} differs from its record's (raw data row {raw_row}) "
                     "{raw!r}; non-QI cells are copied unchanged",
    "copied.record/hidden": "the cell differs from its record's (raw data row {raw_row}); "
                            "non-QI cells are copied unchanged",
    "copied.raw": "the cell {cell!r} differs from the raw one {raw!r}; non-QI cells are "
                  "copied unchanged",
    "copied.raw/hidden": "the cell differs from the raw one; non-QI cells are copied unchanged",
    # Samarati: full-domain
    "cell.not_label": "the cell {cell!r} is not a label of the column's hierarchy",
    "cell.not_label/hidden": "the cell is not a label of the column's hierarchy",
    "cell.no_level": "the cell {cell!r} generalizes no raw value of the column at any level",
    "cell.no_level/hidden": "the cell generalizes no raw value of the column at any level",
    "cell.no_level_above": "no single level of the hierarchy gives this cell and every cell "
                           "above it in the column",
    "levels.apart": "data rows {first} and {row} of the output, column {column!r}: the cells "
                    "are at different levels of the hierarchy ({levels1} and {levels2}), but "
                    "full-domain generalization puts a column at one level",
    "level": "level {list}",
    "levels": "levels {list}",
    "root": "data row {row} of the output has every QI cell at its hierarchy's root ({roots}) "
            "and other rows do not: no single vector generalizes both (a suppressed record is "
            "deleted, not released with its QI cells at the root)",
    "root/hidden": "data row {row} of the output has every QI cell at its hierarchy's root and "
                   "other rows do not: no single vector generalizes both (a suppressed record "
                   "is deleted, not released with its QI cells at the root)",
    "misfit": "data row {row} of the output matches no raw record generalized by vector "
              "{vector}: the closest, raw data row {raw_row}, {closest}",
    "closest": "generalizes to {label!r} in column {column!r}, not {cell!r}",
    "closest/hidden": "generalizes to another cell in column {column!r}",
    # Samarati: satisfies, lowest-height, deletion
    "satisfies": "the output is generalized by vector {vector}, which leaves {count} outliers "
                 "(records in classes of fewer than k = {k}), more than max_sup = {max_sup}",
    "lowest": "the output's vector {vector} has height {height}, but vector {better} of height "
              "{lowest} already satisfies k = {k} with at most max_sup = {max_sup} outliers",
    "deletion.kept": "raw data row {raw_row} is an outlier of vector {vector} (its class has "
                     "fewer than k = {k} records) and must be deleted, but it is released as "
                     "data row {row} of the output",
    "deletion.left_out": "raw data row {raw_row} is in a class of at least k = {k} records "
                         "under vector {vector}, so it must be released, but the output leaves "
                         "it out",
    "deletion.root": "data row {row} of the output is a suppressed record (every QI cell at "
                     "the root): it must be deleted (left out of the output), not released",
    "deletion.order": "data row {row} of the output repeats a record or breaks the raw order: "
                      "under vector {vector}, no raw data row after {after} generalizes to its "
                      "cells (the output releases records in raw order, each at most once)",
    # Mondrian: cover
    "cover.misses": "the cell {cell!r} does not cover the raw value {raw!r}",
    "cover.misses/hidden": "the cell does not cover the raw value",
    "cover.not_a_cell": "the cell {cell!r} is neither a label of the column's hierarchy nor an "
                        "interval [lo-hi]",
    "cover.not_a_cell/hidden": "the cell is neither a label of the column's hierarchy nor an "
                               "interval [lo-hi]",
    "cover.not_allowed": "the cell {cell!r} is an interval, but the column is not numeric",
    "cover.not_allowed/hidden": "the cell is an interval, but the column is not numeric",
    "cover.not_finite": "the cell {cell!r} is an interval without finite bounds lo < hi",
    "cover.not_finite/hidden": "the cell is an interval without finite bounds lo < hi",
    "cover.equal": "the cell {cell!r} is an interval with lo = hi, but an interval needs "
                   "lo < hi: where the smallest and largest values are equal, the cell keeps "
                   "the raw value {raw!r}",
    "cover.equal/hidden": "the cell is an interval with lo = hi, but an interval needs lo < hi: "
                          "where the smallest and largest values are equal, the cell keeps the "
                          "raw value",
    "cover.reversed": "the cell {cell!r} is an interval with lo > hi, but an interval needs "
                      "lo < hi",
    "cover.reversed/hidden": "the cell is an interval with lo > hi, but an interval needs "
                             "lo < hi",
    # Mondrian: exact, k, median-cuts, final
    "exact": "the class of data row {row} ({size} rows), column {column!r}: the cell is "
             "{cell!r}, but {what} is {expected!r}",
    "exact/hidden": "the class of data row {row} ({size} rows), column {column!r}: the cell is "
                    "not {what}",
    "what.range": "the class's [min-max] range (its value when min = max)",
    "what.lca": "the lowest common ancestor of the class's values",
    "k": "the class of data row {row} has {size} row(s) (data rows {rows}), fewer than k = {k}",
    "cuts.limit": "no tree of strict median cuts with these classes as leaves was found within "
                  "the search's limit",
    "cuts": "the classes are not the leaves of a tree of strict median cuts: {named} ({size} "
            "rows) has no allowable cut on any QI that keeps every class whole ({reasons})",
    "cuts.whole": "the whole table",
    "cuts.part": "the partition of the classes of data rows {rows}",
    "why.ancestor": "{column}: a row's value is the partition's common ancestor itself",
    "why.nothing_above": "{column}: the {at} leaves no row above it",
    "why.small_side": "{column}: the {at} leaves a side of {size} rows, fewer than k = {k}",
    "why.splits": "{column}: the {at} splits the class of data row {row}",
    "at.median": "median cut (<= {bound})",
    "at.median/hidden": "median cut",
    "at.children": "cut into the children of the common ancestor",
    "final": "the class of data row {row} ({size} rows) still admits an allowable {how} on "
             "column {column!r} (every part would keep at least k = {k} rows), so Mondrian "
             "would have cut it",
    "how.median": "median cut",
    "how.children": "cut into the children of its LCA",
}

_ZH: dict[str, str] = {
    "; ": "；",
    "at.row_column": "第 {row} 条数据行，列 {column!r}：{detail}",
    "at.output_row_column": "输出的第 {row} 条数据行，列 {column!r}：{detail}",
    "header": "表头是 {header}，但应发布的列是 {columns}（按原始文件中的顺序）",
    "header/hidden": "表头与应发布的列 {columns}（按原始文件中的顺序）不同",
    "rows.every": "输出有 {found} 条数据行，但原始文件有 {rows} 行，且每条记录都应发布",
    "rows.more": "输出有 {found} 条数据行，多于原始文件的 {rows} 行",
    "copied.record": "单元格 {cell!r} 与其记录（原始第 {raw_row} 条数据行）的 {raw!r} 不同；"
                     "非准标识符单元格应原样复制",
    "copied.record/hidden": "单元格与其记录（原始第 {raw_row} 条数据行）的不同；非准标识符单元格"
                            "应原样复制",
    "copied.raw": "单元格 {cell!r} 与原始的 {raw!r} 不同；非准标识符单元格应原样复制",
    "copied.raw/hidden": "单元格与原始的不同；非准标识符单元格应原样复制",
    "cell.not_label": "单元格 {cell!r} 不是该列泛化层次结构（DGH）的标签",
    "cell.not_label/hidden": "单元格不是该列泛化层次结构（DGH）的标签",
    "cell.no_level": "单元格 {cell!r} 在任何层级上都不是该列某个原始值的泛化",
    "cell.no_level/hidden": "单元格在任何层级上都不是该列某个原始值的泛化",
    "cell.no_level_above": "泛化层次结构中没有一个层级能同时给出该单元格和该列中它上方的每个"
                           "单元格",
    "levels.apart": "输出的第 {first} 和第 {row} 条数据行，列 {column!r}：这些单元格位于泛化层次"
                    "结构的不同层级（{levels1}和{levels2}），但全域泛化要求一列处于同一层级",
    "level": "层级 {list}",
    "levels": "层级 {list}",
    "root": "输出的第 {row} 条数据行的每个准标识符单元格都是其泛化层次的根（{roots}），而其他行"
            "不是：没有一个泛化向量能同时泛化出这两种行（应删除的记录要从输出中去掉，而不是以根"
            "节点单元格发布）",
    "root/hidden": "输出的第 {row} 条数据行的每个准标识符单元格都是其泛化层次的根，而其他行不是："
                   "没有一个泛化向量能同时泛化出这两种行（应删除的记录要从输出中去掉，而不是以根"
                   "节点单元格发布）",
    "misfit": "输出的第 {row} 条数据行与泛化向量 {vector} 泛化后的任何原始记录都不匹配：最接近的"
              "原始第 {raw_row} 条数据行{closest}",
    "closest": "在列 {column!r} 中泛化为 {label!r}，而不是 {cell!r}",
    "closest/hidden": "在列 {column!r} 中泛化为另一个单元格",
    "satisfies": "输出按泛化向量 {vector} 泛化，它留下 {count} 条离群记录（所在等价类少于 "
                 "k = {k} 条记录），多于 max_sup = {max_sup}",
    "lowest": "输出的泛化向量 {vector} 层级为 {height}，但层级为 {lowest} 的泛化向量 {better} "
              "已经在至多 max_sup = {max_sup} 条离群记录下满足 k = {k}",
    "deletion.kept": "原始第 {raw_row} 条数据行是泛化向量 {vector} 下的离群记录（其等价类少于 "
                     "k = {k} 条记录），应当删除，但它作为输出的第 {row} 条数据行被发布了",
    "deletion.left_out": "在泛化向量 {vector} 下，原始第 {raw_row} 条数据行所在的等价类至少有 "
                         "k = {k} 条记录，所以应当发布，但输出遗漏了它",
    "deletion.root": "输出的第 {row} 条数据行是一条应删除的记录（每个准标识符单元格都是根节点）："
                     "它必须被删除（不出现在输出中），而不是被发布",
    "deletion.order": "输出的第 {row} 条数据行重复了一条记录或打乱了原始顺序：在泛化向量 "
                      "{vector} 下，第 {after} 行之后没有原始数据行泛化为它的单元格（输出按原始"
                      "顺序发布记录，每条至多一次）",
    "cover.misses": "单元格 {cell!r} 没有覆盖原始值 {raw!r}",
    "cover.misses/hidden": "单元格没有覆盖原始值",
    "cover.not_a_cell": "单元格 {cell!r} 既不是该列泛化层次结构（DGH）的标签，也不是区间 [lo-hi]",
    "cover.not_a_cell/hidden": "单元格既不是该列泛化层次结构（DGH）的标签，也不是区间 [lo-hi]",
    "cover.not_allowed": "单元格 {cell!r} 是区间，但该列不是数值列",
    "cover.not_allowed/hidden": "单元格是区间，但该列不是数值列",
    "cover.not_finite": "单元格 {cell!r} 是没有有限边界 lo < hi 的区间",
    "cover.not_finite/hidden": "单元格是没有有限边界 lo < hi 的区间",
    "cover.equal": "单元格 {cell!r} 是 lo = hi 的区间，但区间要求 lo < hi：最小值与最大值相等时，"
                   "单元格保持原始值 {raw!r}",
    "cover.equal/hidden": "单元格是 lo = hi 的区间，但区间要求 lo < hi：最小值与最大值相等时，"
                          "单元格保持原始值",
    "cover.reversed": "单元格 {cell!r} 是 lo > hi 的区间，但区间要求 lo < hi",
    "cover.reversed/hidden": "单元格是 lo > hi 的区间，但区间要求 lo < hi",
    "exact": "第 {row} 条数据行所在的等价类（{size} 行），列 {column!r}：该单元格是 {cell!r}，"
             "但{what}是 {expected!r}",
    "exact/hidden": "第 {row} 条数据行所在的等价类（{size} 行），列 {column!r}：该单元格不是"
                    "{what}",
    "what.range": "该等价类的 [min-max] 范围（min = max 时为该值）",
    "what.lca": "该等价类各值的最近公共祖先（LCA）",
    "k": "第 {row} 条数据行所在的等价类有 {size} 行（数据行 {rows}），少于 k = {k}",
    "cuts.limit": "在搜索的限制内，没有找到以这些等价类为叶节点的严格中位数划分树",
    "cuts": "这些等价类不是一棵严格中位数划分树的叶节点：{named}（{size} 行）在任何准标识符（QI）"
            "上都没有保持每个等价类完整的允许的划分（{reasons}）",
    "cuts.whole": "整个表",
    "cuts.part": "数据行 {rows} 所在等价类组成的分区",
    "why.ancestor": "{column}：某一行的值就是该分区的公共祖先本身",
    "why.nothing_above": "{column}：{at}之上没有留下任何行",
    "why.small_side": "{column}：{at}留下一侧只有 {size} 行，少于 k = {k}",
    "why.splits": "{column}：{at}拆开了第 {row} 条数据行所在的等价类",
    "at.median": "中位数划分（<= {bound}）",
    "at.median/hidden": "中位数划分",
    "at.children": "按公共祖先的子节点的划分",
    "final": "第 {row} 条数据行所在的等价类（{size} 行）在列 {column!r} 上仍有允许的{how}（每一"
             "部分都至少保留 k = {k} 行），所以 Mondrian 会继续划分它",
    "how.median": "中位数划分",
    "how.children": "按其最近公共祖先（LCA）的子节点的划分",
}

CATALOG: dict[str, dict[str, str]] = {"en": _EN, "zh-CN": _ZH}
