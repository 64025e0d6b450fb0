"""A message as data: an id with parameters, rendered once per language.

`Message(id, params)`: `id` is the English template with `{field}`s (the gettext msgid, so a
catalog's translation of it is the message in that language), `params` its fields' values:

- a `str`, `int` or `float`: a value the grader wrote (a number, a signal's name), shown as
  it is;
- `Verbatim(text)`: a student's own text (an exception's message, a cell, a file name, what
  the code printed): shown byte for byte in every language, never translated; a hidden case's
  message holds none (`verbatim_params`);
- a `Message`: a sentence of its own (a rule's detail inside "it breaks ..."), rendered in
  the same language;
- `Joined(items, sep)`: a list the grader joins (row numbers, broken rules, file names), its
  separator (", " or "; ") a catalog message too (、 and ； in Chinese).

`str(m)` and `m.english()` give the English sentence; `render(m, _)` the sentence through a
catalog's gettext function `_`; in written Chinese no space stands between two CJK
characters, so a space the template puts between a field and a CJK character is dropped when
the field's own text ends (or starts) with one (`fill`). `to_json`/`from_json`: plain JSON
data (what a record keeps) and back. Standard library only: kcheck ships to students.

kcheck's own messages have one catalog per language, kcheck/locale/<ll_CC>/LC_MESSAGES/
kcheck.mo (compiled from its .po by `python -m grader languages --compile`), read with
Python's gettext: `translations(language)` is that catalog (English: none), `catalog` its
gettext function, `say(message, language)` the message in that language. The grader's and the
self-check's own catalogs fall back to it, so a kcheck message reads the same in both.
"""
from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

__all__ = ["Message", "Verbatim", "Joined", "Param", "render", "fill", "verbatim_params",
           "LOCALE", "DOMAIN", "translations", "catalog", "say", "N_", "LIST"]

LOCALE = Path(__file__).resolve().parent / "locale" if "__file__" in globals() else None
"""kcheck's catalogs; None when kcheck runs from memory, without a file (the staff solution
file embeds it: grader solution), which then words its messages in English."""
DOMAIN = "kcheck"

_FIELD = re.compile(r"\{(\w+)\}")
_CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff65]")


@dataclass(frozen=True)
class Verbatim:
    """A student's own text: shown as it is in every language."""

    text: str

    def __str__(self) -> str:
        return self.text


def N_(template: str) -> str:
    """`template` as it is: marks a message id kept in a table (a rule's template by key) so
    the catalogs' extraction finds it, as a literal `Message("...")` is found."""
    return template


LIST = N_(", ")
"""The separator of a list (a catalog message: "、" in Chinese)."""


@dataclass(frozen=True)
class Joined:
    """A list joined by `sep` (a catalog message: LIST, or "; ")."""

    items: tuple[Param, ...]
    sep: str = LIST

    def __init__(self, items: Sequence[Param], sep: str = LIST) -> None:
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "sep", sep)


Param = Union[str, int, float, Verbatim, Joined, "Message"]


@dataclass(frozen=True)
class Message:
    """An id (the English template, a catalog msgid) with its fields' values."""

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __init__(self, id: str, params: Mapping[str, Param] | None = None,
                 **fields: Param) -> None:
        merged = {**(params or {}), **fields}
        missing = set(_FIELD.findall(id)) - set(merged)
        if missing:
            raise ValueError(f"message {id!r}: no value for {', '.join(sorted(missing))}")
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "params", dict(merged))

    def __str__(self) -> str:
        return self.english()

    def __hash__(self) -> int:
        return hash(self.id)

    def english(self) -> str:
        """The English sentence (the id with its fields filled)."""
        return render(self, _english)

    def to_json(self) -> dict:
        """Plain JSON data: {"id": ..., "params": {...}} (a Verbatim param as
        {"verbatim": text}, a Joined one as {"join": sep, "items": [...]})."""
        return {"id": self.id, "params": {k: _param_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping) -> Message:
        """The message of `to_json`'s data."""
        return cls(data["id"], {k: _param_value(v) for k, v in data["params"].items()})


def _english(text: str) -> str:
    return text


def render(message: Message, _: Callable[[str], str] = _english) -> str:
    """`message` in the language of the gettext function `_` (English by default)."""
    return fill(_(message.id), {name: _shown(value, _)
                                for name, value in message.params.items()})


def _shown(value: Param, _: Callable[[str], str]) -> str:
    if isinstance(value, Message):
        return render(value, _)
    if isinstance(value, Joined):
        return _(value.sep).join(_shown(item, _) for item in value.items)
    return str(value)


def fill(template: str, fields: Mapping[str, str]) -> str:
    """`template` with its `{field}`s replaced by `fields`' text, which is kept as it is; a
    space the template puts between a field and a CJK character is dropped when the field's
    own text ends (or starts) with one."""
    parts = _FIELD.split(template)  # literal, field, literal, ..., literal
    for i in range(1, len(parts), 2):
        value = parts[i] = fields[parts[i]]
        before, after = parts[i - 1], parts[i + 1]
        if value and _CJK.match(value[0]) and before.endswith(" ") \
                and _CJK.match(before.rstrip(" ")[-1:]):
            parts[i - 1] = before.rstrip(" ")
        if value and _CJK.match(value[-1]) and after.startswith(" ") \
                and _CJK.match(after.lstrip(" ")[:1]):
            parts[i + 1] = after.lstrip(" ")
    return "".join(parts)


def verbatim_params(message: Message) -> Iterator[str]:
    """Every student's text the message holds (nested messages and lists included)."""
    for value in message.params.values():
        yield from _verbatim(value)


def _verbatim(value: Param) -> Iterator[str]:
    if isinstance(value, Verbatim):
        yield value.text
    elif isinstance(value, Message):
        yield from verbatim_params(value)
    elif isinstance(value, Joined):
        for item in value.items:
            yield from _verbatim(item)


def _param_json(value: Param):
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, Verbatim):
        return {"verbatim": value.text}
    if isinstance(value, Joined):
        return {"join": value.sep, "items": [_param_json(v) for v in value.items]}
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return value
    raise TypeError(f"a message parameter is a str, a number, Verbatim, Joined or a Message, "
                    f"not {type(value).__name__}: {value!r}")


def _param_value(data) -> Param:
    if isinstance(data, dict):
        if "verbatim" in data:
            return Verbatim(data["verbatim"])
        if "join" in data:
            return Joined([_param_value(v) for v in data["items"]], data["join"])
        return Message.from_json(data)
    return data


def translations(language: str = "en") -> gettext.NullTranslations:
    """kcheck's catalog of `language` ("en", "zh-CN", ...): English, or a language without a
    compiled catalog, has none (the message stays English). A fresh object per call (gettext
    caches the file and hands out copies), so a caller may make it its catalog's fallback."""
    if language == "en" or LOCALE is None:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE, languages=[language.replace("-", "_")],
                               fallback=True)


def catalog(language: str = "en") -> Callable[[str], str]:
    """The gettext function of kcheck's catalog of `language`."""
    if language not in _catalogs:
        _catalogs[language] = translations(language).gettext
    return _catalogs[language]


_catalogs: dict[str, Callable[[str], str]] = {}


def say(message: Message, language: str = "en") -> str:
    """`message` in `language`, through kcheck's catalog."""
    return render(message, catalog(language))
