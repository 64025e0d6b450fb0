"""The students' README.md, for a course in a language other than English: what the bundle
holds and the first commands, in the course's language (grader/catalogs.py, domain
"grader"). An English course's bundle has no README (HANDOUT.md says it all), so its bytes
are as they always were. Also what else such a bundle ships: the self-check's catalog and kcheck's.
"""
from __future__ import annotations

from pathlib import Path

from ..catalogs import DOMAINS, po_path, translator
from ..language import DEFAULT
from ..zipfiles import Entry


def readme(language: str, root: Path | None = None) -> str | None:
    """README.md's text in `language` (None for English)."""
    if language == DEFAULT:
        return None
    _ = translator(language, root)
    return "\n".join([
        _("# k-anonymity homework"), "",
        _("Read HANDOUT.md first: it gives the exact rules of every function you write, "
          "the points and the time limits."), "",
        _("| File | What it is |"), "|---|---|",
        _("| `skeleton.py` | your solution: fill in every function that raises "
          "NotImplementedError |"),
        _("| `HANDOUT.md` | the assignment |"),
        _("| `adult-hw1.csv`, `DGHs/` | the dataset and its hierarchies |"),
        _("| `tests/public/` | the self-check |"), "",
        _("Install numpy and pytest, then check your solution:"), "",
        "```bash", "python -m pip install -r requirements.txt", "pytest", "```", "",
        _("Each failure is one sentence naming the function, the case and what went wrong; "
          "the last line counts what passed."), ""])


def language_entries(language: str, root: Path) -> list[Entry]:
    """What a `language` bundle adds: README.md, the self-check's compiled catalog (with
    tests/public/messages.py, which reads it) and kcheck's (its fallback: the checker's
    messages). None for English."""
    if language == DEFAULT:
        return []
    entries = [Entry("README.md", (readme(language, root) or "").encode("utf-8")),
               Entry("tests/public/messages.py",
                     (root / "tests" / "public" / "messages.py").read_bytes())]
    for domain in ("selfcheck", "kcheck"):
        mo = po_path(root, domain, language).with_suffix(".mo")
        if mo.is_file():
            entries.append(Entry(mo.relative_to(root).as_posix(), mo.read_bytes()))
    return entries


__all__ = ["DOMAINS", "language_entries", "readme"]
