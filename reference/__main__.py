"""Command line of the reference solution, the same as skeleton.py's:

    python -m reference <algorithm> <DGH-folder> <raw.csv> <out.csv> <k> [s | l | max_sup]

algorithm: random (s, default 0), clustering, bottomup (l, default 1), samarati (max_sup,
default 0), mondrian, and the optional parts topdown, datafly, greedy (topdown_greedy), kaca
(a course's skeleton.py offers the course's own anonymizers under the same names). Prints the MD and LM costs of the output and the run time. Exit status:
0 done, 1 an error from the algorithm (one line), 2 bad arguments. A warning goes to stderr
when more than one column of the dataset has no hierarchy file (those columns are not
quasi-identifiers and are published unchanged; HANDOUT.md, "Files").
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import time

from . import (bottomup_anonymizer, clustering_anonymizer, cost_LM, cost_MD, datafly, kaca,
               mondrian, random_anonymizer, samarati, topdown_anonymizer, topdown_greedy)

# algorithm -> (function, name of the optional 6th argument, its default)
ALGORITHMS = {
    "random": (random_anonymizer, "s", 0),
    "clustering": (clustering_anonymizer, None, None),
    "bottomup": (bottomup_anonymizer, "l", 1),
    "samarati": (samarati, "max_sup", 0),
    "mondrian": (mondrian, None, None),
    "topdown": (topdown_anonymizer, None, None),
    "datafly": (datafly, None, None),
    "greedy": (topdown_greedy, None, None),
    "kaca": (kaca, None, None),
}


def prog_name() -> str:
    """`python -m reference`, or the script's own name (kanon-reference)."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "python -m reference" if name in ("", "__main__.py", "-c") else name


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog_name(), description="Anonymize a dataset with the reference solution and "
        "print the MD and LM costs of the output and the run time.",
        epilog="The sixth argument is s (random: the seed, default 0), l (bottomup: distinct "
               "l-diversity, default 1) or max_sup (samarati: most suppressed rows, default 0); "
               "the others take none.")
    p.add_argument("algorithm", choices=list(ALGORITHMS), metavar="algorithm",
                   help="random, clustering, bottomup, samarati, mondrian, topdown, datafly, "
                        "greedy or kaca")
    p.add_argument("dgh_folder", metavar="DGH-folder", help="folder of <column>.txt hierarchies")
    p.add_argument("raw", metavar="raw.csv", help="the dataset to anonymize")
    p.add_argument("out", metavar="out.csv", help="where to write the anonymized dataset")
    p.add_argument("k", type=int, help="every equivalence class has at least k rows")
    p.add_argument("extra", type=int, nargs="?", metavar="s | l | max_sup",
                   help="random: s; bottomup: l; samarati: max_sup")
    return p


def columns_without_hierarchy(raw_file: str, dgh_folder: str) -> list[str]:
    """The dataset's columns with no <column>.txt in `dgh_folder` ([] when either cannot be
    read: the algorithm then reports the problem itself)."""
    try:
        with open(raw_file, encoding="utf-8-sig", newline="") as f:
            header = next((row for row in csv.reader(f) if row), [])
        have = {name[:-4] for name in os.listdir(dgh_folder) if name.endswith(".txt")}
    except (OSError, UnicodeDecodeError, csv.Error):
        return []
    return [column for column in header if column not in have]


def hierarchy_warning(raw_file: str, dgh_folder: str) -> str | None:
    """A warning when more than one column lacks a hierarchy (one, the sensitive attribute,
    is normal)."""
    raw_columns = columns_without_hierarchy(raw_file, dgh_folder)
    if len(raw_columns) < 2:
        return None
    return (f"warning: {len(raw_columns)} columns have no hierarchy file in {dgh_folder}: "
            f"{', '.join(raw_columns)}; they are not quasi-identifiers and are published "
            f"unchanged (is a <column>.txt missing?)")


def main(argv: list[str] | None = None) -> int:
    p = parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as e:  # --help: 0; bad arguments: 2 (argparse printed the usage)
        return int(e.code or 0)
    function, extra_name, default = ALGORITHMS[args.algorithm]
    if args.extra is not None and extra_name is None:
        p.print_usage(sys.stderr)
        print(f"{p.prog}: error: {args.algorithm} takes no sixth argument", file=sys.stderr)
        return 2
    call = [args.raw, args.dgh_folder, args.k]
    if extra_name:
        call.append(default if args.extra is None else args.extra)
    warning = hierarchy_warning(args.raw, args.dgh_folder)
    if warning:
        print(warning, file=sys.stderr)
    started = time.perf_counter()
    try:
        function(*call, args.out)
        elapsed = time.perf_counter() - started
        md = cost_MD(args.raw, args.out, args.dgh_folder)
        lm = cost_LM(args.raw, args.out, args.dgh_folder)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{args.algorithm}: wrote {args.out}")
    print(f"MD cost: {cost_text(md)}")
    print(f"LM cost: {cost_text(lm)}")
    print(f"time: {elapsed:.3f} s")
    return 0


def cost_text(value: float) -> str:
    """A cost as both command lines print it: whole numbers without decimals, else six."""
    value = float(value)
    return f"{value:.0f}" if value.is_integer() else f"{value:.6f}"


if __name__ == "__main__":
    sys.exit(main())
