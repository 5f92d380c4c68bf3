"""Which numbers a build's pages show (the builder's editor, the roster sheet), read from the
pack: points only when the side's builds can cost any (a limit, or a card of its sets with
points), and per character only the statistics its cards can carry, plus the pack's `totals:`
under their field labels. A co-operative game without points then shows no empty points bar
and no rows of zeros."""

from __future__ import annotations

from generator.pack.model import Pack, SideSpec


def pack_in_points(pack: Pack) -> bool:
    """The game prices its cards: a points limit, or a card worth points."""
    return bool(pack.spec.points_limits) or any(c.points for c in pack.cards.values())


def deals_in_points(pack: Pack, side: SideSpec) -> bool:
    return bool(pack.spec.points_limits) or any(c.points for c in pack.cards.values() if c.set in side.sets)


def stat_labels(pack: Pack, side: SideSpec) -> dict[str, str]:
    """Statistic key -> label, for the statistics a character of this side can have: every
    statistic when a card type of its base, equipment or abilities has a `stats` field (a stat
    block, or bonuses), else those named by a whole-number field; then the pack's `totals:`."""
    stats = pack.spec.stats
    types = [side.base.type] + ([side.equipment.type] if side.equipment else []) + (
        list(side.abilities.types) if side.abilities else [])
    fields = {name: f for t in types if t in pack.spec.card_types
              for name, f in pack.spec.card_types[t].fields.items()}
    if any(f.type == "stats" for f in fields.values()):
        out = {k: s.name for k, s in stats.items()}
    else:
        out = {k: s.name for k, s in stats.items() if k in fields and fields[k].type == "int"}
    for name in pack.spec.totals:
        if name not in out:
            f = fields.get(name)
            out[name] = (f.label if f is not None and f.label else name.replace("_", " ").capitalize())
    return out
