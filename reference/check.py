"""Privacy, utility and risk report of an anonymized table (the models of HANDOUT.md's "Beyond
k-anonymity: privacy models", in a course that grades a privacy measure; the section source is
grader/publishing/materials/handout/beyond.md). A tool for course staff: students do not get it.

    python -m reference.check ANON.csv --raw RAW.csv --dghs DIR [--sensitive COLUMN]
        [--sensitive-dgh FILE] [--c C] [--k K] [--json]

The QIs are the columns with a hierarchy in DIR (except the sensitive column); the sensitive
column is --sensitive, else the single other column. A hierarchy of the sensitive attribute
(--sensitive-dgh, or DIR/<sensitive>.txt with --sensitive) orders its values and enables the
hierarchical ground distance. Exit status: 0 report printed, 1 bad input (one line naming the
file, row and column), 2 bad arguments. The report gives every model, metric and risk of that
section, as text or as JSON (--json); --k sets the k of the normalized average EC size (default:
the k reached).

Where it differs from the pyCANON library: pyCANON truncates e^H with int() (two equally
frequent values give entropy l = 1), sorts counts upwards in recursive (c, l)-diversity (its
r_1 is the smallest count), averages re-identification risk over ECs rather than rows, and
treats ordinal strings such as the income ranges as unordered; it has no hierarchical distance.
"""
from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from kanon.privacy import (Release, c_avg, discernibility, distinct_l, entropy_l, entropy_l_real,
                      gcp, homogeneity, lm_total, load_release, md_total, ncp_per_qi,
                      prosecutor_avg, prosecutor_max, recursive_c, recursive_l, release_counts,
                      row_order_matches, ROW_ORDER_NOTE, t_closeness)

__all__ = ["build_report", "format_report", "main"]


def build_report(release: Release, c: float = 2.0, k: int | None = None) -> dict:
    """Every figure of the checker, as a JSON-ready dict."""
    sizes = release.sizes
    counts, domain, order = release_counts(release)
    achieved_k = int(sizes.min())
    l_distinct = distinct_l(counts)
    distribution = np.unique(sizes, return_counts=True)
    closeness = {}
    if order is not None:
        closeness["ordered"] = t_closeness(counts, "ordered")
    closeness["equal"] = t_closeness(counts, "equal")
    if release.sensitive_dgh is not None:
        closeness["hierarchical"] = t_closeness(counts, "hierarchical", release.sensitive_dgh,
                                                domain)
    homogeneous_records, homogeneous_classes = homogeneity(counts)
    non_qi = [col for col in range(len(release.raw.header)) if col not in release.qi_columns]
    return {
        "files": {"anonymized": release.anon.path, "raw": release.raw.path},
        "rows": release.n,
        "quasi_identifiers": release.qi_names,
        "sensitive": release.sensitive_name,
        "sensitive_hierarchy": release.sensitive_dgh.path if release.sensitive_dgh else None,
        "sensitive_order": order,
        "sensitive_domain": domain,
        "k": achieved_k,
        "classes": int(len(sizes)),
        "class_sizes": {"min": achieved_k, "median": float(np.median(sizes)),
                        "mean": float(sizes.mean()), "max": int(sizes.max()),
                        "distribution": {str(int(s)): int(n) for s, n in zip(*distribution)}},
        "distinct_l": l_distinct,
        "entropy_l": entropy_l(counts),
        "entropy_l_real": entropy_l_real(counts),
        "recursive": {"c": c, "largest_l": recursive_l(counts, c),
                      "smallest_integer_c_for_distinct_l": recursive_c(counts, l_distinct)},
        "t_closeness": closeness,
        "utility": {"MD": md_total(release.md), "LM": lm_total(release.lm),
                    "NCP": {name: float(v) for name, v in
                            zip(release.qi_names, ncp_per_qi(release.ncp))},
                    "GCP": gcp(release.ncp), "discernibility": discernibility(sizes),
                    "C_avg": c_avg(sizes, achieved_k if k is None else k),
                    "C_avg_k": achieved_k if k is None else k},
        "risk": {"prosecutor_max": prosecutor_max(sizes), "prosecutor_avg": prosecutor_avg(sizes),
                 "homogeneity_records": homogeneous_records,
                 "homogeneity_classes": homogeneous_classes,
                 "row_order_matches_raw": row_order_matches(release.raw.rows, release.anon.rows,
                                                            non_qi),
                 "row_order_note": ROW_ORDER_NOTE},
    }


def _num(value: float) -> str:
    value = float(value)
    return f"{value:.0f}" if value.is_integer() else f"{value:.6f}"


def _distribution(dist: dict[str, int], limit: int = 12) -> str:
    items = [f"{size} x {count}" for size, count in dist.items()]
    more = f", ... ({len(items) - limit} more sizes)" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def format_report(report: dict) -> str:
    """The human-readable report."""
    sizes, util, risk = report["class_sizes"], report["utility"], report["risk"]
    rec = report["recursive"]
    order = {"hierarchy": f"the order of the labels in {report['sensitive_hierarchy']}",
             "numeric": "numeric order", "ranges": "the order of the ranges' bounds",
             None: "none (unordered)"}[report["sensitive_order"]]
    lines = [
        f"anonymized table: {report['files']['anonymized']} ({report['rows']} rows; raw "
        f"{report['files']['raw']})",
        f"quasi-identifiers: {', '.join(report['quasi_identifiers'])}",
        f"sensitive attribute: {report['sensitive']} ({len(report['sensitive_domain'])} values;"
        f" order: {order})",
        "",
        "privacy",
        f"  k (smallest class):            {report['k']}",
        f"  classes:                       {report['classes']} (size min {sizes['min']}, "
        f"median {_num(sizes['median'])}, mean {sizes['mean']:.2f}, max {sizes['max']})",
        f"  class sizes (size x classes):  {_distribution(sizes['distribution'])}",
        f"  distinct l:                    {report['distinct_l']}",
        f"  entropy l:                     {report['entropy_l']} (exp of the smallest class "
        f"entropy: {report['entropy_l_real']:.6f})",
        f"  recursive (c, l), c = {_num(rec['c']):<8} largest l = {rec['largest_l']}"
        + (f"; smallest integer c for l = {report['distinct_l']}: "
           f"{rec['smallest_integer_c_for_distinct_l']}"
           if rec['smallest_integer_c_for_distinct_l'] is not None else ""),
    ]
    for name, t in report["t_closeness"].items():
        lines.append(f"  {'t-closeness, ' + name + ' distance:':<31}{t:.6f}")
    if "ordered" not in report["t_closeness"]:
        lines.append(f"  {'t-closeness, ordered distance:':<31}not applicable (the sensitive "
                     f"values have no order)")
    lines += [
        "",
        "utility",
        f"  MD (cost_MD):                  {_num(util['MD'])}",
        f"  LM (cost_LM):                  {_num(util['LM'])}",
        f"  GCP (mean NCP):                {util['GCP']:.6f}",
        "  NCP per QI:                    " + ", ".join(
            f"{name} {v:.4f}" for name, v in util["NCP"].items()),
        f"  discernibility (sum |E|^2):    {util['discernibility']}",
        f"  C_avg ((n / classes) / k):     {util['C_avg']:.6f} (k = {util['C_avg_k']})",
        "",
        "risk",
        f"  prosecutor risk, largest:      {risk['prosecutor_max']:.6f} (1 / k)",
        f"  prosecutor risk, average:      {risk['prosecutor_avg']:.6f} (classes / rows)",
        f"  homogeneity attack:            {risk['homogeneity_records']} records in "
        f"{risk['homogeneity_classes']} classes whose {report['sensitive']} values are all "
        f"equal",
        "  row order matches the raw file: "
        + (f"yes, {risk['row_order_note']}" if risk["row_order_matches_raw"] else "no"),
    ]
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m reference.check",
        description="Privacy models (k, distinct/entropy/recursive l-diversity, t-closeness), "
                    "utility metrics and risks of an anonymized table.")
    p.add_argument("anonymized", metavar="ANON.csv", help="the anonymized table")
    p.add_argument("--raw", required=True, metavar="RAW.csv", help="the raw table")
    p.add_argument("--dghs", required=True, metavar="DIR",
                   help="folder of <column>.txt hierarchies (the QIs)")
    p.add_argument("--sensitive", metavar="COLUMN",
                   help="the sensitive column (default: the single column without hierarchy)")
    p.add_argument("--sensitive-dgh", metavar="FILE",
                   help="a hierarchy of the sensitive values (default: DIR/<sensitive>.txt "
                        "when --sensitive names a column that has one)")
    p.add_argument("--c", type=float, default=2.0, metavar="C",
                   help="c of recursive (c, l)-diversity (default 2)")
    p.add_argument("--k", type=int, metavar="K",
                   help="k for C_avg (default: the k the table reaches)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not args.c > 0 or not np.isfinite(args.c):
        p.print_usage(sys.stderr)
        print(f"{p.prog}: error: --c must be a positive number, got {args.c}", file=sys.stderr)
        return 2
    if args.k is not None and args.k < 1:
        p.print_usage(sys.stderr)
        print(f"{p.prog}: error: --k must be at least 1, got {args.k}", file=sys.stderr)
        return 2
    try:
        release = load_release(args.raw, args.anonymized, args.dghs, args.sensitive,
                               args.sensitive_dgh)
        if release.n == 0:
            raise ValueError(f"{args.anonymized}: the table has no data rows")
        report = build_report(release, args.c, args.k)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
