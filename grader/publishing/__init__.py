"""Publishing: the students' bundle and the Gradescope autograder zip, checked so that
nothing secret (reference code, hidden cases) reaches students."""
