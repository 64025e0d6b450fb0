"""Messages as ids, not English parsed back apart (issue 39, item 1): a producer makes a
kcheck.text Message where its sentence arises, the record keeps it as data and the gradebook
renders it per language; grader/gradebook/student_messages.py's pattern layer (a record's
English matched against grader/grading/student_templates.py's templates) is left for
sentences still written as English only. Two counts, each can only go down, to 0, when the
pattern layer is deleted:

- TEMPLATES_LEFT: the templates no producer (grader/, kanon/, kcheck/) makes as
  `Message("...")` yet (a template made so may still reach the pattern layer from another
  producer writing it as English: the second count catches the rendering side);
- CALLS_LEFT: the gradebook's calls of the pattern layer (`translate`, `case_name`).

Each Message id a producer writes is a catalog message with a zh-CN translation, so the
message renders in every language. The invariant that replaces the two counts once the layer is
deleted (`test_no_pattern_translation_module_and_no_call_of_one`) is at the end of the file."""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from grader.catalogs import extract, translator

REPO = Path(__file__).resolve().parents[3]
PRODUCERS = ("grader", "kanon", "kcheck")
TEMPLATES_LEFT = 0
CALLS_LEFT = 0


def _calls(folder: str, names: set[str]) -> list[ast.Call]:
    found = []
    for path in sorted((REPO / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found += [node for node in ast.walk(tree) if isinstance(node, ast.Call)
                  and isinstance(node.func, ast.Name) and node.func.id in names]
    return found


WORKER = "grader/sandbox/worker_parts"
"""The sandboxed child's program, which cannot import kcheck: its `said("...", ...)` makes a
Message's JSON (grader/sandbox/worker_parts/retry.py)."""


@lru_cache(maxsize=None)
def message_ids() -> frozenset[str]:
    """The literal ids of every `Message("...", ...)` the producers make (and the child's
    `said("...", ...)`)."""
    calls = [call for folder in PRODUCERS for call in _calls(folder, {"Message"})]
    return frozenset(call.args[0].value for call in calls + _calls(WORKER, {"said"})
                     if call.args and isinstance(call.args[0], ast.Constant)
                     and isinstance(call.args[0].value, str))


def test_the_templates_the_pattern_layer_still_needs_only_go_down() -> None:
    from grader.grading.student_templates import NAME_PHRASES, TEMPLATES
    made = message_ids()
    left = [t for t in TEMPLATES + NAME_PHRASES if t not in made]
    assert len(left) <= TEMPLATES_LEFT, f"{len(left)} templates left, the ratchet allows " \
        f"{TEMPLATES_LEFT}: a producer writes English instead of a Message again"
    assert len(left) == TEMPLATES_LEFT, f"fewer templates left ({len(left)}): lower " \
        f"TEMPLATES_LEFT to {len(left)}"


def test_the_gradebooks_pattern_translations_only_go_down() -> None:
    calls = len(_calls("grader/gradebook", {"translate", "case_name"}))
    assert calls <= CALLS_LEFT, f"{calls} calls of the pattern layer, the ratchet allows " \
        f"{CALLS_LEFT}: render the record's message as data instead"
    assert calls == CALLS_LEFT, f"fewer calls of the pattern layer ({calls}): lower " \
        f"CALLS_LEFT to {calls}"


def test_every_message_id_is_a_catalog_message_read_in_chinese() -> None:
    catalog, zh = extract(REPO, "grader"), translator("zh-CN")
    made = message_ids()
    assert made, "no producer makes a Message"
    for message_id in sorted(made):
        assert message_id in catalog, f"{message_id!r}: not a catalog message (`_(...)`)"
        assert zh(message_id) != message_id, f"{message_id!r}: no zh-CN translation"


# ---- The invariant once the pattern layer is deleted (issue 39, item 1: "no pattern-matching
# translation module"). Switch it on by deleting the two counting tests above (with
# TEMPLATES_LEFT and CALLS_LEFT) and emptying PENDING_DELETION and PENDING_IMPORTERS when the
# layer's modules go; until then it asserts only what holds already: nothing outside the layer
# calls it, and nothing but the modules pending imports it.
PATTERN_LAYER = ("grader/gradebook/student_messages.py", "grader/grading/student_templates.py")
PENDING_DELETION = PATTERN_LAYER
"""The layer's modules still in the tree: () once the lead deleted them."""
PENDING_IMPORTERS = ("grader/gradebook/export.py",)  # an unused `translate` import left
"""Modules outside the layer that still import it: () once it is deleted."""
SOURCES = ("grader", "kanon", "kcheck", "tests", "bench", "examples")


def _python_files() -> list[Path]:
    return sorted(path for folder in SOURCES for path in (REPO / folder).rglob("*.py")
                  if path.relative_to(REPO).as_posix() not in PATTERN_LAYER)


def _imports_the_layer(tree: ast.AST) -> bool:
    names = {m.rpartition("/")[2][:-3] for m in PATTERN_LAYER}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and \
                node.module.rpartition(".")[2] in names:
            return True
        if isinstance(node, ast.Import) and any(a.name.rpartition(".")[2] in names
                                                for a in node.names):
            return True
    return False


def test_no_pattern_translation_module_and_no_call_of_one() -> None:
    assert [m for m in PATTERN_LAYER if (REPO / m).exists() and m not in PENDING_DELETION] == []
    here = Path(__file__).resolve()
    calls, importers = [], []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(REPO).as_posix()
        if path == here or not (_imports_the_layer(tree) or where.startswith("grader/gradebook")):
            continue
        calls += [f"{where}:{node.lineno}" for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("translate", "case_name")]
        if _imports_the_layer(tree):
            importers.append(where)
    assert calls == [], "the pattern layer's `translate`/`case_name` called: render the " \
        "record's message data (kcheck.text) instead"
    assert [m for m in importers if m not in PENDING_IMPORTERS] == []
