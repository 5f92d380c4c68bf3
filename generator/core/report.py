"""What validation returns: violations and a points breakdown, as plain values and JSON."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.core.words import counted

if TYPE_CHECKING:
    from generator.core.errors import Location, Problem


# /2: characters are keyed by their position in the build (`characters[0]`), never by name,
# and a build without a points limit has no `left` (docs/validation.md, "Changes from /1")
SCHEMA_ID = "pnp.validation/2"

# The exit codes of a verdict, the same for `pnp validate` and `pnp build` (verdict_code)
EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


def character_key(index: int) -> str:
    """How reports name a character: its place in the build, as in a violation's `path`."""
    return f"characters[{index}]"


@dataclass(frozen=True)
class Contributor:
    id: str
    name: str
    points: int
    count: int = 1

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "points": self.points, "count": self.count}


@dataclass(frozen=True)
class Violation:
    rule: str
    severity: str  # "error" | "warning" | "info" (a fact worth telling: the pack's cards without art)
    message: str
    location: Location
    path: str = ""
    observed: object = None
    expected: object = None
    contributors: tuple[Contributor, ...] = ()
    fix: str | None = None

    def __post_init__(self) -> None:  # "3 cards", never "card(s)", whoever wrote the message (core/words.py)
        if "(s)" in self.message:
            object.__setattr__(self, "message", counted(self.message))
        if self.fix and "(s)" in self.fix:
            object.__setattr__(self, "fix", counted(self.fix))

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule, "severity": self.severity, "message": self.message,
            **self.location.as_dict(), "path": self.path, "observed": self.observed, "expected": self.expected,
            "contributors": [c.as_dict() for c in self.contributors], "fix": self.fix,
        }

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.location.file, self.location.line, self.location.column, self.rule, self.message)


@dataclass(frozen=True)
class PointsLine:
    character: str  # the character's name (two characters may share one)
    id: str
    name: str
    kind: str
    count: int
    points: int
    index: int = 0  # the character's position in the build: what tells two characters apart

    @property
    def total(self) -> int:
        return self.count * self.points


@dataclass
class Points:
    lines: list[PointsLine] = field(default_factory=list)
    limit: int | None = None  # None: no limit
    limit_source: str | None = None  # `command line`, `build`, `pack default` (generator.rules.limits)
    names: list[str] = field(default_factory=list)  # every character's name, by position

    @property
    def total(self) -> int:
        return sum(line.total for line in self.lines)

    def by_character(self) -> dict[int, int]:
        """Points per character position (every character, 0 when it costs nothing)."""
        out: dict[int, int] = {i: 0 for i in range(len(self.names))}
        for line in self.lines:
            out[line.index] = out.get(line.index, 0) + line.total
        return out

    def name_of(self, index: int) -> str:
        return self.names[index] if index < len(self.names) else character_key(index)

    @property
    def left(self) -> int | None:
        return None if self.limit is None else self.limit - self.total

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"total": self.total, "limit": self.limit, "limit_source": self.limit_source}
        if self.limit is not None:  # no limit, nothing left to count down
            out["left"] = self.left
        out["characters"] = {character_key(i): {"name": self.name_of(i), "points": total}
                             for i, total in self.by_character().items()}
        out["cards"] = [{"character": ln.character, "character_path": character_key(ln.index), "id": ln.id,
                         "name": ln.name, "type": ln.kind, "count": ln.count, "points": ln.points,
                         "total": ln.total} for ln in self.lines]
        return out


@dataclass
class Report:
    """The result of validating one target (a build, a map, or a pack's own data)."""

    file: str
    kind: str  # "build" | "map" | "pack"
    name: str
    side: str | None = None
    violations: list[Violation] = field(default_factory=list)
    points: Points | None = None
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        return not any(v.severity == "error" for v in self.violations)

    def sorted_violations(self) -> list[Violation]:
        return sorted(self.violations, key=Violation.sort_key)

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file, "kind": self.kind, "name": self.name, "side": self.side,
            "legal": self.legal,
            "points": self.points.as_dict() if self.points else None,
            "stats": self.stats,
            "violations": [v.as_dict() for v in self.sorted_violations()],
        }


def reports_document(reports: list[Report], problems: Iterable[Problem] = ()) -> dict[str, Any]:
    return {
        "schema": SCHEMA_ID,
        "legal": all(r.legal for r in reports) and not problems,
        "results": [r.as_dict() for r in reports],
        "errors": [p.as_dict() for p in problems],
    }


def verdict_code(reports: list[Report], problems: Iterable[Problem] = ()) -> int:
    """The one exit code of a verdict: 2 when some input could not be read or would not print
    (problems), 1 when a report has an error-level violation, else 0 (warnings allowed).
    `pnp validate` ends with it, and `pnp build` refuses with it (build.py)."""
    if problems:
        return EXIT_INPUT
    return EXIT_OK if all(r.legal for r in reports) else EXIT_RULES
