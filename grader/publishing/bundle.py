"""The student bundle: the zip handed to students (the `bundle` command:
grader.publishing.command_line).

The course's rubric (--course, default grader/rubric.toml) decides what students get:
skeleton.py and HANDOUT.md are assembled for it from the section sources
(grader.publishing.materials), and of the public tests and their data only those of the parts
it grades are shipped (tests/public/data/index.json names each file's users), their data cut
to those parts (grader.publishing.course_files: no other part's cases, names or data file
names; the tests' Python as it is). The
other files come from an explicit allow-list (ALLOW, plus the public tests' own helper modules, found by
following their imports) and generated files (requirements.txt with the rubric's allowed
packages, pytest.ini, tests/public/course.json from the rubric; for a course in another
language than English, README.md and the self-check's catalog: student_readme.py). A course
with functions of its own (rubric [[function]]) also gets their stubs and handout sections
and their public cases' self-check (own_selfcheck.py). Every course's bundle has kcheck/ as
it is: the self-check judges with the grader's checker. Before anything is written the list is verified
(grader.publishing.leaks): no path under reference/, kanon/ or grader/, no Python file
importing them, no file equal to (or containing) a hidden case's secret files, no file
carrying the reference solution's code (kcheck's verbatim modules, public by design, aside).
The zip is deterministic (grader.zipfiles) and written atomically.
"""
from __future__ import annotations

import ast
import hashlib
from pathlib import Path, PurePosixPath

from kanon.files import atomic_write_bytes

from ..authoring.course_file import COURSE_FILE, course_json
from ..errors import UserError
from ..sandbox.packages import requirements
from ..imports import absolute_imports
from ..paths import BUNDLE_FOLDER as DEFAULT_FOLDER, KIT_ROOT, PUBLIC_TESTS, TEMPLATES
from ..grading.fingerprint import FINGERPRINT_FILE, file_text, fingerprint
from ..courses.folder import resolve
from ..grading.term_view import apply_term
from .course_files import course_entries
from .rules_selfcheck import kept_paths, rule_parts, rules_entries
from . import own_selfcheck
from .materials import course_materials, public_users, view, wanted
from .student_readme import language_entries
from .pool_files import pool_entries
from .course_data import with_course_data, with_part_folders
from .leaks import (course_reference_fingerprints, hidden_leak, hidden_secrets,
                    is_public_package_file, public_package_files, reference_fingerprints,
                    reference_leak)
from ..zipfiles import Entry, zip_bytes


# (glob relative to the kit root, required?) -- the ONLY source files a bundle may contain.
ALLOW: tuple[tuple[str, bool], ...] = (
    ("adult-hw1.csv", True),
    ("DGHs/*.txt", True),
    ("tests/public/conftest.py", True),
    ("tests/public/test_*.py", True),
    ("tests/public/data/**/*.csv", False),
    ("tests/public/data/**/*.csv.gz", False),
    ("tests/public/data/**/*.txt", False),
    ("tests/public/data/**/*.json", False),
)
# Generated files: bundle path -> template under grader/publishing/templates/student/.
GENERATED = {"requirements.txt": "requirements.txt", "pytest.ini": "pytest.ini",
             "conftest.py": "conftest.py"}
FORBIDDEN_TOP = ("reference", "grader", "kanon")



# ------------------------------------------------------------------------------ collecting


def kit_root(given: str | None) -> Path:
    """The kit checkout to bundle from: --root, else the checkout holding this grader."""
    root = Path(given).resolve() if given else KIT_ROOT
    if not (root / "skeleton.py").is_file():
        raise UserError(f"{root} is not a checkout of the kit (no skeleton.py); pass --root")
    return root


def _local_imports(path: Path, folder: Path) -> set[Path]:
    """The modules of `folder` that the Python file `path` imports (top-level names only)."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except SyntaxError as e:
        raise UserError(f"{path}: not valid Python (line {e.lineno}); fix it before bundling")
    found = set()
    for name in absolute_imports(tree):
        candidate = folder / f"{name.split('.')[0]}.py"
        if candidate.is_file():
            found.add(candidate)
    return found


def public_helpers(root: Path, seeds: list[Path]) -> list[Path]:
    """tests/public/*.py modules imported (transitively) by the public tests: the tests need
    them, and development tools that nothing imports (e.g. an expected-output generator)
    stay out."""
    folder = root / PUBLIC_TESTS
    seen: set[Path] = set(seeds)
    todo = list(seeds)
    while todo:
        for module in _local_imports(todo.pop(), folder):
            if module not in seen:
                seen.add(module)
                todo.append(module)
    return sorted(seen - set(seeds))


def collect(root: Path, folder: str = DEFAULT_FOLDER, course: Path | None = None
            ) -> list[Entry]:
    """The bundle's entries for the course `course` (a rubric; default the kit's
    grader/rubric.toml): its skeleton.py and HANDOUT.md, the allow-listed files, of the
    public tests only those its parts need. A required pattern matching nothing is an
    error (say, adult-hw1.csv missing)."""
    own = root / "grader" / "rubric.toml"
    if course is None:
        course = own if own.is_file() else None
    rubric, _ = resolve(course)  # the rubric the grader will use (a course's, or a rubric)
    users, features = public_users(root), view(rubric).features
    paths: set[Path] = set()
    for pattern, required in ALLOW:
        matches = [p for p in root.glob(pattern) if p.is_file() and "__pycache__" not in p.parts]
        if required and not matches:
            raise UserError(f"cannot bundle: nothing in {root} matches {pattern!r}")
        paths.update(p for p in matches if wanted(p, root, users, features))
    paths = kept_paths(paths, root, rubric, users)  # a rules course: its own self-check
    paths = own_selfcheck.kept_paths(paths, root, rubric)  # a course's own functions' tests
    seeds = [p for p in paths if p.suffix == ".py" and p.parent == root / PUBLIC_TESTS]
    paths.update(public_helpers(root, seeds))
    entries = [Entry(p.relative_to(root).as_posix(), p.read_bytes()) for p in paths]
    kit = frozenset(f.name for f in view(rubric).functions if not f.own)  # own: own_selfcheck
    entries = course_entries(entries, frozenset(view(rubric).names), kit,
                             frozenset(p.function for p in rule_parts(rubric)))
    entries += rules_entries(rubric)
    entries += own_selfcheck.own_entries(rubric, root)  # a course's own functions' cases
    entries += own_selfcheck.kcheck_entries(root)  # every course: the self-check's checker
    entries = with_course_data(entries, rubric)  # a course's own public dataset, if it has one
    entries = with_part_folders(entries, view(rubric).part_folders)  # DGHs/<part>/ if QIs differ
    entries += [Entry(name, data) for name, data in course_materials(rubric, root).items()]
    entries += pool_entries(apply_term(rubric))  # the public counterexample pool
    for name, template in GENERATED.items():
        entries.append(Entry(name, (TEMPLATES / "student" / template).read_bytes()))
    entries = [e for e in entries if e.name not in (COURSE_FILE.as_posix(), "requirements.txt")]
    entries.append(Entry(COURSE_FILE.as_posix(), course_json(rubric).encode("utf-8")))
    template = (TEMPLATES / "student" / "requirements.txt").read_text(encoding="utf-8")
    entries.append(Entry("requirements.txt", template.replace(
        "numpy>=1.24\n", requirements(rubric.settings.allowed_packages)).encode()))
    entries.append(Entry(FINGERPRINT_FILE, file_text(fingerprint(apply_term(rubric))).encode()))
    added = language_entries(rubric.language, root)  # README.md, the self-check's catalog
    entries = [e for e in entries if e.name not in {a.name for a in added}] + added
    prefix = f"{folder.strip('/')}/" if folder.strip("/") else ""
    return sorted((Entry(prefix + e.name, e.data, e.executable) for e in entries),
                  key=lambda e: e.name)


# ------------------------------------------------------------------------------ verifying




def _shown(path: Path, root: Path) -> str:
    """A path for messages: relative to the kit root when inside it."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def path_problem(name: str, folder: str) -> str | None:
    """Why a bundle path is not allowed, or None."""
    path = PurePosixPath(name)
    parts = path.parts[1:] if folder.strip("/") else path.parts
    if path.is_absolute() or ".." in path.parts:
        return f"{name}: not a plain relative path"
    if parts and parts[0] in FORBIDDEN_TOP:
        return f"{name}: nothing under {parts[0]}/ may reach students"
    if "__pycache__" in parts or path.suffix in (".pyc", ".pyo"):
        return f"{name}: compiled Python does not belong in the bundle"
    return None


def import_problem(entry: Entry) -> str | None:
    """Why a bundled Python file is not allowed (it imports the reference or the grader)."""
    if not entry.name.endswith(".py"):
        return None
    for name in absolute_imports(ast.parse(entry.data, filename=entry.name)):
        if name.split(".")[0] in FORBIDDEN_TOP:
            return f"{entry.name} imports {name}"
    return None


def verify(entries: list[Entry], root: Path, folder: str = DEFAULT_FOLDER,
           rubrics: list[Path] | None = None) -> None:
    """Raise UserError listing every reason the bundle could reveal the solution or a hidden
    case (of `rubrics`, default grader/rubric.toml)."""
    fingerprints = reference_fingerprints(root)
    for rubric in rubrics or []:  # a course's own references: never shipped either
        fingerprints.update(course_reference_fingerprints(rubric))
    public = public_package_files(root)  # kcheck/: handed out as it is
    secrets = {_shown(p, root): (hashlib.sha256(p.read_bytes()).hexdigest(), p.read_bytes())
               for p in hidden_secrets(root, rubrics)}
    reference_hashes = {hashlib.sha256(p.read_bytes()).hexdigest(): p.name
                        for p in (root / "reference").glob("*.py")}
    problems = []
    for entry in entries:
        problems.append(path_problem(entry.name, folder))
        problems.append(import_problem(entry))
        name = reference_hashes.get(hashlib.sha256(entry.data).hexdigest())
        problems.append(f"{entry.name} is identical to reference/{name}" if name else None)
        if not is_public_package_file(entry.name, entry.data, public):
            problems.append(reference_leak(entry, fingerprints))
        problems.append(hidden_leak(entry, secrets))
    problems = [p for p in problems if p]
    if problems:
        raise UserError("refusing to write the bundle: " + "; ".join(problems))


# ------------------------------------------------------------------------------ writing


def build(root: Path, out: Path, folder: str = DEFAULT_FOLDER,
          rubrics: list[Path] | None = None, course: Path | None = None) -> list[Entry]:
    """Collect, verify and write the student bundle; returns its entries. `course`: the
    rubric whose rules the students' course.json carries (default grader/rubric.toml); its
    hidden cases are checked too."""
    entries = collect(root, folder, course)
    verify(entries, root, folder, list(rubrics or []) + ([course] if course else []))
    _, own = resolve(course) if course else (None, None)
    if own is not None and own.key is not None:
        from ..courses.secret import refuse_secret
        refuse_secret(entries, own.key, "the bundle")
    atomic_write_bytes(out, zip_bytes(entries), mode=0o644)  # a file to hand out
    return entries
