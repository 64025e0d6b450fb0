"""`python -m grader languages [--language LANG]`: what a language still lacks before a course
in it can be published: each handout and skeleton section source without an up-to-date
translation (grader/publishing/materials/translations.py), each translated text holding an
English sentence, and each student-visible message without an entry in the language's
catalogs (locale/; grader/catalogs.py). Exit status 1 when anything is missing.

`--compile` (a developer's step, after editing a .po) first writes every catalog's .mo from
its .po (grader/catalogs.py's msgfmt: the same .po, the same bytes).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..language import DEFAULT, LANGUAGES, check_language, describe
from ..paths import KIT_ROOT


def missing(language: str, root: Path = KIT_ROOT) -> list[str]:
    """Everything a `language` course needs and the kit `root` does not have yet."""
    from .materials import sources_of
    from .materials.translations import problems
    if language == DEFAULT:
        return []
    from ..catalogs import catalog_problems
    return problems(sources_of(root), language) + catalog_problems(language, root)


def add_parser(subparsers: "argparse._SubParsersAction") -> argparse.ArgumentParser:
    """Register `languages` on the grader's sub-command parser."""
    parser = subparsers.add_parser(
        "languages", help="list what each language lacks (translations, catalog entries)",
        description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--language", metavar="LANG", default=None,
                        help=f"one language ({', '.join(LANGUAGES)}; default: every one)")
    parser.add_argument("--compile", action="store_true",
                        help="first compile every .po catalog into its .mo (developers)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    languages = [check_language(args.language, "--language")] if args.language \
        else list(LANGUAGES)
    if args.compile:
        from ..catalogs import compile_all
        for mo in compile_all(KIT_ROOT):
            print(f"wrote {mo}", file=sys.stderr)
    failed = False
    for language in languages:
        found = missing(language)
        for line in found:
            print(line)
        failed = failed or bool(found)
        print(f"{describe(language)}: " + (f"{len(found)} thing(s) missing or stale" if found
                                            else "complete"), file=sys.stderr)
    return 1 if failed else 0


__all__ = ["add_parser", "missing", "run"]
