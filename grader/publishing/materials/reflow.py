"""Re-wrap the lines of rendered Markdown that a field made too long (plain paragraphs and
list items only; code blocks, tables and headings are left as they are). A paragraph holding
Chinese, Japanese or Korean is never re-wrapped: joining its lines with spaces would put a
space between two CJK characters (such sources are written one paragraph per line); where a
template marker left a line break inside a CJK paragraph, the lines are joined (directly
between two CJK characters, which Markdown would otherwise show with a space)."""
from __future__ import annotations

import re
import textwrap

WIDTH = 95
LIMIT = 99  # a paragraph is re-wrapped only when one of its lines is longer than this
_ITEM = re.compile(r"^(\s*)([-*] |\d+\. )")
_RISKY = re.compile(r"^(\s*)([-*+>#|] |\d+\. |```)")
_CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
                  "\uff01-\uff65]")


def _join_cjk(lines: list[str]) -> list[str]:
    """`lines` (one paragraph or list item) with each line break beside a CJK character
    removed: two CJK characters are joined directly, a CJK character and anything else with
    one space (what Markdown would show for the break)."""
    out = [lines[0]]
    for line in lines[1:]:
        end, start = out[-1].rstrip()[-1:], line.lstrip()[:1]
        cjk_end, cjk_start = bool(_CJK.fullmatch(end)), bool(_CJK.fullmatch(start))
        if _RISKY.match(line) or not (cjk_end or cjk_start):
            out.append(line)
            continue
        out[-1] = out[-1].rstrip() + ("" if cjk_end and cjk_start else " ") + line.lstrip()
    return out


def _wrap(lines: list[str]) -> list[str]:
    first = lines[0]
    item = _ITEM.match(first)
    indent = item.group(1) if item else re.match(r"^\s*", first).group(0)
    lead = item.group(0) if item else indent
    rest = " " * len(lead) if item else indent
    words = " ".join(line.strip() for line in lines)
    words = words[len(lead.strip()):].strip() if item else words
    wrapped = textwrap.wrap(words, WIDTH, initial_indent=lead, subsequent_indent=rest,
                            break_on_hyphens=False, break_long_words=False)
    if any(_RISKY.match(line.strip()) for line in wrapped[1:]):
        return lines  # a wrapped line would start a list, a quote or a heading: keep as is
    return wrapped


def reflow(text: str) -> str:
    """`text` with every over-long paragraph or list item re-wrapped to WIDTH columns."""
    out: list[str] = []
    block: list[str] = []
    fenced = False

    def flush() -> None:
        if block:
            if _CJK.search("".join(block)):
                out.extend(_join_cjk(block))
            else:
                out.extend(_wrap(block) if any(len(x) > LIMIT for x in block) else block)
            block.clear()

    for line in text.split("\n"):
        plain = line.strip()
        if plain.startswith("```"):
            flush()
            fenced = not fenced
            out.append(line)
        elif fenced or not plain or plain.startswith(("|", "#")):
            flush()
            out.append(line)
        elif _ITEM.match(line):
            flush()
            block.append(line)
        else:
            block.append(line)
    flush()
    return "\n".join(out)
