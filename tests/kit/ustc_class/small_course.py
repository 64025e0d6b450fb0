"""A smaller twin of courses/ustc for grading the class end to end in seconds, not minutes.

    python tests/kit/ustc_class/small_course.py OUT_FOLDER [--rows N]

The twin is courses/ustc copied as it is (rubric, course.toml, data model, hidden cases, their
hierarchies) but for its public dataset, `cases/public/adult`: N rows (ROWS by default) drawn
from the course's data model with the course's public seed (reference/data.py), its
hierarchies rebuilt from them (reference/lab_hierarchies.py), then its expected outputs and
rules pool recomputed (`python -m grader regen --course OUT_FOLDER`). The same N gives the
same files byte for byte. The labelled bugs of labels.toml show on it as on the course's
30,162 rows (check_labels.py --case OUT_FOLDER/cases/public/adult); only the calls get
cheaper.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
USTC = REPO / "courses" / "ustc"
PUBLIC = Path("cases") / "public" / "adult"
ROWS = 4000  # the smallest draw tried (3,000 to 12,000 rows) on which every label
# holds, first_vector_only's bug showing at k=50 and the right answers differing at k=10

if str(REPO) not in sys.path:  # run as a script
    sys.path.insert(0, str(REPO))

from kanon.files import atomic_write_bytes  # noqa: E402
from reference.data import model_csv  # noqa: E402
from reference.lab_hierarchies import DATA_FILE, write_case_hierarchies  # noqa: E402


def make(out: Path, rows: int = ROWS, env: dict[str, str] | None = None) -> Path:
    """Write the twin into `out` (which must not exist) and return it; raises RuntimeError
    with regen's own error when recomputing the expected outputs fails. `env`: regen's
    environment (default this process's)."""
    shutil.copytree(USTC, out, ignore=shutil.ignore_patterns("__pycache__", ".cases-*"))
    model = json.loads((USTC / "data-model.json").read_text(encoding="utf-8"))
    case = out / PUBLIC
    atomic_write_bytes(case / DATA_FILE, model_csv(model, rows))
    write_case_hierarchies(str(case))
    done = subprocess.run([sys.executable, "-m", "grader", "regen", "--course", str(out)],
                          cwd=REPO, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"regen --course {out} failed:\n{done.stderr[-3000:]}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the twin's folder (must not exist)")
    parser.add_argument("--rows", type=int, default=ROWS, help=f"public rows (default {ROWS})")
    args = parser.parse_args(argv)
    if args.out.exists():
        print(f"error: {args.out} exists", file=sys.stderr)
        return 2
    make(args.out, args.rows)
    print(f"wrote {args.out} ({args.rows} public rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
