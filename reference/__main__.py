"""Command line of the reference solution, the same as skeleton.py's:

    python -m reference <algorithm> <DGH-folder> <raw.csv> <out.csv> <k> [s | l | max_sup]

algorithm: random (s, default 0), clustering, bottomup (l, default 1), samarati (max_sup,
default 0), mondrian. Prints the MD and LM costs of the output and the run time.
"""
from __future__ import annotations

import sys
import time

from . import (bottomup_anonymizer, clustering_anonymizer, cost_LM, cost_MD, mondrian,
               random_anonymizer, samarati)

USAGE = ("usage: python -m reference <algorithm> <DGH-folder> <raw.csv> <out.csv> <k> "
         "[s | l | max_sup]\n  algorithm: random [s], clustering, bottomup [l], "
         "samarati [max_sup], mondrian")

# algorithm -> (function, name of the optional 6th argument, its default)
ALGORITHMS = {
    "random": (random_anonymizer, "s", 0),
    "clustering": (clustering_anonymizer, None, None),
    "bottomup": (bottomup_anonymizer, "l", 1),
    "samarati": (samarati, "max_sup", 0),
    "mondrian": (mondrian, None, None),
}


def _integer(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SystemExit(f"error: {name} must be an integer, got {text!r}\n{USAGE}") from None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 5 or args[0] not in ALGORITHMS:
        problem = "" if len(args) < 1 or args[0] in ALGORITHMS else \
            f"error: unknown algorithm {args[0]!r}\n"
        print(problem + USAGE, file=sys.stderr)
        return 2
    algorithm, dgh_folder, raw_file, out_file = args[:4]
    function, extra_name, default = ALGORITHMS[algorithm]
    allowed = 6 if extra_name else 5
    if len(args) > allowed:
        print(f"error: too many arguments for {algorithm}\n{USAGE}", file=sys.stderr)
        return 2
    k = _integer("k", args[4])
    call = [raw_file, dgh_folder, k]
    if extra_name:
        call.append(_integer(extra_name, args[5]) if len(args) == 6 else default)
    started = time.perf_counter()
    try:
        function(*call, out_file)
        elapsed = time.perf_counter() - started
        md = cost_MD(raw_file, out_file, dgh_folder)
        lm = cost_LM(raw_file, out_file, dgh_folder)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{algorithm}: wrote {out_file}")
    print(f"MD cost: {md:g}")
    print(f"LM cost: {lm:.6f}")
    print(f"time: {elapsed:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
