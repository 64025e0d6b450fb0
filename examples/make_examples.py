"""Build examples/submissions/: small class of submissions that exercise the grader.

    python examples/make_examples.py

Each working submission carries its own copy of the reference modules as a helper package
(`kanon_ref/`, imported from beside the solution file, as real submissions import their
helpers); the graded functions in its skeleton.py call it, except where the example
misbehaves on purpose. Zips are written deterministically (fixed dates, sorted entries), so
rebuilding gives the same bytes. After changing the reference, rebuild them and refresh
examples/expected-grades.csv (see docs/reference.md, "Regenerating expected outputs"), then
rebuild the Canvas and Moodle downloads of the same class (`python examples/make_downloads.py`).

alice    correct; a macOS zip (nested folder, __MACOSX, __pycache__, a stray data file)
bob      partly wrong: cost_LM averages, clustering is random, samarati never suppresses,
         mondrian not attempted (folder, not a zip)
carol    slow experiments at import time (import-timeout; graded without them)
dave     crashes at import (an experiment on a file that is not there; graded without it)
erin     a command line at import time that calls sys.exit (import-exit)
frank    renamed cost_MD and mondrian, dropped max_sup from samarati; a Windows zip
grace    clustering never returns (timeout)
heidi    bottom-up allocates a huge distance matrix (memory)
ivan     prints megabytes (output-capped, full marks)
judy     looks for the grader's expected outputs (forbidden)
mallory  a zip with a ../ path (unsafe-archive)
olivia   only a Jupyter notebook (graded from its code cells)
oscar    random calls os._exit, samarati segfaults, cost_LM returns a string (crash)
"""
from __future__ import annotations

import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KIT = HERE.parent
OUT = HERE / "submissions"
REF_MODULES = ["__init__.py", "bottomup.py", "clustering.py", "costs.py", "lattice.py",
               "mondrian.py", "random_anon.py", "samarati.py", "ties.py", "topdown.py",
               "datafly.py", "measures.py", "topdown_greedy.py", "kaca.py"]
CORE_MODULES = ["__init__.py", "cells.py", "checks.py", "classes.py", "files.py", "hierarchy.py",
                "hierarchy_formats.py", "problem.py", "schema.py", "table.py"] + [
    f"privacy/{m}.py" for m in ("__init__", "classes", "closeness", "diversity", "risk",
                                "tables", "utility")]
KCHECK_MODULES = ["hierarchies.py", "cells.py", "checks.py", "tables.py", "text.py", "verdicts.py"]
"""The checker's modules the core imports (hierarchies, the cell rule, classes and checks) and
theirs."""
DATE = (2026, 1, 15, 12, 0, 0)

SIGS = {
    "cost_MD": "raw_dataset_file, anonymized_dataset_file, DGH_folder",
    "cost_LM": "raw_dataset_file, anonymized_dataset_file, DGH_folder",
    "random_anonymizer": "raw_dataset_file, DGH_folder, k, s, output_file",
    "clustering_anonymizer": "raw_dataset_file, DGH_folder, k, output_file",
    "bottomup_anonymizer": "raw_dataset_file, DGH_folder, k, l, output_file",
    "samarati": "raw_dataset_file, DGH_folder, k, max_sup, output_file",
    "mondrian": "raw_dataset_file, DGH_folder, k, output_file",
}


def solution(owner: str, bodies: dict[str, str] | None = None, *, head: str = "",
             tail: str = "", names: dict[str, str] | None = None,
             sigs: dict[str, str] | None = None) -> str:
    """A skeleton.py whose functions call the helper package unless `bodies` says otherwise."""
    bodies, names, sigs = bodies or {}, names or {}, sigs or {}
    parts = [f'"""{owner}\'s k-anonymity homework."""\n', "import os\nimport sys\n\n",
             "import numpy as np\n\nimport kanon_ref as impl\n", head]
    for name, sig in SIGS.items():
        sig = sigs.get(name, sig)
        body = bodies.get(name, f"    return impl.{name}({sig})\n")
        parts.append(f"\n\ndef {names.get(name, name)}({sig}):\n{body}")
    parts.append(tail)
    return "".join(parts)


def helper_files(prefix: str = "") -> dict[str, bytes]:
    """The reference's algorithm modules as package kanon_ref/, with the kit's core inside it
    as kanon_ref/kanon/ (their `from kanon.` imports made relative)."""
    files = {f"{prefix}kanon_ref/{m}": (KIT / "reference" / m).read_bytes()
                                       .replace(b"from kanon.", b"from .kanon.")
             for m in REF_MODULES}
    files.update(core_files(KIT / "kanon", prefix))
    return files


def core_files(kanon: Path, prefix: str = "") -> dict[str, bytes]:
    """The kit's core (`kanon`, a folder holding its modules) as kanon_ref/kanon/, and the
    checker's modules it stands on as kanon_ref/kcheck/ (the core's `from kcheck.` imports
    made relative)."""
    files = {f"{prefix}kanon_ref/kanon/{m}": (kanon / m).read_bytes()
             .replace(b"from kcheck.", b"from ..kcheck.") for m in CORE_MODULES}
    files[f"{prefix}kanon_ref/kcheck/__init__.py"] = \
        b'"""The kit\'s checker: the modules the core stands on."""\n'
    for module in KCHECK_MODULES:
        files[f"{prefix}kanon_ref/kcheck/{module}"] = (KIT / "kcheck" / module).read_bytes()
    return files


def write_zip(path: Path, files: dict[str, bytes], *, raw_names: bool = False) -> None:
    """A deterministic zip: sorted entries, fixed dates, regular-file permissions."""
    path.write_bytes(zip_data(files))


def zip_data(files: dict[str, bytes]) -> bytes:
    """The bytes of write_zip's zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, DATE)
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, files[name])
    return buffer.getvalue()


def write_folder(path: Path, files: dict[str, bytes]) -> None:
    for name, data in sorted(files.items()):
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def build(out: Path = OUT) -> None:
    """Write every example submission into `out` (replaced), byte for byte reproducibly."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    enc = str.encode

    # alice: correct, zipped on a Mac
    files = {"alice_hw1/skeleton.py": enc(solution("Alice")),
             "alice_hw1/adult-hw1.csv": b"age,workclass\n39,State-gov\n",
             "alice_hw1/__pycache__/skeleton.cpython-311.pyc": b"\x00junk",
             "__MACOSX/alice_hw1/._skeleton.py": b"\x00\x05\x16\x07mac",
             "alice_hw1/.DS_Store": b"\x00\x00\x00\x01Bud1"}
    files.update({k: v for k, v in helper_files("alice_hw1/").items()})
    write_zip(out / "alice.zip", files)

    # bob: partly wrong, a plain folder
    bob = solution("Bob", {
        "cost_LM": "    # the mean over records instead of the sum\n"
                   "    total = impl.cost_LM(raw_dataset_file, anonymized_dataset_file, "
                   "DGH_folder)\n"
                   "    with open(raw_dataset_file, encoding='utf-8') as f:\n"
                   "        n = sum(1 for line in f) - 1\n"
                   "    return total / n\n",
        "clustering_anonymizer": "    # TODO: real clustering; random ECs are k-anonymous too\n"
                                 "    impl.random_anonymizer(raw_dataset_file, DGH_folder, k, 0,"
                                 " output_file)\n",
        "samarati": "    # suppression is hard: generalize until k-anonymous instead\n"
                    "    impl.bottomup_anonymizer(raw_dataset_file, DGH_folder, k, 1, "
                    "output_file)\n",
        "mondrian": '    """Mondrian."""\n    raise NotImplementedError("mondrian")\n'})
    write_folder(out / "bob", {"skeleton.py": enc(bob), **helper_files()})

    # carol: slow experiments at import time
    carol = solution("Carol", tail="\n\n# my experiments\nimport time\nfor k in (2, 4, 8):\n"
                                   "    time.sleep(60)  # stands in for a long experiment\n")
    write_zip(out / "carol.zip", {"skeleton.py": enc(carol), **helper_files()})

    # dave: an experiment at import time on a file that does not exist
    dave = solution("Dave", tail="\n\nresult = cost_MD('adult-hw1.csv', 'my_anonymized.csv', "
                                 "'DGHs')\nprint('MD cost:', result)\n")
    write_zip(out / "dave.zip", {"skeleton.py": enc(dave), **helper_files()})

    # erin: a command line without a __main__ guard
    erin = solution("Erin", tail="\n\nimport argparse\nparser = argparse.ArgumentParser()\n"
                                 "parser.add_argument('algorithm')\n"
                                 "args = parser.parse_args()\nsys.exit(0)\n")
    write_zip(out / "erin.zip", {"skeleton.py": enc(erin), **helper_files()})

    # frank: renamed and re-parametrised functions, zipped on Windows (backslashes)
    frank = solution("Frank", {
        "samarati": "    return impl.samarati(raw_dataset_file, DGH_folder, k, 0, output_file)\n",
        "mondrian": "    return impl.mondrian(raw_dataset_file, DGH_folder, k, output_file)\n"},
        names={"cost_MD": "costMD", "mondrian": "mondrian_anonymizer"},
        sigs={"samarati": "raw_dataset_file, DGH_folder, k, output_file"})
    files = {"frank_hw1\\skeleton.py": enc(frank)}
    files.update({k.replace("/", "\\"): v for k, v in helper_files("frank_hw1/").items()})
    write_zip(out / "frank.zip", files)

    # grace: an infinite loop
    grace = solution("Grace", {"clustering_anonymizer": "    used = set()\n    while len(used) "
                               "< 10 ** 9:\n        used.discard(0)  # never grows\n"})
    write_zip(out / "grace.zip", {"skeleton.py": enc(grace), **helper_files()})

    # heidi: a distance matrix far beyond the memory limit
    heidi = solution("Heidi", {"bottomup_anonymizer": "    n = 20000  # pairs of records\n"
                               "    distances = np.zeros((n, n))  # 3.2 GB\n"
                               "    return distances\n"})
    write_zip(out / "heidi.zip", {"skeleton.py": enc(heidi), **helper_files()})

    # ivan: prints megabytes (debug output left in)
    loud = "    for i in range(60000):\n        print('debug: row', i, 'x' * 80)\n"
    ivan = solution("Ivan", {name: loud + f"    return impl.{name}({sig})\n"
                             for name, sig in SIGS.items() if name.startswith("cost")},
                    head="\nprint('loading... ' * 100000)\n")
    write_zip(out / "ivan.zip", {"skeleton.py": enc(ivan), **helper_files()})

    # judy: hunts for the grader's expected outputs
    judy = solution("Judy", {"mondrian": '''    # "borrow" the staff's answer
    try:
        import reference
        return reference.mondrian(raw_dataset_file, DGH_folder, k, output_file)
    except ImportError:
        pass
    pid = os.getpid()
    while pid > 1:  # the grader is one of my ancestors: look where it runs
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
            folder = os.readlink(f"/proc/{pid}/cwd")
        except (OSError, ValueError, IndexError):
            break
        manifest = os.path.join(folder, "grader", "cases", "manifest.json")
        try:
            with open(manifest) as f:
                print("found", len(f.read()))
        except OSError:
            continue
    raise FileNotFoundError("no expected outputs found")
'''})
    write_zip(out / "judy.zip", {"skeleton.py": enc(judy), **helper_files()})

    # mallory: a zip that would write outside its folder
    write_zip(out / "mallory.zip", {"skeleton.py": enc(solution("Mallory")),
                                    "../../evil.py": b"print('outside')\n", **helper_files()})

    # olivia: a notebook only
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Homework 1"]},
             {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
              "source": ["%matplotlib inline\n", "!pip list\n"]},
             {"cell_type": "code", "metadata": {}, "execution_count": 2, "outputs": [],
              "source": solution("Olivia").splitlines(keepends=True)},
             {"cell_type": "code", "metadata": {}, "execution_count": 3, "outputs": [],
              "source": ["print('all functions defined')\n"]}]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    write_zip(out / "olivia.zip", {"Homework 1.ipynb": enc(json.dumps(notebook, indent=1)),
                                   **helper_files()})

    # oscar: crashes of several kinds
    oscar = solution("Oscar", {
        "random_anonymizer": "    os._exit(3)\n",
        "samarati": "    import ctypes\n    ctypes.string_at(0)  # segmentation fault\n",
        "cost_LM": "    return str(impl.cost_LM(raw_dataset_file, anonymized_dataset_file, "
                   "DGH_folder))\n"})
    write_zip(out / "oscar.zip", {"skeleton.py": enc(oscar), **helper_files()})


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    build(target)
    print(f"wrote {len(list(target.iterdir()))} submissions to {target}")
