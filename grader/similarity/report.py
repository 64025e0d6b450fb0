"""The HTML report of `python -m grader similarity`: one self-contained page (no script, no
external file), the listed pairs in a table, then each pair's two submissions side by side
with the shared code highlighted. Deterministic: same pairs and sources, same bytes."""
from __future__ import annotations

import html

from .pairs import CAVEAT, Pair

STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em}
th{background:#f3f3f3}td.n{text-align:right}.caveat{background:#fff8e1;padding:.6em;
border-left:4px solid #f0b400}.pair{margin-top:2em}.side{display:flex;gap:1em}
.side>div{flex:1;min-width:0}pre{background:#fafafa;border:1px solid #ddd;padding:.5em;
font-size:12px;overflow:auto;max-height:40em;white-space:pre}mark{background:#ffd6d6}
.cut{color:#888;font-style:italic}
"""


CONTEXT = 3  # unshared lines kept around each highlighted stretch


def _gap(text: str, first: bool, last: bool) -> str:
    """An unshared stretch: escaped, its middle cut to a one-line marker when long."""
    lines = text.split("\n")
    keep_head = 0 if first else CONTEXT + 1
    keep_tail = 0 if last else CONTEXT + 1
    if len(lines) <= keep_head + keep_tail + 1:
        return html.escape(text)
    cut = len(lines) - keep_head - keep_tail
    marker = f'<span class="cut">[... {cut} line(s) not highlighted ...]</span>'
    return (html.escape("\n".join(lines[:keep_head])) + ("\n" if keep_head else "") + marker
            + ("\n" if keep_tail else "") + html.escape("\n".join(lines[len(lines) - keep_tail:])))


def _highlighted(source: str, spans: list[tuple[int, int]]) -> str:
    """The source, HTML-escaped, with each span in <mark>; long unshared stretches are cut
    to a few lines of context (the whole file when there is no span)."""
    if not spans:
        return html.escape(source)
    parts, at = [], 0
    for start, end in spans:
        start, end = max(start, at), min(end, len(source))
        if start >= end:
            continue
        parts += [_gap(source[at:start], first=at == 0, last=False), "<mark>",
                  html.escape(source[start:end]), "</mark>"]
        at = end
    parts.append(_gap(source[at:], first=False, last=True))
    return "".join(parts)


def report_html(pairs: list[Pair], sources: dict[str, str], engine: str, threshold: float,
                compared: int, archived: int) -> str:
    """The whole page."""
    e = html.escape
    how = ("copydetect (winnowing; the highlighted code is what matched)" if engine ==
           "copydetect" else "the built-in token matcher (install copydetect for highlighted "
           "matches: pip install -e \".[similarity]\")")
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>Similarity report</title>", f"<style>{STYLE}</style></head><body>",
           "<h1>Similarity report</h1>", f'<p class="caveat">{e(CAVEAT)}</p>',
           f"<p>{compared} submissions compared with each other"
           + (f" and with {archived} archived submissions" if archived else "")
           + f", by {e(how)}. Code from the kit's skeleton and code shared by more than half "
           f"of the class are ignored: not compared, so not counted in the shares. Each pair "
           f"shows both files whole, the code found in the other highlighted; the rest is "
           f"either not in the other or not compared. {len(pairs)} pair(s) at or above "
           f"{threshold:g}.</p>"]
    if pairs:
        out += ["<table><tr><th>#</th><th>Student a</th><th>Student b</th><th>Score</th>"
                "<th>Share of a in b</th><th>Share of b in a</th></tr>"]
        for n, p in enumerate(pairs, start=1):
            out.append(f'<tr><td class="n"><a href="#pair{n}">{n}</a></td><td>{e(p.a)}</td>'
                       f"<td>{e(p.b)}</td><td class=\"n\">{p.score:.2f}</td>"
                       f'<td class="n">{p.a_in_b:.0%}</td><td class="n">{p.b_in_a:.0%}</td></tr>')
        out.append("</table>")
    for n, p in enumerate(pairs, start=1):
        out += [f'<div class="pair" id="pair{n}"><h2>{n}. {e(p.a)} and {e(p.b)}: '
                f"{p.score:.2f}</h2>", '<div class="side">']
        for who, spans, share in ((p.a, p.spans_a, p.a_in_b), (p.b, p.spans_b, p.b_in_a)):
            out += [f"<div><h3>{e(who)} ({share:.0%} of its compared code found in the "
                    f"other)</h3>",
                    f"<pre>{_highlighted(sources.get(who, ''), spans)}</pre></div>"]
        out.append("</div></div>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
