"""The languages a course can be in: what its students read (the handout, skeleton.py, the
self-check's messages, the feedback, the bundle's README) is in the course's language.

`language` in course.toml's [course] table (default "en"); `course new --language` sets it.
LANGUAGES lists those the kit has catalogs and section sources for; any other is refused,
naming them. `gettext_name` is the folder name gettext uses for a language (zh-CN: zh_CN).
"""
from __future__ import annotations

from .errors import UserError

DEFAULT = "en"
LANGUAGES = {"en": "English", "zh-CN": "Simplified Chinese (简体中文)"}


def check_language(value: object, where: str) -> str:
    """`value` if it is one of LANGUAGES, else UserError naming `where` and the known ones."""
    if isinstance(value, str) and value in LANGUAGES:
        return value
    known = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    raise UserError(f"{where}: {value!r} is not a language this kit has; known: {known}")


def describe(language: str) -> str:
    """"zh-CN (Simplified Chinese (简体中文))" style, for staff-facing lines."""
    return f"{language} ({LANGUAGES.get(language, '?')})"


def gettext_name(language: str) -> str:
    """The locale folder name gettext uses: "zh-CN" -> "zh_CN"."""
    return language.replace("-", "_")


__all__ = ["DEFAULT", "LANGUAGES", "check_language", "describe", "gettext_name"]
