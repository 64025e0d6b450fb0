"""Running a submission's cases: in which order and under which limit (smallest dataset first;
after a timeout, grader.grading.time_policy), whether each function can be called, one call per
case in the submission's session, then the judgement (grader.grading.judge) and what the
student may see of it: a hidden case keeps no printed output and no text of the student's
code, only structured facts (grader.grading.hidden_view)."""
from __future__ import annotations

import csv
import shutil
from functools import lru_cache
from pathlib import Path

from kcheck.text import Message, Verbatim

from ..contract import OUTPUT_FILE, RAW_FILE, SIGNATURES
from ..rubric import Case, Rubric
from .shrink.hook import find_counterexamples
from . import compare, privacy_summary
from .expected import copy_inputs, data_folder
from .hidden_view import StudentCode
from .judge import CaseFacts, Judgement, Produced, judge
from .judges import JUDGES
from .notes import Note, message_of
from .results import CaseResult, SubmissionResult, case_result
from .session_keeper import SessionKeeper
from .static import FunctionCheck, keyword_order, positional_problem, signature_check
from .static import missing as missing_function
from .statuses import SCORED, Status
from .time_policy import Plan, TimePolicy


class CaseRunner:
    """Runs every case of the rubric for one submission (its session: `keeper`)."""

    def __init__(self, ctx, scratch: Path, result: SubmissionResult, keeper: SessionKeeper):
        self.ctx, self.scratch, self.result, self.keeper = ctx, scratch, result, keeper
        self.code = StudentCode.read(scratch / "sub",  # before any of the student's code ran
                                     ctx.rubric.settings.allowed_packages)
        self.count = 0
        self.keyword: set[str] = set()  # functions called by keyword (names in another order)

    def rows(self, case: Case) -> int:
        return case_rows(self.ctx.rubric, case)

    def limit(self, case: Case) -> float:
        return case.cpu_limit(self.rows(case))

    def run_all(self, static: dict[str, FunctionCheck]) -> None:
        rubric = self.ctx.rubric
        static = dict(static)
        for c in rubric.cases():  # an optional part the file does not define
            static.setdefault(c.function, missing_function(c.function))
        if any(static[c.function].state not in ("not-attempted", "signature")
               for c in rubric.cases()):
            self.keeper.first_import()
        cases = rubric.cases()
        results: list[CaseResult | None] = [None] * len(cases)
        policy = TimePolicy()
        for i in sorted(range(len(cases)), key=lambda i: (self.rows(cases[i]), i)):
            case = cases[i]
            state, message, by_keyword = callable_state(case.function, static[case.function],
                                                        self.keeper, case.spec.names)
            if by_keyword:
                self.keyword.add(case.function)
            plan = policy.plan(case, self.limit(case))
            if state != Status.OK:
                results[i] = case_result(rubric, case, state, message)
            elif plan.skipped is not None:
                results[i] = case_result(rubric, case, Status.TIMEOUT, plan.skipped,
                                         time_limit=plan.limit)
            else:
                results[i] = self.run_case(case, plan)
                policy.record(case, self.rows(case), plan.limit, results[i].status)
        self.result.cases = results
        self.result.counterexamples = find_counterexamples(self, results)  # grader/grading/shrink

    def run_case(self, case: Case, plan: Plan) -> CaseResult:
        """One call of `case` under the plan's CPU-time limit, judged."""
        rubric, result = self.ctx.rubric, self.result
        if not self.keeper.ensure():
            return case_result(rubric, case, self.keeper.failure,
                               import_problem(self.keeper, again=True))
        self.count += 1
        cwd = self.scratch / f"case-{self.count:03d}"  # a fresh name even if a deletion failed
        cwd.mkdir()
        copy_inputs(case, rubric.cases_dir, cwd)
        args, kwargs = case.spec.call_args(case.ints), {}
        if case.function in self.keyword:
            kwargs, args = dict(zip(case.spec.names, args)), []
        limit = plan.limit
        outcome = self.keeper.session.call(case=case.id, cwd=cwd, function=case.function,
                                           args=args, kwargs=kwargs, time_limit=limit)
        if outcome.output_dropped and not result.capped_calls:
            result.capped_calls = True
            result.notes.append(Note(Message(
                "Your functions print a lot (case {case}: {n} bytes beyond the {kb} KB the "
                "grader keeps). Printing costs time; remove debugging output.", case=case.id,
                n=outcome.output_dropped, kb=self.ctx.limits.output_kb)))
        if outcome.output_dropped:
            result.capped = True
        try:
            verdict, privacy = self._judge(case, outcome, cwd, limit)
        finally:
            shutil.rmtree(cwd, ignore_errors=True)
        status, fraction = verdict.status, verdict.fraction
        if outcome.forbidden:
            result.forbid(outcome.forbidden, Message("in case {case}", case=case.id))
            status, fraction = Status.FORBIDDEN, 0.0
        message, ref = case_message(verdict, outcome.leftover, bool(outcome.forbidden), plan)
        # what the call printed may quote a hidden case's data: never kept (nor in the record)
        shown = "" if status in SCORED or case.hidden else self.keeper.scrub(outcome.output)
        cpu = outcome.cpu_seconds
        entry = case_result(rubric, case, status, message, output=shown, fraction=fraction,
                            seconds=round(outcome.seconds, 4), time_limit=limit,
                            cpu_seconds=None if cpu is None else round(cpu, 2), ref=ref)
        if privacy is not None and status != Status.FORBIDDEN:
            entry.privacy, entry.privacy_ref = privacy.english(), privacy.to_json()
        return entry

    def _judge(self, case: Case, outcome, cwd: Path, limit: float
               ) -> tuple[Judgement, Message | None]:
        """Read what the call wrote (never following links), then judge it; with the output's
        privacy summary (k and l reached, no points) when it is a readable table, except on a
        hidden case of a part judged by rules (its feedback: the verdict, the broken rules'
        names, rows and columns only)."""
        ctx = self.ctx
        data = None
        produced = Produced(missing=True)
        if outcome.status == "returned" and not case.spec.returns_number:
            produced = read_produced(cwd / OUTPUT_FILE)
            data = case_data(ctx.rubric, case) if judged_on_kanon(case) else None
        facts = case_facts(ctx, case, limit, self.rows(case))
        verdict = judge(outcome, facts, produced, data, scrub=self.keeper.scrub,
                        hint=self.keeper.hint(outcome.error), code=self.code)
        privacy = None
        if (produced.data is not None and facts.expected.kind == "table" and judged_on_kanon(case)
                and (not facts.hidden or JUDGES[facts.judge].hidden_summary)):
            privacy = privacy_summary.summarize_message(
                produced.data, case_data(ctx.rubric, case),
                suppression=case.function == "samarati",
                distinct_l=privacy_summary.shows_l(p.function for p in ctx.rubric.parts))
        return verdict, privacy


def case_message(verdict: Judgement, leftover: int, forbidden: bool, plan: Plan
                 ) -> tuple[str, dict | None]:
    """A case's message: the verdict's, then the processes the call left running, or the
    refused access to the grader's files; after a shortened limit's note. With its first
    line as data (a kcheck.text Message's JSON, or a kcheck judge's verdict left unchanged)."""
    message = verdict.message
    said = (Message.from_json(verdict.ref) if verdict.ref and "id" in verdict.ref
            else None)  # the message's first line as data (kcheck.text)
    if leftover:
        left = (Message("your code left {n} processes running after the call returned; they "
                        "were killed", n=leftover) if leftover > 1 else
                Message("your code left {n} process running after the call returned; it was "
                        "killed", n=leftover))
        one_line = "\n" not in message
        message += f"{'; ' if message else ''}{left}"
        said = (said if not one_line or said is None else
                Message("{first}; {second}", first=said, second=left) if verdict.message
                else left)
    if forbidden:
        said = Message("tried to open the grader's own files; the access was refused, "
                       "recorded in the grade record, and this case earns no points")
        message = said.english()
    if plan.noted is not None:
        message = f"{plan.note}: {message}"
        said = None if said is None else Message("{note}: {message}", note=plan.noted,
                                                 message=said)
    ref = verdict.ref if message == verdict.message else None  # a kcheck judge's
    if said is not None and said.english() == message.partition("\n")[0]:
        ref = said.to_json()
    return message, ref


def case_facts(ctx, case: Case, limit: float, rows: int) -> CaseFacts:
    """What judging needs to know of a case: its expectation, credit, tolerance, limits,
    judge, its contract's return and where its data is."""
    settings = ctx.rubric.settings
    return CaseFacts(case.function, case.ints, case.hidden, ctx.expected[case.id],
                     ctx.rubric.part_of(case).partial_credit, settings.cost_tolerance,
                     limit, rows, ctx.limits.memory_mb, ctx.limits.file_size_mb,
                     ctx.limits.disk_mb, judge=case.judge,
                     returns_number=case.spec.returns_number,
                     inputs=data_folder(ctx.rubric.cases_dir, case.data),
                     qis=case.qis or (), schema=case.schema)


def callable_state(name: str, check: FunctionCheck, keeper: SessionKeeper,
                   expected: tuple[str, ...] | None = None
                   ) -> tuple[Status, str | Message, bool]:
    """Whether `name` can be called as the handout says (ok), or why not; and whether it is
    called by keyword (the handout's parameter names in another order)."""
    if check.state in ("not-attempted", "signature"):
        return Status(check.state), check.message, False
    if keeper.failure:
        return keeper.failure, import_problem(keeper, again=False), False
    info = keeper.functions.get(name, {})
    if not info.get("callable"):
        return (Status.MISSING, check.message or
                Message("`{name}` is not a function of your module.", name=name), False)
    params = info.get("params")
    params = None if params is None else [tuple(p) for p in params]
    if params is not None and check.state != "ok":
        state, message, _ = signature_check(name, params, expected)
        if state != "ok":
            return Status(state), message, False
    elif params is not None:
        problem = positional_problem(params, len(expected or SIGNATURES[name]))
        if problem:
            return (Status.SIGNATURE, Message("`{name}` cannot be called as the handout says: "
                                              "{problem}", name=name,
                                              problem=message_of(problem) or problem), False)
    return Status.OK, "", params is not None and keyword_order(params, name, expected)


def import_problem(keeper: SessionKeeper, again: bool) -> str | Message:
    """Why the file could not be imported (`again`: after a case ended its process): as data
    when the keeper has the import's problem as a message (kcheck.text), else as text."""
    problem, said = keeper.result.import_info["problem"], getattr(keeper, "problem", None)
    data = said is not None and said.english() == problem
    message = (Message("your file could not be imported again: {problem}",
                       problem=said if data else Verbatim(problem)) if again else
               Message("your file could not be imported: {problem}",
                       problem=said if data else Verbatim(problem)))
    return message if data else message.english()


def read_produced(output: Path) -> Produced:
    """An anonymizer's output file as found, read without following links."""
    if not output.exists() and not output.is_symlink():
        return Produced(missing=True)
    try:
        return Produced(compare.read_output(output))
    except (compare.NotARegularFile, OSError):
        return Produced(not_regular=True)


def case_data(rubric: Rubric, case: Case) -> compare.CaseData:
    """The raw side of a case: its dataset, the part's QIs and the course's schema."""
    return compare.load_case_data(data_folder(rubric.cases_dir, case.data), case.qis,
                                  case.schema)


def judged_on_kanon(case: Case) -> bool:
    """Whether the case's judge reads its dataset through the core (kanon): the exact and
    rules judges of the kit's functions; the others read the files themselves (kcheck)."""
    return case.spec.origin == "kit" and case.judge in ("exact", "rules")


def case_rows(rubric: Rubric, case: Case) -> int:
    """Data rows of the case's dataset (its CPU-time limit grows with them)."""
    if not judged_on_kanon(case):
        return count_rows(data_folder(rubric.cases_dir, case.data) / RAW_FILE)
    return len(case_data(rubric, case).table.rows)


@lru_cache(maxsize=64)
def count_rows(path: Path) -> int:
    """The data rows of a CSV file (its header not counted)."""
    with path.open(encoding="utf-8-sig", newline="") as f:
        return max(sum(1 for row in csv.reader(f) if row) - 1, 0)
