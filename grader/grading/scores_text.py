"""Scores as people and gradebooks read them (grades.csv, feedback, summaries, progress)."""
from __future__ import annotations


def fmt(x: float) -> str:
    """A score for people and gradebooks: at most two decimals, no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
