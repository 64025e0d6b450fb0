"""The rubric's data model: the file a course's data is drawn from, and how each of its hidden
datasets is drawn, in its [data] table (beside the schema, grader/rubric_data.py):

    [data]
    model = "data-model.json"        # a Bayesian network (reference/data.py), relative to
                                     # the rubric: the file lives in the course's folder
    [[data.hidden]]                  # one per hidden dataset, drawn anew for every term
    name = "sample-500"              # the cases name it: data = "hidden/sample-500"
    rows = 500
    hierarchies = "public/adult"     # its DGHs/: a copy of this dataset's
    [[data.hidden]]
    name = "ages-30-45"
    rows = 61
    filter = { age = [30, 45] }      # optional: only records whose age is 30..45
    hierarchies = "public/adult"

`regen --course DIR [--term NAME]` draws each from the model with a seed derived from the
course's secret and the term (grader/authoring/model_draw.py); `course new --from` copies the
model file with the rubric. Every error names the rubric file and the key.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from .errors import UserError

__all__ = ["MODEL_KEYS", "HIDDEN_KEYS", "Drawn", "DataModel", "read_model", "model_of"]

MODEL_KEYS = {"model", "hidden"}  # the keys of [data] this module reads
HIDDEN_KEYS = {"name", "rows", "filter", "hierarchies"}
MAX_ROWS = 1_000_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
Error = Callable[[str, str], UserError]


@dataclass(frozen=True)
class Drawn:
    """One hidden dataset drawn from the model: hidden/<name>, `rows` records, only those
    within `filter` (column -> inclusive integer range), with a copy of `hierarchies`'s
    DGHs/ (a dataset folder of the course's cases, e.g. "public/adult")."""

    name: str
    rows: int
    filter: tuple[tuple[str, int, int], ...]
    hierarchies: str

    @property
    def data(self) -> str:
        return f"hidden/{self.name}"


@dataclass(frozen=True)
class DataModel:
    """A rubric's data model: the model file (relative to the rubric) and its hidden draws."""

    model: str
    hidden: tuple[Drawn, ...]

    def path(self, rubric_path: Path) -> Path:
        return Path(rubric_path).parent / self.model


def _relative(value: object, key: str, error: Error) -> str:
    """A relative path inside the rubric's folder ("data-model.json", "model/uci.json")."""
    if not isinstance(value, str) or not value:
        raise error(key, f"expected a file name relative to the rubric, such as "
                         f"\"data-model.json\", got {value!r}")
    path = PurePosixPath(value.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or ":" in value:
        raise error(key, f"{value!r}: the model lives in the course's folder; give a path "
                         f"relative to the rubric, without \"..\"")
    return path.as_posix()


def _drawn(raw: object, key: str, error: Error) -> Drawn:
    if not isinstance(raw, dict):
        raise error(key, "expected a table [[data.hidden]]")
    for name in raw:
        if name not in HIDDEN_KEYS:
            raise error(f"{key}.{name}", f"unknown key; known: {', '.join(sorted(HIDDEN_KEYS))}")
    for name in ("name", "rows", "hierarchies"):
        if name not in raw:
            raise error(f"{key}.{name}", "missing")
    name = raw["name"]
    if not isinstance(name, str) or not _NAME.match(name):
        raise error(f"{key}.name", f"expected a folder name of letters, digits, '.', '-' and "
                                   f"'_' (at most 64), got {name!r}")
    rows = raw["rows"]
    if not isinstance(rows, int) or isinstance(rows, bool) or not 1 <= rows <= MAX_ROWS:
        raise error(f"{key}.rows", f"expected an integer from 1 to {MAX_ROWS:,}, got {rows!r}")
    where = raw["hierarchies"]
    if (not isinstance(where, str) or not where.startswith("public/")
            or not _NAME.match(where.removeprefix("public/"))):
        raise error(f"{key}.hierarchies", f"expected a public dataset of the course, such as "
                                          f"\"public/adult\" (its DGHs/ are copied), got "
                                          f"{where!r}")
    ranges = []
    table = raw.get("filter", {})
    if not isinstance(table, dict):
        raise error(f"{key}.filter", f"expected a table such as {{ age = [30, 45] }}, got "
                                     f"{table!r}")
    for column, span in table.items():
        if (not isinstance(span, list) or len(span) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in span)
                or span[0] > span[1]):
            raise error(f"{key}.filter.{column}", f"expected [LOW, HIGH], two integers with "
                                                  f"LOW <= HIGH (both kept), got {span!r}")
        ranges.append((column, span[0], span[1]))
    return Drawn(name, rows, tuple(ranges), where)


def read_model(raw: object, error: Error) -> DataModel | None:
    """The [data] table's model and hidden draws (None when it has no `model`)."""
    if not isinstance(raw, dict) or ("model" not in raw and "hidden" not in raw):
        return None
    if "model" not in raw:
        raise error("data.model", "missing: [[data.hidden]] datasets are drawn from the "
                                  "course's data model; name its file, e.g. model = "
                                  "\"data-model.json\"")
    model = _relative(raw["model"], "data.model", error)
    hidden = raw.get("hidden", [])
    if not isinstance(hidden, list):
        raise error("data.hidden", "expected one [[data.hidden]] table per hidden dataset")
    drawn = [_drawn(h, f"data.hidden[{i}]", error) for i, h in enumerate(hidden, start=1)]
    names = [d.name for d in drawn]
    for i, name in enumerate(names, start=1):
        if name in names[:i - 1]:  # the second table of that name
            raise error(f"data.hidden[{i}].name", f"two hidden datasets are named {name!r}")
    return DataModel(model, tuple(drawn))


def model_of(path: Path) -> DataModel | None:
    """The data model of the rubric (or course.toml) at `path`, read again from the file (the
    rubric loader validated it)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UserError(f"{path}: cannot read it: {e}") from None
    return read_model(data.get("data"), lambda key, message: UserError(f"{path}: {key}: "
                                                                       f"{message}"))
