"""The self-check's words in the course's language: `_("English text")` is the text in the
language course.json names ("language"; English when it names none), read from the compiled
catalog locale/<ll_CC>/LC_MESSAGES/selfcheck.mo beside this file with Python's gettext. A
message without an entry stays English (the course staff make sure there is none). Standard
library only: this file ships in the students' bundle.

The checks' sentences are kcheck's (kcheck/ beside tests/, which this module makes
importable): `say(finding)` words a kcheck Finding with kcheck's catalog of the course's
language.
"""
from __future__ import annotations

import gettext
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the folder holding kcheck/ (the bundle's root)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from kcheck.verdicts import Finding

DOMAIN = "selfcheck"
_loaded: dict[str, gettext.NullTranslations] = {}
_read: dict[tuple[str, int, int], str] = {}
"""course.json's language by (path, modification time, size): every message asks for it (a
check of adult-hw1.csv, 90,000 times), so the file is read again only when it changed."""


def language() -> str:
    """The course's language code ("en", "zh-CN", ...), from course.json."""
    path = os.environ.get("KANON_COURSE_FILE") or str(HERE / "course.json")
    try:
        stat = os.stat(path)
    except OSError:
        return "en"
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _read:
        try:
            found = json.loads(Path(path).read_text(encoding="utf-8")).get("language", "en")
        except (OSError, ValueError, AttributeError):
            found = "en"
        _read[key] = found if isinstance(found, str) else "en"
    return _read[key]


def translations(code: str | None = None) -> gettext.NullTranslations:
    """The catalog of `code` (default: the course's language), falling back to kcheck's (the
    checker's messages); English: no catalog."""
    code = code or language()
    if code not in _loaded:
        from kcheck.text import translations as kcheck_translations
        found = gettext.NullTranslations() if code == "en" else gettext.translation(
            DOMAIN, HERE / "locale", languages=[code.replace("-", "_")], fallback=True)
        found.add_fallback(kcheck_translations(code))
        _loaded[code] = found
    return _loaded[code]


def _(text: str) -> str:
    """`text` in the course's language."""
    return translations().gettext(text)


def say(finding: Finding | None) -> str | None:
    """A kcheck check's finding in the course's language (None for none)."""
    from kcheck.messages import say as kcheck_say
    return None if finding is None else kcheck_say(finding, language())


gettext_ = _
