"""Run a pack's rules over a build and collect every violation plus a points breakdown."""

from __future__ import annotations

from generator.core.report import Report, Violation
from generator.pack.model import Build, Character, Pack
from generator.rules import checks
from generator.rules.context import Context, points_of, resolve_build


def validate_build(pack: Pack, build: Build, points_override: int | None = None) -> Report:
    spec = pack.spec
    default_limit = pack.limit_value(spec.default_points_limit)
    limit = points_override if points_override is not None else (
        build.points_limit if build.points_limit is not None else default_limit)
    violations: list[Violation] = []
    placed = resolve_build(pack, build, violations)
    ctx = Context(pack, build, limit, placed)
    violations.extend(checks.structure(ctx))
    for rule in spec.rules:
        if rule.check not in checks.CHECKS or (rule.side is not None and rule.side != build.side):
            continue  # pack-level rules run in pack_checks
        violations.extend(checks.CHECKS[rule.check](ctx, rule))
    report = Report(file=build.file, kind="build", name=build.name, side=build.side,
                    violations=violations, points=points_of(ctx))
    report.stats = {c.name: _stat_summary(ctx, c) for c in build.characters}
    return report


def _stat_summary(ctx: Context, character: Character) -> dict:
    summary = dict(ctx.full_stats(character))
    bases = ctx.of(character, "base")
    for name in ("slots", "feat_cost"):
        values = [p.card.fields.get(name) for p in bases if isinstance(p.card.fields.get(name), int)]
        if values:
            summary[name] = sum(values)
    hexes = set()
    for p in bases:
        for q, r in p.card.fields.get("size") or []:
            hexes.add((q, r))
    if any("size" in p.card.fields for p in bases):
        summary["size"] = max(1, len(hexes))
    return summary
