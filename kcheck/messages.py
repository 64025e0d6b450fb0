"""Verdicts in words: one catalog of templates per language ("en", "zh-CN").

`render(verdict, language)` is "<where>: <text>": where = the data row and the column at
fault (when the verdict has them), text = the rule's template (its variant for `detail`)
filled with the verdict's parameters. `render(..., hidden=True)` (a hidden case) shows only
the broken rule's name, the row number and the column name: no parameter is read, so no value,
label, range, cost or count computed from the data can show. Parameters are shown as they
are (a student's text is never altered): a list is joined with the language's separator,
each item in backticks; a float with 10 significant digits. The Chinese templates are written as
a Chinese instructor writes them: Chinese punctuation, code and data in backticks.

`say(finding, language)` words a check's `Finding` (kcheck.checks, kcheck.compare: the
self-check's sentences) with the catalog's "checks": its fields as Python formats them
(`{cell!r}` quotes a cell), a list of data rows as "data rows 3, 17 (the header is not
counted)", `{where}` as the output's data row and column, `{counted}` as that remark.
"""
from __future__ import annotations

from typing import Any

from .verdicts import Finding, Verdict

__all__ = ["LANGUAGES", "CATALOG", "render", "render_facts", "say", "template_keys"]

LANGUAGES = ("en", "zh-CN")

CATALOG: dict[str, dict[str, Any]] = {
    "en": {
        "names": {
            "passed": "all rules hold",
            "quality.file": "the output is a readable CSV file",
            "quality.columns": "the output has exactly the released columns, in the raw "
                               "file's order",
            "quality.rows": "one output row per raw record",
            "quality.cell": "every QI cell is a label of its hierarchy, or a number or a "
                            "range `[lo-hi]`",
            "quality.copy": "the sensitive attribute (any released column that is not a QI) "
                            "is copied unchanged",
            "quality.cover": "every QI cell covers its raw value",
            "quality.middle": "every equivalence class is generalized to its middle (the range "
                              "or the lowest common ancestor of its raw values)",
            "quality.k": "every equivalence class has at least k records",
            "quality.utility": "the information loss is within the allowed limit",
            "number.type": "the result is a number",
            "number.off": "the result is within the tolerance of the expected value",
        },
        "texts": {
            "passed": "all rules hold.",
            "quality.file/missing": "the output file was not written.",
            "quality.file/encoding": "the output is not UTF-8 text (a bad byte at offset "
                                     "{byte}).",
            "quality.file/csv": "the output is not a readable CSV file.",
            "quality.file/empty": "the output file is empty; its first row must name the "
                                  "columns.",
            "quality.file/duplicate": "the column name `{name}` appears twice in the output's "
                                      "header.",
            "quality.file/width": "the row has {cells} cells, the header has {columns} "
                                  "columns.",
            "quality.columns": "the output's columns are {found}; they must be exactly "
                               "{expected} (the released columns, in the raw file's order).",
            "quality.rows": "the output has {found} data rows, the raw file has {expected}; "
                            "write one row per raw record, in the raw file's order.",
            "quality.cell/label": "`{cell}` is not a label of the column's hierarchy.",
            "quality.cell/number": "`{cell}` is neither a number nor a range `[lo-hi]`.",
            "quality.cell/range": "the range `{cell}` needs lo < hi (a range of one value is "
                                  "written as the value).",
            "quality.copy": "`{cell}` differs from the raw value `{raw}`; the sensitive "
                            "attribute and any other released column that is not a QI are "
                            "copied unchanged.",
            "quality.cover": "`{cell}` does not cover the raw value `{raw}`.",
            "quality.middle": "the row's equivalence class (size {size}) has `{cell}`, but "
                              "the class's middle (the range of its raw values, or their "
                              "lowest common ancestor) is `{middle}`.",
            "quality.k": "the row's equivalence class has size {size}, less than k = {k}.",
            "quality.utility": "the table's {metric} is {cost}, above the allowed {band_max}.",
            "number.type": "the result `{value}` (of type `{type}`) is not a number.",
            "number.off": "the result is {value}; the expected value is {expected} "
                          "(tolerance {tolerance}).",
        },
        "where": {"row_column": "data row {row}, column `{column}`", "row": "data row {row}",
                  "column": "column `{column}`"},
        "full": "{where}: {text}",
        "hidden": "{where}: the rule “{name}” is broken.",
        "hidden_bare": "the rule “{name}” is broken.",
        "facts": "equivalence classes: {classes}, the smallest of size {smallest}; "
                 "{metric}: {cost}.",
        "checks": {
            "counted": "(the header is not counted)",
            "row": "data row {rows}{more} {counted}",
            "rows": "data rows {rows}{more} {counted}",
            "more": ", ... ({count} rows)",
            "where": "output data row {row} {counted}, column {column!r}",
            "valid.header": "the output header is {header}, expected the raw file's header "
                            "{raw}",
            "valid.rows": "the output has {rows} data rows, the raw file has {raw} (one output "
                          "row per raw row, in the same order)",
            "valid.width": "output data row {row} {counted} has {cells} cells, the header has "
                           "{header}",
            "valid.copy": "{where}: non-QI cells must not change, got {cell!r} for the raw "
                          "value {value!r} (are the rows in their original order?)",
            "valid.ancestor": "{where}: {cell!r} is neither the raw value {value!r} nor one of "
                              "its ancestors in DGHs/{column}.txt (are the rows in their "
                              "original order?)",
            "valid.label": "{where}: {cell!r} is not a label of DGHs/{column}.txt",
            "valid.interval_or_label": "{where}: {cell!r} is not an interval [lo-hi] or a "
                                       "label of DGHs/{column}.txt",
            "valid.interval": "{where}: interval {cell!r} must have lo < hi and contain the "
                              "raw value {value!r}",
            "k": "the EC of {rows} has {count} row(s), needs k = {k}",
            "l": "the EC of {rows} has {count} distinct {name}, needs l = {l}",
            "suppressed": "{count} rows are suppressed ({rows}), more than max_sup = "
                          "{max_sup}, and they are fewer than k = {k}",
            "difference": "output data row {row} {counted}, column {column!r} (raw value "
                          "{raw!r}): expected {expected!r}, got {got!r}; {differing} of "
                          "{rows} rows differ",
        },
        "separator": ", ",
    },
    "zh-CN": {
        "names": {
            "passed": "全部规则均满足",
            "quality.file": "输出是可读的 CSV 文件",
            "quality.columns": "输出恰好包含发布的列，顺序与原始文件一致",
            "quality.rows": "每条原始记录对应一条输出行",
            "quality.cell": "每个准标识符单元格是其层次结构中的标签，或数值、区间 `[lo-hi]`",
            "quality.copy": "敏感属性等非准标识符列原样发布",
            "quality.cover": "每个准标识符单元格都覆盖其原始值",
            "quality.middle": "每个等价类都泛化为其原始值的区间或最近公共祖先",
            "quality.k": "每个等价类至少有 k 条记录",
            "quality.utility": "信息损失不超过允许的上限",
            "number.type": "返回值是数值",
            "number.off": "返回值与期望值之差在容差以内",
        },
        "texts": {
            "passed": "全部规则均满足。",
            "quality.file/missing": "没有写出输出文件。",
            "quality.file/encoding": "输出不是 UTF-8 文本（偏移 {byte} 处的字节无效）。",
            "quality.file/csv": "输出不是可读的 CSV 文件。",
            "quality.file/empty": "输出文件为空；第一行必须是列名。",
            "quality.file/duplicate": "输出的表头中列名 `{name}` 出现了两次。",
            "quality.file/width": "该行有 {cells} 个单元格，而表头有 {columns} 列。",
            "quality.columns": "输出的列为 {found}，应恰为 {expected}（发布的列，顺序与原始文件"
                               "一致）。",
            "quality.rows": "输出有 {found} 条数据行，原始文件有 {expected} 条；每条原始记录应按"
                            "原始文件的顺序输出一行。",
            "quality.cell/label": "`{cell}` 不是该列层次结构中的标签。",
            "quality.cell/number": "`{cell}` 既不是数值，也不是区间 `[lo-hi]`。",
            "quality.cell/range": "区间 `{cell}` 必须满足 lo < hi（只含一个值的区间应写成该值"
                                  "本身）。",
            "quality.copy": "`{cell}` 与原始值 `{raw}` 不同；敏感属性等非准标识符列应原样发布。",
            "quality.cover": "`{cell}` 没有覆盖原始值 `{raw}`，不是它的泛化。",
            "quality.middle": "该行所在的等价类（{size} 条记录）的单元格为 `{cell}`，但该等价类"
                              "应泛化为其原始值的区间或最近公共祖先 `{middle}`。",
            "quality.k": "该行所在的等价类只有 {size} 条记录，少于 k = {k}。",
            "quality.utility": "表的信息损失（{metric}）为 {cost}，超过了允许的上限 {band_max}。",
            "number.type": "返回值 `{value}`（类型为 `{type}`）不是数值。",
            "number.off": "返回值为 {value}，期望值为 {expected}（容差为 {tolerance}）。",
        },
        "where": {"row_column": "第 {row} 条数据行，列 `{column}`", "row": "第 {row} 条数据行",
                  "column": "列 `{column}`"},
        "full": "{where}：{text}",
        "hidden": "{where}：违反规则“{name}”。",
        "hidden_bare": "违反规则“{name}”。",
        "facts": "共 {classes} 个等价类，最小的有 {smallest} 条记录；信息损失（{metric}）为 "
                 "{cost}。",
        "checks": {
            "counted": "（不计表头）",
            "row": "第 {rows} 条数据行{more}{counted}",
            "rows": "第 {rows} 条数据行{more}{counted}",
            "more": "……（共 {count} 行）",
            "where": "输出的第 {row} 条数据行{counted}、列 {column!r}",
            "valid.header": "输出的表头是 {header}，应为原始数据文件的表头 {raw}",
            "valid.rows": "输出有 {rows} 条数据行，原始数据文件有 {raw} 行（每个原始行对应一个"
                          "输出行，顺序相同）",
            "valid.width": "输出的第 {row} 条数据行{counted}有 {cells} 个单元格，表头有 "
                           "{header} 列",
            "valid.copy": "{where}：非准标识符的单元格不能改变，原始值 {value!r} 变成了 {cell!r}"
                          "（各行是否保持原来的顺序？）",
            "valid.ancestor": "{where}：{cell!r} 既不是原始值 {value!r}，也不是它在 "
                              "DGHs/{column}.txt 中的祖先（各行是否保持原来的顺序？）",
            "valid.label": "{where}：{cell!r} 不是 DGHs/{column}.txt 中的标签",
            "valid.interval_or_label": "{where}：{cell!r} 既不是区间 [lo-hi]，也不是 "
                                       "DGHs/{column}.txt 中的标签",
            "valid.interval": "{where}：区间 {cell!r} 必须满足 lo < hi 并包含原始值 {value!r}",
            "k": "{rows}构成的等价类有 {count} 行，需要 k = {k}",
            "l": "{rows}构成的等价类有 {count} 个不同的 {name} 值，需要 l = {l}",
            "suppressed": "有 {count} 行被删除（{rows}），多于 max_sup = {max_sup}，而且它们少于 "
                          "k = {k} 行",
            "difference": "输出的第 {row} 条数据行{counted}、列 {column!r}（原始值 {raw!r}）：应为 "
                          "{expected!r}，实际为 {got!r}；{rows} 行中有 {differing} 行不同",
        },
        "separator": "、",
    },
}


def template_keys(rule: str, detail: str = "") -> str:
    """The catalog key of a rule's text (its variant when `detail` is given)."""
    return f"{rule}/{detail}" if detail else rule


def _catalog(language: str) -> dict[str, Any]:
    try:
        return CATALOG[language]
    except KeyError:
        raise ValueError(f"unknown language {language!r} (choose one of: "
                         f"{', '.join(LANGUAGES)})") from None


def _value(value: Any, separator: str) -> str:
    if isinstance(value, (list, tuple)):
        return separator.join(f"`{item}`" for item in value)
    if isinstance(value, float):
        return format(value, ".10g")  # 10 significant digits: 35986.87432
    return str(value)


def _where(catalog: dict[str, Any], verdict: Verdict) -> str:
    forms = catalog["where"]
    if verdict.row is not None and verdict.column is not None:
        return forms["row_column"].format(row=verdict.row, column=verdict.column)
    if verdict.row is not None:
        return forms["row"].format(row=verdict.row)
    if verdict.column is not None:
        return forms["column"].format(column=verdict.column)
    return ""


def render(verdict: Verdict, language: str = "en", hidden: bool = False) -> str:
    """The verdict in `language` (module docstring); `hidden` shows no data."""
    catalog = _catalog(language)
    where = _where(catalog, verdict)
    if hidden and verdict.rule == "passed":
        return catalog["texts"]["passed"]
    if hidden:
        name = catalog["names"][verdict.rule]
        return catalog["hidden"].format(name=name, where=where) if where else \
            catalog["hidden_bare"].format(name=name)
    separator = catalog["separator"]
    params = {key: _value(value, separator) for key, value in verdict.params.items()}
    text = catalog["texts"][template_keys(verdict.rule, verdict.detail)].format(**params)
    return catalog["full"].format(where=where, text=text) if where else text


def render_facts(classes: int | None, smallest: int | None, cost: float | None,
                 metric: str = "ncp", language: str = "en", hidden: bool = False) -> str:
    """The measured facts of a quality judgement; "" for a hidden case or when they were not
    measured (the output broke a rule before the classes could be formed)."""
    catalog = _catalog(language)
    if hidden or classes is None or smallest is None or cost is None:
        return ""
    return catalog["facts"].format(classes=classes, smallest=smallest, metric=metric.upper(),
                                   cost=_value(float(cost), catalog["separator"]))


def _rows_text(checks: dict[str, str], separator: str, rows: list[int], limit: int = 8) -> str:
    """'data rows 3, 17 (the header is not counted)', shortened after `limit` rows."""
    shown = separator.join(str(r) for r in rows[:limit])
    more = checks["more"].format(count=len(rows)) if len(rows) > limit else ""
    return checks["rows" if len(rows) > 1 else "row"].format(rows=shown, more=more,
                                                             counted=checks["counted"])


def say(finding: Finding, language: str = "en") -> str:
    """A check's finding in `language` (module docstring)."""
    catalog = _catalog(language)
    checks = catalog["checks"]
    params = dict(finding.params, counted=checks["counted"])
    if isinstance(params.get("rows"), list):
        params["rows"] = _rows_text(checks, catalog["separator"], params["rows"])
    if "row" in params and "column" in params:
        params["where"] = checks["where"].format(**params)
    return checks[finding.message].format(**params)
