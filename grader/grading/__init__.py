"""Grading a class: intake, choosing and checking the solution, running it in the sandbox,
judging each case, recording and exporting the results. Never runs the staff solution: it
stands on the kit's core (kanon) and the stored expected outputs."""
