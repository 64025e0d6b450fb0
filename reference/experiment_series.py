"""The experiments' records and plot lines, shared by experiments.py (which runs and tables
them) and experiment_plots.py (which draws them): neither imports the other's module for them.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["L_K", "Result", "Run", "series"]

L_K = 16  # the handout's l sweep runs bottom-up at this k


@dataclass(frozen=True, order=True)
class Run:
    """One anonymizer call; l, max_sup and seed are None where they do not apply."""

    order: int  # position of the algorithm in ALGORITHMS (sort key of the CSV)
    algorithm: str
    k: int
    l: int | None = None
    max_sup: int | None = None
    seed: int | None = None

    def arguments(self) -> list[int]:
        extra = {"random": self.seed, "bottomup": self.l, "samarati": self.max_sup}
        return [self.k] + ([extra[self.algorithm]] if self.algorithm in extra else [])

    def label(self) -> str:
        names = {"l": self.l, "max_sup": self.max_sup, "seed": self.seed}
        return " ".join([self.algorithm, f"k={self.k}"] +
                        [f"{n}={v}" for n, v in names.items() if v is not None])


@dataclass
class Result:
    """What one run measured; LM and MD are None when the run failed (error says why)."""

    run: Run
    lm: float | None
    md: float | None
    seconds: float
    classes: int | None
    error: str | None = None


def series(results: list[Result], metric: str, sweep: str, l_k: int = L_K
           ) -> dict[str, list[tuple[int, float]]]:
    """Plot lines: name -> sorted (x, y) points of one metric ("LM", "MD", "seconds").
    sweep "k": one line per algorithm (random: mean over seeds; Samarati: one per max_sup;
    bottom-up at l = 1); sweep "l": bottom-up at k = l_k, against l."""
    points: dict[str, dict[int, list[float]]] = {}
    for r in results:
        run = r.run
        value = {"LM": r.lm, "MD": r.md, "seconds": r.seconds}[metric]
        if value is None:
            continue
        if sweep == "k":
            if run.algorithm == "bottomup" and run.l != 1:
                continue
            name = {"random": "random (mean of seeds)", "bottomup": "bottom-up (l = 1)",
                    "samarati": f"Samarati (max_sup = {run.max_sup})"}.get(
                        run.algorithm, run.algorithm)
            points.setdefault(name, {}).setdefault(run.k, []).append(value)
        elif run.algorithm == "bottomup" and run.k == l_k:
            points.setdefault(f"bottom-up (k = {l_k})", {}).setdefault(run.l, []).append(value)
    return {name: sorted((x, sum(v) / len(v)) for x, v in xs.items())
            for name, xs in points.items()}
