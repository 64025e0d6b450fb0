"""A graded function's contract: its name, its parameters in order with their kinds, and what
it returns (a file it writes, or a number).

Every call runs in a folder holding the case's dataset as `adult-hw1.csv`, its hierarchies as
`DGHs/` and, for a function that reads an anonymized table, that table as `anonymized.csv`;
an anonymizer writes `output.csv`. File parameters are passed those names; the others (an
integer with optional bounds, or one of a few strings) come from the rubric's case.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Param", "FunctionContract", "FILE_KINDS", "VALUE_KINDS", "KINDS", "RETURNS",
           "FILE_NAMES"]

FILE_NAMES = {"raw": "adult-hw1.csv", "dghs": "DGHs", "anonymized": "anonymized.csv",
              "output": "output.csv"}
"""A file parameter's kind -> the name the call receives (relative to its folder)."""
FILE_KINDS = tuple(FILE_NAMES)
VALUE_KINDS = ("int", "choice")
KINDS = FILE_KINDS + VALUE_KINDS
RETURNS = ("file", "number")
"""file: the function writes its `output` parameter's file; number: it returns a number."""


@dataclass(frozen=True)
class Param:
    """One parameter: its name (the handout's), its kind (KINDS), an integer's bounds, a
    choice's allowed strings."""

    name: str
    kind: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def is_file(self) -> bool:
        return self.kind in FILE_KINDS


@dataclass(frozen=True)
class FunctionContract:
    """What a graded function is called with and gives back. `origin` is "kit" for the kit's
    library, "course" for a function a course declares (grader.parts.declared); a course's
    declaration also names its `reference` ("path/in/course.py:callable") and the keyword
    argument that seeds it (`seed_param`, for a judge that measures the reference's spread)."""

    name: str
    params: tuple[Param, ...]
    returns: str  # RETURNS
    origin: str = "kit"
    reference: str = ""  # a course's: "file.py:callable", relative to its course folder
    seed_param: str = ""  # a course's randomized reference: its seeding keyword

    @property
    def names(self) -> tuple[str, ...]:
        """The parameters' names, in order (the signature students write)."""
        return tuple(p.name for p in self.params)

    @property
    def value_params(self) -> tuple[str, ...]:
        """The parameters a rubric case gives (integers and choices), in order."""
        return tuple(p.name for p in self.params if not p.is_file)

    @property
    def returns_number(self) -> bool:
        return self.returns == "number"

    @property
    def reads_anonymized(self) -> bool:
        return any(p.kind == "anonymized" for p in self.params)

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def call_args(self, values: dict[str, object]) -> list[object]:
        """The positional arguments of one call: file names for file parameters, the case's
        values for the others."""
        return [FILE_NAMES[p.kind] if p.is_file else values[p.name] for p in self.params]
