"""The session policy of one submission: start the child that imports the student's file,
retry the import one top-level statement at a time when the whole file fails, restart the
child after a case ended it (with the same statements left out), and say in words what went
wrong. The child itself is grader.sandbox's Session."""
from __future__ import annotations

from pathlib import Path

from kcheck.text import Joined, Message, Verbatim

from ..contract import SIGNATURES, graded_functions
from .expected import copy_inputs
from .notes import Note
from .results import SubmissionResult
from ..sandbox import ImportOutcome, Session, wall_backstop
from ..sandbox.packages import refusal_of
from .solution import Solution
from .statuses import Status, import_status

RETRY_NOTE_ITEMS = 12  # left-out statements listed in the note; the rest are counted


class SessionKeeper:
    """Owns the submission's child process and its import mode ("full" or "retry")."""

    def __init__(self, ctx, scratch: Path, solution: Solution, root: Path,
                 result: SubmissionResult, max_call: float, scrub):
        self.ctx, self.scratch, self.result, self.scrub = ctx, scratch, result, scrub
        sub_dir = scratch / "sub"
        self.file = sub_dir / solution.file.relative_to(root)
        self.paths = [sub_dir / p.relative_to(root) for p in solution.import_paths]
        self.module = solution.module
        self.import_cwd = scratch / "import"
        self.max_call = max_call
        self.session: Session | None = None
        self.mode = "full"
        self.failure: Status | None = None  # import-* status when no mode worked
        self.functions: dict = {}  # what the child found: name -> callable, params
        self.unavailable: dict[str, str] = {}  # name bound by a dropped import -> why
        self.known: dict[int, str] = {}  # first line -> why the first retry left it out
        self.problem: Message | None = None  # why the import failed (import_info's problem)

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None

    def _start(self, mode: str) -> ImportOutcome:
        self.close()
        ctx = self.ctx
        self.session = Session(self.scratch, ctx.limits, bwrap_hidden=ctx.bwrap_hidden,
                               cancel=ctx.cancel, deny=ctx.deny, run_as=ctx.run_as,
                               landlock=ctx.landlock)
        outcome = self.session.start(
            file=self.file, module=self.module, paths=self.paths, import_cwd=self.import_cwd,
            functions=graded_functions([c.function for c in ctx.rubric.cases()])
            + [f for f in ctx.rubric.functions if f not in SIGNATURES], mode=mode,
            import_limit=ctx.rubric.settings.import_time_limit, max_call_seconds=self.max_call,
            allowed=list(ctx.rubric.settings.allowed_packages),
            known=self.known if mode == "retry" else None)
        if outcome.error.get("grader_error"):  # e.g. no confinement: never a student's verdict
            raise RuntimeError(outcome.error["grader_error"])  # a grader-error record
        return outcome

    def first_import(self) -> None:
        """Import in a folder holding the first public case's data (so experiments at import
        time find adult-hw1.csv and DGHs/), never a hidden case's; retry statement by
        statement when that fails."""
        result, rubric = self.result, self.ctx.rubric
        self.import_cwd.mkdir()
        public = [c for c in rubric.cases() if not c.hidden]
        if public:
            copy_inputs(public[0], rubric.cases_dir, self.import_cwd)
        outcome = self._start("full")
        result.timing["import"] = outcome.seconds
        info = {"status": outcome.status, "mode": "full", "output": self.scrub(outcome.output)}
        if outcome.layers:  # what the child's confinement applied (--sandbox landlock)
            info["sandbox_layers"] = outcome.layers
        forbidden = list(outcome.forbidden)
        if outcome.status != "ok":
            self.problem = self.describe(outcome)
            info["problem"] = self.problem.english()
            fallback = self._start("retry")
            forbidden += fallback.forbidden
            info["retried"] = True
            if fallback.status == "ok":
                self.mode = info["mode"] = "retry"
                info["dropped"] = [_scrubbed(d, self.scrub) for d in fallback.dropped]
                self.known = {d["lines"][0]: d["reason"] for d in fallback.dropped}
                result.notes.append(retry_note(info, self.problem,
                                               self.ctx.rubric.settings.allowed_packages))
                self._remember_unavailable(info["dropped"])
                outcome = fallback
            else:
                retry_problem = self.describe(fallback)
                info["retry_problem"] = retry_problem.english()
                self.failure = import_status(outcome.status)
                result.notes.append(failed_twice(self.problem, retry_problem))
        if forbidden:
            result.forbid(forbidden, Message("while your file was imported"))
        if outcome.output_dropped:
            result.notes.append(Note(Message(
                "Your file printed {n} bytes more than the grader keeps while it was imported.",
                n=outcome.output_dropped)))
            result.capped = True
        result.import_info = info
        self.functions = outcome.functions

    def ensure(self) -> bool:
        """A live session, restarted (in the same mode) when a case ended the last one."""
        if self.session is not None and self.session.alive():
            return True
        outcome = self._start(self.mode)
        if outcome.status != "ok":
            self.failure = import_status(outcome.status)
            self.problem = self.describe(outcome)
            self.result.notes.append(Note(Message("Your file could not be imported again "
                                                  "after a case ended its process: {problem}.",
                                                  problem=self.problem)))
            if self.result.import_info is None:
                self.result.import_info = {}
            self.result.import_info["problem"] = self.problem.english()
            return False
        return True

    def _remember_unavailable(self, dropped: list[dict]) -> None:
        """The names that dropped imports would have bound (for NameError hints)."""
        allowed = list(self.ctx.rubric.settings.allowed_packages)
        self.unavailable.update({name: hint_message(d, allowed) for d in dropped
                                 for name in d.get("binds", [])})

    def describe(self, outcome: ImportOutcome) -> Message:  # why the import failed
        s = self.ctx.rubric.settings
        return describe_import_message(outcome, s.import_time_limit, self.scrub, s.allowed_packages)

    def hint(self, error: dict) -> Message | None:
        """For a NameError on a name a dropped import would have bound: which line and why
        (`hint_message`), else None."""
        if error.get("type") != "NameError":
            return None
        return next((why for name, why in self.unavailable.items()
                     if f"'{name}'" in error.get("message", "")), None)


def hint_message(dropped: dict, allowed: list[str]) -> Message:
    """A NameError's hint: the left-out statement's line, code and reason, its `message`
    field (the student's exception message) left for the judge to fill."""
    return Message("{message} (line {n}, `{code}`, was left out: {reason})", message="",
                   n=dropped["lines"][0], code=Verbatim(dropped["code"]),
                   reason=_reason(dropped, allowed))


def retry_note(info: dict, problem: Message | None = None, allowed=()) -> Note:
    """What a successful retry left out, for the student (`problem`: why the full import
    failed, as data; else its English in `info`; `allowed`: the course's packages)."""
    shown = [d for d in info["dropped"] if not d["reason"].startswith("the `if __name__")]
    items: list[Message] = []
    for d in shown[:RETRY_NOTE_ITEMS]:
        first, last = d["lines"]
        reason = _reason(d, list(allowed))
        items.append(Message("line {n} (`{code}`: {reason})", n=first,
                             code=Verbatim(d["code"]), reason=reason) if first == last else
                     Message("lines {span} (`{code}`: {reason})", span=f"{first}-{last}",
                             code=Verbatim(d["code"]), reason=reason))
    if len(shown) > RETRY_NOTE_ITEMS:
        items.append(Message("and {n} more", n=len(shown) - RETRY_NOTE_ITEMS))
    return Note(Message(
        "Importing your file failed ({problem}). It was imported again one top-level "
        "statement at a time and graded that way, leaving out: {left_out}. Keep command-line "
        "code and experiments under `if __name__ == \"__main__\":`.",
        problem=problem if problem is not None and problem.english() == info["problem"]
        else Verbatim(info["problem"]),
        left_out=Joined(items, "; ") if items else Message("nothing")))


def _reason(dropped: dict, allowed: list[str]) -> Message | Verbatim:
    """Why the retry left a statement out: the sandbox's message (its data, `said`; an
    import the course refuses: the sandbox's refusal as the grader's words) when it reads as
    the reason kept, else the reason's text as it is."""
    said = dropped.get("said")
    if said:
        message = Message.from_json(said)
        if message.id == "it raised {kind}: {message}":
            refusal = refusal_of(str(message.params["message"]), allowed)
            if refusal is not None:
                message = Message(message.id, message.params, message=refusal)
        if message.english() == dropped["reason"]:
            return message
    return Verbatim(dropped["reason"])


def failed_twice(problem: Message, retry: Message) -> Note:
    """The note of an import that failed whole and one statement at a time."""
    return Note(Message("Importing your file failed ({problem}). The grader imported it again "
                        "one top-level statement at a time, and that failed too: {retry}.",
                        problem=problem, retry=retry))


def _scrubbed(data, scrub):
    """A left-out statement with `scrub` applied to the student's text the sandbox reported:
    its reason and its message's verbatim values."""
    if isinstance(data, dict):
        return {k: scrub(v) if k in ("reason", "verbatim") and isinstance(v, str)
                else _scrubbed(v, scrub) for k, v in data.items()}
    if isinstance(data, list):
        return [_scrubbed(v, scrub) for v in data]
    return data


def describe_import(outcome: ImportOutcome, limit: float, scrub=str) -> str:
    """Why an import failed, in words (`limit`: the import's CPU-time limit)."""
    return describe_import_message(outcome, limit, scrub).english()


def describe_import_message(outcome: ImportOutcome, limit: float, scrub=str,
                            allowed=None) -> Message:
    """`describe_import` as a message (kcheck.text); the sandbox's refusal of a package
    `allowed` does not hold is the grader's sentence, not the student's text."""
    error = outcome.error
    if outcome.status == "timeout" and error.get("wall"):
        return Message("it did not finish within the import's wall-clock backstop of {wall} s "
                       "(it waited rather than computed)", wall=f"{wall_backstop(limit):g}")
    if outcome.status == "timeout":
        return Message("it used more than the import's CPU-time limit of {limit} s",
                       limit=f"{limit:g}")
    if outcome.status == "exit":
        return Message("it called sys.exit / exit (code {code}) while importing",
                       code=Verbatim(str(error.get("code", "?"))))
    if outcome.status == "crash":
        return Message("the process died while importing ({signal})",
                       signal=str(error.get("signal", "?")))
    if outcome.status == "memory":
        return Message("it ran out of memory while importing")
    # an exception's type and message: the student's, as "{note}: {message}" has them
    message = scrub(error.get("message", ""))
    refusal = None if allowed is None or error.get("type") != "ModuleNotFoundError" \
        else refusal_of(message, list(allowed))
    return Message("{note}: {message}", note=Verbatim(str(error.get("type", "an exception"))),
                   message=Verbatim(message) if refusal is None else refusal)
