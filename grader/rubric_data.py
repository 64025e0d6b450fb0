"""The rubric's [data] table: what a course says of its data's columns (kanon/schema.py), and
which columns are the QIs, for the whole course or per part.

    [data]                              # all optional; absent: the default contract
    qis = ["age", "sex", "race"]        # the columns whose hierarchy files each call receives
    sensitive = "occupation"            # the sensitive attribute
    other_columns = "drop"              # "keep" (default) or "drop": not released
    suppression = "delete"              # "root" (default) or "delete": not released
    hierarchy_format = "child-parent"   # "tabs" (default), "child-parent" or "paths"
    numeric = ["age", "education_num"]  # QIs without a hierarchy file (generalized to ranges)
    model = "data-model.json"           # the course's data model; [[data.hidden]]: its hidden
                                        # datasets, drawn from it (grader/rubric_model.py)

A part may set its own `qis` (the USTC lab's Samarati and Mondrian differ). A call's DGH
folder then holds exactly those hierarchy files, so the QIs are still "the columns with a
hierarchy file in DGH_folder". Every error names the rubric file and the key.
"""
from __future__ import annotations

from typing import Callable

from kanon.schema import DEFAULT, HIERARCHY_FORMATS, OTHER_COLUMNS, SUPPRESSIONS, Schema

from .errors import UserError
from .rubric_model import MODEL_KEYS, read_model

__all__ = ["DATA_KEYS", "read_data", "read_qis"]

DATA_KEYS = {"qis", "sensitive", "other_columns", "suppression", "hierarchy_format",
             "numeric"}
Error = Callable[[str, str], UserError]


def read_qis(value: object, key: str, error: Error) -> tuple[str, ...] | None:
    """A list of distinct, non-empty column names (None when absent)."""
    if value is None:
        return None
    if (not isinstance(value, list) or not value
            or not all(isinstance(v, str) and v and "/" not in v and "\\" not in v
                       for v in value)):
        raise error(key, f"expected a non-empty list of column names such as [\"age\", "
                         f"\"sex\"], got {value!r}")
    if len(set(value)) != len(value):
        raise error(key, f"a column is named twice in {value!r}")
    return tuple(value)


def read_data(raw: object, error: Error) -> tuple[Schema, tuple[str, ...] | None]:
    """The course's Schema and its QIs (None: every column with a hierarchy file)."""
    if raw is None:
        return DEFAULT, None
    if not isinstance(raw, dict):
        raise error("data", "expected a table [data]")
    for name in raw:
        if name not in DATA_KEYS | MODEL_KEYS:
            raise error(f"data.{name}", f"unknown key; known: "
                                        f"{', '.join(sorted(DATA_KEYS | MODEL_KEYS))}")
    read_model(raw, error)  # the data model and its hidden draws (grader/rubric_model.py)
    choices = {"other_columns": OTHER_COLUMNS, "suppression": SUPPRESSIONS,
               "hierarchy_format": HIERARCHY_FORMATS}
    values: dict[str, str] = {}
    for name, allowed in choices.items():
        if name in raw:
            if raw[name] not in allowed:
                raise error(f"data.{name}", f"one of {', '.join(allowed)}, got {raw[name]!r}")
            values[name] = raw[name]
    sensitive = raw.get("sensitive")
    if sensitive is not None and (not isinstance(sensitive, str) or not sensitive):
        raise error("data.sensitive", f"expected a column name, got {sensitive!r}")
    if values.get("other_columns") == "drop" and sensitive is None:
        raise error("data.other_columns", "\"drop\" releases only the QIs and the sensitive "
                                          "column: name it with data.sensitive")
    qis = read_qis(raw.get("qis"), "data.qis", error)
    if sensitive is not None and qis is not None and sensitive in qis:
        raise error("data.sensitive", f"{sensitive!r} is also in data.qis")
    numeric = read_qis(raw.get("numeric"), "data.numeric", error) or ()
    if numeric and (qis is None or not set(numeric) <= set(qis)):
        raise error("data.numeric", "the numeric QIs are among data.qis: name every QI there")
    return Schema(sensitive=sensitive, numeric=numeric, **values), qis
