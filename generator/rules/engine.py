"""Run a pack's rules over a build and collect every violation plus a points breakdown."""

from __future__ import annotations

from generator.core.report import Report, Violation, character_key
from generator.pack.model import Build, Character, Pack, RuleSpec
from generator.rules import checks
from generator.rules.context import Context, points_of, resolve_build
from generator.rules.limits import limit_in_force


def validate_build(pack: Pack, build: Build, points_override: int | str | None = None,
                   max_characters: int | None = None) -> Report:
    """`points_override`: --points (a number or `none`); `max_characters`: --max-characters."""
    ctx, violations = _checked(pack, build, points_override, max_characters)
    report = Report(file=build.file, kind="build", name=build.name, side=build.side,
                    violations=violations, points=points_of(ctx))
    # keyed by position, never by name: two characters may share a name (a duplicate hero)
    report.stats = {character_key(i): {"name": c.name, **_stat_summary(ctx, c)}
                    for i, c in enumerate(build.characters)}
    return report


def rule_violations(pack: Pack, build: Build, rule_id: str) -> list[Violation]:
    """The violations of one rule only, found as validate_build finds them (the build resolved
    and counted the same way) but with no other rule run and no report made: the editor checks
    each fix it offers against the rule the fix is for, several times a click."""
    _ctx, violations = _checked(pack, build, None, None, only=rule_id)
    return [v for v in violations if v.rule == rule_id]


def rule_spec(pack: Pack, rule_id: str) -> RuleSpec | None:
    """The pack's rule with this id (a RuleSpec), or None: what the editor asks of a rule it
    offers a fix for (the kinds rules.checks names: ONE_CHARACTER, COUNTS_COPIES, ...)."""
    return next((rule for rule in pack.spec.rules if rule.id == rule_id), None)


def _checked(pack: Pack, build: Build, points_override: int | str | None, max_characters: int | None,
             only: str | None = None) -> tuple[Context, list[Violation]]:
    """The build's context and its violations: of every rule, or of the pack rule `only` (the
    resolving and structure checks, which are cheap, always run)."""
    spec = pack.spec
    limit = limit_in_force(pack, build, points_override)
    violations: list[Violation] = []
    placed = resolve_build(pack, build, violations)
    ctx = Context(pack, build, limit.value, placed, limit.source,
                  max_characters if max_characters is not None else build.max_characters)
    violations.extend(checks.structure(ctx))
    for rule in spec.rules:
        if rule.check not in checks.CHECKS or (rule.side is not None and rule.side != build.side):
            continue  # pack-level rules run in pack_checks
        if only is None or rule.id == only:
            violations.extend(checks.CHECKS[rule.check](ctx, rule))
    return ctx, violations


def _stat_summary(ctx: Context, character: Character) -> dict[str, int]:
    """The character's statistics, plus the totals game.yaml's `totals:` names over its base
    cards: a whole-number field is summed, a `hexes` field counts distinct hexes (at least one)."""
    summary = dict(ctx.full_stats(character))
    bases = [p for p in ctx.of(character, "base") if p.fits]  # a misplaced card adds nothing
    card_types = ctx.pack.spec.card_types
    for name in ctx.pack.spec.totals:
        if any(getattr(card_types[p.card.type].fields.get(name), "type", None) == "hexes" for p in bases):
            summary[name] = max(1, len({tuple(cell) for p in bases for cell in p.card.fields.get(name) or []}))
            continue
        values = [value for p in bases if isinstance(value := p.card.fields.get(name), int)]
        if values:
            summary[name] = sum(values)
    return summary
