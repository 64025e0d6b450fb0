"""Grading: one submission and a batch of them, never running an algorithm (it stands on the
kit's core, kanon, and the stored expected outputs) and never writing a gradebook (finished
records leave through the `Reports` seam of `batch`; grader.gradebook writes them).

Intake and the solution: `intake` (find and unpack submissions safely), `solution` (choose
the file, by parsing), `static` (static checks), `manual_check` (a staff-graded part's file).
One submission: `grade` (unpack, check, run, total), `session_keeper` (its sandbox session:
import, retry, restart), `case_runner` (its cases, in order), `time_policy` (limits after a
timeout), `host` (one host's setup, the sandbox limits, grading one submission).
Judging: `judge` (pure: outcome -> status), `judges` (the judges as strategies behind one
interface: exact, rules, quality and number, the last two by kcheck), `hidden_view` (what a hidden case may show:
structured facts, never text), `compare` (one output against the contract), `rules_judge`
(an output against the course's rules, where several answers are right),
`expected` (stored outputs, manifest), `freshness` (are they current?), `term_view` (a
term's cases), `case_names` (a case's name as phrases, data), `privacy_summary` (k and l
reached, no points), `statuses` (the one list).
The record: `results` (grading's results, the record's JSON), `record` (the record as a type:
StudentRecord and CaseRecord, what the gradebook reads), `record_parts` (its nested parts
typed: import info, manual checks, counterexamples), `notes` (a note for the student as
text keeping its message, the record's notes as data), `manual_scores` (manual parts in
a record), `scores_text` (scores as people read them), `fingerprint` (the course term
graded against). Every sentence about a submission is a kcheck.text Message where it
arises, kept as data in the record beside its English; the gradebook renders it per
language.
The batch: `batch` (BatchSettings, the one settings object; Reports; Listeners), `runner`
(run_batch: resume cache, progress, interrupt), `executors/` (threads, or a Dask cluster).
Counterexamples: `shrink/` (small failing inputs from the public pool).

Imports only the core modules (grader.errors, paths, rubric, settings, contract), kanon,
kcheck and the sandbox: nothing of the gradebook, similarity, authoring, courses or publishing.
"""
__all__ = ["batch", "case_names", "case_runner", "compare", "executors", "expected",
           "fingerprint", "freshness", "grade", "hidden_view", "host", "intake", "judge", "judges",
           "manual_check", "manual_scores", "notes", "privacy_summary", "record", "record_parts",
           "results", "rules_judge", "runner", "scores_text", "session_keeper",
           "shrink", "solution", "static", "statuses", "term_view", "time_policy"]
