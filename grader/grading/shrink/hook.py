"""What the case runner calls once every case has run: for each part with a wrong or partial
case (a wrong number for the functions that return one), search the pool for a counterexample
in the submission's session and keep it, JSON-ready, for the record (`record["counterexamples"]`,
by part). The search spends at most the rubric's `counterexample_calls` calls and
`counterexample_cpu` seconds of CPU per part, and never changes a grade. A part judged by
rules searches its course's own pool, judging each output by the rules (rules_search.py)."""
from __future__ import annotations

import time

from kcheck.pool import Member, load_chains
from kcheck.search import Budget, Found, search

from ...contract import is_cost
from ..statuses import Status
from .pool import pool_folder
from .probe import FailedCall, SandboxProbe
from .rules_search import RulesProbe, rules_folder, search_rules

FAILING = (Status.WRONG, Status.PARTIAL)


def failing_parts(rubric, results) -> dict[str, list]:
    """Part key -> its failing case results, for the parts that deserve a counterexample."""
    parts: dict[str, list] = {}
    for result in results:
        if result is None:
            continue
        wanted = (Status.WRONG,) if is_cost(result.function) else FAILING
        if result.status in wanted:
            parts.setdefault(result.part, []).append(result)
    return parts


def entry(member: Member, found: Found | None, budget: Budget, failing: list) -> dict:
    """The record's counterexample of one part (JSON-ready; everything grader/gradebook/counterexample.py needs)."""
    first = failing[0]
    data = {"calls": budget.used_calls, "cpu_seconds": round(budget.used_seconds, 2),
            "case": first.name, "case_id": first.id, "hidden": first.hidden, "status": str(first.status),
            "found": found is not None}
    if found is None:
        data["stopped"] = budget.stopped
        return data
    source = member.source
    data.update({
        "source": source.label, "rows": list(member.rows), "header": member.header,
        "qis": list(member.qis), "raw": member.table(), "ints": dict(member.ints),
        "dghs": {q: source.dghs[q] for q in member.qis}, "expected": member.expected,
        "yours": found.answer.yours, "problem": found.answer.problem})
    if isinstance(found.answer, FailedCall) and found.answer.said is not None:
        data["problem_ref"] = found.answer.said.to_json()  # why the call failed, as data
    if source.anonymized is not None:
        data["anonymized_source"] = source.anonymized_label
        data["anonymized"] = member.table(anonymized=True)
    return data


def find_counterexamples(runner, results) -> dict[str, dict]:
    """Part key -> its counterexample entry, for every part with a failing case."""
    rubric = runner.ctx.rubric
    settings = rubric.settings
    if settings.counterexample_calls <= 0:
        return {}
    started = time.monotonic()
    found_by_part: dict[str, dict] = {}
    for key, failing in failing_parts(rubric, results).items():
        part = next(p for p in rubric.parts if p.key == key)
        if part.judge == "rules":
            found_by_part[key] = _by_rules(runner, part, failing)
            continue
        if not rubric.schema.is_default:
            continue  # the pool's answers follow the default contract, not this course's
        function = failing[0].function
        chains = load_chains(pool_folder(rubric.cases_dir), function, part.variant)
        preferred = {"adult-hw1.csv" for f in failing if f.id in _adult_cases(rubric)}
        budget = Budget(settings.counterexample_calls, settings.counterexample_cpu)
        limit = min(runner.limit(c) for c in part.cases)
        found = search(chains, SandboxProbe(runner, function, budget, limit), preferred)
        found_by_part[key] = entry(found.member if found else None, found, budget, failing)
    runner.result.timing["counterexamples"] = round(time.monotonic() - started, 4)
    return found_by_part


def _by_rules(runner, part, failing: list) -> dict:
    """The counterexample entry of a rule-judged part (rules_search.py), from the course's
    own pool: the member's rules broken, its input, the student's output and one right
    answer."""
    settings = runner.ctx.rubric.settings
    schema = part.cases[0].schema
    chains = load_chains(rules_folder(runner.ctx.rubric.cases_dir), part.key, None)
    budget = Budget(settings.counterexample_calls, settings.counterexample_cpu)
    limit = min(runner.limit(c) for c in part.cases)
    probe = RulesProbe(runner, part.function, budget, limit, schema)
    found = search_rules(chains, probe)
    data = entry(found.member if found else None, found, budget, failing)
    data["judge"] = "rules"
    if found is not None:
        broken = found.answer.broken  # (rule, its detail as a kcheck.text Message)
        data.update({"hierarchy_format": schema.hierarchy_format,
                     "broken": [[rule, detail.english()] for rule, detail in broken],
                     "broken_said": [detail.to_json() for _, detail in broken]})
    return data


def _adult_cases(rubric) -> set[str]:
    """Ids of the cases on the public adult-hw1.csv."""
    return {c.id for c in rubric.cases() if not c.hidden and c.data.endswith("adult")}
