"""Expected outputs as stored: keys, the manifest, lookup and staleness (grader.authoring.regen
produces them with the reference; nothing here runs it).

Each case's expected output is stored under `cases_dir/expected/<key>.csv` (anonymizers) or
`<key>.json` (costs and expected errors), where the key hashes what determines the answer:
the function, its integer arguments and the bytes of the case's input files. The manifest
(`cases_dir/manifest.json`) lists, per key, the case's definition and the sha256 of its
inputs and of its expected output, and the sha256 of every dataset file. `lookup` refuses a
missing or stale one. The expected files
live only here: children never see them, the grader's process does all the comparing.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kanon.files import sha256_bytes, sha256_file

from ..contract import ANONYMIZED_INPUT, DGH_DIR, RAW_FILE
from ..errors import UserError
from ..paths import KIT_CASES
from ..rubric import Case

MANIFEST = "manifest.json"
PUBLIC = "public"


def data_folder(cases_dir: Path, data: str) -> Path:
    """The folder of a case's dataset `data` ("public/adult", "hidden/ties"): under
    `cases_dir`, except that a course folder keeps no public datasets of its own, so
    `public/...` is read from the kit's (grader/cases/public) when `cases_dir` lacks it."""
    own = cases_dir / data
    if own.is_dir() or data.split("/")[0] != PUBLIC:
        return own
    return KIT_CASES / data


@dataclass(frozen=True)
class Expected:
    """What a case must produce: a table file, a number, an exception type, or (a part
    judged by quality) the band its utility must stay within: `value` is the band's top,
    `path` the runs it was measured from."""

    kind: str  # "table", "value", "error" or "band"
    path: Path | None = None
    value: float | None = None
    error: str | None = None


@lru_cache(maxsize=256)
def _file_hash(path: str, stamp: float, size: int) -> str:
    return sha256_file(Path(path))


def file_hash(path: Path) -> str:
    st = path.stat()
    return _file_hash(str(path), st.st_mtime, st.st_size)


def input_files(case: Case, cases_dir: Path) -> dict[str, Path]:
    """The files a case's child receives, by their name in the child's directory."""
    folder = data_folder(cases_dir, case.data)
    raw = folder / RAW_FILE
    dgh_dir = folder / DGH_DIR
    if not raw.is_file() or not dgh_dir.is_dir():
        raise UserError(f"case {case.id}: {folder} must hold {RAW_FILE} and {DGH_DIR}/ "
                        f"(run `python -m grader regen`, with this course or rubric)")
    files = {RAW_FILE: raw}
    if case.qis is not None:  # the part's QIs: exactly their hierarchy files
        for qi in case.qis:
            path = dgh_dir / f"{qi}.txt"
            if qi in case.schema.numeric and not path.is_file():
                continue  # a numeric QI of a course whose numeric QIs have no hierarchy
            if not path.is_file():
                raise UserError(f"case {case.id}: {path} not found; the part's QIs "
                                f"({', '.join(case.qis)}) each need a hierarchy file in "
                                f"{dgh_dir}")
            files[f"{DGH_DIR}/{path.name}"] = path
        return _with_anonymized(case, folder, files)
    for p in sorted(dgh_dir.iterdir()):
        if p.is_file():
            files[f"{DGH_DIR}/{p.name}"] = p
    return _with_anonymized(case, folder, files)


def _with_anonymized(case: Case, folder: Path, files: dict[str, Path]) -> dict[str, Path]:
    """`files` with a cost function's anonymized input added."""
    if case.anonymized:
        anon = folder / case.anonymized
        if not anon.is_file():
            raise UserError(f"case {case.id}: anonymized input {anon} not found")
        files[ANONYMIZED_INPUT] = anon
    return files


def case_key(case: Case, cases_dir: Path) -> str:
    """A hash of everything that determines the case's answer."""
    inputs = {name: file_hash(p) for name, p in input_files(case, cases_dir).items()}
    definition = {"function": case.function, "ints": case.ints, "inputs": inputs,
                  "expect": case.expect}
    if case.variant:  # only then: the default rubric's keys stay as they were
        definition["variant"] = case.variant
    if not case.schema.is_default:  # likewise: a course's columns and suppression
        definition["schema"] = case.schema.changes()
    return sha256_bytes(json.dumps(definition, sort_keys=True).encode())[:24]


def copy_inputs(case: Case, cases_dir: Path, dest: Path) -> None:
    """Copy a case's input files into `dest` under the handout's names."""
    for name, src in input_files(case, cases_dir).items():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)


def load_manifest(cases_dir: Path) -> dict:
    path = cases_dir / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"entries": {}, "files": {}}
    except ValueError as e:
        raise UserError(f"{path}: not valid JSON ({e}); run `python -m grader regen`")


def lookup(case: Case, cases_dir: Path, manifest: dict) -> Expected:
    """The stored expected output of a case; UserError when it is missing or stale."""
    key = case_key(case, cases_dir)
    entry = manifest.get("entries", {}).get(key)
    hint = "run `python -m grader regen` (with this rubric) to produce it"
    if entry is None:
        raise UserError(f"case {case.id}: no expected output for its current inputs and "
                        f"arguments; {hint}")
    if entry["kind"] == "error":
        return Expected("error", error=entry["error"])
    path = cases_dir / entry["file"]
    if not path.is_file() or file_hash(path) != entry["sha256"]:
        raise UserError(f"case {case.id}: {path} is missing or differs from the manifest; {hint}")
    if entry["kind"] == "value":
        return Expected("value", value=json.loads(path.read_text(encoding="utf-8"))["value"])
    if entry["kind"] == "band":
        band = json.loads(path.read_text(encoding="utf-8"))
        return Expected("band", path=path, value=band["band_max"])
    return Expected("table", path=path)
