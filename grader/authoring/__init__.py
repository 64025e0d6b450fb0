"""Authoring cases: the hidden datasets (casegen), the expected outputs made by running the
staff solution (regen, the only place the grader does), and the students' course file."""
