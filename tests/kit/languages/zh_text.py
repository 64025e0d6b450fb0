"""Checks of written Chinese, shared by the zh-CN text tests: no space between two CJK
characters, no English prose outside code, file names and identifiers, Chinese punctuation in
Chinese lists, and the glossary's words (grader/locale/zh_CN/glossary.toml, whose
`allowed_english` lists the names and cited titles that stay English)."""
from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
import tomllib
from pathlib import Path

GLOSSARY = Path(__file__).resolve().parents[3] / "grader" / "locale" / "zh_CN" / "glossary.toml"

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_PUNCT = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
CJK = f"[{_HAN}{_CJK_PUNCT}]"
_CJK_SPACE = re.compile(f"({CJK})[ \t]+({CJK})")
_FENCE = re.compile(r"^\s*```")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"https?://\S+")
_PATHLIKE = re.compile(r"\S*[/\\.=_(){}\[\]<>]\S*")
_WORDS = re.compile(r"[A-Za-z][A-Za-z'-]*(?:[ ,]+[A-Za-z][A-Za-z'-]*){2,}")
_ASCII_LIST_COMMA = re.compile(f"({CJK}|\\d),[ ]*(?=\\d+[ ]*({CJK}))|({CJK}),")
_THOUSANDS = re.compile(r"\d,\d{3}(?!\d)")
_BRACKETED = re.compile(r"\{[^{}\n]*\}|\([^()\n]*\)")
_HAS_CJK = re.compile(CJK)


def cjk_spaces(text: str) -> list[str]:
    """Each place where spaces stand between two CJK characters (a line wrapped in English)."""
    return [m.group(0) for m in _CJK_SPACE.finditer(text)]


_BLOCK_START = re.compile(r"^\s*([-*+>|#] |\d+\. |<!--|```|\|)")


def cjk_line_breaks(markdown: str) -> list[str]:
    """Each place where a Markdown paragraph's line break falls beside a CJK character (a
    Chinese paragraph is written on one line; between two CJK characters the break shows as
    a space)."""
    found = []
    lines = prose_lines(markdown, comments=False)
    for before, after in zip(lines, lines[1:]):
        if before.strip() and after.strip() and not _BLOCK_START.match(after) \
                and not before.lstrip().startswith(("<!--", "|", "#")) \
                and (re.search(f"{CJK}$", before.rstrip()) or re.match(CJK, after.lstrip())):
            found.append(f"{before.rstrip()[-8:]}⏎{after.lstrip()[:8]}")
    return found


def prose_lines(text: str, *, comments: bool = True) -> list[str]:
    """The lines of Markdown or plain text that readers read as prose: outside code fences,
    plus the `#` comments inside them when `comments`."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            if comments and "#" in line:
                out.append(line.split("#", 1)[1])
            continue
        out.append(line)
    return out


def english_prose(line: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Runs of three or more English words left in a line of Chinese text, once code spans,
    URLs, file names and identifiers are set aside (`allowed` phrases too)."""
    rest = _URL.sub(" ", _CODE_SPAN.sub(" ", line))
    for phrase in allowed:
        rest = rest.replace(phrase, " ")
    rest = _PATHLIKE.sub(" ", rest)
    return [m.group(0) for m in _WORDS.finditer(rest)]


def ascii_list_commas(line: str) -> list[str]:
    """ASCII commas that separate the items of a Chinese list ("第 12941, 25819 个", or code
    spans "`a`, `b`" in a Chinese line); a number's thousands separator ("30,162") is none."""
    found = []
    if _HAS_CJK.search(line):  # "`a`, `b`" outside a set or tuple ("{`a`, `b`}")
        pieces = _CODE_SPAN.split(_BRACKETED.sub(" ", line))
        found += [f"`{p}`" for p in pieces[1:-1] if p.strip() == ","]
    rest = _CODE_SPAN.sub(" ", line)
    for m in _ASCII_LIST_COMMA.finditer(rest):
        comma = m.start(0) + m.group(0).index(",")
        if not _THOUSANDS.match(rest, comma - 1):
            found.append(m.group(0))
    return found


def python_prose(source: str) -> list[str]:
    """The lines of a Python source that readers read as prose: its comments and docstrings
    (module, class and function ones)."""
    out = [tok.string.lstrip("#") for tok in tokenize.generate_tokens(
        io.StringIO(source).readline) if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            out += doc.splitlines() if doc else []
    return out


@functools.lru_cache(maxsize=1)
def allowed_english() -> tuple[str, ...]:
    """Names and cited titles that stay English in Chinese prose (the glossary's list)."""
    return tuple(tomllib.loads(GLOSSARY.read_text(encoding="utf-8")).get("allowed_english", []))


def glossary() -> list[dict]:
    """The glossary's terms: en, zh and the words to avoid."""
    return tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))["term"]


def avoided_words(text: str) -> list[str]:
    """Each avoided glossary word that `text` uses, with the term that replaces it."""
    return [f"{word} -> {term['zh']}" for term in glossary() for word in term["avoid"]
            if word in text]
