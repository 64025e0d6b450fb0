"""The words the materials generate (headings, points, limits, lists, tables) in a course's
language: every one a `_("English")` of the grader's catalog (grader/catalogs.py), so an
English course's text is exactly the English below and another language's comes from its
.po file. Anchors stay English in every language (`anchor` of the English title), so the
section sources' `(#background)` links hold in a translation too.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable

from ...catalogs import translator
from .course import CourseView, TimeRule, points_text

Translate = Callable[[str], str]
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
         8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen"}


@functools.lru_cache(maxsize=None)
def tr(language: str) -> Translate:
    """The course language's `_` (English: the text itself)."""
    return translator(language)


def anchor(title: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^a-z0-9_\- ]", "", title.lower()).replace(" ", "-")


def anchor_tag(language: str, title: str) -> str:
    """What a heading ends with outside English: its English anchor, explicitly."""
    return "" if language == "en" else f' <a id="{anchor(title)}"></a>'


def titles(_: Translate) -> dict[str, str]:
    """Each section source's title (English keys, for the anchors)."""
    return {"background": _("Background"), "files": _("Files"), "costs": _("Costs"),
            "ties": _("Ties"), "measures": _("Privacy measures"), "bad-input": _("Bad input"),
            "command-line": _("Command line"), "checking": _("Checking your work"),
            "submission": _("Submission"), "grading": _("How you are graded"),
            "time-limits": _("Time limits"),
            "beyond": _("Beyond k-anonymity: privacy models")}


def definitions(_: Translate) -> dict[str, str]:
    """The cost functions' titles in a course that does not grade them."""
    return {"cost_MD": _("The distortion metric (MD)"), "cost_LM": _("The loss metric (LM)")}


def points(_: Translate, value: float) -> str:
    n = points_text(value)
    return (_("{n} point") if value == 1 else _("{n} points")).format(n=n)


def staff_title(_: Translate, name: str) -> str:
    return _("The report") if name == "report" else name.replace("_", " ").capitalize()


def description_title(_: Translate, description: str) -> str:
    """A staff part's title from its rubric description ("Title: what it holds")."""
    title = description.partition(": ")[0].strip()
    translated = _(title)
    return translated[:1].upper() + translated[1:]


def variant_title(_: Translate, variant: str) -> str:
    return {"lm-only": _("LM-only distance")}.get(variant, variant)


def code_list(names: list[str], last: str = "and", sep: str = ", ") -> str:
    """"`a`, `b` and `c`" (`last`: the joining word and `sep` the separator, already in the
    course's language: Chinese lists are "`a`、`b` 和 `c`")."""
    quoted = [f"`{n}`" for n in names]
    if len(quoted) < 2:
        return "".join(quoted)
    return f"{sep.join(quoted[:-1])} {last} {quoted[-1]}"


def listing(_: Translate, names: list[str], last: str) -> str:
    """`code_list` in the course's language (its separator is `_(", ")`: "、" in Chinese)."""
    return code_list(names, last, _(", "))


def packages_text(_: Translate, course: CourseView) -> str:
    names = sorted(course.allowed_packages)
    return (_("{names} and the standard library").format(names=", ".join(names)) if names
            else _("the standard library only"))


def packages_rule(_: Translate, course: CourseView) -> str:
    names = sorted(course.allowed_packages)
    return (_("only {names} and the standard library").format(names=", ".join(names))
            if names else _("only the standard library"))


def function_count(_: Translate, count: int) -> str:
    """"seven functions" (`{number}` in a translation is the count in digits)."""
    text = _("{count} function") if count == 1 else _("{count} functions")
    return text.format(count=WORDS.get(count, count), number=count)


def time_rule(_: Translate, rule: TimeRule) -> str:
    """"10 s + 10 s per 1,000 rows"."""
    base, per = points_text(rule.base), points_text(rule.per_1000)
    return (_("{base} s + {per} s per 1,000 rows").format(base=base, per=per)
            if rule.per_1000 else _("{base} s").format(base=base))


__all__ = ["WORDS", "anchor", "anchor_tag", "code_list", "definitions", "description_title",
           "function_count", "listing",
           "packages_rule", "packages_text", "points", "staff_title", "time_rule", "titles",
           "tr", "variant_title"]
