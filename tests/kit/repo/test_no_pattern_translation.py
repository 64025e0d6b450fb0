"""Messages as ids, not English parsed back apart (issue 39, item 1): a producer makes a
kcheck.text Message where its sentence arises, the record keeps it as data and the gradebook
renders it per language. The pattern layer that translated a record's English by matching it
against templates (grader/gradebook/student_messages.py, grader/grading/student_templates.py)
is deleted; this file keeps it so:

- no module of the layer exists, nothing imports it and nothing calls its `translate` or
  `case_name` (`test_no_pattern_translation_module_and_no_call_of_one`);
- each Message id a producer writes (and each `said("...")` id of the sandboxed child, which
  cannot import kcheck) is a catalog message with a zh-CN translation, so the message
  renders in every language."""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from grader.catalogs import extract, translator

REPO = Path(__file__).resolve().parents[3]
PRODUCERS = ("grader", "kanon", "kcheck")


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


def test_every_message_id_is_a_catalog_message_read_in_chinese() -> None:
    catalog, zh = {**extract(REPO, "grader"), **extract(REPO, "kcheck")}, translator("zh-CN")
    made = message_ids()
    assert made, "no producer makes a Message"
    for message_id in sorted(made):
        assert message_id in catalog, f"{message_id!r}: not a catalog message (`_(...)`)"
        assert zh(message_id) != message_id, f"{message_id!r}: no zh-CN translation"


PATTERN_LAYER = ("grader/gradebook/student_messages.py", "grader/grading/student_templates.py")
"""The deleted pattern layer's modules (issue 39, item 1)."""
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
    assert [m for m in PATTERN_LAYER if (REPO / m).exists()] == []
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
    assert importers == []
