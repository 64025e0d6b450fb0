"""Grading one submission: unpack, choose the solution, check it statically, run every case
in the sandbox, score the results. Returns a plain, JSON-ready record (see `grade`).

Statuses of a case: passed, partial, wrong (graded outputs); not-attempted, missing,
signature (static or runtime checks); error, exit, crash, timeout, memory, file-too-large,
bad-return, no-output, forbidden (the call misbehaved); import-* (the module could not be
imported, even one statement at a time); no-solution, syntax-error, unsafe-archive,
bad-archive (the submission could not be graded at all). A submission's status is its most
serious problem (STATUS_ORDER), or "ok".

Time policy: each call has a CPU-time limit that grows with its dataset (Case.cpu_limit) and
a generous wall-clock backstop; a function's cases run from the smallest dataset up, and once
one runs out of time the function's larger cases are not run (they would too).
"""
from __future__ import annotations

import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from . import compare, privacy_summary
from .contract import OUTPUT_FILE, SIGNATURES, call_args, graded_functions, is_cost
from .expected import Expected, copy_inputs
from .intake import ArchiveProblem, Caps, Submission, unpack
from .rubric import Case, Rubric
from .sandbox import CallOutcome, ImportOutcome, Limits, RunAs, Session, wall_backstop
from .solution import Solution, choose
from .static import FunctionCheck, keyword_order, positional_problem, signature_check
from .static import missing as missing_function

STATUS_ORDER = ["grader-error", "forbidden", "unsafe-archive", "bad-archive", "no-solution", "syntax-error",
                "import-timeout", "import-exit", "import-crash", "import-memory", "import-error",
                "timeout", "memory", "crash", "file-too-large", "exit", "error", "bad-return",
                "no-output", "signature", "missing", "not-attempted", "output-capped", "ok"]
IMPORT_STATUS = {"exception": "import-error", "exit": "import-exit", "memory": "import-memory",
                 "timeout": "import-timeout", "crash": "import-crash"}
SCORED = ("passed", "partial")


@dataclass
class Context:
    """Everything grading needs besides the submission; shared by all workers."""

    rubric: Rubric
    expected: dict[str, Expected]  # case id -> expected output
    limits: Limits
    caps: Caps
    scratch_base: Path
    bwrap_hidden: list[Path] | None = None
    cancel: threading.Event | None = None
    deny: list[Path] | None = None  # folders the child's Python code may not open
    run_as: RunAs | None = None  # the unprivileged user children run as (grader is root)


class _Scrub:
    """Replaces the scratch directory's path in child-reported text (determinism)."""

    def __init__(self, scratch: Path):
        self.pairs = [(str(scratch / "sub") + "/", ""), (str(scratch), "<sandbox>")]

    def __call__(self, text: str) -> str:
        for old, new in self.pairs:
            text = text.replace(old, new)
        return text


def grade(sub: Submission, ctx: Context) -> dict:
    """Grade one submission; the record lists every case with its status and points."""
    record = {"student": sub.student, "source": sub.source, "notes": list(sub.notes),
              "solution": None, "import": None, "cases": [], "timing": {}}
    scratch = Path(tempfile.mkdtemp(prefix=f"kanon-{sub.student[:20]}-", dir=ctx.scratch_base))
    try:
        _grade_into(record, sub, ctx, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return _totals(record, ctx.rubric)


def _grade_into(record: dict, sub: Submission, ctx: Context, scratch: Path) -> None:
    rubric = ctx.rubric
    try:
        root = unpack(sub, scratch / "unpacked", rubric.id_pattern, ctx.caps)
        solution = choose(root)
    except ArchiveProblem as e:
        record["notes"] = list(sub.notes) + [f"Your submission was not graded: {e}."]
        _fill(record, rubric, e.status, "the submission could not be unpacked safely")
        return
    record["notes"] = list(sub.notes) + solution.notes  # unpack may have added notes
    if solution.file is None:
        _fill(record, rubric, "no-solution", "no solution file found")
        return
    record["solution"] = solution.file.relative_to(root).as_posix()
    static = solution.static
    if static.syntax_error:
        record["notes"].append(f"{record['solution']} cannot be parsed: {static.syntax_error}.")
        _fill(record, rubric, "syntax-error", f"syntax error: {static.syntax_error}")
        return
    for check in static.functions.values():
        record["notes"].extend(check.notes)
    sub_dir = scratch / "sub"
    for rel in solution.sources:
        target = sub_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, target)
    shutil.rmtree(root)  # data files the student sent are never visible to the child
    runner = _CaseRunner(ctx, scratch, solution, root, record)
    try:
        runner.run_all(static.functions)
    finally:
        runner.close()


def _fill(record: dict, rubric: Rubric, status: str, message: str) -> None:
    """Every case gets the same status and no points."""
    record["cases"] = [_case_entry(rubric, c, status, message) for c in rubric.cases()]


def _case_entry(rubric: Rubric, case: Case, status: str, message: str, *, output: str = "",
                fraction: float = 0.0, seconds: float | None = None,
                time_limit: float | None = None, cpu_seconds: float | None = None) -> dict:
    points = rubric.part_of(case).case_points(case)
    return {"id": case.id, "part": case.part, "function": case.function, "name": case.name,
            "hidden": case.hidden, "visibility": case.visibility, "status": status,
            "message": message, "output": output, "max_points": round(points, 6),
            "points": round(points * fraction, 6), "seconds": seconds,
            "cpu_seconds": cpu_seconds, "time_limit": time_limit}


class _CaseRunner:
    """Runs a submission's cases through one sandbox session (restarted when it dies)."""

    def __init__(self, ctx: Context, scratch: Path, solution: Solution, root: Path,
                 record: dict):
        self.ctx, self.scratch, self.record = ctx, scratch, record
        self.scrub = _Scrub(scratch)
        sub_dir = scratch / "sub"
        self.file = sub_dir / solution.file.relative_to(root)
        self.paths = [sub_dir / p.relative_to(root) for p in solution.import_paths]
        self.module = solution.module
        self.import_cwd = scratch / "import"
        self.session: Session | None = None
        self.mode = "full"
        self.import_failure: str | None = None  # import-* status when no mode worked
        self.functions: dict = {}
        self.max_call = max(self._limit(c) for c in ctx.rubric.cases())
        self.count = 0
        self.keyword: set[str] = set()  # functions called by keyword (names in another order)
        self.unavailable: dict[str, str] = {}  # name bound by a dropped import -> why
        self.known: dict[int, str] = {}  # first line -> why the first retry left it out

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None

    # -- sessions ------------------------------------------------------------------------
    def _start(self, mode: str) -> ImportOutcome:
        self.close()
        self.session = Session(self.scratch, self.ctx.limits, bwrap_hidden=self.ctx.bwrap_hidden,
                               cancel=self.ctx.cancel, deny=self.ctx.deny,
                               run_as=self.ctx.run_as)
        return self.session.start(
            file=self.file, module=self.module, paths=self.paths, import_cwd=self.import_cwd,
            functions=graded_functions([c.function for c in self.ctx.rubric.cases()]),
            mode=mode,
            import_limit=float(self.ctx.rubric.settings["import_time_limit"]),
            max_call_seconds=self.max_call,
            allowed=list(self.ctx.rubric.settings["allowed_packages"]),
            known=self.known if mode == "retry" else None)

    def _rows(self, case: Case) -> int:
        """Data rows of the case's dataset."""
        return len(compare.load_case_data(self.ctx.rubric.cases_dir / case.data).raw.rows)

    def _limit(self, case: Case) -> float:
        return case.cpu_limit(self._rows(case))

    def _first_import(self) -> None:
        """Import in a folder holding the first public case's data (so experiments at import
        time find adult-hw1.csv and DGHs/), never a hidden case's."""
        self.import_cwd.mkdir()
        public = [c for c in self.ctx.rubric.cases() if not c.hidden]
        if public:
            copy_inputs(public[0], self.ctx.rubric.cases_dir, self.import_cwd)
        outcome = self._start("full")
        self.record["timing"]["import"] = outcome.seconds
        info = {"status": outcome.status, "mode": "full", "output": self.scrub(outcome.output)}
        forbidden = list(outcome.forbidden)
        if outcome.status != "ok":
            info["problem"] = self._describe_import(outcome)
            fallback = self._start("retry")
            forbidden += fallback.forbidden
            info["retried"] = True
            if fallback.status == "ok":
                self.mode = "retry"
                info["mode"] = "retry"
                info["dropped"] = [{**d, "reason": self.scrub(d["reason"])}
                                   for d in fallback.dropped]
                self.known = {d["lines"][0]: d["reason"] for d in fallback.dropped}
                self.record["notes"].append(self._retry_note(info))
                self._note_unavailable(info["dropped"])
                outcome = fallback
            else:
                info["retry_problem"] = self._describe_import(fallback)
                self.import_failure = IMPORT_STATUS[outcome.status]
                self.record["notes"].append(
                    f"Importing your file failed ({info['problem']}). The grader imported it "
                    f"again one top-level statement at a time, and that failed too: "
                    f"{info['retry_problem']}.")
        if forbidden:
            self._forbidden(forbidden, "while your file was imported")
        if outcome.output_dropped:
            self.record["notes"].append(f"Your file printed {outcome.output_dropped} bytes more "
                                        f"than the grader keeps while it was imported.")
            self.record.setdefault("capped", True)
        self.record["import"] = info
        self.functions = outcome.functions

    @staticmethod
    def _retry_note(info: dict) -> str:
        """What a successful retry left out, for the student."""
        shown = [d for d in info["dropped"] if not d["reason"].startswith("the `if __name__")]
        items = []
        for d in shown[:12]:
            first, last = d["lines"]
            where = f"line {first}" if first == last else f"lines {first}-{last}"
            items.append(f"{where} (`{d['code']}`: {d['reason']})")
        if len(shown) > 12:
            items.append(f"and {len(shown) - 12} more")
        left_out = "; ".join(items) if items else "nothing"
        return (f"Importing your file failed ({info['problem']}). It was imported again one "
                f"top-level statement at a time and graded that way, leaving out: {left_out}. "
                f"Keep command-line code and experiments under "
                f"`if __name__ == \"__main__\":`.")

    def _note_unavailable(self, dropped: list[dict]) -> None:
        """Remember the names that dropped imports would have bound (for NameError hints)."""
        for d in dropped:
            for name in d.get("binds", []):
                first = d["lines"][0]
                self.unavailable[name] = f"line {first}, `{d['code']}`, was left out: {d['reason']}"

    def _describe_import(self, outcome: ImportOutcome) -> str:
        limit = self.ctx.rubric.settings["import_time_limit"]
        error = outcome.error
        if outcome.status == "timeout" and error.get("wall"):
            return (f"it did not finish within the import's wall-clock backstop of "
                    f"{wall_backstop(limit):g} s (it waited rather than computed)")
        if outcome.status == "timeout":
            return f"it used more than the import's CPU-time limit of {limit:g} s"
        if outcome.status == "exit":
            return f"it called sys.exit / exit (code {error.get('code', '?')}) while importing"
        if outcome.status == "crash":
            return f"the process died while importing ({error.get('signal', '?')})"
        if outcome.status == "memory":
            return "it ran out of memory while importing"
        return f"{error.get('type', 'an exception')}: {self.scrub(error.get('message', ''))}"

    # -- cases ---------------------------------------------------------------------------
    def run_all(self, static: dict[str, FunctionCheck]) -> None:
        rubric = self.ctx.rubric
        static = dict(static)
        for c in rubric.cases():  # an optional part the file does not define
            static.setdefault(c.function, missing_function(c.function))
        needed = {c.function for c in rubric.cases()
                  if static[c.function].state not in ("not-attempted", "signature")}
        if needed:
            self._first_import()
        cases = rubric.cases()
        entries: list[dict | None] = [None] * len(cases)
        timed_out: dict[str, Case] = {}  # function -> the case where it ran out of time
        for i in sorted(range(len(cases)), key=lambda i: (self._rows(cases[i]), i)):
            case = cases[i]
            state, message = self._function_state(case.function, static[case.function])
            smaller = timed_out.get(case.function)
            if state != "ok":
                entries[i] = _case_entry(rubric, case, state, message)
            elif smaller is not None and self._rows(case) > self._rows(smaller):
                entries[i] = _case_entry(
                    rubric, case, "timeout",
                    f"not run: `{case.function}` ran out of time on the smaller case "
                    f"\"{smaller.name}\" ({self._rows(smaller)} rows), so it would on this one "
                    f"({self._rows(case)} rows) too", time_limit=self._limit(case))
            else:
                entries[i] = self._run_case(case)
                if entries[i]["status"] == "timeout":
                    timed_out.setdefault(case.function, case)
        self.record["cases"] = entries

    def _function_state(self, name: str, check: FunctionCheck) -> tuple[str, str]:
        if check.state in ("not-attempted", "signature"):
            return check.state, check.message
        if self.import_failure:
            return self.import_failure, (f"your file could not be imported: "
                                         f"{self.record['import']['problem']}")
        info = self.functions.get(name, {})
        if not info.get("callable"):
            return "missing", check.message or f"`{name}` is not a function of your module."
        params = info.get("params")
        if params is not None and check.state != "ok":
            state, message, _ = signature_check(name, [tuple(p) for p in params])
            if state != "ok":
                return state, message
        elif params is not None:
            problem = positional_problem([tuple(p) for p in params], len(SIGNATURES[name]))
            if problem:
                return "signature", f"`{name}` cannot be called as the handout says: {problem}"
        if params is not None and keyword_order([tuple(p) for p in params], name):
            self.keyword.add(name)
        return "ok", ""

    def _ensure_session(self) -> bool:
        if self.session is not None and self.session.alive():
            return True
        outcome = self._start(self.mode)
        if outcome.status != "ok":
            self.import_failure = IMPORT_STATUS[outcome.status]
            self.record["notes"].append(f"Your file could not be imported again after a case "
                                        f"ended its process: {self._describe_import(outcome)}.")
            self.record.setdefault("import", {})["problem"] = self._describe_import(outcome)
            return False
        return True

    def _run_case(self, case: Case) -> dict:
        rubric = self.ctx.rubric
        if not self._ensure_session():
            return _case_entry(rubric, case, self.import_failure,
                               f"your file could not be imported again: "
                               f"{self.record['import']['problem']}")
        self.count += 1
        cwd = self.scratch / f"case-{self.count:03d}"  # a fresh name even if a deletion failed
        cwd.mkdir()
        copy_inputs(case, rubric.cases_dir, cwd)
        args = call_args(case.function, case.ints)
        kwargs = {}
        if case.function in self.keyword:
            kwargs, args = dict(zip(SIGNATURES[case.function], args)), []
        limit = self._limit(case)
        outcome = self.session.call(case=case.id, cwd=cwd, function=case.function,
                                    args=args, kwargs=kwargs, time_limit=limit)
        if outcome.output_dropped and not self.record.get("capped_calls"):
            self.record["capped_calls"] = True
            self.record["notes"].append(
                f"Your functions print a lot (case {case.id}: {outcome.output_dropped} bytes "
                f"beyond the {self.ctx.limits.output_kb} KB the grader keeps). Printing costs "
                f"time; remove debugging output.")
        if outcome.output_dropped:
            self.record["capped"] = True
        self.privacy: str | None = None  # _judge's summary of the output file (no points)
        try:
            status, message, fraction = self._judge(case, outcome, cwd)
        finally:
            shutil.rmtree(cwd, ignore_errors=True)
        if outcome.leftover:
            many = outcome.leftover > 1
            message += (f"{'; ' if message else ''}your code left {outcome.leftover} "
                        f"process{'es' if many else ''} running after the call returned; "
                        f"{'they were' if many else 'it was'} killed")
        if outcome.forbidden:
            self._forbidden(outcome.forbidden, f"in case {case.id}")
            status, fraction = "forbidden", 0.0
            message = ("tried to open the grader's own files; the access was refused, recorded "
                       "in the grade record, and this case earns no points")
        shown = "" if status in SCORED else self.scrub(outcome.output)
        if case.hidden:  # what the student's code printed or raised may quote hidden data
            shown = compare.redact(shown, rubric.cases_dir / case.data)
            message = compare.redact(message, rubric.cases_dir / case.data)
        cpu = outcome.cpu_seconds
        entry = _case_entry(rubric, case, status, message, output=shown, fraction=fraction,
                            seconds=round(outcome.seconds, 4), time_limit=limit,
                            cpu_seconds=None if cpu is None else round(cpu, 2))
        if self.privacy and status != "forbidden":
            entry["privacy"] = self.privacy
        return entry

    def _judge(self, case: Case, outcome: CallOutcome, cwd: Path) -> tuple[str, str, float]:
        expected = self.ctx.expected[case.id]
        partial = self.ctx.rubric.part_of(case).partial_credit
        error = outcome.error
        if outcome.status == "timeout":
            limit, rows = self._limit(case), self._rows(case)
            if outcome.error.get("wall"):
                return "timeout", (f"did not finish within the wall-clock backstop of "
                                   f"{wall_backstop(limit):g} s (it waited rather than "
                                   f"computed; its CPU-time limit is {limit:g} s)"), 0
            return "timeout", (f"ran out of time: it used its whole CPU-time limit of "
                               f"{limit:g} s for this case ({rows} rows)"), 0
        if outcome.status == "memory":
            return "memory", (f"ran out of memory (limit {self.ctx.limits.memory_mb} MB): "
                              f"{self._error_text(error)}"), 0
        if outcome.status == "file-size" and "disk" in error:
            return "file-too-large", (f"wrote more than {self.ctx.limits.disk_mb} MB of files "
                                      f"in its folder"), 0
        if outcome.status == "file-size":
            return "file-too-large", (f"wrote a file larger than "
                                      f"{self.ctx.limits.file_size_mb} MB"), 0
        if outcome.status == "crash":
            if "signal" in error:
                return "crash", f"the process was killed by {error['signal']}", 0
            return "crash", (f"the process ended (exit code {error.get('code', '?')}) without "
                             f"returning, e.g. through os._exit"), 0
        if outcome.status == "exit":
            return "exit", f"called sys.exit / exit (code {error.get('code', '?')})", 0
        if outcome.status == "exception":
            mro = error.get("mro", [error.get("type")])
            if expected.kind == "error" and expected.error in mro:
                return "passed", f"raised {error.get('type')} as the contract requires", 1.0
            if error.get("type") == "NotImplementedError":
                return "not-attempted", "raised NotImplementedError", 0
            text = self._error_text(error)
            hint = self._unavailable_hint(error)
            return "error", (text.replace("\n", f" ({hint})\n", 1) if hint and "\n" in text
                             else text + (f" ({hint})" if hint else "")), 0
        # returned normally
        if expected.kind == "error":
            return "wrong", f"should raise {expected.error}, but returned normally", 0
        if is_cost(case.function):
            value = outcome.value
            if value.get("value_kind") != "number":
                shown = value.get("type", "None") if value.get("value_kind") == "other" else "None"
                return "bad-return", f"returned {shown}, not a number", 0
            verdict = compare.compare_cost(value["value"], expected.value,
                                           float(self.ctx.rubric.settings["cost_tolerance"]))
        else:
            output = cwd / OUTPUT_FILE
            if not output.exists() and not output.is_symlink():
                return "no-output", (f"returned without writing the output file "
                                     f"(`output_file`, here {OUTPUT_FILE!r})"), 0
            try:
                produced = compare.read_output(output)
            except (compare.NotARegularFile, OSError):
                return "forbidden", (f"the output file {OUTPUT_FILE!r} is a link or not a "
                                     f"regular file; the grader does not follow links"), 0
            data = compare.load_case_data(self.ctx.rubric.cases_dir / case.data)
            verdict = compare.compare_table(produced, expected.path, data, case.function,
                                            case.ints, case.hidden)
            self.privacy = privacy_summary.summarize(produced,
                                                     self.ctx.rubric.cases_dir / case.data,
                                                     suppression=case.function == "samarati")
        fraction = {"passed": 1.0, "partial": partial}.get(verdict.status, 0.0)
        return verdict.status, verdict.message, fraction

    def _forbidden(self, paths: list[str], where: str) -> None:
        self.record["forbidden"] = True
        tried = self.record.setdefault("forbidden_paths", [])  # for the staff, never shown
        tried.extend(p for p in sorted(set(paths)) if p not in tried)
        self.record["notes"].append(f"Your code tried to open the grader's own files {where}. "
                                    f"The access was refused and recorded in your grade record.")

    def _unavailable_hint(self, error: dict) -> str:
        """For a NameError on a name a dropped import would have bound: which line and why."""
        if error.get("type") != "NameError":
            return ""
        for name, why in self.unavailable.items():
            if f"'{name}'" in error.get("message", ""):
                return why
        return ""

    def _error_text(self, error: dict) -> str:
        head = f"raised {error.get('type', 'an exception')}: {error.get('message', '')}"
        trace = error.get("traceback", "")
        return self.scrub(head + ("\n" + trace if trace else ""))


def _totals(record: dict, rubric: Rubric) -> dict:
    parts = {p.key: 0.0 for p in rubric.parts}
    for case in record["cases"]:
        parts[case["part"]] += case["points"]
    record["parts"] = {k: round(v, 4) for k, v in parts.items()}
    record["score"] = round(sum(parts.values()), 4)
    record["max"] = round(rubric.max_points, 4)
    statuses = {c["status"] for c in record["cases"]}
    record["remarks"] = []
    if record.get("import") and record["import"].get("problem"):
        status = IMPORT_STATUS.get(record["import"]["status"], "import-error")
        if record["score"] < record["max"]:
            statuses.add(status)
        else:  # the retry was graded in full: no points lost, a note only
            record["remarks"].append(f"{status}, graded one top-level statement at a time")
    if record.pop("forbidden", False):
        statuses.add("forbidden")
    record.pop("capped_calls", None)
    if record.pop("capped", False):
        statuses.add("output-capped")
    record["status"] = next((s for s in STATUS_ORDER if s in statuses), "ok")
    return record
