"""The grader's one exception type for mistakes a TA can fix (bad rubric, missing folder, ...).

The command line prints these as one-line messages, never as tracebacks.
"""


class UserError(Exception):
    """A problem with the grader's inputs or settings; the message says what and where."""
