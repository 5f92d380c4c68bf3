"""Problems found in input files, addressed to people: file, line, column, found, expected, fix."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from generator.core.words import counted


@dataclass(frozen=True)
class Location:
    file: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def as_dict(self) -> dict[str, Any]:
        """The location's fields in JSON reports."""
        return {"file": self.file, "line": self.line, "column": self.column}


@dataclass(frozen=True)
class SheetLocation(Location):
    """A place in a spreadsheet (or CSV) file, said the way a spreadsheet user reads it:
    `cards.xlsx: sheet Heroes, cell D14 (column "health")`. `line` is the 1-based row and
    `column` the 1-based column number (0 when the place is a whole row or sheet), so problems
    sort in reading order; `cell` is the A1-style name, `header` the column's heading."""

    sheet: str | None = None
    cell: str | None = None
    header: str | None = None
    row_only: bool = False

    def __str__(self) -> str:
        parts = [f"sheet {self.sheet}"] if self.sheet else []
        if self.cell:
            parts.append(f"cell {self.cell}" + (f' (column "{self.header}")' if self.header else ""))
        elif self.row_only:
            parts.append(f"row {self.line}")
        return f"{self.file}: {', '.join(parts)}" if parts else self.file

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column, "sheet": self.sheet,
                "row": self.line if (self.cell or self.row_only) else None, "cell": self.cell,
                "header": self.header}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file. `code` is a stable id such as `yaml.syntax`."""

    code: str
    message: str
    location: Location
    found: str | None = None
    expected: str | None = None
    fix: str | None = None

    def __post_init__(self) -> None:  # "3 cards", never "card(s)" (core/words.py)
        for name in ("message", "expected", "fix"):
            value = getattr(self, name)
            if isinstance(value, str) and "(s)" in value:
                object.__setattr__(self, name, counted(value))

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            **self.location.as_dict(),
            "found": self.found,
            "expected": self.expected,
            "fix": self.fix,
        }


class InputError(Exception):
    """Raised when input cannot be read at all; carries every problem found, not only the first."""

    # the HTTP status of the web's answer, set by a layer that knows a better one than 422 (a 404,
    # a 409...); declared, not given: the web reads getattr(exc, "status", 422)
    status: int

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(
            problems, key=lambda p: (p.location.file, p.location.line, p.location.column, p.code)
        )
        super().__init__("\n".join(f"{p.location}: {p.message}" for p in self.problems))

    def __reduce__(self) -> tuple[type[InputError], tuple[list[Problem]]]:  # survive the trip back from a worker process
        return (InputError, (self.problems,))


def did_you_mean(word: str, candidates: Iterable[str], n: int = 1) -> str | None:
    """The closest candidate to `word`, for "did you mean" hints, or None."""
    words = sorted({str(c) for c in candidates})
    import difflib  # deferred: only a near miss needs it (start-up of every command)
    matches = difflib.get_close_matches(str(word), words, n=n, cutoff=0.6)
    return matches[0] if matches else None


def hint(word: str, candidates: Iterable[str]) -> str | None:
    guess = did_you_mean(word, candidates)
    return f"did you mean `{guess}`?" if guess else None


def short_list(items: Iterable[object], limit: int = 8) -> str:
    words = [str(i) for i in items]
    if len(words) <= limit:
        return ", ".join(words)
    return ", ".join(words[:limit]) + f", … ({len(words) - limit} more)"


@dataclass
class ProblemList:
    """Collects problems while loading so every one is reported together."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def raise_if_any(self) -> None:
        if self.problems:
            raise InputError(self.problems)


class WorkerDied(RuntimeError):
    """A worker process ended without an answer (killed by a signal, or out of memory). Raised by
    core.workers; defined here, with the other errors the CLI turns into one line, so that
    catching it does not load multiprocessing for every command."""

