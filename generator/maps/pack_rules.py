"""Map rules a pack declares in game.yaml `rules:`: what its own maps must hold for its game to
be played on them, checked on every map of the pack (and on any map `pnp validate` is given).

- `regions_cover`  on a map that has regions, every hex lies in one of them (Battle Bosses'
                   arena: a boss's reach is its own fog-of-war region and the ones next to it,
                   so a space in no region is out of every rule)
- `zone_beside`    on a map that has the terrain `terrain`, every hex of the start zone `zone`
                   touches a hex of that terrain (the arena's spawn spaces border their base);
                   where regions name a `team`, the terrain hex is in a region of the start
                   hex's own team

A map without regions, or without the terrain, is not the kind of map the rule speaks of (a
duel tile has neither), so it passes. Each finding is at the YAML line to change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from generator.core.report import Violation
from generator.grids import hexgrid
from generator.pack import rule_names
from generator.pack.rule_names import registry_matches

if TYPE_CHECKING:
    from generator.maps.model import HexMap
    from generator.pack.model import Pack, RuleSpec


class MapCheck(Protocol):
    """A map rule primitive (MAP_RULES): a map of the pack and the rule as game.yaml gives it, and
    the violations it finds (as rules.context's BuildCheck and PackCheck are for builds and packs)."""

    def __call__(self, m: HexMap, rule: RuleSpec) -> list[Violation]: ...


def regions_cover(m: HexMap, rule: RuleSpec) -> list[Violation]:
    if not m.regions:
        return []
    region_of = {h: rid for rid, cells in m.regions.items() for h in cells}
    out = []
    for h in sorted(m.hexes - set(region_of)):
        # where the hex is written (as an obstacle or terrain), else the map's `regions:` key
        entry = next((e for e in m.entries if e.cell == h and e.kind in ("obstacle", "terrain", "zone", "shape")), None)
        where = entry.location if entry else m.at(("regions",), key=True)
        near = [region_of[n] for n in hexgrid.neighbours(h) if n in region_of]
        guess = max(sorted(set(near)), key=near.count) if near else None
        out.append(Violation(
            rule.id, rule.severity, rule.message.format(hex=h) if rule.message else
            f"hex {h} is in no region: every space of a map with regions must be in one (a boss reaches only "
            "its own region and the regions next to it)", where, f"regions.{guess}.hexes" if guess else "regions",
            observed=list(h), expected="a region of the map",
            fix=rule.fix or (f"add [{h[0]}, {h[1]}] to region `{guess}` ({m.region_names.get(guess, guess)}), "
                             "which surrounds it" if guess else "add it to one of the map's regions")))
    return out


def zone_beside(m: HexMap, rule: RuleSpec) -> list[Violation]:
    zone, terrain = m.zones.get(rule.zone or ""), rule.terrain
    marked = {h for h, tid in m.terrain.items() if tid == terrain}
    if not zone or not marked:
        return []
    name = m.terrain_specs[terrain].name if terrain in m.terrain_specs else terrain
    team_of = {h: team for rid, cells in m.regions.items() if (team := m.region_teams.get(rid)) for h in cells}
    out = []
    for e in m.entries_of("zone"):
        if e.name != rule.zone or e.cell not in zone:
            continue
        touching = [n for n in hexgrid.neighbours(e.cell) if n in marked]
        team = team_of.get(e.cell)
        own = [n for n in touching if team is None or team_of.get(n) in (None, team)]
        if own:
            continue
        what = f"a {name} space of its own team ({team})" if team and touching else f"a {name} space"
        out.append(Violation(
            rule.id, rule.severity, rule.message.format(hex=e.cell, zone=rule.zone, terrain=name) if rule.message else
            f"start space {e.cell} of zone `{rule.zone}` is not next to {what}: a boss starts and comes back "
            f"on a space beside its team's {name}", e.location, f"zones.{rule.zone}[{e.path[-1]}]",
            observed=list(e.cell), expected=f"a hex next to {what}",
            fix=rule.fix or f"move it to a free hex beside {what}, or take it out of `zones.{rule.zone}`"))
    return out


MAP_RULES: dict[str, MapCheck] = {"regions_cover": regions_cover, "zone_beside": zone_beside}
registry_matches("map", rule_names.MAP_CHECKS, MAP_RULES)


def check_pack_map_rules(m: HexMap, pack: Pack) -> list[Violation]:
    """Every map rule of the pack's game.yaml over map `m`."""
    out: list[Violation] = []
    for rule in pack.spec.rules:
        if rule.check in MAP_RULES:
            out.extend(MAP_RULES[rule.check](m, rule))
    return out
