"""The feedback's Markdown subset as HTML: every construct the feedback writes, and nothing of
the input ever becomes markup (a student's printed output is quoted in their feedback)."""
from __future__ import annotations

from grader.gradebook.markdown_html import page, to_html

HOSTILE = '<script>alert("x")</script><img src=x onerror=y> & <a href="http://e.vil">'


def test_each_construct_of_the_feedback() -> None:
    md = ("# Feedback for ann\n\n**Score: 5 / 10** (50%). Status: `wrong`.\n\n## Parts\n\n"
          "| Part | Points |\n|---|---:|\n| cost\\|MD | **5** |\n\n"
          "- **FAIL** case — 0 / 5\n  returned 3; not the cost\n\n  Printed:\n\n  ```\n"
          "  line 1\n    indented\n  ```\n- **PASS** other\n\nHierarchies:\n\n"
          "    Job.txt (height 2):\n        Any\n\nlast line\nand its next\n")
    assert to_html(md) == (
        "<h1>Feedback for ann</h1>\n"
        "<p><strong>Score: 5 / 10</strong> (50%). Status: <code>wrong</code>.</p>\n"
        "<h2>Parts</h2>\n"
        '<table><tr><th>Part</th><th>Points</th></tr><tr><td class="left">cost|MD</td>'
        '<td class="right"><strong>5</strong></td></tr></table>\n'
        "<ul><li><p><strong>FAIL</strong> case — 0 / 5<br>\nreturned 3; not the cost</p>\n"
        "<p>Printed:</p>\n<pre>line 1\n  indented</pre></li>"
        "<li><p><strong>PASS</strong> other</p></li></ul>\n"
        "<p>Hierarchies:</p>\n<pre>Job.txt (height 2):\n    Any</pre>\n"
        "<p>last line<br>\nand its next</p>\n")


def test_nothing_of_the_input_becomes_markup() -> None:
    md = (f"# {HOSTILE}\n\n{HOSTILE} `{HOSTILE}` **{HOSTILE}**\n\n| a |\n|---|\n| {HOSTILE} |"
          f"\n\n- {HOSTILE}\n\n```\n{HOSTILE}\n```\n\n    {HOSTILE}\n\nan ` unpaired {HOSTILE}\n")
    html = to_html(md)
    for tag in ("<script", "<img", "<a ", "onerror=y>", 'href="'):
        assert tag not in html
    assert html.count("&lt;script&gt;") == 9  # each of the nine places it was written
    full = page(HOSTILE, html)
    assert "<title>&lt;script&gt;" in full and "<script" not in full


def test_same_input_same_bytes() -> None:
    md = "# a\n\n- b\n  c\n\n| x | y |\n|---|---|\n| 1 | 2 |\n"
    assert to_html(md) == to_html(md)
