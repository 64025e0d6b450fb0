"""A course's hidden datasets drawn from its data model (the rubric's [data] `model` and
[[data.hidden]] tables, grader/rubric_model.py), for a term, with the course's secret.

Each `hidden/<name>` is sampled by the kit's generator (reference.data.generate_rows) from
the model file in the course's folder, seeded by HMAC-SHA256(secret, term, "model:<name>")
(grader.authoring.terms.term_seed): the term's name is public, so without the secret nobody
can draw the same rows, and two courses with the same term draw different ones. A filter on
the model's root column `age` restricts P(age), as `python -m reference.data --ages` does;
any other filter, and the hierarchies, drop the records they reject (a record whose value in
a column with a hierarchy file is no leaf of that file: the copied hierarchies cover every
value drawn): the dataset is the first `rows` records of one seeded stream that pass. The folder gets `adult-hw1.csv` (the model's profile's header) and `DGHs/`, a
copy of the hierarchy files of the dataset `hierarchies` names.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from kanon.hierarchy import read_dgh_folder
from kanon.table import render_csv

from ..contract import DGH_DIR, RAW_FILE
from ..errors import UserError
from ..grading.expected import data_folder
from ..rubric import Rubric
from ..rubric_model import DataModel, Drawn, model_of
from .terms import term_seed

__all__ = ["declared", "draw_all", "draw_rows", "load_model", "seed_of"]


def declared(rubric: Rubric) -> DataModel | None:
    """The rubric's data model and hidden draws (None: it declares none)."""
    return model_of(rubric.path)


def load_model(rubric_path: Path, model: DataModel) -> dict:
    """The model JSON; UserError naming the rubric and data.model when it cannot be read."""
    path = model.path(rubric_path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{rubric_path}: data.model: {path} not found; the course's data "
                        f"model lives in its folder") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UserError(f"{rubric_path}: data.model: {path} is not a data model JSON ({e})"
                        ) from None
    needed = {"columns", "sample_order", "parent", "root", "cpt"}
    if not isinstance(data, dict) or not needed <= set(data):
        raise UserError(f"{rubric_path}: data.model: {path} is not a data model (a Bayesian "
                        f"network with {', '.join(sorted(needed))}: reference/data.py)")
    return data


def seed_of(key: bytes, term: str, drawn: Drawn) -> int:
    """The seed of hidden/<name> in `term` of the course with `key`."""
    return term_seed(key, term, f"model:{drawn.name}")


def draw_rows(model: dict, drawn: Drawn, seed: int, leaves: dict[str, set[str]],
              where: str) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of one hidden dataset: `drawn.rows` records from `model` with `seed`,
    within its filter and whose cells in each column of `leaves` are leaves of its hierarchy.
    `where` names the rubric's table in errors."""
    from reference.data import generate_rows, profile_for
    profile = profile_for(model)
    header = list(profile.header)
    root = next(a for a in model["sample_order"] if model["parent"][a] is None)
    ages, tests = None, []
    for column, lo, hi in drawn.filter:
        if column not in header:
            raise UserError(f"{where}.filter.{column}: no such column in the data model (its "
                            f"columns: {', '.join(header)})")
        at = header.index(column)
        if model["columns"][at] == root == "age":
            ages = (lo, hi)  # P(age) restricted, as reference.data --ages
        tests.append((at, lo, hi, column))
    checks = [(header.index(c), allowed) for c, allowed in leaves.items() if c in header]

    def keep(row: list[str]) -> bool:
        for at, lo, hi, _ in tests:
            try:
                if not lo <= int(row[at]) <= hi:
                    return False
            except ValueError:
                return False
        return all(row[at] in allowed for at, allowed in checks)

    needs_keep = bool(checks) or any(model["columns"][t[0]] != root or root != "age"
                                     for t in tests)
    # Rejection: the first `rows` records that pass, of one seeded stream (generate_rows with
    # more rows and the same seed draws the same records first, then more).
    wanted = drawn.rows
    limit = max(10_000, 100 * wanted)
    n = wanted + (wanted // 10 + 20 if needs_keep else 0)
    while True:
        try:
            _, records = generate_rows(model, n, seed, profile.binned, ages)
        except ValueError as e:
            raise UserError(f"{where}: cannot draw from the data model: {e}") from None
        kept = [r for r in records if keep(r)] if needs_keep else records
        if len(kept) >= wanted:
            return header, kept[:wanted]
        if n >= limit:
            raise UserError(f"{where}: only {len(kept)} of {n} records drawn pass its filter "
                            f"and hierarchies, {wanted} are needed; widen the filter or the "
                            f"hierarchies")
        n = min(limit, 4 * n)


def draw_all(rubric: Rubric, cases_dir: Path, key: bytes, term: str) -> list[Path]:
    """(Re)write every hidden dataset the rubric declares under `cases_dir` (whose public
    datasets, the hierarchies' source, must be there already); returns the folders."""
    model_decl = declared(rubric)
    if model_decl is None or not model_decl.hidden:
        return []
    model = load_model(rubric.path, model_decl)
    fmt = rubric.schema.hierarchy_format
    written = []
    for i, drawn in enumerate(model_decl.hidden, start=1):
        where = f"{rubric.path}: data.hidden[{i}]"
        source = data_folder(cases_dir, drawn.hierarchies) / DGH_DIR
        if not source.is_dir():
            raise UserError(f"{where}.hierarchies: {source} not found (the dataset "
                            f"{drawn.hierarchies!r} must hold {DGH_DIR}/)")
        try:
            dghs = read_dgh_folder(str(source), fmt)
        except ValueError as e:
            raise UserError(f"{where}.hierarchies: {e}") from None
        leaves = {name: {d.labels[v] for v in range(d.n_nodes) if d.is_leaf(v)}
                  for name, d in dghs.items()}
        header, rows = draw_rows(model, drawn, seed_of(key, term, drawn), leaves, where)
        folder = cases_dir / drawn.data
        if folder.exists():
            shutil.rmtree(folder)
        (folder / DGH_DIR).mkdir(parents=True)
        (folder / RAW_FILE).write_bytes(render_csv(header, rows).encode("utf-8"))
        for path in sorted(source.glob("*.txt")):
            shutil.copyfile(path, folder / DGH_DIR / path.name)
        written.append(folder)
    return written
