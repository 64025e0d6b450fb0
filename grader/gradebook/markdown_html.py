"""A small, safe Markdown-to-HTML renderer for the subset the grader's feedback uses, so the
feedback can travel as a self-contained page (no Markdown library needed).

The subset: `#`..`######` headings, paragraphs (each source line kept as a line), `- ` list
items (lines indented under an item belong to it), fenced code blocks (```, possibly indented
inside an item), blocks indented by four spaces (shown as preformatted text), pipe tables with
a `|---|---:|` separator (`\\|` is a pipe inside a cell), `**bold**` and `` `code` ``, and `\\*`
(a literal star, as in a bold suppressed cell `**\\***`).

Safety: every character of the input is HTML-escaped; the renderer emits only the tags it
builds itself (no raw HTML, no links, no images, no attributes from the input), so student
output quoted in the feedback cannot inject markup. Same input, same bytes.
"""
from __future__ import annotations

import html
import re

FENCE = "```"
HEADING = re.compile(r"^(#{1,6}) +(.*)$")
SEPARATOR = re.compile(r"^\|(?:\s*:?-+:?\s*\|)+\s*$")
BOLD = re.compile(r"\*\*((?:\\\*|.)+?)\*\*")  # `\*` inside is a star, never the closing `**`


def _text(piece: str) -> str:
    """Text outside code spans: escaped, **bold** as <strong>, `\\*` as a literal star."""
    return BOLD.sub(r"<strong>\1</strong>", html.escape(piece)).replace("\\*", "*")


def inline(text: str) -> str:
    """One line of text as HTML: `code` spans and **bold**, everything else escaped."""
    out = []
    for i, piece in enumerate(text.split("`")):
        if i % 2:  # inside a code span
            out.append(f"<code>{html.escape(piece)}</code>")
        else:
            out.append(_text(piece))
    if text.count("`") % 2:  # an unpaired backtick: shown as written, not as a span
        return _text(text)
    return "".join(out)


def _cells(line: str) -> list[str]:
    """The cells of a pipe-table row; `\\|` is a literal pipe."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def _table(lines: list[str]) -> str:
    aligns = ["right" if c.endswith(":") else "left" for c in _cells(lines[1])]
    head = "".join(f"<th>{inline(c)}</th>" for c in _cells(lines[0]))
    rows = []
    for line in lines[2:]:
        cells = _cells(line)
        rows.append("<tr>" + "".join(
            f'<td class="{aligns[j] if j < len(aligns) else "left"}">{inline(c)}</td>'
            for j, c in enumerate(cells)) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _pre(lines: list[str]) -> str:
    return "<pre>" + html.escape("\n".join(lines)) + "</pre>"


def _dedent(lines: list[str], width: int) -> list[str]:
    return [line[width:] if line[:width].strip() == "" else line.lstrip() for line in lines]


def _item_end(lines: list[str], start: int) -> int:
    """The index after a list item starting at `start`: its indented lines, and blank lines
    followed by an indented one."""
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if line.startswith("  ") and line.strip():
            end += 1
        elif not line.strip():
            nxt = next((n for n in range(end, len(lines)) if lines[n].strip()), len(lines))
            if nxt < len(lines) and lines[nxt].startswith("  "):
                end = nxt
            else:
                break
        else:
            break
    return end


def blocks(lines: list[str]) -> list[str]:
    """The HTML blocks of Markdown `lines`."""
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append("<p>" + "<br>\n".join(inline(p) for p in paragraph) + "</p>")
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith(FENCE):
            flush()
            indent = len(line) - len(line.lstrip())
            end = next((n for n in range(i + 1, len(lines))
                        if lines[n].strip().startswith(FENCE)), len(lines))
            out.append(_pre(_dedent(lines[i + 1:end], indent)))
            i = end + 1
        elif HEADING.match(line):
            flush()
            level, text = HEADING.match(line).groups()
            out.append(f"<h{len(level)}>{inline(text)}</h{len(level)}>")
            i += 1
        elif stripped.startswith("|") and SEPARATOR.match(
                lines[i + 1].strip() if i + 1 < len(lines) else ""):
            flush()
            end = i + 2
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            out.append(_table(lines[i:end]))
            i = end
        elif line.startswith("- "):
            flush()
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                end = _item_end(lines, i)
                body = ["  " + lines[i][2:]] + lines[i + 1:end]
                items.append("<li>" + "\n".join(blocks(_dedent(body, 2))) + "</li>")
                i = end
            out.append("<ul>" + "".join(items) + "</ul>")
        elif line.startswith("    ") and not paragraph:
            end = i
            while end < len(lines) and lines[end].startswith("    "):
                end += 1
            out.append(_pre(_dedent(lines[i:end], 4)))
            i = end
        elif not stripped:
            flush()
            i += 1
        else:
            paragraph.append(stripped)
            i += 1
    flush()
    return out


def to_html(markdown: str) -> str:
    """The HTML body fragment of `markdown` (the subset in the module docstring)."""
    return "\n".join(blocks(markdown.splitlines())) + "\n"


STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;
max-width:60em;padding:0 1em;color:#222;line-height:1.45}
h1,h2,h3{line-height:1.2}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:.2em .6em}
th{background:#f3f3f3;text-align:left}td.right{text-align:right}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;border-left:3px solid #ccc}
li{margin:.4em 0}li p{margin:.2em 0}strong{font-weight:700}
"""


def page(title: str, body: str, lang: str = "en") -> str:
    """A self-contained HTML page (inline CSS, no script, no external resource) in the
    language `lang` (its `lang` attribute picks the browser's fonts: zh-CN for Chinese)."""
    return (f"<!DOCTYPE html>\n<html lang=\"{html.escape(lang)}\"><head><meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style></head><body>\n"
            f"{body}</body></html>\n")
