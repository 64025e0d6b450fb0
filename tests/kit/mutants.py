"""Deliberately wrong variants of the reference, each a plausible student mistake.

A mutant is a textual patch (old -> new) of one reference module; `apply` copies reference/
and asserts that every `old` occurs exactly once, so a mutant cannot silently go stale when the
reference changes. `caught_by` names a public test (node id relative to tests/public/) that
must fail on the mutant; test_quality_gate.py checks it.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path


CELLS = "../kanon/cells.py"  # the cell rule and per-cell costs live in the core


@dataclass(frozen=True)
class Mutant:
    name: str
    marker: str  # the -k name of the public tests that exercise it
    module: str  # file under reference/ (CELLS: the core's cell rule, copied beside it)
    old: str
    new: str
    caught_by: str
    more: tuple[tuple[str, str], ...] = ()  # further (old, new) patches of the same module
    course: str | None = None  # a rubric (relative to the kit root) whose course.json the
    # public tests use; its solution is the reference with the rubric's variants swapped in

    @property
    def patches(self) -> list[tuple[str, str]]:
        return [(self.old, self.new), *self.more]


MUTANTS: list[Mutant] = [
    Mutant("LM as a mean over records instead of a sum", "cost_LM", "costs.py",
           "return float((lm.sum(axis=1) / problem.m).sum())",
           "return float((lm.sum(axis=1) / problem.m).mean())",
           "test_public_functions.py::test_cost_LM[jobsex-anon-example]"),
    Mutant("MD one level too many for every generalized cell", "cost_MD", CELLS,
           "return int(dgh.depth[raw_node] - dgh.depth[node]), float(dgh.lm(node))",
           "return int(dgh.depth[raw_node] - dgh.depth[node] + (node != raw_node)), "
           "float(dgh.lm(node))",
           "test_public_functions.py::test_cost_MD[jobsex-anon-example]"),
    Mutant("MD from the hierarchy's height instead of the raw value's depth", "cost_MD",
           CELLS,
           "return int(dgh.depth[raw_node] - dgh.depth[node]), float(dgh.lm(node))",
           "return int(dgh.height - dgh.depth[node]), float(dgh.lm(node))",
           "test_public_functions.py::test_cost_MD[world-raw]"),
    Mutant("LM of an interval cell as the LM of its LCA node", "cost_LM", CELLS,
           "lm = (hi - lo) / (self.high - self.low) if self.high > self.low else 0.0",
           "lm = float(dgh.lm(gen))",
           "test_public_functions.py::test_cost_LM[world-anon-mixed]"),
    Mutant("random: the remainder forms its own, too small, last EC", "random",
           "random_anon.py",
           "position_class = np.minimum(np.arange(n) // k, n // k - 1)",
           "position_class = np.arange(n) // k",
           "test_public_functions.py::test_random_valid_and_k_anonymous[jobsex-k3-s7]"),
    Mutant("random: the remainder joins the first EC instead of the last", "random",
           "random_anon.py",
           "position_class = np.minimum(np.arange(n) // k, n // k - 1)",
           "position_class = np.where(np.arange(n) // k >= n // k, 0, np.arange(n) // k)",
           "test_public_functions.py::test_random_matches_reference[jobsex-k3-s7]"),
    Mutant("random: the seed is ignored", "random", "random_anon.py",
           "np.random.RandomState(s).shuffle(order)",
           "np.random.RandomState(0).shuffle(order)",
           "test_public_functions.py::test_random_matches_reference[jobsex-k3-s7]"),
    Mutant("clustering: ties between candidates broken by the highest row index", "clustering",
           "clustering.py",
           "order = np.lexsort((close, tie_ranks(ties)))",
           "order = np.lexsort((-close, tie_ranks(ties)))",
           "test_public_functions.py::test_clustering_matches_reference[jobsex-k3]",
           more=(("            close = close[:count]", "            close = close[-count:]"),)),
    Mutant("clustering: the next record is the farthest from the last centroid only",
           "clustering", "clustering.py",
           "sums += to_curr",
           "sums = np.where(sums == -np.inf, sums, to_curr)",  # used records stay out
           "test_public_functions.py::test_clustering_matches_reference[jobsex-k3]"),
    Mutant("clustering: leftover records all join the last EC", "clustering", "clustering.py",
           "classes[r] = argmin_first(dist.to_rows(int(r), centroid_rows))",
           "classes[r] = len(centroids) - 1",
           "test_public_functions.py::test_clustering_matches_reference[world-k5]"),
    Mutant("clustering: the distance has no MD term", "clustering", "clustering.py",
           "        if self.total_height:\n            term = term + ",
           "        if False:\n            term = term + ",
           "test_public_functions.py::test_clustering_matches_reference[jobsex-k2]"),
    Mutant("clustering: the MD term is not normalised", "clustering", "clustering.py",
           "dgh.depth[lca]) / (\n                2 * self.total_height)",
           "dgh.depth[lca]) / (\n                1)",
           "test_public_functions.py::test_clustering_matches_reference[mdscale-k2]"),
    Mutant("bottom-up: the first satisfying node instead of the lowest LM", "bottomup",
           "lattice.py",
           "for node in lattice.ordered_by_lm(lattice.level_nodes(level)):",
           "for node in lattice.level_nodes(level):",
           "test_public_functions.py::test_bottomup_matches_reference[lattice-k2-l1]"),
    Mutant("bottom-up: LM ties broken by the largest vector", "bottomup", "lattice.py",
           "return [v for _, v in sorted(zip(ranks.tolist(), nodes))]",
           "return [v for _, v in sorted(zip(ranks.tolist(), nodes), "
           "key=lambda t: (t[0], [-x for x in t[1]]))]",
           "test_public_functions.py::test_bottomup_matches_reference[tie4-k2-l1]"),
    Mutant("bottom-up: l-diversity ignored", "bottomup", "bottomup.py",
           "        if l > 1:\n",
           "        if False:\n",
           "test_public_functions.py::test_bottomup_valid_and_k_anonymous_and_l_diverse"
           "[lattice-k2-l2]"),
    Mutant("samarati: outliers are generalized, not suppressed", "samarati", "samarati.py",
           "generalized[mask] = 0  # every QI cell of a suppressed row becomes its root",
           "pass",
           "test_public_functions.py::test_samarati_valid_and_k_anonymous_after_suppression"
           "[sam-k2-max_sup2]"),
    Mutant("samarati: the first satisfying node at h* (lexicographic), not the lowest LM",
           "samarati", "samarati.py",
           "for node in lattice.ordered_by_lm(lattice.level_nodes(found[0])):",
           "for node in lattice.level_nodes(found[0]):",
           "test_public_functions.py::test_samarati_matches_reference[sam-k2-max_sup0]",
           more=(("if best is None or cost < best[0] - EPS or", "if best is None or False and"),)),
    Mutant("samarati: LM compared before suppression (suppressed rows cost nothing extra)",
           "samarati", "samarati.py",
           "cost = suppressed_lm(node, mask)",
           "cost = lattice.lm(node)",
           "test_public_functions.py::test_samarati_matches_reference[supp-k2-max_sup1]"),
    Mutant("mondrian: the upper median", "mondrian", "mondrian.py",
           "split = ordered[starts + (sizes - 1) // 2]",
           "split = ordered[starts + sizes // 2]",
           "test_public_functions.py::test_mondrian_matches_reference[grid-k2]"),
    Mutant("mondrian: width ties broken by the last column", "mondrian", "mondrian.py",
           "by_rank = np.argsort(ranks * m + np.arange(m), axis=1)",
           "by_rank = np.argsort(ranks * m + (m - 1 - np.arange(m)), axis=1)",
           "test_public_functions.py::test_mondrian_matches_reference[grid-k2]"),
    Mutant("mondrian: interval bounds written as floats, not the raw strings", "mondrian",
           "mondrian.py",
           'f"[{spell[lo]}-{spell[hi]}]"',
           'f"[{column.values[lo]}-{column.values[hi]}]"',
           "test_public_functions.py::test_mondrian_matches_reference[world-k2]"),
    # optional parts (the handout of a course that grades them)
    Mutant("topdown: no L1 tie-break (the leftmost QI among the fewest children)", "topdown",
           "topdown.py",
           "    best = next(c for c in candidates if c[1] <= smallest + EPS)  # ties: leftmost QI",
           "    best = candidates[0]",
           "test_public_functions.py::test_topdown_matches_reference[jobsex-k2]"),
    Mutant("topdown: the most children first", "topdown", "topdown.py",
           "fewest = min(c[0] for c in candidates)",
           "fewest = max(c[0] for c in candidates)",
           "test_public_functions.py::test_topdown_matches_reference[grid-k2]"),
    Mutant("topdown: a split is allowed when the node (not every child group) has k records",
           "topdown", "topdown.py",
           "        if counts.min() < k:",
           "        if len(child) < k:",
           "test_public_functions.py::test_topdown_valid_and_k_anonymous[jobsex-k2]"),
    Mutant("datafly: distinct-value ties broken by the rightmost QI", "datafly", "datafly.py",
           "        j = int(np.argmax(distinct))  # the first of the largest counts: the leftmost QI",
           "        j = len(distinct) - 1 - int(np.argmax(distinct[::-1]))",
           "test_public_functions.py::test_datafly_matches_reference[tie4-k2]"),
    Mutant("datafly: the QI with the fewest distinct values climbs", "datafly", "datafly.py",
           "distinct = [len(np.unique(current[:, j])) if (current[:, j] != 0).any() else -1",
           "distinct = [-len(np.unique(current[:, j])) if (current[:, j] != 0).any() else "
           "-10**9",
           "test_public_functions.py::test_datafly_matches_reference[jobsex-k2]"),
    Mutant("entropy_l: entropy in bits (log2) instead of the natural log", "entropy_l",
           "../kanon/privacy/diversity.py",
           "p * np.log(np.where(counts > 0, p, 1.0))",
           "p * np.log2(np.where(counts > 0, p, 1.0))",
           "test_public_functions.py::test_entropy_l[disease-anon-example]"),
    Mutant("entropy_l: the integer l (floor) instead of the real exp(min entropy)", "entropy_l",
           "measures.py",
           "    return entropy_l_real(release_counts(release)[0])",
           "    return float(int(entropy_l_real(release_counts(release)[0])))",
           "test_public_functions.py::test_entropy_l[adult-bottomup]"),
    Mutant("t_closeness: the ordered distance without the 1/(m-1)", "t_closeness",
           "../kanon/privacy/closeness.py",
           "return np.abs(np.cumsum(p - q, axis=-1)).sum(axis=-1) / (m - 1)",
           "return np.abs(np.cumsum(p - q, axis=-1)).sum(axis=-1)",
           "test_public_functions.py::test_t_closeness[disease-codes-anon-example-ordered]"),
    Mutant("t_closeness: the equal distance without the 1/2 (the L1 distance)", "t_closeness",
           "../kanon/privacy/closeness.py",
           "return np.abs(p - q).sum(axis=-1) / 2",
           "return np.abs(p - q).sum(axis=-1)",
           "test_public_functions.py::test_t_closeness[jobsex-anon-example-equal]"),
    Mutant("topdown_greedy: distance ties go to v's group", "greedy", "topdown_greedy.py",
           "self.dist(self.record(int(rows[v])), rows) + EPS",
           "self.dist(self.record(int(rows[v])), rows) - EPS",
           "test_public_functions.py::test_greedy_matches_reference[jobsex-k3]"),
    Mutant("topdown_greedy: one round for the pair (u = the lowest-index record)", "greedy",
           "topdown_greedy.py",
           "for round_ in range(3):",
           "for round_ in range(1):",
           "test_public_functions.py::test_greedy_matches_reference[jobsex-k3]"),
    Mutant("topdown_greedy: the small group takes the lowest-index records, not the nearest",
           "greedy", "topdown_greedy.py",
           "moved[np.lexsort((large, tie_ranks(d)))[:k - len(small)]] = True",
           "moved[:k - len(small)] = True",
           "test_public_functions.py::test_greedy_matches_reference[jobsex-k3]"),
    Mutant("topdown_greedy: categorical NCP as LM, (leaves(v) - 1) / (|A| - 1)", "greedy",
           "topdown_greedy.py",
           "ncp = dgh.leaf_count / dgh.n_leaves",
           "ncp = (dgh.leaf_count - 1) / max(dgh.n_leaves - 1, 1)",
           "test_public_functions.py::test_greedy_matches_reference[adult-k8]"),
    Mutant("kaca: distance over distinct tuples, not every record", "kaca", "kaca.py",
           "dist = self.weighted - (self.size + self.size[s]) * joint",
           "dist = self.weighted / np.maximum(self.size, 1) - 2 * joint",
           "test_public_functions.py::test_kaca_matches_reference[jobsex-k2]"),
    Mutant("kaca: distance ties broken by the highest first record", "kaca", "kaca.py",
           "best = int(np.flatnonzero(dist <= dist.min() + EPS)[0])",
           "best = int(np.flatnonzero(dist <= dist.min() + EPS)[-1])",
           "test_public_functions.py::test_kaca_matches_reference[tie4-k2]"),
    Mutant("kaca: WHD with equal weights (beta = 0) instead of 1/(j-1)", "kaca", "kaca.py",
           "steps[2:] = 1.0 / np.arange(1, h)",
           "steps[2:] = 1.0",
           "test_public_functions.py::test_kaca_matches_reference[adult-k8]"),
    Mutant("clustering (lm-only variant): the MD term kept", "clustering", "clustering.py",
           "self.total_height = 0 if lm_only else sum(d.height for d in problem.dghs)",
           "self.total_height = sum(d.height for d in problem.dghs)",
           "test_public_functions.py::test_clustering_matches_reference[lm-only-world-k4]",
           course="grader/rubric-2025.toml"),
]

VARIANT_SOLUTION = """# The reference as a solution of a course that grades rule variants.
from reference import *  # noqa: F401,F403
from reference import topdown_anonymizer  # noqa: F401
from reference.clustering import clustering_anonymizer_lm_only as clustering_anonymizer
"""


def apply(mutant: Mutant, reference: Path, destination: Path, core: bool = True) -> Path:
    """Copy the reference package to destination/reference (and the core beside it) with the
    mutant's patch applied; returns the package folder. With `core` False the core is copied
    only when the patch is in it: the solution then imports the kit's own, unchanged core
    (the kit root must be on its sys.path)."""
    package = destination / "reference"
    shutil.copytree(reference, package, ignore=shutil.ignore_patterns("__pycache__"))
    in_core = mutant.module.startswith("../")
    for name in ("kanon", "kcheck") if core or in_core else ():  # the core it stands on, and
        shutil.copytree(reference.parent / name, destination / name,  # the core's checker
                        ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    target = package / mutant.module
    text = target.read_text(encoding="utf-8")
    for old, new in mutant.patches:
        count = text.count(old)
        if count != 1:
            raise AssertionError(f"mutant {mutant.name!r}: {mutant.module} contains the "
                                 f"patched text {count} times, expected exactly once: {old!r}")
        text = text.replace(old, new)
    target.write_text(text, encoding="utf-8")
    return package


DEFAULT_MARKERS = ("cost_MD", "cost_LM", "random", "clustering", "bottomup", "samarati",
                   "mondrian")


def write_submission(mutant: Mutant, reference: Path, folder: Path, work: Path) -> None:
    """A submission in `folder` whose seven functions are the mutant's: skeleton.py calls the
    patched reference, shipped as the helper package kanon_ref/ (examples/make_examples.py's
    layout, the core inside it as kanon_ref/kanon/)."""
    import sys
    sys.path.insert(0, str(reference.parent / "examples"))
    from make_examples import REF_MODULES, core_files, solution, write_folder
    package = apply(mutant, reference, work)
    files = {f"kanon_ref/{m}": (package / m).read_bytes().replace(b"from kanon.", b"from .kanon.")
             for m in REF_MODULES}
    files.update(core_files(work / "kanon"))
    files["skeleton.py"] = solution(mutant.name).encode("utf-8")
    write_folder(folder, files)
