"""Scores as people and gradebooks read them (grades.csv, feedback, summaries, progress)."""
from __future__ import annotations


def fmt(x: float) -> str:
    """A score for people and gradebooks: at most two decimals, no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def percent(record: dict) -> float:
    """A record's score as a percent of its maximum (0 when the maximum is 0)."""
    return 100.0 * record["score"] / record["max"] if record["max"] else 0.0
