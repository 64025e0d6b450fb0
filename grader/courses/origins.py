"""What `course new --from NAME` takes by name: the kit's example courses (a rubric, or a
demo course folder that keeps its rubric beside its course.toml: ustc, tdg-lab)."""
from __future__ import annotations

from ..paths import GRADER_DIR, KIT_ROOT

__all__ = ["ORIGINS"]

ORIGINS = {"default": GRADER_DIR / "rubric.toml", "fall2025": GRADER_DIR / "rubric-2025.toml",
           "all": GRADER_DIR / "rubric-all.toml", "examples": KIT_ROOT / "examples" / "rubric.toml",
           **{p.parent.name: p.parent for p in sorted((KIT_ROOT / "courses").glob("*/rubric.toml"))
              if (p.parent / "course.toml").is_file()}}
