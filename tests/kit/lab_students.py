"""Students' answers to the USTC lab (courses/ustc) for the tests of its rule-judged
counterexamples: a strict Mondrian written from scratch (numeric QIs, standard library only)
in three flavours, and the course's known-good module with one Samarati bug.

  "right"     cuts the QIs in column order (any dimension is allowed: right, and not the
              reference's widest-range choice, so its output differs from the reference's);
  "reversed"  cuts the last QI first (right as well, and different again);
  "relaxed"   cuts at the middle position, equal values on both sides (the relaxed median:
              breaks rule "median-cuts").
The Samarati bug: the outliers are released (generalized) instead of deleted (rule
"deletion").
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

FLAVOURS = ("right", "reversed", "relaxed")


def mondrian_for(flavour: str):
    """The student's mondrian(raw_dataset_file, DGH_folder, k, output_file) of a flavour."""
    relaxed, reverse = flavour == "relaxed", flavour == "reversed"

    def mondrian(raw_dataset_file, DGH_folder, k, output_file):
        with open(raw_dataset_file, newline="", encoding="utf-8") as f:
            header, *rows = list(csv.reader(f))
        if len(rows) < k:
            raise ValueError("fewer rows than k")
        qis = [c for c, name in enumerate(header)
               if os.path.isfile(os.path.join(DGH_folder, name + ".txt"))]
        keep = sorted(qis + [header.index("occupation")])
        order = qis[::-1] if reverse else qis
        out = [list(r) for r in rows]

        def cut(part, q):
            ranked = sorted(part, key=lambda i: float(rows[i][q]))
            if relaxed:
                lhs, rhs = ranked[:len(ranked) // 2], ranked[len(ranked) // 2:]
            else:
                split = float(rows[ranked[(len(ranked) - 1) // 2]][q])
                lhs = [i for i in part if float(rows[i][q]) <= split]
                rhs = [i for i in part if float(rows[i][q]) > split]
            return (lhs, rhs) if len(lhs) >= k and len(rhs) >= k else None

        pending = [list(range(len(rows)))]
        while pending:
            part = pending.pop()
            for q in order:
                halves = cut(part, q)
                if halves:
                    pending += halves
                    break
            else:
                for q in qis:
                    lo = rows[min(part, key=lambda i: float(rows[i][q]))][q]
                    hi = rows[max(part, key=lambda i: float(rows[i][q]))][q]
                    for i in part:
                        out[i][q] = lo if float(lo) == float(hi) else f"[{lo}-{hi}]"
        with open(output_file, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow([header[c] for c in keep])
            writer.writerows([[r[c] for c in keep] for r in out])

    return mondrian


_SOURCE_START = "    def mondrian(raw_dataset_file"
NO_DELETION = ("problem.write(output_file, generalized, deleted=mask)",
               "problem.write(output_file, generalized)")
STAFF_MONDRIAN = ("def mondrian(raw_dataset_file, DGH_folder, k, output_file):\n"
                  "    return _reference.mondrian(raw_dataset_file, DGH_folder, k, output_file, "
                  "schema=_SCHEMA)")


def mondrian_source(flavour: str) -> str:
    """mondrian_for(flavour) as a module of its own (student_mondrian.py)."""
    text = Path(__file__).read_text(encoding="utf-8")
    body = text[text.index(_SOURCE_START):text.index("    return mondrian\n")]
    relaxed, reverse = flavour == "relaxed", flavour == "reversed"
    lines = [line[4:] for line in body.splitlines()]
    return (f"import csv\nimport os\n\nrelaxed, reverse = {relaxed}, {reverse}\n\n\n"
            + "\n".join(lines) + "\n")


def write_submission(folder: Path, staff_solution: str, flavour: str,
                     samarati_deletes: bool = True) -> None:
    """A submission: lab.py (the staff's Samarati, or it without deletion, and the
    flavour's Mondrian imported from student_mondrian.py)."""
    assert staff_solution.count(STAFF_MONDRIAN) == 1 and staff_solution.count(NO_DELETION[0]) == 1
    lab = staff_solution.replace(STAFF_MONDRIAN, "from student_mondrian import mondrian")
    if not samarati_deletes:
        lab = lab.replace(*NO_DELETION)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lab.py").write_text(lab, encoding="utf-8")
    (folder / "student_mondrian.py").write_text(mondrian_source(flavour), encoding="utf-8")
