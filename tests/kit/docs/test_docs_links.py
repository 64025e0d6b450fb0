"""The README is a short map and the guides in docs/ hold the rest: README.md stays under 200
lines, links every guide, and every relative link of README.md and docs/*.md reaches an
existing file and, for a `#anchor`, an existing heading of that file (GitHub's slugs)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
GUIDES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
MARKERS = {"students": "docs/students.md", "instructors": "docs/instructors.md",
           "grader": "docs/tas.md", "publishing": "docs/instructors.md",
           "developers": "docs/developers.md"}

FENCE = re.compile(r"^ {0,3}(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")


def prose(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text: the rendered text (code spans' content kept,
    links' text kept, emphasis and HTML dropped), lower case, every character but letters,
    digits, `_`, `-` and spaces removed, spaces made `-`."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor GitHub makes for the file's headings (a repeated one gets -1, -2, ...),
    and any explicit `id`/`name` anchors."""
    text = path.read_text(encoding="utf-8")
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose(text):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    found |= set(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", text))
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of every Markdown link outside code, in the file's order."""
    lines = prose(path.read_text(encoding="utf-8"))
    numbers = [n for n, _ in lines]
    text = "\n".join(line for _, line in lines)
    text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", "x", m.group()), text)  # same offsets
    found = []
    for match in LINK.finditer(text):
        line = numbers[text.count("\n", 0, match.start(2))]
        found.append((line, match.group(2)))
    return found


def test_slugs_follow_githubs_rules() -> None:
    assert slug("For TAs: grading a class") == "for-tas-grading-a-class"
    assert slug("What you get in `--out`") == "what-you-get-in---out"
    assert slug("The report's answer key: experiments and plots") == \
        "the-reports-answer-key-experiments-and-plots"
    assert slug("Grade the bundled examples (one command)") == \
        "grade-the-bundled-examples-one-command"
    assert slug("Checking any anonymized table: privacy, utility and risk") == \
        "checking-any-anonymized-table-privacy-utility-and-risk"
    assert slug("`cost_MD` and **k**") == "cost_md-and-k"


def test_the_readme_is_a_short_map() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    targets = {target.split("#")[0] for _, target in links(REPO / "README.md")}
    for guide in GUIDES[1:]:
        assert f"docs/{guide.name}" in targets, f"README.md does not link docs/{guide.name}"


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_reaches_a_file_and_heading(guide: Path) -> None:
    broken = []
    for line, target in links(guide):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        file = guide if not path else (guide.parent / path).resolve()
        where = f"{guide.relative_to(REPO)}:{line}: {target}"
        if not file.exists():
            broken.append(f"{where}: no such file")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            broken.append(f"{where}: no heading with that anchor in {file.name}")
        elif file.is_relative_to(REPO) is False:
            broken.append(f"{where}: outside the repository")
    assert not broken, "\n".join(broken)


def test_the_markers_stay_in_the_guide_that_holds_their_text() -> None:
    for name, home in MARKERS.items():
        for guide in GUIDES:
            text = guide.read_text(encoding="utf-8")
            start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
            where = str(guide.relative_to(REPO))
            if where == home:
                assert text.count(start) == text.count(end) == 1, where
                assert text.index(start) < text.index(end), where
            else:
                assert start not in text and end not in text, (name, where)


def test_the_link_finder_sees_links_over_lines_and_not_in_code(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A `b` c\n\nSee [the\nheading](#a-b-c), `[not](a link)`.\n\n```bash\n"
                    "[nor](this)\n```\n[x](other.md#y)\n", encoding="utf-8")
    assert links(page) == [(4, "#a-b-c"), (9, "other.md#y")]
    assert anchors(page) == {"a-b-c"}
