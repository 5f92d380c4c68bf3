"""Problems found in input files, addressed to people: file, line, column, found, expected, fix."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Location:
    file: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file. `code` is a stable id such as `yaml.syntax`."""

    code: str
    message: str
    location: Location
    found: str | None = None
    expected: str | None = None
    fix: str | None = None

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "message": self.message,
            "file": self.location.file,
            "line": self.location.line,
            "column": self.location.column,
            "found": self.found,
            "expected": self.expected,
            "fix": self.fix,
        }


class InputError(Exception):
    """Raised when input cannot be read at all; carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(
            problems, key=lambda p: (p.location.file, p.location.line, p.location.column, p.code)
        )
        super().__init__("\n".join(f"{p.location}: {p.message}" for p in self.problems))

    def __reduce__(self):  # survive the trip back from a worker process
        return (InputError, (self.problems,))


def did_you_mean(word: str, candidates, n: int = 1) -> str | None:
    """The closest candidate to `word`, for "did you mean" hints, or None."""
    words = sorted({str(c) for c in candidates})
    matches = difflib.get_close_matches(str(word), words, n=n, cutoff=0.6)
    return matches[0] if matches else None


def hint(word: str, candidates) -> str | None:
    guess = did_you_mean(word, candidates)
    return f"did you mean `{guess}`?" if guess else None


def short_list(items, limit: int = 8) -> str:
    items = [str(i) for i in items]
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f", … ({len(items) - limit} more)"


@dataclass
class ProblemList:
    """Collects problems while loading so every one is reported together."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def raise_if_any(self) -> None:
        if self.problems:
            raise InputError(self.problems)
