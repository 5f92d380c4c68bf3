"""The names of the rule primitives a pack's `rules:` may use (`check: NAME`).

They live here, below both the loader and the rules, so the loader can refuse an unknown
`check:` with file:line:column without importing the rules package. The rules package
registers one function per name and refuses to import when the two lists differ
(generator.rules.checks and generator.rules.pack_checks; map rules: generator.maps.pack_rules)."""

from __future__ import annotations

from collections.abc import Collection

# primitives run over one build (generator.rules.checks.CHECKS)
BUILD_CHECKS = ("points_limit", "deck_size", "copy_limit", "card_sets", "card_kinds", "slot_capacity",
                "requirements", "count", "owner", "stat_minimum", "unique_cards", "shared_cards",
                "deck_composition", "points_spent")
# primitives run over the whole pack (generator.rules.pack_checks.PACK_CHECKS)
PACK_CHECKS = ("composition", "pack_count", "card_check")
# primitives run over each map of the pack (generator.maps.pack_rules.MAP_RULES)
MAP_CHECKS = ("regions_cover", "zone_beside")
KNOWN_CHECKS = frozenset(BUILD_CHECKS + PACK_CHECKS + MAP_CHECKS)


def registry_matches(kind: str, names: tuple[str, ...], registered: Collection[str]) -> None:
    """Raise at import when a rules registry and the names declared here drift apart."""
    if set(names) != set(registered):
        raise RuntimeError(f"{kind} rule primitives {sorted(registered)} differ from the names declared in "
                           f"generator.pack.rule_names ({sorted(names)}); add the new name there")
