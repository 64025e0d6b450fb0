"""placeholder"""
from __future__ import annotations
from pathlib import Path


def catalog_problems(language: str, root: Path) -> list[str]:
    return []
