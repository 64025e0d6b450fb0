"""Message catalogs: what students read, in the course's language, through Python's gettext.

Three domains, each a .po source per language in the repository and its compiled .mo beside it
(both committed; `python -m grader languages --compile` rewrites every .mo from its .po, and a
kit test keeps them equal):

    kcheck/locale/<ll_CC>/LC_MESSAGES/kcheck.po        the checker's messages (kcheck.text), for
                                                       the grader and the self-check alike
    grader/locale/<ll_CC>/LC_MESSAGES/grader.po        the feedback, the bundle's README, ...
    tests/public/locale/<ll_CC>/LC_MESSAGES/selfcheck.po  the self-check (tests/public/messages.py)

The grader's and the self-check's catalogs fall back to kcheck's: a kcheck message has one
entry, in kcheck.po, and reads the same wherever it is shown.

A msgid is the English text itself, so an English course needs no catalog. `translator`
gives the grader's `_` for a language; `extract` finds every `_("...")` and `gettext("...")`
with a literal argument in the sources (what xgettext would), and `catalog_problems` names
each one without an entry in a language's catalog, each .mo older than its .po, and (for the
self-check, whose every module ships to students) each sentence left outside `_()`
(`unwrapped`). `mo_bytes`
is msgfmt's output (GNU .mo, entries sorted, no hash table), so the same .po gives the same
bytes.
"""
from __future__ import annotations

import ast
import gettext
import json
import re
import struct
from collections.abc import Callable
from pathlib import Path

from .errors import UserError
from .language import DEFAULT, gettext_name

DOMAINS = {"kcheck": (Path("kcheck") / "locale", ()),
           "grader": (Path("grader") / "locale", ("grader/**/*.py",)),
           "selfcheck": (Path("tests") / "public" / "locale", ("tests/public/*.py",))}
"""domain -> (its locale folder under the kit root, the sources whose `_()` messages it holds)."""
MESSAGE_SOURCES = {"kcheck": ("kcheck/**/*.py",),
                   "grader": ("grader/**/*.py", "kanon/**/*.py")}
"""domain -> the sources whose `Message("...")` ids (kcheck.text) it holds: kcheck's own (the
grader and the self-check read them through the fallback), the grader's producers (and the
sandboxed child's `said("...")` ids: the child cannot import kcheck)."""
DATA_MESSAGES = {"selfcheck": (("tests/public/data/cases.json", "reason"),)}
"""domain -> (a JSON file, a key): each string value of that key anywhere in the file is a
message (the self-check words a public case's `reason` with `_(case["reason"])`)."""
COMPILE_COMMAND = "python -m grader languages --compile"
WRAPPED_DOMAINS = {"selfcheck": ("make_expected.py", "messages.py")}
"""domain -> the files of its sources that students never read (the rest: every sentence in
`_()`)."""
_PROSE = re.compile(r"[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*){2,}")
_DATA_CALLS = ("Run", "CostCase", "MeasureCase")
"""Calls whose string arguments are case data and notes for the staff, never printed."""


def po_path(root: Path, domain: str, language: str) -> Path:
    return root / DOMAINS[domain][0] / gettext_name(language) / "LC_MESSAGES" / f"{domain}.po"


def read_po(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file (the header entry, msgid "", included; fuzzy entries,
    plural forms and a msgid given twice, which msgfmt refuses, are refused)."""
    entries: dict[str, str] = {}
    current: dict[str, list[str]] = {"msgid": [], "msgstr": []}
    field: str | None = None
    lines = path.read_text(encoding="utf-8").splitlines() + [""]
    start = 0  # the line of the current entry's msgid

    def keep(number: int) -> None:
        msgid = "".join(current["msgid"])
        if msgid in entries:
            raise UserError(f"{path}, line {start}: the msgid {msgid[:60]!r} is given twice; "
                            f"keep one entry")
        entries[msgid] = "".join(current["msgstr"])

    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line.startswith("#, ") and "fuzzy" in line:
            raise UserError(f"{path}, line {number}: a fuzzy entry; translate it and remove "
                            f"the fuzzy flag")
        if not line or line.startswith("#"):
            if field is not None:
                keep(number)
                current, field = {"msgid": [], "msgstr": []}, None
            continue
        word, _, rest = line.partition(" ")
        if word in ("msgid", "msgstr"):
            if word == "msgid" and field == "msgstr":
                keep(number)
                current = {"msgid": [], "msgstr": []}
            if word == "msgid":
                start = number
            field, line = word, rest
        elif not line.startswith('"') or field is None:
            raise UserError(f"{path}, line {number}: expected msgid, msgstr or a quoted string "
                            f"(plural forms and contexts are not used)")
        try:
            current[field].append(ast.literal_eval(line))
        except (ValueError, SyntaxError):
            raise UserError(f"{path}, line {number}: not a quoted string: {line}") from None
    return entries


def mo_bytes(entries: dict[str, str]) -> bytes:
    """A GNU .mo file of `entries` (msgid -> msgstr; empty translations left out)."""
    kept = sorted((k.encode("utf-8"), v.encode("utf-8")) for k, v in entries.items()
                  if v or k == "")
    ids = b"".join(k + b"\0" for k, _ in kept)
    strs = b"".join(v + b"\0" for _, v in kept)
    start = 7 * 4 + 16 * len(kept)
    offsets, at = [], 0
    for k, _ in kept:
        offsets += [len(k), start + at]
        at += len(k) + 1
    str_offsets, at = [], 0
    for _, v in kept:
        str_offsets += [len(v), start + len(ids) + at]
        at += len(v) + 1
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(kept), 7 * 4, 7 * 4 + 8 * len(kept), 0, 0)
    return head + struct.pack(f"{len(offsets)}i", *offsets) + \
        struct.pack(f"{len(str_offsets)}i", *str_offsets) + ids + strs


def compile_all(root: Path) -> list[Path]:
    """Write every domain's .mo from its .po under the kit `root`; returns the .mo written."""
    written = []
    for domain, (folder, _) in DOMAINS.items():
        for po in sorted((root / folder).glob(f"*/LC_MESSAGES/{domain}.po")):
            mo = po.with_suffix(".mo")
            mo.write_bytes(mo_bytes(read_po(po)))
            written.append(mo)
    return written


def extract(root: Path, domain: str) -> dict[str, str]:
    """msgid -> "path:line" of its first use, for every `_("...")` / `gettext("...")` with a
    literal argument in the domain's sources and every `Message("...")` (or `N_("...")`, an id
    kept in a table) in its MESSAGE_SOURCES."""
    found: dict[str, str] = {}
    for patterns, calls in ((DOMAINS[domain][1], ("_", "gettext")),
                            (MESSAGE_SOURCES.get(domain, ()), ("Message", "said", "N_"))):
        for pattern in patterns:
            for path in sorted(root.glob(pattern)):
                if "templates" not in path.parts:
                    _literal_calls(root, path, calls, found)
    for name, key in DATA_MESSAGES.get(domain, ()):
        if (root / name).is_file():
            for text in _values(json.loads((root / name).read_text(encoding="utf-8")), key):
                found.setdefault(text, f"{name}: {key}")
    return found


def _values(data: object, key: str) -> list[str]:
    """Every string value of `key` in a JSON document, in document order."""
    if isinstance(data, dict):
        own = [data[key]] if isinstance(data.get(key), str) else []
        return own + [v for item in data.values() for v in _values(item, key)]
    if isinstance(data, list):
        return [v for item in data for v in _values(item, key)]
    return []


def _literal_calls(root: Path, path: Path, calls: tuple[str, ...],
                   found: dict[str, str]) -> None:
    """Add the literal first argument of each call of `calls` in `path` to `found`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in calls and node.args \
                and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            found.setdefault(node.args[0].value, f"{path.relative_to(root).as_posix()}:{node.lineno}")


def _skipped(tree: ast.AST) -> set[int]:
    """ids of the nodes whose text is not a message: inside `_()` / `gettext()`, docstrings
    (of modules, classes, functions and attributes), assert messages, arguments of the case
    tables' constructors (_DATA_CALLS)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        inner: list[ast.AST] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("_", "gettext", *_DATA_CALLS):
            inner = [node]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            inner = [node.value]
        elif isinstance(node, ast.Assert) and node.msg is not None:
            inner = [node.msg]
        skipped |= {id(sub) for top in inner for sub in ast.walk(top)}
    return skipped


def unwrapped(root: Path, domain: str) -> list[str]:
    """"path:line: 'text'" of every string or f-string holding three words or more outside
    `_()` in the student-read sources of a WRAPPED_DOMAINS domain (what a student would read
    in English in a course in another language)."""
    if domain not in WRAPPED_DOMAINS:
        return []
    found = []
    for pattern in DOMAINS[domain][1]:
        for path in sorted(root.glob(pattern)):
            if path.name in WRAPPED_DOMAINS[domain]:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            skipped = _skipped(tree)
            parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)
                     for v in n.values}
            for node in ast.walk(tree):
                if id(node) in skipped or id(node) in parts:
                    continue
                if isinstance(node, ast.JoinedStr):
                    text = "".join(v.value if isinstance(v, ast.Constant) else "{}"
                                   for v in node.values)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    text = node.value
                else:
                    continue
                if _PROSE.search(text):
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: "
                                 f"{text[:60]!r}")
    return sorted(found)


def catalog_problems(language: str, root: Path) -> list[str]:
    """Each message of each domain without a `language` entry, and each stale .mo."""
    if language == DEFAULT:
        return []
    problems = []
    for domain in DOMAINS:
        po = po_path(root, domain, language)
        used = extract(root, domain)
        problems += [f"{where}: a sentence students read is not in _() (its {language} "
                     f"entry cannot exist)" for where in unwrapped(root, domain)]
        if not po.is_file():
            if used:
                problems.append(f"{po}: missing ({len(used)} messages to translate)")
            continue
        entries = read_po(po)
        problems += [f"{po}: no {language} entry for {msgid[:60]!r} (used at {where})"
                     for msgid, where in used.items() if not entries.get(msgid)]
        mo = po.with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != mo_bytes(entries):
            problems.append(f"{mo}: missing or older than {po.name}; run {COMPILE_COMMAND}")
    return problems


def translator(language: str, root: Path | None = None,
               domain: str = "grader") -> Callable[[str], str]:
    """The `_` of `language`: English returns its argument; another language reads its
    compiled catalog (UserError naming it and the compile command when it is missing)."""
    if language == DEFAULT:
        return lambda text: text
    from .paths import KIT_ROOT
    from kcheck.text import translations
    mo = po_path(root or KIT_ROOT, domain, language).with_suffix(".mo")
    try:
        with mo.open("rb") as f:
            found = gettext.GNUTranslations(f)
    except OSError:
        raise UserError(f"{mo}: missing; run {COMPILE_COMMAND}") from None
    found.add_fallback(translations(language))  # kcheck's messages: their one entry
    return found.gettext


__all__ = ["COMPILE_COMMAND", "DATA_MESSAGES", "DOMAINS", "MESSAGE_SOURCES", "catalog_problems",
           "compile_all", "extract", "mo_bytes", "po_path", "read_po", "translator", "unwrapped"]
