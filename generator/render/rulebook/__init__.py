"""render.rulebook: the rulebook (markdown chapters, columns, cover, tables, reference pages)
and the quick reference.

May import: core, grids, pack, rules, maps, render.base, render.maps."""
