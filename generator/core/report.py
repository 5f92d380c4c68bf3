"""What validation returns: violations and a points breakdown, as plain values and JSON."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.errors import Location

SCHEMA_ID = "pnp.validation/1"


@dataclass(frozen=True)
class Contributor:
    id: str
    name: str
    points: int
    count: int = 1

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "points": self.points, "count": self.count}


@dataclass(frozen=True)
class Violation:
    rule: str
    severity: str  # "error" | "warning"
    message: str
    location: Location
    path: str = ""
    observed: object = None
    expected: object = None
    contributors: tuple[Contributor, ...] = ()
    fix: str | None = None

    def as_dict(self) -> dict:
        return {
            "rule": self.rule, "severity": self.severity, "message": self.message,
            "file": self.location.file, "line": self.location.line, "column": self.location.column,
            "path": self.path, "observed": self.observed, "expected": self.expected,
            "contributors": [c.as_dict() for c in self.contributors], "fix": self.fix,
        }

    def sort_key(self):
        return (self.location.file, self.location.line, self.location.column, self.rule, self.message)


@dataclass(frozen=True)
class PointsLine:
    character: str
    id: str
    name: str
    kind: str
    count: int
    points: int

    @property
    def total(self) -> int:
        return self.count * self.points


@dataclass
class Points:
    lines: list[PointsLine] = field(default_factory=list)
    limit: int | None = None

    @property
    def total(self) -> int:
        return sum(line.total for line in self.lines)

    def by_character(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for line in self.lines:
            out[line.character] = out.get(line.character, 0) + line.total
        return out

    @property
    def left(self) -> int | None:
        return None if self.limit is None else self.limit - self.total

    def as_dict(self) -> dict:
        return {
            "total": self.total, "limit": self.limit, "left": self.left,
            "characters": self.by_character(),
            "cards": [{"character": l.character, "id": l.id, "name": l.name, "type": l.kind,
                       "count": l.count, "points": l.points, "total": l.total} for l in self.lines],
        }


@dataclass
class Report:
    """The result of validating one target (a build, a map, or a pack's own data)."""

    file: str
    kind: str  # "build" | "map" | "pack"
    name: str
    side: str | None = None
    violations: list[Violation] = field(default_factory=list)
    points: Points | None = None
    stats: dict = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        return not any(v.severity == "error" for v in self.violations)

    def sorted_violations(self) -> list[Violation]:
        return sorted(self.violations, key=Violation.sort_key)

    def as_dict(self) -> dict:
        return {
            "file": self.file, "kind": self.kind, "name": self.name, "side": self.side,
            "legal": self.legal,
            "points": self.points.as_dict() if self.points else None,
            "stats": self.stats,
            "violations": [v.as_dict() for v in self.sorted_violations()],
        }


def reports_document(reports: list[Report], problems=()) -> dict:
    return {
        "schema": SCHEMA_ID,
        "legal": all(r.legal for r in reports) and not problems,
        "results": [r.as_dict() for r in reports],
        "errors": [p.as_dict() for p in problems],
    }
